"""`kgbuild export FORMAT`: the built graph as Turtle, JSON-LD, GraphML or JSON lines.

Registered on the main group by kgbuild/cli/root.py (lazily); failures and the config go through
kgbuild/cli/common.py.
"""

from __future__ import annotations

import re
from pathlib import Path

import click

from kgbuild.cli.common import config_of, fail_cleanly
from kgbuild.export import EXTENSIONS, FORMATS, RDF_FORMATS


def _default_out(project: str, fmt: str) -> Path:
    stem = re.sub(r"[^A-Za-z0-9._-]+", "-", project).strip("-.") or "graph"
    return Path(f"{stem}{EXTENSIONS[fmt]}")


def _size(n: int) -> str:
    if n < 1024:
        return f"{n} B"
    value = n / 1024
    for unit in ("KB", "MB"):
        if value < 1024:
            return f"{value:.1f} {unit}"
        value /= 1024
    return f"{value:.1f} GB"


@click.command("export")
@click.argument("fmt", metavar="FORMAT", type=click.Choice(FORMATS, case_sensitive=False))
@click.option("--out", "-o", type=click.Path(path_type=Path),
              help="output file (default: ./<project><extension>); replaced only when the export completes")
@click.option("--base", help="IRI prefix of nodes in turtle/jsonld (default: urn:kgbuild:<project>:)")
@click.pass_context
@fail_cleanly
def export(ctx: click.Context, fmt: str, out: Path | None, base: str | None) -> None:
    """Write the built graph as FORMAT: turtle, jsonld, graphml or jsonl (see docs/vocabulary.md)."""
    from kgbuild.errors import KgbuildError
    from kgbuild.export import check_base, default_base, export_graph
    from kgbuild.workspace import Workspace

    fmt = fmt.lower()
    config = config_of(ctx)
    if base is not None and fmt not in RDF_FORMATS:
        raise KgbuildError("--base", f"only applies to turtle and jsonld, not {fmt}", "leave it out")
    base = check_base(base if base is not None else default_base(config.project))
    # A directory or a path under a file is refused by export_graph in one line (click's own check
    # printed three lines of usage).
    target = out if out is not None else _default_out(config.project, fmt)
    from kgbuild.store.sync import relationship_typer

    result = export_graph(Workspace(config.workspace_path()), fmt, target, base=base,
                          type_of=relationship_typer(config))
    what = {"turtle": "triples", "jsonld": "triples", "jsonl": "lines", "graphml": "elements"}[fmt]
    click.echo(f"wrote {result.path} ({fmt}, {_size(result.bytes)}): {result.nodes} nodes, {result.edges} edges, "
               f"{result.statements} {what} in {result.seconds:.1f}s")
    if result.dangling:
        click.echo(f"note: {result.dangling} relationship(s) left out because an end is not in the graph", err=True)
