"""Each operator and the variables between steps, on a small graph in a real embedded ArcadeDB."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from llm_server import ScriptedLLM
from solve_graph import GraphRetriever, build_graph

from kgbuild.config import LLMConfig
from kgbuild.llm.gateway import LLMGateway
from kgbuild.llm.prompts import PromptLibrary
from kgbuild.solve.executor import Executor
from kgbuild.solve.graph_view import GraphView
from kgbuild.solve.logic import parse_plan
from kgbuild.solve.state import ExecState
from kgbuild.store.arcade import ArcadeGraphStore


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ArcadeGraphStore]:
    graph = build_graph(tmp_path_factory.mktemp("executor") / "graph")
    yield graph
    graph.close()


@pytest.fixture()
def llm() -> Iterator[ScriptedLLM]:
    with ScriptedLLM() as server:
        yield server


@pytest.fixture()
def view(store: ArcadeGraphStore) -> GraphView:
    return GraphView(store)


def run(view: GraphView, llm: ScriptedLLM, plan_text: str, question: str = "") -> tuple[ExecState, GraphRetriever]:
    retriever = GraphRetriever(view)
    gateway = LLMGateway(LLMConfig(base_url=llm.base_url, model="m", max_retries=0), cache_path=None)
    executor = Executor(gateway, retriever, view, PromptLibrary("en"), k=3)

    async def go() -> ExecState:
        async with gateway:
            return await executor.run(parse_plan(plan_text), question)

    return asyncio.run(go()), retriever


def names(state: ExecState, var: str) -> list[str]:
    return [v.text for v in state.bindings[var]]


# ---------------------------------------------------------------- GraphView


def test_graph_view_finds_by_name_alias_and_class(view: GraphView) -> None:
    assert [n.id for n in view.find_entities("michael  CURTIZ")] == ["curtiz"]
    assert [n.id for n in view.find_entities("Mihály Kertész")] == ["curtiz"]
    assert [n.kind for n in view.find_entities("film director")] == ["Concept"]
    assert view.find_entities("Nobody") == []


def test_graph_view_concepts_and_types(view: GraphView) -> None:
    curtiz, casablanca = view.nodes(["curtiz"])[0], view.nodes(["casablanca"])[0]
    # Person by class; Director and Person through belongTo film director -isA-> person; not Film
    assert view.conforms([curtiz, casablanca], "Person") == [curtiz]
    assert view.conforms([curtiz, casablanca], "Directors") == [curtiz]
    assert view.conforms([curtiz], "film director") == [curtiz]
    assert view.conforms([curtiz], "Film") == []
    assert sorted(view.concepts_of(["curtiz"])["curtiz"]) == ["film director", "person"]
    assert [n.name for n in view.ancestors(["k_director"])] == ["person"]
    assert [n.name for n in view.descendants(["k_person"])] == ["film director"]
    assert sorted(n.id for n in view.members(["k_person"])) == ["curtiz", "hawks"]


def test_graph_view_predicates_are_matched_loosely_and_safely(view: GraphView) -> None:
    assert {e.object.id for e in view.edges(subjects=["curtiz"], predicates=["Directed"])} == {"casablanca", "yankee", "mildred"}
    assert [e.id for e in view.edges(objects=["hawks"], predicates=["directedBy"])] == ["r4"]  # "directed by"
    assert view.close_predicates("direct", ["directed by", "starring", "belongTo"]) == ["directed by"]
    assert view.close_predicates("releaseDate", ["release date", "starring"]) == ["release date"]
    assert view.close_predicates("isA", ["isA", "is a"]) == ["isA", "is a"]
    # Text that would break a statement is only ever a parameter value.
    hostile = "x') DETACH DELETE n //"
    assert view.find_entities(hostile) == [] and view.edges(predicates=[hostile]) == []
    assert view.nodes(["curtiz"])  # still there
    chains = view.paths(["curtiz"], ["bogart"])
    assert chains and [e.id for e in chains[0]] == ["r1", "r9"]
    assert view.supporting_chunks(["casablanca"]) == {"casablanca": ["films#0#0"]}
    assert [c.doc_id for c in view.chunks(["hawks#0#0"])] == ["hawks"]


# ---------------------------------------------------------------- operators


def test_retrieval_binds_variables_used_by_later_steps(view: GraphView, llm: ScriptedLLM) -> None:
    state, _ = run(view, llm, """
