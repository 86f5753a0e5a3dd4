"""`kgbuild sync` as a library call: write the workspace into the stores under the workspace lock,
and record what was written in a copy of the latest build report, which `status` reads."""

from __future__ import annotations

import os
from datetime import datetime, timezone

from kgbuild.config import Config
from kgbuild.errors import ConfigError
from kgbuild.progress import ProgressReporter
from kgbuild.report import WriteSection, load_report
from kgbuild.store.sync import sync_stores
from kgbuild.store.types import SyncReport
from kgbuild.workspace import Workspace


def sync_workspace(config: Config, progress: ProgressReporter | None = None) -> SyncReport:
    """Write only what the stores lack; raise ConfigError when nothing was built yet."""
    ws = Workspace(config.workspace_path())
    if not ws.exists():
        raise ConfigError("workspace", f"nothing built yet in {ws.path}", "run `kgbuild build SOURCES` first")
    with ws.lock():
        result = sync_stores(config, progress)
        latest = load_report(ws.latest_report())
        if latest is not None:
            # `status` reads the latest report: it must not keep saying the stores are behind.
            latest.write = WriteSection(stores=result)
            stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
            ws.save_report(latest.model_dump_json(indent=2), f"sync-{stamp}-{os.getpid()}")
    return result
