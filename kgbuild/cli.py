"""The `kgbuild` command: a thin layer over the API.

Exit codes: 0 success; 1 the build finished but skipped a source or failed a chunk (the graph of
everything else is written; `--keep-going` turns this into 0); 2 a usage, config, schema or
workspace error, printed as one line naming the file or setting and what to do.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
from collections.abc import Callable
from datetime import datetime, timezone
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar

import click
from rich.console import Console
from rich.table import Table

from kgbuild import __version__
from kgbuild.config import CONFIG_FILE_NAME, Config, default_config_text, load_config
from kgbuild.errors import ConfigError, KgbuildError
from kgbuild.report import BuildReport

F = TypeVar("F", bound=Callable[..., Any])


def _out() -> Console:
    return Console(soft_wrap=False)


def _fail_cleanly(fn: F) -> F:
    """A user mistake is one line on stderr and exit code 2, never a traceback."""

    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except KgbuildError as exc:
            click.echo(f"error: {exc.line()}", err=True)
            sys.exit(2)
        except KeyboardInterrupt:
            click.echo("interrupted: finished chunks are cached; run the same command again to resume", err=True)
            sys.exit(130)

    return wrapper  # type: ignore[return-value]


def _config(ctx: click.Context) -> Config:
    return ctx.obj["config_loader"]()


@click.group()
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

    resolve_schema(schema if "/" not in schema and not schema.endswith((".yaml", ".yml")) else str(Path(schema).resolve()))
    directory.mkdir(parents=True, exist_ok=True)
    target = directory / CONFIG_FILE_NAME
    if target.exists() and not force:
        raise ConfigError(str(target), "already exists", "use --force to overwrite it")
    target.write_text(default_config_text(directory.resolve().name or "kgbuild-project", schema), encoding="utf-8")
    click.echo(f"wrote {target}")


# ---------------------------------------------------------------- build


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--workers", "-j", type=click.IntRange(min=1), help="extraction processes (default: build.workers, 0 = cores)")
@click.option("--quiet", "-q", is_flag=True, help="no progress bars")
@click.option("--keep-going", is_flag=True, help="exit 0 even if some sources were skipped or chunks failed")
@click.option("--json", "as_json", is_flag=True, help="print the build report as JSON")
@click.option("--no-cache", is_flag=True, help="re-extract every chunk and bypass the model response cache")
@click.option("--prune", is_flag=True, help="remove documents of the workspace that are not in PATHS any more")
@click.option("--no-sync", is_flag=True, help="update the workspace tables only; write the stores later with `kgbuild sync`")
@click.pass_context
@_fail_cleanly
def build(ctx: click.Context, paths: tuple[Path, ...], workers: int | None, quiet: bool, keep_going: bool,
          as_json: bool, no_cache: bool, prune: bool, no_sync: bool) -> None:
    """Build the graph from PATHS (files, directories, corpus .json/.jsonl), or from `sources:` in the config."""
    from kgbuild.build import Builder
    from kgbuild.progress import QuietProgress, RichProgress

    config = _config(ctx)
    sources = list(paths) or config.source_paths()
    if not sources:
        raise ConfigError("sources", "nothing to build", "pass paths, e.g. `kgbuild build docs/`, or list them under `sources:`")
    progress = QuietProgress() if quiet or as_json else RichProgress()
    builder = Builder(config, progress, use_cache=not no_cache)
    report = asyncio.run(builder.arun(sources, workers=workers, prune=prune, sync=not no_sync))
    _finish_build(report, as_json, keep_going)


def _finish_build(report: BuildReport, as_json: bool, keep_going: bool) -> None:
    if as_json:
        click.echo(report.model_dump_json(indent=2))
    else:
        _print_report(report)
    for skipped in report.skipped:
        click.echo(f"skipped: {skipped.source}: {skipped.reason}", err=True)
    if report.store_error:
        click.echo(f"error: stores not written: {report.store_error}; the workspace is up to date, "
                   "run `kgbuild sync` when the store is back", err=True)
    sys.exit(report.exit_code(keep_going))


@main.command()
@click.argument("doc_ids", nargs=-1, required=True)
@click.option("--quiet", "-q", is_flag=True, help="no progress bars")
@click.option("--json", "as_json", is_flag=True, help="print the build report as JSON")
@click.pass_context
@_fail_cleanly
def remove(ctx: click.Context, doc_ids: tuple[str, ...], quiet: bool, as_json: bool) -> None:
    """Remove documents (by id, see `kgbuild inspect documents`): their chunks, and every entity,
    relation and vector that loses all support, from the workspace and the stores."""
    from kgbuild.build import Builder
    from kgbuild.progress import QuietProgress, RichProgress

    config = _config(ctx)
    progress = QuietProgress() if quiet or as_json else RichProgress()
    report = asyncio.run(Builder(config, progress).arun([], remove=list(doc_ids)))
    _finish_build(report, as_json, keep_going=False)


@main.command()
@click.option("--quiet", "-q", is_flag=True, help="no progress bars")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
@_fail_cleanly
def sync(ctx: click.Context, quiet: bool, as_json: bool) -> None:
    """Write the workspace into the graph and vector stores (only what they lack; a build does this itself)."""
    from kgbuild.progress import QuietProgress, RichProgress
    from kgbuild.store.sync import sync_stores
    from kgbuild.workspace import Workspace

    config = _config(ctx)
    ws = Workspace(config.workspace_path())
    if not ws.exists():
        raise ConfigError("workspace", f"nothing built yet in {ws.path}", "run `kgbuild build SOURCES` first")
    with ws.lock():
        result = sync_stores(config, QuietProgress() if quiet or as_json else RichProgress())
        latest = ws.latest_report()
        if latest is not None:
            # `status` reads the latest report: it must not keep saying the stores are behind.
            latest.update(stores=result.model_dump(), store_error="")
            stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
            ws.save_report(json.dumps(latest, indent=2), f"sync-{stamp}-{os.getpid()}")
    if as_json:
        click.echo(result.model_dump_json(indent=2))
    else:
        click.echo(_stores_line(result.model_dump()))


def _stores_line(s: dict[str, Any]) -> str:
    return (f"graph ({s.get('graph_store') or 'off'}): {s.get('nodes_written', 0)} nodes and {s.get('edges_written', 0)} "
            f"relationships written, {s.get('nodes_deleted', 0)} + {s.get('edges_deleted', 0)} deleted; "
            f"vectors ({s.get('vector_store') or 'off'}): {s.get('vectors_written', 0)} written, "
            f"{s.get('vectors_deleted', 0)} deleted, {s.get('embeddings_computed', 0)} embedded "
            f"({s.get('embeddings_cached', 0)} from cache); {s.get('unchanged', 0)} unchanged"
            + ("; resumed an interrupted write" if s.get("resumed") else ""))


def _usage_line(u: dict[str, Any]) -> str:
    return (f"{u.get('calls', 0)} calls ({u.get('retries', 0)} retries, {u.get('cache_hits', 0)} cache hits, "
            f"{u.get('failures', 0)} failed), {u.get('prompt_tokens', 0)} prompt + {u.get('completion_tokens', 0)} "
            f"completion tokens, ~${u.get('cost_usd', 0.0):.4f}")


def _print_report(report: BuildReport) -> None:
    out = _out()
    table = Table(title="build report", show_header=False, box=None)
    table.add_column(style="bold")
    table.add_column()
    rows = [
        ("workspace", report.workspace),
        ("schema / extractor", f"{report.schema_name} / {report.extractor} ({report.workers} worker(s))"),
        ("documents", f"{report.documents_read} read ({report.documents_new} new, {report.documents_changed} changed, "
                      f"{report.documents_unchanged} unchanged), {len(report.skipped)} skipped, {report.documents_total} in workspace"),
        ("chunks", f"{report.chunks_total} ({report.chunks_extracted} extracted, {report.chunks_cached} from cache, "
                   f"{report.chunks_failed} failed)"),
        ("documents removed", str(report.documents_removed)) if report.documents_removed else None,
        ("stores", _stores_line(report.stores)) if report.stores else None,
        ("graph", f"{report.entities} entities, {report.relations} relations, {report.events} events, "
                  f"{report.hypernodes} hypernodes, {report.concepts} concepts"),
        ("time", ", ".join(f"{k} {v:.1f}s" for k, v in report.stage_seconds.items()) + f"; wall {report.wall_seconds:.1f}s"),
        ("peak memory", f"{report.peak_rss_mb:.0f} MB main, {report.peak_worker_rss_mb:.0f} MB largest worker"),
    ]
    if report.llm:
        rows.append(("model calls", _usage_line(report.llm.get("total", {}))))
        for stage, usage in report.llm.get("by_stage", {}).items():
            rows.append((f"  {stage}", _usage_line(usage)))
    for row in rows:
        if row is not None:
            table.add_row(*row)
    out.print(table)
    if report.drops:
        drops = Table(title="dropped by validation", box=None)
        drops.add_column("stage/kind/reason")
        drops.add_column("count", justify="right")
        for key, n in report.drops.items():
            drops.add_row(key, str(n))
        out.print(drops)
    if report.alignment:
        a = report.alignment
        out.print(f"alignment: {a['entities_merged']} entities merged (decisions by step: {a['merges_by_step']}), "
                  f"{a['belong_to_links']} belongTo links ({a['domain_links']} to domain concepts), "
                  f"{a['isa_completions']} isA completions ({a['isa_by_step']})")
        for label in ("before", "after"):
            c = a.get(label) or {}
            hops = ", ".join(f"{k}-hop {v['mean']:.1f}" for k, v in sorted((c.get("hops") or {}).items()))
            out.print(f"  connectivity {label}: {c.get('components')} components, mean degree "
                      f"{c.get('mean_degree', 0):.2f}, mean neighbourhood size {hops}")
    if report.retyped:
        out.print("kept but retyped: " + ", ".join(f"{k} {v}" for k, v in report.retyped.items()))
    for note in report.notes:
        out.print(f"note: {note}")


# ---------------------------------------------------------------- status


@main.command()
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
@_fail_cleanly
def status(ctx: click.Context, as_json: bool) -> None:
    """What the workspace holds and how the last build went."""
    from kgbuild import explore
    from kgbuild.workspace import Workspace

    config = _config(ctx)
    ws = Workspace(config.workspace_path())
    counts = explore.counts(ws)
    latest = ws.latest_report() or {}
    info = {
        "config": str(config.file) if config.file else "(defaults)",
        "workspace": str(ws.path),
        "schema": config.schema_,
        "counts": counts,
        "last_build": {k: latest.get(k) for k in ("finished_at", "sources", "wall_seconds", "chunks_extracted",
                                                     "chunks_cached", "chunks_failed", "peak_rss_mb")},
        "last_build_skipped": latest.get("skipped", []),
        "last_build_llm": latest.get("llm", {}),
        "last_build_stores": latest.get("stores", {}),
        "last_build_store_error": latest.get("store_error", ""),
    }
    if as_json:
        click.echo(json.dumps(info, indent=2, ensure_ascii=False))
        return
    out = _out()
    out.print(f"[bold]workspace[/bold] {info['workspace']}  [bold]config[/bold] {info['config']}  [bold]schema[/bold] {info['schema']}")
    out.print("  ".join(f"{k}: {v}" for k, v in counts.items()))
    lb = info["last_build"]
    if lb.get("finished_at"):
        out.print(f"last build {lb['finished_at']} in {lb['wall_seconds']}s: {lb['chunks_extracted']} chunks extracted, "
                  f"{lb['chunks_cached']} from cache, {lb['chunks_failed']} failed; sources: {', '.join(lb['sources'] or [])}")
    if info["last_build_llm"]:
        out.print(f"model usage: {_usage_line(info['last_build_llm'].get('total', {}))}")
    if info["last_build_stores"]:
        out.print(f"stores: {_stores_line(info['last_build_stores'])}")
    if info["last_build_store_error"]:
        out.print(f"stores NOT written: {info['last_build_store_error']} (run `kgbuild sync`)")
    for s in info["last_build_skipped"]:
        out.print(f"  skipped {s['source']}: {s['reason']}")


# ---------------------------------------------------------------- inspect

_JSON = click.option("--json", "as_json", is_flag=True, help="machine-readable output")
_LIMIT = click.option("--limit", "-n", default=50, show_default=True, help="at most this many rows (0 = all)")


def _emit(rows: list[dict[str, Any]], as_json: bool, columns: list[tuple[str, str]], title: str) -> None:
    if as_json:
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False, default=str))
        return
    table = Table(title=f"{title} ({len(rows)})")
    for _, header in columns:
        table.add_column(header, overflow="fold")
    for row in rows:
        table.add_row(*[_cell(row.get(key)) for key, _ in columns])
    _out().print(table)


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        shown = ", ".join(str(v) for v in value[:3])
        return shown + (f" (+{len(value) - 3})" if len(value) > 3 else "")
    return str(value)


def _ws(ctx: click.Context):  # noqa: ANN202
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
        _emit([{"table": k, "rows": v} for k, v in counts.items()], False, [("table", "table"), ("rows", "rows")], "workspace")


@inspect.command("entities")
@click.option("--name", help="name contains (case-insensitive), or an exact id")
@click.option("--type", "spg_class", help="schema class or semantic type")
@click.option("--doc", help="document id")
@_LIMIT
@_JSON
@click.pass_context
@_fail_cleanly
def inspect_entities(ctx: click.Context, name: str | None, spg_class: str | None, doc: str | None, limit: int,
                     as_json: bool) -> None:
    """Entities, filtered by name, type or document."""
    from kgbuild import explore

    rows = explore.entities(_ws(ctx), name=name, spg_class=spg_class, doc=doc, limit=_lim(limit))
    _emit(rows, as_json, [("name", "name"), ("spg_class", "class"), ("semantic_type", "semantic type"),
                          ("aliases", "aliases"), ("chunk_ids", "chunks"), ("id", "id")], "entities")


@inspect.command("triples")
@click.option("--entity", help="subject or object name contains (case-insensitive), or an exact id")
@click.option("--predicate", help="exact predicate, e.g. 'born in'")
@click.option("--type", "type_", help="subject or object class, e.g. Person")
@click.option("--doc", help="document id")
@_LIMIT
@_JSON
@click.pass_context
@_fail_cleanly
def inspect_triples(ctx: click.Context, entity: str | None, predicate: str | None, type_: str | None,
                    doc: str | None, limit: int, as_json: bool) -> None:
    """Relation triples, filtered by entity, predicate, type or document."""
    from kgbuild import explore

    rows = explore.triples(_ws(ctx), entity=entity, predicate=predicate, type_=type_, doc=doc, limit=_lim(limit))
    _emit(rows, as_json, [("subject_name", "subject"), ("predicate", "predicate"), ("object_name", "object"),
                          ("subject_class", "s class"), ("object_class", "o class"), ("chunk_ids", "chunks"),
                          ("id", "id")], "triples")


@inspect.command("hypernodes")
@click.option("--entity", help="name contained in the nested triple or the qualifier")
@click.option("--predicate", help="qualifier, e.g. 'in'")
@click.option("--doc", help="document id")
@_LIMIT
@_JSON
@click.pass_context
@_fail_cleanly
def inspect_hypernodes(ctx: click.Context, entity: str | None, predicate: str | None, doc: str | None, limit: int,
                       as_json: bool) -> None:
    """Qualified facts: triples about triples, e.g. ((X, found, Y), in, 1999)."""
    from kgbuild import explore

    rows = explore.hypernodes(_ws(ctx), entity=entity, predicate=predicate, doc=doc, limit=_lim(limit))
    _emit(rows, as_json, [("subject_name", "triple"), ("predicate", "qualifier"), ("object_name", "value"),
                          ("chunk_ids", "chunks"), ("id", "id")], "hypernodes")


@inspect.command("events")
@click.option("--type", "type_", help="event type, e.g. Birth")
@click.option("--doc", help="document id")
@_LIMIT
@_JSON
@click.pass_context
@_fail_cleanly
def inspect_events(ctx: click.Context, type_: str | None, doc: str | None, limit: int, as_json: bool) -> None:
    """Events with their arguments, time and place."""
    from kgbuild import explore

    rows = explore.events(_ws(ctx), type_=type_, doc=doc, limit=_lim(limit))
    _emit(rows, as_json, [("type", "type"), ("trigger", "trigger"), ("arguments", "arguments"),
                          ("time_name", "time"), ("place_name", "place"), ("chunk_ids", "chunks")], "events")


@inspect.command("documents")
@_LIMIT
@_JSON
@click.pass_context
@_fail_cleanly
def inspect_documents(ctx: click.Context, limit: int, as_json: bool) -> None:
    """Documents in the workspace and their chunks."""
    from kgbuild import explore

    rows = explore.documents(_ws(ctx), limit=_lim(limit))
    _emit(rows, as_json, [("id", "id"), ("title", "title"), ("format", "format"), ("word_count", "words"),
                          ("chunk_ids", "chunks"), ("source", "source")], "documents")


@inspect.command("chunks")
@click.option("--doc", help="document id")
@click.option("--id", "ids", multiple=True, help="chunk id (repeatable)")
@_LIMIT
@_JSON
@click.pass_context
@_fail_cleanly
def inspect_chunks(ctx: click.Context, doc: str | None, ids: tuple[str, ...], limit: int, as_json: bool) -> None:
    """Chunks with their text, section and neighbours."""
    from kgbuild import explore

    rows = explore.chunks(_ws(ctx), doc=doc, ids=list(ids) or None, limit=_lim(limit))
    _emit(rows, as_json, [("id", "id"), ("section", "section"), ("token_count", "tokens"), ("text", "text")], "chunks")


@inspect.command("support")
@click.argument("item_id")
@_JSON
@click.pass_context
@_fail_cleanly
def inspect_support(ctx: click.Context, item_id: str, as_json: bool) -> None:
    """The chunks that support an entity, triple, event, hypernode or concept (by id)."""
    from kgbuild import explore

    kind, row, supporting = explore.support(_ws(ctx), item_id)
    if as_json:
        click.echo(json.dumps({"kind": kind, "item": row, "chunks": supporting}, indent=2, ensure_ascii=False))
        return
    out = _out()
    label = row.get("name") or f"({row.get('subject_name')}, {row.get('predicate')}, {row.get('object_name')})"
    out.print(f"[bold]{kind[:-1]}[/bold] {label}  [dim]{item_id}[/dim]")
    for chunk in supporting:
        out.print(f"\n[bold cyan]{chunk['id']}[/bold cyan] {' > '.join(chunk['section'])}")
        out.print(chunk["text"], markup=False, highlight=False)


@inspect.command("merges")
@click.option("--name", help="canonical name contains, or its exact id")
@click.option("--step", help="exact | variant | lsh | embedding | llm | rule")
@_LIMIT
@_JSON
@click.pass_context
@_fail_cleanly
def inspect_merges(ctx: click.Context, name: str | None, step: str | None, limit: int, as_json: bool) -> None:
    """Synonym fusion decisions: which entities were merged, by which step, and why."""
    from kgbuild import explore

    rows = explore.merges(_ws(ctx), name=name, step=step, limit=_lim(limit))
    _emit(rows, as_json, [("canonical_name", "canonical"), ("merged_ids", "merged ids"), ("step", "step"),
                          ("reason", "reason"), ("canonical_id", "id")], "merges")


@inspect.command("drops")
@click.option("--reason", help="reason contains")
@_LIMIT
@_JSON
@click.pass_context
@_fail_cleanly
def inspect_drops(ctx: click.Context, reason: str | None, limit: int, as_json: bool) -> None:
    """Items removed by validation, with the reason and the chunk they came from."""
    from kgbuild import explore

    rows = explore.drops(_ws(ctx), reason=reason, limit=_lim(limit))
    _emit(rows, as_json, [("stage", "stage"), ("kind", "kind"), ("reason", "reason"), ("detail", "detail"),
                          ("chunk_id", "chunk")], "drops")


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


def _register_commands() -> None:
    # Commands that live in their own modules; they import from this one only when they run.
    from kgbuild.cli_eval import eval_command
    from kgbuild.cli_export import export
    from kgbuild.cli_query import query

    main.add_command(query)
    main.add_command(eval_command)
    main.add_command(export)


_register_commands()


if __name__ == "__main__":
    main()
