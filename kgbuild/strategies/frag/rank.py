"""FRAG's path ranking: score each retrieved path against the question, keep the top u.

A path is not embedded at query time: thousands of paths per question through a sentence model
would cost seconds, against a 100 ms budget for the whole retrieval. Instead a path's vector is
the normalised mean of the unit vectors already computed for its nodes and predicates
(GraphVectors, once per graph), and its score is the cosine of that vector with the question's.
Since normalising removes the 1/len factor, the vector is the normalised *sum*; sums are built one
step at a time over all paths at once (a few gathers of rows, no Python loop per path).

A cross-encoder, when one is configured, rescores the top 2u by reading the question and each
verbalised path together; its order then decides the top u.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from kgbuild.graph.walks import Path

Rerank = Callable[[str, list[str]], Sequence[float]]  # (question, texts) -> one score per text, higher better
BATCH = 4096  # paths summed at once: bounds the n x dim work matrix


@dataclass(frozen=True)
class RankedPath:
    path: Path
    score: float  # cosine with the question, or the cross-encoder's score when it reranked


def path_vectors(paths: Sequence[Path], node_vectors: np.ndarray, predicate_vectors: np.ndarray,
                 edge_pred: np.ndarray) -> np.ndarray:
    """One unit row per path: the normalised mean of its nodes' and its edges' predicates' vectors."""
    dim = node_vectors.shape[1]
    out = np.zeros((len(paths), dim), dtype=np.float32)
    for lo in range(0, len(paths), BATCH):
        batch = paths[lo:lo + BATCH]
        depth = max((len(p) for p in batch), default=0)
        n = len(batch)
        nodes = np.zeros((n, depth + 1), dtype=np.int64)
        edges = np.zeros((n, depth), dtype=np.int64)
        lengths = np.zeros(n, dtype=np.int64)
        for i, p in enumerate(batch):
            nodes[i, :len(p.nodes)] = p.nodes
            edges[i, :len(p.edges)] = p.edges
            lengths[i] = len(p.edges)
        total = node_vectors[nodes[:, 0]].astype(np.float32, copy=True)
        for step in range(depth):
            rows = np.flatnonzero(lengths > step)
            total[rows] += node_vectors[nodes[rows, step + 1]]
            total[rows] += predicate_vectors[edge_pred[edges[rows, step]]]
        norms = np.linalg.norm(total, axis=1, keepdims=True)
        out[lo:lo + n] = np.divide(total, norms, out=np.zeros_like(total), where=norms > 0)
    return out


def score_paths(paths: Sequence[Path], question_vector: np.ndarray, node_vectors: np.ndarray,
                predicate_vectors: np.ndarray, edge_pred: np.ndarray) -> np.ndarray:
    """Cosine of each path's vector with the (unit) question vector."""
    if not paths:
        return np.zeros(0, dtype=np.float32)
    vectors = path_vectors(paths, node_vectors, predicate_vectors, edge_pred)
    return vectors @ np.asarray(question_vector, dtype=np.float32)


def rank_paths(paths: Sequence[Path], question_vector: np.ndarray, node_vectors: np.ndarray,
               predicate_vectors: np.ndarray, edge_pred: np.ndarray, top: int) -> list[RankedPath]:
    """The `top` paths by cosine with the question; ties go to the shorter path, then retrieval order."""
    if not paths or top <= 0:
        return []
    scores = score_paths(paths, question_vector, node_vectors, predicate_vectors, edge_pred)
    lengths = np.fromiter((len(p) for p in paths), dtype=np.int64, count=len(paths))
    order = np.lexsort((np.arange(len(paths)), lengths, -scores))[:top]
    return [RankedPath(paths[i], float(scores[i])) for i in order.tolist()]


def rerank_paths(question: str, ranked: Sequence[RankedPath], rerank: Rerank,
                 verbalise: Callable[[Path], str]) -> list[RankedPath]:
    """`ranked` re-ordered by a cross-encoder's scores of (question, verbalised path); ties keep the
    cosine order. The strategy passes the top 2u by cosine and keeps the top u of this."""
    if not ranked:
        return []
    cross = [float(s) for s in rerank(question, [verbalise(r.path) for r in ranked])]
    order = sorted(range(len(ranked)), key=lambda i: (-cross[i], i))
    return [RankedPath(ranked[i].path, cross[i]) for i in order]
