"""Directional distance encoding (DDE, SubgraphRAG §3.2): where a node sits relative to the topic
entities, along and against edge direction, without a GNN.

Each node starts with the one-hot of "is a topic entity" over two classes ([1, 0] topic, [0, 1]
not), as the paper does; the second channel tells a node with no in- (out-) neighbours (all zero
after a round) from one whose neighbours are not topics. Then, for `rounds` rounds, separately:

    forward   x_{k+1}(v) = mean of x_k(u) over the edges u -> v   (from in-neighbours)
    backward  y_{k+1}(v) = mean of y_k(w) over the edges v -> w   (from out-neighbours)

with x_0 = y_0 = the one-hot; a parallel edge counts once per edge. The feature of a node is
[one-hot, x_1 .. x_R, y_1 .. y_R]: 2 * (1 + 2R) numbers (10 for R = 2). The graph is the candidate
subgraph the scorer reads, so training and answering see the same encoding.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import scipy.sparse as sp

CHANNELS = 2  # topic, not topic


def dde_dim(rounds: int) -> int:
    return CHANNELS * (1 + 2 * rounds)


def _mean_operator(receivers: np.ndarray, senders: np.ndarray, n: int) -> sp.csr_matrix:
    """n x n matrix M with (M @ x)[v] = mean of x[u] over the edges u -> v given as (senders, receivers)."""
    matrix = sp.csr_matrix((np.ones(receivers.size, np.float32), (receivers, senders)), shape=(n, n))
    matrix.sum_duplicates()  # parallel edges add up: each edge is one message
    counts = np.asarray(matrix.sum(axis=1), dtype=np.float32).ravel()
    inv = np.divide(1.0, counts, out=np.zeros_like(counts), where=counts > 0)
    return sp.csr_matrix(sp.diags(inv) @ matrix)


def directional_encoding(heads: np.ndarray, tails: np.ndarray, n: int, topics: Iterable[int],
                         rounds: int = 2) -> np.ndarray:
    """n x dde_dim(rounds) float32 features of the nodes 0..n-1 of a graph with edges heads[i] -> tails[i]
    (local node indices) and topic nodes `topics`."""
    onehot = np.zeros((n, CHANNELS), dtype=np.float32)
    onehot[:, 1] = 1.0
    for t in topics:
        onehot[t] = (1.0, 0.0)
    blocks = [onehot]
    for receivers, senders in ((tails, heads), (heads, tails)):
        operator = _mean_operator(np.asarray(receivers), np.asarray(senders), n)
        x = onehot
        for _ in range(rounds):
            x = np.asarray(operator @ x, dtype=np.float32)
            blocks.append(x)
    return np.hstack(blocks) if n else np.zeros((0, dde_dim(rounds)), np.float32)


def local_graph(edge_head: np.ndarray, edge_tail: np.ndarray, edges: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The nodes of a set of edges (sorted projection indices) and each edge's head and tail as
    positions in that node list."""
    ends = np.concatenate([edge_head[edges], edge_tail[edges]])
    nodes, inverse = np.unique(ends, return_inverse=True)
    m = edges.size
    return nodes, inverse[:m].astype(np.int64), inverse[m:].astype(np.int64)
