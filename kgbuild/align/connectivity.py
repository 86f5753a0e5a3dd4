"""How connected a graph is: components, degrees and k-hop neighbourhoods (KAG Figure 9).

KAG measures alignment by how much it grows the 1-, 2- and 3-hop neighbourhoods of nodes.
The graph is taken as undirected and simple (duplicate and reversed edges count once,
self-loops not at all) and stored as CSR arrays, so 100k nodes take well under a second.
Neighbourhoods are measured by breadth-first search from every node of a small graph, or from
a deterministic sample of a large one.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
from pydantic import BaseModel, Field

from kgbuild.model import Concept, Event, Relation

HOPS = (1, 2, 3)


class HopStats(BaseModel):
    """Sizes of the k-hop neighbourhoods (nodes within k hops, the start node excluded)."""

    mean: float = 0.0
    p50: float = 0.0  # percentiles are nearest-rank: always a size some node has
    p90: float = 0.0
    max: int = 0


class ConnectivityReport(BaseModel):
    nodes: int = 0
    edges: int = 0  # distinct undirected edges between known nodes
    components: int = 0
    largest_component: int = 0
    largest_component_share: float = 0.0
    singletons: int = 0  # nodes without any edge
    mean_degree: float = 0.0
    max_degree: int = 0
    dangling_edges: int = 0  # edges with an end outside node_ids: not counted
    self_loops: int = 0
    sampled: int = 0  # start nodes of the neighbourhood searches
    hops: dict[str, HopStats] = Field(default_factory=dict)  # "1", "2", "3"

    def summary(self) -> dict[str, float]:
        """Flat numbers, e.g. for `compare` and for printing."""
        out: dict[str, float] = {k: float(v) for k, v in self.model_dump(exclude={"hops"}).items()}
        for k, stats in self.hops.items():
            for name, value in stats.model_dump().items():
                out[f"hop{k}.{name}"] = float(value)
        return out


def _csr(n: int, src: np.ndarray, dst: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """indptr, indices of the symmetric adjacency (each undirected edge stored both ways)."""
    rows = np.concatenate([src, dst])
    cols = np.concatenate([dst, src])
    order = np.argsort(rows, kind="stable")
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=n), out=indptr[1:])
    return indptr, cols[order]


def _gather(indptr: np.ndarray, indices: np.ndarray, frontier: np.ndarray) -> np.ndarray:
    """All neighbours of the frontier nodes, concatenated (with repeats), without a Python loop."""
    starts, ends = indptr[frontier], indptr[frontier + 1]
    lens = ends - starts
    total = int(lens.sum())
    if total == 0:
        return np.empty(0, dtype=indices.dtype)
    offsets = np.repeat(starts - (np.cumsum(lens) - lens), lens)
    return indices[np.arange(total) + offsets]


def _components(n: int, src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """Component label (its smallest node index) of every node.

    Vectorised min-label hooking with pointer jumping: each round hooks the root of every
    edge's larger label onto the smaller one, then flattens the trees. At the fixpoint every
    edge has equal labels at both ends, so labels are exactly the components; a handful of
    rounds suffices even for a 100k-node path.
    """
    label = np.arange(n, dtype=np.int64)
    while True:
        lu, lv = label[src], label[dst]
        low = np.minimum(lu, lv)
        new = label.copy()
        np.minimum.at(new, lu, low)
        np.minimum.at(new, lv, low)
        while True:
            jumped = new[new]
            if np.array_equal(jumped, new):
                break
            new = jumped
        if np.array_equal(new, label):
            return label
        label = new


def _hop_sizes(indptr: np.ndarray, indices: np.ndarray, starts: np.ndarray, depth: int) -> np.ndarray:
    """sizes[i, k-1] = nodes within k hops of starts[i], for k = 1..depth."""
    n = indptr.size - 1
    seen = np.zeros(n, dtype=bool)
    sizes = np.zeros((starts.size, depth), dtype=np.int64)
    for i, s in enumerate(starts):
        seen[s] = True
        touched = [np.array([s])]
        frontier = touched[0]
        count = 0
        for k in range(depth):
            if frontier.size:
                nbrs = _gather(indptr, indices, frontier)
                nbrs = np.unique(nbrs[~seen[nbrs]])
                seen[nbrs] = True
                touched.append(nbrs)
                count += nbrs.size
                frontier = nbrs
            sizes[i, k] = count
        for t in touched:  # reset only what this search marked
            seen[t] = False
    return sizes


def _stats(values: np.ndarray) -> HopStats:
    if values.size == 0:
        return HopStats()
    p50, p90 = np.percentile(values, [50, 90], method="inverted_cdf")
    return HopStats(mean=round(float(values.mean()), 4), p50=float(p50), p90=float(p90), max=int(values.max()))


def connectivity(node_ids: Iterable[str], edges: Iterable[tuple[str, str]], *, sample: int = 2000,
                 seed: int = 0) -> ConnectivityReport:
    """Connectivity of the undirected graph on `node_ids`; edges to other ids are not counted.

    Neighbourhood sizes are measured from every node when there are at most `sample` of them,
    else from `sample` nodes drawn with `seed` (the same graph always gives the same report).
    """
    index: dict[str, int] = {}
    for nid in node_ids:
        index.setdefault(nid, len(index))
    n = len(index)
    pairs: list[tuple[int, int]] = []
    dangling = loops = 0
    for a, b in edges:
        ia, ib = index.get(a), index.get(b)
        if ia is None or ib is None:
            dangling += 1
        elif ia == ib:
            loops += 1
        else:
            pairs.append((ia, ib) if ia < ib else (ib, ia))
    report = ConnectivityReport(nodes=n, dangling_edges=dangling, self_loops=loops)
    if n == 0:
        return report
    arr = np.unique(np.asarray(pairs, dtype=np.int64).reshape(-1, 2), axis=0)
    indptr, indices = _csr(n, arr[:, 0], arr[:, 1])
    degree = np.diff(indptr)
    labels = _components(n, arr[:, 0], arr[:, 1])
    comp_sizes = np.bincount(labels)
    comp_sizes = comp_sizes[comp_sizes > 0]
    if n <= sample:
        starts = np.arange(n, dtype=np.int64)
    else:
        starts = np.sort(np.random.default_rng(seed).choice(n, size=sample, replace=False))
    sizes = _hop_sizes(indptr, indices, starts, len(HOPS))
    report.edges = int(arr.shape[0])
    report.components = int(comp_sizes.size)
    report.largest_component = int(comp_sizes.max())
    report.largest_component_share = round(report.largest_component / n, 4)
    report.singletons = int((degree == 0).sum())
    report.mean_degree = round(2 * report.edges / n, 4)
    report.max_degree = int(degree.max())
    report.sampled = int(starts.size)
    report.hops = {str(k): _stats(sizes[:, k - 1]) for k in HOPS}
    return report


def compare(before: ConnectivityReport, after: ConnectivityReport) -> dict[str, dict[str, Any]]:
    """metric -> {before, after, change} for every number of the two reports."""
    b, a = before.summary(), after.summary()
    return {k: {"before": b.get(k, 0.0), "after": a.get(k, 0.0), "change": round(a.get(k, 0.0) - b.get(k, 0.0), 4)}
            for k in dict.fromkeys([*b, *a])}


# ---------------------------------------------------------------- edges of graph records


def edges_from_relations(relations: Iterable[Relation]) -> list[tuple[str, str]]:
    return [(r.subject.id, r.object.id) for r in relations]


def edges_from_events(events: Iterable[Event]) -> list[tuple[str, str]]:
    """An event is connected to its arguments, time and place."""
    out: list[tuple[str, str]] = []
    for ev in events:
        refs = [ref for refs in ev.arguments.values() for ref in refs]
        refs += [ref for ref in (ev.time, ev.place) if ref is not None]
        out.extend((ev.id, ref.id) for ref in refs)
    return out


def edges_from_concepts(concepts: Iterable[Concept]) -> list[tuple[str, str]]:
    """isA edges kept only as `Concept.parents` (without Relation records)."""
    return [(c.id, p) for c in concepts for p in c.parents]
