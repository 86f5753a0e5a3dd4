"""Exports of the built graph: Turtle, JSON-LD, GraphML, JSON lines.

All four read the same graph rows (kgbuild/store/graph_rows.py), so they describe the graph the
stores hold. The output is written to a temporary file beside the target and renamed over it
only when complete: an export that fails half-way leaves the previous file (or nothing).

    from kgbuild.export import export_graph, default_base
    result = export_graph(Workspace(path), "turtle", Path("graph.ttl"), base=default_base("my-project"))
"""

from __future__ import annotations

import os
import re
import secrets
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO
from urllib.parse import quote

from kgbuild.errors import KgbuildError, WorkspaceError
from kgbuild.export.graphml import write_graphml
from kgbuild.export.jsonl import write_jsonl
from kgbuild.export.rdf import KAG, vocabulary_path, write_jsonld, write_turtle
from kgbuild.store.graph_rows import GraphRows, read_graph_rows
from kgbuild.store.labels import relationship_type
from kgbuild.workspace import Workspace

__all__ = ["EXTENSIONS", "FORMATS", "KAG", "ExportResult", "check_base", "default_base", "export_graph",
           "export_rows", "vocabulary_path"]

FORMATS = ("turtle", "jsonld", "graphml", "jsonl")
EXTENSIONS = {"turtle": ".ttl", "jsonld": ".jsonld", "graphml": ".graphml", "jsonl": ".jsonl"}
RDF_FORMATS = frozenset({"turtle", "jsonld"})

# An absolute IRI that can go inside <...> in Turtle untouched: a scheme, then no whitespace,
# control characters or the characters IRIREF excludes.
_BASE_OK = re.compile(r'^[A-Za-z][A-Za-z0-9+.-]*:[^\x00-\x20<>"{}|^`\\]*$')


@dataclass(frozen=True)
class ExportResult:
    format: str
    path: Path
    nodes: int
    edges: int
    statements: int  # triples for RDF, lines for JSONL, nodes + edges for GraphML
    bytes: int
    seconds: float
    dangling: int  # relationships the graph rows left out because an end is not a node


def default_base(project: str) -> str:
    """`urn:kgbuild:<project>:`, the project name percent-encoded."""
    return f"urn:kgbuild:{quote(project, safe='') or 'project'}:"


def check_base(base: str) -> str:
    if not _BASE_OK.match(base):
        raise KgbuildError("--base", f"not an absolute IRI usable as a prefix: {base!r}",
                           "e.g. https://example.org/kg/ or urn:kgbuild:myproject: (no spaces, <, >, quotes)")
    if not base.endswith(("/", "#", ":")):
        raise KgbuildError("--base", f"{base!r} must end with '/', '#' or ':'",
                           "ids are appended to it, e.g. https://example.org/kg/")
    return base


def require_build(workspace: Workspace) -> None:
    if not workspace.has_table("documents"):
        raise WorkspaceError(str(workspace.path), "no build found in this workspace", "run `kgbuild build PATH` first")


def export_rows(rows: GraphRows, fmt: str, fh: TextIO, *, base: str) -> int:
    """Write `rows` to an open text stream; returns the statement count (see ExportResult)."""
    if fmt == "turtle":
        return write_turtle(rows, fh, base)
    if fmt == "jsonld":
        return write_jsonld(rows, fh, base)
    if fmt == "graphml":
        write_graphml(rows, fh)
        return len(rows.nodes) + len(rows.edges)
    if fmt == "jsonl":
        return write_jsonl(rows, fh)
    raise KgbuildError("export", f"unknown format {fmt!r}", f"one of {', '.join(FORMATS)}")


def export_graph(workspace: Workspace, fmt: str, out: Path, *, base: str | None = None,
                 type_of: Callable[[str], str] = relationship_type) -> ExportResult:
    """Export the workspace's graph to `out` (replaced atomically).

    `base` is the IRI prefix of nodes in RDF formats (default: `default_base("kgbuild-project")`;
    the CLI passes the configured project's).
    """
    if fmt not in FORMATS:
        raise KgbuildError("export", f"unknown format {fmt!r}", f"one of {', '.join(FORMATS)}")
    base = check_base(base if base is not None else default_base("kgbuild-project"))
    require_build(workspace)
    started = time.perf_counter()
    rows = read_graph_rows(workspace, type_of)  # the same relationship types as the graph store
    with atomic_text_file(out) as fh:
        statements = export_rows(rows, fmt, fh, base=base)
    return ExportResult(fmt, out, len(rows.nodes), len(rows.edges), statements, out.stat().st_size,
                        time.perf_counter() - started, rows.dangling)


@contextmanager
def atomic_text_file(target: Path) -> Iterator[TextIO]:
    """A UTF-8 text file that appears at `target` only if the block completes."""
    if target.is_dir():
        raise KgbuildError(str(target), "is a directory", f"give a file name with --out, e.g. {target / 'graph'}")
    # A parent that is a regular file: mkdir would say only "File exists", which names neither.
    blocking = next((p for p in target.parents if p.exists() and not p.is_dir()), None)
    if blocking is not None:
        raise KgbuildError(str(target), f"cannot write: {blocking} is a file, not a directory",
                           "give --out a path whose directories are directories")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f".{target.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
        # os.open with 0o666 lets the umask decide the final permissions, as for any new file.
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError as exc:
        raise KgbuildError(str(target), f"cannot write: {exc.strerror}", "check the path and permissions") from None
    try:
        # newline="" : the writers decide every byte; no platform newline translation.
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException as exc:
        tmp.unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise KgbuildError(str(target), f"cannot write: {exc.strerror}",
                               "check free space and permissions") from None
        raise
