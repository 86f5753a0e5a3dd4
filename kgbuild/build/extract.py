"""Stage `extract`: chunks -> one extraction per chunk, through the extraction cache.

One contract, two backends (offline process pool, LLM over asyncio, see `extract_backends`).
Only chunks the cache lacks are extracted; results are appended to the cache as they arrive, so a
killed build keeps every finished chunk. A failed chunk is reported and kept out of the cache, so
the next build asks again.

`ExtractionRun` is the stage's work for one build, fed chunk lists one after another: the whole
corpus at once (`ExtractStage.run`), or batch by batch by a streamed build, which then reads the
results back from the cache in corpus order (`ExtractionRun.results`) instead of holding them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from kgbuild.build.context import BuildContext
from kgbuild.build.extract_backends import ExtractionBackend, LLMBackend, OfflineBackend
from kgbuild.build.records import ExtractedChunk, ExtractedCorpus
from kgbuild.build.stage import StageResult
from kgbuild.corpus import Corpus
from kgbuild.extract.structure import combine, structure_extract
from kgbuild.ids import content_hash
from kgbuild.llm.types import EndpointRefused
from kgbuild.model import Chunk, ChunkExtraction
from kgbuild.progress import Advance
from kgbuild.report import ExtractSection
from kgbuild.schema import Schema
from kgbuild.workspace import ExtractionCache


def cache_key(chunk: Chunk) -> str:
    return content_hash(f"{chunk.id}|{chunk.content_hash}")


def structures(schema: Schema, corpus: Corpus,
               doc_ids: Iterable[str] | None = None) -> tuple[dict[str, ChunkExtraction], set[str]]:
    """Document-type structures (sections mapped to properties): deterministic and cheap, so
    recomputed every build instead of cached. Returns the extractions and the chunks they handle
    entirely (those need no extractor call). `doc_ids`: only these documents (default: all)."""
    extractions: dict[str, ChunkExtraction] = {}
    handled: set[str] = set()
    if not schema.document_types():
        return extractions, handled
    for doc_id in sorted(corpus.chunks if doc_ids is None else doc_ids):
        result = structure_extract(corpus.docs[doc_id], corpus.chunks[doc_id], schema)
        extractions.update(result.extractions)
        handled |= result.handled
    return extractions, handled


class ExtractionRun:
    """One build's extraction: `plan` and `extract` per list of chunks, `results` at the end."""

    def __init__(self, ctx: BuildContext, backend: ExtractionBackend, fingerprint: str) -> None:
        self.ctx = ctx
        self.backend = backend
        self.section = ExtractSection(extractor=backend.label, notes=list(backend.notes))
        self.cache: ExtractionCache = ctx.workspace.extraction_cache(fingerprint)
        if self.cache.torn_lines:
            self.section.notes.append(
                f"extraction cache: {self.cache.torn_lines} partial line(s) from an interrupted build ignored")
        # Only failures stay in memory (they are not cached); every other result is read back from the cache.
        self.failed: dict[str, ChunkExtraction] = {}
        self._asked = 0
        self._answered = 0

    def plan(self, corpus: Corpus, doc_ids: Sequence[str]) -> list[Chunk]:
        """The chunks of `doc_ids` that need an extractor call; counts the others in the report."""
        chunks = [c for d in sorted(doc_ids) for c in corpus.chunks.get(d, [])]
        _, handled = structures(self.ctx.schema, corpus, [d for d in doc_ids if d in corpus.chunks])
        pending = [c for c in chunks if c.id not in handled]
        todo = pending if not self.ctx.use_cache else [c for c in pending if cache_key(c) not in self.cache]
        # Mapped records need no extractor call: assembly builds their rows (`records.graph`).
        records = sum(corpus.record_chunks[d].num_rows for d in doc_ids if d in corpus.record_chunks)
        self.section.chunks_total += len(chunks) + records
        self.section.chunks_structured += len(handled) + records
        self.section.chunks_cached += len(pending) - len(todo)
        return todo

    async def extract(self, todo: Sequence[Chunk], advance: Advance) -> None:
        """Extract `todo`, each result into the cache as it arrives; the cache is on disk when this returns."""
        self._asked += len(todo)
        if self.section.stopped or not todo:
            return  # the endpoint refused the key or model: the rest count as failed, retried next build
        keys = {c.id: cache_key(c) for c in todo}

        def on_result(result: ExtractedChunk) -> None:
            advance(1)
            self._answered += 1
            if result.failed:
                self.failed[result.chunk_id] = result.extraction
            else:
                self.cache.put(keys[result.chunk_id], result.extraction.model_dump_json())

        try:
            await self.backend.run(todo, on_result)
        except EndpointRefused as exc:
            # The endpoint refused the key or model: the build goes on with what finished
            # (cached ones and earlier documents kept) and names the setting to fix.
            self.section.stopped = exc.line()
        finally:
            self.cache.flush()

    def results(self, corpus: Corpus) -> Iterator[ChunkExtraction]:
        """One extraction per chunk that has one, in corpus order, decoded one at a time."""
        schema = self.ctx.schema
        for doc_id in sorted(corpus.chunks):
            structured, handled = structures(schema, corpus, [doc_id])
            for chunk in corpus.chunks[doc_id]:
                if chunk.id in handled:
                    yield structured[chunk.id]
                    continue
                extraction = self.failed.get(chunk.id)
                if extraction is None:
                    value = self.cache.get(cache_key(chunk))
                    extraction = ChunkExtraction.model_validate_json(value) if value is not None else None
                if extraction is not None and chunk.id in structured:
                    extraction = combine(extraction, structured[chunk.id])
                if extraction is not None:
                    yield extraction

    def finish(self) -> ExtractSection:
        # The offline backend names its extractors and languages once it has seen the chunks.
        self.section.extractor = self.backend.label
        self.section.notes.extend(n for n in self.backend.notes if n not in self.section.notes)
        # Chunks never asked because extraction stopped count as failed: retried next build.
        self.section.chunks_failed = self._asked - self._answered + len(self.failed)
        self.section.chunks_extracted = self._answered - len(self.failed)
        return self.section

    async def aclose(self) -> None:
        """Closes the cache (whatever finished is on disk) and the backend's workers; reading
        `results` still works afterwards (the cache keeps its entries in memory)."""
        self.cache.close()
        close = getattr(self.backend, "aclose", None)  # a backend from elsewhere may hold nothing to close
        if close is not None:
            await close()


