"""Bringing the workspace tables up to the corrections file after it changed (`kgbuild sync`,
`kgbuild curate ... --sync`, the explorer's write mode): corrections appended since the tables were
written are applied to them directly; an entry removed or a never_merge added re-aligns the graph
from the extraction cache (the `tables` pipeline with no new sources). The stores are written by
the caller through the manifest, so only the rows that changed are written.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field

from kgbuild.assemble import Graph
from kgbuild.build.corrections import TABLE_KINDS, applied_ids, record_applied, section_of
from kgbuild.build.corrections_tables import apply_to_tables
from kgbuild.config import Config
from kgbuild.curate.apply import Stale
from kgbuild.curate.file import CorrectionsFile, Entry, corrections_path, read_corrections
from kgbuild.progress import ProgressReporter, QuietProgress
from kgbuild.schema import Schema
from kgbuild.workspace import Workspace


@dataclass
class PendingResult:
    how: str  # "none" (the tables hold the file), "tables" (applied to the tables), "rebuild" (re-aligned)
    applied: dict[str, int] = field(default_factory=dict)
    stale: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0


def pending(config: Config) -> tuple[CorrectionsFile, list[Entry] | None]:
    """The file and the entries the tables lack; None: the tables must be re-aligned (an entry was
    removed or reordered, a never_merge was added, or what the tables hold is not known)."""
    ws = Workspace(config.workspace_path())
    file = read_corrections(corrections_path(config.root))
    held = applied_ids(ws)
    if held is None:
        return file, None
    ids = [e.correction.id for e in file.entries]
    if ids[:len(held)] != held:
        return file, None
    new = file.entries[len(held):]
    if any(e.correction.kind not in TABLE_KINDS for e in new):
        return file, None
    return file, new


async def apply_pending(config: Config, schema: Schema, progress: ProgressReporter | None = None) -> PendingResult:
    """Bring the workspace tables up to the corrections file (see the module text). The caller holds
    no workspace lock: the re-alignment path takes it itself, the table path takes it here."""
    t = time.perf_counter()
    ws = Workspace(config.workspace_path())
    file, new = pending(config)
    if new is None:
        from kgbuild.build.context import BuildContext
        from kgbuild.build.records import BuildRequest
        from kgbuild.build.runner import LocalRunner

        ctx = BuildContext(config, schema, progress=progress or QuietProgress())
        report = await LocalRunner(ctx).run(BuildRequest(), "tables")
        section = report.corrections
        return PendingResult("rebuild", dict(section.applied) if section else {},
                             list(section.stale) if section else [], list(file.problems),
                             round(time.perf_counter() - t, 3))
    if not new:
        return PendingResult("none", problems=list(file.problems), seconds=round(time.perf_counter() - t, 3))
    with ws.lock():
        ids = [e.correction.id for e in file.entries]
        record_applied(ws, ids)  # before the tables, as a build does: a crash in between is not trusted
        done = apply_to_tables(ws, new, schema)
        record_applied(ws, ids, complete=True)  # a table the fixes left alone need not be newer
        _update_report(ws, file, done.applied, done.stale, done.graph)
    return PendingResult("tables", done.applied, [s.line for s in done.stale], list(file.problems),
                         round(time.perf_counter() - t, 3))


def _update_report(ws: Workspace, file: CorrectionsFile, applied: dict[str, int], stale: list[Stale],
                   graph: Graph) -> None:
    """The latest report's corrections section, so `status` shows what the tables now hold."""
    from kgbuild.report import load_report

    latest = load_report(ws.latest_report())
    if latest is None:
        return
    before = latest.corrections
    total = dict(before.applied) if before else {}
    for kind, n in applied.items():
        total[kind] = total.get(kind, 0) + n
    section = section_of(file, total, stale, graph)
    if before is not None:  # what the build found stale is still stale: the tables hold what it made
        section.stale[:0], section.stale_ids[:0] = before.stale, before.stale_ids
    latest.corrections = section
    if latest.literals is not None and section.graph is not None:
        # the tables' counts now (their values kept as literals stay literals): what `report.graph` shows
        latest.literals = latest.literals.model_copy(update={"graph": section.graph})
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    ws.save_report(latest.model_dump_json(indent=2), f"curate-{stamp}-{os.getpid()}")
