"""Opening the configured stores: the only place that maps config to backends."""

from __future__ import annotations

from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kgbuild.config import Config
from kgbuild.embed.types import Embedder
from kgbuild.store.types import GraphStore, VectorStore
from kgbuild.workspace import Workspace


def open_graph_store(config: Config) -> GraphStore | None:
    backend = config.graph_store.backend
    if backend == "none":
        return None
    if backend == "neo4j":
        from kgbuild.store.neo4j_store import Neo4jGraphStore

        return Neo4jGraphStore(config.graph_store)
    from kgbuild.store.arcade import ArcadeGraphStore

    return ArcadeGraphStore(config.graph_store_path())


def graph_target(config: Config) -> str:
    """The manifest namespace of the configured graph store."""
    cfg = config.graph_store
    if cfg.backend == "neo4j":
        return f"graph:neo4j:{cfg.uri}|{cfg.database or ''}"
    return f"graph:embedded:{config.graph_store_path()}"


def vector_target(config: Config) -> str:
    vs = config.vector_store
    return f"vectors:{config.vector_store_uri()}|{vs.db_name or ''}|{vs.collection_prefix}"


def manifest_path(config: Config) -> Path:
    return config.workspace_path() / "stores.sqlite"


def held_by_stores(config: Config) -> dict[str, dict[str, Any]]:
    """What the configured stores hold, by the manifest (`kgbuild status`): backend, where, rows per
    kind and whether the last write was interrupted; the stores themselves are not opened."""
    from kgbuild.store.manifest import store_contents

    out: dict[str, dict[str, Any]] = {}
    targets = {"graph": (config.graph_store.backend, graph_target(config)),
               "vectors": (config.vector_store.backend, vector_target(config))}
    for name, (backend, target) in targets.items():
        if backend == "none":
            out[name] = {"backend": "none"}
            continue
        held = store_contents(manifest_path(config), target)
        where = config.graph_store.uri if backend == "neo4j" else (
            str(config.graph_store_path()) if name == "graph" else config.vector_store_uri())
        out[name] = {"backend": backend, "at": where, "rows": held.rows, "total": held.total,
                     "interrupted": held.interrupted}
    return out


@dataclass
class QueryIndex:
    """Everything a query needs: the workspace tables, the graph store and the vector store."""

    workspace: Workspace
    graph: GraphStore | None
    vectors: VectorStore | None
    embedder: Embedder
    prefix: str

    def close(self) -> None:
        self.embedder.close()
        if self.graph is not None:
            self.graph.close()
        if self.vectors is not None:
            self.vectors.close()


def open_query_index(config: Config, *, open_graph: bool = True) -> QueryIndex:
    """The stores a query reads. open_graph=False leaves `graph` None for the caller to open on
    first use (`open_graph_store`): a retrieval-only query never needs the graph store's JVM."""
    from kgbuild.embed.cached import open_embedder
    from kgbuild.errors import WorkspaceError
    from kgbuild.store.manifest import StoreManifest
    from kgbuild.store.milvus import open_vector_store

    workspace = Workspace(config.workspace_path())
    if not workspace.has_table("chunks"):
        raise WorkspaceError(str(workspace.path), "nothing built yet", "run `kgbuild build SOURCES` first")
    # A build with --no-sync (or one whose store was down) leaves the tables without the stores:
    # say so, instead of failing later on a missing collection or reading an empty graph.
    for setting, backend, target in (("graph_store", config.graph_store.backend, graph_target(config)),
                                     ("vector_store", config.vector_store.backend, vector_target(config))):
        if backend != "none":
            manifest = StoreManifest(manifest_path(config), target)
            try:
                empty = manifest.is_empty()
            finally:
                manifest.close()
            if empty:
                raise WorkspaceError(setting, "the store holds nothing of this workspace yet", "run `kgbuild sync`")
    with ExitStack() as stack:
        graph = open_graph_store(config) if open_graph else None
        if graph is not None:
            stack.callback(graph.close)
        vectors = open_vector_store(config) if config.vector_store.backend != "none" else None
        if vectors is not None:
            stack.callback(vectors.close)
        embedder = open_embedder(config, config.workspace_path())
        stack.pop_all()  # everything opened: the QueryIndex owns it now
    return QueryIndex(workspace, graph, vectors, embedder, config.vector_store.collection_prefix)
