"""The named pipelines of a build, and the local runner that executes one.

Stages are data (`PIPELINES`); running them is policy. `run_stages` runs a stage list under the
workspace lock, times each stage and collects the sections into the report; `save_report` stamps
the report with its wall time and memory and saves it. `LocalRunner` runs a named pipeline in
this process with the two; another runner (e.g. a distributed engine, `ray_runner`) calls the same
two with its own stage list, and adds what only it knows (its engine summary) in between: every
stage only needs a `BuildContext` and the previous stage's output.
"""

from __future__ import annotations

import os
import time
from collections.abc import Collection, Sequence
from datetime import datetime, timezone
from typing import Any

from kgbuild.build.align import AlignStage
from kgbuild.build.context import BuildContext
from kgbuild.build.corrections import CorrectionsStage
from kgbuild.build.literals import LiteralsStage
from kgbuild.build.persist import PersistStage
from kgbuild.build.records import BuildRequest
from kgbuild.build.stage import Stage, part_stages
from kgbuild.build.stream import StreamStage
from kgbuild.build.unchanged import KEPT_STAGES, KeptTables, last_build
from kgbuild.build.write import WriteStage
from kgbuild.report import BuildReport

Pipeline = Sequence[Stage[Any, Any]]

# `stream` is read -> chunk -> extract -> assemble, batch by batch of `build.batch_documents`
# documents (or whole with 0; see build/stream.py); the tables are the same either way.
# `corrections` applies corrections.yaml (docs/curation.md) between alignment and persist; `literals`
# then makes the values only a hypernode names literals on it (docs/graph_model.md).
_TABLES: tuple[Stage[Any, Any], ...] = (StreamStage(), AlignStage(), CorrectionsStage(), LiteralsStage(),
                                         PersistStage())
PIPELINES: dict[str, Pipeline] = {
    "default": (*_TABLES, WriteStage()),  # sources -> workspace tables -> graph and vector stores
    "tables": _TABLES,  # sources -> workspace tables; the stores are written later by `kgbuild sync`
}


def process_started() -> float | None:
    """The time.perf_counter() reading when this process started (Linux /proc; None elsewhere)."""
    try:
        now = time.perf_counter()
        with open("/proc/self/stat", encoding="ascii") as fh:
            started_ticks = int(fh.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime", encoding="ascii") as fh:
            uptime = float(fh.read().split()[0])
        return now - max(0.0, uptime - started_ticks / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError):
        return None


def _fixed_costs(report: BuildReport, startup: float | None, settings: float, ctx: BuildContext) -> dict[str, float]:
    fixed = {"settings": round(settings, 3), "sentence_models": round(ctx.models.load_seconds, 3)}
    if startup is not None:
        fixed["startup"] = round(startup, 3)
    stores = report.write.stores if report.write is not None else None
    if stores is not None:
        for key in ("graph_open", "vector_open"):
            if key in stores.seconds:
                fixed[key.replace("_open", "_store_open")] = stores.seconds[key]
    return fixed


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


async def run_stages(ctx: BuildContext, stages: Pipeline, request: BuildRequest, pipeline: str, *,
                     timed: Collection[str] = ()) -> tuple[BuildReport, float]:
    """Run `stages` over `request` under the workspace lock: the report (not saved yet, see
    `save_report`) and the seconds the stages' fingerprints took.

    `timed`: the names of stages whose seconds are reported even when they return no section (a
    section-less stage is otherwise one that had nothing to do, e.g. alignment switched off). A
    composite stage's parts are filed under their own names (fingerprints, sections, seconds)."""
    ctx.workspace.ensure()
    report = BuildReport(started_at=_now(), workspace=str(ctx.workspace.path), schema_name=ctx.schema.name,
                         pipeline=pipeline, workers=ctx.workers, sources=[str(s) for s in request.sources])
    with ctx.workspace.lock():
        try:
            # Every stage's fingerprint first: a setting that cannot work (e.g. an LLM stage
            # without an endpoint) stops the build before anything is read or written.
            t = time.perf_counter()
            report.fingerprints = {part.name: part.fingerprint(ctx) for stage in stages for part in part_stages(stage)}
            settings = time.perf_counter() - t
            ctx.last_build = last_build(ctx.workspace.latest_report(), report.fingerprints)
            data: Any = request
            for stage in stages:
                if isinstance(data, KeptTables):  # nothing changed: the last build's tables stand
                    if stage.name in KEPT_STAGES:
                        continue
                    data = data.persisted()
                t = time.perf_counter()
                result = await stage.run(ctx, data)
                data = result.output
                for section in result.sections():
                    report.add(section)
                if isinstance(data, KeptTables):
                    for section in data.kept_sections():
                        report.add(section)
                report.stage_seconds.update(result.seconds)
                if result.section is not None or stage.name in timed:
                    report.stage_seconds[stage.name] = round(time.perf_counter() - t, 3)
        finally:
            report.llm = await ctx.aclose()
    report.finished_at = _now()
    return report, settings


def save_report(ctx: BuildContext, report: BuildReport, started: float) -> None:
    """Stamp `report` with the wall time since `started` (a time.perf_counter() reading) and this
    process's peak memory, and save it in the workspace as `build-<start>-<pid>` (and as the latest)."""
    report.wall_seconds = round(time.perf_counter() - started, 3)
    report.measure_memory()
    stamp = report.started_at.replace(":", "").replace("-", "").replace("+0000", "Z")
    ctx.workspace.save_report(report.model_dump_json(indent=2), f"build-{stamp}-{os.getpid()}")


class LocalRunner:
    def __init__(self, ctx: BuildContext, *, process_started: float | None = None) -> None:
        self.ctx = ctx
        # time.perf_counter() at this process's start (see process_started()), when the process
        # exists for this build (the CLI): the report then counts the startup before the first stage.
        self.process_started = process_started

    async def run(self, request: BuildRequest, pipeline: str = "default") -> BuildReport:
        """Run the named pipeline over `request`; the report is saved in the workspace and returned."""
        ctx = self.ctx
        ctx.prefetch_vectors = ctx.config.build.overlap_vectors and any(
            stage.name == "write" for stage in PIPELINES[pipeline])
        t0 = time.perf_counter()
        startup = None if self.process_started is None else t0 - self.process_started
        report, settings = await run_stages(ctx, PIPELINES[pipeline], request, pipeline)
        report.fixed_seconds = _fixed_costs(report, startup, settings, ctx)
        save_report(ctx, report, t0)
        return report
