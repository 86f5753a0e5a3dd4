"""FRAG's path ranking: score each retrieved path against the question, keep the top u.

A path is not embedded at query time: thousands of paths per question through a sentence model
would cost seconds, against a 100 ms budget for the whole retrieval. Instead a path's vector is
the normalised mean of the unit vectors already computed for its nodes and predicates
(GraphVectors, once per graph), and its score is the cosine of that vector with the question's.
Since normalising removes the 1/len factor, the vector is the normalised *sum*: for a list of paths
one gather and one segmented sum of rows; for a shortest-path tree (the complex route), a child's
sum is its parent's plus one edge and one node, built one depth level at a time.

A cross-encoder, when one is configured, rescores the top 2u by reading the question and each
verbalised path together; its order then decides the top u.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import chain

import numpy as np

from kgbuild.graph.walks import Path
from kgbuild.query.frag.paths import PathTree

Rerank = Callable[[str, list[str]], Sequence[float]]  # (question, texts) -> one score per text, higher better
BATCH = 4096  # paths summed at once: bounds the n x dim work matrix


@dataclass(frozen=True)
class RankedPath:
    path: Path
    score: float  # cosine with the question, or the cross-encoder's score when it reranked


def path_sums(paths: Sequence[Path], node_vectors: np.ndarray, predicate_vectors: np.ndarray,
              edge_pred: np.ndarray) -> np.ndarray:
    """One row per path: the sum of its nodes' and its edges' predicates' vectors."""
    dim = node_vectors.shape[1]
    out = np.zeros((len(paths), dim), dtype=np.float32)
    for lo in range(0, len(paths), BATCH):
        batch = paths[lo:lo + BATCH]
        n_nodes = np.fromiter((len(p.nodes) for p in batch), dtype=np.int64, count=len(batch))
        nodes = np.fromiter(chain.from_iterable(p.nodes for p in batch), dtype=np.int64, count=int(n_nodes.sum()))
        edges = np.fromiter(chain.from_iterable(p.edges for p in batch), dtype=np.int64,
                            count=int(n_nodes.sum()) - len(batch))
        # Each path's rows are contiguous in `nodes` / `edges`: one reduceat sums them per path.
        total = np.add.reduceat(node_vectors[nodes].astype(np.float32), np.cumsum(n_nodes) - n_nodes, axis=0)
        n_edges = n_nodes - 1
        has = n_edges > 0  # reduceat over an empty segment would repeat a row, not add nothing
        if has.any():
            starts = (np.cumsum(n_edges) - n_edges)[has]
            total[has] += np.add.reduceat(predicate_vectors[edge_pred[edges]], starts, axis=0)
        out[lo:lo + len(batch)] = total
    return out


def path_vectors(paths: Sequence[Path], node_vectors: np.ndarray, predicate_vectors: np.ndarray,
                 edge_pred: np.ndarray) -> np.ndarray:
    """One unit row per path: the normalised mean of its nodes' and its edges' predicates' vectors."""
    return unit(path_sums(paths, node_vectors, predicate_vectors, edge_pred))


def cosines(sums: np.ndarray, question_vector: np.ndarray) -> np.ndarray:
    """Cosine of each row with the unit question vector: (row . q) / |row|, 0 for a zero row."""
    norms = np.sqrt(np.einsum("ij,ij->i", sums, sums))
    # einsum rather than BLAS: single-threaded, so no wake-up of a BLAS thread pool per question
    # (measured: the first mat-vec after a pause took 1-5 ms on this 2-core machine, einsum 0.3 ms).
    dots = np.einsum("ij,j->i", sums, np.asarray(question_vector, dtype=np.float32))
    out: np.ndarray = np.divide(dots, norms, out=np.zeros_like(dots), where=norms > 0)
    return out


