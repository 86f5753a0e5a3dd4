"""FRAG's path retrieval inside the preprocessed subgraph.

simple  -> every simple path of 1..k edges from each seed (breadth first, capped): near the seeds
           the answer is on one of few short paths, and enumerating them all misses none;
complex -> one shortest path (unit weights) from each seed to every node it reaches: enumerating all
           paths of length 4 explodes on hubs, while the shortest path to each candidate is the
           most direct reasoning chain to it and there is one candidate per reached node.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from kgbuild.graph.projection import GraphProjection
from kgbuild.graph.walks import Path, shortest_paths, simple_paths
from kgbuild.strategies.frag.router import SIMPLE, Route


@dataclass(frozen=True)
class Retrieved:
    paths: list[Path]
    truncated: bool  # the simple-path cap was reached: some paths were not enumerated
    how: str  # "simple paths up to depth 2" / "shortest paths from 2 seeds"


def retrieve_paths(projection: GraphProjection, seeds: Iterable[int], route: Route, k: int, edge_mask: np.ndarray,
                   *, max_paths: int = 20_000) -> Retrieved:
    starts = list(dict.fromkeys(seeds))
    if route == SIMPLE:
        paths, truncated = simple_paths(projection, starts, k, edge_mask, max_paths=max_paths)
        return Retrieved(paths, truncated, f"all simple paths up to depth {k} (cap {max_paths})")
    return Retrieved(shortest_paths(projection, starts, edge_mask), False,
                     f"one shortest path from each of {len(starts)} seed{'' if len(starts) == 1 else 's'} "
                     "to every node")
