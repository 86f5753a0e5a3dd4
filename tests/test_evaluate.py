"""QA readers, metrics on hand-computed examples, and a run over fake answer functions."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from kgbuild.cli.eval import parse_strategies, print_report
from kgbuild.config import Config
from kgbuild.errors import ConfigError, InputError
from kgbuild.query.evaluate import (
    RECALL_DEPTHS,
    QAItem,
    exact_match,
    f1_score,
    normalize_answer,
    percentile,
    ranked_titles,
    read_qa,
    recall_at,
    recall_key,
    run_modes,
)
from kgbuild.query.types import Answer, ScoredChunk


def write(path: Path, data: object, jsonl: bool = False) -> Path:
    if jsonl:
        path.write_text("\n".join(r if isinstance(r, str) else json.dumps(r) for r in data) + "\n", encoding="utf-8")  # type: ignore[union-attr]
    else:
        path.write_text(json.dumps(data), encoding="utf-8")
    return path


HOTPOT = [
    {"_id": "q1", "question": "Who?", "answer": "Ann", "supporting_facts": [["A", 0], ["B", 2], ["A", 1]],
     "context": []},
    {"_id": "q2", "question": "Where?", "supporting_facts": [["C", 0]]},  # no answer
    {"_id": "q3", "question": "When?", "answer": "1999", "supporting_facts": "C"},  # malformed facts
    {"_id": "q4", "question": "Which?", "answer": "yes", "supporting_facts": [["D", 0]]},
]


# ---------------------------------------------------------------- readers


def test_hotpot_reader_keeps_good_records_and_names_bad_ones(tmp_path: Path) -> None:
    qa = read_qa(write(tmp_path / "hotpot.json", HOTPOT))
    assert [i.id for i in qa.items] == ["q1", "q4"]
    assert qa.items[0].supporting == ["A", "B"]
    assert len(qa.problems) == 2
    assert qa.problems[0].startswith(f"{tmp_path / 'hotpot.json'}: record 1 (q2): missing or empty 'answer'")
    assert "record 2 (q3)" in qa.problems[1] and "supporting_facts" in qa.problems[1]
    assert "\n" not in "".join(qa.problems)
    assert [i.id for i in read_qa(tmp_path / "hotpot.json", limit=1).items] == ["q1"]


def test_2wiki_shape_reads_like_hotpot(tmp_path: Path) -> None:
    record = {"_id": "w1", "type": "compositional", "question": "Who is the father of X?", "answer": "Y",
              "supporting_facts": [["X", 0], ["Z", 1]], "context": [["X", ["s"]], ["Z", ["t"]]],
              "evidences": [["X", "father", "Z"]]}
    qa = read_qa(write(tmp_path / "dev.json", [record]), "2wiki")
    assert qa.items == [QAItem(id="w1", question="Who is the father of X?", answer="Y", supporting=["X", "Z"])]


def test_hotpot_shape_reads_other_forms_of_the_answer(tmp_path: Path) -> None:
    record = {"_id": "w2h-1", "question": "When did the director of Majhli Didi die?", "answer": "27 August 2006",
              "aliases": ["August 27, 2006"], "supporting_facts": [["Majhli Didi", 0], ["Hrishikesh Mukherjee", 0]]}
    qa = read_qa(write(tmp_path / "held.json", [record, {**record, "_id": "w2h-2", "aliases": "August 27, 2006"}]))
    assert [(i.id, i.aliases) for i in qa.items] == [("w2h-1", ["August 27, 2006"])]
    assert len(qa.problems) == 1 and "record 1 (w2h-2): 'aliases' must be a list of strings" in qa.problems[0]


def test_musique_jsonl_with_a_broken_line(tmp_path: Path) -> None:
    good = {"id": "2hop_1", "question": "Q?", "answer": "Paris", "answer_aliases": ["City of Light"],
            "paragraphs": [{"idx": 0, "title": "T1", "paragraph_text": "...", "is_supporting": True},
                           {"idx": 1, "title": "T2", "paragraph_text": "...", "is_supporting": False},
                           {"idx": 2, "title": "T3", "paragraph_text": "...", "is_supporting": True}]}
    lines = [good, '{"id": "2hop_2", "question": ', {"id": "2hop_3", "question": "Q", "answer": "A", "paragraphs": "x"}]
    qa = read_qa(write(tmp_path / "musique.jsonl", lines, jsonl=True))
    assert [i.id for i in qa.items] == ["2hop_1"]
    assert qa.items[0].supporting == ["T1", "T3"] and qa.items[0].aliases == ["City of Light"]
    assert qa.problems[0].startswith(f"{tmp_path / 'musique.jsonl'}:2: invalid JSON")
    assert qa.problems[1].startswith(f"{tmp_path / 'musique.jsonl'}:3 (2hop_3): 'paragraphs'")


def test_unreadable_or_empty_file_is_one_error(tmp_path: Path) -> None:
    odd = write(tmp_path / "odd.json", "x")
    assert read_qa(odd).problems == [f"{odd}:1: expected an object, got str"]
    (tmp_path / "bad.json").write_text("[1, 2", encoding="utf-8")
    with pytest.raises(InputError, match="invalid JSON at line 1"):
        read_qa(tmp_path / "bad.json")
    (tmp_path / "empty.jsonl").write_text("\n", encoding="utf-8")
    with pytest.raises(InputError, match="no questions"):
        read_qa(tmp_path / "empty.jsonl")


# ---------------------------------------------------------------- metrics


def test_squad_normalisation_em_and_f1() -> None:
    assert normalize_answer("The  Eiffel Tower!") == "eiffel tower"
    assert exact_match("the eiffel tower", ["Eiffel Tower"]) == 1.0
    assert exact_match("Eiffel", ["Eiffel Tower"]) == 0.0
    # pred "eiffel" vs gold "eiffel tower": precision 1, recall 1/2 -> F1 2/3
    assert f1_score("Eiffel", ["Eiffel Tower"]) == pytest.approx(2 / 3)
    # pred "new york city" vs gold "york": p 1/3, r 1 -> 0.5; best over golds
    assert f1_score("New York City", ["York", "Big Apple"]) == pytest.approx(0.5)
    assert f1_score("yes", ["no"]) == 0.0 and f1_score("yes it is", ["yes"]) == 0.0  # HotpotQA yes/no rule
    assert f1_score("", ["x"]) == 0.0


def test_recall_at_k_over_distinct_documents() -> None:
    titles = {"d1": "Alpha", "d2": "Beta (film)", "d3": "Gamma"}
    ranked = ranked_titles(["d1", "d1", "d3", "d2"], titles.__getitem__)
    assert ranked == ["alpha", "gamma", "beta (film)"]  # the second chunk of d1 does not take a slot
    assert recall_at(ranked, ["Beta (film)", "Alpha"], 2) == 0.5
    assert recall_at(ranked, ["Beta (film)", "Alpha"], 5) == 1.0
    assert recall_at(ranked, [], 5) == 0.0


def test_percentiles() -> None:
    values = [10.0, 20.0, 30.0, 40.0, 50.0]
    assert percentile(values, 50) == 30.0
    assert percentile(values, 90) == pytest.approx(46.0)  # linear interpolation
    assert percentile([], 50) == 0.0


# ---------------------------------------------------------------- a run


def _answer(doc_ids: list[str], text: str, calls: int = 0) -> Answer:
    return Answer(question="q", answer=text, resolved=True, mode="retrieval", llm_calls=calls, prompt_tokens=10 * calls,
                  completion_tokens=calls,
                  chunks=[ScoredChunk(id=f"{d}#p00000#0", doc_id=d, text="", score=1.0) for d in doc_ids])


def test_run_modes_scores_each_mode(tmp_path: Path) -> None:
    qa = read_qa(write(tmp_path / "hotpot.json", HOTPOT))
    good = {"Who?": _answer(["A", "X", "B"], "Ann", calls=2), "Which?": _answer(["Y", "Z"], "no", calls=1)}

    def broken(question: str) -> Answer:
        raise RuntimeError("bug")

    report = run_modes(qa, {"good": good.__getitem__, "broken": broken}, lambda d: d, keep_results=True)
    g, b = report.mode("good"), report.mode("broken")
    assert (g.questions, g.em, g.f1) == (2, 0.5, 0.5)
    assert g.recall_at(2) == pytest.approx((0.5 + 0.0) / 2) and g.recall_at(5) == pytest.approx((1.0 + 0.0) / 2)
    assert set(g.recall) == {recall_key(k) for k in RECALL_DEPTHS} == set(report.results[0].recall)
    assert g.llm_calls_per_question == 1.5 and g.prompt_tokens_per_question == 15.0
    assert g.p50_ms >= 0 and g.p99_ms >= g.p90_ms >= g.p50_ms
    assert (b.errors, b.recall_at(5), b.em) == (2, 0.0, 0.0)
    assert len(report.results) == 4 and report.problems == qa.problems
    assert report.results[0].retrieved == ["a", "x", "b"]


# ---------------------------------------------------------------- the command's pieces


def test_parse_strategies_and_report_table() -> None:
    assert parse_strategies("hybrid, bm25,hybrid") == ["hybrid", "bm25"]
    with pytest.raises(ConfigError, match="unknown strategy sparse"):
        parse_strategies("bm25,sparse")
    from rich.console import Console

    from kgbuild.query.evaluate import EvalReport, ModeReport

    report = EvalReport(qa_file="qa.json", questions=3, modes=[ModeReport(
        mode="hybrid", questions=3, recall={"recall_at_2": 0.5, "recall_at_5": 0.9}, em=0.1, f1=0.2, p50_ms=12,
        p90_ms=30, p99_ms=40)])
    console = Console(record=True, width=200)
    print_report(report, console)
    text = console.export_text()
    assert "hybrid" in text and "0.900" in text and "R@5" in text


def test_eval_command_reports_a_bad_mode_in_one_line(tmp_path: Path) -> None:
    import click

    from kgbuild.cli import main
    from kgbuild.cli.eval import eval_command

    group = click.Group(commands={"eval": eval_command}, params=main.params, callback=main.callback)
    qa = write(tmp_path / "qa.json", HOTPOT)
    for option in ("--modes", "--strategy"):  # --modes: the older name
        result = CliRunner().invoke(group, ["eval", str(qa), option, "sparse"])
        assert result.exit_code == 2
        assert result.stderr.strip().splitlines() == [
            "error: --strategy: unknown strategy sparse (choose from bm25, dense, hybrid, frag, subgraphrag, solver, coe, "
            "fasttog, comma-separated)"]


def eval_group(tmp_path: Path, config: Config) -> click.Group:
    """The eval command over the hand-made retrieval index of test_retrieval, on a store whose every
    text search fails like a Milvus server older than 2.5; the engine comes through the click context."""
    from test_retrieval import HashEmbedder, NoFullTextStore, make_retriever

    import kgbuild.cli.eval as cli_eval
    from kgbuild.engine import Engine
    from kgbuild.store.open import QueryIndex
    from kgbuild.workspace import Workspace

    def open_engine(cfg: Config) -> Engine:
        retriever = make_retriever(NoFullTextStore())  # the engine closes its stores: a fresh one per command
        index = QueryIndex(workspace=Workspace(tmp_path / "ws"), graph=None, vectors=retriever.vectors,
                           embedder=HashEmbedder(), prefix="t")
        return Engine(cfg, index, retriever=retriever)

    @click.group()
    @click.pass_context
    def group(ctx: click.Context) -> None:
        ctx.obj = {"config_loader": lambda: config, "engine_opener": open_engine}

    group.add_command(cli_eval.eval_command)
    return group


QA = [{"_id": "w", "question": "Which network originally aired Charmed?", "answer": "The WB",
       "supporting_facts": [["Charmed", 0]]}]


def test_eval_without_full_text_skips_bm25_in_one_line_and_hybrid_says_why(
        tmp_path: Path) -> None:
    group = eval_group(tmp_path, Config())
    qa = write(tmp_path / "qa.json", QA)
    only = CliRunner().invoke(group, ["eval", str(qa), "--modes", "bm25"])
    assert only.exit_code == 2
    assert only.stderr.strip().splitlines() == [
        "error: --strategy: bm25 cannot run: vector_store.uri http://old:19530: Milvus server v2.4.9 has no BM25 "
        "full-text search; needs Milvus >= 2.5 (choose dense or hybrid, or a vector store with full-text search)"]
    both = CliRunner().invoke(group, ["eval", str(qa), "--json"])  # the default modes, no model configured
    assert both.exit_code == 0, both.output
    assert both.stderr.strip().splitlines()[0].startswith("skipped strategy bm25: vector_store.uri http://old:19530")
    report = json.loads(both.stdout)
    # frag walks the workspace's graph; subgraphrag is left out with a line (no trained scorer)
    assert [m["mode"] for m in report["modes"]] == ["dense", "hybrid", "frag"]
    assert any(line.startswith("skipped strategy subgraphrag") for line in both.stderr.splitlines())
    hybrid = report["modes"][1]
    assert hybrid["em"] == 1.0 and hybrid["errors"] == 0 and hybrid["recall"]["recall_at_2"] == 1.0
    assert hybrid["notes"][0].startswith("BM25 left out, fused without it: vector_store.uri http://old:19530")
    table = CliRunner().invoke(group, ["eval", str(qa), "--modes", "hybrid"])
    assert "note (hybrid): BM25 left out" in table.stdout


def test_eval_solver_mode_needs_a_model(tmp_path: Path) -> None:
    group = eval_group(tmp_path, Config())
    result = CliRunner().invoke(group, ["eval", str(write(tmp_path / "qa.json", QA)), "--modes", "dense,solver"])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        "error: llm.model: strategy solver needs a model "
        "(set llm.base_url and llm.model (or KGBUILD_LLM_MODEL), or choose a strategy without one)"]


def test_eval_counts_a_solver_without_a_usable_plan_as_an_error_and_says_why(tmp_path: Path) -> None:
    """Issue 17, item 5: with every plan unusable the table said `errors 0`. The scripted model never
    gives a plan the parser accepts; the question is then read from chunks, but it is an error."""
    from llm_server import ScriptedLLM

    from kgbuild.config import LLMConfig

    qa = write(tmp_path / "qa.json", QA)
    with ScriptedLLM() as llm:
        llm.reply("You break a question", json.dumps({"steps": ["not a plan"]}))
        llm.reply("You answer a question", json.dumps({"found": False, "answers": [], "chunk_ids": []}))
        llm.reply("You check whether", json.dumps({"resolved": False, "answer": "", "missing": "all"}))
        llm.reply("A question was only partly", json.dumps({"questions": []}))
        group = eval_group(tmp_path, Config(llm=LLMConfig(base_url=llm.base_url, model="m", max_retries=0),
                                            query={"max_iterations": 1}))
        as_json = CliRunner().invoke(group, ["eval", str(qa), "--modes", "dense,solver", "--json"])
        table = CliRunner().invoke(group, ["eval", str(qa), "--modes", "solver"])
    assert as_json.exit_code == 0, as_json.output
    report = json.loads(as_json.stdout)
    dense, solver = report["modes"]
    assert dense["errors"] == 0 and dense["error_reasons"] == {}
    assert solver["errors"] == 1
    [(reason, count)] = solver["error_reasons"].items()
    assert count == 1 and reason.startswith("no usable plan for any of N question(s)")
    [result] = [r for r in report["results"] if r["mode"] == "solver"]
    assert result["error"].startswith("no usable plan for any of 1 question(s) (answered from retrieved text alone)")
    assert table.exit_code == 0, table.output
    assert "errors (solver): 1 question(s): no usable plan" in table.stdout


def test_a_failed_model_call_or_a_bug_on_one_question_is_an_error_with_its_reason(tmp_path: Path) -> None:
    from kgbuild.llm.types import LLMCallError

    qa = read_qa(write(tmp_path / "hotpot.json", HOTPOT))

    def model_down(question: str) -> Answer:
        raise LLMCallError("llm.base_url http://x", "HTTP 503 after 3 attempts")

    def bug(question: str) -> Answer:
        raise RuntimeError("bug\non two lines")

    report = run_modes(qa, {"down": model_down, "bug": bug}, lambda d: d, keep_results=True)
    assert report.mode("down").errors == 2  # counted per question; the run goes on
    assert report.mode("down").error_reasons == {"model error: llm.base_url http://x: HTTP 503 after 3 attempts": 2}
    assert report.mode("bug").error_reasons == {"RuntimeError: bug on two lines": 2}
    assert [r.error for r in report.results if r.mode == "bug"] == ["RuntimeError: bug on two lines"] * 2


def test_withheld_guesses_are_counted_in_one_note_not_listed_per_question(tmp_path: Path) -> None:
    qa = read_qa(write(tmp_path / "hotpot.json", HOTPOT))

    def guessing(question: str) -> Answer:
        return Answer(question=question, answer="", resolved=False, mode="retrieval", candidates=[f"guess {question}"],
                      notes=[f"not resolved: the question asks for a person; 'guess {question}' is a Work"])

    report = run_modes(qa, {"hybrid": guessing}, lambda d: d, keep_results=True)
    assert report.mode("hybrid").notes == [
        "2 of 2 model-free guesses withheld: not of the kind the question asks (a yes/no is never asserted "
        "without a model); see the candidates per question with --json"]
    assert [r.candidates for r in report.results] == [["guess Who?"], ["guess Which?"]]
    assert report.mode("hybrid").errors == 0  # a withheld guess is no failure of the strategy
