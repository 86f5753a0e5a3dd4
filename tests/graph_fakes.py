"""Test doubles for the graph strategies: a hashing embedder and the QueryResources a strategy
factory reads, over a hand-built projection and mutual index (no stores, no model)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from kgbuild.config import Config
from kgbuild.graph.projection import GraphProjection
from kgbuild.graph.vectors import GraphVectors
from kgbuild.query.graph_linking import QuestionLinker
from kgbuild.query.retrieval.index import MutualIndex
from kgbuild.query.retrieval.linking import EntityLinker
from kgbuild.workspace import Workspace


def lower_words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


class HashEmbedder:
    """Bag of words hashed into `dim` buckets (md5), unit length: texts sharing words are close, the
    same on every run. `signed` gives each word a sign too (fewer accidental collisions in few dims)."""

    def __init__(self, dim: int = 64, name: str = "hash64", words: Callable[[str], list[str]] = lower_words,
                 *, signed: bool = False) -> None:
        self.dim = dim
        self.name = name
        self.words = words
        self.signed = signed
        self.calls = 0

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls += 1
        out = []
        for text in texts:
            v = np.zeros(self.dim, np.float32)
            for word in self.words(text):
                h = hashlib.md5(word.encode()).digest()
                bucket = int.from_bytes(h, "big") % self.dim if not self.signed else h[0] % self.dim
                v[bucket] += -1.0 if self.signed and h[1] % 2 == 0 else 1.0
            n = float(np.linalg.norm(v))
            out.append((v / n if n else v).tolist())
        return out

    def close(self) -> None:
        return None


class GraphResources:
    """The QueryResources a graph strategy's factory sees; the hybrid retriever is not one of them."""

    def __init__(self, projection: GraphProjection, index: MutualIndex, embedder: HashEmbedder, workspace: Workspace,
                 config: Config | None = None) -> None:
        self._projection = projection
        self._index = index
        self._embedder = embedder
        self._vectors = GraphVectors.compute(projection, embedder)
        self._workspace = workspace
        self._config = config or Config()

    @property
    def config(self) -> Config:
        return self._config

    @property
    def workspace(self) -> Workspace:
        return self._workspace

    @property
    def graph(self) -> None:
        return None

    def retriever(self, *, cached_embeddings: bool = True) -> Any:
        raise AssertionError("the graph strategies do not use the hybrid retriever")

    def embedder(self, *, cached: bool = True) -> HashEmbedder:
        return self._embedder

    def projection(self) -> GraphProjection:
        return self._projection

    def graph_vectors(self) -> GraphVectors:
        return self._vectors

    def question_linker(self, *, cached_embeddings: bool = True) -> QuestionLinker:
        return QuestionLinker(self._projection, self._index, EntityLinker(self._index, None, None, "x"),
                              self._embedder)
