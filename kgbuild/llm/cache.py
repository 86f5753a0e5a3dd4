"""On-disk cache of model replies: a rebuild repeats no call it has already paid for.

One SQLite file (WAL mode, one table key -> JSON). The key hashes everything that shapes the reply:
model, prompt template id@version, messages, temperature, max_tokens and json_mode; a new
template version therefore misses on its own. The sqlite calls are synchronous on purpose: they
take microseconds, and coroutines of one event loop never interleave inside them. Each put
commits, so a killed build keeps every reply it received; WAL plus a busy timeout lets worker
processes share the file.
"""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
import threading
import time
from pathlib import Path

from pydantic import ValidationError

from kgbuild.errors import WorkspaceError
from kgbuild.llm.types import ChatRequest, ChatResult

log = logging.getLogger(__name__)

_SCHEMA = "CREATE TABLE IF NOT EXISTS replies (key TEXT PRIMARY KEY, value TEXT NOT NULL, created REAL NOT NULL)"


def cache_key(model: str, request: ChatRequest) -> str:
    payload = {
        "model": model,
        "template": request.template,
        "messages": [{"role": m.role, "content": m.content} for m in request.messages],
        "temperature": request.temperature,
        "max_tokens": request.max_tokens,
        "json_mode": request.json_mode,
    }
    canonical = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


class ResponseCache:
    def __init__(self, path: Path, *, readonly: bool = False) -> None:
        """`readonly`: look up only, leaving the file and its directory exactly as they are (a dry
        run); a missing file reads as an empty cache."""
        self.path = Path(path)
        # A lock as well, for callers that touch the cache from threads (check_same_thread=False).
        self._lock = threading.Lock()
        if readonly:
            # immutable=1: no lock files, no WAL/shm files, no writes of any kind.
            uri = f"{self.path.resolve().as_uri()}?immutable=1" if self.path.is_file() else "file::memory:"
            try:
                self._db = sqlite3.connect(uri, uri=True, check_same_thread=False, isolation_level=None)
                self._db.execute(_SCHEMA if uri == "file::memory:" else "SELECT 1")
            except sqlite3.Error as exc:
                raise WorkspaceError(str(self.path), f"cannot read the model reply cache: {exc}",
                                     "delete the file; it only holds cached model replies") from None
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, timeout=10.0, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            # NORMAL is durable against a killed process in WAL mode; only power loss may drop the tail.
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute(_SCHEMA)
        except sqlite3.Error as exc:
            raise WorkspaceError(str(self.path), f"cannot open the model reply cache: {exc}",
                                 "delete the file; it only holds cached model replies") from None

    def get(self, key: str) -> ChatResult | None:
        try:
            with self._lock:
                row = self._db.execute("SELECT value FROM replies WHERE key = ?", (key,)).fetchone()
        except sqlite3.Error as exc:  # a cache that cannot be read is a miss, not a failed call
            log.warning("model reply cache %s unreadable: %s", self.path, exc)
            return None
        if row is None:
            return None
        try:
            result = ChatResult.model_validate_json(row[0])
        except ValidationError:
            return None  # written by an incompatible version: ask again, the put overwrites it
        return result.model_copy(update={"cached": True, "retries": 0})

    def put(self, key: str, result: ChatResult) -> None:
        value = result.model_dump_json(exclude={"cached", "retries"})
        try:
            with self._lock:
                self._db.execute("INSERT OR REPLACE INTO replies (key, value, created) VALUES (?, ?, ?)",
                                 (key, value, time.time()))
        except sqlite3.Error as exc:  # the reply is paid for and good: losing its cache entry is not fatal
            log.warning("model reply cache %s not written: %s", self.path, exc)

    def delete(self, key: str) -> None:
        try:
            with self._lock:
                self._db.execute("DELETE FROM replies WHERE key = ?", (key,))
        except sqlite3.Error as exc:
            log.warning("model reply cache %s: entry not removed: %s", self.path, exc)

    def count(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM replies").fetchone()[0])

    def clear(self) -> int:
        with self._lock:
            return self._db.execute("DELETE FROM replies").rowcount

    def close(self) -> None:
        with self._lock:
            self._db.close()
