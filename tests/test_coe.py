"""Chain of Explorations: the pure steps on a hand-built graph, and the whole strategy over real HTTP.

The end-to-end runs use the real openai client against tests/llm_server.py (ScriptedLLM); replies
are scripted per prompt (recognised by its system text) in the order the strategy asks, and the
server's request log must equal the calls the Answer reports.
"""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from graph_fakes import HashEmbedder
from llm_server import ScriptedLLM

from kgbuild.config import Config, LLMConfig, QueryConfig
from kgbuild.graph.projection import GraphProjection
from kgbuild.graph.vectors import GraphVectors
from kgbuild.query.coe import SPEC
from kgbuild.query.coe.planner import COULD_NOT_FIND, Exploration, Phase, PlanStep
from kgbuild.query.coe.replies import AnswerReply, EvaluateReply, PlanReply, SelectReply
from kgbuild.query.coe.steps import (
    QualifierIndex,
    incident_relations,
    lookup_mask,
    node_candidates,
    rank_relations,
)
from kgbuild.query.graph_linking import QuestionLinker
from kgbuild.query.retrieval.index import MutualIndex
from kgbuild.query.retrieval.linking import EntityLinker
from kgbuild.query.strategy import Budget
from kgbuild.workspace import Workspace

# ---------------------------------------------------------------- fixtures shared with test_fasttog


def bench_module(name: str) -> Any:
    """A module of bench/ (not a package), imported by name.

    bench/ and tests/ each have a `shared_data` module: a test module that imported tests' first
    (`from shared_data import shared_data_dir`) left it in sys.modules, and a bench script's
    `from shared_data import shared_data` then failed, depending on the order the suite ran in. The
    bench script is imported with bench/ first on the path and its own `shared_data`; tests' is put back."""
    bench = str(Path(__file__).resolve().parents[1] / "bench")
    if bench in sys.path:
        sys.path.remove(bench)
    sys.path.insert(0, bench)
    theirs = sys.modules.get("shared_data")
    if theirs is not None and Path(theirs.__file__ or "").parent != Path(bench):
        del sys.modules["shared_data"]
    else:
        theirs = None
    try:
        return importlib.import_module(name)
    finally:
        if theirs is not None:
            sys.modules["shared_data"] = theirs


def hash_embedder() -> HashEmbedder:
    """512 buckets over lower-case words: cosine is word overlap."""
    return HashEmbedder(512, "hash-words")


CHUNKS = [
    {"id": "c_hop", "doc_id": "Grace_Hopper", "text": "Grace Hopper was born in New York City in 1906 and studied at Yale."},
    {"id": "c_a0", "doc_id": "A-0_System", "text": "The A-0 System was developed by Grace Hopper for the UNIVAC I."},
    {"id": "c_nyc", "doc_id": "New_York_City", "text": "New York City is the largest city in the United States."},
]
ENTITIES = [
    {"id": "hopper", "name": "Grace Hopper", "spg_class": "Person", "chunk_ids": ["c_hop", "c_a0"]},
    {"id": "a0", "name": "A-0 System", "spg_class": "Software", "chunk_ids": ["c_a0"]},
    {"id": "nyc", "name": "New York City", "spg_class": "City", "chunk_ids": ["c_hop", "c_nyc"]},
    {"id": "usa", "name": "United States", "spg_class": "Country", "chunk_ids": ["c_nyc"]},
    {"id": "yale", "name": "Yale University", "spg_class": "Organization", "chunk_ids": ["c_hop"]},
]
RELATIONS = [
    {"id": "r_dev", "subject_id": "a0", "predicate": "developer", "object_id": "hopper", "chunk_ids": ["c_a0"]},
    {"id": "r_born", "subject_id": "hopper", "predicate": "bornIn", "object_id": "nyc", "chunk_ids": ["c_hop"]},
    {"id": "r_in", "subject_id": "nyc", "predicate": "locatedIn", "object_id": "usa", "chunk_ids": ["c_nyc"]},
    {"id": "r_yale", "subject_id": "hopper", "predicate": "studiedAt", "object_id": "yale", "chunk_ids": ["c_hop"]},
]
HYPERNODES = [
    {"id": "h1", "subject_id": "r_born", "subject_kind": "relation", "predicate": "time", "object_id": "t1906",
     "object_name": "1906", "object_kind": "Time"},
]


def hopper_graph() -> GraphProjection:
    return GraphProjection.from_rows(chunks=CHUNKS, entities=ENTITIES, relations=RELATIONS, hypernodes=HYPERNODES)


