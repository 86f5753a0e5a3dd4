"""The front of a build as one composite stage: read, chunk, extract and assemble.

With `build.batch_documents` > 0 (the default, 500) it streams: the documents are read, chunked and
extracted in bounded batches, and peak memory follows the batch, not the corpus. A batch's documents
are chunked into the corpus index, its chunks extracted by workers that stay up for the whole build,
and every result goes to the extraction cache on disk (flushed at the end of each batch, so a killed
build loses nothing finished and the re-run asks only for the rest). No extraction is held in memory
between batches: assembly decodes them from the cache one at a time, in corpus order, so the tables
come out the same as a build of the whole corpus in one batch. With 0 the four parts run one after
the other over the whole corpus. `kgbuild build --dry-run` reads and chunks through the same batches
(`read_and_chunk`) and stops before extraction.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from kgbuild.build.assemble import AssembleStage
from kgbuild.build.chunk import Chunking, ChunkStage
from kgbuild.build.context import BuildContext
from kgbuild.build.extract import ExtractionRun, ExtractStage
from kgbuild.build.read import Reading, ReadStage
from kgbuild.build.records import BuildRequest, BuiltGraph
from kgbuild.build.stage import Stage, StageResult
from kgbuild.build.unchanged import NOTE, KeptTables, kept, nothing_changed
from kgbuild.corpus import Corpus
from kgbuild.ids import content_hash
from kgbuild.progress import StageBars, stage_bars
from kgbuild.report import ChunkSection, ExtractSection, ReadSection, Section


class Clock:
    """Seconds per part, summed over the batches."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}

    @contextmanager
    def __call__(self, stage: str) -> Iterator[None]:
        t = time.perf_counter()
        try:
            yield
        finally:
            self.seconds[stage] = self.seconds.get(stage, 0.0) + time.perf_counter() - t


async def _extract(extraction: ExtractionRun, corpus: Corpus, doc_ids: list[str], bars: StageBars) -> None:
    todo = extraction.plan(corpus, doc_ids)
    bars.grow("extract", len(todo))
    await extraction.extract(todo, bars.advancer("extract"))


@dataclass
class Front:
    """One build's reading and chunking runs (their report sections) and the corpus they update."""

    reading: Reading
    chunking: Chunking
    covered: set[str] = field(default_factory=set)  # ids of the documents read and chunked now

    @property
    def corpus(self) -> Corpus:
        return self.reading.corpus

    def bar_names(self, *, extract: bool = True) -> tuple[str, ...]:
        split = ("split",) if self.chunking.planner else ()
        return ("read", *split, "chunk", *(("extract",) if extract else ()))


