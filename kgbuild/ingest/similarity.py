"""Similarity across candidate chunk boundaries, used to cut long paragraphs where the topic shifts.

A score is computed for every boundary between sentence i and i+1 by comparing a window of
sentences on each side; the chunker cuts at the lowest scores.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable
from typing import Any, Protocol

import numpy as np

_WORD = re.compile(r"\w+", re.UNICODE)
# Function words carry no topic; dropping them keeps the lexical signal on content words.
_STOP = frozenset(
    "a an the and or but if of in on at to for from by with as is are was were be been being it its "
    "this that these those he she they them his her their we our you your i me my not no so than then "
    "there here which who whom whose what when where how also into over under after before about".split()
)


class WindowSimilarity(Protocol):
    def __call__(self, left: range, right: range) -> float:
        """Similarity in [0, 1] between two windows of sentence indices."""
        ...


class BoundaryScorer(Protocol):
    name: str

    def prepare(self, sentences: list[str]) -> WindowSimilarity:
        """Represent the sentences once; the chunker then compares windows of them."""
        ...


def _cosine(a: Counter[str], b: Counter[str]) -> float:
    if not a or not b:
        return 0.0
    dot = sum(v * b.get(k, 0) for k, v in a.items())
    na = math.sqrt(sum(v * v for v in a.values()))
    nb = math.sqrt(sum(v * v for v in b.values()))
    return dot / (na * nb)


class LexicalScorer:
    """Content-word cosine between windows: no model, microseconds per boundary."""

    name = "lexical"

    def prepare(self, sentences: list[str]) -> WindowSimilarity:
        bags = [Counter(w for w in _WORD.findall(s.lower()) if w not in _STOP) for s in sentences]

        def similarity(left: range, right: range) -> float:
            a: Counter[str] = Counter()
            b: Counter[str] = Counter()
            for i in left:
                a.update(bags[i])
            for i in right:
                b.update(bags[i])
            return _cosine(a, b)

        return similarity


class EmbeddingScorer:
    """Cosine between mean sentence embeddings of the windows (sentence-transformers, loaded on first use)."""

    name = "embedding"

    def __init__(self, model: str | None = None, load: Callable[[], Any] | None = None) -> None:
        self._model_name = model
        self._model = None
        self._loader = load  # a build passes its context's loader: one model per build, whoever asks

    def _load(self):  # noqa: ANN202 - the type lives in an optional dependency
        if self._model is None:
            from kgbuild.ingest.embedding_model import load_sentence_model

            self._model = self._loader() if self._loader else load_sentence_model(self._model_name)
        return self._model

    def prepare(self, sentences: list[str]) -> WindowSimilarity:
        vecs = np.asarray(self._load().encode(sentences, batch_size=64, normalize_embeddings=True))

        def similarity(left: range, right: range) -> float:
            a = vecs[left.start : left.stop].mean(axis=0)
            b = vecs[right.start : right.stop].mean(axis=0)
            denom = float(np.linalg.norm(a) * np.linalg.norm(b)) or 1.0
            return max(0.0, float(a @ b) / denom)

        return similarity


def make_scorer(kind: str, model: str | None = None, load: Callable[[], Any] | None = None) -> BoundaryScorer:
    if kind == "embedding":
        return EmbeddingScorer(model, load)
    return LexicalScorer()
