"""`kgbuild cache info|clear`: the extraction cache and the model response cache of the workspace."""

from __future__ import annotations

from pathlib import Path

import click

from kgbuild.cli.common import config_of, fail_cleanly


@click.group()
def cache() -> None:
    """The extraction cache and the model response cache."""


def _cache_files(ws_path: Path, which: str) -> list[Path]:
    files: list[Path] = []
    if which in ("extract", "all"):
        files += sorted((ws_path / "cache" / "extract").glob("*.jsonl"))
    if which in ("llm", "all"):
        files += sorted((ws_path / "cache").glob("llm.sqlite*"))
    return files


@cache.command("info")
@click.pass_context
@fail_cleanly
def cache_info(ctx: click.Context) -> None:
    """Size of each cache file."""
    ws_path = config_of(ctx).workspace_path()
    files = _cache_files(ws_path, "all")
    for f in files:
        click.echo(f"{f.stat().st_size / 1e6:10.2f} MB  {f.relative_to(ws_path)}")
    if not files:
        click.echo("no caches yet")


@cache.command("clear")
@click.option("--only", type=click.Choice(["extract", "llm", "all"]), default="all", show_default=True)
@click.pass_context
@fail_cleanly
def cache_clear(ctx: click.Context, only: str) -> None:
    """Delete cached extractions and/or model responses; the next build pays for them again."""
    from kgbuild.workspace import Workspace

    ws_path = config_of(ctx).workspace_path()
    files = _cache_files(ws_path, only)
    if files:
        with Workspace(ws_path).lock():  # never pull a cache from under a running build
            for f in files:
                f.unlink()
    click.echo(f"removed {len(files)} cache file(s) from {ws_path / 'cache'}")
