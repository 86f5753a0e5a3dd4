"""Each operator and the variables between steps, on a small graph in a real embedded ArcadeDB (and
one plan over Bolt, against a real ArcadeDB server)."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from arcade_server import arcadedb_bolt_server
from llm_server import ScriptedLLM
from solve_graph import GraphRetriever, build_graph, write_graph

from kgbuild.config import GraphStoreConfig, LLMConfig
from kgbuild.errors import StoreError
from kgbuild.llm.gateway import LLMGateway
from kgbuild.llm.prompts import PromptLibrary
from kgbuild.query.solver.executor import Executor
from kgbuild.query.solver.graph_view import (
    NODE_LABELS,
    NODES_BY_ID,
    RELATION_ENDS,
    GraphView,
    group_by_label,
    labels_for,
)
from kgbuild.query.solver.logic import parse_plan
from kgbuild.query.solver.state import ExecState
from kgbuild.store.arcade import ArcadeGraphStore
from kgbuild.store.neo4j_store import Neo4jGraphStore


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
    directed = view.edges(subjects=["curtiz"], predicates=["Directed"])
    assert {e.object.id for e in directed} == {"casablanca", "yankee", "mildred"}
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
    assert view.supporting_chunks(["casablanca"]) == {"casablanca": ["bogart#0#0", "films#0#0"]}
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
    assert [t.logical_form.split("(")[0] for t in state.trace] == ["Retrieval", "Retrieval", "Sort", "Sort", "Math",
                                                                    "Output"]
    assert state.trace[0].logical_form == "Retrieval(s=s1:Person[Michael Curtiz], p=p1:directed, o=o1:Film)"
    assert state.trace[0].result.how == "graph" and state.trace[0].question == "Which films did Michael Curtiz direct?"
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
    assert state.trace[0].result.how == "graph:fuzzy"
    assert any("directed by" in n for n in state.trace[0].result.notes)
    # a concept mention stands for its members; the constraint keeps one film
    assert names(state, "o2") == ["Casablanca"] and names(state, "s2") == ["Michael Curtiz"]
    assert any("concept" in n for n in state.trace[1].result.notes)


def test_multi_hop_path_when_no_predicate_matches(view: GraphView, llm: ScriptedLLM) -> None:
    state, _ = run(view, llm, "Retrieval(s=s1:Person[Michael Curtiz], p=p1:workedWith, o=o1:Person[Humphrey Bogart])")
    assert state.trace[0].result.how == "graph:path"
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
    assert state.trace[0].result.how == "chunks" and state.trace[0].llm_calls == 1
    assert retriever.retrieved == [("Where was Michael Curtiz born?", ["curtiz"])]  # seeded with the linked entity
    assert "curtiz#0#0" in [c.id for c in state.chunks]
    assert state.cited_chunks == ["curtiz#0#0"]  # ids the model made up are not cited
    sent = llm.chat_log()[0]["json"]["messages"][-1]["content"]
    assert "Budapest in 1886" in sent  # the passages went to the model


def test_unanswerable_from_chunks_leaves_the_variable_empty(view: GraphView, llm: ScriptedLLM) -> None:
    llm.reply("spouse", json.dumps({"found": False, "answers": []}))
    state, _ = run(view, llm, "Step 1: Who was Michael Curtiz's spouse?\n"
                              "  Retrieval(s=s1:Person[Michael Curtiz], p=p1:spouse, o=o1:Person)")
    assert state.bindings.get("o1", []) == [] and "do not answer" in state.trace[0].result.notes[0]


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
    assert llm.calls() == 0 and all(t.result.decided_by in (None, "kgbuild") for t in state.trace)


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
    # an unusable reply is re-asked once with the error, then reads as "don't know"
    assert names(state, "e1") == ["unknown"]
    assert [t.llm_calls for t in state.trace] == [0, 1, 1, 2]
    assert "no JSON object in the reply" in llm.chat_log()[3]["json"]["messages"][-1]["content"]
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
    assert state.trace[1].result.error and state.bindings["m1"] == []
    assert "one number is needed" in state.trace[1].result.error
    assert names(state, "m2") == ["9"]  # films are not numbers, but len counts them
    assert state.outputs["m2"][0].text == "9"


# ---------------------------------------------------------------- provenance, qualifiers, index use


def test_triple_citations_are_the_relationships_own_chunks(view: GraphView, llm: ScriptedLLM) -> None:
    assert [e.chunk_ids for e in view.edges(subjects=["casablanca"], predicates=["starring"])] == [["films#0#0"]]
    assert [e.chunk_ids for e in view.edges(subjects=["casablanca"], predicates=["release date"])] == [None]
    state, _ = run(view, llm, """
