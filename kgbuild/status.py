"""What a project holds and how its last build went (`kgbuild status`, also for library callers):
the workspace's table counts, what the stores hold by their manifest, the latest build report and
the model usage of every build, assembled here so the CLI only renders it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kgbuild import explore
from kgbuild.config import Config
from kgbuild.report import BuildReport, ExtractSection, UsageTotals, load_report, project_usage
from kgbuild.store.open import held_by_stores
from kgbuild.workspace import Workspace


@dataclass(frozen=True)
class ProjectStatus:
    config: str
    workspace: str
    schema: str
    counts: dict[str, int]
    # What the stores hold now (all builds so far), not what the last run changed.
    stores: dict[str, dict[str, Any]]
    latest: BuildReport | None
    # A report was saved but this version cannot read it (written by an older kgbuild).
    latest_unreadable: bool
    model_usage_total: UsageTotals | None
    model_usage_builds: int

    def as_json(self) -> dict[str, Any]:
        """The `status --json` object (its keys are part of the command line's contract)."""
        return {
            "config": self.config, "workspace": self.workspace, "schema": self.schema, "counts": self.counts,
            "stores": self.stores, "last_build": last_build(self.latest) if self.latest else {},
            "model_usage_builds": self.model_usage_builds,
            "model_usage_total": self.model_usage_total.model_dump() if self.model_usage_total else None,
        }


def project_status(config: Config) -> ProjectStatus:
    ws = Workspace(config.workspace_path())
    saved = ws.latest_report()
    latest = load_report(saved)
    usage = project_usage(ws.reports_dir)
    return ProjectStatus(
        config=str(config.file) if config.file else "(defaults)", workspace=str(ws.path), schema=config.schema_,
        counts=explore.counts(ws), stores=held_by_stores(config), latest=latest,
        latest_unreadable=saved is not None and latest is None,
        model_usage_total=usage[0] if usage else None, model_usage_builds=usage[1] if usage else 0)


def last_build(report: BuildReport) -> dict[str, Any]:
    """What `status --json` shows of the latest report."""
    extract = report.extract or ExtractSection()
    return {
        "finished_at": report.finished_at, "sources": report.sources, "wall_seconds": report.wall_seconds,
        "chunks_extracted": extract.chunks_extracted, "chunks_cached": extract.chunks_cached,
        "chunks_failed": extract.chunks_failed, "peak_rss_mb": report.peak_rss_mb,
        "skipped": [s.model_dump() for s in report.skipped],
        "llm": report.llm.model_dump() if report.llm else None,
        "stores": report.write.stores.model_dump() if report.write and report.write.stores else None,
        "store_error": report.store_error,
        "off_schema": report.assemble.off_schema if report.assemble else {},
        "strict_schema": report.assemble.strict_schema if report.assemble else False,
    }
