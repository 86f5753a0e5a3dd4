"""FastToG: sampling, the size-capped partition, modularity, adjacency and Triple2Text on hand-built
graphs with known results, and the whole strategy over real HTTP against the scripted server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from llm_server import ScriptedLLM
from test_coe import CHUNKS, Resources, Script, bench_module, hopper_graph

from kgbuild.graph.projection import GraphProjection
from kgbuild.query.fasttog import SPEC
from kgbuild.query.fasttog.community import (
    Community,
    Partition,
    adjacent_communities,
    capped_partition,
    community_modularity,
    edges_between,
    local_graph,
)
from kgbuild.query.fasttog.replies import PruneReply, ReasonReply
from kgbuild.query.fasttog.sampling import keep_probability, sample_neighbourhood
from kgbuild.query.fasttog.strategy import FastToGSettings, FastToGStrategy, worst_case_calls
from kgbuild.query.fasttog.triple2text import community_text, triple_sentence
from kgbuild.query.model_session import ModelSession
from kgbuild.query.strategy import Budget
from kgbuild.query.types import Answer


def graph_of(edges: list[tuple[int, int]], n: int | None = None) -> GraphProjection:
    """Entities n0..n(k-1) named "N i", joined by "next" relations; node i is entity i (no passages)."""
    count = n if n is not None else max(max(e) for e in edges) + 1
    entities = [{"id": f"n{i}", "name": f"N {i}", "spg_class": "Thing"} for i in range(count)]
    relations = [{"id": f"r{a}_{b}", "subject_id": f"n{a}", "predicate": "next", "object_id": f"n{b}"}
                 for a, b in edges]
    return GraphProjection.from_rows(chunks=[], entities=entities, relations=relations)


def _node(p: GraphProjection, i: int) -> int:
    return p.node_pos[f"n{i}"]


# ---------------------------------------------------------------- sampling


def test_keep_probability_decays_per_hop() -> None:
    assert [keep_probability(h, 0.5) for h in (1, 2, 3)] == [1.0, 0.5, 0.25]


def test_sampling_keeps_every_direct_neighbour_and_thins_further_hops_reproducibly() -> None:
    # a star: centre 0, 40 spokes, each spoke i has one leaf 40 + i
    edges = [(0, i) for i in range(1, 41)] + [(i, 40 + i) for i in range(1, 41)]
    p = graph_of(edges)
    centre = _node(p, 0)
    full = sample_neighbourhood(p, [centre], 2, 1.0, np.random.default_rng(0))
    assert len(full) == 80 and full[:40] == sorted(_node(p, i) for i in range(1, 41))
    only_first = sample_neighbourhood(p, [centre], 2, 0.0, np.random.default_rng(0))
    assert sorted(only_first) == sorted(_node(p, i) for i in range(1, 41))
    a = sample_neighbourhood(p, [centre], 2, 0.5, np.random.default_rng(7))
    b = sample_neighbourhood(p, [centre], 2, 0.5, np.random.default_rng(7))
    assert a == b  # seeded: the same nodes
    # known: the second hop's 40 leaves, in index order, each kept when its draw is below 0.5
    leaves = sorted(_node(p, 40 + i) for i in range(1, 41))
    draws = np.random.default_rng(7).random(40)
    assert a[40:] == [n for n, d in zip(leaves, draws, strict=True) if d < 0.5]
    assert 0 < len(a) - 40 < 40


def test_sampling_walks_through_visited_nodes_and_caps_hubs() -> None:
    p = graph_of([(0, 1), (1, 2), (2, 3)])
    got = sample_neighbourhood(p, [_node(p, 0)], 3, 1.0, np.random.default_rng(0), exclude={_node(p, 1)})
    assert got == [_node(p, 2), _node(p, 3)]  # 1 is visited: walked through, not returned
    star = graph_of([(0, i) for i in range(1, 31)])
    capped = sample_neighbourhood(star, [_node(star, 0)], 1, 1.0, np.random.default_rng(3), max_nodes=10)
    assert len(capped) == 10 and capped == sorted(capped)
    assert capped == sample_neighbourhood(star, [_node(star, 0)], 1, 1.0, np.random.default_rng(3), max_nodes=10)


# ---------------------------------------------------------------- partition and modularity


def _ring_of_triangles(count: int) -> list[tuple[int, int]]:
    edges = []
    for t in range(count):
        a, b, c = 3 * t, 3 * t + 1, 3 * t + 2
        edges += [(a, b), (b, c), (a, c), (c, (3 * t + 3) % (3 * count))]
    return edges


def test_partition_steps_back_through_the_hierarchy_to_the_first_that_fits() -> None:
    p = graph_of(_ring_of_triangles(10))
    local = local_graph(p, list(range(p.n_nodes)))
    fine = capped_partition(local, 4, seed=1)
    assert fine.levels == 2 and fine.level == 0 and not fine.split
    assert fine.communities == [[3 * t, 3 * t + 1, 3 * t + 2] for t in range(10)]  # the triangles
    coarse = capped_partition(local, 6, seed=1)
    assert coarse.level == 1 and len(coarse.communities) == 5
    assert all(len(c) == 6 for c in coarse.communities)
    assert capped_partition(local, 6, seed=1) == coarse  # seeded: the same partition


def test_a_community_over_the_cap_at_the_finest_level_is_split_in_bfs_order() -> None:
    # two 4-cliques joined by the edge 3-4: Louvain keeps the cliques, which are over a cap of 3
    cliques = [(a, b) for base in (0, 4) for a in range(base, base + 4) for b in range(a + 1, base + 4)]
    p = graph_of([*cliques, (3, 4)])
    part = capped_partition(local_graph(p, list(range(8))), 3, seed=0)
    assert part.split and part.communities == [[0, 1, 2], [3], [4, 5, 6], [7]]
    assert capped_partition(local_graph(p, list(range(8))), 4, seed=0).communities == [[0, 1, 2, 3], [4, 5, 6, 7]]


def test_an_edgeless_graph_gives_singletons() -> None:
    p = graph_of([(0, 1)], n=4)
    part = capped_partition(local_graph(p, [2, 3]), 4, seed=0)
    assert part.communities == [[2], [3]] and part.level == -1
    assert community_modularity(local_graph(p, [2, 3]), part.communities) == [0.0, 0.0]


def test_per_community_modularity_has_known_values_and_sums_to_the_graphs() -> None:
    # two triangles joined by 2-3: m = 7, each side has 3 inner edges and degree 7
    p = graph_of([(0, 1), (1, 2), (0, 2), (3, 4), (4, 5), (3, 5), (2, 3)])
    local = local_graph(p, list(range(6)))
    q = community_modularity(local, [[0, 1, 2], [3, 4, 5]])
    assert q == pytest.approx([3 / 7 - 0.25, 3 / 7 - 0.25])
    assert sum(q) == pytest.approx(local.graph.modularity([0, 0, 0, 1, 1, 1]))
    # a parallel edge counts twice (the weight is the number of projection edges)
    doubled = graph_of([(0, 1), (1, 0), (1, 2)])
    dl = local_graph(doubled, [0, 1, 2])
    assert dl.weights == [2.0, 1.0]
    assert community_modularity(dl, [[0, 1], [2]]) == pytest.approx([2 / 3 - (5 / 6) ** 2, -(1 / 6) ** 2])


def test_only_adjacent_communities_ranked_by_modularity_survive_coarse_pruning() -> None:
    # current node 0 touches 1 and 4; {1,2,3} is a triangle, {4,5} a pair, {6,7} is not adjacent
    p = graph_of([(0, 1), (0, 4), (1, 2), (2, 3), (1, 3), (4, 5), (6, 7), (5, 6)])
    near = [1, 2, 3, 4, 5, 6, 7]
    local = local_graph(p, near)
    part = capped_partition(local, 4, seed=0)
    assert part.communities == [[1, 2, 3], [4, 5, 6, 7]] and part.level == 1
    both = adjacent_communities(p, [0], part, community_modularity(local, part.communities), 5)
    # m = 6; each has 3 inner edges and degree 6: Q = 3/6 - (6/12)^2 = 0.25, a tie broken by the lowest node
    assert [(c.nodes, c.modularity) for c in both] == [((1, 2, 3), 0.25), ((4, 5, 6, 7), 0.25)]
    # a finer partition by hand: {6, 7} then has no edge to node 0
    manual = Partition([[1, 2, 3], [4, 5], [6, 7]], 0, 1, False)
    q = community_modularity(local, manual.communities)
    found = adjacent_communities(p, [0], manual, q, top_k=5)
    assert [c.nodes for c in found] == [(1, 2, 3), (4, 5)]  # {6,7} has no edge to node 0
    assert found[0].modularity > found[1].modularity
    assert [p.edge_ids[e] for e in found[0].links] == ["r0_1"]
    assert sorted(p.edge_ids[e] for e in found[0].edges) == ["r1_2", "r1_3", "r2_3"]
    assert [c.nodes for c in adjacent_communities(p, [0], manual, q, top_k=1)] == [(1, 2, 3)]
    assert edges_between(p, [6, 7], [0]) == []


# ---------------------------------------------------------------- Triple2Text


def test_triple2text_verbalises_relations_roles_mentions_and_lone_members() -> None:
    p = GraphProjection.from_rows(
        chunks=CHUNKS[:1],
        entities=[{"id": "hopper", "name": "Grace Hopper", "chunk_ids": ["c_hop"]},
                  {"id": "nyc", "name": "New York City"}, {"id": "ada", "name": "Ada"}],
        relations=[{"id": "r", "subject_id": "hopper", "predicate": "bornIn", "object_id": "nyc"}],
        hypernodes=[{"id": "h", "subject_id": "r", "subject_kind": "relation", "predicate": "time",
                     "object_id": "t", "object_name": "1906"}],
        events=[{"id": "ev", "type": "Founding", "trigger": "founded", "arguments": {"creator": [{"id": "ada"}]}}])
    by_kind = {p.edge_kind[e]: e for e in range(p.n_edges)}
    assert triple_sentence(p, by_kind["relation"]) == "Grace Hopper born in New York City (time: 1906)."
    assert triple_sentence(p, by_kind["role"]) == "In Founding: founded, the creator is Ada."
    assert triple_sentence(p, by_kind["mention"]) == 'The passage "Grace_Hopper §1" mentions Grace Hopper.'
    hopper, nyc, ada = p.node_pos["hopper"], p.node_pos["nyc"], p.node_pos["ada"]
    c = Community((nyc, ada), 0.1, links=(by_kind["relation"],))
    assert community_text(p, c) == "[New York City; Ada] Grace Hopper born in New York City (time: 1906). Also: Ada."
    assert community_text(p, Community((hopper,), 0.0)) == "[Grace Hopper] Also: Grace Hopper."
    twins = GraphProjection.from_rows(chunks=[], entities=[{"id": "a", "name": "Mercury", "spg_class": "Planet"},
                                                           {"id": "b", "name": "Mercury", "spg_class": "Element"}])
    assert community_text(twins, Community((0, 1), 0.0)) == (
        "[Mercury (Planet); Mercury (Element)] Also: Mercury (Planet), Mercury (Element).")


def test_replies_are_read_tolerantly() -> None:
    assert PruneReply.model_validate({"selected": "none"}).selected == []
    assert PruneReply.model_validate({"selected": 2}).selected == [2]
    assert not ReasonReply.model_validate({"answer": "Unknown."}).known
    assert not ReasonReply.model_validate({"answer": ""}).known
    assert ReasonReply.model_validate({"answer": 1906}).known



# ---------------------------------------------------------------- end to end over HTTP

PHRASES = {"prune": "community by community. A community", "reason": "Every chain starts at the start community",
           "fallback": "has reached its depth limit"}


def star_of_paths(length: int = 12) -> dict[str, list[dict[str, Any]]]:
    """A hub with three paths ("A 1".."A n", "B ..", "C ..") so every chain can always go deeper."""
    names = {0: "Hub"}
    edges = []
    for k, letter in enumerate("ABC"):
        prev = 0
        for i in range(1, length + 1):
            node = 1 + k * length + (i - 1)
            names[node] = f"{letter} {i}"
            edges.append((prev, node))
            prev = node
    count = 1 + 3 * length
    chunks = [{"id": f"p{i}", "doc_id": f"doc{i}", "text": f"About {names[i]}."} for i in range(count)]
    entities = [{"id": f"n{i}", "name": names[i], "spg_class": "Thing", "chunk_ids": [f"p{i}"]} for i in range(count)]
    relations = [{"id": f"r{a}_{b}", "subject_id": f"n{a}", "predicate": "next", "object_id": f"n{b}",
                  "chunk_ids": [f"p{b}"]} for a, b in edges]
    return {"chunks": chunks, "entities": entities, "relations": relations}


@pytest.fixture
def llm() -> Iterator[ScriptedLLM]:
    with ScriptedLLM() as server:
        yield server


def _run(llm: ScriptedLLM, tmp_path: Path, question: str, script: Script, settings: FastToGSettings | None,
         rows: dict[str, list[dict[str, Any]]] | None = None) -> Answer:
    script.serve(llm)
    budget = Budget(use_cache=False)
    resources = Resources(llm.base_url, tmp_path, rows or {})
    if settings is None:
        strategy: Any = SPEC.factory(resources, budget)
    else:
        strategy = FastToGStrategy(resources.projection(), resources.question_linker(),
                                   ModelSession(resources.config, resources.workspace, use_cache=False), settings)
    try:
        answer = strategy.answer(question, budget)
    finally:
        strategy.close()
    assert script.problems == []
    assert all(not q for q in script.queues.values()), script.queues
    return answer


def test_fasttog_answers_at_depth_two_after_unknown(llm: ScriptedLLM, tmp_path: Path) -> None:
    script = Script(PHRASES)
    script.add("prune", "pick the first one", {"selected": [1, 2, 3]},  # malformed, re-asked once
               {"selected": [1]}, {"selected": "1"}, {"selected": [1]})
    script.add("reason", {"answer": "Unknown"}, {"answer": "A 4", "reason": "chain 1 reaches it"})
    answer = _run(llm, tmp_path, "What comes after Hub?", script, FastToGSettings(rho=1.0, edge_kinds=("relation",)), star_of_paths())
    assert answer.answer == "A 4" and answer.resolved and answer.strategy == "fasttog"
    assert answer.llm_calls == len(llm.chat_log()) == 7  # 2 (start, re-asked) + 1 + 3 chains + 1
    assert answer.llm_calls <= 2 * 3 * 5 + 5 + 2
    assert any("worst case 2·W·D + D + 2 = 37" in n and "model calls: 7" in n for n in answer.notes)
    assert not any(n.startswith("fallback") for n in answer.notes)
    assert answer.plan == ["[A 1; A 2] => [A 3; A 4]", "[B 1; B 2] => [B 3; B 4]", "[C 1; C 2] => [C 3; C 4]"]
    assert [t.logical_form for t in answer.trace] == [
        "start: choose chains", "fasttog_reason prompt", "chain 1: next community", "chain 2: next community",
        "chain 3: next community", "fasttog_reason prompt"]
    assert sum(t.llm_calls for t in answer.trace) == answer.llm_calls and answer.trace[0].llm_calls == 2
    assert answer.trace[0].result.bound == {"community": ["A 1", "A 2", "B 1", "B 2", "C 1", "C 2"]}
    assert answer.chunks and len({c.id for c in answer.chunks}) == len(answer.chunks) <= 5
    assert answer.triples and answer.triples[0].subject == "Hub"
    # the start community is written once per reasoning prompt, before the chains
    reason = [r["json"]["messages"][-1]["content"] for r in llm.chat_log() if PHRASES["reason"] in r["text"]][-1]
    assert reason.count("[Hub]") == 1 and "Chain 3:" in reason and "depth 2 of 5" in reason


def test_fasttog_against_the_first_choice_stand_in(tmp_path: Path) -> None:
    stand_in = bench_module("first_choice_model")
    FirstChoiceModel, nonmodel_ms = stand_in.FirstChoiceModel, stand_in.nonmodel_ms

    budget = Budget(use_cache=False)
    settings = FastToGSettings(rho=1.0, edge_kinds=("relation",))
    with FirstChoiceModel() as model:
        resources = Resources(model.base_url, tmp_path, star_of_paths())
        strategy = FastToGStrategy(resources.projection(), resources.question_linker(),
                                   ModelSession(resources.config, resources.workspace, use_cache=False), settings)
        try:
            answer = strategy.answer("What comes after Hub?", budget)
        finally:
            strategy.close()
        # choose 3 chains, reason (Unknown at depth 1), one community per chain, reason: the top entity
        assert answer.llm_calls == model.calls == 6 <= worst_case_calls() == 37
    assert answer.answer == "A 3" and answer.resolved
    assert answer.facts[0] == "[Hub] Also: Hub." and len(answer.facts) == 1 + 3 * 2
    assert 0 < answer.model_seconds < answer.seconds and nonmodel_ms(answer) > 0


def test_query_fasttog_in_kgbuild_yaml_reaches_the_strategy(tmp_path: Path) -> None:
    stand_in = bench_module("first_choice_model")
    budget = Budget(use_cache=False)
    query = {"fasttog": {"width": 1, "rho": 1.0, "edge_kinds": ["relation"]}}
    with stand_in.FirstChoiceModel() as model:
        strategy = SPEC.factory(Resources(model.base_url, tmp_path, star_of_paths(), query=query), budget)
        try:
            answer = strategy.answer("What comes after Hub?", budget)
        finally:
            strategy.close()
        # one chain instead of the stand-in test's three: choose, reason, one community, reason
        assert answer.llm_calls == model.calls == 4
    assert answer.answer == "A 3" and answer.plan == ["[A 1; A 2] => [A 3; A 4]"]
    assert any("worst case 2·W·D + D + 2 = 17 for W=1, D=5" in n for n in answer.notes)


def test_fasttog_falls_back_when_depth_is_exhausted(llm: ScriptedLLM, tmp_path: Path) -> None:
    script = Script(PHRASES)
    script.add("prune", {"selected": [1, 2]}, *[{"selected": [1]}] * 2)
    script.add("reason", {"answer": "Unknown"}, {"answer": "unknown"})
    script.add("fallback", {"answer": "B 4", "reason": "the deepest community"})
    settings = FastToGSettings(width=2, depth=2, rho=1.0, edge_kinds=("relation",))
    answer = _run(llm, tmp_path, "What comes after Hub?", script, settings, star_of_paths())
    assert answer.answer == "B 4" and not answer.resolved
    assert answer.llm_calls == len(llm.chat_log()) == 6 <= settings.worst_case_calls == 12
    assert any(n.startswith("fallback (depth D=2 exhausted)") and "not confirmed" in n for n in answer.notes)
    assert answer.trace[-1].question == "fallback" and answer.trace[-1].result.judge == "unresolved"
    assert answer.plan == ["[A 1; A 2] => [A 3; A 4]", "[B 1; B 2] => [B 3; B 4]"]


def test_fasttog_chains_that_choose_none_stop_and_the_fallback_says_so(llm: ScriptedLLM, tmp_path: Path) -> None:
    script = Script(PHRASES)
    script.add("prune", {"selected": [1, 2, 3]}, {"selected": []}, {"selected": "none"}, "[]", "still not JSON")
    script.add("reason", {"answer": "Unknown"})
    script.add("fallback", "no idea", "none at all")  # no usable fallback reply either
    answer = _run(llm, tmp_path, "What comes after Hub?", script, FastToGSettings(rho=1.0, edge_kinds=("relation",)), star_of_paths())
    assert answer.answer == "" and not answer.resolved
    assert answer.llm_calls == len(llm.chat_log()) == 8  # 1 + 1 + (1 + 1 + 2) + 2
    assert any(n.startswith("fallback (every chain stopped at depth 1): no answer") for n in answer.notes)
    stops = [t.result.error for t in answer.trace if t.logical_form.endswith("next community")]
    assert stops == ["the model chose none"] * 3


def test_fasttog_default_settings_on_the_hopper_graph(llm: ScriptedLLM, tmp_path: Path) -> None:
    script = Script(PHRASES)
    script.add("prune", {"selected": [1]})
    script.add("reason", {"answer": "New York City"})
    answer = _run(llm, tmp_path, "Where was the developer of the A-0 System born?", script, None)
    assert answer.answer == "New York City" and answer.resolved and answer.llm_calls == len(llm.chat_log()) == 2
    p = hopper_graph()
    first = answer.trace[0].result
    assert first.notes and first.notes[0].startswith("sampled ")
    assert first.bound and set(first.bound["community"]) <= set(p.node_names)
    again = Script(PHRASES)
    again.add("prune", {"selected": [1]})
    again.add("reason", {"answer": "New York City"})
    repeat = _run(llm, tmp_path, "Where was the developer of the A-0 System born?", again, None)
    assert repeat.trace[0].result.notes == first.notes  # the same sample and the same communities


def test_fasttog_question_without_entities_is_an_explained_empty_answer(llm: ScriptedLLM, tmp_path: Path) -> None:
    answer = _run(llm, tmp_path, "what is this about?", Script(PHRASES), None)
    assert answer.answer == "" and answer.llm_calls == 0 and len(llm.chat_log()) == 0
    assert answer.notes and "no entity" in answer.notes[0]
