"""`kgbuild schema check FILE`: validate a YAML domain schema, every problem with its line."""

from __future__ import annotations

import sys
from pathlib import Path

import click


@click.group()
def schema() -> None:
    """Domain schemas in YAML."""


@schema.command("check")
@click.argument("file", type=click.Path(path_type=Path))
def schema_check(file: Path) -> None:
    """Validate a schema file; print every problem with its line."""
    from kgbuild.schema import check_schema

    problems = check_schema(file)
    for problem in problems:
        click.echo(problem.line_text(), err=True)
    if problems:
        click.echo(f"{file}: {len(problems)} problem(s)", err=True)
        sys.exit(2)
    click.echo(f"{file}: ok")
