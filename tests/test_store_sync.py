"""sync_stores: a graph store that fails does not cost the vector store its writes, and a build
that writes both embedded stores ends."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest
from arcade_server import free_port

pytest.importorskip("milvus_lite")

from kgbuild.build import Builder
from kgbuild.config import load_config
from kgbuild.errors import KgbuildError
from kgbuild.progress import QuietProgress
from kgbuild.store.manifest import StoreManifest
from kgbuild.store.open import manifest_path, vector_target
from kgbuild.store.sync import sync_stores
from kgbuild.workspace import Workspace

pytestmark = pytest.mark.slow  # builds through the CLI in child processes

SAMPLES = Path(__file__).resolve().parents[1] / "samples" / "corpus"


def test_a_graph_store_that_is_down_does_not_stop_the_vectors(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    shutil.copytree(SAMPLES, corpus)
    # free_port: bound, then released, so nothing listens there
    (tmp_path / "kgbuild.yaml").write_text(
        "workspace: ws\nbuild:\n  workers: 1\nvector_store:\n  batch_size: 64\n"
        f"graph_store:\n  backend: neo4j\n  uri: bolt://127.0.0.1:{free_port()}\n  password: secret\n",
        encoding="utf-8")
    config = load_config(tmp_path / "kgbuild.yaml", env={})
    asyncio.run(Builder(config, QuietProgress()).arun([corpus], sync=False))  # tables only
    chunks = Workspace(config.workspace_path()).read_table("chunks", columns=["id"]).num_rows

    with pytest.raises(KgbuildError):
        sync_stores(config)

    # The vector store was written in full while the graph store failed, and the manifest says so:
    # the next sync writes only the graph.
    manifest = StoreManifest(manifest_path(config), vector_target(config))
    try:
        recorded = manifest.hashes(f"{config.vector_store.collection_prefix}_chunks")
        assert len(recorded) == chunks > 10
        assert not manifest.was_interrupted()
    finally:
        manifest.close()


def test_a_build_writing_both_embedded_stores_exits(tmp_path: Path) -> None:
    """The embedded graph store is a JVM: a JVM thread left attached from a worker thread kept the
    process from exiting after a build that wrote the stores from two threads (a design since
    dropped; this keeps any return of it honest)."""
    import json
    import subprocess
    import sys

    corpus = tmp_path / "corpus"
    shutil.copytree(SAMPLES, corpus)
    (tmp_path / "kgbuild.yaml").write_text("workspace: ws\nbuild:\n  workers: 1\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "kgbuild", "-c", str(tmp_path / "kgbuild.yaml"), "build",
                           str(corpus), "--json"], capture_output=True, text=True, timeout=240, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    stores = json.loads(done.stdout)["write"]["stores"]
    assert stores["nodes_written"] > 100 and stores["vectors_written"] > 100
    assert {"graph", "vectors"} <= set(stores["seconds"])
