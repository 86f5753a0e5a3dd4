"""`kgbuild inspect ...`: look at the built workspace tables from the terminal (80 columns by default)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import click
from rich.console import Console

from kgbuild.cli.common import config_of, fail_cleanly

if TYPE_CHECKING:
    from kgbuild.workspace import Workspace


def _out() -> Console:
    return Console(soft_wrap=False)


_JSON = click.option("--json", "as_json", is_flag=True, help="machine-readable output")
_LIMIT = click.option("--limit", "-n", default=50, show_default=True, help="at most this many rows (0 = all)")


_WIDE = click.option("--wide", "-w", is_flag=True,
                     help="every column in full, at the terminal's width or wider (default: fits 80 columns)")


def _emit(rows: list[dict[str, Any]], as_json: bool, view: str, wide: bool = False) -> None:
    if as_json:
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False, default=str))
        return
    from kgbuild.cli.inspect_view import VIEWS, render

    render(VIEWS[view], rows, wide=wide, console=_out())


def _ws(ctx: click.Context) -> Workspace:
    from kgbuild.workspace import Workspace

    return Workspace(config_of(ctx).workspace_path())


def _lim(limit: int) -> int | None:
    return None if limit == 0 else limit


@click.group(invoke_without_command=True)
@_JSON
@click.pass_context
@fail_cleanly
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
@fail_cleanly
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
@fail_cleanly
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
@fail_cleanly
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
@fail_cleanly
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
@fail_cleanly
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
@fail_cleanly
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
@fail_cleanly
def inspect_support(ctx: click.Context, item_id: str, as_json: bool) -> None:
    """The chunks that support an entity, triple, event, hypernode or concept (by id, or a prefix of it)."""
    from kgbuild import explore

    kind, row, supporting = explore.support(_ws(ctx), item_id)
    if as_json:
        click.echo(json.dumps({"kind": kind, "item": row, "chunks": supporting}, indent=2, ensure_ascii=False))
        return
    from kgbuild.cli.inspect_view import render_support

    render_support(kind, row, supporting, console=_out())


@inspect.command("merges")
@click.option("--name", help="canonical name contains, or its exact id")
@click.option("--step", help="exact | alias | variant | lsh | embedding | llm | rule")
@_LIMIT
@_JSON
@_WIDE
@click.pass_context
@fail_cleanly
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
@fail_cleanly
def inspect_drops(ctx: click.Context, reason: str | None, limit: int, as_json: bool, wide: bool) -> None:
    """Items removed by validation, with the reason and the chunk they came from."""
    from kgbuild import explore

    rows = explore.drops(_ws(ctx), reason=reason, limit=_lim(limit))
    _emit(rows, as_json, "drops", wide)


@inspect.command("health")
@click.option("--limit", "-n", default=10, show_default=True, help="names and documents listed (0 = none)")
@_JSON
@click.pass_context
@fail_cleanly
def inspect_health(ctx: click.Context, limit: int, as_json: bool) -> None:
    """How much of the text the graph relates: relations per entity, the entities in no relation and
    the documents with none, class shares, components; the warnings a build prints come from here."""
    from kgbuild import explore
    from kgbuild.health import graph_health

    ws = _ws(ctx)
    explore.counts(ws)  # no build yet: the same one-line error as `kgbuild inspect`
    health = graph_health(ws, shown=max(limit, 0))
    if as_json:
        click.echo(health.model_dump_json(indent=2))
        return
    from kgbuild.cli.inspect_view import health_lines

    for line in health_lines(health):
        click.echo(line)