@dataclass
class Resources:
    """A QueryResources over a hand-built projection, the hash embedder and a scripted model."""

    base_url: str
    root: Path
    rows: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    query: dict[str, Any] = field(default_factory=dict)  # the `query:` section of kgbuild.yaml

    def __post_init__(self) -> None:
        self._projection = GraphProjection.from_rows(**self.rows) if self.rows else hopper_graph()
        self._embedder = hash_embedder()
        self._config = Config(llm=LLMConfig(base_url=self.base_url, model="m", max_retries=0, timeout_s=5.0),
                              query=QueryConfig.model_validate(self.query))

    @property
    def config(self) -> Config:
        return self._config

    @property
    def workspace(self) -> Workspace:
        return Workspace(self.root)

    @property
    def graph(self) -> None:
        return None

    def retriever(self, *, cached_embeddings: bool = True) -> Any:
        raise AssertionError("graph strategies do not use the chunk retriever")

    def embedder(self, *, cached: bool = True) -> HashEmbedder:
        return self._embedder

    def projection(self) -> GraphProjection:
        return self._projection

    def graph_vectors(self) -> GraphVectors:
        return GraphVectors.compute(self._projection, self._embedder)

    def question_linker(self, *, cached_embeddings: bool = True) -> QuestionLinker:
        rows = self.rows or {"chunks": CHUNKS, "entities": ENTITIES, "relations": RELATIONS}
        index = MutualIndex.from_rows(rows["chunks"], rows.get("entities", []), rows.get("relations", []))
        return QuestionLinker(self._projection, index, EntityLinker(index, None, None, "x"), self._embedder)


class Script:
    """Replies per prompt, in the order the strategy asks; a prompt is known by a phrase of its system text."""

    def __init__(self, phrases: dict[str, str]) -> None:
        self.phrases = phrases
        self.queues: dict[str, list[str]] = {name: [] for name in phrases}
        self.asked: list[str] = []
        self.problems: list[str] = []

    def add(self, name: str, *replies: object) -> None:
        self.queues[name].extend(r if isinstance(r, str) else json.dumps(r) for r in replies)

    def __call__(self, body: dict[str, Any]) -> str:
        system = body["messages"][0]["content"]
        name = next((n for n, phrase in self.phrases.items() if phrase in system), None)
        if name is None or not self.queues[name]:
            self.problems.append(f"unexpected call: {name or system[:60]}")
            return '{"error": "script exhausted"}'
        self.asked.append(name)
        return self.queues[name].pop(0)

    def serve(self, llm: ScriptedLLM) -> None:
        llm.reply("", self)


COE_PHRASES = {"plan": "You plan how to find", "nodes": "A lookup step searched", "relations": "follow the relations",
               "evaluate": "You supervise", "answer": "facts explored in a knowledge graph"}


# ---------------------------------------------------------------- the planner state machine


def test_state_machine_runs_a_plan_to_the_answer() -> None:
    s = Exploration()
    assert s.accept_plan([PlanStep("node", "A-0"), PlanStep("relation", "developer")]) is None
    assert s.phase is Phase.EXPLORE and s.next_step() == PlanStep("node", "A-0")
    assert s.record([1], []) is None and s.phase is Phase.EVALUATE
    s.decide("continue")
    assert s.phase is Phase.EXPLORE and s.next_step().text == "developer"
    s.record([0, 0], [5])
    assert s.current == [0] and s.path_edges == [5] and s.path_nodes == [1, 0]
    s.decide("continue")  # nothing left: continue means answer
    assert s.phase is Phase.ANSWER
    assert s.answered(True) is None and s.finished and s.phase is Phase.DONE and s.failures == 0


def test_state_machine_counts_failures_and_gives_up_after_three() -> None:
    s = Exploration(max_failures=3)
    assert "start with a node lookup" in (s.accept_plan([PlanStep("relation", "born in")]) or "")
    assert s.phase is Phase.PLAN and s.failures == 1
    s.accept_plan([PlanStep("node", "x"), PlanStep("relation", "y")])
    assert "dead end at step 1" in (s.record([], []) or "")
    assert s.phase is Phase.PLAN and s.failures == 2
    s.accept_plan([PlanStep("node", "x"), PlanStep("relation", "y")])
    s.record([3], [])
    assert s.decide("replan", "wrong entity") is not None
    assert s.phase is Phase.GIVE_UP and s.finished and len(s.feedback) == 3
    assert s.feedback[0].startswith("try 1:") and "wrong entity" in s.feedback[2]
    with pytest.raises(RuntimeError):
        s.next_step()


