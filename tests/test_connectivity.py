from __future__ import annotations

import time
from itertools import pairwise

import numpy as np
import pytest

from kgbuild.align.connectivity import (
    ConnectivityReport,
    compare,
    connectivity,
    edges_from_concepts,
    edges_from_events,
    edges_from_relations,
)
from kgbuild.model import Concept, Event, Ref, Relation


def path(n: int) -> tuple[list[str], list[tuple[str, str]]]:
    nodes = [f"p{i}" for i in range(n)]
    return nodes, list(pairwise(nodes))


def test_path_exact() -> None:
    nodes, edges = path(5)  # p0 - p1 - p2 - p3 - p4
    r = connectivity(nodes, edges)
    assert (r.nodes, r.edges, r.components, r.largest_component, r.singletons) == (5, 4, 1, 5, 0)
    assert r.mean_degree == 1.6 and r.max_degree == 2 and r.sampled == 5
    # within 1 hop: 1,2,2,2,1; within 2: 2,3,4,3,2; within 3: 3,4,4,4,3
    assert r.hops["1"].model_dump() == {"mean": 1.6, "p50": 2.0, "p90": 2.0, "max": 2}
    assert r.hops["2"].model_dump() == {"mean": 2.8, "p50": 3.0, "p90": 4.0, "max": 4}
    assert r.hops["3"].model_dump() == {"mean": 3.6, "p50": 4.0, "p90": 4.0, "max": 4}


def test_star_exact() -> None:
    leaves = [f"l{i}" for i in range(10)]
    r = connectivity(["hub", *leaves], [("hub", leaf) for leaf in leaves])
    assert (r.nodes, r.edges, r.components, r.largest_component, r.singletons) == (11, 10, 1, 11, 0)
    assert r.max_degree == 10 and r.mean_degree == round(20 / 11, 4)
    assert r.hops["1"].max == 10 and r.hops["1"].p50 == 1.0 and r.hops["1"].p90 == 1.0
    assert r.hops["1"].mean == round(20 / 11, 4)
    # every node reaches every other within 2 hops
    assert r.hops["2"].model_dump() == {"mean": 10.0, "p50": 10.0, "p90": 10.0, "max": 10}
    assert r.hops["3"] == r.hops["2"]


def test_two_components_singletons_duplicates_and_dangling() -> None:
    nodes = ["a", "b", "c", "d", "e", "f", "g"]
    edges = [("a", "b"), ("b", "a"), ("b", "c"), ("a", "b"),  # duplicates and reversals count once
             ("d", "e"),
             ("a", "a"),  # self-loop
             ("a", "zzz")]  # to a node not in the graph
    r = connectivity(nodes, edges)
    assert (r.nodes, r.edges, r.components, r.largest_component, r.singletons) == (7, 3, 4, 3, 2)
    assert r.self_loops == 1 and r.dangling_edges == 1
    assert r.largest_component_share == round(3 / 7, 4)
    assert r.hops["1"].max == 2 and r.hops["2"].max == 2


def test_empty_and_edgeless() -> None:
    assert connectivity([], []).model_dump() == ConnectivityReport().model_dump()
    r = connectivity(["a", "b"], [])
    assert (r.components, r.singletons, r.edges, r.mean_degree) == (2, 2, 0, 0.0)
    assert r.hops["3"].max == 0


def test_long_path_components() -> None:
    nodes, edges = path(20_000)
    edges = edges[::-1]  # reverse order: the worst case for naive label propagation
    r = connectivity(nodes, edges, sample=50)
    assert r.components == 1 and r.largest_component == 20_000 and r.sampled == 50
    assert r.hops["3"].max == 6


def test_sample_is_deterministic() -> None:
    rng = np.random.default_rng(7)
    nodes = [f"n{i}" for i in range(3000)]
    edges = [(nodes[a], nodes[b]) for a, b in rng.integers(0, 3000, (6000, 2))]
    a = connectivity(nodes, edges, sample=100, seed=3)
    b = connectivity(nodes, edges, sample=100, seed=3)
    assert a == b and a.sampled == 100


def test_compare_and_serialise() -> None:
    nodes, edges = path(4)
    before = connectivity(nodes, edges[:1])
    after = connectivity(nodes, edges)
    diff = compare(before, after)
    assert diff["components"] == {"before": 3.0, "after": 1.0, "change": -2.0}
    assert diff["hop1.mean"]["change"] > 0
    assert ConnectivityReport.model_validate_json(after.model_dump_json()) == after


def test_edge_helpers() -> None:
    a, b = Ref(kind="entity", id="a", name="A"), Ref(kind="concept", id="c", name="C")
    rel = Relation(id="r", subject=a, predicate="belongTo", object=b)
    ev = Event(id="e", type="T", trigger="t", arguments={"x": [a]}, place=b)
    assert edges_from_relations([rel]) == [("a", "c")]
    assert edges_from_events([ev]) == [("e", "a"), ("e", "c")]
    assert edges_from_concepts([Concept(id="c", name="C", parents=["d"])]) == [("c", "d")]


@pytest.mark.slow
def test_performance_100k() -> None:
    rng = np.random.default_rng(0)
    n = 100_000
    nodes = [f"n{i}" for i in range(n)]
    pairs = rng.integers(0, n, (300_000, 2))
    edges = [(nodes[x], nodes[y]) for x, y in pairs.tolist()]
    start = time.process_time()  # CPU time: a second job on the machine must not fail the bound
    r = connectivity(nodes, edges)
    assert time.process_time() - start < 5.0
    assert r.nodes == n and r.sampled == 2000 and r.edges > 299_000
    assert r.largest_component > 0.99 * n
    assert r.hops["1"].mean < r.hops["2"].mean < r.hops["3"].mean
