"""The `kgbuild` command: a thin layer over the API.

Exit codes: 0 success; 1 the build finished but skipped a source or failed a chunk (the graph of
everything else is written; `--keep-going` turns this into 0); 2 a usage, config, schema or
workspace error, printed as one line naming the file or setting and what to do.
"""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.console import Console

from kgbuild import __version__
from kgbuild.cli_common import LazyGroup, config_of, fail_cleanly
from kgbuild.config import CONFIG_FILE_NAME, Config, default_config_text, load_config
from kgbuild.errors import ConfigError

if TYPE_CHECKING:
    from kgbuild.workspace import Workspace


def _out() -> Console:
    return Console(soft_wrap=False)


_fail_cleanly = fail_cleanly
_config = config_of


# Commands that live in their own modules are imported only when they run (or `--help` lists
# them): a cold `kgbuild query` must not import the build, the aligner and the exporters.
@click.group(cls=LazyGroup, lazy={
    "build": "kgbuild.cli_build:build", "remove": "kgbuild.cli_build:remove", "sync": "kgbuild.cli_build:sync",
    "status": "kgbuild.cli_build:status", "query": "kgbuild.cli_query:query",
    "strategies": "kgbuild.cli_query:strategies", "eval": "kgbuild.cli_eval:eval_command",
    "train": "kgbuild.cli_train:train", "serve": "kgbuild.cli_serve:serve", "export": "kgbuild.cli_export:export",
    "mcp": "kgbuild.cli_mcp:mcp", "curate": "kgbuild.cli_curate:curate"})
@click.version_option(__version__, prog_name="kgbuild")
@click.option("--config", "-c", "config_path", type=click.Path(path_type=Path),
              help=f"project config (default: ./{CONFIG_FILE_NAME} if present, else defaults)")
@click.pass_context
def main(ctx: click.Context, config_path: Path | None) -> None:
    """Turn documents into a knowledge graph (KAG-style) and inspect it."""
    # pypdf logs its own warnings for damaged files; the reader already reports them in one line.
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    cache: dict[str, Config] = {}

    def loader() -> Config:
        # Loaded once, on first use, and passed explicitly from here on.
        if "config" not in cache:
            cache["config"] = load_config(config_path)
        return cache["config"]

    ctx.obj = {"config_loader": loader}


# ---------------------------------------------------------------- init


@main.command()
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path), default=".")
@click.option("--schema", default="open_domain", show_default=True, help="shipped schema name or path to a YAML schema")
@click.option("--force", is_flag=True, help="overwrite an existing kgbuild.yaml")
@_fail_cleanly
def init(directory: Path, schema: str, force: bool) -> None:
    """Create kgbuild.yaml (and the workspace) in DIRECTORY."""
    from kgbuild.schema import resolve_schema

    is_name = "/" not in schema and not schema.endswith((".yaml", ".yml"))
    resolve_schema(schema if is_name else str(Path(schema).resolve()))
    directory.mkdir(parents=True, exist_ok=True)
    target = directory / CONFIG_FILE_NAME
    if target.exists() and not force:
        raise ConfigError(str(target), "already exists", "use --force to overwrite it")
    target.write_text(default_config_text(directory.resolve().name or "kgbuild-project", schema), encoding="utf-8")
    click.echo(f"wrote {target}")


# ---------------------------------------------------------------- inspect

_JSON = click.option("--json", "as_json", is_flag=True, help="machine-readable output")
_LIMIT = click.option("--limit", "-n", default=50, show_default=True, help="at most this many rows (0 = all)")


_WIDE = click.option("--wide", "-w", is_flag=True,
                     help="every column in full, at the terminal's width or wider (default: fits 80 columns)")


def _emit(rows: list[dict[str, Any]], as_json: bool, view: str, wide: bool = False) -> None:
    if as_json:
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False, default=str))
        return
    from kgbuild.cli_inspect_view import VIEWS, render

    render(VIEWS[view], rows, wide=wide, console=_out())


