"""The front of a streamed build: read, chunk and extract in bounded batches of documents, then
assemble the graph from the extraction cache.

Peak memory follows the batch, not the corpus: a batch's documents are chunked into the corpus
index, its chunks extracted by workers that stay up for the whole build, and every result goes to
the extraction cache on disk (flushed at the end of each batch, so a killed build loses nothing
finished and the re-run asks only for the rest). No extraction is held in memory between batches:
assembly decodes them from the cache one at a time, in corpus order, so the tables come out the
same as a build of the whole corpus in one batch. Alignment and the later stages then run on the
assembled graph as usual.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from kgbuild.build.assemble import AssembleStage
from kgbuild.build.chunk import ChunkStage
from kgbuild.build.context import BuildContext
from kgbuild.build.extract import ExtractionRun, ExtractStage
from kgbuild.build.read import ReadStage
from kgbuild.build.records import BuildRequest, BuiltGraph
from kgbuild.corpus import Corpus
from kgbuild.progress import StageBars, stage_bars
from kgbuild.report import Section

STREAMED = ("read", "chunk", "extract", "assemble")  # the stages a streamed build runs batch by batch


@dataclass
class StreamedFront:
    graph: BuiltGraph
    sections: list[Section]
    seconds: dict[str, float] = field(default_factory=dict)  # stage -> seconds, summed over the batches


class _Clock:
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


async def build_in_batches(ctx: BuildContext, request: BuildRequest, size: int, read: ReadStage, chunk: ChunkStage,
                           extract: ExtractStage, assemble: AssembleStage) -> StreamedFront:
    clock = _Clock()
    with clock("read"):
        reading = read.open(ctx, request)
        # Explicit removals first (an unknown id stops the build before any work); a document removed
        # and read again comes back as new, as in a build of one batch.
        reading.remove(request.remove, prune=False)
    corpus = reading.corpus
    chunking = chunk.open(ctx)
    extraction = extract.open(ctx, keep_pool=True)
    covered: set[str] = set()
    names = ("read", "split", "chunk", "extract") if chunking.planner else ("read", "chunk", "extract")
    try:
        with stage_bars(ctx.progress, names) as bars:
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
                with clock("extract"):
                    ids = [d.id for d in batch if d.id in corpus.chunks]
                    covered.update(ids)
                    await _extract(extraction, corpus, ids, bars)
            with clock("read"):
                if request.prune:
                    reading.remove([], prune=True)
            # Documents kept from earlier builds and not read now: their chunks may still lack an
            # extraction under this build's settings (e.g. a changed schema).
            with clock("extract"):
                rest = [d for d in sorted(corpus.chunks) if d not in covered]
                for start in range(0, len(rest), size):
                    await _extract(extraction, corpus, rest[start:start + size], bars)
    finally:
        with clock("extract"):
            await extraction.aclose()
    chunk_section = chunking.finish(corpus)
    extract_section = extraction.finish()
    with clock("assemble"):
        assembled = assemble.assemble_from(ctx, corpus, extraction.results(corpus), extract_section.chunks_total)
    sections: list[Section] = [reading.section, chunk_section, extract_section]
    if assembled.section is not None:
        sections.append(assembled.section)
    return StreamedFront(graph=assembled.output, sections=sections,
                         seconds={k: round(v, 3) for k, v in clock.seconds.items()})
