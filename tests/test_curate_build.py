"""Issue 27: corrections survive rebuilds, incremental builds and --prune, against the embedded
ArcadeDB store; `kgbuild sync` after one correction writes only the rows it touches (counted through
the store manifest); a correction whose target a prune removed is reported stale, not dropped."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from test_graph_store import SAMPLES, embedded_dump, project

from kgbuild.build import Builder
from kgbuild.cli import main
from kgbuild.config import Config
from kgbuild.report import BuildReport
from kgbuild.store.manifest import StoreManifest
from kgbuild.store.open import graph_target, manifest_path
from kgbuild.workspace import Workspace

pytestmark = pytest.mark.slow  # four builds of the samples, through the library and the CLI


def cli(config: Config, *args: str) -> Result:
    result = CliRunner().invoke(main, ["-c", str(config.file), *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result


def build(config: Config, sources: list[Path], **kwargs: Any) -> BuildReport:
    report = asyncio.run(Builder(config).arun(sources, **kwargs))
    assert not report.store_error, report.store_error
    return report


def nodes(config: Config) -> dict[str, tuple[tuple[str, ...], dict[str, Any]]]:
    return {i: (labels, json.loads(p)) for i, labels, p in embedded_dump(config)["nodes"]}


def named(config: Config, name: str) -> list[tuple[tuple[str, ...], dict[str, Any]]]:
    return [node for node in nodes(config).values() if node[1].get("name") == name]


def triples(config: Config) -> set[tuple[str, str, str]]:
    found = nodes(config)
    name = {i: props.get("name") for i, (_, props) in found.items()}
    return {(name[s], kind, name[d]) for s, kind, d, _, _ in embedded_dump(config)["edges"]}


def manifest_rows(config: Config) -> dict[str, str]:
    manifest = StoreManifest(manifest_path(config), graph_target(config))
    try:
        return {**manifest.hashes("node"), **manifest.hashes("edge")}
    finally:
        manifest.close()


def assert_corrected(config: Config, *, vassar: bool = True) -> None:
    found = triples(config)
    assert not any(s == "Gordon Welchman" and o == "Alan Turing" for s, _, o in found)  # rejected
    assert ("Alan Turing", "BORN_IN", "Maida Vale Hospital") in found  # added
    (hut,) = named(config, "Hut Eight")  # renamed, the old name an alias
    assert "Hut 8" in hut[1]["aliases"] and not named(config, "Hut 8")
    assert not named(config, "Manchester Mark 1")  # merged into Manchester Baby
    (baby,) = named(config, "Manchester Baby")
    assert "Manchester Mark 1" in baby[1]["aliases"]
    assert len(named(config, "von Neumann")) == 1  # kept apart from John von Neumann
    if vassar:
        (town,) = named(config, "Vassar")
        assert "Organization" in town[0]  # retyped from Thing


def test_corrections_survive_rebuild_incremental_build_and_prune(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    shutil.copytree(SAMPLES, corpus)
    config = project(tmp_path / "proj")
    build(config, [corpus])
    assert any(s == "Gordon Welchman" and o == "Alan Turing" for s, _, o in triples(config))
    assert not named(config, "von Neumann")  # fusion folds it into John von Neumann

    # One correction, then `kgbuild sync`: the node it renames and the edges that name it, nothing else.
    before = manifest_rows(config)
    cli(config, "curate", "rename", "Hut 8", "Hut Eight", "--reason", "spelled out", "--author", "ann")
    written = json.loads(cli(config, "sync", "--json").output)
    after = manifest_rows(config)
    changed = {k for k in after if before.get(k) != after[k]} | (set(before) - set(after))
    ((hut_id, _),) = [(i, n) for i, n in nodes(config).items() if n[1].get("name") == "Hut Eight"]
    edges = Workspace(config.workspace_path()).rows("relations")
    naming_it = {r["id"] for r in edges if hut_id in (r["subject_id"], r["object_id"])}
    keys = {k.split("\t")[-1] for k in changed}  # manifest keys are "label<TAB>id"
    assert hut_id in keys and keys <= {hut_id} | naming_it, changed  # the node, at most its own edges
    assert written["nodes_written"] == 1 and written["nodes_deleted"] == 0
    assert written["edges_written"] <= len(naming_it) + 2
    assert written["unchanged"] > 20 * (written["nodes_written"] + written["edges_written"])

    # Every other kind through the CLI; `sync` applies them.
    cli(config, "curate", "reject", "Gordon Welchman", "build at", "Alan Turing", "-m", "misread")
    cli(config, "curate", "merge", "Manchester Baby", "Manchester Mark 1", "-m", "same machine")
    cli(config, "curate", "retype", "Vassar", "Organization")
    cli(config, "curate", "add", "Alan Turing", "bornIn", "Maida Vale Hospital", "--object-class",
        "GeographicLocation", "--note", "a biography")
    cli(config, "curate", "never-merge", "John von Neumann", "von Neumann")
    listed = cli(config, "curate", "list").output
    assert "1  rename 'Hut 8' to 'Hut Eight' -- spelled out  (ann," in listed
    assert "6  never merge 'John von Neumann' and 'von Neumann'" in listed
    cli(config, "sync")
    assert_corrected(config)
    corrected = embedded_dump(config)

    # A rebuild of the same sources: the same store, row for row (ids stay content-derived).
    report = build(config, [corpus])
    assert report.corrections is not None and report.corrections.applied == {
        "rename": 1, "reject": 1, "merge": 1, "retype": 1, "add": 1, "never_merge": 1}
    assert report.corrections.stale == []
    assert embedded_dump(config) == corrected

    # An incremental build (one unrelated document changed) keeps them.
    ada = corpus / "people" / "ada_lovelace.md"
    ada.write_text(ada.read_text(encoding="utf-8") + "\n\nShe corresponded with Michael Faraday.\n",
                   encoding="utf-8")
    report = build(config, [corpus])
    assert report.corrections is not None and not report.corrections.stale
    assert_corrected(config)

    # A prune that removes the only document naming Vassar: that retype is stale, named in the report
    # and by `status`, and stays in the file; the others still hold.
    shutil.move(str(corpus / "people" / "grace_hopper.md"), tmp_path / "grace_hopper.md")
    report = build(config, [corpus], prune=True)
    assert report.corrections is not None
    assert report.corrections.stale == ["correction 4 (retype 'Vassar' as Organization): no entity named 'Vassar'"]
    assert_corrected(config, vassar=False)
    status = cli(config, "status").output
    assert "stale correction: correction 4 (retype 'Vassar' as Organization): no entity named 'Vassar'" in status
    assert "[stale]" in cli(config, "curate", "list").output.splitlines()[3]

    # Undo the merge: the next sync re-aligns and the two machines are apart again.
    cli(config, "curate", "undo", "3")
    cli(config, "sync")
    assert named(config, "Manchester Mark 1")