Retrieval(s=s1:Film[Casablanca], p=p1:starring, o=o1)
Retrieval(s=s1, p=p2:releaseDate, o=o2)
Retrieval(s=s3:Person[Michael Curtiz], p=p3:workedWith, o=o1)
""")
    by_id = {t.id: t for t in state.triples}
    # Casablanca and Bogart share bogart#0#0 too, but only films#0#0 states (Casablanca, starring, Bogart)
    assert by_id["r9"].chunk_ids == ["films#0#0"]
    assert by_id["r5"].chunk_ids == ["films#0#0"]  # no chunk_ids stored: the chunks supporting both ends
    assert state.trace[2].result.how == "graph:path" and by_id["r1"].chunk_ids == ["films#0#0"]  # paths too


def test_qualifiers_of_triples_answer_constraints(view: GraphView, llm: ScriptedLLM) -> None:
    # ((Humphrey Bogart, joined, Warner Bros.), in, 1936) and ((Bette Davis, joined, Warner Bros.), in, 1932)
    llm.reply("", json.dumps({"found": False, "answers": []}))  # the text fallback of the last retrieval
    state, _ = run(view, llm, """
Step 1: Who joined Warner Bros. in 1936?
  Retrieval(s=s1:Person, p=p1:joined, o=o1:Organization[Warner Bros.], time = 1936)
Step 2: Who had joined it before 1935?
  Retrieval(s=s2:Person, p=p2:joined, o=o2:Organization[Warner Brothers], p.in < 1935)
Step 3: Whom did Humphrey Bogart play in Casablanca?
  Retrieval(s=s3:Film[Casablanca], p=p3:starring, o=o3, p.role ~ "rick")
  Retrieval(s=s4:Film[Casablanca], p=p4:starring, o=o4, p.role = "Ilsa Lund")
  Retrieval(s=s5:Person, p=p5:joined, o=o5[Warner Bros.])
  Retrieval(s=s6:Person[Bette Davis], p=p6:joined, o=o6, p.place = "Burbank")
