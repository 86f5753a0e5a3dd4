"""`RayRunner`: the build's pipeline with its data-parallel stages spread over a Ray cluster.

    kgbuild build SOURCES --engine ray [--ray-address HOST:PORT]      (engine: {kind: ray, address: ...})

The pipeline is the local one (`runner.PIPELINES`), stage for stage, its composite `stream` stage
run part by part (read, chunk, extract, assemble, each once over the whole corpus); two stages get a
Ray policy and the write stage gets a step before it, all around the same stage objects:

- `chunk`: `ChunkStage.run` over batches of fresh documents, as Ray tasks; the driver merges the
  per-batch corpora in document order and sums the sections.
- `extract`: the `ExtractStage` itself runs on the driver (its cache, its report); its backend is
  `RayExtractionBackend`, which runs the local backend (offline spaCy or LLM) over batches of
  chunks as Ray tasks and hands each result to the stage as its batch completes, so the stage
  appends it to the extraction cache at once: a build killed at any point (driver or worker) keeps
  every finished batch, and Ray re-runs the batches of a lost node elsewhere.
- `embed` (before `write` when a vector store is configured): the texts the vector store lacks
  are embedded in batches on the cluster and stored in the workspace's embedding cache as they
  come; the write stage then finds every vector cached.

Reading, assembly, alignment (corpus-level), persisting and the store writes run on the driver,
where the workspace is. Model calls from any process go through one `EndpointCoordinator` actor
on the driver's node: one response cache, one concurrency and per-minute budget, claims on
requests in flight; the workers' accounting is summed into the one report.

Ray is imported only here (and in the modules this one imports when it runs).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
import time
import uuid
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

from kgbuild.build.chunk import ChunkStage
from kgbuild.build.context import BuildContext
from kgbuild.build.extract import ExtractStage
from kgbuild.build.extract_backends import ExtractionBackend, OnResult
from kgbuild.build.ray_context import RayBuildContext
from kgbuild.build.ray_local import LOOPBACK_ENV, LocalRay, cluster_env, start_local_ray
from kgbuild.build.records import BuildRequest, ExtractedChunk, PersistedTables, ReadOutput
from kgbuild.build.runner import PIPELINES, run_stages, save_report
from kgbuild.build.stage import Stage, StageResult, part_stages
from kgbuild.config import Config
from kgbuild.corpus import Corpus
from kgbuild.errors import ConfigError
from kgbuild.model import Chunk, ChunkExtraction
from kgbuild.progress import ProgressReporter
from kgbuild.report import BuildReport, ChunkSection
from kgbuild.schema import Schema, resolve_schema

# Documents per chunking task: chunking is fast, so a task should carry enough to outweigh its
# scheduling (about 2 ms per task on one machine).
CHUNK_BATCH_DOCS = 512
# Texts per embedding task.
EMBED_BATCH_TEXTS = 2048


class RayCluster:
    """The connection to the cluster and the build's remote functions and coordinator actor."""

    def __init__(self, config: Config, address: str | None) -> None:
        # An address given: join that cluster (and never start one). None: RAY_ADDRESS, else a
        # one-node cluster started for this build, on loopback and supervised (build/ray_local.py).
        address = address or os.environ.get("RAY_ADDRESS") or None
        self.local = start_local(config.engine.dashboard) if address is None else None
        import ray

        self.ray = ray
        try:
            ray.init(address=self.local.address if self.local else address, log_to_driver=False,
                     logging_level=logging.ERROR, configure_logging=True)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            if self.local:
                self.local.stop()
                raise ConfigError("engine", f"cannot join the local Ray cluster: {str(exc).splitlines()[0]}",
                                  "see docs/scale.md") from None
            raise ConfigError("engine.address", f"cannot join the Ray cluster at {address}: "
                              f"{str(exc).splitlines()[0]}",
                              "start it with `ray start --head`, or check HOST:PORT") from None
        resources: dict[str, float] = ray.cluster_resources()  # type: ignore[no-untyped-call]
        self.cpus = max(1, int(resources.get("CPU", 1)))
        nodes: list[dict[str, Any]] = ray.nodes()  # type: ignore[no-untyped-call]
        self.nodes = len([n for n in nodes if n.get("Alive")])
        from kgbuild.build import ray_tasks

        # Retried on another node when a node dies mid-task (max_retries counts system failures).
        self._task = ray.remote(max_retries=5)(ray_tasks.run_task)
        self.tasks_by_node: dict[str, Counter[str]] = {}  # stage -> node id -> tasks it ran
        self.coordinator: Any = None
        if config.llm.configured():
            from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

            from kgbuild.build.ray_coordinator import EndpointCoordinator

            cache = config.workspace_path() / "cache" / "llm.sqlite" if config.llm.cache else None
            # On the driver's node, where the workspace (and its response cache) is; no CPU, so
            # it never takes a worker's slot.
            here = NodeAffinitySchedulingStrategy(ray.get_runtime_context().get_node_id(), soft=False)
            actor = ray.remote(EndpointCoordinator).options(num_cpus=0, max_concurrency=1000,
                                                             scheduling_strategy=here)
            self.coordinator = actor.remote(config.llm, cache)

    def submit(self, name: str, *args: Any) -> Any:
        """Task `name` of `ray_tasks` on the cluster (an ObjectRef of (node id, value))."""
        # Named, so the worker process shows it in its title (ray::kgbuild-extract) and in Ray's tools.
        return (name, self._task.options(name=f"kgbuild-{name}").remote(name, *args))

    def window(self) -> int:
        """Tasks kept in flight: two per CPU, so every worker has its next batch waiting."""
        return 2 * self.cpus

    def results(self, refs: Iterator[Any]) -> Iterator[tuple[int, Any]]:
        """(index, value) of the tasks `refs` yields, as they complete, with a bounded window."""
        ray = self.ray
        pending: dict[Any, tuple[int, str]] = {}

        def take() -> tuple[int, Any]:
            done, _ = ray.wait(list(pending), num_returns=1)
            index, name = pending.pop(done[0])
            node, value = ray.get(done[0])
            counts = self.tasks_by_node.setdefault(name, Counter())
            counts[node] += 1
            return index, value

        for index, (name, ref) in enumerate(refs):
            pending[ref] = (index, name)
            if len(pending) >= self.window():
                yield take()
        while pending:
            yield take()

    def summary(self) -> str:
        """For the report: the cluster, and how many tasks of each stage each node ran."""
        parts = [f"ray: {self.nodes} node(s), {self.cpus} CPU(s)"]
        for stage, counts in self.tasks_by_node.items():
            parts.append(f"{stage} tasks on {len(counts)} node(s): {sorted(counts.values(), reverse=True)}")
        return "; ".join(parts)

    def close(self) -> None:
        if self.coordinator is not None:
            # The cache commits every put; closing it is a courtesy that must not fail the build.
            with contextlib.suppress(Exception):
                self.ray.get(self.coordinator.close.remote(), timeout=10)
            self.ray.kill(self.coordinator)
        self.ray.shutdown()
        if self.local is not None:
            self.local.stop()


