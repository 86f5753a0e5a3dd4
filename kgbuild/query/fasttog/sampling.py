"""FastToG's neighbour sampling: the local subgraph around the current community, thinned per hop.

A node first reached at hop n is kept with probability rho^(n-1): every neighbour of the community
(hop 1), fewer and fewer further out, so the local community search sees the community's
surroundings without the whole graph. Draws come from the caller's seeded generator over nodes in
index order, so the same question on the same graph samples the same nodes.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import numpy as np

from kgbuild.graph.projection import GraphProjection


def keep_probability(hop: int, rho: float) -> float:
    """rho^(hop-1): 1 for the direct neighbours."""
    return float(rho ** (hop - 1))


def sample_neighbourhood(projection: GraphProjection, start: Sequence[int], hops: int, rho: float,
                         rng: np.random.Generator, *, edge_mask: np.ndarray | None = None,
                         exclude: Collection[int] = (), max_nodes: int = 200) -> list[int]:
    """Nodes within `hops` of `start` (not `start` itself), each hop n thinned to rho^(n-1), at most
    `max_nodes` (a hub's neighbours are then sampled uniformly). Nodes in `exclude` (visited
    communities) are walked through but not returned; a node dropped by the sampling is not walked
    through. Returned in the order reached (by hop, then index)."""
    reached = set(start)
    frontier = list(dict.fromkeys(start))
    out: list[int] = []
    skip = set(exclude)
    for hop in range(1, hops + 1):
        found: set[int] = set()
        for node in frontier:
            for edge in projection.incident[node]:
                if edge_mask is None or edge_mask[edge]:
                    found.add(projection.other_end(edge, node))
        new = sorted(found - reached)
        p = keep_probability(hop, rho)
        if p < 1.0 and new:
            draws = rng.random(len(new))
            new = [n for n, d in zip(new, draws, strict=True) if d < p]
        reached.update(new)
        fresh = [n for n in new if n not in skip]
        room = max_nodes - len(out)
        if len(fresh) > room:
            picked = set(rng.permutation(len(fresh))[:room].tolist())
            fresh = [n for i, n in enumerate(fresh) if i in picked]
            out.extend(fresh)
            break
        out.extend(fresh)
        frontier = new
        if not frontier:
            break
    return out
