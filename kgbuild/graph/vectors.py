"""Embeddings of the projection's nodes and predicates, computed once per graph and embedder.

Node texts are the texts the vector sync embedded at build time ("name: description" for an
entity, the passage for a chunk), so through the workspace's embedding cache (CachedEmbedder)
they are read back rather than recomputed; predicates ("born in") are embedded on first use and
cached there too. Rows are L2-normalised: a dot product is a cosine.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kgbuild.embed.types import Embedder
from kgbuild.graph.projection import GraphProjection, predicate_text


@dataclass(frozen=True)
class GraphVectors:
    nodes: np.ndarray  # n_nodes x dim, float32, unit rows (zero rows for empty texts)
    predicates: np.ndarray  # n_predicates x dim
    fingerprint: str  # the projection's
    embedder: str  # the embedder's name

    @property
    def dim(self) -> int:
        return int(self.nodes.shape[1])

    @classmethod
    def compute(cls, projection: GraphProjection, embedder: Embedder, *, batch: int = 512) -> GraphVectors:
        return cls(nodes=embed_texts(embedder, projection.node_text, batch),
                   predicates=embed_texts(embedder, predicate_texts(projection), batch),
                   fingerprint=projection.fingerprint, embedder=embedder.name)


def predicate_texts(projection: GraphProjection) -> list[str]:
    """What each predicate is embedded as: its name as words, then the words the text used for it where
    the extraction recorded them ("born in 出生于 生于"). A Chinese question's relation words meet
    nothing in an English name (multilingual-e5: "born in" scored below "mentions" against
    ...作者出生在哪个城市), so without them a path's passage, not its facts, matched the question."""
    words = projection.predicate_words
    return [" ".join([predicate_text(p), *words.get(i, ())]) for i, p in enumerate(projection.predicates)]


def unit_rows(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    unit: np.ndarray = np.divide(matrix, norms, out=np.zeros_like(matrix), where=norms > 0).astype(np.float32)
    return unit


def embed_texts(embedder: Embedder, texts: list[str], batch: int = 512) -> np.ndarray:
    """One unit row per text, in order (an empty list gives a 0 x dim matrix)."""
    if not texts:
        return np.zeros((0, embedder.dim), np.float32)
    parts = [np.asarray(embedder.embed(texts[i:i + batch]), dtype=np.float32) for i in range(0, len(texts), batch)]
    return unit_rows(np.vstack(parts))