def start_local(dashboard: bool) -> LocalRay:
    """A one-node cluster on 127.0.0.1 for this build, and this process set to reach it there."""
    if "ray" in sys.modules and any(os.environ.get(k) != v for k, v in LOOPBACK_ENV.items()):
        # Ray reads its local-only mode once, when imported: without it the driver would look for
        # the cluster at the machine's primary address, where nothing listens.
        raise ConfigError("engine", "Ray was imported in this process before a local cluster could be kept on "
                          "loopback", "give engine.address, or set RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0 first")
    env = cluster_env()
    # For the rest of this process: the driver's own Ray servers bind 127.0.0.1 as well, and it
    # presents the cluster's token.
    os.environ.update(env)
    try:
        local = start_local_ray(env, dashboard=dashboard)
    except RuntimeError as exc:
        hint = ("the dashboard (engine.dashboard) needs `pip install 'ray[default]==2.60.0'`" if dashboard else
                "or give engine.address / --ray-address of a running cluster")
        raise ConfigError("engine", f"cannot start a local Ray cluster: {exc}", hint) from None
    if local.dashboard_url:
        print(f"Ray dashboard: {local.dashboard_url}", file=sys.stderr)
    return local


def _batches(items: Sequence[Any], size: int) -> Iterator[list[Any]]:
    for start in range(0, len(items), max(size, 1)):
        yield list(items[start : start + size])


