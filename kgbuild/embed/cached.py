"""Text embeddings for the vector store: a pooled sentence model behind a persistent cache.

The cache is what makes re-syncs cheap: a vector is keyed by the model's name and the exact text,
so an unchanged chunk is never embedded twice, across builds and across processes.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from kgbuild.embed.models import ModelPool
from kgbuild.ids import content_hash

if TYPE_CHECKING:
    from kgbuild.config import Config
    from kgbuild.embed.types import Embedder

_LOOKUP_SLICE = 500  # SQLite allows 999 bound parameters per statement in older builds


class CachedEmbedder:
    """An `Embedder` that asks `inner` only for texts it has never seen under `inner.name`.

    `computed` and `cached` count input texts since creation: each one is either sent to the
    model or answered from the cache (a text repeated within one call is computed once).
    """

    def __init__(self, inner: Embedder, path: Path, batch_size: int = 256) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.inner = inner
        self.name = inner.name
        self.batch_size = batch_size
        self.computed = 0
        self.cached = 0
        self._lock = threading.Lock()
        # The sync may run in a worker thread of the build's event loop; the lock serialises use.
        self._db = sqlite3.connect(path, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("CREATE TABLE IF NOT EXISTS vectors (key TEXT PRIMARY KEY, vec BLOB)")
        self._db.execute("CREATE TABLE IF NOT EXISTS models (name TEXT PRIMARY KEY, dim INTEGER)")
        self._db.commit()
        self._dim: int | None = None

    @property
    def dim(self) -> int:
        # Remembered per model, so a sync with nothing to embed never loads the model to learn it.
        if self._dim is None:
            with self._lock:
                row = self._db.execute("SELECT dim FROM models WHERE name=?", (self.name,)).fetchone()
            if row is None:
                dim = int(self.inner.dim)
                with self._lock:
                    self._db.execute("INSERT OR REPLACE INTO models (name, dim) VALUES (?, ?)", (self.name, dim))
                    self._db.commit()
                row = (dim,)
            self._dim = int(row[0])
        return self._dim

    def key(self, text: str) -> str:
        return content_hash(self.name + "\x00" + text)

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        keys = [self.key(t) for t in texts]
        found = self._lookup(sorted(set(keys)))
        missing: dict[str, str] = {}
        for key, text in zip(keys, texts, strict=True):
            if key not in found:
                missing.setdefault(key, text)
        pending = list(missing.items())
        for start in range(0, len(pending), self.batch_size):
            batch = pending[start : start + self.batch_size]
            vectors = self.inner.embed([text for _, text in batch])
            blobs = [(key, np.asarray(vec, dtype=np.float32).tobytes())
                     for (key, _), vec in zip(batch, vectors, strict=True)]
            with self._lock:
                # Committed per batch: an interrupted sync keeps every vector it already paid for.
                self._db.executemany("INSERT OR REPLACE INTO vectors (key, vec) VALUES (?, ?)", blobs)
                self._db.commit()
            found.update((key, np.frombuffer(blob, dtype=np.float32)) for key, blob in blobs)
        self.computed += len(pending)
        self.cached += len(texts) - len(pending)
        return [found[key].tolist() for key in keys]

    def missing(self, texts: Sequence[str]) -> list[str]:
        """The distinct texts of `texts` this cache has no vector for (in first-seen order)."""
        keys = {self.key(t): t for t in texts}
        found = self._lookup(sorted(keys))
        return [text for key, text in keys.items() if key not in found]

    def store(self, texts: Sequence[str], vectors: np.ndarray) -> None:
        """Vectors computed elsewhere (e.g. by the workers of a Ray build) for `texts`, under this model."""
        blobs = [(self.key(t), np.asarray(v, dtype=np.float32).tobytes()) for t, v in zip(texts, vectors, strict=True)]
        with self._lock:
            self._db.executemany("INSERT OR REPLACE INTO vectors (key, vec) VALUES (?, ?)", blobs)
            self._db.commit()

    def _lookup(self, keys: list[str]) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {}
        with self._lock:
            for start in range(0, len(keys), _LOOKUP_SLICE):
                part = keys[start : start + _LOOKUP_SLICE]
                marks = ",".join("?" * len(part))
                for key, blob in self._db.execute(f"SELECT key, vec FROM vectors WHERE key IN ({marks})", part):
                    out[key] = np.frombuffer(blob, dtype=np.float32)
        return out

    def close(self) -> None:
        with self._lock:
            self._db.close()


def open_embedder(config: Config, workspace_path: Path, models: ModelPool | None = None) -> CachedEmbedder:
    """The `embedding.model` behind the workspace's embedding cache (cache/embeddings.sqlite).

    `models` is the pool of the build or engine that asks, so the model is the one its other stages
    use; without one, the embedder gets a pool of its own."""
    from kgbuild.embed.choice import dense_embedder

    # `auto` resolves by the project's language (docs/languages.md).
    inner = dense_embedder(config, workspace_path,
                           models or ModelPool(backend=config.embedding.backend, device=config.embedding.device))
    return CachedEmbedder(inner, workspace_path / "cache" / "embeddings.sqlite",
                          batch_size=max(config.embedding.batch_size, 256))
