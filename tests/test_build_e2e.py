"""End-to-end builds through the CLI: the samples, bad input next to good input, re-runs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from shared_data import shared_data_dir

from kgbuild.cli import main
from kgbuild.ids import CHUNK_ID_RE
from kgbuild.workspace import Workspace

SAMPLES = Path(__file__).resolve().parents[1] / "samples" / "corpus"
SHARED = shared_data_dir()


NO_STORES = "graph_store:\n  backend: none\nvector_store:\n  backend: none\n"


def project(tmp_path: Path, extra: str = "") -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    config = tmp_path / "kgbuild.yaml"
    config.write_text(f"workspace: ws\nbuild:\n  workers: 1\n{extra}", encoding="utf-8")
    return config


def kg(config: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["-c", str(config), *args], catch_exceptions=False)


def build_json(config: Path, *args: str) -> tuple[int, dict]:
    result = kg(config, "build", *args, "--json")
    return result.exit_code, json.loads(result.stdout)


def tables(config: Path) -> dict[str, list[dict]]:
    ws = Workspace(config.parent / "ws")
    names = ("documents", "chunks", "entities", "relations", "events", "hypernodes", "concepts")
    return {name: ws.rows(name) for name in names}


def assert_provenance(t: dict[str, list[dict]]) -> None:
    chunk_ids = [c["id"] for c in t["chunks"]]
    assert chunk_ids and all(CHUNK_ID_RE.match(c) for c in chunk_ids)
    assert len(set(chunk_ids)) == len(chunk_ids)
    known = set(chunk_ids)
    for name in ("entities", "relations", "events", "hypernodes", "concepts"):
        for row in t[name]:
            # Taxonomy knowledge from the schema or a domain concept file (concepts and isA
            # edges between concepts) has no chunk behind it; everything read from text has.
            from_schema = name == "concepts" or (
                name == "relations" and row["predicate"] == "isA"
                and row["subject_kind"] == row["object_kind"] == "concept")
            assert row["chunk_ids"] or from_schema, f"{name} {row['id']} has no supporting chunk"
            assert set(row["chunk_ids"]) <= known, f"{name} {row['id']} cites a chunk that does not exist"
    # documents <-> chunks link both ways
    by_doc = {d["id"]: d["chunk_ids"] for d in t["documents"]}
    for chunk in t["chunks"]:
        assert chunk["id"] in by_doc[chunk["doc_id"]]


@pytest.fixture(scope="module")
def samples_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    config = project(tmp_path_factory.mktemp("samples"))
    code, report = build_json(config, str(SAMPLES))
    assert code == 0, report
    return config


@pytest.mark.slow
def test_samples_build_a_sensible_graph(samples_build: Path) -> None:
    t = tables(samples_build)
    assert len(t["documents"]) == 12
    assert_provenance(t)
    triples = {(r["subject_name"], r["predicate"], r["object_name"]) for r in t["relations"]}
    people = {e["name"] for e in t["entities"] if e["spg_class"] == "Person"}
    assert {"Alan Turing", "Grace Hopper", "Tommy Flowers", "Ada Lovelace"} <= people
    # A few facts the samples state plainly must come out as triples, not co-occurrence.
    assert any(s == "Alan Turing" and "Maida Vale" in o for s, _, o in triples)
    assert any(s == "Tommy Flowers" and o == "Colossus" for s, _, o in triples)
    assert t["hypernodes"], "dates and places qualify facts as hypernodes"
    assert all(h["subject_kind"] == "relation" or h["object_kind"] == "relation" for h in t["hypernodes"])


@pytest.mark.slow
def test_inspect_filters_and_support(samples_build: Path) -> None:
    rows = json.loads(kg(samples_build, "inspect", "triples", "--entity", "Turing", "--json").stdout)
    assert rows and all("turing" in (r["subject_name"] + r["object_name"]).lower() for r in rows)
    people = json.loads(kg(samples_build, "inspect", "entities", "--type", "person", "-n", "0", "--json").stdout)
    assert people and all(p["spg_class"] == "Person" for p in people)
    by_doc = json.loads(kg(samples_build, "inspect", "triples", "--doc", "people/grace_hopper", "--json").stdout)
    assert by_doc and all("people/grace_hopper" in r["doc_ids"] for r in by_doc)
    support = json.loads(kg(samples_build, "inspect", "support", rows[0]["id"], "--json").stdout)
    assert [c["id"] for c in support["chunks"]] == rows[0]["chunk_ids"]
    assert support["chunks"][0]["text"]
    counts = json.loads(kg(samples_build, "inspect", "--json").stdout)
    assert counts["documents"] == 12 and counts["relations"] == len(tables(samples_build)["relations"])
    assert "documents: 12" in kg(samples_build, "status").stdout


@pytest.mark.slow
def test_rebuild_with_nothing_changed_extracts_nothing_and_gives_identical_tables(samples_build: Path) -> None:
    before = tables(samples_build)
    code, report = build_json(samples_build, str(SAMPLES))
    assert code == 0
    extract = report["extract"]
    assert extract["chunks_extracted"] == 0 and extract["chunks_cached"] == extract["chunks_total"]
    assert report["chunk"]["documents_unchanged"] == 12
    assert tables(samples_build) == before


@pytest.mark.slow
def test_bad_inputs_are_skipped_with_one_line_each_and_the_rest_is_built(tmp_path: Path) -> None:
    src = tmp_path / "src"
    shutil.copytree(SAMPLES / "people", src / "people")
    (src / "empty.txt").write_text("", encoding="utf-8")
    (src / "binary.txt").write_bytes(b"\x00\x01\x02binary")
    (src / "latin1.txt").write_bytes("caf\xe9 au lait".encode("latin-1"))
    (src / "notes.odt").write_bytes(b"PK\x03\x04")  # (.docx is read since issue 14)
    (src / "broken.json").write_text('[{"title": "A", "text": "x"', encoding="utf-8")
    config = project(tmp_path)
    result = kg(config, "build", str(src), "--quiet")
    assert result.exit_code == 1
    lines = [line for line in result.stderr.splitlines() if line.startswith("skipped:")]
    assert len(lines) == 5
    for name in ("empty.txt", "binary.txt", "latin1.txt", "notes.odt", "broken.json"):
        assert sum(name in line for line in lines) == 1, name
    assert "invalid UTF-8" in result.stderr and "unsupported file type" in result.stderr
    assert len(tables(config)["documents"]) == 5  # the five people documents
    # --keep-going: same build, exit 0
    assert kg(config, "build", str(src), "--quiet", "--keep-going").exit_code == 0


@pytest.mark.slow
def test_documents_from_earlier_builds_are_kept_and_a_changed_one_is_replaced(tmp_path: Path) -> None:
    src = tmp_path / "src"
    shutil.copytree(SAMPLES / "people", src / "people")
    shutil.copytree(SAMPLES / "machines", src / "machines")
    config = project(tmp_path)
    assert build_json(config, str(src / "people"))[0] == 0
    code, report = build_json(config, str(src / "machines"))
    assert code == 0 and report["chunk"]["documents_total"] == 5 + report["read"]["documents_read"]
    first = tables(config)
    hopper = src / "people" / "grace_hopper.md"
    hopper.write_text(hopper.read_text(encoding="utf-8") + "\n\nHopper visited Tokyo in 1985.\n", encoding="utf-8")
    code, report = build_json(config, str(src / "people"))
    assert code == 0 and report["chunk"]["documents_changed"] == 1 and report["chunk"]["documents_unchanged"] == 4
    old_chunks = [c for c in first["chunks"] if c["doc_id"] == "grace_hopper"]
    assert report["extract"]["chunks_extracted"] == len(old_chunks) + 1 or report["extract"]["chunks_extracted"] >= 1
    after = tables(config)
    assert any(e["name"] == "Tokyo" for e in after["entities"])
    assert_provenance(after)
    unchanged = [c for c in first["chunks"] if c["doc_id"] != "grace_hopper"]
    assert [c for c in after["chunks"] if c["doc_id"] != "grace_hopper"] == unchanged


@pytest.mark.slow
def test_parallel_workers_give_the_same_graph_as_one_process(tmp_path: Path, samples_build: Path) -> None:
    config = project(tmp_path, "extract:\n  batch_size: 4\n")
    code, report = build_json(config, str(SAMPLES), "--workers", "2")
    assert code == 0 and report["workers"] == 2
    assert report["extract"]["chunks_extracted"] == report["extract"]["chunks_total"]
    assert tables(config) == tables(samples_build)


def test_a_schema_typo_stops_the_build_with_one_line_and_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\nfallback_class: Thing\nentity_types:\n  Thing: {}\n  Person:\n    parnt: Thing\n",
                   encoding="utf-8")
    config = project(tmp_path, f"schema: {bad}\n")
    result = kg(config, "build", str(SAMPLES / "people"))
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "bad.yaml:6" in result.stderr and "parnt" in result.stderr
    assert not (tmp_path / "ws" / "tables" / "documents.parquet").exists()


def test_schema_check_command(tmp_path: Path) -> None:
    repo = Path(__file__).resolve().parents[1]
    ok = CliRunner().invoke(main, ["schema", "check", str(repo / "schemas" / "open_domain.yaml")])
    assert ok.exit_code == 0 and "ok" in ok.stdout
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\nfallback_class: Thng\nentity_types:\n  Thing: {}\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["schema", "check", str(bad)])
    assert result.exit_code == 2 and "bad.yaml:2" in result.stderr and "Thing" in result.stderr


def test_init_writes_a_config_that_builds(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["init", str(tmp_path / "proj")])
    assert result.exit_code == 0
    again = CliRunner().invoke(main, ["init", str(tmp_path / "proj")])
    assert again.exit_code == 2 and "--force" in again.stderr
    unknown = CliRunner().invoke(main, ["init", str(tmp_path / "p2"), "--schema", "nope"])
    assert unknown.exit_code == 2 and "nope" in unknown.stderr


def test_inspect_before_any_build_says_what_to_do(tmp_path: Path) -> None:
    result = kg(project(tmp_path), "inspect", "triples")
    assert result.exit_code == 2 and "kgbuild build" in result.stderr


@pytest.mark.slow
@pytest.mark.skipif(not (SHARED / "hotpotqa" / "train_corpus.json").exists(), reason="shared data not present")
def test_hotpotqa_corpus_builds_with_stable_ids(tmp_path: Path) -> None:
    corpus = SHARED / "hotpotqa" / "train_corpus.json"
    # The stores have their own tests (test_graph_store, test_vector_sync); this one is about the tables.
    a = project(tmp_path / "a", NO_STORES)
    b = project(tmp_path / "b", NO_STORES)
    for config in (a, b):
        code, report = build_json(config, str(corpus), "--workers", "2")
        assert code == 0 and report["read"]["documents_read"] == 994
        assert not report["read"]["skipped"] and not report["chunk"]["skipped"]
    # Alignment connects the graph: fewer components, larger 2-hop neighbourhoods (KAG Figure 9).
    before, after = report["align"]["alignment"]["before"], report["align"]["alignment"]["after"]
    assert after["components"] < before["components"]
    assert after["hops"]["2"]["mean"] > before["hops"]["2"]["mean"]
    assert report["align"]["alignment"]["entities_merged"] > 0 and report["align"]["alignment"]["belong_to_links"] > 0
    ta, tb = tables(a), tables(b)
    assert_provenance(ta)
    assert [c["id"] for c in ta["chunks"]] == [c["id"] for c in tb["chunks"]]
    assert ta == tb


@pytest.mark.slow
@pytest.mark.skipif(not (SHARED / "hotpotqa" / "train_corpus.json").exists(), reason="shared data not present")
def test_a_build_killed_mid_extraction_resumes_to_the_same_graph(tmp_path: Path) -> None:
    import os
    import signal
    import subprocess
    import sys
    import time

    corpus = json.loads((SHARED / "hotpotqa" / "train_corpus.json").read_text(encoding="utf-8"))
    subset = tmp_path / "subset.json"
    subset.write_text(json.dumps(dict(list(corpus.items())[:300])), encoding="utf-8")
    whole = project(tmp_path / "whole", "extract:\n  batch_size: 8\n" + NO_STORES)
    assert build_json(whole, str(subset))[0] == 0

    killed = project(tmp_path / "killed", "extract:\n  batch_size: 8\n" + NO_STORES)
    cmd = [sys.executable, "-m", "kgbuild", "-c", str(killed), "build", str(subset), "--quiet"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    cache_dir = killed.parent / "ws" / "cache" / "extract"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        lines = sum(f.read_bytes().count(b"\n") for f in cache_dir.glob("*.jsonl")) if cache_dir.exists() else 0
        if lines >= 40:
            break
        time.sleep(0.05)
    assert proc.poll() is None, "the build finished before it could be killed"
    os.kill(proc.pid, signal.SIGKILL)  # our own child, by its PID
    proc.wait()

    code, report = build_json(killed, str(subset))
    assert code == 0
    extract = report["extract"]
    assert extract["chunks_cached"] >= 40
    assert extract["chunks_cached"] + extract["chunks_extracted"] == extract["chunks_total"]
    assert tables(killed) == tables(whole)
