"""Packed LLM extraction (issue 15): several short chunks per call, each chunk's output its own.

Whole builds with the real `openai` client over HTTP to the scripted server (tests/llm_server.py).
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from llm_fakes import ScriptedGateway
from llm_server import ScriptedLLM, extraction_passages

from kgbuild.cli import main
from kgbuild.extract.llm import LLMExtractor
from kgbuild.llm.accounting import Accounting
from kgbuild.llm.prompts import PromptLibrary
from kgbuild.model import Chunk
from kgbuild.schema import resolve_schema
from kgbuild.tokens import TokenCounter
from kgbuild.workspace import Workspace

DOCS = {
    "turing.md": "# Alan Turing\n\nAlan Turing was born in London in 1912.\n",
    "hopper.md": "# Grace Hopper\n\nGrace Hopper was born in New York City in 1906.\n",
    "flowers.md": "# Tommy Flowers\n\nTommy Flowers was born in London in 1905.\n",
    "shannon.md": "# Claude Shannon\n\nClaude Shannon was born in Petoskey in 1916.\n",
}
PEOPLE = {"Alan Turing": "London", "Grace Hopper": "New York City", "Tommy Flowers": "London",
          "Claude Shannon": "Petoskey"}


def extraction(text: str) -> dict[str, Any]:
    for person, place in PEOPLE.items():
        if person in text:
            return {"entities": [{"name": person, "type": "Person"}, {"name": place, "type": "GeographicLocation"}],
                    "events": [], "relations": [{"subject": person, "predicate": "bornIn", "object": place}],
                    "hypernodes": []}
    return {"entities": [], "events": [], "relations": [], "hypernodes": []}


def reply_omitting(*skip: str, reverse: bool = True) -> Any:
    """A model that answers packs keyed by passage id (in reverse order, so ids, not positions, count),
    leaving out the passages that mention a name in `skip`; one-chunk prompts are answered in full."""
    def reply(body: dict[str, Any]) -> str:
        passages = extraction_passages(body)
        if passages[0][0] is None:
            return json.dumps(extraction(passages[0][1]))
        keyed = {pid: extraction(text) for pid, text in passages if not any(s in text for s in skip)}
        return json.dumps(dict(reversed(keyed.items())) if reverse else keyed)
    return reply


def project(tmp_path: Path, llm: ScriptedLLM, extra: str = "") -> Path:
    src = tmp_path / "src"
    src.mkdir(parents=True, exist_ok=True)
    for name, text in DOCS.items():
        (src / name).write_text(text, encoding="utf-8")
    config = tmp_path / "kgbuild.yaml"
    config.write_text(
        "workspace: ws\ngraph_store:\n  backend: none\nvector_store:\n  backend: none\n"
        "align:\n  llm_judge: false\n  llm_hypernyms: false\n"
        "extract:\n  extractor: llm\n  max_reasks: 1\n" + extra +
        f"llm:\n  base_url: {llm.base_url}\n  model: test-model\n  timeout_s: 60\n  max_retries: 0\n",
        encoding="utf-8")
    return config


def build(config: Path, *args: str) -> dict[str, Any]:
    result = CliRunner(env={"KGBUILD_LLM_API_KEY": "sk-test"}).invoke(
        main, ["-c", str(config), "build", str(config.parent / "src"), "--json", *args], catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    report: dict[str, Any] = json.loads(result.stdout)
    return report


def born_in(config: Path) -> dict[str, set[str]]:
    """Relation (subject, object) -> the documents of the chunks it was extracted from."""
    ws = Workspace(config.parent / "ws")
    doc_of = {r["id"]: r["doc_id"] for r in ws.rows("chunks")}
    return {f"{r['subject_name']}->{r['object_name']}": {doc_of[c] for c in r["chunk_ids"]}
            for r in ws.rows("relations") if r["predicate"] == "bornIn"}


def last_user(entry: dict[str, Any]) -> str:
    return str(entry["json"]["messages"][-1]["content"])


def test_one_packed_call_and_each_output_attributed_to_its_own_chunk(tmp_path: Path) -> None:
    with ScriptedLLM() as llm:
        llm.reply("", reply_omitting())
        config = project(tmp_path, llm)
        report = build(config)
        log = llm.chat_log()
    assert len(log) == 1 and report["llm"]["total"]["calls"] == 1
    assert [pid for pid, _ in extraction_passages(log[0]["json"])] == ["1", "2", "3", "4"]
    assert report["extract"]["chunks_extracted"] == 4
    # The reply's keys came in reverse order: each fact still lands on the chunk of its own document.
    assert born_in(config) == {"Alan Turing->London": {"turing"}, "Grace Hopper->New York City": {"hopper"},
                               "Tommy Flowers->London": {"flowers"}, "Claude Shannon->Petoskey": {"shannon"}}
    by_doc = report["llm"]["by_doc"]
    assert set(by_doc) == {"turing", "hopper", "flowers", "shannon"}
    assert sum(d["prompt_tokens"] for d in by_doc.values()) == report["llm"]["total"]["prompt_tokens"]


def test_a_chunk_missing_from_the_packed_reply_is_asked_again_alone(tmp_path: Path) -> None:
    with ScriptedLLM() as llm:
        llm.reply("", reply_omitting("Grace Hopper"))
        config = project(tmp_path, llm)
        report = build(config)
        log = llm.chat_log()
    assert len(log) == 2
    alone = last_user(log[1])
    assert "Grace Hopper" in alone and not any(p in alone for p in PEOPLE if p != "Grace Hopper")
    assert extraction_passages(log[1]["json"])[0][0] is None  # the one-chunk prompt, not a pack of one
    assert report["extract"]["chunks_extracted"] == 4 and report["extract"]["chunks_failed"] == 0
    assert report["llm"]["total"]["unusable"] == 1
    assert born_in(config)["Grace Hopper->New York City"] == {"hopper"}


def test_a_malformed_part_is_asked_again_alone_and_the_rest_kept(tmp_path: Path) -> None:
    def reply(body: dict[str, Any]) -> str:
        passages = extraction_passages(body)
        if passages[0][0] is None:
            return json.dumps(extraction(passages[0][1]))
        out: dict[str, Any] = {pid: extraction(text) for pid, text in passages}
        bad = next(pid for pid, text in passages if "Claude Shannon" in text)
        out[bad] = {"relations": [{"subject": "Claude Shannon"}]}  # no predicate, no object
        return json.dumps(out)

    with ScriptedLLM() as llm:
        llm.reply("", reply)
        config = project(tmp_path, llm)
        report = build(config)
        log = llm.chat_log()
    assert len(log) == 2 and "Claude Shannon" in last_user(log[1]) and "Alan Turing" not in last_user(log[1])
    assert report["extract"]["chunks_failed"] == 0 and len(born_in(config)) == 4


def test_a_cut_off_packed_reply_re_asks_only_its_last_passage(tmp_path: Path) -> None:
    full = {str(i): extraction(name) for i, name in enumerate(PEOPLE, 1)}
    # The scripted server sends the first half of this: passages 1-3 whole, the cut inside passage 4.
    full["4"]["entities"][0]["description"] = "x" * (2 * len(json.dumps(full)))
    with ScriptedLLM() as llm:
        llm.reply("", reply_omitting(reverse=False))
        llm.truncate("Alan Turing was born", json.dumps(full))
        config = project(tmp_path, llm)
        report = build(config)
        log = llm.chat_log()
    assert len(log) == 2 and report["extract"]["chunks_failed"] == 0
    fourth = dict(extraction_passages(log[0]["json"]))["4"]
    assert extraction_passages(log[1]["json"]) == [(None, fourth)]  # only the cut passage, alone


@pytest.mark.slow
def test_reply_cache_is_per_chunk_a_rerun_pays_nothing_and_a_changed_chunk_only_itself(tmp_path: Path) -> None:
    with ScriptedLLM() as llm:
        llm.reply("", reply_omitting())
        config = project(tmp_path, llm)
        build(config)
        assert len(llm.chat_log()) == 1
        assert build(config)["extract"]["chunks_cached"] == 4  # the extraction cache: nothing asked
        assert len(llm.chat_log()) == 1
        # Without the extraction cache, the reply cache answers each chunk on its own: still 0 calls.
        assert CliRunner().invoke(main, ["-c", str(config), "cache", "clear", "--only", "extract"]).exit_code == 0
        report = build(config)
        assert len(llm.chat_log()) == 1 and report["llm"]["total"]["cache_hits"] == 4
        # One document changes, and the extraction cache is gone again: its neighbours of the
        # first pack are still answered by the reply cache; only the changed chunk is asked.
        (config.parent / "src" / "hopper.md").write_text(
            "# Grace Hopper\n\nGrace Hopper was born in New York City in 1906 and joined the Navy.\n", encoding="utf-8")
        assert CliRunner().invoke(main, ["-c", str(config), "cache", "clear", "--only", "extract"]).exit_code == 0
        report = build(config)
        log = llm.chat_log()
    assert len(log) == 2 and "joined the Navy" in last_user(log[1])
    assert not any(p in last_user(log[1]) for p in PEOPLE if p != "Grace Hopper")
    assert report["llm"]["total"]["cache_hits"] == 3


def test_packs_stay_within_the_token_budget_and_the_chunk_cap(tmp_path: Path) -> None:
    with ScriptedLLM() as llm:
        llm.reply("", reply_omitting())
        config = project(tmp_path, llm, "  pack_max_chunks: 3\n")
        build(config)
        sizes = [len(extraction_passages(r["json"])) for r in llm.chat_log()]
        assert sorted(sizes) == [1, 3]  # four chunks, at most three to a call
        # A budget just above one pack of two: every call of the next build holds at most two.
        counter = TokenCounter()
        # The calls run side by side, so the log's first entry may be the one-chunk call, whose prompt
        # has no passage markers: measure the pack of three.
        first = max(llm.chat_log(), key=lambda r: len(extraction_passages(r["json"])))["json"]["messages"]
        overhead = sum(counter.count(m["content"]) for m in first[:-1])
        passages = re.split(r"\n\n(?=\[\d+\] )", first[-1]["content"])
        budget = overhead + 2 * max(counter.count(p + "\n\n") for p in passages) + 2
        tight = project(tmp_path / "tight", llm, f"  pack_tokens: {budget}\n")
        before = len(llm.chat_log())
        build(tight)
        log = llm.chat_log()[before:]
    sizes = [len(extraction_passages(r["json"])) for r in log]
    assert sizes == [2, 2], sizes  # a pack re-asked passage by passage would show here as 1s
    assert all(sum(counter.count(m["content"]) for m in r["json"]["messages"]) <= budget for r in log)


def test_pack_tokens_zero_sends_one_chunk_per_call(tmp_path: Path) -> None:
    with ScriptedLLM() as llm:
        llm.reply("", reply_omitting())
        build(project(tmp_path, llm, "  pack_tokens: 0\n"))
        assert len(llm.chat_log()) == 4
        assert all(extraction_passages(r["json"])[0][0] is None for r in llm.chat_log())


def test_accounting_splits_a_call_between_documents_and_adds_up() -> None:
    usage = Accounting()
    usage.add("extract", {"a": 3.0, "b": 1.0}, calls=1, prompt_tokens=10, cost_usd=1.0)
    usage.add("extract", {"a": 1.0, "b": 1.0, "c": 1.0}, prompt_tokens=10)
    a, b, c = (usage.by_doc[d] for d in "abc")
    assert (a.calls, b.calls) == (1, 0)
    assert a.prompt_tokens + b.prompt_tokens + c.prompt_tokens == usage.total.prompt_tokens == 20
    # 7.5/2.5 then 3.3 each: the left-over tokens go to the largest remainders (ties by name)
    assert (a.prompt_tokens, b.prompt_tokens, c.prompt_tokens) == (8 + 4, 2 + 3, 3)
    assert a.cost_usd == pytest.approx(0.75) and b.cost_usd == pytest.approx(0.25)


def test_a_chunk_repeated_in_two_documents_is_asked_once(tmp_path: Path) -> None:
    notice = "# Notice\n\nTommy Flowers was born in London in 1905.\n"  # the same heading and text twice
    with ScriptedLLM() as llm:
        llm.reply("", reply_omitting())
        config = project(tmp_path, llm)
        for name in ("notice_a.md", "notice_b.md"):
            (tmp_path / "src" / name).write_text(notice, encoding="utf-8")
        estimate = json.loads(CliRunner().invoke(main, ["-c", str(config), "build", str(tmp_path / "src"),
                                                        "--dry-run", "--json"]).stdout)
        assert (estimate["model_calls"], estimate["chunks_reply_cached"]) == (1, 1)  # the dry run agrees
        report = build(config)
        log = llm.chat_log()
    assert len(log) == 1 and len(extraction_passages(log[0]["json"])) == 5  # four people, one notice
    assert report["extract"]["chunks_extracted"] == 6 and report["llm"]["total"]["cache_hits"] == 1
    assert born_in(config)["Tommy Flowers->London"] == {"flowers", "notice_a", "notice_b"}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_packed_prompt_in_both_languages_carries_the_schema_once_and_reads_back_per_chunk(lang: str) -> None:
    texts = {"a": "Alan Turing was born in London.", "b": "Grace Hopper was born in New York City."}
    chunks = [Chunk(id=f"{d}#p0#0", doc_id=d, text=t, section=[d.upper()], order=0, paragraph_start=0,
                    paragraph_end=0, token_count=9, content_hash=d) for d, t in texts.items()]
    gateway = ScriptedGateway({"2": extraction(texts["b"]), "1": extraction(texts["a"])})
    extractor = LLMExtractor(gateway, resolve_schema("open_domain"), PromptLibrary(lang), constrained=True,
                             pack_tokens=100_000)
    (job,) = extractor.plan(chunks).jobs
    outcomes = asyncio.run(extractor.aextract_job(job))
    (request,) = gateway.requests
    system, user = request.messages[0].content, request.messages[-1].content
    assert "relation_types:" in system and "relation_types:" not in user  # the schema once, not per passage
    assert [pid for pid, _ in extraction_passages(request.model_dump())] == ["1", "2"]
    assert {c.doc_id: [r.subject.name for r in e.relations] for c, e, failed in outcomes if not failed} == {
        "a": ["Alan Turing"], "b": ["Grace Hopper"]}
    assert request.doc_shares.keys() == {"a", "b"} and gateway.forgotten == [request]
