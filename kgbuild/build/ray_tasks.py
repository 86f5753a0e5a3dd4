"""What a Ray worker runs for a build: the local stages' own code over one batch.

Each function is a plain function; `ray_runner` wraps it with `ray.remote`. A worker process keeps
the context of the build it serves (the extractor with its loaded spaCy pipeline, the sentence
model) between tasks, the way the local pool's workers keep theirs, so a batch pays for models
once per process, not once per task. Results go back to the driver, which persists them: workers
write nothing, so they need no access to the workspace.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from kgbuild.build.chunk import ChunkStage
from kgbuild.build.extract import ExtractStage
from kgbuild.build.extract_backends import ExtractionBackend
from kgbuild.build.ray_context import RayBuildContext
from kgbuild.build.records import ExtractedChunk, ReadOutput
from kgbuild.config import Config
from kgbuild.corpus import Corpus
from kgbuild.llm.types import EndpointRefused
from kgbuild.model import Chunk, Document
from kgbuild.report import ChunkSection
from kgbuild.schema import Schema


@dataclass(frozen=True)
class BuildSpec:
    """What every task of one build needs to recreate the build's context on a worker (picklable)."""

    build_id: str
    config: Config
    schema: Schema
    coordinator: Any  # the EndpointCoordinator actor handle, or None when no model is configured
    use_cache: bool


@dataclass(frozen=True)
class Refusal:
    """An `EndpointRefused` carried back to the driver as data (its constructor does not survive Ray's wrapping)."""

    where: str
    problem: str
    hint: str
    status: int | None

    def error(self) -> EndpointRefused:
        return EndpointRefused(self.where, self.problem, self.hint, status=self.status)


@dataclass
class _WorkerState:
    build_id: str
    ctx: RayBuildContext
    backend: ExtractionBackend | None = None


# The context of the build this worker process serves, replaced when a task of another build
# arrives. Module state on purpose, and only ever set inside Ray worker processes (as in
# extract/runner.py's pool workers): it is what lets tasks share loaded models.
_state: list[_WorkerState] = []


def _context(spec: BuildSpec) -> _WorkerState:
    if not _state or _state[0].build_id != spec.build_id:
        ctx = RayBuildContext(spec.config, spec.schema, spec.coordinator, use_cache=spec.use_cache, workers=1)
        _state[:] = [_WorkerState(spec.build_id, ctx)]
    return _state[0]


def chunk_batch(spec: BuildSpec, docs: list[Document], known: Corpus) -> tuple[Corpus, ChunkSection,
                                                                                  dict[str, Any] | None]:
    """`ChunkStage` over some fresh documents; `known` holds what the workspace has of them."""
    state = _context(spec)
    result = asyncio.run(ChunkStage().run(state.ctx, ReadOutput(fresh=docs, corpus=known)))
    section = result.section
    assert isinstance(section, ChunkSection)
    return result.output, section, state.ctx.usage_snapshot()


ExtractedRow = tuple[str, str, bool]  # chunk id, ChunkExtraction as JSON, failed


def extract_batch(spec: BuildSpec, chunks: list[Chunk]) -> tuple[list[ExtractedRow], dict[str, Any] | None,
                                                                   Refusal | None]:
    """The `extract` stage's backend (offline or LLM, as the config decides) over one batch of chunks."""
    state = _context(spec)
    if state.backend is None:
        state.backend = ExtractStage.backend(state.ctx)
    backend = state.backend
    rows: list[ExtractedRow] = []

    def keep(result: ExtractedChunk) -> None:
        rows.append((result.chunk_id, result.extraction.model_dump_json(), result.failed))

    async def run() -> Refusal | None:
        try:
            await backend.run(chunks, keep)
        except EndpointRefused as exc:
            return Refusal(exc.where, exc.problem, exc.hint, exc.status)
        return None

    refused = asyncio.run(run())
    return rows, state.ctx.usage_snapshot(), refused


def embed_batch(spec: BuildSpec, texts: list[str]) -> bytes:
    """`embedding.model` over some texts: float32 rows, concatenated (compact to ship back)."""
    from kgbuild.embed.choice import dense_embedder

    state = _context(spec)
    # The model the driver's embedding cache is keyed by: `embedding.model: auto` resolves by the
    # project's language, so it is resolved here the same way, not read raw from the config.
    embedder = dense_embedder(spec.config, state.ctx.workspace.path, state.ctx.models)
    return np.asarray(embedder.embed(texts), dtype=np.float32).tobytes()


_TASKS: dict[str, Callable[..., Any]] = {"chunk": chunk_batch, "extract": extract_batch, "embed": embed_batch}


def run_task(name: str, *args: Any) -> tuple[str, Any]:
    """Task `name` of this module with `args`, and the id of the node it ran on (for the report)."""
    import ray

    return ray.get_runtime_context().get_node_id(), _TASKS[name](*args)