""")
    assert names(state, "s1") == ["Humphrey Bogart"] and names(state, "s2") == ["Bette Davis"]
    assert state.trace[0].logical_form.endswith("p.time = 1936)")
    assert "p.time = 1936 matched through qualifier(s) (in, 1936)" in state.trace[0].result.notes
    assert "p.in < 1935 matched through qualifier(s) (in, 1932)" in state.trace[1].result.notes
    # a HyperNode without relation_id qualifies the triple between its two ends
    assert names(state, "o3") == ["Humphrey Bogart"] and state.bindings.get("o4", []) == []
    assert sorted(names(state, "s5")) == ["Bette Davis", "Humphrey Bogart"]  # no constraint, no filter
    # the qualifiers travel with the triples: in the trace, and in the memory the model reads
    assert state.trace[4].result.qualifiers == {"rel_j1": ["in 1936"], "rel_j2": ["in 1932"]}
    texts_of = {t.id: state.triple_text(t) for t in state.triples}
    assert texts_of["rel_j1"] == "(Humphrey Bogart, joined, Warner Bros.; in 1936)"
    assert texts_of["r9"] == "(Casablanca, starring, Humphrey Bogart; role Rick Blaine)"
    # a time qualifier is not a place: the graph has no answer, the text fallback neither
    assert state.bindings.get("o6", []) == [] and state.trace[5].result.how == "chunks"
    assert state.trace[3].result.how == "chunks" and llm.calls() == 2  # Ilsa Lund: not in the graph either
    # QUALIFIER relationships carry a predicate but are not triples of their own
    assert view.edges(objects=["ent_1936"]) == [] and view.predicates_near(["ent_1936"], "in") == []
    assert view.paths(["bogart"], ["ent_1936"]) == []
    assert [q.value.name for q in view.qualifiers(view.edges(subjects=["ent_davis"]))["rel_j2"]] == ["1932"]


def test_ids_are_looked_up_under_the_label_their_prefix_names() -> None:
    assert labels_for("ent_ab12") == ("Entity",) and labels_for("con_1") == ("Concept",)
    assert labels_for("evt_1") == ("Event",) and labels_for("hyp_1") == ("HyperNode",)
    assert labels_for("doc#00001#0") == ("Chunk",) and labels_for("rel_1") == ()
    assert labels_for("curtiz") == NODE_LABELS  # says nothing: every label
    assert labels_for("doc#00001#0", RELATION_ENDS) == ()  # a chunk is no end of a relation
    assert group_by_label(["ent_a", "curtiz", "ent_b", "ent_a", "x#1#0"], ("Entity", "Chunk")) == {
        "Entity": ["ent_a", "curtiz", "ent_b"], "Chunk": ["curtiz", "x#1#0"]}


class RecordingStore:
    """A graph store that remembers every statement the solver sends."""

    def __init__(self, store: ArcadeGraphStore) -> None:
        self.store = store
        self.sent: list[tuple[str, dict]] = []

    def query(self, statement: str, params: dict | None = None) -> list[dict]:
        self.sent.append((statement, dict(params or {})))
        return self.store.query(statement, params)


_ID_LOOKUP = re.compile(r"(\w+)\.id IN \$\w+")


def test_every_lookup_by_id_starts_from_a_labelled_index_seek(store: ArcadeGraphStore, llm: ScriptedLLM) -> None:
    recorder = RecordingStore(store)
    view = GraphView(recorder)  # type: ignore[arg-type]
    llm.reply("", json.dumps({"found": False, "answers": []}))
    run(view, llm, """
Retrieval(s=s1:Person[Michael Curtiz], p=p1:directed, o=o1:Film)
Retrieval(s=o1, p=p2:releaseDate, o=o2:Date)
Retrieval(s=s3:Director[Howard Hawks], p=p3:directed, o=o3:Film)
Retrieval(s=s4:Person[film director], p=p4:directed, o=o4, o.name ~ "cas")
Retrieval(s=s5:Person[Michael Curtiz], p=p5:workedWith, o=o5:Person[Humphrey Bogart])
Retrieval(s=s6:Person, p=p6:joined, o=o6[Warner Bros.], time = 1936)
Retrieval(s=s7:Person[Michael Curtiz], p=p7:bornIn, o=o7)
""")
    view.chunks(["films#0#0"])
    lookups = [(st, p) for st, p in recorder.sent if _ID_LOOKUP.search(st)]
    assert len(lookups) > 20
    labelled = re.compile(r"MATCH \((\w+):(?:Entity|Concept|Event|HyperNode|Chunk)\) WHERE \1\.id IN \$\w+")
    for statement, params in lookups:
        # statically: each `x.id IN $ids` is the WHERE of a labelled MATCH of x alone
        assert len(_ID_LOOKUP.findall(statement)) == len(labelled.findall(statement)), statement
        # and by the database's own planner: no id filter over nodes of every label
        plan = store.query("EXPLAIN " + statement, params)[0]["executionPlanAsString"]
        assert not re.search(r"MATCH NODE \((\w+)\) \[filter: \1\.id IN", plan), (statement, plan)
    seek = store.query("EXPLAIN " + NODES_BY_ID["Entity"], {"ids": ["curtiz"]})[0]["executionPlanAsString"]
    assert "NodeIndexSeek(n:Entity) [index=Entity[id]" in seek


@pytest.fixture(scope="module")
def bolt_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Neo4jGraphStore]:
    with arcadedb_bolt_server(tmp_path_factory.mktemp("arcadedb")) as server:
        cfg = GraphStoreConfig(backend="neo4j", uri=server.uri, user=server.user, password=server.password,
                               database=server.database)
        graph = Neo4jGraphStore(cfg)
        write_graph(graph)
        yield graph
        graph.close()


@pytest.mark.server
def test_a_plan_runs_over_bolt_like_in_process(bolt_store: Neo4jGraphStore, llm: ScriptedLLM) -> None:
    state, _ = run(GraphView(bolt_store), llm, """
