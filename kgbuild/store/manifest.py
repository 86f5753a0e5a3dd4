"""What each store holds, as far as kgbuild wrote it: id -> content hash per kind of row.

A sync compares the rows it would write with this manifest and touches only the difference:
unchanged rows cost nothing, changed rows are upserted, rows that no longer exist are deleted.
The manifest lives in the workspace (SQLite), one namespace per store target, so switching from the
embedded store to a Neo4j server starts that server from scratch instead of trusting the other's state.

Crash safety: `begin()` marks the target dirty before the first write and `finish()` clears it.
Entries are recorded only after the store committed the batch, so the manifest never claims more
than the store holds; a sync killed between a commit and its record leaves rows the store has and
the manifest does not, which the next sync rewrites with idempotent MERGE/upsert by id.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Diff:
    upsert: list[str] = field(default_factory=list)  # new or changed ids, sorted
    delete: list[str] = field(default_factory=list)  # ids the store has that the workspace no longer has, sorted
    unchanged: int = 0


def diff(old: Mapping[str, str], new: Mapping[str, str]) -> Diff:
    out = Diff()
    for key in sorted(new):
        if old.get(key) == new[key]:
            out.unchanged += 1
        else:
            out.upsert.append(key)
    out.delete = sorted(k for k in old if k not in new)
    return out


class StoreManifest:
    def __init__(self, path: Path, target: str) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.target = target
        self._db = sqlite3.connect(path)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS rows "
            "(target TEXT, kind TEXT, id TEXT, hash TEXT, PRIMARY KEY (target, kind, id))"
        )
        self._db.execute("CREATE TABLE IF NOT EXISTS state (target TEXT PRIMARY KEY, dirty INTEGER)")
        # What the tables were when the last sync of a target finished (`synced`), and which table
        # row each manifest row comes from (`owner`, NULL in manifests written before it existed):
        # together they let a sync after a correction compare only the rows it changed.
        self._db.execute("CREATE TABLE IF NOT EXISTS synced (target TEXT PRIMARY KEY, state TEXT)")
        if "owner" not in {row[1] for row in self._db.execute("PRAGMA table_info(rows)")}:
            self._db.execute("ALTER TABLE rows ADD COLUMN owner TEXT")
        self._db.execute("CREATE INDEX IF NOT EXISTS rows_owner ON rows (target, kind, owner)")
        self._db.commit()

    def hashes(self, kind: str) -> dict[str, str]:
        cur = self._db.execute("SELECT id, hash FROM rows WHERE target=? AND kind=?", (self.target, kind))
        return dict(cur.fetchall())

    def record(self, kind: str, items: Mapping[str, str], owner: Callable[[str], str] | None = None) -> None:
        """`owner`: the table row each key comes from (see `owned`)."""
        self._db.executemany(
            "INSERT OR REPLACE INTO rows (target, kind, id, hash, owner) VALUES (?, ?, ?, ?, ?)",
            ((self.target, kind, k, v, owner(k) if owner else None) for k, v in items.items()),
        )
        self._db.commit()

    def owned(self, kind: str, owners: Iterable[str]) -> dict[str, str]:
        """id -> hash of the rows of `kind` that come from one of `owners`."""
        out: dict[str, str] = {}
        wanted = sorted(set(owners))
        for start in range(0, len(wanted), 500):  # SQLite's limit on parameters is 999 in old builds
            batch = wanted[start:start + 500]
            cur = self._db.execute(f"SELECT id, hash FROM rows WHERE target=? AND kind=? AND owner IN "
                                   f"({','.join('?' * len(batch))})", (self.target, kind, *batch))
            out.update(cur.fetchall())
        return out

    def fill_owners(self, kind: str, owner: Callable[[str], str]) -> None:
        """Set the owner of the rows of `kind` recorded without one (by an older kgbuild)."""
        cur = self._db.execute("SELECT id FROM rows WHERE target=? AND kind=? AND owner IS NULL", (self.target, kind))
        keys = [k for (k,) in cur.fetchall()]
        if keys:
            self._db.executemany("UPDATE rows SET owner=? WHERE target=? AND kind=? AND id=?",
                                 ((owner(k), self.target, kind, k) for k in keys))
            self._db.commit()

    def all_owned(self, kind: str) -> bool:
        row = self._db.execute("SELECT 1 FROM rows WHERE target=? AND kind=? AND owner IS NULL LIMIT 1",
                               (self.target, kind)).fetchone()
        return row is None

    def count(self, kind: str) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM rows WHERE target=? AND kind=?",
                                    (self.target, kind)).fetchone()[0])

    def synced(self) -> dict[str, object] | None:
        """What `set_synced` recorded when the last sync of this target finished; None after a
        sync that did not finish, or before the first."""
        row = self._db.execute("SELECT state FROM synced WHERE target=?", (self.target,)).fetchone()
        if row is None or self.was_interrupted():
            return None
        try:
            state = json.loads(row[0])
        except ValueError:
            return None
        return state if isinstance(state, dict) else None

    def set_synced(self, state: Mapping[str, object] | None) -> None:
        if state is None:
            self._db.execute("DELETE FROM synced WHERE target=?", (self.target,))
        else:
            self._db.execute("INSERT OR REPLACE INTO synced (target, state) VALUES (?, ?)",
                             (self.target, json.dumps(state, sort_keys=True)))
        self._db.commit()

    def forget(self, kind: str, ids: Iterable[str]) -> None:
        self._db.executemany("DELETE FROM rows WHERE target=? AND kind=? AND id=?",
                             ((self.target, kind, i) for i in ids))
        self._db.commit()

    def is_empty(self) -> bool:
        row = self._db.execute("SELECT 1 FROM rows WHERE target=? LIMIT 1", (self.target,)).fetchone()
        return row is None

    def was_interrupted(self) -> bool:
        row = self._db.execute("SELECT dirty FROM state WHERE target=?", (self.target,)).fetchone()
        return bool(row and row[0])

    def begin(self) -> bool:
        """Mark a sync as running; True if the previous one never finished."""
        interrupted = self.was_interrupted()
        self._db.execute("INSERT OR REPLACE INTO state (target, dirty) VALUES (?, 1)", (self.target,))
        self._db.execute("DELETE FROM synced WHERE target=?", (self.target,))  # known again at the end
        self._db.commit()
        return interrupted

    def finish(self) -> None:
        self._db.execute("INSERT OR REPLACE INTO state (target, dirty) VALUES (?, 0)", (self.target,))
        self._db.commit()

    def clear_rows(self) -> None:
        """Forget every recorded row, keeping the dirty flag: used while a sync rebuilds the
        manifest from the store, which must still count as interrupted if it is killed."""
        self._db.execute("DELETE FROM rows WHERE target=?", (self.target,))
        self._db.commit()

    def reset(self) -> None:
        """Forget everything about this target (its store was wiped or replaced)."""
        self._db.execute("DELETE FROM rows WHERE target=?", (self.target,))
        self._db.execute("DELETE FROM state WHERE target=?", (self.target,))
        self._db.execute("DELETE FROM synced WHERE target=?", (self.target,))
        self._db.commit()

    def close(self) -> None:
        self._db.close()


@dataclass(frozen=True)
class StoreContents:
    """What one store holds by the manifest: rows per kind, and whether its last write was cut off."""

    rows: dict[str, int]
    interrupted: bool

    @property
    def total(self) -> int:
        return sum(self.rows.values())


def store_contents(path: Path, target: str) -> StoreContents:
    """Read-only: counts of the rows recorded for `target` (none when no sync has run), without
    creating the manifest or taking any lock a running sync would need."""
    if not path.exists():
        return StoreContents({}, False)
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        rows = dict(db.execute("SELECT kind, COUNT(*) FROM rows WHERE target=? GROUP BY kind ORDER BY kind",
                               (target,)).fetchall())
        dirty = db.execute("SELECT dirty FROM state WHERE target=?", (target,)).fetchone()
    except sqlite3.Error:
        return StoreContents({}, False)  # a manifest from before the tables existed: nothing recorded
    finally:
        db.close()
    return StoreContents({str(k): int(v) for k, v in rows.items()}, bool(dirty and dirty[0]))

