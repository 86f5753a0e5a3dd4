"""The two implementations of extraction behind the one `extract` stage: spaCy rules over a pool of
worker processes, and a model asked over asyncio. Both hand each chunk back as an `ExtractedChunk`."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Protocol

from kgbuild.build.context import BuildContext
from kgbuild.build.records import ExtractedChunk
from kgbuild.build.vector_prefetch import open_prefetch
from kgbuild.extract.language import tally_languages, unsupported_line
from kgbuild.extract.llm_pack import Job
from kgbuild.extract.routing import LanguageRouter
from kgbuild.extract.runner import ExtractionResult, ExtractorSpec, WorkerPool, run_extraction
from kgbuild.extract.spacy_models import model_info
from kgbuild.ids import content_hash
from kgbuild.llm.types import EndpointRefused
from kgbuild.model import Chunk, ChunkExtraction

OnResult = Callable[[ExtractedChunk], None]


class ExtractionBackend(Protocol):
    label: str  # what the report names as the extractor
    notes: list[str]  # for the report, e.g. warnings about a domain concept file

    def fingerprint(self) -> str:
        """What decides the output, except the schema (the stage adds it)."""
        ...

    async def run(self, chunks: Sequence[Chunk], on_result: OnResult) -> None:
        """Extract every chunk, calling `on_result` once per chunk as results arrive (any order)."""
        ...


class OfflineBackend:
    """spaCy NER + dependency rules; a spawn-started process pool when there is enough work.

    `keep_pool`: the workers stay up between `run` calls (a streamed build calls it once per batch)
    until `aclose`; they are driven from one dedicated thread, which outlives them (see WorkerPool).
    """

    def __init__(self, ctx: BuildContext, *, keep_pool: bool = False) -> None:
        ex_cfg = ctx.config.extract
        concepts = str((ctx.config.root / ex_cfg.domain_concepts).resolve()) if ex_cfg.domain_concepts else None
        self.spec = ExtractorSpec(ctx.config.schema_location(), tuple(ex_cfg.spacy_models), ex_cfg.batch_size,
                                  concepts, ex_cfg.prompt_language, ex_cfg.code_entities)
        self.extractor = LanguageRouter(ctx.schema, self.spec.spacy_models, self.spec.batch_size, concepts,
                                        ex_cfg.prompt_language, ex_cfg.code_entities)  # cheap: models load on first use
        self.label = "spacy-rules"
        self.notes: list[str] = []
        self.workers = ctx.workers
        self._pool = WorkerPool(self.spec, self.workers) if keep_pool else None
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="kgbuild-extract") if keep_pool else None

    def fingerprint(self) -> str:
        return self.extractor.fingerprint()

    async def aclose(self) -> None:
        if self._pool is not None and self._thread is not None:
            await asyncio.get_running_loop().run_in_executor(self._thread, self._pool.close)
            self._thread.shutdown()

    async def run(self, chunks: Sequence[Chunk], on_result: OnResult) -> None:
        batch_size = self.spec.batch_size
        pooled = self._pool is not None and self._pool.started
        in_process = not pooled and (self.workers <= 1 or len(chunks) <= batch_size)
        # Fail once, with the setting to fix, rather than once per chunk inside the workers. With a
        # pool, a look at the installed model's metadata is enough: the parent never parses text,
        # so it should not pay for loading spaCy.
        chinese = [self.extractor.is_chinese(c) for c in chunks]
        used = (("spacy-rules", not all(chinese)), ("jieba-rules", any(chinese)))
        self.label = " + ".join(name for name, on in used if on) or "spacy-rules"
        tally = tally_languages(c.text for c in chunks)
        if (line := unsupported_line(tally)) is not None:
            self.notes.append(line)
        if chunks and (in_process or model_info(self.spec.spacy_models) is None or any(chinese)):
            self.extractor.load(chunks)

        def deliver(result: ExtractionResult) -> None:
            # Workers send JSON (cheap to pickle); it becomes a record here, at the pool's edge.
            extraction = ChunkExtraction.model_validate_json(result.payload)
            on_result(ExtractedChunk(chunk_id=result.chunk_id, extraction=extraction, failed=result.failed))

        # The process pool blocks; a thread keeps the event loop free.
        call = functools.partial(run_extraction, self.spec, chunks, workers=self.workers, batch_size=batch_size,
                                 on_result=deliver, extractor=self.extractor, pool=self._pool)
        if self._thread is not None:
            await asyncio.get_running_loop().run_in_executor(self._thread, call)
        else:
            await asyncio.to_thread(call)


class LLMBackend:
    """Few-shot extraction by a model, with domain concepts retrieved into each chunk's prompt."""

    def __init__(self, ctx: BuildContext) -> None:
        from kgbuild.extract.llm import LLMExtractor

        cfg, ex_cfg = ctx.config.llm.for_role("extract"), ctx.config.extract  # llm.roles.extract over llm
        self.ctx = ctx
        self.extractor = LLMExtractor(
            ctx.gateway("extract.extractor"), ctx.schema, ctx.prompts(), mode=ex_cfg.mode,
            constrained=ex_cfg.constrained, max_reasks=ex_cfg.max_reasks,
            model_label=f"{cfg.base_url}|{cfg.model_for('extract')}", pack_tokens=ex_cfg.pack_tokens,
            pack_max_chunks=ex_cfg.pack_max_chunks,
        )
        self.label = f"{self.extractor.name} ({cfg.model_for('extract')}, {ex_cfg.mode})"
        self.concepts = ctx.domain_concepts(ex_cfg.domain_concepts) if ex_cfg.domain_concepts else None
        self.notes = [f"domain concepts: {w}" for w in self.concepts.concepts.warnings] if self.concepts else []
        self.consumers = cfg.concurrency * 2

    async def aclose(self) -> None:
        """Nothing of its own to release: the gateway belongs to the build context."""

    def fingerprint(self) -> str:
        fingerprint = self.extractor.fingerprint()
        if self.concepts is None:
            return fingerprint
        ex_cfg = self.ctx.config.extract
        return fingerprint + "|concepts:" + content_hash(
            f"{self.concepts.fingerprint}|{ex_cfg.concept_embedder}|{ex_cfg.concept_candidates}")

    def candidates(self, chunks: Sequence[Chunk]) -> list[list[str]]:
        """KAG 2.2.3: the domain's own terms, retrieved per chunk, go into its prompt so instances
        are typed with the domain's vocabulary."""
        if self.concepts is None or not chunks:
            return [[] for _ in chunks]
        from kgbuild.extract.domain_concepts import ConceptIndex

        ex_cfg = self.ctx.config.extract
        embedder = (self.ctx.embedder(ex_cfg.concept_embedder, "extract.concept_embedder")
                    if ex_cfg.concept_embedder else None)
        found = ConceptIndex(self.concepts.concepts, embedder).candidates_batch(
            [c.text for c in chunks], ex_cfg.concept_candidates)
        return [[c.name for c in hits] for hits in found]

    async def run(self, chunks: Sequence[Chunk], on_result: OnResult) -> None:
        # A fixed set of consumers (not one task per job) keeps memory flat on big corpora; the
        # gateway's own limits decide how many requests are really in flight. A job is one chunk or
        # a pack of short ones (extract.pack_tokens).
        plan = self.extractor.plan(chunks, self.candidates(chunks))
        queue: asyncio.Queue[Job] = asyncio.Queue()
        for item in plan.cached:  # answered by the reply cache: no call
            queue.put_nowait(Job([item], item.alone))
        for job in plan.jobs:
            queue.put_nowait(job)

        refused: list[EndpointRefused] = []
        # The vector stage's embedding, on a worker thread while the consumers wait on the model;
        # one prefetch for the whole build, finished by the write stage (kgbuild.build.vector_prefetch).
        texts = [c.text for c in chunks]
        prefetch = self.ctx.vector_prefetch
        if prefetch is None and chunks and self.ctx.prefetch_vectors:
            prefetch = self.ctx.vector_prefetch = open_prefetch(self.ctx.config, self.ctx.models, texts)
        if prefetch is not None:
            prefetch.add(texts)
            delivered = on_result

            def on_result(result: ExtractedChunk) -> None:
                prefetch.add_extraction(result.extraction)
                delivered(result)

        async def consume() -> None:
            while not queue.empty() and not refused:
                job = queue.get_nowait()
                try:
                    outcomes = await self.extractor.aextract_job(job)
                except EndpointRefused as exc:
                    # The key or model is wrong: every other chunk would fail the same way, so
                    # stop taking chunks; what finished was already handed on (and cached).
                    refused.append(exc)
                    return
                for chunk, extraction, failed in outcomes:
                    on_result(ExtractedChunk(chunk_id=chunk.id, extraction=extraction, failed=failed))

        try:
            await asyncio.gather(*(consume() for _ in range(min(queue.qsize(), self.consumers) or 1)))
        finally:
            if prefetch is not None:
                prefetch.flush()  # this batch's last texts; nothing waits for them before the write stage
        if refused:
            raise refused[0]
