"""`kgbuild build`, `remove`, `sync` and `status`: the commands that change the workspace and stores.

Exit codes: 0 success; 1 the build finished but skipped a source, failed a chunk or could not
write the stores (the tables are written; `--keep-going` turns skipped/failed into 0); 2 a usage,
config, schema or workspace error, printed as one line naming the file or setting and what to do.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from kgbuild.cli_common import config_of as _config
from kgbuild.cli_common import fail_cleanly as _fail_cleanly
from kgbuild.errors import ConfigError
from kgbuild.report import BuildReport


def _out() -> Console:
    return Console(soft_wrap=False)


@click.command()
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


@click.command()
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


@click.command()
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


@click.command()
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
