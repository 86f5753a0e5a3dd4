"""Weak labels for the trained parts (FRAG's router, SubgraphRAG's scorer), read off the built graph.

A QA file gives the answer as text, not as a node: the answer nodes are the entities (or concepts)
whose normalised name equals the answer or one of its aliases. Labels then come from the graph:
the hop distance from the question's entities to those nodes, and the edges on shortest paths
between them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from kgbuild.graph.projection import CHUNK, GraphProjection
from kgbuild.graph.walks import shortest_paths
from kgbuild.query.evaluate import normalize_answer


def answer_nodes(projection: GraphProjection, answers: Sequence[str]) -> list[int]:
    """Nodes (not passages) whose name, normalised as EM normalises, equals one of `answers`."""
    wanted = {normalize_answer(a) for a in answers if a and normalize_answer(a)}
    if not wanted:
        return []
    return [n for n, name in enumerate(projection.node_names)
            if projection.node_kind[n] != CHUNK and normalize_answer(name) in wanted]


def path_edges(projection: GraphProjection, edge_mask: np.ndarray, seeds: Iterable[int],
               targets: Iterable[int]) -> set[int]:
    """The edges of one shortest path from each seed to each target it reaches (over `edge_mask`)."""
    goal = set(targets)
    out: set[int] = set()
    if not goal:
        return out
    for path in shortest_paths(projection, seeds, edge_mask):
        if path.end in goal:
            out.update(path.edges)
    return out
