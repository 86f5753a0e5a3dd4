"""LLM extraction through whole builds: the real `openai` client over HTTP to a scripted server."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from llm_server import ScriptedLLM, extraction_passages

from kgbuild.cli import main
from kgbuild.workspace import Workspace

DOCS = {
    "turing.md": "# Alan Turing\n\nAlan Turing was born in London in 1912. Turing joined Bletchley Park in 1939.\n",
    "hopper.md": "# Grace Hopper\n\nGrace Hopper was born in New York City in 1906. Hopper joined the Navy in 1943.\n",
    "flowers.md": "# Tommy Flowers\n\nTommy Flowers designed Colossus at Dollis Hill in 1943.\n",
}
# What a model "knows" about each document: entities, one relation and a date qualifier.
FACTS = {
    "Alan Turing": ("Person", "London", "GeographicLocation", "bornIn", "1912"),
    "Grace Hopper": ("Person", "New York City", "GeographicLocation", "bornIn", "1906"),
    "Tommy Flowers": ("Person", "Colossus", "Spaceship", "designed", "1943"),
}
API_KEY = "sk-test-secret-123456"


def model_reply(body: dict[str, Any]) -> str:
    """One extraction per passage: the object itself for a one-chunk prompt, keyed by passage id for a pack."""
    passages = extraction_passages(body)
    if passages[0][0] is None:
        return json.dumps(extraction(passages[0][1]))
    return json.dumps({pid: extraction(text) for pid, text in passages})


def extraction(text: str) -> dict[str, Any]:
    for person, (cls, obj, obj_cls, pred, year) in FACTS.items():
        if person in text:
            return {
                "entities": [
                    {"name": person, "type": cls, "semantic_type": "computer scientist",
                     "description": f"{person} is in the passage."},
                    {"name": obj, "type": obj_cls},
                    {"name": year, "type": "Date"},
                ],
                "events": [],
                "relations": [{"subject": person, "predicate": pred, "object": obj}],
                "hypernodes": [{"triple": [person, pred, obj], "qualifier": "in", "value": year}],
            }
    return {"entities": [], "events": [], "relations": [], "hypernodes": []}


@pytest.fixture()
def llm() -> ScriptedLLM:
    with ScriptedLLM() as server:
        server.reply("", model_reply)
        yield server


def make_project(tmp_path: Path, llm: ScriptedLLM, extra: str = "") -> Path:
    src = tmp_path / "src"
    src.mkdir(parents=True, exist_ok=True)
    for name, text in DOCS.items():
        (src / name).write_text(text, encoding="utf-8")
    config = tmp_path / "kgbuild.yaml"
    config.write_text(
        "workspace: ws\n"
        # the stores are tested on their own; these tests are about the model gateway
        "graph_store:\n  backend: none\nvector_store:\n  backend: none\n"
        "extract:\n  extractor: llm\n  max_reasks: 1\n" + extra +
        f"llm:\n  base_url: {llm.base_url}\n  model: test-model\n  timeout_s: 2\n  max_retries: 3\n"
        "  backoff_initial_s: 0.01\n  backoff_max_s: 0.05\n"
        "  prices:\n    test-model: {prompt_per_1m: 1.0, completion_per_1m: 2.0}\n",
        encoding="utf-8",
    )
    return config


def build(config: Path, *args: str) -> tuple[Result, dict[str, Any]]:
    env = {"KGBUILD_LLM_API_KEY": API_KEY}
    result = CliRunner(env=env).invoke(main, ["-c", str(config), "build", str(config.parent / "src"), "--json", *args],
                                       catch_exceptions=False)
    return result, json.loads(result.stdout)


def relations(config: Path) -> set[tuple[str, str, str]]:
    rows = Workspace(config.parent / "ws").rows("relations")
    return {(r["subject_name"], r["predicate"], r["object_name"]) for r in rows}


def test_llm_build_extracts_through_the_real_client_and_accounts_for_every_call(tmp_path: Path,
                                                                                llm: ScriptedLLM) -> None:
    config = make_project(tmp_path, llm)
    result, report = build(config)
    assert result.exit_code == 0, result.stderr
    assert report["extract"]["extractor"].startswith("llm")
    assert report["extract"]["chunks_extracted"] == 3 and report["extract"]["chunks_failed"] == 0
    assert ("Alan Turing", "bornIn", "London") in relations(config)
    hyper = Workspace(config.parent / "ws").rows("hypernodes")
    assert any(h["subject_name"].startswith("(Alan Turing, bornIn, London)") and h["object_name"] == "1912"
               for h in hyper)
    # Accounting matches the server's request log exactly. The three short chunks went in one packed call.
    log = llm.chat_log()
    total = report["llm"]["total"]
    assert total["calls"] == len(log) == 1
    assert total["prompt_tokens"] == sum(r["usage"]["prompt_tokens"] for r in log)
    assert total["completion_tokens"] == sum(r["usage"]["completion_tokens"] for r in log)
    assert total["cost_usd"] == pytest.approx((total["prompt_tokens"] * 1.0 + total["completion_tokens"] * 2.0) / 1e6)
    # ... whose usage is split between the three documents and adds up to the total.
    by_doc = report["llm"]["by_doc"]
    assert set(by_doc) == {"turing", "hopper", "flowers"}
    for counter in ("calls", "prompt_tokens", "completion_tokens"):
        assert sum(d[counter] for d in by_doc.values()) == total[counter]
    assert all(d["prompt_tokens"] > 0 for d in by_doc.values())
    assert all(r["json"]["model"] == "test-model" for r in log)
    # The key travels in the Authorization header and nowhere else.
    assert all(r["authorized"] for r in log)
    assert API_KEY not in result.stdout + result.stderr


@pytest.mark.slow
def test_rebuild_with_nothing_changed_makes_zero_calls(tmp_path: Path, llm: ScriptedLLM) -> None:
    config = make_project(tmp_path, llm)
    assert build(config)[0].exit_code == 0
    calls = len(llm.chat_log())
    _, report = build(config)
    assert len(llm.chat_log()) == calls and report["extract"]["chunks_cached"] == 3
    # Even with the extraction cache gone, the response cache answers: still zero calls.
    assert CliRunner().invoke(main, ["-c", str(config), "cache", "clear", "--only", "extract"]).exit_code == 0
    _, report = build(config)
    # The packed reply was cached per chunk, so each chunk is a cache hit of its own.
    assert len(llm.chat_log()) == calls
    assert report["extract"]["chunks_extracted"] == 3 and report["llm"]["total"]["cache_hits"] == 3
    # --no-cache pays again (one packed call).
    _, report = build(config, "--no-cache")
    assert len(llm.chat_log()) == calls + 1


def test_429_and_500_are_retried_and_then_succeed(tmp_path: Path, llm: ScriptedLLM) -> None:
    llm.fail(429, times=2, retry_after=0.01)
    llm.fail(500, times=1)
    config = make_project(tmp_path, llm)
    result, report = build(config)
    assert result.exit_code == 0 and report["extract"]["chunks_failed"] == 0
    assert report["llm"]["total"]["retries"] == 3
    assert report["llm"]["total"]["calls"] == len(llm.chat_log()) == 4  # one packed request, three retries


def test_a_failing_chunk_is_recorded_and_retried_on_the_next_build(tmp_path: Path, llm: ScriptedLLM) -> None:
    llm.reply("Grace Hopper", "this is not JSON at all", times=2)  # first ask and the one re-ask
    config = make_project(tmp_path, llm, "  pack_tokens: 0\n")  # one call per chunk (packs: test_llm_pack.py)
    result, report = build(config)
    assert result.exit_code == 1  # something failed: non-zero unless --keep-going
    assert report["extract"]["chunks_failed"] == 1 and report["extract"]["chunks_extracted"] == 2
    assert ("Alan Turing", "bornIn", "London") in relations(config)  # the rest is built
    failed = Workspace(config.parent / "ws").rows("drops")
    assert any(d["reason"] == "extractor error" and d["chunk_id"].startswith("hopper#") for d in failed)
    before = len(llm.chat_log())
    result, report = build(config)
    assert result.exit_code == 0
    assert report["extract"]["chunks_extracted"] == 1 and report["extract"]["chunks_cached"] == 2
    assert len(llm.chat_log()) == before + 1  # only the failed chunk is asked again
    assert ("Grace Hopper", "bornIn", "New York City") in relations(config)


def test_truncated_reply_is_repaired_or_reasked(tmp_path: Path, llm: ScriptedLLM) -> None:
    body = {"body": {"messages": [{"role": "user", "content": '"""\nTommy Flowers\n"""'}]}}
    llm.truncate("Tommy Flowers", model_reply(body["body"]), times=1)
    config = make_project(tmp_path, llm, "  pack_tokens: 0\n")  # one call per chunk (packs: test_llm_pack.py)
    result, report = build(config)
    assert result.exit_code == 0 and report["extract"]["chunks_failed"] == 0
    # The cut-off reply was closed, its incomplete tail dropped, and the repair reported.
    assert report["assemble"]["drops"].get("extract/chunk/truncated reply repaired") == 1
    names = {e["name"] for e in Workspace(config.parent / "ws").rows("entities")}
    assert "Tommy Flowers" in names


def test_schema_forbidden_types_are_retyped_or_dropped_and_reported(tmp_path: Path, llm: ScriptedLLM) -> None:
    config = make_project(tmp_path, llm, "  constrained: true\n  strict_schema: true\n")
    result, report = build(config)
    assert result.exit_code == 0
    # "Spaceship" is not a class of the open-domain schema: strict mode drops it and the relation on it.
    assert report["assemble"]["drops"].get("validate/entity/unknown class", 0) >= 1
    assert not any(o == "Colossus" for _, _, o in relations(config))
    # The constrained prompt carried the schema.
    first = llm.chat_log()[0]["json"]["messages"]
    assert any("GeographicLocation" in m["content"] and "bornIn" in m["content"] for m in first)
    lenient = make_project(tmp_path / "lenient", llm, "  constrained: true\n")
    _, report = build(lenient)
    assert any(k.endswith("retyped: unknown class to fallback") for k in report["assemble"]["retyped"])


MORE_DOCS = {
    "lovelace.md": "# Ada Lovelace\n\nAda Lovelace was born in London in 1815.\n",
    "babbage.md": "# Charles Babbage\n\nCharles Babbage was born in London in 1791.\n",
    "shannon.md": "# Claude Shannon\n\nClaude Shannon was born in Petoskey in 1916.\n",
}


def test_wrong_api_key_stops_after_one_request_names_the_setting_and_keeps_earlier_work(
        tmp_path: Path, llm: ScriptedLLM) -> None:
    config = make_project(tmp_path, llm)
    # One request in flight at a time (llm.concurrency), but two consumers queued behind it:
    # the one waiting for the slot when the 401 arrives must not send its request.
    config.write_text(config.read_text(encoding="utf-8").replace(
        "  model: test-model\n", "  model: test-model\n  concurrency: 1\n"), encoding="utf-8")
    assert build(config)[0].exit_code == 0  # three documents built and cached
    for name, text in MORE_DOCS.items():
        (config.parent / "src" / name).write_text(text, encoding="utf-8")
    before = len(llm.chat_log())
    llm.fail(401, times=100)
    result, report = build(config, "--keep-going")
    assert len(llm.chat_log()) == before + 1  # one refused request, not one per new chunk
    assert result.exit_code == 1  # a refused key is never a success, even with --keep-going
    extract = report["extract"]
    assert extract["chunks_cached"] == 3 and extract["chunks_extracted"] == 0 and extract["chunks_failed"] == 3
    assert extract["stopped"].startswith("llm.api_key: ")
    assert report["llm"]["total"]["calls"] == 1 and report["llm"]["total"]["retries"] == 0  # 401 is not retried
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "llm.api_key" in errors[0] and "KGBUILD_LLM_API_KEY" in errors[0], result.stderr
    assert "Traceback" not in result.stderr and API_KEY not in result.stdout + result.stderr
    # What was built before is kept: the cached chunks' facts are in the tables.
    assert ("Alan Turing", "bornIn", "London") in relations(config)


def tree_bytes(root: Path) -> dict[str, bytes]:
    """Every file under `root` with its bytes (directories as empty entries)."""
    return {str(p.relative_to(root)): (p.read_bytes() if p.is_file() else b"") for p in sorted(root.rglob("*"))}


def test_endpoint_down_stops_the_build_before_anything_is_read_or_written(tmp_path: Path, llm: ScriptedLLM) -> None:
    # Was: 252 calls over ~100 s, nothing on stderr, an empty graph written, exit 1 after 122 s.
    config = make_project(tmp_path, llm)
    text = config.read_text(encoding="utf-8").replace(llm.base_url, "http://127.0.0.1:9/v1")
    config.write_text(text, encoding="utf-8")
    before = tree_bytes(tmp_path)
    result = CliRunner().invoke(main, ["-c", str(config), "build", str(tmp_path / "src"), "--json"])
    assert result.exit_code == 2 and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: llm.base_url: cannot reach the model endpoint http://127.0.0.1:9/v1: "
                               "connection refused"), lines[0]
    assert tree_bytes(tmp_path) == before  # no workspace, no cache, no store: byte-identical
    assert llm.chat_log() == []


def test_endpoint_down_stops_a_removal_before_anything_changes(tmp_path: Path, llm: ScriptedLLM) -> None:
    # A removal aligns what is left again, with the model's judge: it used to retry every request
    # against a dead endpoint while the document was already taken out of the tables.
    config = make_project(tmp_path, llm)
    result, _ = build(config)
    assert result.exit_code == 0, result.output
    doc_id = Workspace(tmp_path / "ws").rows("documents")[0]["id"]
    config.write_text(config.read_text(encoding="utf-8").replace(llm.base_url, "http://127.0.0.1:9/v1"),
                      encoding="utf-8")
    before = tree_bytes(tmp_path)
    result = CliRunner().invoke(main, ["-c", str(config), "remove", doc_id, "--json"])
    assert result.exit_code == 2 and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: llm.base_url: cannot reach the model endpoint http://127.0.0.1:9/v1: "
                               "connection refused"), lines[0]
    assert tree_bytes(tmp_path) == before


def split_reply(body: dict[str, Any]) -> str:
    """Cut the numbered sentences of the last user message in two halves, each with a summary."""
    user = [m["content"] for m in body["messages"] if m["role"] == "user"][-1]
    count = len(re.findall(r"^\[\d+\]", user, flags=re.M))
    half = max(1, count // 2)
    return json.dumps({"chunks": [{"start": 1, "end": half, "summary": "First half."},
                                  {"start": half + 1, "end": count, "summary": "Second half."}]})


def test_llm_semantic_splitting_cuts_long_paragraphs_and_adds_summaries(tmp_path: Path, llm: ScriptedLLM) -> None:
    llm.reply("You split a section", split_reply)
    config = make_project(tmp_path, llm, "")
    text = config.read_text(encoding="utf-8") + "chunking:\n  splitter: llm\n  max_tokens: 60\n  min_tokens: 10\n"
    config.write_text(text, encoding="utf-8")
    long = " ".join(f"Sentence number {i} talks about Alan Turing and his work." for i in range(8))
    (tmp_path / "src" / "long.md").write_text(f"# Long\n\n{long}\n", encoding="utf-8")
    result, report = build(config)
    assert result.exit_code == 0, result.stderr
    assert report["llm"]["by_stage"]["split"]["requests"] >= 1
    chunks = [c for c in Workspace(tmp_path / "ws").rows("chunks") if c["doc_id"] == "long"]
    assert [c["summary"] for c in chunks] == ["First half.", "Second half."]
    assert [c["id"] for c in chunks] == ["long#p00000#0", "long#p00000#1"]
    assert all(c["token_count"] <= 60 for c in chunks)


GUIDE = """# Passport service guide