def unit(rows: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    out: np.ndarray = np.divide(rows, norms, out=np.zeros_like(rows), where=norms > 0)
    return out


def tree_scores(tree: PathTree, question_vector: np.ndarray, node_vectors: np.ndarray,
                predicate_vectors: np.ndarray, edge_pred: np.ndarray) -> np.ndarray:
    """The score of the path to each node of a shortest-path tree (as `score_paths` would give it).

    A child's path is its parent's path plus one edge and one node, so the sums are built one depth
    level at a time over all nodes of that level (breadth-first order: parents are done first), and
    the cosine is (sum . q) / |sum| without normalising the rows."""
    if len(tree) == 0:
        return np.zeros(0, dtype=np.float32)
    row_of = np.full(node_vectors.shape[0], -1, dtype=np.int64)
    row_of[tree.nodes] = np.arange(len(tree))
    parent_row = row_of[tree.parents]  # -1: the parent is the seed
    sums = node_vectors[tree.nodes].astype(np.float32)
    sums += predicate_vectors[edge_pred[tree.edges]]
    sums[tree.depths == 1] += node_vectors[tree.seed]
    for depth in range(2, int(tree.depths.max()) + 1):
        rows = np.flatnonzero(tree.depths == depth)
        sums[rows] += sums[parent_row[rows]]
    return cosines(sums, question_vector)


def score_paths(paths: Sequence[Path], question_vector: np.ndarray, node_vectors: np.ndarray,
                predicate_vectors: np.ndarray, edge_pred: np.ndarray) -> np.ndarray:
    """Cosine of each path's vector with the (unit) question vector."""
    if not paths:
        return np.zeros(0, dtype=np.float32)
    return cosines(path_sums(paths, node_vectors, predicate_vectors, edge_pred), question_vector)


def rank_paths(paths: Sequence[Path], question_vector: np.ndarray, node_vectors: np.ndarray,
               predicate_vectors: np.ndarray, edge_pred: np.ndarray, top: int) -> list[RankedPath]:
    """The `top` paths by cosine with the question; ties go to the shorter path, then retrieval order."""
    if not paths or top <= 0:
        return []
    scores = score_paths(paths, question_vector, node_vectors, predicate_vectors, edge_pred)
    lengths = np.fromiter((len(p) for p in paths), dtype=np.int64, count=len(paths))
    order = np.lexsort((np.arange(len(paths)), lengths, -scores))[:top]
    return [RankedPath(paths[i], float(scores[i])) for i in order.tolist()]


def rank_trees(trees: Sequence[PathTree], question_vector: np.ndarray, node_vectors: np.ndarray,
               predicate_vectors: np.ndarray, edge_pred: np.ndarray, top: int) -> list[RankedPath]:
    """`rank_paths` over the paths of shortest-path trees: the same scores and order (cosine, then
    shorter, then seed order and breadth-first order), with only the `top` turned into Paths."""
    trees = [t for t in trees if len(t)]
    if not trees or top <= 0:
        return []
    scores = np.concatenate([tree_scores(t, question_vector, node_vectors, predicate_vectors, edge_pred)
                             for t in trees])
    depths = np.concatenate([t.depths for t in trees])
    which = np.repeat(np.arange(len(trees)), [len(t) for t in trees])
    where = np.concatenate([np.arange(len(t)) for t in trees])
    order = np.lexsort((np.arange(scores.size), depths, -scores))[:top]
    return [RankedPath(trees[int(which[i])].path(int(where[i])), float(scores[i])) for i in order.tolist()]


def rerank_paths(question: str, ranked: Sequence[RankedPath], rerank: Rerank,
                 verbalise: Callable[[Path], str]) -> list[RankedPath]:
    """`ranked` re-ordered by a cross-encoder's scores of (question, verbalised path); ties keep the
    cosine order. The strategy passes the top 2u by cosine and keeps the top u of this."""
    if not ranked:
        return []
    cross = [float(s) for s in rerank(question, [verbalise(r.path) for r in ranked])]
    order = sorted(range(len(ranked)), key=lambda i: (-cross[i], i))
    return [RankedPath(ranked[i].path, cross[i]) for i in order]