Step 1: Which films did Michael Curtiz direct, and which came first?
  Retrieval(s=s1:Person[Michael Curtiz], p=p1:directed, o=o1:Film)
  Retrieval(s=o1, p=p2:releaseDate, o=o2:Date)
  Sort(set=o1, by=o2, direction=asc, limit=1) -> o3
Step 2: Who joined Warner Bros. in 1936, and who directed The Big Sleep?
  Retrieval(s=s4:Person, p=p4:joined, o=o4[Warner Bros.], time = 1936)
  Retrieval(s=s5:Person[Howard Hawks], p=p5:directed, o=o5:Film)
  Retrieval(s=s6:Person[Michael Curtiz], p=p6:workedWith, o=o6:Person[Humphrey Bogart])
  Output(o3, s4, o5)
""")
    assert names(state, "o3") == ["Yankee Doodle Dandy"] and names(state, "s4") == ["Humphrey Bogart"]
    assert names(state, "o5") == ["The Big Sleep"] and state.trace[4].result.how == "graph:fuzzy"
    assert state.trace[5].result.how == "graph:path"
    by_id = {t.id: t for t in state.triples}
    assert by_id["r1"].chunk_ids == ["films#0#0"] and by_id["r6"].chunk_ids == ["films#0#1"]
    assert by_id["rel_j1"].chunk_ids == ["bogart#0#0"] and llm.calls() == 0


class NamesakesStore:
    """A store that answers a name lookup with many namesakes, the one wanted last."""

    def __init__(self, count: int) -> None:
        self.count = count

    def query(self, statement: str, params: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        if "toLower(n.name) = $name" not in statement or ":Entity" not in statement:
            return []
        rows = [{"id": f"ent_film{i}", "name": "Casablanca", "spg_class": "Film", "labels": ["Entity", "Film"]}
                for i in range(self.count - 1)]
        rows.append({"id": "ent_city", "name": "Casablanca", "spg_class": "City", "labels": ["Entity", "City"]})
        return rows[: (params or {}).get("limit", len(rows))]


def test_the_type_filter_comes_before_the_limit() -> None:
    view = GraphView(NamesakesStore(30))  # type: ignore[arg-type]
    assert [n.id for n in view.find_entities("Casablanca", "City", limit=5)] == ["ent_city"]
    assert [n.id for n in view.find_entities("Casablanca", "cities", limit=5)] == ["ent_city"]
    assert len(view.find_entities("Casablanca", limit=5)) == 5


class NoQuantifiedPaths:
    """A store that rejects quantified path patterns like Neo4j before 5.9, recording what it ran."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.sent = inner, []

    def query(self, statement: str, params: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        self.sent.append(statement)
        if "(()-[e]-()" in statement:
            raise StoreError("neo4j", "Invalid input '(': expected a relationship pattern")
        return self.inner.query(statement, params)


def test_paths_filter_inside_the_pattern_and_fall_back_to_two_hops(store: ArcadeGraphStore) -> None:
    view = GraphView(store)
    chains = view.paths(["curtiz"], ["bogart"], max_hops=4)
    old = NoQuantifiedPaths(store)
    fallback = GraphView(old)  # type: ignore[arg-type]
    assert [[e.id for e in c] for c in fallback.paths(["curtiz"], ["bogart"], max_hops=4)] == \
        [[e.id for e in c] for c in chains if len(c) <= 2]
    assert fallback.filtered_paths and any("[*1..2]" in st for st in old.sent)
    fallback.paths(["curtiz"], ["bogart"], max_hops=4)
    assert sum("(()-[e]-()" in st for st in old.sent) == 1  # asked once, remembered
    # no structural relationship in any chain, though chunks and concepts join the two ends
    assert chains and all(e.predicate for c in chains for e in c)
