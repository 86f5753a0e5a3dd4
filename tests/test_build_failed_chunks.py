"""`kgbuild build --json`: stdout is only the report, so the failed chunks are named on stderr
(issue 16), one line each up to a cap. A real build over HTTP to a scripted model server."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from llm_server import ScriptedLLM

from kgbuild.cli import main
from kgbuild.cli.report import FAILED_CHUNK_LINES

GOOD = "# Alan Turing\n\nAlan Turing was born in London in 1912.\n"
EMPTY = json.dumps({"entities": [], "events": [], "relations": [], "hypernodes": []})


def project(tmp_path: Path, llm: ScriptedLLM, broken: int) -> Path:
    src = tmp_path / "src"
    src.mkdir()
    (src / "good.md").write_text(GOOD, encoding="utf-8")
    for i in range(broken):
        (src / f"broken{i:02d}.md").write_text(f"# Broken {i}\n\nBrokenmarker{i} is a passage.\n", encoding="utf-8")
    config = tmp_path / "kgbuild.yaml"
    config.write_text(
        "workspace: ws\ngraph_store:\n  backend: none\nvector_store:\n  backend: none\n"
        "extract:\n  extractor: llm\n  max_reasks: 0\n"
        f"llm:\n  base_url: {llm.base_url}\n  model: test-model\n  timeout_s: 2\n  max_retries: 0\n",
        encoding="utf-8",
    )
    return config


def run_build(config: Path) -> tuple[int, dict, list[str]]:
    result = CliRunner(env={"KGBUILD_LLM_API_KEY": "sk-test"}).invoke(
        main, ["-c", str(config), "build", str(config.parent / "src"), "--json"], catch_exceptions=False)
    report = json.loads(result.stdout)  # stdout stays pure JSON
    return result.exit_code, report, result.stderr.splitlines()


def test_json_build_names_each_failed_chunk_on_stderr(tmp_path: Path) -> None:
    with ScriptedLLM() as llm:
        llm.reply("", EMPTY)
        llm.reply("Brokenmarker", "this is not JSON at all")  # the newest matching rule wins
        code, report, stderr = run_build(project(tmp_path, llm, broken=2))
    assert code == 1 and report["extract"]["chunks_failed"] == 2
    failed = [line for line in stderr if line.startswith("failed chunk: ")]
    assert len(failed) == 2, stderr
    assert [line.split(": ")[1].split("#")[0] for line in failed] == ["broken00", "broken01"]
    assert all("extractor error" in line for line in failed)
    assert not any(line.startswith("failed chunk: good") for line in stderr)


def test_many_failed_chunks_are_capped_with_a_count_of_the_rest(tmp_path: Path) -> None:
    broken = FAILED_CHUNK_LINES + 3
    with ScriptedLLM() as llm:
        llm.reply("", EMPTY)
        llm.reply("Brokenmarker", "this is not JSON at all")  # the newest matching rule wins
        code, report, stderr = run_build(project(tmp_path, llm, broken=broken))
    assert code == 1 and report["extract"]["chunks_failed"] == broken
    assert len([line for line in stderr if line.startswith("failed chunk: ")]) == FAILED_CHUNK_LINES
    assert any(line.startswith("... and 3 more failed chunk(s)") for line in stderr), stderr
