"""`kgbuild build`, `remove`, `sync` and `status`: the commands that change the workspace and stores.

Exit codes: 0 success; 1 the build finished but skipped a source, failed a chunk or could not
write the stores (the tables are written; `--keep-going` turns skipped/failed into 0); 2 a usage,
config, schema or workspace error, printed as one line naming the file or setting and what to do.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import click
from rich.console import Console

from kgbuild.cli.common import config_of as _config
from kgbuild.cli.common import fail_cleanly as _fail_cleanly
from kgbuild.cli.report import corrections_lines, failed_chunk_lines, print_report, stores_line, usage_line
from kgbuild.config import Config
from kgbuild.errors import ConfigError, KgbuildError
from kgbuild.model import ChunkFailure
from kgbuild.report import BuildReport, ExtractSection


def _out() -> Console:
    return Console(soft_wrap=False)


@click.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--workers", "-j", type=click.IntRange(min=1),
              help="extraction processes (default: build.workers, 0 = cores)")
@click.option("--quiet", "-q", is_flag=True, help="no progress bars")
@click.option("--keep-going", is_flag=True, help="exit 0 even if some sources were skipped or chunks failed")
@click.option("--json", "as_json", is_flag=True, help="print the build report as JSON")
@click.option("--no-cache", is_flag=True, help="re-extract every chunk and bypass the model response cache")
@click.option("--prune", is_flag=True, help="remove documents of the workspace that are not in PATHS any more")
@click.option("--no-sync", is_flag=True,
              help="update the workspace tables only; write the stores later with `kgbuild sync`")
@click.option("--dry-run", is_flag=True,
              help="read and chunk only: print the model calls, prompt tokens and cost the build would take; "
              "writes nothing")
@click.option("--engine", type=click.Choice(["local", "ray"]),
              help="where the stages run: this machine (default: engine.kind) or a Ray cluster")
@click.option("--ray-address", metavar="HOST:PORT", help="the Ray cluster to join (implies --engine ray)")
@click.option("--ray-dashboard", is_flag=True,
              help="with --engine ray and no address: start Ray's dashboard on 127.0.0.1 (engine.dashboard)")
@click.pass_context
@_fail_cleanly
def build(ctx: click.Context, paths: tuple[Path, ...], workers: int | None, quiet: bool, keep_going: bool,
          as_json: bool, no_cache: bool, prune: bool, no_sync: bool, dry_run: bool, engine: str | None,
          ray_address: str | None, ray_dashboard: bool) -> None:
    """Build the graph from PATHS (files, directories, corpus .json/.jsonl), or from `sources:` in the config."""
    from kgbuild.build import Builder
    from kgbuild.build.runner import process_started
    from kgbuild.progress import QuietProgress, RichProgress

    config = _config(ctx)
    if engine or ray_address or ray_dashboard:
        kind = engine or "ray"
        if kind == "local" and (ray_address or ray_dashboard):
            flag = "--ray-address" if ray_address else "--ray-dashboard"
            raise ConfigError(flag, "given with --engine local", "drop one of the two")
        update: dict[str, Any] = {"kind": kind}
        if ray_address:
            update["address"] = ray_address
        if ray_dashboard:
            update["dashboard"] = True
        config.engine = config.engine.model_copy(update=update)
    sources = list(paths) or config.source_paths()
    if not sources:
        raise ConfigError("sources", "nothing to build",
                          "pass paths, e.g. `kgbuild build docs/`, or list them under `sources:`")
    _check_sources(sources)
    if dry_run:
        from kgbuild.build.dry_run import estimate_build, render_estimate

        estimate = asyncio.run(estimate_build(config, sources, use_cache=not no_cache))
        click.echo(estimate.model_dump_json(indent=2) if as_json else "\n".join(render_estimate(estimate)))
        # The exit code of the build it previews: 1 when a source would be skipped, unless --keep-going.
        if estimate.skipped and not keep_going:
            sys.exit(1)
        return
    if not no_sync:
        from kgbuild.store.checks import check_stores

        check_stores(config)  # a server down or a password missing: one line, before any work
    if config.embedding.device == "cuda":
        from kgbuild.embed.device import resolve_device

        resolve_device("cuda", config.embedding.backend)  # no GPU here: one line, before any work
    from kgbuild.llm.probe import build_roles, check_endpoints

    check_endpoints(config, build_roles(config))  # a dead or wrong model endpoint: one line, before any work
    _language_notice(config, sources)
    progress = QuietProgress() if quiet or as_json else RichProgress()
    builder = Builder(config, progress, use_cache=not no_cache, process_started=process_started())
    report = asyncio.run(builder.arun(sources, workers=workers, prune=prune, sync=not no_sync))
    _finish_build(report, as_json, keep_going)


def _check_sources(sources: list[Path]) -> None:
    """A source that does not exist (a typo) stops the build before any work: before, the workspace
    was created and the stores written for an empty build, and the typo came out last as "skipped"."""
    from kgbuild.errors import InputError

    missing = [p for p in sources if not p.exists() and not p.is_symlink()]
    if missing:
        more = f" ({len(missing) - 1} more missing)" if len(missing) > 1 else ""
        raise InputError(str(missing[0]), f"no such file or directory{more}",
                         "check the path; nothing was built or written")


def _language_notice(config: Config, sources: list[Path]) -> None:
    """Without a model, text in a language no offline extractor reads yields an empty graph: say so first."""
    from kgbuild.extract.language import sources_notice

    offline = config.extract.extractor == "offline" or (config.extract.extractor == "auto"
                                                        and not config.llm.configured())
    if offline and (line := sources_notice(sources)) is not None:
        click.echo(line, err=True)


def _finish_build(report: BuildReport, as_json: bool, keep_going: bool) -> None:
    if as_json:
        click.echo(report.model_dump_json(indent=2))
    else:
        print_report(report)
    for skipped in report.skipped:
        click.echo(f"skipped: {skipped.source}: {skipped.reason}", err=True)
    if report.chunks_failed:
        # Named on stderr in both modes: with --json stdout is only the report, which counts the
        # failures but names none; the ids and errors are in the workspace's `drops` table.
        for line in failed_chunk_lines(_failed_chunks(report)):
            click.echo(line, err=True)
    if report.extract is not None and report.extract.stopped:
        click.echo(f"error: extraction stopped: {report.extract.stopped}; finished chunks are kept, "
                   "run the same build again once it is fixed", err=True)
    if report.store_error:
        click.echo(f"error: stores not written: {report.store_error}; the workspace is up to date, "
                   "run `kgbuild sync` when the store is back", err=True)
    for line in _health_warnings(report):
        click.echo(f"warning: graph: {line}", err=True)
    sys.exit(report.exit_code(keep_going))


def _health_warnings(report: BuildReport) -> list[str]:
    """What `kgbuild inspect health` warns about the graph as written (a thin or island graph looks
    like any other in the report's counts)."""
    from kgbuild.health import graph_health
    from kgbuild.workspace import Workspace

    if report.assemble is None:
        return []  # nothing was extracted or assembled in this run: the graph is as before
    try:
        return graph_health(Workspace(Path(report.workspace)), shown=0).warnings
    except KgbuildError:
        return []  # an unreadable table is reported by the commands that read it; never hide the exit code


def _failed_chunks(report: BuildReport) -> list[ChunkFailure]:
    from kgbuild.workspace import Workspace

    try:
        notes = Workspace(Path(report.workspace)).notes()
    except KgbuildError:
        return []  # the count is in the report; an unreadable table must not hide the exit code
    return sorted((n for n in notes if isinstance(n, ChunkFailure)), key=lambda f: f.chunk_id)


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
    from kgbuild.llm.probe import check_endpoints, remove_roles
    from kgbuild.progress import QuietProgress, RichProgress

    config = _config(ctx)
    check_endpoints(config, remove_roles(config))  # a dead or wrong model endpoint: one line, before any work
    progress = QuietProgress() if quiet or as_json else RichProgress()
    report = asyncio.run(Builder(config, progress).arun([], remove=list(doc_ids)))
    _finish_build(report, as_json, keep_going=False)


@click.command()
@click.option("--quiet", "-q", is_flag=True, help="no progress bars")
@click.option("--json", "as_json", is_flag=True, help="print what was written as JSON")
@click.pass_context
@_fail_cleanly
def sync(ctx: click.Context, quiet: bool, as_json: bool) -> None:
    """Write the workspace into the graph and vector stores (only what they lack; a build does this itself)."""
    from kgbuild.build.sync import sync_workspace
    from kgbuild.progress import QuietProgress, RichProgress
    from kgbuild.workspace import Workspace

    config = _config(ctx)
    if Workspace(config.workspace_path()).has_table("entities"):
        # corrections.yaml first: what changed there since the tables were written (docs/curation.md).
        from kgbuild.build.corrections_sync import apply_pending
        from kgbuild.schema import resolve_schema

        fixed = asyncio.run(apply_pending(config, resolve_schema(config.schema_location())))
        for line in [*fixed.problems, *(f"stale correction: {line}" for line in fixed.stale)]:
            click.echo(line, err=True)
    result = sync_workspace(config, QuietProgress() if quiet or as_json else RichProgress())
    if as_json:
        click.echo(result.model_dump_json(indent=2))
    else:
        click.echo(stores_line(result))


# ---------------------------------------------------------------- status


@click.command()
@click.option("--json", "as_json", is_flag=True, help="print the status as JSON")
@click.pass_context
@_fail_cleanly
def status(ctx: click.Context, as_json: bool) -> None:
    """What the workspace holds and how the last build went."""
    from kgbuild.status import project_status

    info = project_status(_config(ctx))
    if as_json:
        click.echo(json.dumps(info.as_json(), indent=2, ensure_ascii=False))
        return
    out = _out()
    out.print(f"[bold]workspace[/bold] {info.workspace}  [bold]config[/bold] {info.config}  "
              f"[bold]schema[/bold] {info.schema}")
    if info.running is not None:
        if not info.counts:  # a first build: nothing to count yet, but not "nothing built" either
            out.print(f"{info.running.line()}; nothing written to the workspace yet (its first build)")
            return
        out.print(f"{info.running.line()} (the counts below are the last finished build's)")
    out.print("  ".join(f"{k}: {v}" for k, v in info.counts.items()))
    for name, held in info.stores.items():
        if held["backend"] != "none":
            rows = ", ".join(f"{n} {kind}" for kind, n in held["rows"].items()) or "nothing written yet"
            cut = "  (last write interrupted: run `kgbuild sync`)" if held["interrupted"] else ""
            out.print(f"{name} store ({held['backend']}) holds: {rows}{cut}")
    if info.latest_unreadable:
        out.print("last build report was written by an older kgbuild; the next build writes a new one")
    latest = info.latest
    if latest is None:
        return
    extract = latest.extract or ExtractSection()
    if latest.finished_at:
        out.print(f"last build {latest.finished_at} in {latest.wall_seconds}s: {extract.chunks_extracted} chunks "
                  f"extracted, {extract.chunks_cached} from cache, {extract.chunks_failed} failed; "
                  f"sources: {', '.join(latest.sources)}")
    if latest.llm is not None:
        out.print(f"model usage, last build: {usage_line(latest.llm.total)}")
    if info.model_usage_total is not None:
        out.print(f"model usage, all builds ({info.model_usage_builds} with a model): "
                  f"{usage_line(info.model_usage_total)}")
    if latest.assemble is not None and latest.assemble.off_schema_line():
        out.print(latest.assemble.off_schema_line())
    for line in corrections_lines(latest):
        out.print(line, highlight=False, soft_wrap=True)
    if latest.write is not None and latest.write.stores is not None:
        out.print(f"stores: {stores_line(latest.write.stores)}")
    if latest.store_error:
        out.print(f"stores NOT written: {latest.store_error} (run `kgbuild sync`)")
    for s in latest.skipped:
        out.print(f"  skipped {s.source}: {s.reason}")
