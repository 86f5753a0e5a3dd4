"""FastToG's local communities: detection with a size cap, adjacency, and modularity for pruning.

Detection is Louvain (igraph's `community_multilevel`, C core) on the undirected local subgraph;
its hierarchy is walked back from the coarsest partition to the first whose communities all have at
most `cap` nodes (FastToG keeps communities small so the model reads a few facts at a time). When
even the finest level has a larger community, that community is split deterministically into
pieces of `cap` nodes taken in breadth-first order inside it, so each piece stays connected where
the community allows.

Coarse pruning ranks communities by their own term of the modularity,
Q_c = w_in(c) / m - (deg(c) / 2m)^2, whose sum over a partition is the graph's modularity.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from kgbuild.graph.projection import GraphProjection

if TYPE_CHECKING:
    import igraph


@dataclass(frozen=True)
class LocalGraph:
    """The undirected simple graph induced on `nodes` (projection indices); an edge's weight is
    the number of projection edges between its two nodes."""

    nodes: list[int]
    graph: igraph.Graph
    weights: list[float]

    @property
    def total_weight(self) -> float:
        return float(sum(self.weights))


@dataclass(frozen=True)
class Partition:
    communities: list[list[int]]  # projection node indices, each sorted
    level: int  # index into the Louvain hierarchy (0 finest), -1 when the graph has no edges
    levels: int  # levels in the hierarchy
    split: bool  # a community of the finest level was over the cap and was split


@dataclass(frozen=True)
class Community:
    nodes: tuple[int, ...]
    modularity: float
    links: tuple[int, ...] = ()  # projection edges between it and the community it was reached from
    edges: tuple[int, ...] = ()  # projection edges inside it


def local_graph(projection: GraphProjection, nodes: Sequence[int], edge_mask: np.ndarray | None = None) -> LocalGraph:
    import igraph

    order = list(dict.fromkeys(nodes))
    local = {n: i for i, n in enumerate(order)}
    counts: dict[tuple[int, int], int] = {}
    for n in order:
        for e in projection.incident[n]:
            if edge_mask is not None and not edge_mask[e]:
                continue
            other = projection.other_end(e, n)
            if other in local and other != n and local[n] < local[other]:
                key = (local[n], local[other])
                counts[key] = counts.get(key, 0) + 1
    pairs = sorted(counts)
    graph = igraph.Graph(n=len(order), edges=pairs, directed=False)
    return LocalGraph(order, graph, [float(counts[k]) for k in pairs])


# igraph's generator is process-wide; detections in two threads (`kgbuild serve`) take turns.
_IGRAPH_RNG = threading.Lock()


@contextmanager
def seeded_igraph(seed: int) -> Iterator[None]:
    """igraph draws Louvain's node order from one process-wide generator (Python's `random` by
    default); a seeded one for the duration makes a detection reproducible, then the default is back."""
    import igraph

    with _IGRAPH_RNG:
        igraph.set_random_number_generator(random.Random(seed))
        try:
            yield
        finally:
            igraph.set_random_number_generator(random)


def capped_partition(local: LocalGraph, cap: int, seed: int) -> Partition:
    n = len(local.nodes)
    if n == 0:
        return Partition([], -1, 0, False)
    if not local.weights:
        return Partition([[v] for v in sorted(local.nodes)], -1, 0, False)
    with seeded_igraph(seed):
        levels = local.graph.community_multilevel(weights=local.weights, return_levels=True)
    memberships = [list(level.membership) for level in levels]
    for index in range(len(memberships) - 1, -1, -1):
        groups = _groups(memberships[index])
        if max(len(g) for g in groups) <= cap:
            return Partition(_to_nodes(local, groups), index, len(memberships), False)
    groups = []
    for group in _groups(memberships[0]):
        groups.extend(_split(local, group, cap) if len(group) > cap else [group])
    return Partition(_to_nodes(local, groups), 0, len(memberships), True)


def _groups(membership: list[int]) -> list[list[int]]:
    out: dict[int, list[int]] = {}
    for v, c in enumerate(membership):
        out.setdefault(c, []).append(v)
    return list(out.values())


def _to_nodes(local: LocalGraph, groups: list[list[int]]) -> list[list[int]]:
    communities = [sorted(local.nodes[v] for v in g) for g in groups]
    return sorted(communities, key=lambda c: c[0])


def _split(local: LocalGraph, group: list[int], cap: int) -> list[list[int]]:
    """Breadth-first order inside the group from its lowest vertex (then the next unreached one),
    cut into pieces of `cap`."""
    inside = set(group)
    order: list[int] = []
    seen: set[int] = set()
    for root in sorted(group):
        if root in seen:
            continue
        seen.add(root)
        queue = [root]
        while queue:
            v = queue.pop(0)
            order.append(v)
            for u in sorted(local.graph.neighbors(v)):
                if u in inside and u not in seen:
                    seen.add(u)
                    queue.append(u)
    return [order[i:i + cap] for i in range(0, len(order), cap)]


def community_modularity(local: LocalGraph, communities: Sequence[Sequence[int]]) -> list[float]:
    """Q_c per community (projection node lists over `local`); 0 for all when the graph has no edges."""
    m = local.total_weight
    if m == 0:
        return [0.0] * len(communities)
    where = {n: i for i, n in enumerate(local.nodes)}
    member = np.full(len(local.nodes), -1, dtype=np.int64)
    for c, nodes in enumerate(communities):
        for n in nodes:
            member[where[n]] = c
    inner = np.zeros(len(communities))
    degree = np.zeros(len(communities))
    for (a, b), w in zip(local.graph.get_edgelist(), local.weights, strict=True):
        ca, cb = member[a], member[b]
        if ca >= 0:
            degree[ca] += w
        if cb >= 0:
            degree[cb] += w
        if ca == cb and ca >= 0:
            inner[ca] += w
    return [float(inner[c] / m - (degree[c] / (2 * m)) ** 2) for c in range(len(communities))]


def edges_between(projection: GraphProjection, a: Sequence[int], b: Sequence[int],
                  edge_mask: np.ndarray | None = None) -> list[int]:
    """Projection edges with one end in `a` and the other in `b` (inside `a` when a is b), by index."""
    bs = set(b)
    out: set[int] = set()
    for n in a:
        for e in projection.incident[n]:
            if (edge_mask is None or edge_mask[e]) and projection.other_end(e, n) in bs:
                out.add(e)
    return sorted(out)


def adjacent_communities(projection: GraphProjection, current: Sequence[int], partition: Partition,
                         modularity: Sequence[float], top_k: int,
                         edge_mask: np.ndarray | None = None) -> list[Community]:
    """The communities with an edge to `current`, best modularity first (ties: lowest node), the
    top `top_k` (coarse pruning), each with its linking and inner edges."""
    out = []
    for nodes, q in zip(partition.communities, modularity, strict=True):
        links = edges_between(projection, nodes, current, edge_mask)
        if links:
            out.append(Community(tuple(nodes), q, tuple(links), tuple(edges_between(projection, nodes, nodes,
                                                                                      edge_mask))))
    out.sort(key=lambda c: (-c.modularity, c.nodes[0]))
    return out[:top_k]
