"""Stage `literals`: values that only a hypernode names become literals on it (`graph.literals`).

Runs on the final graph of every build (full, incremental, `--prune`, `remove`, local or on Ray): after
alignment and the corrections, before persist, so the tables and the stores never hold those values as
entities (nor their vectors), and a value that a later document makes a relation's end is a node again.
"""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

from kgbuild.build.assemble import graph_counts
from kgbuild.build.context import BuildContext
from kgbuild.build.records import BuiltGraph
from kgbuild.build.stage import StageResult
from kgbuild.graph.literals import date_classes, make_literals, named_classes, value_candidates
from kgbuild.ids import content_hash
from kgbuild.records import RecordsGraph
from kgbuild.report import LiteralsSection

VERSION = "literals 2"  # changes when the step could keep a different set of values


def named_by_records(records: RecordsGraph | None, ids: set[str]) -> set[str]:
    """The ids among `ids` that a mapped record's entity row is, or a relation row names."""
    if records is None or not ids:
        return set()
    wanted = pa.array(sorted(ids), pa.string())
    out: set[str] = set()
    for table, columns in ((records.relations, ("subject_id", "object_id")), (records.entities, ("id",))):
        for column in columns:
            if table.num_rows and column in table.column_names:
                hits = table.filter(pc.is_in(table[column], value_set=wanted))[column]
                out.update(v for v in hits.to_pylist() if v)
    return out


class LiteralsStage:
    name = "literals"
    config_section = ""

    def fingerprint(self, ctx: BuildContext) -> str:
        return content_hash(f"{VERSION}|{ctx.schema.fingerprint()}")

    async def run(self, ctx: BuildContext, data: BuiltGraph) -> StageResult[BuiltGraph]:
        dates = date_classes(ctx.schema.resolve_class)
        named = named_classes(ctx.schema.entity_types, ctx.schema.is_a)
        values = value_candidates(data.graph, dates, named)
        kept = named_by_records(data.records, set(values))
        done = make_literals(data.graph, {i: e for i, e in values.items() if i not in kept})
        section = LiteralsSection(values=done.values, graph=graph_counts(done.graph, data.records))
        return StageResult(BuiltGraph(corpus=data.corpus, graph=done.graph, merges=data.merges,
                                      records=data.records), section)
