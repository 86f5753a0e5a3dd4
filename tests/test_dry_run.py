"""`kgbuild build --dry-run` (issue 17, item 10): the calls, prompt tokens and cost a build would take,
checked against a real build's accounting over HTTP to the scripted server; and it writes nothing."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from llm_server import ScriptedLLM, extraction_passages

from kgbuild.cli import main
from kgbuild.tokens import TokenCounter

REPO = Path(__file__).resolve().parents[1]
PRICE = (0.5, 1.5)  # USD per 1M prompt / completion tokens


def reply(body: dict[str, Any]) -> str:
    def one(text: str) -> dict[str, Any]:
        name = text.split(" was ")[0].split("\n")[-1][:40]
        return {"entities": [{"name": name, "type": "Thing"}], "events": [], "relations": [], "hypernodes": []}
    passages = extraction_passages(body)
    if passages[0][0] is None:
        return json.dumps(one(passages[0][1]))
    return json.dumps({pid: one(text) for pid, text in passages})


def project(tmp_path: Path, base_url: str, extractor: str = "llm") -> Path:
    src = tmp_path / "src"
    shutil.copytree(REPO / "samples" / "corpus", src)
    config = tmp_path / "kgbuild.yaml"
    config.write_text(
        "workspace: ws\ngraph_store:\n  backend: none\nvector_store:\n  backend: none\n"
        "align:\n  llm_judge: false\n  llm_hypernyms: false\n"
        f"extract:\n  extractor: {extractor}\n  pack_max_chunks: 3\n"
        f"llm:\n  base_url: {base_url}\n  model: test-model\n  timeout_s: 60\n  max_retries: 0\n"
        f"  prices:\n    test-model: {{prompt_per_1m: {PRICE[0]}, completion_per_1m: {PRICE[1]}}}\n",
        encoding="utf-8")
    return config


def snapshot(root: Path) -> dict[str, str]:
    """Every file and directory under `root` with its content hash: byte-identical means equal."""
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "dir"
            for p in sorted(root.rglob("*"))}


def cli(config: Path, *args: str) -> Any:
    result = CliRunner(env={"KGBUILD_LLM_API_KEY": "sk-test"}).invoke(
        main, ["-c", str(config), "build", str(config.parent / "src"), *args], catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    return result


def dry_run(config: Path, *args: str) -> dict[str, Any]:
    before = snapshot(config.parent)
    estimate: dict[str, Any] = json.loads(cli(config, "--dry-run", "--json", *args).stdout)
    assert snapshot(config.parent) == before  # nothing written, nothing created
    return estimate


@pytest.mark.slow
def test_dry_run_estimate_matches_the_real_build_and_writes_nothing(tmp_path: Path) -> None:
    with ScriptedLLM() as llm:
        llm.reply("", reply, usage=False)  # no usage in replies: the gateway counts with the tokenizer
        config = project(tmp_path, llm.base_url)
        estimate = dry_run(config)
        assert not (tmp_path / "ws").exists() and llm.chat_log() == []
        report = json.loads(cli(config, "--json").stdout)
        log = llm.chat_log()
        assert estimate["chunks_to_extract"] == report["extract"]["chunks_extracted"] > 3
        assert estimate["packed_calls"] >= 1
        # Calls exact; prompt tokens within 5 % of the accounting and of what went over the wire.
        assert estimate["model_calls"] == report["llm"]["total"]["calls"] == len(log)
        counter = TokenCounter()
        sent = sum(counter.count(m["content"]) for r in log for m in r["json"]["messages"])
        assert report["llm"]["total"]["prompt_tokens"] == sent
        assert estimate["prompt_tokens"] == pytest.approx(sent, rel=0.05)
        assert estimate["cost_usd"] == pytest.approx(
            (estimate["prompt_tokens"] * PRICE[0] + estimate["completion_tokens_estimate"] * PRICE[1]) / 1e6)
        assert estimate["completion_tokens_estimate"] > 0 and "example" in estimate["completion_basis"]

        # After the build: everything is cached, so nothing would be sent.
        again = dry_run(config)
        assert (again["model_calls"], again["prompt_tokens"], again["chunks_cached"]) == (0, 0, estimate["chunks"])
        # Without the extraction cache (--no-cache bypasses both caches) everything would be asked again.
        assert dry_run(config, "--no-cache")["model_calls"] == estimate["model_calls"]

        # One document changes: only its chunks would be asked, and the real build agrees.
        doc = sorted((tmp_path / "src").rglob("*.md"))[0]
        doc.write_text(doc.read_text(encoding="utf-8") + "\nIt was changed in 2026.\n", encoding="utf-8")
        changed = dry_run(config)
        assert 1 <= changed["model_calls"] < estimate["model_calls"]
        # With a build behind it, completion tokens are estimated from that build's own replies.
        per_chunk = report["llm"]["by_stage"]["extract"]["completion_tokens"] / report["extract"]["chunks_extracted"]
        assert "measured in this workspace's last build" in changed["completion_basis"]
        assert changed["completion_tokens_estimate"] == round(per_chunk * changed["chunks_to_extract"])
        before = len(llm.chat_log())
        cli(config, "--json")
        assert len(llm.chat_log()) - before == changed["model_calls"]


def test_dry_run_text_output_and_the_reply_cache_is_subtracted(tmp_path: Path) -> None:
    with ScriptedLLM() as llm:
        llm.reply("", reply)
        config = project(tmp_path, llm.base_url)
        cli(config, "--json")
        # The extraction cache gone: the model reply cache still answers every chunk (no calls).
        shutil.rmtree(tmp_path / "ws" / "cache" / "extract")
        estimate = dry_run(config)
        assert estimate["chunks_to_extract"] == estimate["chunks_reply_cached"] == estimate["chunks"]
        assert estimate["model_calls"] == 0
        text = cli(config, "--dry-run").stdout
    assert "nothing was written" in text and "model calls: 0" in text and "estimated cost: $0.0000" in text


def test_dry_run_with_the_offline_extractor_says_no_model_calls(tmp_path: Path) -> None:
    config = project(tmp_path, "http://127.0.0.1:9/v1", extractor="offline")
    estimate = dry_run(config)
    assert estimate["model_calls"] == 0 and estimate["model"] is None and estimate["chunks"] > 0
    text = cli(config, "--dry-run").stdout
    assert "model calls: 0 (offline extractor)" in text
    assert not (tmp_path / "ws").exists()


def test_the_dry_run_reads_and_chunks_through_the_build_s_batches(tmp_path: Path) -> None:
    """The dry run drives the stream stage's read and chunk batch by batch (build.batch_documents):
    one document per batch and the whole corpus at once give the same estimate."""
    config = project(tmp_path, "http://127.0.0.1:9/v1", extractor="offline")
    base = config.read_text(encoding="utf-8")
    config.write_text(base + "build:\n  batch_documents: 0\n", encoding="utf-8")
    whole = dry_run(config)
    config.write_text(base + "build:\n  batch_documents: 1\n", encoding="utf-8")
    batched = dry_run(config)
    assert whole["documents"] > 1 and whole["chunks"] > whole["documents"]
    assert batched == whole


def test_a_skipped_file_makes_the_dry_run_exit_1_and_bad_model_settings_exit_2(tmp_path: Path) -> None:
    config = project(tmp_path, "http://127.0.0.1:9/v1")
    (tmp_path / "src" / "broken.txt").write_bytes(b"\x00\x01\x02 not text \xff\xfe")

    def run(*args: str, env: dict[str, str] | None = None) -> Any:
        return CliRunner(env={"KGBUILD_LLM_API_KEY": "sk-test", **(env or {})}).invoke(
            main, ["-c", str(config), "build", str(tmp_path / "src"), "--dry-run", *args])

    skipped = run()
    assert skipped.exit_code == 1 and "skipped: " in skipped.output and "broken.txt" in skipped.output
    assert run("--keep-going").exit_code == 0
    assert json.loads(run("--json").stdout)["skipped"] and run("--json").exit_code == 1
    for env, problem in ((({"KGBUILD_LLM_MODEL": "m\n"}), "KGBUILD_LLM_MODEL: contains a line break"),
                         (({"KGBUILD_LLM_MODEL": "m" * 100_000}), "KGBUILD_LLM_MODEL: is 100,000 characters"),
                         (({"KGBUILD_LLM_BASE_URL": "ftp://127.0.0.1/v1"}), "KGBUILD_LLM_BASE_URL: has the scheme")):
        refused = run(env=env)
        assert refused.exit_code == 2 and refused.stderr.strip().startswith(f"error: {problem}"), refused.output
        assert len(refused.stderr.strip().splitlines()) == 1
    config.write_text(config.read_text(encoding="utf-8").replace("model: test-model", 'model: "a\\nb"'),
                      encoding="utf-8")
    from_file = run("--keep-going")
    assert from_file.exit_code == 2 and "llm.model: contains a line break" in from_file.stderr


def test_dry_run_names_the_extract_roles_model_and_endpoint_and_the_max_tokens_cap(tmp_path: Path) -> None:
    config = project(tmp_path, "http://127.0.0.1:9/v1")  # never asked: a dry run calls no model
    config.write_text(config.read_text(encoding="utf-8") + "  passage_output_tokens: 500\n  roles:\n"
                      "    extract: {base_url: 'http://127.0.0.1:9/small/v1', model: small-model}\n"
                      "    solve: {model: big-model}\n", encoding="utf-8")
    est = dry_run(config)
    assert est["model"] == "small-model" and est["role"] == "extract"
    assert est["endpoint"] == "http://127.0.0.1:9/small/v1"
    # every request's max_tokens, summed: passages x 500 each
    assert est["completion_tokens_cap"] == 500 * est["chunks_to_extract"]