The Passport Office issues passports to citizens.

## Required materials

- A completed application form
- Two recent photographs
- Your old passport

## Processing time

Three weeks from the day the application arrives.
"""


def test_document_structure_sections_become_properties_without_a_model_call(tmp_path: Path, llm: ScriptedLLM) -> None:
    repo = Path(__file__).resolve().parents[1]
    config = make_project(tmp_path, llm, "")
    text = config.read_text(encoding="utf-8").replace(
        "workspace: ws\n", f"workspace: ws\nschema: {repo / 'schemas' / 'government_services.yaml'}\n")
    config.write_text(text + "chunking:\n  min_tokens: 0\n", encoding="utf-8")
    (tmp_path / "src" / "passport.md").write_text(GUIDE, encoding="utf-8")
    result, report = build(config)
    assert result.exit_code == 0, result.stderr
    assert report["extract"]["chunks_structured"] == 2
    asked = " ".join(m["content"] for r in llm.chat_log() for m in r["json"]["messages"])
    assert "Two recent photographs" not in asked and "Three weeks" not in asked
    assert "The Passport Office issues passports" in asked  # the rest of the guide is extracted as usual
    guide = [e for e in Workspace(tmp_path / "ws").rows("entities") if e["name"] == "Passport service guide"]
    assert len(guide) == 1
    props = json.loads(guide[0]["properties"])
    assert props["requiredMaterials"] == ["A completed application form", "Two recent photographs", "Your old passport"]
    assert props["processingTime"] == ["Three weeks from the day the application arrives."]


def test_domain_concepts_are_retrieved_into_the_prompt(tmp_path: Path, llm: ScriptedLLM) -> None:
    concepts = tmp_path / "concepts"
    concepts.mkdir()
    (concepts / "nodes.json").write_text(json.dumps([
        {"id": "Codebreaker", "name": "Codebreaker", "label": "Concept",
         "properties": {"description": "A person who breaks ciphers, as at Bletchley Park."}},
        {"id": "Navy", "name": "Navy", "label": "Concept",
         "properties": {"description": "The naval force of a country."}},
        {"id": "Occupation", "name": "Occupation", "label": "Concept"},
    ]), encoding="utf-8")
    (concepts / "edges.json").write_text(json.dumps([
        {"from": "Codebreaker", "to": "Occupation", "label": "isA"},
        {"from": "Navy", "to": "Occupation", "label": "isA"},
    ]), encoding="utf-8")
    config = make_project(tmp_path, llm, f"  domain_concepts: {concepts}\n  concept_candidates: 1\n")
    result, _ = build(config)
    assert result.exit_code == 0, result.stderr
    # One packed prompt: each passage carries its own candidates, between its header and its text.
    (request,) = llm.chat_log()
    passages = re.split(r"^\[\d+\] ", request["json"]["messages"][-1]["content"], flags=re.M)
    turing = next(p for p in passages if "Bletchley Park" in p)
    hopper = next(p for p in passages if "Navy" in p)
    assert "Codebreaker" in turing and "Navy" not in turing.split('"""')[0]
    assert "Navy" in hopper.split('"""')[0] and "Codebreaker" not in hopper
