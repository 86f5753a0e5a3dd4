"""`kgbuild curate ...`: hand corrections of the graph, kept in corrections.yaml (docs/curation.md).

Each command writes the file and says so; `--sync` (or `kgbuild sync`, or the next build) applies
it to the workspace tables and writes only the rows that change to the stores. The logic lives in
kgbuild/curate (the file, applying it, the review queue) and kgbuild/build/corrections.py (the
stage and the table-level sync), which the explorer's write mode uses too.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import click

from kgbuild.cli.common import config_of, fail_cleanly
from kgbuild.config import Config
from kgbuild.curate.file import Correction, CorrectionKind, corrections_path

__all__ = ["curate"]

_REASON = click.option("--reason", "-m", default="", help="why (kept in the file beside the fix)")
_AUTHOR = click.option("--author", default="", help="who (default: $KGBUILD_AUTHOR, else the login name)")
_SYNC = click.option("--sync", "sync_now", is_flag=True,
                     help="apply it now: update the workspace tables and write the changed rows to the stores")


def _correction_command(f: Callable[..., None]) -> Callable[..., None]:
    """What every command that writes one correction takes: --reason, --author, --sync, the context."""
    return _REASON(_AUTHOR(_SYNC(click.pass_context(fail_cleanly(f)))))


@click.group("curate")
def curate() -> None:
    """Correct the graph by hand: merge, never-merge, reject, retype, rename, add; list, undo, review.

    Corrections live in corrections.yaml beside kgbuild.yaml and are re-applied by every build."""


def _write(ctx: click.Context, kind: CorrectionKind, target: dict[str, str], reason: str, author: str,
           sync_now: bool) -> None:
    from kgbuild.curate.file import append_correction, make

    config = config_of(ctx)
    correction = make(kind, target, author=author, reason=reason)
    path = corrections_path(config.root)
    entry = append_correction(path, correction)
    click.echo(f"{entry.number}: {correction.describe()} -> {path}")
    for line in _unknown_targets(config, correction):
        click.echo(f"warning: {line}; it is kept, and reported as stale until the target exists", err=True)
    _after_change(config, sync_now)


def _after_change(config: Config, sync_now: bool) -> None:
    if sync_now:
        _apply_and_sync(config, quiet=False)
    else:
        click.echo("run `kgbuild sync` (or the next build) to apply it")


def _apply_and_sync(config: Config, *, quiet: bool) -> dict[str, Any]:
    from kgbuild.build.corrections_sync import apply_pending
    from kgbuild.cli.report import stores_line
    from kgbuild.schema import resolve_schema
    from kgbuild.store.sync import sync_stores
    from kgbuild.workspace import Workspace

    ws = Workspace(config.workspace_path())
    if not ws.has_table("entities"):
        click.echo("nothing built yet: the next `kgbuild build` applies the corrections")
        return {}
    done = asyncio.run(apply_pending(config, resolve_schema(config.schema_location())))
    for line in [*done.problems, *done.stale]:
        click.echo(f"stale: {line}" if line in done.stale else f"error: {line}", err=True)
    with ws.lock():
        from kgbuild.progress import QuietProgress

        stores = sync_stores(config, QuietProgress())
    if not quiet:
        applied = ", ".join(f"{n} {k}" for k, n in sorted(done.applied.items())) or "nothing new"
        click.echo(f"applied ({done.how}, {done.seconds:.2f} s): {applied}; stores: {stores_line(stores)}")
    return {"how": done.how, "applied": done.applied, "stale": done.stale, "stores": stores.model_dump()}


def _unknown_targets(config: Config, correction: Correction) -> list[str]:
    """Targets the current tables do not hold (a typo, or a thing not built yet): one line each."""
    from kgbuild.curate.lookup import TableLookup
    from kgbuild.workspace import Workspace

    ws = Workspace(config.workspace_path())
    if not ws.has_table("entities"):
        return []
    return TableLookup(ws).unknown(correction)


@curate.command("merge")
@click.argument("keep")
@click.argument("fold")
@_correction_command
def merge_cmd(ctx: click.Context, keep: str, fold: str, reason: str, author: str, sync_now: bool) -> None:
    """Fold entity FOLD into KEEP (each an id, a name or an alias); KEEP's id and name stay."""
    _write(ctx, "merge", {"a": keep, "b": fold}, reason, author, sync_now)


@curate.command("never-merge")
@click.argument("first")
@click.argument("second")
@_correction_command
def never_merge_cmd(ctx: click.Context, first: str, second: str, reason: str, author: str, sync_now: bool) -> None:
    """Keep FIRST and SECOND apart in fusion (splits a merge fusion made of them)."""
    _write(ctx, "never_merge", {"a": first, "b": second}, reason, author, sync_now)


@curate.command("reject")
@click.argument("triple", nargs=-1, required=True)
@_correction_command
def reject_cmd(ctx: click.Context, triple: tuple[str, ...], reason: str, author: str, sync_now: bool) -> None:
    """Remove a triple: its id (rel_..., see `kgbuild inspect triples`), or SUBJECT PREDICATE OBJECT."""
    if len(triple) == 1:
        target = {"id": triple[0]}
    elif len(triple) == 3:
        target = dict(zip(("subject", "predicate", "object"), triple, strict=True))
    else:
        raise click.UsageError("give a triple id, or subject, predicate and object (quote names with spaces)")
    _write(ctx, "reject", target, reason, author, sync_now)


@curate.command("retype")
@click.argument("entity")
@click.argument("spg_class", metavar="CLASS")
@_correction_command
def retype_cmd(ctx: click.Context, entity: str, spg_class: str, reason: str, author: str, sync_now: bool) -> None:
    """Give ENTITY another class of the schema (its id stays)."""
    _write(ctx, "retype", {"entity": entity, "class": spg_class}, reason, author, sync_now)