class RayChunkStage:
    """`ChunkStage` over batches of fresh documents on the cluster."""

    name = "chunk"
    config_section = "chunking"

    def __init__(self, cluster: RayCluster, spec: Any) -> None:
        self.inner = ChunkStage()
        self.cluster = cluster
        self.spec = spec

    def fingerprint(self, ctx: BuildContext) -> str:
        return self.inner.fingerprint(ctx)

    async def run(self, ctx: BuildContext, data: ReadOutput) -> StageResult[Corpus]:
        corpus = data.corpus
        batches = list(_batches(data.fresh, CHUNK_BATCH_DOCS))
        if len(batches) <= 1:
            # One batch or none: shipping it to a worker (which must first start and import
            # kgbuild, ~3 s) costs more than chunking it here.
            return await self.inner.run(ctx, data)

        def known(docs: list[Any]) -> Corpus:
            ids = [d.id for d in docs if d.id in corpus.docs]
            return Corpus(docs={i: corpus.docs[i] for i in ids}, chunkers={i: corpus.chunkers[i] for i in ids},
                          chunks={i: corpus.chunks[i] for i in ids if i in corpus.chunks})

        outputs: dict[int, tuple[Corpus, ChunkSection]] = {}
        with ctx.progress.stage("chunk", total=len(data.fresh)) as advance:

            def run_all() -> None:
                refs = (self.cluster.submit("chunk", self.spec, batch, known(batch)) for batch in batches)
                for index, (part, section, usage) in self.cluster.results(refs):
                    outputs[index] = (part, section)
                    _merge_usage(ctx, usage)
                    advance(len(batches[index]))

            await asyncio.to_thread(run_all)
        section = ChunkSection()
        for index, batch in enumerate(batches):
            part, sub = outputs[index]
            for doc in batch:  # in reading order, as the local stage leaves them
                if doc.id in part.docs:
                    corpus.docs[doc.id] = part.docs[doc.id]
                    corpus.chunkers[doc.id] = part.chunkers[doc.id]
                    if doc.id in part.chunks:
                        corpus.chunks[doc.id] = part.chunks[doc.id]
            section.documents_new += sub.documents_new
            section.documents_changed += sub.documents_changed
            section.documents_unchanged += sub.documents_unchanged
            section.oversize_sentences += sub.oversize_sentences
            section.skipped.extend(sub.skipped)
            # The stage's note on oversize sentences counts its own batch: said once, for all, below.
            section.notes.extend(n for n in sub.notes if "were cut at token boundaries" not in n
                                 and n not in section.notes)
        if section.oversize_sentences:
            section.notes.append(f"{section.oversize_sentences} sentence(s) longer than chunking.max_tokens="
                                 f"{ctx.config.chunking.max_tokens} were cut at token boundaries")
        section.documents_total = len(corpus.docs)
        return StageResult(corpus, section)


def _merge_usage(ctx: BuildContext, usage: dict[str, Any] | None) -> None:
    if usage and isinstance(ctx, RayBuildContext):
        ctx.remote_usage.merge(usage)


class RayExtractionBackend:
    """The local extraction backend, run by Ray tasks over batches of chunks (see module doc)."""

    def __init__(self, ctx: RayBuildContext, local: ExtractionBackend, cluster: RayCluster, spec: Any) -> None:
        self.ctx = ctx
        self.local = local
        self.cluster = cluster
        self.spec = spec
        self.label = local.label
        self.notes = local.notes

    def fingerprint(self) -> str:
        # The local backend's: a Ray build and a local build share one extraction cache.
        return self.local.fingerprint()

    async def run(self, chunks: Sequence[Chunk], on_result: OnResult) -> None:
        size = self.ctx.config.engine.batch_size
        batches = list(_batches(chunks, size))
        refusals: list[Any] = []

        def run_all() -> None:
            refs = (self.cluster.submit("extract", self.spec, batch) for batch in batches)
            for _, (rows, usage, refused) in self.cluster.results(refs):
                for chunk_id, payload, failed in rows:
                    extraction = ChunkExtraction.model_validate_json(payload)
                    on_result(ExtractedChunk(chunk_id=chunk_id, extraction=extraction, failed=failed))
                _merge_usage(self.ctx, usage)
                if refused is not None:
                    refusals.append(refused)

        await asyncio.to_thread(run_all)
        if refusals:
            raise refusals[0].error()


class RayExtractStage(ExtractStage):
    """The `extract` stage itself (cache, report, structures); only its backend runs on the cluster."""

    def __init__(self, cluster: RayCluster, spec: Any) -> None:
        self.cluster = cluster
        self.spec = spec

    def backend(self, ctx: BuildContext, *, keep_pool: bool = False) -> ExtractionBackend:  # type: ignore[override]
        # keep_pool is the local streamed build's (its worker processes); the cluster's tasks are Ray's.
        local = ExtractStage.backend(ctx)
        if not isinstance(ctx, RayBuildContext):
            return local
        return RayExtractionBackend(ctx, local, self.cluster, self.spec)