class StreamStage:
    """read -> chunk -> extract -> assemble as one stage of `PIPELINES`: BuildRequest -> BuiltGraph,
    with the four parts' report sections and seconds (`StageResult.parts`, `StageResult.seconds`)."""

    name = "stream"
    config_section = "build"

    def __init__(self) -> None:
        self.read, self.chunk, self.extract, self.assemble = ReadStage(), ChunkStage(), ExtractStage(), AssembleStage()
        self.parts: tuple[Stage[Any, Any], ...] = (self.read, self.chunk, self.extract, self.assemble)

    def fingerprint(self, ctx: BuildContext) -> str:
        return content_hash("|".join(part.fingerprint(ctx) for part in self.parts))

    async def run(self, ctx: BuildContext, data: BuildRequest) -> StageResult[BuiltGraph | KeptTables]:
        size = ctx.config.build.batch_documents
        if size <= 0:
            return await self._whole(ctx, data)
        return await self._streamed(ctx, data, size)

    async def _whole(self, ctx: BuildContext, request: BuildRequest) -> StageResult[BuiltGraph | KeptTables]:
        """Each part once, over the whole corpus."""
        sections: list[Section] = []
        seconds: dict[str, float] = {}
        out: Any = request
        for part in self.parts:
            t = time.perf_counter()
            result = await part.run(ctx, out)
            out = result.output
            if result.section is not None:
                sections.append(result.section)
                seconds[part.name] = round(time.perf_counter() - t, 3)
            if part is self.extract and ctx.last_build is not None:
                read, chunked, extracted = sections
                assert isinstance(read, ReadSection) and isinstance(chunked, ChunkSection)
                assert isinstance(extracted, ExtractSection)
                if nothing_changed(read, chunked, extracted):
                    read.notes.append(NOTE)
                    return StageResult(kept(ctx.last_build), None, parts=tuple(sections), seconds=seconds)
        return StageResult(out, None, parts=tuple(sections), seconds=seconds)

    def open(self, ctx: BuildContext, request: BuildRequest) -> Front:
        """Start reading and chunking: explicit removals first (an unknown id stops the build before
        any work; a document removed and read again comes back as new, as in a build of one batch)."""
        reading = self.read.open(ctx, request)
        reading.remove(request.remove, prune=False)
        return Front(reading, self.chunk.open(ctx))

    async def read_and_chunk(self, front: Front, request: BuildRequest, size: int | None, bars: StageBars,
                             clock: Clock) -> AsyncIterator[list[str]]:
        """Read and chunk `size` documents at a time (None: all at once) into `front.corpus`, yielding the ids of each
        batch's documents that have chunks; pruning (`--prune`) comes after the last batch."""
        reading, chunking, corpus = front.reading, front.chunking, front.corpus
        batches = reading.batches(size, bars.advancer("read"))
        while True:
            with clock("read"):
                batch = next(batches, None)
            if batch is None:
                break
            with clock("chunk"):
                todo = chunking.changed(batch, corpus)
                bars.grow("chunk", len(todo))
                if chunking.planner:
                    bars.grow("split", sum(len(chunking.chunker.long_paragraphs(d)) for d in todo))
                plans = await chunking.plan(todo, bars.advancer("split") if chunking.planner else None)
                chunking.chunk(todo, corpus, bars.advancer("chunk"), plans)
            ids = [d.id for d in batch if d.id in corpus.chunks or d.id in corpus.record_chunks]
            front.covered.update(ids)
            yield ids
        with clock("read"):
            if request.prune:
                reading.remove([], prune=True)

    async def _streamed(self, ctx: BuildContext, request: BuildRequest,
                        size: int) -> StageResult[BuiltGraph | KeptTables]:
        clock = Clock()
        with clock("read"):
            front = self.open(ctx, request)
        corpus = front.corpus
        extraction = self.extract.open(ctx, keep_pool=True)
        try:
            with stage_bars(ctx.progress, front.bar_names()) as bars:
                async for ids in self.read_and_chunk(front, request, size, bars, clock):
                    with clock("extract"):
                        await _extract(extraction, corpus, ids, bars)
                # Documents kept from earlier builds and not read now: their chunks may still lack an
                # extraction under this build's settings (e.g. a changed schema).
                with clock("extract"):
                    rest = [d for d in sorted(corpus.chunks) if d not in front.covered]
                    for start in range(0, len(rest), size):
                        await _extract(extraction, corpus, rest[start:start + size], bars)
        finally:
            with clock("extract"):
                await extraction.aclose()
        chunk_section = front.chunking.finish(corpus)
        extract_section = extraction.finish()
        if ctx.last_build is not None and nothing_changed(front.reading.section, chunk_section, extract_section):
            front.reading.section.notes.append(NOTE)
            return StageResult(kept(ctx.last_build), None,
                               parts=(front.reading.section, chunk_section, extract_section),
                               seconds={k: round(v, 3) for k, v in clock.seconds.items()})
        with clock("assemble"):
            assembled = self.assemble.assemble_from(ctx, corpus, extraction.results(corpus),
                                                    extract_section.chunks_total)
        sections: list[Section] = [front.reading.section, chunk_section, extract_section]
        if assembled.section is not None:
            sections.append(assembled.section)
        return StageResult(assembled.output, None, parts=tuple(sections),
                           seconds={k: round(v, 3) for k, v in clock.seconds.items()})