def test_a_new_try_starts_from_an_empty_path_and_answer_not_found_is_a_failure() -> None:
    s = Exploration()
    s.accept_plan([PlanStep("node", "x")])
    s.record([4], [7])
    s.decide("answer")
    assert s.phase is Phase.ANSWER
    s.answered(False)
    assert s.phase is Phase.PLAN and s.failures == 1
    s.accept_plan([PlanStep("node", "y")] * 10)
    assert s.path_edges == [] and s.current == [] and len(s.plan) == s.max_steps and s.failures == 1


def test_empty_plan_is_a_failed_try() -> None:
    s = Exploration()
    assert s.accept_plan([]) == "the planner gave no usable steps" and s.failures == 1 and s.phase is Phase.PLAN


# ---------------------------------------------------------------- the steps


def _vectors(p: GraphProjection) -> tuple[GraphVectors, HashEmbedder, QualifierIndex]:
    emb = hash_embedder()
    vectors = GraphVectors.compute(p, emb)
    return vectors, emb, QualifierIndex.build(p, emb, vectors.dim)


def _q(emb: HashEmbedder, text: str) -> np.ndarray:
    return np.asarray(emb.embed([text])[0], np.float32)


def test_incident_relations_both_directions_with_mentions() -> None:
    p = hopper_graph()
    hopper = p.node_pos["hopper"]
    found = {(p.edge_ids[e], p.node_ids[s], p.node_ids[t]) for e, s, t in incident_relations(p, [hopper])}
    assert found == {("r_dev", "hopper", "a0"), ("r_born", "hopper", "nyc"), ("r_yale", "hopper", "yale"),
                     ("c_hop>hopper", "hopper", "c_hop"), ("c_a0>hopper", "hopper", "c_a0")}
    relation_only = p.edge_mask(["relation"])
    assert len(incident_relations(p, [hopper], relation_only)) == 3
    # an edge between two current nodes is listed from each of them
    both = incident_relations(p, [hopper, p.node_pos["nyc"]], relation_only)
    assert sum(1 for e, _, _ in both if p.edge_ids[e] == "r_born") == 2


def test_relation_ranking_prefers_the_step_and_uses_qualifiers() -> None:
    p = hopper_graph()
    vectors, emb, quals = _vectors(p)
    hopper = p.node_pos["hopper"]
    ranked = rank_relations(p, vectors, quals, [hopper], _q(emb, "born in"), 3)
    assert p.edge_ids[ranked[0].edge] == "r_born" and ranked[0].target == p.node_pos["nyc"]
    assert ranked[0].label(p) == "Grace Hopper -> bornIn [time: 1906] -> New York City"
    assert [r.score for r in ranked] == sorted((r.score for r in ranked), reverse=True)
    # against the edge's direction, and a known score: predicate "developer" and target "A-0 System"
    top = rank_relations(p, vectors, quals, [hopper], _q(emb, "developer"), 1)[0]
    assert p.edge_ids[top.edge] == "r_dev" and top.label(p) == "Grace Hopper <- developer <- A-0 System"
    assert top.score == pytest.approx(0.5 * 1.0 + 0.5 * 0.0)
    # the qualifier value counts for what the hop leads to: "1906" picks the birth edge
    assert p.edge_ids[rank_relations(p, vectors, quals, [hopper], _q(emb, "1906"), 1)[0].edge] == "r_born"
    # walked edges and reached nodes are left out
    rest = rank_relations(p, vectors, quals, [hopper], _q(emb, "born in"), 10,
                          exclude_edges=[ranked[0].edge], exclude_nodes=[p.node_pos["a0"]])
    assert {p.edge_ids[r.edge] for r in rest} == {"r_yale", "c_hop>hopper", "c_a0>hopper"}


def test_node_lookup_finds_entities_and_hypernode_values() -> None:
    p = hopper_graph()
    vectors, emb, quals = _vectors(p)
    assert quals.values == ["1906"] and quals.edges == [(p.edge_ids.index("r_born"),)]
    found = node_candidates(p, vectors.nodes, lookup_mask(p), quals, _q(emb, "A-0 System"), 3)
    assert found[0].node == p.node_pos["a0"] and found[0].label == "A-0 System (Software)"
    assert all(c.node is None or p.node_kind[c.node] != "chunk" for c in found)
    hyper = node_candidates(p, vectors.nodes, lookup_mask(p), quals, _q(emb, "1906"), 2)[0]
    assert hyper.node is None and hyper.label.startswith("1906 (qualifies (Grace Hopper, bornIn [time: 1906]")
    assert hyper.reached(p) == [p.node_pos["hopper"], p.node_pos["nyc"]]


