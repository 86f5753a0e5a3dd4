"""`kgbuild query` on a real build of samples/corpus: embedded ArcadeDB + Milvus Lite, offline
extraction and the bundled embedding model, built once for the module.

Without a model the answer is retrieval only, and its citations name the documents the question's
supporting facts come from. With the scripted server as the model, the solver answers a two-hop
question through the graph: a qualifier of one triple picks the centre Alan Turing joined in 1939,
((Alan Turing, join, Bletchley Park), in, 1939), and the qualifier of the next triple,
((Colossus, arrive at, Bletchley Park), in, January 1944), reaches the judge through the memory.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from llm_server import ScriptedLLM

pytest.importorskip("milvus_lite")

from kgbuild.cli import main
from kgbuild.config import ENV_OVERRIDES
from kgbuild.workspace import Workspace

REPO = Path(__file__).resolve().parents[1]
QUESTIONS = json.loads((REPO / "samples" / "questions.json").read_text(encoding="utf-8"))
TWO_HOP = QUESTIONS[0]  # the year the centre Alan Turing joined in 1939 received its first Colossus
PLAN = """Step 1: Which codebreaking centre did Alan Turing join in 1939?
  Retrieval(s=s1:Person[Alan Turing], p=p1:join, o=o1, p.time = 1939)
Step 2: When did Colossus arrive there?
  Retrieval(s=s2[Colossus], p=p2:arriveAt, o=o1)
  Output(o1, s2)
