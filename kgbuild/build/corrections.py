"""Stage `corrections`: the project's corrections file applied to the aligned graph, before persist.

Every build runs it (full, incremental, `--prune`, `remove`), so hand fixes survive rebuilds; the
never_merge entries already acted inside fusion (the align stage passes them as constraints). Stale
entries are listed in the report's `corrections` section and by `kgbuild status`.

After the file changes, `kgbuild sync` brings the tables up to it without a build
(`corrections_sync.apply_pending`), using the record kept here of which corrections they hold.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Sequence

from kgbuild.assemble import Graph
from kgbuild.build.assemble import graph_counts
from kgbuild.build.context import BuildContext
from kgbuild.build.records import BuiltGraph
from kgbuild.build.stage import StageResult
from kgbuild.curate.apply import Stale, apply_corrections
from kgbuild.curate.file import CorrectionsFile, corrections_path, read_corrections
from kgbuild.ids import content_hash
from kgbuild.merge import merge_by_id
from kgbuild.records import RecordsGraph
from kgbuild.report import CorrectionsSection
from kgbuild.workspace import Workspace

APPLIED_FILE = "corrections-applied.json"  # in the workspace: which corrections the tables hold
# Kinds `apply_pending` can apply to the written tables; the others need fusion to run again.
TABLE_KINDS = frozenset({"merge", "reject", "retype", "rename", "add"})


def section_of(file: CorrectionsFile, applied: dict[str, int], stale: Sequence[Stale],
               graph: Graph | None) -> CorrectionsSection:
    return CorrectionsSection(file=str(file.path), entries=len(file.entries), applied=applied,
                              stale=[s.line for s in stale], stale_ids=[s.correction_id for s in stale],
                              problems=list(file.problems), graph=graph_counts(graph) if graph is not None else None)


def merged_in(graph: Graph, records: RecordsGraph) -> Graph:
    """`graph` holding every row of `records` as records (merged by id), `records` left empty."""
    entities = merge_by_id((*graph.entities, *records.bring_in([], everything=True)))
    relations = merge_by_id((*graph.relations, *records.take_all_relations()))
    return graph.model_copy(update={"entities": entities, "relations": relations})


class CorrectionsStage:
    name = "corrections"
    config_section = "corrections.yaml"

    def fingerprint(self, ctx: BuildContext) -> str:
        path = corrections_path(ctx.config.root)
        return content_hash(path.read_text(encoding="utf-8")) if path.exists() else ""

    async def run(self, ctx: BuildContext, data: BuiltGraph) -> StageResult[BuiltGraph]:
        file = read_corrections(corrections_path(ctx.config.root))
        if not file.entries and not file.problems:
            record_applied(ctx.workspace, [])
            return StageResult(data, None)
        graph = data.graph
        if data.records is not None:
            # A correction may name any node or triple: the records' rows become records of the graph
            # (the columnar path is for the bulk import; a curated graph of that size pays for it).
            graph = merged_in(graph, data.records)
        done = apply_corrections(graph, data.merges, file.entries, ctx.schema)
        record_applied(ctx.workspace, [e.correction.id for e in file.entries])
        section = section_of(file, done.applied, done.stale, done.graph)
        return StageResult(BuiltGraph(corpus=data.corpus, graph=done.graph, merges=done.merges,
                                      records=None if data.records is None else data.records.emptied()), section)


# ---------------------------------------------------------------- which corrections the tables hold


def record_applied(ws: Workspace, ids: list[str], *, complete: bool = False) -> None:
    """Which corrections the tables hold. Written before the tables; `complete` once they are written
    (`kgbuild sync`). A build's record is trusted while the entities table, which persist always
    rewrites, is newer than it (`applied_ids`): a build that stopped in between leaves a record the
    next sync does not trust."""
    ws.ensure()
    path = ws.path / APPLIED_FILE
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps({"ids": ids, "written": time.time(), "complete": complete}), encoding="utf-8")
    os.replace(tmp, path)


def applied_ids(ws: Workspace) -> list[str] | None:
    """The ids of the corrections the tables were written with; None when that is not known."""
    path, table = ws.path / APPLIED_FILE, ws.table_path("entities")
    if not path.exists() or not table.exists():
        return None
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not record.get("complete") and table.stat().st_mtime < float(record.get("written", 0)):
        return None  # the tables are older than the record: the build that wrote it did not persist
    return list(record.get("ids", []))