def test_replies_are_read_tolerantly() -> None:
    plan = PlanReply.model_validate({"steps": ["node: Grace Hopper", {"type": "hop", "keyword": "born in"}]})
    assert [(s.kind, s.text) for s in plan.steps] == [("node", "Grace Hopper"), ("relation", "born in")]
    assert SelectReply.model_validate({"selected": "1, 3"}).selected == [1, 3]
    assert SelectReply.model_validate({"selected": "none"}).selected == []
    assert SelectReply.model_validate({"selected": [2.0, "4", True]}).selected == [2, 4]
    assert EvaluateReply.model_validate({"decision": "Re-plan"}).decision == "replan"
    assert AnswerReply.model_validate({"found": True, "answer": 1906, "facts": 2}).answer == "1906"



# ---------------------------------------------------------------- end to end over HTTP


@pytest.fixture
def llm() -> Iterator[ScriptedLLM]:
    with ScriptedLLM() as server:
        yield server


def _run(llm: ScriptedLLM, tmp_path: Path, question: str, fill: Callable[[Script], None]) -> tuple[Any, Script]:
    script = Script(COE_PHRASES)
    fill(script)
    script.serve(llm)
    budget = Budget(use_cache=False)
    strategy = SPEC.factory(Resources(llm.base_url, tmp_path), budget)
    try:
        answer = strategy.answer(question, budget)
    finally:
        strategy.close()
    assert script.problems == []
    assert all(not q for q in script.queues.values()), script.queues
    return answer, script


def test_coe_replans_then_answers_from_the_explored_path(llm: ScriptedLLM, tmp_path: Path) -> None:
    def fill(s: Script) -> None:
        s.add("plan", {"steps": [{"kind": "node", "text": "A-0 System"}, {"kind": "relation", "text": "studied at"}]},
              {"steps": [{"kind": "node", "text": "A-0 System"}, {"kind": "relation", "text": "developer"},
                         {"kind": "relation", "text": "born in"}]})
        s.add("nodes", {"selected": [1]}, {"selected": [1]})
        s.add("relations", {"selected": [1]}, {"selected": [1]}, {"selected": ["1"]})
        s.add("evaluate", {"decision": "continue"}, {"decision": "replan", "reason": "a hop to a school"},
              {"decision": "continue"}, {"decision": "continue"}, {"decision": "answer"})
        # a malformed first answer is re-asked once
        s.add("answer", "I think it is New York", {"found": True, "answer": "New York City", "facts": [2],
                                                    "chunk_ids": ["c_hop", "nowhere"]})

    answer, script = _run(llm, tmp_path, "Where was the developer of the A-0 System born?", fill)
    assert script.asked[:5] == ["plan", "nodes", "evaluate", "relations", "evaluate"]
    assert answer.strategy == "coe" and answer.mode == "solver"
    assert answer.answer == "New York City" and answer.resolved
    assert answer.llm_calls == len(llm.chat_log()) == 14  # 5 (first try) + 8 (second) + 1 re-ask
    assert answer.prompt_tokens > 0 and answer.completion_tokens > 0
    assert answer.facts == ["(A-0 System, developer, Grace Hopper)",
                            "(Grace Hopper, bornIn [time: 1906], New York City)"]
    assert 0 < answer.model_seconds < answer.seconds
    assert [t.id for t in answer.triples] == ["r_dev", "r_born"]
    assert answer.chunks and answer.chunks[0].id == "c_hop" and len({c.id for c in answer.chunks}) <= 5
    assert [c.chunk_id for c in answer.citations] == ["c_hop"]
    assert any("not shown" in n for n in answer.notes)
    kinds = [t.question for t in answer.trace]
    assert kinds == ["plan", "lookup", "evaluate", "hop", "evaluate",
                     "plan", "lookup", "evaluate", "hop", "evaluate", "hop", "evaluate", "answer"]
    assert sum(t.llm_calls for t in answer.trace) == answer.llm_calls
    assert answer.trace[4].result.verdict == "replan" and answer.trace[5].result.attempts == 2
    born = answer.trace[10].result
    assert born.bound == {"nodes": ["New York City"]} and born.qualifiers == {"r_born": ["time: 1906"]}
    assert answer.trace[-1].llm_calls == 2 and answer.plan == ["node: A-0 System", "relation: developer",
                                                               "relation: born in"]
    # the second plan's prompt told the model why the first failed
    plans = [r["text"] for r in llm.chat_log() if COE_PHRASES["plan"] in r["text"]]
    assert "try 1: the evaluator asked for a new plan after step 2: a hop to a school" in plans[1]
    # the hop prompt showed the candidates ranked, the birth edge first
    hops = [r["json"]["messages"][-1]["content"] for r in llm.chat_log() if COE_PHRASES["relations"] in r["text"]]
    assert "1. Grace Hopper -> bornIn [time: 1906] -> New York City" in hops[-1]


