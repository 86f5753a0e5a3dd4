"""FRAG's path retrieval inside the preprocessed subgraph.

simple  -> every simple path of 1..k edges from each seed (breadth first, capped): near the seeds
           the answer is on one of few short paths, and enumerating them all misses none;
complex -> one shortest path (unit weights, either direction) from each seed to every node it
           reaches: enumerating all paths of length 4 explodes on hubs, while the shortest path to
           each candidate is the most direct reasoning chain to it and there is one per reached node.

The shortest paths from one seed form its breadth-first tree, so they are kept as that tree
(`PathTree`: each reached node's parent and the edge it was reached over) rather than as thousands
of Path objects; the ranker scores a tree level by level and only the top paths become `Path`s.
That is `walks.shortest_paths` without the per-path Python objects (on the HotpotQA build it took
half of a complex question's time), computed with scipy's breadth-first search.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import dijkstra

from kgbuild.graph.projection import MENTION, GraphProjection
from kgbuild.graph.walks import Path, simple_paths
from kgbuild.query.frag.router import SIMPLE, Route
from kgbuild.query_settings import FragSettings

MAX_PATHS = FragSettings().max_paths  # query.frag.max_paths


@dataclass(frozen=True)
class PathTree:
    """The shortest paths from `seed`: `nodes[i]` (breadth-first order, seed excluded) is reached
    from `parents[i]` over edge `edges[i]`, at `depths[i]` hops."""

    seed: int
    nodes: np.ndarray
    parents: np.ndarray
    edges: np.ndarray
    depths: np.ndarray
    _back: dict[int, tuple[int, int]] = field(default_factory=dict, repr=False, compare=False)

    def __len__(self) -> int:
        return int(self.nodes.size)

    def path(self, i: int) -> Path:
        """The path from the seed to `nodes[i]`."""
        if not self._back:
            self._back.update(zip(self.nodes.tolist(), zip(self.parents.tolist(), self.edges.tolist(), strict=True),
                                  strict=True))
        node = int(self.nodes[i])
        nodes = [node]
        edges: list[int] = []
        while node != self.seed:
            parent, edge = self._back[node]
            edges.append(edge)
            nodes.append(parent)
            node = parent
        return Path(self.seed, tuple(reversed(edges)), tuple(reversed(nodes)))

    def paths(self) -> list[Path]:
        return [self.path(i) for i in range(len(self))]


# What a step through a passage's mention costs beyond one hop: among paths of the same length the
# tree takes the one over stated facts ("Wilkes -> base design on -> First Draft <- write <- von
# Neumann") rather than over co-mentions in a passage; small enough never to make a path longer.
MENTION_DETOUR = 1e-3


def shortest_path_trees(projection: GraphProjection, seeds: Iterable[int], edge_mask: np.ndarray) -> list[PathTree]:
    """One shortest-path tree per seed over the edges in `edge_mask`, walked either way: fewest hops,
    and among those the fewest passage mentions (`MENTION_DETOUR`). Between two nodes joined by
    several edges, the tree takes the first one (lowest edge index)."""
    n = projection.n_nodes
    kept = np.flatnonzero(edge_mask)
    if kept.size == 0:
        return []
    adj = _weighted(projection, edge_mask)
    heads = projection.edge_head[kept].astype(np.int64)
    tails = projection.edge_tail[kept].astype(np.int64)
    keys = np.concatenate([heads * n + tails, tails * n + heads])
    ids = np.concatenate([kept, kept])
    order = np.lexsort((ids, keys))
    uniq, first = np.unique(keys[order], return_index=True)
    edge_of_key = ids[order][first]
    out: list[PathTree] = []
    for seed in dict.fromkeys(seeds):
        dist, pred = dijkstra(adj, directed=True, indices=seed, return_predecessors=True)
        reached = np.flatnonzero(np.isfinite(dist))
        reached = reached[np.argsort(dist[reached], kind="stable")]  # the seed first, parents before children
        nodes = reached[1:].astype(np.int64)
        parents = pred[nodes].astype(np.int64)
        edges = edge_of_key[np.searchsorted(uniq, parents * n + nodes)]
        depth = np.zeros(n, dtype=np.int64)
        for v, u in zip(nodes.tolist(), parents.tolist(), strict=True):  # parents come first in BFS order
            depth[v] = depth[u] + 1
        out.append(PathTree(int(seed), nodes, parents, edges.astype(np.int64), depth[nodes]))
    return out


def _weighted(projection: GraphProjection, edge_mask: np.ndarray) -> sp.csr_matrix:
    """Undirected node x node costs over the edges in `edge_mask`: 1 a hop, plus `MENTION_DETOUR`
    where the only edges between the two nodes are passage mentions (parallel edges: the cheapest)."""
    n = projection.n_nodes
    heads = projection.edge_head[edge_mask].astype(np.int64)
    tails = projection.edge_tail[edge_mask].astype(np.int64)
    mention = projection.edge_mask([MENTION])[edge_mask]
    cost = np.where(mention, 1.0 + MENTION_DETOUR, 1.0)
    rows, cols, costs = np.concatenate([heads, tails]), np.concatenate([tails, heads]), np.concatenate([cost, cost])
    order = np.lexsort((costs, rows * n + cols))
    _, first = np.unique((rows * n + cols)[order], return_index=True)
    keep = order[first]
    return sp.csr_matrix((costs[keep], (rows[keep], cols[keep])), shape=(n, n))


@dataclass(frozen=True)
class Retrieved:
    paths: list[Path]  # simple route: the enumerated paths
    trees: list[PathTree]  # complex route: one shortest-path tree per seed
    truncated: bool  # the simple-path cap was reached: some paths were not enumerated
    how: str  # "all simple paths up to depth 2 (cap 20000)" / "one shortest path from each of 2 seeds ..."

    @property
    def count(self) -> int:
        return len(self.paths) + sum(len(t) for t in self.trees)

    def all_paths(self) -> list[Path]:
        return [*self.paths, *(p for t in self.trees for p in t.paths())]


def retrieve_paths(projection: GraphProjection, seeds: Iterable[int], route: Route, k: int, edge_mask: np.ndarray,
                   *, max_paths: int = MAX_PATHS) -> Retrieved:
    starts = list(dict.fromkeys(seeds))
    if route == SIMPLE:
        paths, truncated = simple_paths(projection, starts, k, edge_mask, max_paths=max_paths)
        return Retrieved(paths, [], truncated, f"all simple paths up to depth {k} (cap {max_paths})")
    return Retrieved([], shortest_path_trees(projection, starts, edge_mask), False,
                     f"one shortest path from each of {len(starts)} seed{'' if len(starts) == 1 else 's'} "
                     "to every node")
