"""SubgraphRAG's candidate triples: the edges within a few hops of the question's topic entities.

An edge is a candidate for `hops` = h when at least one of its ends is within h - 1 hops of a seed
(walking edges either way), so h = 1 is the seeds' own edges and h = 2 (the default) adds the
edges of their neighbours: through a passage's "mentions" edges, the entities a seed's passage
names and what they relate to.

A hub can put tens of thousands of edges within two hops; the scorer sees at most `limit` of them,
chosen nearest first: by the hop distance of the edge's nearer end, then by the degree of its
farther end (an edge to a specific node before an edge to a hub such as the concept "person"),
then by edge index (deterministic). Only the cap reorders; without it edges stay in index order.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from kgbuild.graph.projection import GraphProjection
from kgbuild.graph.walks import adjacency
from kgbuild.query.subgraphrag.dde import directional_encoding, local_graph
from kgbuild.query_settings import EdgeKind, SubgraphRAGSettings

_DEFAULTS = SubgraphRAGSettings()  # what query.subgraphrag holds unless set


@dataclass(frozen=True)
class Candidates:
    edges: np.ndarray  # int64 edge indices of the projection
    distance: np.ndarray  # int64 per node of the projection: hops from the nearest seed, -1 beyond hops - 1
    total: int  # candidates before the cap
    truncated: bool


def hop_layers(adj: sp.csr_matrix, seeds: Iterable[int], max_hops: int) -> np.ndarray:
    """Hop distance from the nearest seed for every node (-1 beyond `max_hops` or unreachable)."""
    n = adj.shape[0]
    distance = np.full(n, -1, dtype=np.int64)
    frontier = np.zeros(n, dtype=np.float32)
    for s in seeds:
        distance[s] = 0
        frontier[s] = 1.0
    for hop in range(1, max_hops + 1):
        if not frontier.any():
            break
        new = ((adj @ frontier) > 0) & (distance < 0)
        distance[new] = hop
        frontier = new.astype(np.float32)
    return distance


def candidate_edges(adj: sp.csr_matrix, edge_head: np.ndarray, edge_tail: np.ndarray, edge_mask: np.ndarray,
                    seeds: Iterable[int], *, hops: int = _DEFAULTS.hops, limit: int = _DEFAULTS.limit,
                    degree: np.ndarray | None = None) -> Candidates:
    """The candidate edges of `seeds` (see the module docstring). `adj` is the undirected adjacency
    over the edges in `edge_mask` (kgbuild.graph.walks.adjacency); `degree` its row sums, passed in
    when the caller keeps it per graph."""
    seed_list = list(dict.fromkeys(int(s) for s in seeds))
    distance = hop_layers(adj, seed_list, max(hops - 1, 0))
    if not seed_list or hops < 1:
        return Candidates(np.zeros(0, np.int64), distance, 0, False)
    dh, dt = distance[edge_head], distance[edge_tail]
    near = np.where(dh < 0, dt, np.where(dt < 0, dh, np.minimum(dh, dt)))
    edges = np.flatnonzero((near >= 0) & edge_mask)
    total = int(edges.size)
    if total <= limit:
        return Candidates(edges.astype(np.int64), distance, total, False)
    if degree is None:
        degree = np.diff(adj.indptr)
    heads, tails = edge_head[edges], edge_tail[edges]
    # The farther end: the one with the larger distance (-1, beyond the ball, counts as farthest).
    dh, dt = distance[heads], distance[tails]
    far = np.where((dh < 0) | ((dt >= 0) & (dh > dt)), heads, tails)
    order = np.lexsort((edges, degree[far], near[edges]))
    return Candidates(np.sort(edges[order[:limit]]).astype(np.int64), distance, total, True)


@dataclass(frozen=True)
class GraphIndex:
    """What candidate selection needs of one graph, computed once per projection."""

    adj: sp.csr_matrix
    edge_mask: np.ndarray
    degree: np.ndarray
    edge_head: np.ndarray
    edge_tail: np.ndarray
    edge_pred: np.ndarray

    @classmethod
    def build(cls, projection: GraphProjection, edge_kinds: Iterable[EdgeKind]) -> GraphIndex:
        mask = projection.edge_mask(edge_kinds)
        adj = adjacency(projection, mask)
        return cls(adj=adj, edge_mask=mask, degree=np.diff(adj.indptr),
                   edge_head=projection.edge_head.astype(np.int64), edge_tail=projection.edge_tail.astype(np.int64),
                   edge_pred=projection.edge_pred.astype(np.int64))


@dataclass(frozen=True)
class Subgraph:
    """A question's candidate triples with their directional encoding: what the scorer reads."""

    candidates: Candidates
    nodes: np.ndarray  # the candidate edges' nodes (projection indices, sorted)
    local_head: np.ndarray  # per candidate edge: its head as a position in `nodes`
    local_tail: np.ndarray
    preds: np.ndarray  # per candidate edge: its predicate index
    dde: np.ndarray  # per node of `nodes`: its DDE features

    @property
    def edges(self) -> np.ndarray:
        return self.candidates.edges


def subgraph(index: GraphIndex, seeds: Iterable[int], settings: SubgraphRAGSettings) -> Subgraph:
    """Candidates of `seeds`, their nodes, and the DDE of those nodes over the candidate edges."""
    seed_list = list(dict.fromkeys(int(s) for s in seeds))
    cands = candidate_edges(index.adj, index.edge_head, index.edge_tail, index.edge_mask, seed_list,
                            hops=settings.hops, limit=settings.limit, degree=index.degree)
    nodes, local_head, local_tail = local_graph(index.edge_head, index.edge_tail, cands.edges)
    positions = np.searchsorted(nodes, seed_list) if nodes.size else np.zeros(0, np.int64)
    topics = [int(p) for p, s in zip(positions.tolist(), seed_list, strict=True) if p < nodes.size and nodes[p] == s]
    dde = directional_encoding(local_head, local_tail, int(nodes.size), topics, settings.dde_rounds)
    return Subgraph(cands, nodes, local_head, local_tail, index.edge_pred[cands.edges], dde)
