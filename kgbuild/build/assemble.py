"""Stage `assemble`: per-chunk extractions, checked against the schema, merged by id into one graph."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator

from kgbuild.assemble import Graph, assemble
from kgbuild.build.context import BuildContext
from kgbuild.build.records import BuiltGraph, ExtractedCorpus
from kgbuild.build.stage import StageResult
from kgbuild.corpus import Corpus
from kgbuild.document_references import resolve as resolve_document_references
from kgbuild.extract.validate import validate_extraction
from kgbuild.ids import content_hash
from kgbuild.merge import merge_by_id
from kgbuild.model import ChunkExtraction, DropReason, RetypeReason
from kgbuild.records import RecordsGraph, build_records_graph
from kgbuild.records.memory import release
from kgbuild.report import AssembleSection, GraphCounts
from kgbuild.schema import Schema


def graph_counts(graph: Graph, records: RecordsGraph | None = None) -> GraphCounts:
    """`records`: the rows of mapped records kept columnar beside `graph`, counted with it."""
    return GraphCounts(entities=len(graph.entities) + (records.entity_count if records else 0),
                       relations=len(graph.relations) + (records.relation_count if records else 0),
                       events=len(graph.events), hypernodes=len(graph.hypernodes), concepts=len(graph.concepts))


def join_records(graph: Graph, records: RecordsGraph) -> Graph:
    """`graph` with what the records bring to alignment: the record entities it has work for
    (`RecordsGraph.bring_in`: a name or alias shared with another node, or a semantic type),
    the hierarchies' concepts, and the records' validation notes. The record's own fields come
    first when a text entity has its id (the table's name stays the node's name)."""
    entities = merge_by_id((*records.bring_in(graph.entities), *graph.entities))
    concepts = merge_by_id((*records.concepts, *graph.concepts))
    return graph.model_copy(update={"entities": entities, "concepts": concepts,
                                    "drops": [*graph.drops, *records.drops],
                                    "retypes": [*graph.retypes, *records.retypes]})


# Drop reasons of strict mode, by the words the report uses for them.
_STRICT_DROPS = {
    DropReason.UNDECLARED_PREDICATE.value: "relations with an undeclared predicate",
    DropReason.UNKNOWN_EVENT_TYPE.value: "events of an undeclared type",
    DropReason.UNKNOWN_CLASS.value: "entities of an undeclared class",
    DropReason.UNDECLARED_PROPERTY.value: "undeclared properties",
}


def off_schema_counts(graph: Graph, schema: Schema, strict: bool) -> dict[str, int]:
    """What the schema does not declare: kept in the graph (counted on it), or dropped by strict mode
    (counted from the drop notes). `extract.constrained` only shapes the prompt; this is what got through."""
    if strict:
        counts = Counter(_STRICT_DROPS[d.reason.value] for d in graph.drops if d.reason.value in _STRICT_DROPS)
        return {what: counts[what] for what in _STRICT_DROPS.values() if counts[what]}
    fallback = sum(1 for r in graph.retypes if r.reason == RetypeReason.UNKNOWN_CLASS_TO_FALLBACK)
    return {
        "relations with an undeclared predicate": sum(
            1 for r in graph.relations if schema.resolve_relation(r.predicate) is None),
        "events of an undeclared type": sum(1 for e in graph.events if schema.resolve_event_type(e.type) is None),
        f"entities of an undeclared class (kept as {schema.fallback_class})": fallback,
        "undeclared properties": sum(1 for e in graph.entities for k in e.properties
                                     if schema.resolve_property(e.spg_class, k) is None),
    }


class AssembleStage:
    name = "assemble"
    config_section = "extract"  # extract.strict_schema decides what validation keeps

    def fingerprint(self, ctx: BuildContext) -> str:
        return content_hash(f"assemble|{ctx.schema.fingerprint()}|{ctx.config.extract.strict_schema}|references 1")

    async def run(self, ctx: BuildContext, data: ExtractedCorpus) -> StageResult[BuiltGraph]:
        return self.assemble_from(ctx, data.corpus, data.extractions, len(data.extractions))

    def assemble_from(self, ctx: BuildContext, corpus: Corpus, extractions: Iterable[ChunkExtraction],
                      total: int | None) -> StageResult[BuiltGraph]:
        """The graph from extractions taken one at a time (a streamed build decodes them from the
        cache as it goes, so they are never all in memory); `total` sizes the progress bar."""
        strict = ctx.config.extract.strict_schema
        with ctx.progress.stage("assemble", total=total) as advance:

            def validated() -> Iterator[ChunkExtraction]:
                # a report's 公司 in a chunk that names no company is its document's company (document_references)
                for ex in resolve_document_references(extractions):
                    advance(1)
                    yield validate_extraction(ex, ctx.schema, strict=strict)

            graph = assemble(validated())
            records = None
            if corpus.record_chunks:
                # Mapped records: their rows built with Arrow, never a record per row (records/graph.py).
                records = build_records_graph(ctx.config.records, ctx.schema, corpus.docs, corpus.record_chunks,
                                              corpus.record_maps, strict=strict)
                corpus.record_maps.clear()  # their columns are rows of the graph now
                graph = join_records(graph, records)
                release()  # what building the records' rows freed, before alignment allocates
        section = AssembleSection(graph=graph_counts(graph, records), strict_schema=strict)
        section.count_drops(graph.notes())
        section.off_schema = off_schema_counts(graph, ctx.schema, strict)
        if records is not None:
            section.notes.extend(records.notes)
        return StageResult(BuiltGraph(corpus=corpus, graph=graph, records=records), section)