"""


@pytest.fixture(autouse=True)
def no_model_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ENV_OVERRIDES:
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(scope="module")
def built(samples_project: Path) -> Path:
    """The samples built once for the run with the default stores and no model (tests/conftest.py)."""
    return samples_project


def query(config: Path, *args: str) -> Result:
    result = CliRunner().invoke(main, ["-c", str(config), "query", *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result


def doc_ids_by_title(root: Path) -> dict[str, str]:
    docs = Workspace(root / "ws").read_table("documents", columns=["id", "title"]).to_pylist()
    return {d["title"]: d["id"] for d in docs}


def test_without_a_model_the_retrieval_answer_cites_the_supporting_documents(built: Path) -> None:
    # the bridge question: the EDSAC article names the report, von Neumann's article his birthplace
    question = QUESTIONS[2]
    answer = json.loads(query(built / "kgbuild.yaml", question["question"], "--json").stdout)
    assert answer["mode"] == "retrieval" and answer["answer"] and answer["llm_calls"] == 0
    titles = doc_ids_by_title(built)
    wanted = {titles[title] for title, _ in question["supporting_facts"]}
    assert wanted == {"EDSAC", "people/john_von_neumann"}
    cited = {c["doc_id"] for c in answer["citations"]}
    assert wanted <= cited, cited
    assert all(c["chunk_id"].startswith(c["doc_id"] + "#") and c["text"] for c in answer["citations"])


def judge_or_plan(body: dict[str, Any]) -> str:
    system = body["messages"][0]["content"]
    user = [m["content"] for m in body["messages"] if m["role"] == "user"][-1]
    if system.startswith("You break a question"):
        return json.dumps({"plan": PLAN})
    if system.startswith("You check whether"):
        # resolved only if the graph's triples, with their qualifiers, reached the memory
        if "(Alan Turing, join, Bletchley Park; in 1939)" in user and \
                "(Colossus, arrive at, Bletchley Park; in January 1944)" in user:
            return json.dumps({"resolved": True, "answer": "1944"})
        return json.dumps({"resolved": False, "answer": "", "missing": "the memory lacks the triples"})
    if system.startswith("A question was only partly"):
        return json.dumps({"questions": []})
    if system.startswith("You answer a question using only the facts"):  # frag's one answer call
        return json.dumps({"found": "1944" in user, "answer": "1944" if "1944" in user else ""})
    raise AssertionError(f"unexpected prompt: {system[:60]}")


@pytest.mark.slow
def test_with_a_model_the_solver_answers_a_two_hop_question_through_the_graph(built: Path) -> None:
    with ScriptedLLM() as llm:
        llm.reply("", judge_or_plan)
        config = built / "with_model.yaml"
        config.write_text("workspace: ws\nbuild:\n  workers: 1\n"
                          f"llm:\n  base_url: {llm.base_url}\n  model: m\n  max_retries: 0\n", encoding="utf-8")
        answer = json.loads(query(config, TWO_HOP["question"], "--json").stdout)
        log = llm.chat_log()
        human = query(config, TWO_HOP["question"]).stdout  # the same replies, from the response cache
    assert answer["mode"] == "solver" and answer["resolved"] and answer["answer"] == TWO_HOP["answer"]
    assert answer["llm_calls"] == len(log) == 2  # plan and judge: both hops came from the graph
    assert answer["plan"] == [PLAN]
    steps = [t for t in answer["trace"] if t["logical_form"].lstrip().startswith("Retrieval")]
    assert [t["result"]["how"] for t in steps] == ["graph", "graph"]
    assert steps[0]["result"]["bound"]["o1"] == ["Bletchley Park"]
    assert "p.time = 1939 matched through qualifier(s) (in, 1939)" in steps[0]["result"]["notes"]
    assert list(steps[1]["result"]["qualifiers"].values()) == [["in January 1944"]]
    triples = {(t["subject"], t["predicate"], t["object"]): t for t in answer["triples"]}
    join = triples[("Alan Turing", "join", "Bletchley Park")]
    arrive = triples[("Colossus", "arrive at", "Bletchley Park")]
    # citations: exactly the chunks the two triples were extracted from, from the two documents
    assert join["chunk_ids"] == ["people/alan_turing#p00002#0"]
    assert arrive["chunk_ids"] == ["machines/colossus#p00002#0"]
    cited = [c["chunk_id"] for c in answer["citations"]]
    assert cited[:2] == join["chunk_ids"] + arrive["chunk_ids"]
    by_id = {c["chunk_id"]: c for c in answer["citations"]}
    assert by_id["machines/colossus#p00002#0"]["doc_id"] == "machines/colossus"
    assert "1944" in by_id["machines/colossus#p00002#0"]["text"]
    assert "1939" in by_id["people/alan_turing#p00002#0"]["text"]
    for text in ("1944", "plan 1", "trace", "Retrieval(s=s1:Person[Alan Turing]", "triples", "citations",
                 "machines/colossus#p00002#0"):
        assert text in human, text


@pytest.mark.slow
def test_eval_measures_the_solver_next_to_retrieval(built: Path) -> None:
    # the same two-hop question, `kgbuild eval` with a model: the solver is a mode of its own, with
    # EM/F1, model calls, tokens and latency taken from this run (no reply cache)
    qa = built / "one_question.json"
    qa.write_text(json.dumps([TWO_HOP]), encoding="utf-8")
    with ScriptedLLM() as llm:
        llm.reply("", judge_or_plan)
        config = built / "eval_model.yaml"
        config.write_text("workspace: ws\nbuild:\n  workers: 1\n"
                          f"llm:\n  base_url: {llm.base_url}\n  model: m\n  max_retries: 0\n", encoding="utf-8")
        runner = CliRunner()
        result = runner.invoke(main, ["-c", str(config), "eval", str(qa), "--json"], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        table = runner.invoke(main, ["-c", str(config), "eval", str(qa), "--modes", "hybrid,solver"],
                              catch_exceptions=False)
        log = llm.chat_log()
    report = json.loads(result.stdout)
    # solver: a model is set; subgraphrag is left out (no trained scorer), coe and fasttog run only when named
    assert [m["mode"] for m in report["modes"]] == ["bm25", "dense", "hybrid", "frag", "solver"]
    solver = report["modes"][4]
    assert (solver["em"], solver["f1"], solver["errors"]) == (1.0, 1.0, 0)
    assert solver["llm_calls_per_question"] == 2  # plan and judge, both sent: eval does not use the reply cache
    assert report["modes"][3]["llm_calls_per_question"] == 1  # frag: retrieval without a model, one answer call
    assert len(log) == 5  # the first eval: frag 1 + solver 2; the second: solver 2
    sent = [r for r in log[:3] if "You answer a question using only the facts" not in r["text"]]
    assert solver["prompt_tokens_per_question"] == sum(r["usage"]["prompt_tokens"] for r in sent)
    assert solver["completion_tokens_per_question"] == sum(r["usage"]["completion_tokens"] for r in sent)
    assert solver["p50_ms"] > 0
    (row,) = [r for r in report["results"] if r["mode"] == "solver"]
    assert row["answer"] == "1944" and row["llm_calls"] == 2 and row["tokens"] > 0
    assert all(m["llm_calls_per_question"] == 0 for m in report["modes"][:3])
    assert table.exit_code == 0 and "solver" in table.stdout and "tokens/q" in table.stdout


@pytest.mark.slow
def test_the_python_api_opens_the_project_and_answers_with_every_strategy(built: Path) -> None:
    """kgbuild.open: the same engine the CLI uses, on the real stores of the build."""
    import kgbuild
    from kgbuild.errors import ConfigError
    from kgbuild.query.evaluate import read_qa
    from kgbuild.query.strategy import Budget, StrategySpec

    question = QUESTIONS[2]
    with kgbuild.open(built) as engine:
        assert [s.name for s in engine.strategies()] == ["bm25", "dense", "hybrid", "frag", "subgraphrag", "solver",
                                                         "coe", "fasttog"]
        found = engine.retrieve(question["question"], 5)
        assert len(found.chunks) == 5 and found.entities and found.seconds > 0
        titles = doc_ids_by_title(built)
        wanted = {titles[title] for title, _ in question["supporting_facts"]}
        for name in ("bm25", "dense", "hybrid"):
            answer = engine.query(question["question"], strategy=name, k=5)
            assert answer.strategy == name and answer.mode == "retrieval" and answer.llm_calls == 0
            assert answer.chunks and all(c.id.startswith(c.doc_id + "#") for c in answer.chunks)
        assert wanted <= {c.doc_id for c in engine.query(question["question"], k=5).chunks}  # auto: hybrid
        with pytest.raises(ConfigError, match="strategy solver needs a model"):
            engine.query("Who?", strategy="solver")

        # a strategy registered on this engine only, over the engine's own retriever
        class FirstChunk:
            def __init__(self, engine: Any) -> None:
                self.retriever = engine.retriever()
                self.closed = False

            def answer(self, q: str, budget: Budget) -> Any:
                from kgbuild.query.types import Answer

                top = self.retriever.retrieve(q, budget.k, mode="dense").chunks
                return Answer(question=q, answer=top[0].doc_id, resolved=False, mode="retrieval", chunks=top)

            def close(self) -> None:
                self.closed = True

        made: list[FirstChunk] = []
        engine.register(StrategySpec("first", "the top dense chunk's document", False,
                                     lambda res, budget: made.append(FirstChunk(res)) or made[-1]))
        assert engine.query(question["question"], strategy="first").strategy == "first"
        report = engine.eval(read_qa(REPO / "samples" / "questions.json"), ["hybrid", "first"])
        assert [m.mode for m in report.modes] == ["hybrid", "first"] and report.questions == len(QUESTIONS)
        assert report.mode("hybrid").recall_at(5) > 0.5
    assert made and all(s.closed for s in made)  # the engine closed every strategy it created
    assert kgbuild.open(built).close() is None  # a second engine opens the same stores after the first closed