def test_coe_against_the_first_choice_stand_in(tmp_path: Path) -> None:
    stand_in = bench_module("first_choice_model")
    FirstChoiceModel, nonmodel_ms = stand_in.FirstChoiceModel, stand_in.nonmodel_ms
    coe_nonmodel_ms_per_step = stand_in.coe_nonmodel_ms_per_step

    budget = Budget(use_cache=False)
    with FirstChoiceModel() as model:
        strategy = SPEC.factory(Resources(model.base_url, tmp_path), budget)
        try:
            answer = strategy.answer("Where was the developer of the A-0 System born?", budget)
        finally:
            strategy.close()
        assert answer.llm_calls == model.calls == 8  # plan, 3 x (select, evaluate), answer
    assert answer.plan == ["node: A-0 System", "relation: Where was the developer of the A-0 System born?",
                           "relation: Where was the developer of the A-0 System born?"]
    assert answer.resolved and answer.answer in hopper_graph().node_names
    assert answer.facts and len(answer.facts) == len(answer.triples) == 2
    assert 0 < answer.model_seconds < answer.seconds
    assert nonmodel_ms(answer) > 0 and coe_nonmodel_ms_per_step(answer) == pytest.approx(nonmodel_ms(answer) / 3)


def test_query_coe_in_kgbuild_yaml_reaches_the_strategy(tmp_path: Path) -> None:
    stand_in = bench_module("first_choice_model")
    budget = Budget(use_cache=False)
    with stand_in.FirstChoiceModel() as model:
        strategy = SPEC.factory(Resources(model.base_url, tmp_path, query={"coe": {"max_steps": 1}}), budget)
        try:
            answer = strategy.answer("Where was the developer of the A-0 System born?", budget)
        finally:
            strategy.close()
        # the plan of 3 steps (see the stand-in test above) is cut to 1: plan, select, evaluate, answer
        assert answer.llm_calls == model.calls == 4
    assert answer.plan == ["node: A-0 System"]


def test_coe_dead_ends_and_gives_up_with_the_fixed_reply(llm: ScriptedLLM, tmp_path: Path) -> None:
    def fill(s: Script) -> None:
        s.add("plan", {"steps": [{"kind": "relation", "text": "born in"}]},  # cannot start with a hop
              {"steps": [{"kind": "node", "text": "Ada Lovelace"}, {"kind": "relation", "text": "born in"}]},
              "no plan today", "still no plan")  # malformed twice: no usable plan
        s.add("nodes", {"selected": []})  # none of the candidates: a dead end

    answer, _ = _run(llm, tmp_path, "Where was Ada Lovelace born?", fill)
    assert answer.answer == COULD_NOT_FIND and not answer.resolved
    assert answer.llm_calls == len(llm.chat_log()) == 5
    assert [t.question for t in answer.trace] == ["plan", "plan", "lookup", "plan"]
    assert answer.trace[2].result.error and "dead end at step 1" in answer.trace[2].result.error
    assert answer.trace[3].result.plan == "failed" and answer.trace[3].llm_calls == 2
    assert any(n.startswith("gave up after 3 failed tries") for n in answer.notes)


def test_coe_answer_not_supported_by_the_path_counts_as_a_failure(llm: ScriptedLLM, tmp_path: Path) -> None:
    def fill(s: Script) -> None:
        plan = {"steps": [{"kind": "node", "text": "1906"}]}  # a hypernode: stands on both ends of its triple
        s.add("plan", plan, plan, plan)
        s.add("nodes", *[{"selected": [1]}] * 3)
        s.add("evaluate", *[{"decision": "answer"}] * 3)
        s.add("answer", *[{"found": False, "answer": ""}] * 3)

    answer, _ = _run(llm, tmp_path, "What happened in 1906?", fill)
    assert answer.answer == COULD_NOT_FIND and not answer.resolved
    assert answer.llm_calls == len(llm.chat_log()) == 12
    assert [t.id for t in answer.triples] == ["r_born"]  # what was explored, still shown
    assert answer.trace[1].result.bound == {"nodes": ["Grace Hopper", "New York City"]}
    assert answer.chunks[0].id == "c_hop"
