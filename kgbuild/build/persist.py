"""Stage `persist`: the corpus and the graph into the workspace's Parquet tables, in a crash-safe order."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import pyarrow as pa

from kgbuild.build.context import BuildContext
from kgbuild.build.records import BuiltGraph, PersistedTables
from kgbuild.build.stage import StageResult
from kgbuild.records import chunk_parts
from kgbuild.records.memory import release
from kgbuild.report import PersistSection
from kgbuild.tables import (
    GRAPH_TABLES,
    SCHEMAS,
    chunk_row,
    concept_row,
    document_row,
    drop_row,
    entity_row,
    event_row,
    hypernode_row,
    merge_row,
    relation_row,
)

# Graph tables first, documents last: a crash in between leaves documents that are re-chunked and
# re-assembled (from the cache) by the next run, never a graph that points at chunks the tables lack.
WRITE_ORDER = ("chunks", *GRAPH_TABLES, "drops", "merges", "documents")


def table_rows(data: BuiltGraph) -> dict[str, list[dict[str, Any]]]:
    corpus, graph = data.corpus, data.graph
    classes = graph.node_classes()
    names = {e.id: e.name for e in graph.entities}
    return {
        "documents": [document_row(corpus.docs[d], corpus.chunkers[d]) for d in sorted(corpus.docs)],
        "chunks": [chunk_row(c) for c in corpus.all_chunks()],
        "entities": [entity_row(e) for e in sorted(graph.entities, key=lambda x: x.id)],
        "relations": [relation_row(r, classes) for r in sorted(graph.relations, key=lambda x: x.id)],
        "events": [event_row(e) for e in sorted(graph.events, key=lambda x: x.id)],
        "hypernodes": [hypernode_row(h) for h in sorted(graph.hypernodes, key=lambda x: x.id)],
        "concepts": [concept_row(c) for c in sorted(graph.concepts, key=lambda x: x.id)],
        "drops": [drop_row(d) for d in graph.notes()],
        "merges": [merge_row(m, names) for m in data.merges],
    }


def table_parts(data: BuiltGraph) -> dict[str, Iterable[pa.Table]]:
    """Each table as the parts it is written from: the graph's rows, then the mapped records'
    chunks and graph rows (kept columnar, never records, never concatenated into one copy; the
    chunk rows of the records read this build are made as they are written, a slice at a time)."""
    parts: dict[str, Iterable[pa.Table]] = {
        name: [pa.Table.from_pylist(rows, schema=SCHEMAS[name])] for name, rows in table_rows(data).items()}
    parts["chunks"] = _chained(parts["chunks"], data.corpus.record_chunks)
    if data.records is not None:
        parts["entities"] = [*parts["entities"], data.records.entities]
        parts["relations"] = [*parts["relations"], data.records.relations]
    return parts


def _chained(first: Iterable[pa.Table], record_chunks: dict[str, Any]) -> Iterator[pa.Table]:
    yield from first
    for doc_id in sorted(record_chunks):
        yield from chunk_parts(record_chunks[doc_id])


class PersistStage:
    name = "persist"
    config_section = "workspace"

    def fingerprint(self, ctx: BuildContext) -> str:
        return ""  # tables are rewritten every build; the store manifest decides what reaches the stores

    async def run(self, ctx: BuildContext, data: BuiltGraph) -> StageResult[PersistedTables]:
        release()  # what alignment freed, before the rows of every table are made
        tables = table_parts(data)
        rows = {}
        with ctx.progress.stage("persist", total=len(tables)) as advance:
            for name in WRITE_ORDER:
                rows[name] = ctx.workspace.write_parts(name, tables[name])
                del tables[name]  # written: its rows (a records import's millions) can go
                release()
                advance(1)
        return StageResult(PersistedTables(rows=rows), PersistSection(rows=rows))
