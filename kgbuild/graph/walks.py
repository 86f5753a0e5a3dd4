"""Pure graph steps over a GraphProjection: k-hop neighbourhoods, Personalized PageRank, paths.

Every function takes node and edge indices of the projection and returns new ones; nothing here
reads a store, embeds text or calls a model, so each is tested on small hand-built graphs
(tests/test_graph_walks.py). Walks ignore edge direction (a question may follow a relation either
way); a `Path` remembers the direction of each step for verbalisation.

Which library does what was measured against igraph and rustworkx on the HotpotQA projection
(bench/graph_library.py): scipy was fastest for 4-hop neighbourhoods, Personalized PageRank and
breadth-first shortest paths (igraph ~2x slower on PageRank and paths, rustworkx slower still), so
these are sparse products and scipy.sparse.csgraph searches. Capped enumeration of simple paths is
a Python BFS over incidence lists: no library caps the number of paths it returns, and an uncapped
enumeration from a hub runs away. igraph serves FastToG's community detection (Louvain).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from kgbuild.graph.projection import GraphProjection


@dataclass(frozen=True)
class Path:
    """A walk from `start` along `edges`; `nodes[i + 1]` is reached over `edges[i]`."""

    start: int
    edges: tuple[int, ...]
    nodes: tuple[int, ...]

    @property
    def end(self) -> int:
        return self.nodes[-1]

    def __len__(self) -> int:
        return len(self.edges)


def adjacency(projection: GraphProjection, edge_mask: np.ndarray | None = None) -> sp.csr_matrix:
    """Undirected 0/1 node x node matrix over the edges in `edge_mask` (all edges when None)."""
    n = projection.n_nodes
    heads, tails = projection.edge_head, projection.edge_tail
    if edge_mask is not None:
        heads, tails = heads[edge_mask], tails[edge_mask]
    rows = np.concatenate([heads, tails])
    cols = np.concatenate([tails, heads])
    matrix = sp.csr_matrix((np.ones(rows.size, np.float32), (rows, cols)), shape=(n, n))
    matrix.sum_duplicates()
    matrix.data[:] = 1.0
    return matrix


def k_hop(adj: sp.csr_matrix, seeds: Iterable[int], k: int) -> np.ndarray:
    """Sorted indices of the nodes within `k` hops of any seed (the union of their k-hop balls)."""
    reached = np.zeros(adj.shape[0], dtype=bool)
    frontier = np.zeros(adj.shape[0], dtype=np.float32)
    for s in seeds:
        reached[s] = True
        frontier[s] = 1.0
    for _ in range(max(k, 0)):
        if not frontier.any():
            break
        step = (adj @ frontier) > 0
        new = step & ~reached
        reached |= new
        frontier = new.astype(np.float32)
    return np.flatnonzero(reached)


def personalized_pagerank(adj: sp.csr_matrix, seeds: Mapping[int, float], *, nodes: np.ndarray | None = None,
                          damping: float = 0.8, iterations: int = 50, tol: float = 1e-8) -> np.ndarray:
    """PageRank restarting at `seeds` (node -> weight) on the subgraph induced by `nodes` (all when
    None); `damping` is the probability of following an edge rather than restarting. Returns a
    score per node of the whole graph, 0 outside `nodes`; the scores sum to 1."""
    n = adj.shape[0]
    scores = np.zeros(n, dtype=np.float64)
    if not seeds:
        return scores
    sub = adj if nodes is None else adj[nodes][:, nodes]
    index = np.arange(n) if nodes is None else nodes
    local = {int(p): i for i, p in enumerate(index.tolist())}
    restart = np.zeros(sub.shape[0], dtype=np.float64)
    for node, weight in seeds.items():
        if node in local and weight > 0:
            restart[local[node]] += weight
    if restart.sum() == 0:
        return scores
    restart /= restart.sum()
    degree = np.asarray(sub.sum(axis=1)).ravel()
    inv = np.divide(1.0, degree, out=np.zeros_like(degree, dtype=np.float64), where=degree > 0)
    walk = sub.T.tocsr() @ sp.diags(inv)  # column j spreads node j's mass over its neighbours
    scores[index] = walk_with_restart(walk, restart, damping=damping, iterations=iterations, tol=tol)
    return scores


def walk_with_restart(transition: sp.csr_matrix, restart: np.ndarray, *, damping: float, iterations: int,
                      tol: float) -> np.ndarray:
    """The one Personalized PageRank iteration, for the graph strategies (above) and hybrid
    retrieval's walk over nodes and chunks (query/retrieval/ppr.py): `transition[i, j]` = P(j -> i)
    (columns of dangling nodes zero), `restart` the seed distribution (sums to 1); each step follows
    an edge with probability `damping`, and the restart takes back what did not (and what dangling
    nodes lost). Stops after `iterations` or when the L1 change falls below `tol`; the arithmetic
    stays in the inputs' dtype."""
    p: np.ndarray = restart.copy()
    for _ in range(iterations):
        nxt: np.ndarray = damping * (transition @ p)
        nxt += (1.0 - nxt.sum()) * restart
        done = float(np.abs(nxt - p).sum()) < tol
        p = nxt
        if done:
            break
    return p


