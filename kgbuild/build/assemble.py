"""Stage `assemble`: per-chunk extractions, checked against the schema, merged by id into one graph."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from kgbuild.assemble import Graph, assemble
from kgbuild.build.context import BuildContext
from kgbuild.build.records import BuiltGraph, ExtractedCorpus
from kgbuild.build.stage import StageResult
from kgbuild.corpus import Corpus
from kgbuild.extract.validate import validate_extraction
from kgbuild.ids import content_hash
from kgbuild.model import ChunkExtraction
from kgbuild.report import AssembleSection, GraphCounts


def graph_counts(graph: Graph) -> GraphCounts:
    return GraphCounts(entities=len(graph.entities), relations=len(graph.relations), events=len(graph.events),
                       hypernodes=len(graph.hypernodes), concepts=len(graph.concepts))


class AssembleStage:
    name = "assemble"
    config_section = "extract"  # extract.strict_schema decides what validation keeps

    def fingerprint(self, ctx: BuildContext) -> str:
        return content_hash(f"assemble|{ctx.schema.fingerprint()}|{ctx.config.extract.strict_schema}")

    async def run(self, ctx: BuildContext, data: ExtractedCorpus) -> StageResult[BuiltGraph]:
        return self.assemble_from(ctx, data.corpus, data.extractions, len(data.extractions))

    def assemble_from(self, ctx: BuildContext, corpus: Corpus, extractions: Iterable[ChunkExtraction],
                      total: int | None) -> StageResult[BuiltGraph]:
        """The graph from extractions taken one at a time (a streamed build decodes them from the
        cache as it goes, so they are never all in memory); `total` sizes the progress bar."""
        strict = ctx.config.extract.strict_schema
        with ctx.progress.stage("assemble", total=total) as advance:

            def validated() -> Iterator[ChunkExtraction]:
                for ex in extractions:
                    advance(1)
                    yield validate_extraction(ex, ctx.schema, strict=strict)

            graph = assemble(validated())
        section = AssembleSection(graph=graph_counts(graph))
        section.count_drops(graph.notes())
        return StageResult(BuiltGraph(corpus=corpus, graph=graph), section)