class ExtractStage:
    name = "extract"
    config_section = "extract"

    @staticmethod
    def backend(ctx: BuildContext, *, keep_pool: bool = False) -> ExtractionBackend:
        return LLMBackend(ctx) if ctx.extractor_kind() == "llm" else OfflineBackend(ctx, keep_pool=keep_pool)

    def fingerprint(self, ctx: BuildContext) -> str:
        return self._fingerprint(ctx, self.backend(ctx))

    @staticmethod
    def _fingerprint(ctx: BuildContext, backend: ExtractionBackend) -> str:
        return content_hash(f"{backend.fingerprint()}|{ctx.schema.fingerprint()}")

    def open(self, ctx: BuildContext, *, keep_pool: bool = False) -> ExtractionRun:
        """The extraction of one build, for a runner that feeds it batch by batch (close it with `aclose`)."""
        backend = self.backend(ctx, keep_pool=keep_pool)
        return ExtractionRun(ctx, backend, self._fingerprint(ctx, backend))

    async def run(self, ctx: BuildContext, data: Corpus) -> StageResult[ExtractedCorpus]:
        extraction = self.open(ctx)
        try:
            todo = extraction.plan(data, [*data.chunks, *data.record_chunks])
            with ctx.progress.stage("extract", total=len(todo)) as advance:
                await extraction.extract(todo, advance)
        finally:
            await extraction.aclose()
        out = list(extraction.results(data))
        return StageResult(ExtractedCorpus(corpus=data, extractions=out), extraction.finish())
