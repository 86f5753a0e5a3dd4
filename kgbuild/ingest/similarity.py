"""Similarity across candidate chunk boundaries, used to cut long paragraphs where the topic shifts.

A score is computed for every boundary between sentence i and i+1 by comparing a window of
sentences on each side; the chunker cuts at the lowest scores.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from typing import Protocol

import numpy as np

from kgbuild.embed.models import embed_matrix
from kgbuild.embed.types import Embedder

_WORD = re.compile(r"\w+", re.UNICODE)
# Function words carry no topic; dropping them keeps the lexical signal on content words.
_STOP = frozenset((
    "a an the and or but if of in on at to for from by with as is are was were be been being it its "
    "this that these those he she they them his her their we our you your i me my not no so than then "
    "there here which who whom whose what when where how also into over under after before about"
).split())


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
    """Cosine between mean sentence embeddings of the windows; the model loads on the first `prepare`
    (a pooled embedder is lazy), so a corpus without long paragraphs never loads it."""

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder
        # In the chunker's fingerprint: another model cuts elsewhere, so its chunks are redone.
        self.name = f"embedding:{embedder.name}"

    def prepare(self, sentences: list[str]) -> WindowSimilarity:
        vecs = embed_matrix(self.embedder, sentences)

        def similarity(left: range, right: range) -> float:
            a = vecs[left.start : left.stop].mean(axis=0)
            b = vecs[right.start : right.stop].mean(axis=0)
            denom = float(np.linalg.norm(a) * np.linalg.norm(b)) or 1.0
            return max(0.0, float(a @ b) / denom)

        return similarity


def make_scorer(kind: str, embedder: Embedder | None = None) -> BoundaryScorer:
    """The scorer `chunking.topic_split` names; "embedding" needs the embedder of `chunking.embedding_model`."""
    if kind == "embedding":
        if embedder is None:
            raise ValueError("topic_split 'embedding' needs an embedder")
        return EmbeddingScorer(embedder)
    return LexicalScorer()
