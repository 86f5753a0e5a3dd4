"""`--allow-build`: the two tools that change the project, `build(paths)` and `remove(document)`.

Both run the same build as `kgbuild build` / `kgbuild remove` (the local or Ray runner, whichever the
config names), under the project's build lock, and return its report. The engine is closed while they
run (kgbuild/mcp/project.py), so the build's write stage can open the embedded stores; a second build
meanwhile is refused by the lock in one line, as a second `kgbuild build` process is.

A build reads any path this process can read into the graph: that is why these tools exist only when
the server was started with `--allow-build`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

from mcp.types import ToolAnnotations
from pydantic import Field

from kgbuild.build import Builder
from kgbuild.build.read import check_sources
from kgbuild.mcp.failures import tool_errors
from kgbuild.mcp.project import Project
from kgbuild.progress import QuietProgress
from kgbuild.report import BuildReport
from kgbuild.store.checks import check_stores

BUILD = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
REMOVE = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=False, open_world_hint=False)


def build_tools(project: Project) -> list[tuple[Callable[..., Any], ToolAnnotations]]:
    """build and remove over `project`, with their annotations (neither is read-only)."""

    def build(
        paths: Annotated[list[Annotated[str, Field(min_length=1, max_length=4096)]],
                         Field(min_length=1, max_length=1000, description=(
                             "files, directories or corpus .json/.jsonl files; relative paths are taken "
                             "from the project's directory"))],
    ) -> BuildReport:
        """Build these sources into the graph, incrementally (unchanged documents cost nothing), and write
        the stores. Returns the build report: documents read and skipped, chunks, extraction, fusion,
        what was written. Reads wait until it finishes."""
        config = project.config
        sources = [Path(p) if Path(p).is_absolute() else config.root / p for p in paths]
        with tool_errors():
            check_sources(sources)
            check_stores(config)  # a server down or a password missing: one line, before any work
            return _run(project, lambda: Builder(config, QuietProgress()).arun(sources))

    def remove(
        document: Annotated[str, Field(min_length=1, max_length=1000, description=(
            "a document id (get_entity on a chunk gives its doc_id)"))],
    ) -> BuildReport:
        """Remove a document: its chunks, and every entity, relation and vector left without support, from
        the workspace and the stores. Returns the build report."""
        with tool_errors():
            return _run(project, lambda: Builder(project.config, QuietProgress()).arun([], remove=[document]))

    return [(build, BUILD), (remove, REMOVE)]


def _run(project: Project, start: Callable[[], Any]) -> BuildReport:
    # The SDK runs a synchronous tool on a worker thread: the build gets an event loop of its own there,
    # and the server's loop keeps answering (list_tools, pings) while the stages run.
    with project.writing():
        report: BuildReport = asyncio.run(start())
        return report
