"""`--allow-build`: the two tools that change the project, `build(paths)` and `remove(document)`.

Each runs the CLI's own command (`kgbuild build --json`, `kgbuild remove --json`) in a child process and
returns its build report, or its one-line error as the tool error. A child, not this process: the build's
write stage starts the embedded graph store's JVM, which would then live in the server for good (and
keep it from exiting when the client leaves), and the build's models and memory go away with the child.
The child takes the project's build lock like any `kgbuild build`, so a second build meanwhile, from
this server or from another process, is refused in one line. The engine is closed while a child runs
(kgbuild/mcp/project.py): the embedded stores admit one process at a time.

The model endpoints the command would ask are probed here first (kgbuild/llm/probe.py, as the CLI
does): a dead endpoint, a refused key or an unknown model is the tool error in the CLI's one line,
before the engine is closed or a child started, and nothing in the project changes.

A build reads any path this process can read into the graph: that is why these tools exist only when
the server was started with `--allow-build`.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field, ValidationError

from kgbuild.llm.probe import EndpointUnusable, build_roles, check_endpoints, remove_roles
from kgbuild.mcp.project import Project
from kgbuild.report import BuildReport

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
        root = project.config.root
        sources = [str(Path(p) if Path(p).is_absolute() else root / p) for p in paths]
        _check_endpoints(project, build_roles(project.config))
        return _run_command(project, ["build", "--json", "--quiet", "--", *sources])

    def remove(
        document: Annotated[str, Field(min_length=1, max_length=1000, description=(
            "a document id (get_entity on a chunk gives its doc_id)"))],
    ) -> BuildReport:
        """Remove a document: its chunks, and every entity, relation and vector left without support, from
        the workspace and the stores. Returns the build report."""
        _check_endpoints(project, remove_roles(project.config))
        return _run_command(project, ["remove", "--json", "--quiet", "--", document])

    return [(build, BUILD), (remove, REMOVE)]


def _check_endpoints(project: Project, roles: list[str]) -> None:
    try:
        check_endpoints(project.config, roles)
    except EndpointUnusable as exc:
        raise ToolError(exc.line()) from None


def _run_command(project: Project, arguments: list[str]) -> BuildReport:
    config = project.config
    command = [sys.executable, "-m", "kgbuild"]
    if config.file is not None:
        command += ["--config", str(config.file)]
    with project.writing():
        # The child's stdout is a pipe of ours: nothing of it reaches the protocol on stdio.
        done = subprocess.run([*command, *arguments], cwd=config.root, capture_output=True, text=True, check=False,
                              stdin=subprocess.DEVNULL)
    # Exit 1 still prints the report (a source skipped, a chunk failed, the stores not written): it says so.
    if done.returncode in (0, 1) and done.stdout.strip():
        try:
            return BuildReport.model_validate_json(done.stdout)
        except ValidationError:
            pass
    errors = [line.removeprefix("error: ") for line in done.stderr.splitlines() if line.startswith("error: ")]
    raise ToolError(errors[-1] if errors else f"kgbuild {arguments[0]} failed (exit {done.returncode}): "
                                              f"{done.stderr.strip()[-500:]}")
