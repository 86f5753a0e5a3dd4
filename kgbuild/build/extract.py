"""Stage `extract`: chunks -> one extraction per chunk, through the extraction cache.

One contract, two backends (offline process pool, LLM over asyncio, see `extract_backends`).
Only chunks the cache lacks are extracted; results are appended to the cache as they arrive, so a
killed build keeps every finished chunk. A failed chunk is reported and kept out of the cache, so
the next build asks again.
"""

from __future__ import annotations

from kgbuild.build.context import BuildContext
from kgbuild.build.extract_backends import ExtractionBackend, LLMBackend, OfflineBackend
from kgbuild.build.records import ExtractedChunk, ExtractedCorpus
from kgbuild.build.stage import StageResult
from kgbuild.corpus import Corpus
from kgbuild.extract.structure import combine, structure_extract
from kgbuild.ids import content_hash
from kgbuild.llm.types import EndpointRefused
from kgbuild.model import Chunk, ChunkExtraction
from kgbuild.report import ExtractSection
from kgbuild.schema import Schema


def cache_key(chunk: Chunk) -> str:
    return content_hash(f"{chunk.id}|{chunk.content_hash}")


def structures(schema: Schema, corpus: Corpus) -> tuple[dict[str, ChunkExtraction], set[str]]:
    """Document-type structures (sections mapped to properties): deterministic and cheap, so
    recomputed every build instead of cached. Returns the extractions and the chunks they handle
    entirely (those need no extractor call)."""
    extractions: dict[str, ChunkExtraction] = {}
    handled: set[str] = set()
    if not schema.document_types():
        return extractions, handled
    for doc_id in sorted(corpus.chunks):
        result = structure_extract(corpus.docs[doc_id], corpus.chunks[doc_id], schema)
        extractions.update(result.extractions)
        handled |= result.handled
    return extractions, handled


class ExtractStage:
    name = "extract"
    config_section = "extract"

    @staticmethod
    def backend(ctx: BuildContext) -> ExtractionBackend:
        return LLMBackend(ctx) if ctx.extractor_kind() == "llm" else OfflineBackend(ctx)

    def fingerprint(self, ctx: BuildContext) -> str:
        return self._fingerprint(ctx, self.backend(ctx))

    @staticmethod
    def _fingerprint(ctx: BuildContext, backend: ExtractionBackend) -> str:
        return content_hash(f"{backend.fingerprint()}|{ctx.schema.fingerprint()}")

    async def run(self, ctx: BuildContext, data: Corpus) -> StageResult[ExtractedCorpus]:
        chunks = data.all_chunks()
        structured, handled = structures(ctx.schema, data)
        pending = [c for c in chunks if c.id not in handled]
        backend = self.backend(ctx)
        section = ExtractSection(extractor=backend.label, chunks_total=len(chunks), chunks_structured=len(handled),
                                 notes=list(backend.notes))
        cache = ctx.workspace.extraction_cache(self._fingerprint(ctx, backend))
        if cache.torn_lines:
            section.notes.append(
                f"extraction cache: {cache.torn_lines} partial line(s) from an interrupted build ignored")
        todo = pending if not ctx.use_cache else [c for c in pending if cache_key(c) not in cache]
        section.chunks_cached = len(pending) - len(todo)
        keys = {c.id: cache_key(c) for c in todo}
        fresh: dict[str, ChunkExtraction] = {}
        failed: set[str] = set()
        try:
            with ctx.progress.stage("extract", total=len(todo)) as advance:

                def on_result(result: ExtractedChunk) -> None:
                    advance(1)
                    fresh[result.chunk_id] = result.extraction
                    if result.failed:
                        failed.add(result.chunk_id)
                    else:
                        cache.put(keys[result.chunk_id], result.extraction.model_dump_json())

                try:
                    await backend.run(todo, on_result)
                except EndpointRefused as exc:
                    # The endpoint refused the key or model: the build goes on with what finished
                    # (cached ones and earlier documents kept) and names the setting to fix.
                    section.stopped = exc.line()
        finally:
            cache.close()  # whatever finished is on disk, even if the build is interrupted
        # The offline backend names its extractors and languages once it has seen the chunks.
        section.extractor = backend.label
        section.notes.extend(n for n in backend.notes if n not in section.notes)
        # Chunks never asked because extraction stopped count as failed: retried next build.
        section.chunks_failed = len(todo) - len(fresh) + len(failed)
        section.chunks_extracted = len(fresh) - len(failed)
        out = []
        for chunk in chunks:
            if chunk.id in handled:
                out.append(structured[chunk.id])
                continue
            extraction = fresh.get(chunk.id)
            if extraction is None:
                value = cache.get(cache_key(chunk))
                extraction = ChunkExtraction.model_validate_json(value) if value is not None else None
            if extraction is not None and chunk.id in structured:
                extraction = combine(extraction, structured[chunk.id])
            if extraction is not None:
                out.append(extraction)
        return StageResult(ExtractedCorpus(corpus=data, extractions=out), section)
