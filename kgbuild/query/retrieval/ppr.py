"""Personalized PageRank over the mutual index (nodes + chunks in one sparse matrix), with the graph
strategies' iteration (graph/walks.py)."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from kgbuild.graph.walks import walk_with_restart
from kgbuild.query.retrieval.index import MutualIndex


class PageRank:
    """The column-stochastic walk matrix of an index, built once and reused by every question.

    State vector layout: [nodes..., chunks...]. A walker at a node moves to one of its chunks or
    related nodes (in proportion to edge weight); at a chunk, to one of the nodes it supports.
    With probability `restart` it jumps back to the seeds, which keeps the mass near them: the
    chunks two hops from two seeds collect more than those one hop from one.
    """

    def __init__(self, index: MutualIndex, *, edge_weight: float = 1.0) -> None:
        b = index.node_chunks
        adjacency = sp.bmat([[index.node_edges * edge_weight, b], [b.T, None]], format="csr", dtype=np.float32)
        out = np.asarray(adjacency.sum(axis=0)).ravel()
        inv = np.divide(1.0, out, out=np.zeros_like(out), where=out > 0)
        # Column-normalised: transition[i, j] = P(j -> i). Columns of isolated nodes stay zero;
        # their mass returns to the seeds through the renormalisation in `run`.
        self.transition = (adjacency @ sp.diags(inv.astype(np.float32))).tocsr()
        self.n_nodes = index.n_nodes
        self.size = adjacency.shape[0]

    def run(self, seeds: dict[int, float], *, restart: float = 0.3, iterations: int = 20,
            tol: float = 1e-6) -> tuple[np.ndarray, np.ndarray]:
        """(node mass, chunk mass) of the walk restarting at `seeds` (node index -> weight)."""
        if not seeds:
            return np.zeros(self.n_nodes, np.float32), np.zeros(self.size - self.n_nodes, np.float32)
        s = np.zeros(self.size, np.float32)
        for node, weight in seeds.items():
            s[node] += weight
        s /= s.sum()
        p = walk_with_restart(self.transition, s, damping=1.0 - restart, iterations=iterations, tol=tol)
        return p[: self.n_nodes], p[self.n_nodes:]
