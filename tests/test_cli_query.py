"""`kgbuild query`: strategy selection, JSON and human output, one-line errors; the engine is given the
test graph and a word-overlap retriever through the click context (no module is patched)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner
from llm_server import ScriptedLLM
from solve_graph import GraphRetriever, build_graph
from test_retrieval import HashEmbedder

import kgbuild.cli.query as cli_query
from kgbuild.config import Config, LLMConfig
from kgbuild.engine import Engine
from kgbuild.query.solver.graph_view import GraphView
from kgbuild.store.arcade import ArcadeGraphStore
from kgbuild.store.open import QueryIndex
from kgbuild.workspace import Workspace


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ArcadeGraphStore]:
    graph = build_graph(tmp_path_factory.mktemp("cli") / "graph")
    yield graph
    graph.close()


@dataclass
class BorrowedIndex(QueryIndex):
    """The module's graph store lent to one engine: closing the engine records it, the store stays open."""

    closed: list[bool] = field(default_factory=list)

    def close(self) -> None:
        self.closed.append(True)


def invoke(config: Config, store: ArcadeGraphStore, tmp_path: Path, *args: str) -> Any:
    index = BorrowedIndex(workspace=Workspace(tmp_path / "ws"), graph=store, vectors=None, embedder=HashEmbedder(),
                          prefix="kg")

    def open_engine(cfg: Config) -> Engine:
        return Engine(cfg, index, retriever=GraphRetriever(GraphView(store)))

    @click.group()
    @click.pass_context
    def main(ctx: click.Context) -> None:
        ctx.obj = {"config_loader": lambda: config, "engine_opener": open_engine}

    main.add_command(cli_query.query)
    result = CliRunner().invoke(main, ["query", *args], catch_exceptions=False)
    result.closed = index.closed  # type: ignore[attr-defined]
    return result


def test_without_a_model_the_answer_is_retrieval_only(store: ArcadeGraphStore, tmp_path: Path) -> None:
    result = invoke(Config(), store, tmp_path, "Where was Michael Curtiz born?", "--json", "--k", "2")
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert answer["mode"] == "retrieval" and len(answer["chunks"]) == 2
    assert answer["chunks"][0]["id"] == "curtiz#0#0" and "Budapest" in answer["answer"]
    assert result.closed == [True]
    human = invoke(Config(), store, tmp_path, "Where was Michael Curtiz born?")
    assert human.exit_code == 0 and "chunks" in human.stdout and "curtiz#0#0" in human.stdout
    # an extractive sentence is not claimed to be a resolved answer, and its first line says it is a guess
    assert answer["resolved"] is False and answer["verified"] is False
    assert "extractive answer from the top chunks" in human.stdout and "resolved" not in human.stdout
    assert human.stdout.splitlines()[0].startswith("guess, not verified: ") and "Budapest" in human.stdout.splitlines()[0]


def test_solver_mode_needs_a_model(store: ArcadeGraphStore, tmp_path: Path) -> None:
    for args in (["--mode", "solver"], ["--strategy", "solver"]):
        result = invoke(Config(), store, tmp_path, "Who?", *args)
        assert result.exit_code == 2
        assert result.stderr.strip().splitlines() == [
            "error: llm.model: strategy solver needs a model "
            "(set llm.base_url and llm.model (or KGBUILD_LLM_MODEL), or choose a strategy without one)"]
    unknown = invoke(Config(), store, tmp_path, "Who?", "--strategy", "magic")
    assert unknown.exit_code == 2
    assert unknown.stderr.strip().splitlines() == [
        "error: --strategy: unknown strategy 'magic' (choose from auto, bm25, dense, hybrid, frag, subgraphrag, solver, "
        "coe, fasttog)"]


def test_with_a_model_the_solver_answers_and_prints_its_trace(store: ArcadeGraphStore, tmp_path: Path) -> None:
    plan = ("Step 1: Which films did Michael Curtiz direct?\n"
            "  Retrieval(s=s1:Person[Michael Curtiz], p=p1:directed, o=o1:Film)\n  Output(o1)")
    with ScriptedLLM() as llm:
        llm.reply("You break a question", json.dumps({"plan": plan}))
        llm.reply("You check whether",
                  json.dumps({"resolved": True, "answer": "Casablanca, Yankee Doodle Dandy, Mildred Pierce"}))
        config = Config(llm=LLMConfig(base_url=llm.base_url, model="m", max_retries=0))
        result = invoke(config, store, tmp_path, "Which films did Michael Curtiz direct?", "--json")
        assert result.exit_code == 0, result.output
        answer = json.loads(result.stdout)
        assert answer["mode"] == "solver" and answer["resolved"] and answer["llm_calls"] == len(llm.chat_log()) == 2
        assert answer["plan"] == [plan + "\n"] and {t["id"] for t in answer["triples"]} == {"r1", "r2", "r3"}
        assert answer["verified"] is True
        human = invoke(config, store, tmp_path, "Which films did Michael Curtiz direct?")
    assert human.exit_code == 0
    assert human.stdout.splitlines()[0] == "Casablanca, Yankee Doodle Dandy, Mildred Pierce"  # a model checked it
    for text in ("Casablanca, Yankee Doodle Dandy", "plan 1", "trace", "Retrieval(s=s1:Person[Michael Curtiz]",
                 "triples", "citations", "films#0#1"):
        assert text in human.stdout, text