def _ws(ctx: click.Context) -> Workspace:
    from kgbuild.workspace import Workspace

    return Workspace(_config(ctx).workspace_path())


def _lim(limit: int) -> int | None:
    return None if limit == 0 else limit


@main.group(invoke_without_command=True)
@_JSON
@click.pass_context
@_fail_cleanly
def inspect(ctx: click.Context, as_json: bool) -> None:
    """Look at the built graph: counts, entities, triples, the chunks behind a triple."""
    if ctx.invoked_subcommand:
        return
    from kgbuild import explore

    counts = explore.counts(_ws(ctx))
    if as_json:
        click.echo(json.dumps(counts, indent=2))
    else:
        _emit([{"table": k, "rows": v} for k, v in counts.items()], False, "workspace")


@inspect.command("entities")
@click.option("--name", help="name contains (case-insensitive), or an exact id")
@click.option("--type", "spg_class", help="schema class or semantic type")
@click.option("--doc", help="document id")
@_LIMIT
@_JSON
@_WIDE
@click.pass_context
@_fail_cleanly
def inspect_entities(ctx: click.Context, name: str | None, spg_class: str | None, doc: str | None, limit: int,
                     as_json: bool, wide: bool) -> None:
    """Entities, filtered by name, type or document."""
    from kgbuild import explore

    rows = explore.entities(_ws(ctx), name=name, spg_class=spg_class, doc=doc, limit=_lim(limit))
    _emit(rows, as_json, "entities", wide)


@inspect.command("triples")
@click.option("--entity", help="subject or object name contains (case-insensitive), or an exact id")
@click.option("--predicate", help="exact predicate, e.g. 'born in'")
@click.option("--type", "type_", help="subject or object class, e.g. Person")
@click.option("--doc", help="document id")
@_LIMIT
@_JSON
@_WIDE
@click.pass_context
@_fail_cleanly
def inspect_triples(ctx: click.Context, entity: str | None, predicate: str | None, type_: str | None,
                    doc: str | None, limit: int, as_json: bool, wide: bool) -> None:
    """Relation triples, filtered by entity, predicate, type or document."""
    from kgbuild import explore

    rows = explore.triples(_ws(ctx), entity=entity, predicate=predicate, type_=type_, doc=doc, limit=_lim(limit))
    _emit(rows, as_json, "triples", wide)


@inspect.command("hypernodes")
@click.option("--entity", help="name contained in the nested triple or the qualifier")
@click.option("--predicate", help="qualifier, e.g. 'in'")
@click.option("--doc", help="document id")
@_LIMIT
@_JSON
@_WIDE
@click.pass_context
@_fail_cleanly
def inspect_hypernodes(ctx: click.Context, entity: str | None, predicate: str | None, doc: str | None, limit: int,
                       as_json: bool, wide: bool) -> None:
    """Qualified facts: triples about triples, e.g. ((X, found, Y), in, 1999)."""
    from kgbuild import explore

    rows = explore.hypernodes(_ws(ctx), entity=entity, predicate=predicate, doc=doc, limit=_lim(limit))
    _emit(rows, as_json, "hypernodes", wide)


@inspect.command("events")
@click.option("--type", "type_", help="event type, e.g. Birth")
@click.option("--doc", help="document id")
@_LIMIT
@_JSON
@_WIDE
@click.pass_context
@_fail_cleanly
def inspect_events(ctx: click.Context, type_: str | None, doc: str | None, limit: int,
                   as_json: bool, wide: bool) -> None:
    """Events with their arguments, time and place."""
    from kgbuild import explore

    rows = explore.events(_ws(ctx), type_=type_, doc=doc, limit=_lim(limit))
    _emit(rows, as_json, "events", wide)


