"""A build killed with SIGKILL while writing the stores, then run again, ends with the same graph
as a build that was never interrupted: nothing duplicated, nothing lost."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from test_graph_store import SAMPLES, build, embedded_dump, project

pytestmark = pytest.mark.slow  # builds in child processes killed with -9, then resumed

# Runs a build in a child process whose progress reporter SIGKILLs the process after `after`
# units of stage `stage`: a crash at a precise point without timing races.
CHILD = textwrap.dedent("""
    import asyncio, os, signal, sys
    from contextlib import contextmanager
    from pathlib import Path
    from kgbuild.build import Builder
    from kgbuild.config import load_config

    stage_name, after = sys.argv[3], int(sys.argv[4])

    if stage_name == "record":
        # The narrowest window: a batch committed to the store, the manifest not yet told.
        from kgbuild.store import manifest as m
        original, calls = m.StoreManifest.record, [0]
        def record(self, kind, items, **kwargs):
            calls[0] += 1
            if calls[0] >= after:
                os.kill(os.getpid(), signal.SIGKILL)
            return original(self, kind, items, **kwargs)
        m.StoreManifest.record = record

    class Killer:
        done = 0
        @contextmanager
        def stage(self, name, total=None):
            def advance(n=1):
                if name == stage_name:
                    Killer.done += n
                    if Killer.done >= after:
                        os.kill(os.getpid(), signal.SIGKILL)
            yield advance

    config = load_config(Path(sys.argv[1]), env={})
    asyncio.run(Builder(config, Killer()).arun([Path(sys.argv[2])]))
""")


@pytest.fixture(scope="module")
def corpus() -> Path:
    return SAMPLES / "people"  # five documents: enough batches to kill mid-way, quick to rebuild


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory, corpus: Path) -> dict:
    config = project(tmp_path_factory.mktemp("reference"), "graph_store:\n  batch_size: 50\n")
    build(config, [corpus])
    return embedded_dump(config)


@pytest.mark.parametrize("stage,after", [("extract", 5), ("graph", 120), ("graph", 400), ("record", 3), ("record", 9)])
def test_kill_9_then_resume_gives_the_uninterrupted_graph(tmp_path: Path, corpus: Path, reference: dict,
                                                          stage: str, after: int) -> None:
    config = project(tmp_path / "p", "graph_store:\n  batch_size: 50\n")
    child = subprocess.run([sys.executable, "-c", CHILD, str(config.file), str(corpus), stage, str(after)],
                           capture_output=True, text=True, timeout=300)
    assert child.returncode == -9, child.stderr[-2000:]
    stats = build(config, [corpus])
    if stage in ("graph", "record"):
        assert stats["resumed"]
    assert embedded_dump(config) == reference


def test_kill_9_while_writing_vectors_then_resume(tmp_path: Path, corpus: Path) -> None:
    """The same with the vector store on: no vector duplicated or lost, no text embedded twice."""
    from kgbuild.store.milvus import open_vector_store

    def vectors_of(config) -> dict[str, set[str]]:
        store = open_vector_store(config)
        try:
            return {c: store.ids(f"kgbuild_{c}") for c in ("chunks", "entities", "concepts")}
        finally:
            store.close()

    extra = "graph_store:\n  batch_size: 50\n"
    whole = project(tmp_path / "whole", extra, vectors=True)
    build(whole, [corpus])
    config = project(tmp_path / "p", extra, vectors=True)
    child = subprocess.run([sys.executable, "-c", CHILD, str(config.file), str(corpus), "vectors", "60"],
                           capture_output=True, text=True, timeout=300)
    assert child.returncode == -9, child.stderr[-2000:]
    stats = build(config, [corpus])
    assert stats["resumed"] and stats["embeddings_cached"] > 0  # what was embedded before the kill is reused
    assert vectors_of(config) == vectors_of(whole)
    assert embedded_dump(config) == embedded_dump(whole)


def test_a_second_kill_during_the_recovery_sync_still_resumes_cleanly(tmp_path: Path, corpus: Path,
                                                                     reference: dict) -> None:
    """Killed, then killed again while the resumed sync rewrites: the dirty flag must survive the
    manifest being rebuilt from the store, or the third run would create duplicates."""
    config = project(tmp_path / "p", "graph_store:\n  batch_size: 50\n")
    for after in (6, 4):
        child = subprocess.run([sys.executable, "-c", CHILD, str(config.file), str(corpus), "record", str(after)],
                               capture_output=True, text=True, timeout=300)
        assert child.returncode == -9, child.stderr[-2000:]
    stats = build(config, [corpus])
    assert stats["resumed"]
    assert embedded_dump(config) == reference