class RayEmbedStage:
    """The vectors the store lacks, computed on the cluster into the workspace's embedding cache."""

    name = "embed"
    config_section = "embedding"

    def __init__(self, cluster: RayCluster, spec: Any) -> None:
        self.cluster = cluster
        self.spec = spec

    def fingerprint(self, ctx: BuildContext) -> str:
        return ""  # the embedding cache is keyed by model name and text

    async def run(self, ctx: BuildContext, data: PersistedTables) -> StageResult[PersistedTables]:
        if ctx.config.vector_store.backend == "none":
            return StageResult(data, None)
        import numpy as np

        from kgbuild.embed.cached import open_embedder
        from kgbuild.store.vector_sync import vector_texts

        embedder = open_embedder(ctx.config, ctx.workspace.path, ctx.models)
        try:
            todo = embedder.missing(vector_texts(ctx.workspace))
            batches = list(_batches(todo, EMBED_BATCH_TEXTS))
            with ctx.progress.stage("embed", total=len(todo)) as advance:

                def run_all() -> None:
                    refs = (self.cluster.submit("embed", self.spec, batch) for batch in batches)
                    for index, blob in self.cluster.results(refs):
                        vectors = np.frombuffer(blob, dtype=np.float32).reshape(len(batches[index]), -1)
                        embedder.store(batches[index], vectors)  # committed per batch
                        advance(len(batches[index]))

                await asyncio.to_thread(run_all)
        finally:
            embedder.close()
        return StageResult(data, None)


def ray_pipeline(pipeline: str, cluster: RayCluster, spec: Any) -> list[Stage[Any, Any]]:
    """The named local pipeline with the Ray policy for the stages that spread over the cluster."""
    stages: list[Stage[Any, Any]] = []
    for stage in (part for composite in PIPELINES[pipeline] for part in part_stages(composite)):
        if isinstance(stage, ChunkStage):
            stages.append(RayChunkStage(cluster, spec))
        elif isinstance(stage, ExtractStage):
            stages.append(RayExtractStage(cluster, spec))
        else:
            if stage.name == "write":
                stages.append(RayEmbedStage(cluster, spec))
            stages.append(stage)
    return stages


class RayRunner:
    def __init__(self, config: Config, *, progress: ProgressReporter | None = None, use_cache: bool = True,
                 address: str | None = None) -> None:
        self.config = config
        self.progress = progress
        self.use_cache = use_cache
        self.address = address if address is not None else config.engine.address

    async def run(self, request: BuildRequest, pipeline: str = "default") -> BuildReport:
        """Run the named pipeline over `request` on the cluster; the report is saved and returned."""
        t0 = time.perf_counter()
        schema = resolve_schema(self.config.schema_location())  # a bad schema stops before Ray starts
        # Ray prints cluster events (a node lost, a worker killed) on stdout from a thread of its
        # own; stdout belongs to the command's output (`--json`), so they go to stderr.
        with contextlib.redirect_stdout(sys.stderr):
            report, ctx = await self._on_cluster(request, pipeline, schema)
        # Saved once the cluster is shut down: the wall time counts joining and leaving it.
        save_report(ctx, report, t0)
        return report

    async def _on_cluster(self, request: BuildRequest, pipeline: str,
                          schema: Schema) -> tuple[BuildReport, RayBuildContext]:
        from kgbuild.build.ray_tasks import BuildSpec

        cluster = RayCluster(self.config, self.address)
        try:
            ctx = RayBuildContext(self.config, schema, cluster.coordinator, progress=self.progress,
                                  use_cache=self.use_cache, workers=cluster.cpus)
            spec = BuildSpec(uuid.uuid4().hex, self.config, schema, cluster.coordinator, self.use_cache)
            # No local batching (the stream stage's parts run whole): the chunk and extract stages
            # spread over the cluster themselves. The embed stage returns no section but its time is the cluster's work.
            report, _ = await run_stages(ctx, ray_pipeline(pipeline, cluster, spec), request, pipeline,
                                         timed=(RayEmbedStage.name,))
            report.engine = cluster.summary()  # known only now: the tasks each node ran
        finally:
            cluster.close()
        return report, ctx