Step 1: Which films did Michael Curtiz direct?
  Retrieval(s=s1:Person[Michael Curtiz], p=p1:directed, o=o1:Film)
Step 2: When was each released, and which came first?
  Retrieval(s=o1, p=p2:releaseDate, o=o2:Date)
  Sort(set=o1, by=o2, direction=asc, limit=1) -> o3
  Sort(set=o1, by=o2, direction=desc) -> o4
  Math(round(max(o2) - min(o2))) -> m1
  Output(o3, m1)
""")
    assert names(state, "s1") == ["Michael Curtiz"]
    assert sorted(names(state, "o1")) == ["Casablanca", "Mildred Pierce", "Yankee Doodle Dandy"]
    assert names(state, "p2") == ["release date"]  # the graph's spelling, matched case/space-insensitively
    assert names(state, "o3") == ["Yankee Doodle Dandy"]
    assert names(state, "o4") == ["Mildred Pierce", "Casablanca", "Yankee Doodle Dandy"]
    assert names(state, "m1") == ["3"]
    assert [v.text for v in state.outputs["o3"]] == ["Yankee Doodle Dandy"]
    # provenance: chunks supporting both ends of each triple
    by_id = {t.id: t for t in state.triples}
    assert by_id["r1"].chunk_ids == ["films#0#0"] and by_id["r6"].chunk_ids == ["films#0#1"]
    # the trace: one record per operator, printed logical forms, no model calls
    assert [t.logical_form.split("(")[0] for t in state.trace] == ["Retrieval", "Retrieval", "Sort", "Sort", "Math", "Output"]
    assert state.trace[0].logical_form == "Retrieval(s=s1:Person[Michael Curtiz], p=p1:directed, o=o1:Film)"
    assert state.trace[0].result["how"] == "graph" and state.trace[0].question == "Which films did Michael Curtiz direct?"
    assert all(t.llm_calls == 0 for t in state.trace) and llm.calls() == 0
    assert sorted(state.answers[0].answer.split("; ")) == ["Casablanca", "Mildred Pierce", "Yankee Doodle Dandy"]
    assert state.answers[1].answer == "Yankee Doodle Dandy; 3"  # what Output names
    assert {t.id for t in state.answers[1].triples} == {"r5", "r6", "r7"}


def test_reversed_and_fuzzy_predicates_and_concept_types(view: GraphView, llm: ScriptedLLM) -> None:
    state, _ = run(view, llm, """
Retrieval(s=s1:Director[Howard Hawks], p=p1:directed, o=o1:Film)
Retrieval(s=s2:Person[film director], p=p2:directed, o=o2:Film, o.name ~ "cas")
Output(o1, o2)
""")
    # stored as (The Big Sleep, directed by, Howard Hawks): found the other way round, turned back
    assert names(state, "o1") == ["The Big Sleep"] and names(state, "s1") == ["Howard Hawks"]
    assert state.trace[0].result["how"] == "graph:fuzzy"
    assert any("directed by" in n for n in state.trace[0].result["notes"])
    # a concept mention stands for its members; the constraint keeps one film
    assert names(state, "o2") == ["Casablanca"] and names(state, "s2") == ["Michael Curtiz"]
    assert any("concept" in n for n in state.trace[1].result["notes"])


def test_multi_hop_path_when_no_predicate_matches(view: GraphView, llm: ScriptedLLM) -> None:
    state, _ = run(view, llm, "Retrieval(s=s1:Person[Michael Curtiz], p=p1:workedWith, o=o1:Person[Humphrey Bogart])")
    assert state.trace[0].result["how"] == "graph:path"
    assert {t.id for t in state.triples} == {"r1", "r9"}
    assert sorted(names(state, "p1")) == ["directed", "starring"]


def test_graph_without_answer_falls_back_to_chunks_and_the_model(view: GraphView, llm: ScriptedLLM) -> None:
    llm.reply("Where was Michael Curtiz born?",
              json.dumps({"found": True, "answers": ["Budapest"], "chunk_ids": ["curtiz#0#0", "made-up#1"]}))
    state, retriever = run(view, llm, """
Step 1: Where was Michael Curtiz born?
  Retrieval(s=s1:Person[Michael Curtiz], p=p1:bornIn, o=o1:Place)
  Output(o1)
