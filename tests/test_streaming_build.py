"""The streamed build (issue 14): read, chunk and extract in batches of `build.batch_documents`,
assemble from the extraction cache. Its tables must be the very tables of a build in one batch, on a
first build and on an incremental one (changed and pruned documents), and a build killed between
batches must resume from what it had extracted."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from shared_data import shared_data_dir

pytestmark = pytest.mark.slow  # builds in child processes, one killed between batches

TABLES = ("documents", "chunks", "entities", "relations", "events", "hypernodes", "concepts", "drops", "merges")
REPO = Path(__file__).resolve().parents[1]


def passages(count: int) -> list[dict[str, str]]:
    path = shared_data_dir() / "hotpotqa" / "train_corpus.json"
    if not path.exists():
        pytest.skip(f"{path}: shared HotpotQA corpus not found")
    data = json.loads(path.read_text(encoding="utf-8"))
    return [{"title": title, "text": "".join(sentences)} for title, sentences in list(data.items())[:count]]


def write_corpus(src: Path, records: list[dict[str, str]]) -> None:
    """A JSONL corpus, the samples (Markdown, HTML, text, JSONL), a duplicate record and a file that cannot be read."""
    src.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps(r) for r in records]
    lines.insert(5, json.dumps(records[0]))  # same id and text: skipped as a duplicate
    lines.insert(9, json.dumps({"title": records[1]["title"], "text": "Another text under a taken title."}))
    (src / "corpus.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    shutil.copytree(REPO / "samples" / "corpus", src / "samples", dirs_exist_ok=True)
    (src / "broken.pdf").write_bytes(b"%PDF-1.4 not really a pdf")


def project(root: Path, batch: int, workers: int = 2) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    config = root / "kgbuild.yaml"
    # extract.batch_size 4: every batch of documents is several pool jobs, so the workers serve batch after batch.
    config.write_text(f"workspace: ws\ngraph_store: {{backend: none}}\nvector_store: {{backend: none}}\n"
                      f"build: {{workers: {workers}, batch_documents: {batch}}}\nextract: {{batch_size: 4}}\n",
                      encoding="utf-8")
    return config


def build(config: Path, *sources: Path, prune: bool = False) -> dict:
    import asyncio

    from kgbuild.build import Builder
    from kgbuild.config import load_config

    report = asyncio.run(Builder(load_config(config, env={})).arun(list(sources), prune=prune, sync=False))
    return json.loads(report.model_dump_json())


def assert_same_tables(a: Path, b: Path) -> None:
    for name in TABLES:
        left, right = pq.read_table(a / "tables" / f"{name}.parquet"), pq.read_table(b / "tables" / f"{name}.parquet")
        assert left.num_rows == right.num_rows, name
        assert left.equals(right), name


def test_batches_give_the_tables_of_one_batch_first_and_incremental(tmp_path: Path) -> None:
    records = passages(12)
    src = tmp_path / "src"
    write_corpus(src, records)
    # The one-batch build in-process, the streamed one with two workers kept across its batches.
    whole, streamed = project(tmp_path / "whole", 0, workers=1), project(tmp_path / "streamed", 4)

    first_whole, first_streamed = build(whole, src), build(streamed, src)
    assert_same_tables(whole.parent / "ws", streamed.parent / "ws")
    for section in ("read", "chunk", "assemble"):
        assert first_whole[section] == first_streamed[section], section
    assert first_streamed["read"]["documents_read"] > 12 and first_streamed["read"]["skipped"]
    assert first_streamed["extract"]["chunks_extracted"] == first_streamed["extract"]["chunks_total"] > 12

    # Next build: one record changed, the samples gone (pruned), the rest unchanged.
    records[3] = {"title": records[3]["title"], "text": "Alan Turing was born in London in 1912."}
    write_corpus(src, records)
    shutil.rmtree(src / "samples")
    second_whole, second_streamed = build(whole, src, prune=True), build(streamed, src, prune=True)
    assert_same_tables(whole.parent / "ws", streamed.parent / "ws")
    for section in ("read", "chunk", "extract"):
        assert second_whole[section] == second_streamed[section], section
    assert second_streamed["read"]["documents_removed"] > 0
    assert second_streamed["chunk"]["documents_changed"] == 1
    assert second_streamed["extract"]["chunks_extracted"] == 1  # the changed record; the rest from the cache


def cache_lines(workspace: Path) -> int:
    files = list((workspace / "cache" / "extract").glob("*.jsonl")) if (workspace / "cache").exists() else []
    return sum(f.read_bytes().count(b"\n") for f in files)


def test_a_build_killed_between_batches_resumes_and_ends_with_the_same_tables(tmp_path: Path) -> None:
    records = passages(80)
    src = tmp_path / "src"
    src.mkdir()
    (src / "corpus.jsonl").write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    config = project(tmp_path / "killed", 10, workers=1)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    cmd = [sys.executable, "-m", "kgbuild", "-c", str(config), "build", str(src), "--json", "--no-sync"]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workspace = config.parent / "ws"
    deadline = time.monotonic() + 120
    try:
        # Every batch's results are on disk when the next batch starts: kill once two batches are.
        while cache_lines(workspace) < 20 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    kept = cache_lines(workspace)
    assert 20 <= kept < len(records), "the build finished (or never started) before it could be killed"
    assert not (workspace / "tables" / "entities.parquet").exists()  # killed before anything was persisted

    resumed = build(config, src)
    assert resumed["extract"]["chunks_cached"] >= kept
    assert resumed["extract"]["chunks_extracted"] == resumed["extract"]["chunks_total"] - resumed["extract"][
        "chunks_cached"]
    clean = project(tmp_path / "clean", 0, workers=1)
    build(clean, src)
    assert_same_tables(clean.parent / "ws", workspace)