@curate.command("rename")
@click.argument("entity")
@click.argument("name")
@_correction_command
def rename_cmd(ctx: click.Context, entity: str, name: str, reason: str, author: str, sync_now: bool) -> None:
    """Give ENTITY another name (the old one becomes an alias; its id stays)."""
    _write(ctx, "rename", {"entity": entity, "name": name}, reason, author, sync_now)


@curate.command("add")
@click.argument("subject")
@click.argument("predicate")
@click.argument("obj", metavar="OBJECT")
@click.option("--note", default="", help="where the fact comes from (kept on the triple)")
@click.option("--subject-class", default="", help="create SUBJECT with this class if the graph lacks it")
@click.option("--object-class", default="", help="create OBJECT with this class if the graph lacks it")
@_correction_command
def add_cmd(ctx: click.Context, subject: str, predicate: str, obj: str, note: str, subject_class: str,
            object_class: str, reason: str, author: str, sync_now: bool) -> None:
    """Add the triple SUBJECT PREDICATE OBJECT; its provenance is the correction, not a chunk."""
    target = {"subject": subject, "predicate": predicate, "object": obj, "note": note,
              "subject_class": subject_class, "object_class": object_class}
    _write(ctx, "add", target, reason, author, sync_now)


@curate.command("list")
@click.option("--json", "as_json", is_flag=True, help="print the corrections as JSON")
@click.pass_context
@fail_cleanly
def list_cmd(ctx: click.Context, as_json: bool) -> None:
    """The corrections in order (the numbers `undo` takes), each marked stale if the last build could not apply it."""
    from kgbuild.curate.file import read_corrections
    from kgbuild.report import load_report
    from kgbuild.workspace import Workspace

    config = config_of(ctx)
    file = read_corrections(corrections_path(config.root))
    latest = load_report(Workspace(config.workspace_path()).latest_report())
    section = latest.corrections if latest is not None else None
    stale = dict(zip(section.stale_ids, section.stale, strict=False)) if section is not None else {}
    rows = [{"number": e.number, "id": e.correction.id, "kind": e.correction.kind, "what": e.correction.describe(),
             "author": e.correction.author, "time": e.correction.time, "reason": e.correction.reason,
             "stale": stale.get(e.correction.id, "")} for e in file.entries]
    if as_json:
        click.echo(json.dumps({"file": str(file.path), "corrections": rows, "problems": file.problems},
                              indent=2, ensure_ascii=False))
        return
    if not rows:
        click.echo(f"no corrections in {file.path}")
    for row in rows:
        mark = "  [stale]" if row["stale"] else ""
        why = f" -- {row['reason']}" if row["reason"] else ""
        click.echo(f"{row['number']:>4}  {row['what']}{why}  ({row['author']}, {row['time']}){mark}")
    for line in file.problems:
        click.echo(f"error: {line}", err=True)


@curate.command("undo")
@click.argument("number", type=click.IntRange(min=1), required=False)
@_SYNC
@click.pass_context
@fail_cleanly
def undo_cmd(ctx: click.Context, number: int | None, sync_now: bool) -> None:
    """Take out correction NUMBER (see `curate list`; default: the last one)."""
    from kgbuild.curate.file import remove_correction

    config = config_of(ctx)
    removed = remove_correction(corrections_path(config.root), number)
    click.echo(f"removed: {removed.describe()}")
    _after_change(config, sync_now)


@curate.command("review")
@click.option("--limit", type=click.IntRange(min=1), default=30, show_default=True, help="items to show")
@click.option("--approve", "approve", multiple=True, metavar="ITEM", help="approve item ITEM (writes a merge)")
@click.option("--reject", "reject", multiple=True, metavar="ITEM",
              help="reject item ITEM (writes a never_merge)")
@_REASON
@_AUTHOR
@_SYNC
@click.option("--json", "as_json", is_flag=True, help="print the queue as JSON")
@click.pass_context
@fail_cleanly
def review_cmd(ctx: click.Context, limit: int, approve: tuple[str, ...], reject: tuple[str, ...], reason: str,
               author: str, sync_now: bool, as_json: bool) -> None:
    """Fusion decisions near a threshold: `apart` pairs fusion almost merged, `merged` pairs it barely
    merged. Approve (merge) or reject (never merge) them by item id."""
    from dataclasses import asdict

    from kgbuild.curate.file import append_correction, make
    from kgbuild.curate.lookup import workspace_review

    config = config_of(ctx)
    if approve or reject:
        items = {it.id: it for it in workspace_review(config)}
        path = corrections_path(config.root)
        for item_id, ok in [*((i, True) for i in approve), *((i, False) for i in reject)]:
            item = items.get(item_id)
            if item is None:
                raise click.UsageError(f"no review item {item_id} (decided already, or not in the queue)")
            kind, target = item.correction(ok)
            entry = append_correction(path, make(kind, target, author=author,
                                                 reason=reason or f"review: {item.detail}"))
            click.echo(f"{entry.number}: {entry.correction.describe()} ({item.a_name} / {item.b_name})")
        _after_change(config, sync_now)
        return
    queue = workspace_review(config)
    if as_json:
        click.echo(json.dumps({"total": len(queue), "items": [asdict(it) for it in queue[:limit]]}, indent=2,
                              ensure_ascii=False))
        return
    if not queue:
        click.echo("nothing to review")
    for it in queue[:limit]:
        click.echo(f"{it.id}  {it.kind:<6}  {it.score:.2f}  {it.a_name} ({it.a_class})  ~  {it.b_name} ({it.b_class})")
    if len(queue) > limit:
        click.echo(f"... {len(queue) - limit} more (--limit)")