""")
    assert names(state, "o1") == ["Budapest"]
    assert state.trace[0].result["how"] == "chunks" and state.trace[0].llm_calls == 1
    assert retriever.retrieved == [("Where was Michael Curtiz born?", ["curtiz"])]  # seeded with the linked entity
    assert "curtiz#0#0" in [c.id for c in state.chunks]
    assert state.cited_chunks == ["curtiz#0#0"]  # ids the model made up are not cited
    sent = llm.chat_log()[0]["json"]["messages"][-1]["content"]
    assert "Budapest in 1886" in sent  # the passages went to the model


def test_unanswerable_from_chunks_leaves_the_variable_empty(view: GraphView, llm: ScriptedLLM) -> None:
    llm.reply("spouse", json.dumps({"found": False, "answers": []}))
    state, _ = run(view, llm, "Step 1: Who was Michael Curtiz's spouse?\n"
                              "  Retrieval(s=s1:Person[Michael Curtiz], p=p1:spouse, o=o1:Person)")
    assert state.bindings.get("o1", []) == [] and "do not answer" in state.trace[0].result["notes"][0]


def test_deduce_comparisons_are_deterministic(view: GraphView, llm: ScriptedLLM) -> None:
    state, _ = run(view, llm, """
Retrieval(s=s1:Film[Casablanca], p=p1:releaseDate, o=o1)
Retrieval(s=s2:Film[The Big Sleep], p=p2:releaseDate, o=o2)
Deduce(op=less, left=o1, right=o2) -> d1
Deduce(op=greater, left=o1, right=1950) -> d2
Deduce(op=equal, left=s1, right=s1) -> d3
Retrieval(s=s3:Film[Casablanca], p=p3:starring, o=o3)
Retrieval(s=s4:Film[The Big Sleep], p=p4:starring, o=o4)
Deduce(op=equal, left=o3, right=o4) -> d4
Output(d1, d2, d3, d4)
""")
    assert [names(state, d) for d in ("d1", "d2", "d3", "d4")] == [["true"], ["false"], ["true"], ["true"]]
    assert llm.calls() == 0 and all(t.result.get("decided_by") in (None, "kgbuild") for t in state.trace)


def test_deduce_choice_entailment_judgement_ask_the_model(view: GraphView, llm: ScriptedLLM) -> None:
    llm.reply("Operator: choice", json.dumps({"result": "Casablanca", "reason": "starring Bogart"}))
    llm.reply("Operator: judgement", json.dumps({"result": "true"}))
    llm.reply("Operator: entailment", "not json")
    state, _ = run(view, llm, """
Step 1: Which Curtiz film starred Humphrey Bogart?
  Retrieval(s=s1:Person[Michael Curtiz], p=p1:directed, o=o1:Film)
  Deduce(op=choice, options=o1, question="starred Humphrey Bogart") -> c1
  Deduce(op=judgement, statement="Curtiz directed musicals", on=[o1]) -> j1
  Deduce(op=entailment, premise=c1, hypothesis="Casablanca is a film") -> e1
""")
    assert names(state, "c1") == ["Casablanca"] and names(state, "j1") == ["true"]
    assert names(state, "e1") == ["unknown"]  # an unusable reply reads as "don't know"
    assert [t.llm_calls for t in state.trace] == [0, 1, 1, 1]
    choice = json.loads(llm.chat_log()[0]["json"]["messages"][-1]["content"].split("Arguments: ")[1].split("\n")[0])
    assert sorted(choice["options"]) == ["Casablanca", "Mildred Pierce", "Yankee Doodle Dandy"]
    assert "(Michael Curtiz, directed, Casablanca)" in llm.chat_log()[0]["json"]["messages"][-1]["content"]


def test_a_failing_step_is_traced_and_the_plan_goes_on(view: GraphView, llm: ScriptedLLM) -> None:
    state, _ = run(view, llm, """
Retrieval(s=s1:Person[Michael Curtiz], p=p1:directed, o=o1:Film)
Math(o1 * 2) -> m1
Math(len(o1) ** 2) -> m2
Output(m2)
""")
    assert "error" in state.trace[1].result and state.bindings["m1"] == []
    assert "one number is needed" in state.trace[1].result["error"]
    assert names(state, "m2") == ["9"]  # films are not numbers, but len counts them
    assert state.outputs["m2"][0].text == "9"
