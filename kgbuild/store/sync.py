"""The write stage of a build: the workspace tables into the graph store and the vector store.

Runs after the tables are persisted, so a store that is down or full loses nothing: the next
`kgbuild build` (or `kgbuild sync`) picks up from the manifest, writing only what the store lacks.
"""

from __future__ import annotations

import time

from kgbuild.config import Config
from kgbuild.progress import ProgressReporter, QuietProgress
from kgbuild.store.graph_rows import read_graph_rows
from kgbuild.store.graph_sync import sync_graph
from kgbuild.store.manifest import StoreManifest
from kgbuild.store.open import graph_target, manifest_path, open_graph_store, vector_target
from kgbuild.store.types import SyncReport
from kgbuild.workspace import Workspace


def sync_stores(config: Config, progress: ProgressReporter | None = None) -> SyncReport:
    progress = progress or QuietProgress()
    workspace = Workspace(config.workspace_path())
    report = SyncReport()
    t = time.perf_counter()
    if config.graph_store.backend != "none":
        _sync_graph(config, workspace, report, progress)
    if config.vector_store.backend != "none":
        _sync_vectors(config, workspace, report, progress)
    report.seconds["total"] = round(time.perf_counter() - t, 3)
    return report


def _sync_graph(config: Config, workspace: Workspace, report: SyncReport, progress: ProgressReporter) -> None:
    rows = read_graph_rows(workspace)
    manifest = StoreManifest(manifest_path(config), graph_target(config))
    store = open_graph_store(config)
    assert store is not None
    report.graph_store = store.name
    try:
        # A store emptied behind kgbuild's back (deleted directory, wiped database) is rewritten in
        # full rather than trusted to hold what the manifest says.
        in_store = store.query("MATCH (n) RETURN count(n) AS n")[0]["n"]
        if not manifest.is_empty() and in_store == 0:
            manifest.reset()
        # Untrusted: the last sync was interrupted, or the store holds data this manifest never
        # recorded (e.g. the workspace was recreated next to an existing database): upsert everything.
        untracked = manifest.is_empty() and in_store > 0
        resumed = manifest.begin()
        report.resumed = resumed or report.resumed
        sync_graph(rows, store, manifest, report, batch_size=config.graph_store.batch_size, progress=progress,
                   trusted=not (resumed or untracked))
        manifest.finish()
    finally:
        store.close()
        manifest.close()


def _sync_vectors(config: Config, workspace: Workspace, report: SyncReport, progress: ProgressReporter) -> None:
    from kgbuild.store.embeddings import open_embedder
    from kgbuild.store.milvus import open_vector_store
    from kgbuild.store.vector_sync import sync_vectors

    manifest = StoreManifest(manifest_path(config), vector_target(config))
    store = open_vector_store(config)
    report.vector_store = store.name
    prefix = config.vector_store.collection_prefix
    embedder = open_embedder(config, config.workspace_path())
    try:
        # After an interrupted sync, or when a collection's row count disagrees with the manifest
        # (a deleted .db file, say), sync_vectors lists the store's ids and reconciles.
        report.resumed = manifest.begin() or report.resumed
        sync_vectors(workspace, store, embedder, manifest, report, prefix=prefix,
                     batch_size=config.vector_store.batch_size, progress=progress)
        manifest.finish()
    finally:
        embedder.close()
        store.close()
        manifest.close()