def top_nodes(scores: np.ndarray, n: int, *, keep: Iterable[int] = ()) -> np.ndarray:
    """The `n` best-scoring nodes with a positive score, plus every node of `keep` (the seeds)."""
    positive = np.flatnonzero(scores > 0)
    best = positive[np.argpartition(-scores[positive], n - 1)[:n]] if positive.size > n else positive
    return np.union1d(best, np.fromiter(keep, dtype=np.int64)).astype(np.int64)


def allowed_edges(projection: GraphProjection, nodes: np.ndarray, edge_mask: np.ndarray | None = None) -> np.ndarray:
    """Mask of the edges with both ends among `nodes` (and in `edge_mask` when given)."""
    inside = np.zeros(projection.n_nodes, dtype=bool)
    inside[nodes] = True
    mask: np.ndarray = inside[projection.edge_head] & inside[projection.edge_tail]
    return mask & edge_mask if edge_mask is not None else mask


def simple_paths(projection: GraphProjection, seeds: Iterable[int], depth: int, edge_mask: np.ndarray, *,
                 max_paths: int = 10_000) -> tuple[list[Path], bool]:
    """Every simple path (no node twice) of 1..`depth` edges from each seed over the edges in
    `edge_mask`, breadth first, at most `max_paths` in all. Returns (paths, truncated)."""
    incident = projection.incident
    out: list[Path] = []
    frontier = [Path(s, (), (s,)) for s in dict.fromkeys(seeds)]
    for _ in range(depth):
        nxt: list[Path] = []
        for path in frontier:
            here = path.nodes[-1]
            for e in incident[here]:
                if not edge_mask[e]:
                    continue
                there = projection.other_end(e, here)
                if there in path.nodes:
                    continue
                grown = Path(path.start, (*path.edges, e), (*path.nodes, there))
                out.append(grown)
                if len(out) >= max_paths:
                    return out, True
                nxt.append(grown)
        frontier = nxt
        if not frontier:
            break
    return out, False


def shortest_paths(projection: GraphProjection, seeds: Iterable[int], edge_mask: np.ndarray) -> list[Path]:
    """One shortest path (unit weights, either direction) from each seed to every node it reaches
    over the edges in `edge_mask`, the seed itself left out.

    One breadth-first search per seed (scipy, in C) gives each node its parent; each path is its
    parent's path plus one step, so paths share their prefixes instead of being walked again (5x
    faster than reading igraph's per-target paths, bench/graph_library.py). Where two edges join the
    same pair of nodes, the step takes the one inserted first; ties between parents go to the search
    order. Both are fixed for one build, so the result is deterministic."""
    from scipy.sparse import csgraph

    kept = np.flatnonzero(edge_mask)
    if kept.size == 0:
        return []
    n = projection.n_nodes
    head, tail = projection.edge_head[kept].astype(np.int64), projection.edge_tail[kept].astype(np.int64)
    # node pair (low, high) -> the first kept edge joining it, for mapping tree steps back to edges
    keys, first = np.unique(np.minimum(head, tail) * n + np.maximum(head, tail), return_index=True)
    first_edge = kept[first]
    low, high = keys // n, keys % n
    graph = sp.csr_matrix((np.ones(2 * keys.size, np.int8), (np.concatenate([low, high]), np.concatenate([high, low]))),
                          shape=(n, n))
    out: list[Path] = []
    for seed in dict.fromkeys(seeds):
        order, parent = csgraph.breadth_first_order(graph, seed, directed=True, return_predecessors=True)
        children = order[1:].astype(np.int64)
        parents = parent[children].astype(np.int64)
        steps = first_edge[np.searchsorted(keys, np.minimum(parents, children) * n + np.maximum(parents, children))]
        edges_to: dict[int, tuple[int, ...]] = {seed: ()}
        nodes_to: dict[int, tuple[int, ...]] = {seed: (seed,)}
        for child, par, edge in zip(children.tolist(), parents.tolist(), steps.tolist(), strict=True):
            edges_to[child] = (*edges_to[par], edge)
            nodes_to[child] = (*nodes_to[par], child)
            out.append(Path(seed, edges_to[child], nodes_to[child]))
    return out


def hop_distances(adj: sp.csr_matrix, sources: Iterable[int], targets: Iterable[int], *,
                  max_hops: int = 8) -> int | None:
    """The fewest hops from any source to any target (0 when they share a node), None beyond `max_hops`."""
    goal = np.zeros(adj.shape[0], dtype=bool)
    for t in targets:
        goal[t] = True
    reached = np.zeros(adj.shape[0], dtype=bool)
    for s in sources:
        reached[s] = True
    if not goal.any() or not reached.any():
        return None
    if (reached & goal).any():
        return 0
    frontier = reached.astype(np.float32)
    for hops in range(1, max_hops + 1):
        new = ((adj @ frontier) > 0) & ~reached
        if not new.any():
            return None
        if (new & goal).any():
            return hops
        reached |= new
        frontier = new.astype(np.float32)
    return None
