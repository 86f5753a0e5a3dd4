"""Which table rows changed since a store was synced, when something other than a build changed them.

A sync compares every graph row with the manifest (2Wiki: 64k nodes and 151k relationships, about
7 s of reading tables and hashing rows), while a correction applied to the tables
(`build.corrections_tables`) changes a handful. So that writer notes here, per step, the state of
the tables before and after it and the ids of the rows it replaced or wrote; a sync whose last
recorded state is the start of an unbroken chain of steps ending at the tables as they are now
compares only the graph rows of those ids (`store.owned_rows`). Anything else -- a build wrote the
tables, a step was not noted, a table was copied -- breaks the chain and the sync compares
everything, as before.

A table's state is its file's inode, size and modification time in nanoseconds: a table is only
ever replaced whole (`Workspace.write_arrow`, a new file moved into place), so any write changes it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Set

from kgbuild.workspace import Workspace

PENDING_FILE = "store-pending.json"  # in the workspace
# The tables the graph rows are read from (`graph_rows.read_graph_rows`).
GRAPH_TABLES = ("documents", "chunks", "entities", "events", "concepts", "hypernodes", "relations")
# The tables whose rows a step may name (the owners `owned_rows` reads).
OWNER_TABLES = ("entities", "events", "hypernodes", "relations")
# Steps kept: a chain longer than this (that many corrections applied without a sync) is compared whole.
MAX_STEPS = 1000

Owners = dict[str, set[str]]  # table -> row ids


def tables_state(ws: Workspace) -> dict[str, list[int] | None]:
    out: dict[str, list[int] | None] = {}
    for name in GRAPH_TABLES:
        try:
            st = os.stat(ws.table_path(name))
        except FileNotFoundError:
            out[name] = None
            continue
        out[name] = [st.st_ino, st.st_size, st.st_mtime_ns]
    return out


def note_changed(ws: Workspace, before: Mapping[str, list[int] | None], owners: Mapping[str, Set[str]]) -> None:
    """Record one step: the tables went from `before` to their present state, changing at most the
    rows `owners` names (by table: ids that were replaced, removed or written)."""
    after = tables_state(ws)
    if after == dict(before):
        return
    steps = _steps(ws)[-(MAX_STEPS - 1):]
    steps.append({"before": dict(before), "after": after,
                  "owners": {t: sorted(owners.get(t, ())) for t in OWNER_TABLES}})
    path = ws.path / PENDING_FILE
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps({"steps": steps}), encoding="utf-8")
    os.replace(tmp, path)


def changed_since(ws: Workspace, synced: Mapping[str, object] | None) -> Owners | None:
    """The rows changed since the tables were in state `synced` (empty: none), or None when that
    is not known: then every row must be compared."""
    if synced is None:
        return None
    now = tables_state(ws)
    if dict(synced) == now:
        return {t: set() for t in OWNER_TABLES}
    steps = _steps(ws)
    start = next((i for i, s in enumerate(steps) if s.get("before") == synced), None)
    if start is None:
        return None
    owners: Owners = {t: set() for t in OWNER_TABLES}
    state: object = synced
    for step in steps[start:]:
        if step.get("before") != state:
            return None  # a gap: something wrote the tables between two steps
        named = step.get("owners")
        for table in OWNER_TABLES:
            owners[table].update(named.get(table, ()) if isinstance(named, dict) else ())
        state = step.get("after")
        if state == now:
            return owners
    return None


def _steps(ws: Workspace) -> list[dict[str, object]]:
    path = ws.path / PENDING_FILE
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    steps = record.get("steps") if isinstance(record, dict) else None
    return [s for s in steps if isinstance(s, dict)] if isinstance(steps, list) else []