@inspect.command("documents")
@_LIMIT
@_JSON
@_WIDE
@click.pass_context
@_fail_cleanly
def inspect_documents(ctx: click.Context, limit: int, as_json: bool, wide: bool) -> None:
    """Documents in the workspace and their chunks."""
    from kgbuild import explore

    rows = explore.documents(_ws(ctx), limit=_lim(limit))
    _emit(rows, as_json, "documents", wide)


@inspect.command("chunks")
@click.option("--doc", help="document id")
@click.option("--id", "ids", multiple=True, help="chunk id (repeatable)")
@_LIMIT
@_JSON
@_WIDE
@click.pass_context
@_fail_cleanly
def inspect_chunks(ctx: click.Context, doc: str | None, ids: tuple[str, ...], limit: int,
                   as_json: bool, wide: bool) -> None:
    """Chunks with their text, section and neighbours."""
    from kgbuild import explore

    rows = explore.chunks(_ws(ctx), doc=doc, ids=list(ids) or None, limit=_lim(limit))
    _emit(rows, as_json, "chunks", wide)


@inspect.command("support")
@click.argument("item_id")
@_JSON
@click.pass_context
@_fail_cleanly
def inspect_support(ctx: click.Context, item_id: str, as_json: bool) -> None:
    """The chunks that support an entity, triple, event, hypernode or concept (by id, or a prefix of it)."""
    from kgbuild import explore

    kind, row, supporting = explore.support(_ws(ctx), item_id)
    if as_json:
        click.echo(json.dumps({"kind": kind, "item": row, "chunks": supporting}, indent=2, ensure_ascii=False))
        return
    from kgbuild.cli_inspect_view import render_support

    render_support(kind, row, supporting, console=_out())


@inspect.command("merges")
@click.option("--name", help="canonical name contains, or its exact id")
@click.option("--step", help="exact | variant | lsh | embedding | llm | rule")
@_LIMIT
@_JSON
@_WIDE
@click.pass_context
@_fail_cleanly
def inspect_merges(ctx: click.Context, name: str | None, step: str | None, limit: int,
                   as_json: bool, wide: bool) -> None:
    """Synonym fusion decisions: which entities were merged, by which step, and why."""
    from kgbuild import explore

    rows = explore.merges(_ws(ctx), name=name, step=step, limit=_lim(limit))
    _emit(rows, as_json, "merges", wide)


@inspect.command("drops")
@click.option("--reason", help="reason contains")
@_LIMIT
@_JSON
@_WIDE
@click.pass_context
@_fail_cleanly
def inspect_drops(ctx: click.Context, reason: str | None, limit: int, as_json: bool, wide: bool) -> None:
    """Items removed by validation, with the reason and the chunk they came from."""
    from kgbuild import explore

    rows = explore.drops(_ws(ctx), reason=reason, limit=_lim(limit))
    _emit(rows, as_json, "drops", wide)


# ---------------------------------------------------------------- cache


@main.group()
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
@_fail_cleanly
def cache_info(ctx: click.Context) -> None:
    """Size of each cache file."""
    ws_path = _config(ctx).workspace_path()
    files = _cache_files(ws_path, "all")
    for f in files:
        click.echo(f"{f.stat().st_size / 1e6:10.2f} MB  {f.relative_to(ws_path)}")
    if not files:
        click.echo("no caches yet")


@cache.command("clear")
@click.option("--only", type=click.Choice(["extract", "llm", "all"]), default="all", show_default=True)
@click.pass_context
@_fail_cleanly
def cache_clear(ctx: click.Context, only: str) -> None:
    """Delete cached extractions and/or model responses; the next build pays for them again."""
    from kgbuild.workspace import Workspace

    ws_path = _config(ctx).workspace_path()
    files = _cache_files(ws_path, only)
    if files:
        with Workspace(ws_path).lock():  # never pull a cache from under a running build
            for f in files:
                f.unlink()
    click.echo(f"removed {len(files)} cache file(s) from {ws_path / 'cache'}")


# ---------------------------------------------------------------- schema


@main.group()
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


if __name__ == "__main__":
    main()
