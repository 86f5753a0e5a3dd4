"""What a user reads after a build (issue 17, items 4 and 11): the report's wording, the off-schema
counts (kept unless extract.strict_schema), `status`'s model usage over every build, the `init`
template and the `sync --json` help."""

from __future__ import annotations

import asyncio
import typing
from pathlib import Path

import pytest
from click.testing import CliRunner

from kgbuild.align.pipeline import AlignmentReport
from kgbuild.cli import main
from kgbuild.cli.report import print_report
from kgbuild.config import ExtractConfig, default_config_text, load_config
from kgbuild.llm.types import UsageTotals
from kgbuild.report import AlignSection, BuildReport, LLMSection, load_report

TEXT = """# Enigma

Alan Turing joined Bletchley Park in 1939. Turing designed the Bombe with Gordon Welchman.
Welchman admired Turing. The Bombe helped the codebreakers of Hut 8.
"""


def _project(tmp_path: Path, extra: str = "") -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "doc.md").write_text(TEXT, encoding="utf-8")
    (tmp_path / "kgbuild.yaml").write_text(
        "workspace: ws\ngraph_store:\n  backend: none\nvector_store:\n  backend: none\nbuild:\n  workers: 1\n" + extra,
        encoding="utf-8")
    return tmp_path


def _build(root: Path) -> BuildReport:
    from kgbuild.build import Builder

    config = load_config(root / "kgbuild.yaml", env={})
    return asyncio.run(Builder(config).arun([root / "doc.md"]))


def test_worker_count_and_alignment_summary_read_as_english(capsys: pytest.CaptureFixture[str]) -> None:
    report = BuildReport(started_at="now", workspace="ws", workers=2)
    report.add(AlignSection(alignment=AlignmentReport(merges_by_step={"exact": 1, "variant": 2}, entities_merged=3,
                                                      isa_completions=1, isa_by_step={"schema_tree": 1, "llm": 0})))
    print_report(report)
    out = " ".join(capsys.readouterr().out.split())
    assert "(2 workers)" in out and "worker(s)" not in out
    assert "alignment: 3 entities merged (exact 1, variant 2)" in out
    assert "1 isA completion (schema tree 1)" in out
    assert "{" not in out and "'" not in out
    report.workers = 1
    print_report(report)
    assert "(1 worker)" in " ".join(capsys.readouterr().out.split())


def test_init_template_names_every_extractor_and_what_constrained_and_strict_do() -> None:
    text = default_config_text("demo", "open_domain")
    line = next(x for x in text.splitlines() if x.strip().startswith("extractor:"))
    choices = typing.get_args(ExtractConfig.model_fields["extractor"].annotation)
    assert choices and all(c in line.split("#", 1)[1] for c in choices), line
    assert "later stages" not in text
    constrained = next(x for x in text.splitlines() if x.strip().startswith("constrained:"))
    strict = next(x for x in text.splitlines() if x.strip().startswith("strict_schema:"))
    assert "KEPT" in constrained and "only this drops" in strict


def test_sync_json_has_help() -> None:
    out = CliRunner().invoke(main, ["sync", "--help"]).output
    line = next(x for x in out.splitlines() if "--json" in x)
    assert line.split("--json", 1)[1].strip(), out


@pytest.mark.slow
def test_off_schema_items_are_counted_kept_or_dropped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    kept = _build(_project(tmp_path / "kept"))
    assert kept.assemble is not None and not kept.assemble.strict_schema
    n_kept = kept.assemble.off_schema["relations with an undeclared predicate"]
    assert n_kept > 0, kept.assemble.off_schema
    print_report(kept)
    out = " ".join(capsys.readouterr().out.split())
    assert f"off-schema kept (extract.strict_schema: false): {n_kept} relations with an undeclared predicate" in out

    dropped = _build(_project(tmp_path / "strict", "extract:\n  strict_schema: true\n"))
    assert dropped.assemble is not None and dropped.assemble.strict_schema
    assert dropped.assemble.off_schema["relations with an undeclared predicate"] >= n_kept
    print_report(dropped)
    assert "off-schema dropped (extract.strict_schema: true)" in " ".join(capsys.readouterr().out.split())

    status = CliRunner().invoke(main, ["-c", str(tmp_path / "kept" / "kgbuild.yaml"), "status"])
    assert f"off-schema kept (extract.strict_schema: false): {n_kept} relations" in " ".join(status.output.split())


@pytest.mark.slow
def test_status_shows_the_last_build_and_the_project_total_of_model_usage(tmp_path: Path) -> None:
    root = _project(tmp_path)
    _build(root)
    reports = root / "ws" / "reports"
    (saved,) = reports.glob("build-*.json")
    import json

    base = load_report(json.loads(saved.read_text(encoding="utf-8")))
    assert base is not None
    # Two earlier model builds and the last one (plus a sync copy of it, which must not count twice).
    for name, calls, tokens in (("build-1", 3, 100), ("build-2", 4, 200), ("build-3", 5, 300)):
        base.llm = LLMSection(total=UsageTotals(calls=calls, requests=calls, prompt_tokens=tokens, cost_usd=0.5))
        (reports / f"{name}.json").write_text(base.model_dump_json(), encoding="utf-8")
    (reports / "latest.json").write_text(base.model_dump_json(), encoding="utf-8")
    (reports / "sync-9.json").write_text(base.model_dump_json(), encoding="utf-8")
    out = CliRunner().invoke(main, ["-c", str(root / "kgbuild.yaml"), "status"]).output
    text = " ".join(out.split())
    assert "model usage, last build: 5 calls" in text and "300 prompt" in text
    assert "model usage, all builds (3 with a model): 12 calls" in text and "600 prompt" in text and "~$1.5000" in text


def test_status_json_reports_what_the_stores_hold_not_only_what_the_last_run_changed(
        samples_project: Path) -> None:
    import json

    config = str(samples_project / "kgbuild.yaml")  # the shared samples build: status only reads it
    info = json.loads(CliRunner().invoke(main, ["-c", config, "status", "--json"]).output)
    graph, vectors = info["stores"]["graph"], info["stores"]["vectors"]
    assert graph["backend"] == "embedded" and graph["at"].endswith("graph")
    assert graph["rows"]["node"] >= info["counts"]["entities"] > 0 and graph["rows"]["edge"] > 0
    assert graph["total"] == graph["rows"]["node"] + graph["rows"]["edge"]
    assert vectors["backend"] == "milvus" and vectors["total"] >= info["counts"]["chunks"] > 0
    assert not graph["interrupted"] and not vectors["interrupted"]
    assert info["last_build"]["stores"] is not None  # the last run's own counts stay beside it
    human = " ".join(CliRunner().invoke(main, ["-c", config, "status"]).output.split())
    assert f"graph store (embedded) holds: {graph['rows']['edge']} edge, {graph['rows']['node']} node" in human
