"""The write stage of a build: the workspace tables into the graph store and the vector store.

Runs after the tables are persisted, so a store that is down or full loses nothing: the next
`kgbuild build` (or `kgbuild sync`) picks up from the manifest, writing only what the store lacks.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import ExitStack

from kgbuild.config import Config
from kgbuild.embed.models import ModelPool, SentenceEmbedder
from kgbuild.errors import KgbuildError
from kgbuild.ids import content_hash
from kgbuild.progress import ProgressReporter, QuietProgress
from kgbuild.schema import resolve_schema, schema_path
from kgbuild.store import cypher
from kgbuild.store.changed_rows import changed_since, tables_state
from kgbuild.store.graph_rows import read_graph_rows, rows_code
from kgbuild.store.graph_sync import sync_graph, sync_owned
from kgbuild.store.labels import predicate_type, schema_typer
from kgbuild.store.manifest import StoreManifest
from kgbuild.store.open import graph_target, manifest_path, open_graph_store, vector_target
from kgbuild.store.owned_rows import owned_rows, with_referrers
from kgbuild.store.types import SyncReport, VectorStore
from kgbuild.workspace import Workspace

# What an LLM build did for the vector store while it waited (kgbuild.build.vector_prefetch): waits for
# it, and gives the vector store it opened, if any.
VectorsAhead = Callable[[], VectorStore | None]


def sync_stores(config: Config, progress: ProgressReporter | None = None,
                models: ModelPool | None = None, ahead: VectorsAhead | None = None) -> SyncReport:
    """`models`: the build's model pool, so the vectors come from the model its other stages loaded.
    `ahead`: an LLM build's vector work done alongside (kgbuild.build.vector_prefetch: the vector store
    opened while it waited on the model, the vectors of the final tables embedded while the graph
    store is written); called once the graph store is written, it waits for that work and returns
    the store it opened (None: opened here), which is closed here like one opened here.

    The graph store first, then the vector store, each from its own reading of the workspace into
    its own manifest target and its own report. A graph store that fails does not cost the vector
    store its writes: its error is raised after the vectors are written (and recorded).

    Not side by side: both are CPU-bound on 2 cores (the embedded graph store's JVM, the embedding
    model), and written at once on 2Wiki they took as long as one after the other (static vectors:
    43-46 s against 42-43 s for the whole sync) with a higher peak (3.3 GB in a default build).
    """
    progress = progress or QuietProgress()
    t = time.perf_counter()
    graph, vectors = SyncReport(), SyncReport()
    graph_error: KgbuildError | None = None
    if config.graph_store.backend != "none":
        try:
            _sync_graph(config, Workspace(config.workspace_path()), graph, progress)
        except KgbuildError as exc:
            graph_error = exc
        except BaseException:
            opened = ahead() if ahead is not None else None
            if opened is not None:
                opened.close()
            raise
    vector_store = None
    if ahead is not None:
        waited = time.perf_counter()
        vector_store = ahead()
        vectors.seconds["vectors_ahead_wait"] = round(time.perf_counter() - waited, 3)
    if config.vector_store.backend != "none":
        _sync_vectors(config, Workspace(config.workspace_path()), vectors, progress, models, vector_store)
    elif vector_store is not None:
        vector_store.close()
    if graph_error is not None:
        raise graph_error
    report = _merged(graph, vectors)
    report.seconds["total"] = round(time.perf_counter() - t, 3)
    return report


def _merged(graph: SyncReport, vectors: SyncReport) -> SyncReport:
    """One report from the graph's and the vectors' (each fills only its own fields)."""
    fields = {name: getattr(graph, name) for name in ("graph_store", "nodes_written", "nodes_deleted",
                                                      "edges_written", "edges_deleted", "graph_rows_of")}
    counted = {"unchanged": graph.unchanged + vectors.unchanged, "resumed": graph.resumed or vectors.resumed,
               "seconds": {**graph.seconds, **vectors.seconds}}
    return vectors.model_copy(update={**fields, **counted})


def relationship_typer(config: Config) -> Callable[[str], str]:
    """How predicates become relationship types, per `graph_store.relationship_types`. The schema
    is read at the first relation typed: a sync after a correction may type none."""
    if config.graph_store.relationship_types == "predicate":
        return predicate_type
    typer: list[Callable[[str], str]] = []

    def type_of(predicate: str) -> str:
        if not typer:
            typer.append(schema_typer(resolve_schema(config.schema_location())))
        return typer[0](predicate)

    return type_of


def rows_setting(config: Config) -> str:
    """What the graph rows depend on besides the tables: the relationship types' setting, the
    schema's text when they follow it, and the code that makes the rows."""
    setting: str = config.graph_store.relationship_types
    if setting != "predicate":
        setting += ":" + content_hash(schema_path(config.schema_location()).read_text(encoding="utf-8"))
    return f"{setting}:{rows_code()}"


def _sync_graph(config: Config, workspace: Workspace, report: SyncReport, progress: ProgressReporter) -> None:
    typer = relationship_typer(config)
    with ExitStack() as stack:
        manifest = StoreManifest(manifest_path(config), graph_target(config))
        stack.callback(manifest.close)
        opened = time.perf_counter()
        store = open_graph_store(config)
        assert store is not None
        stack.callback(store.close)
        report.graph_store = store.name
        in_store = store.query(cypher.count_nodes())[0]["n"]
        report.seconds["graph_open"] = round(time.perf_counter() - opened, 3)  # a fixed cost of every build
        if not manifest.is_empty() and in_store == 0:
            manifest.reset()  # the store was wiped (or replaced) behind kgbuild's back: write it all
        # Untrusted: the last sync was interrupted, or the store holds data this manifest never
        # recorded (e.g. the workspace was recreated next to an existing database).
        untracked = manifest.is_empty() and in_store > 0
        # The rows changed since the last finished sync, when only corrections changed them.
        setting, tables = rows_setting(config), tables_state(workspace)
        synced = manifest.synced()
        changed = None
        if synced is not None and synced.get("rows") == setting and not untracked and not manifest.is_empty() \
                and manifest.all_owned("node") and manifest.all_owned("edge"):
            changed = changed_since(workspace, synced.get("tables"))  # type: ignore[arg-type]
        resumed = manifest.begin()
        report.resumed = resumed or report.resumed
        if changed is not None:
            owners = with_referrers(workspace, changed)
            sync_owned(owned_rows(workspace, owners, typer), set().union(*owners.values()), store, manifest, report,
                       batch_size=config.graph_store.batch_size, progress=progress)
            report.graph_rows_of = sum(len(ids) for ids in owners.values())
        else:
            sync_graph(read_graph_rows(workspace, typer), store, manifest, report,
                       batch_size=config.graph_store.batch_size, progress=progress,
                       trusted=not (resumed or untracked))
        manifest.set_synced({"rows": setting, "tables": tables})
        manifest.finish()


def _sync_vectors(config: Config, workspace: Workspace, report: SyncReport, progress: ProgressReporter,
                  models: ModelPool | None, opened_store: VectorStore | None = None) -> None:
    from kgbuild.embed.choice import decide_embedding, decide_text_analyzer
    opened = started = time.perf_counter()  # the Milvus client's import is part of opening the store
    from kgbuild.embed.cached import open_embedder
    from kgbuild.store.milvus import open_vector_store
    from kgbuild.store.vector_sync import sync_vectors

    with ExitStack() as stack:
        manifest = StoreManifest(manifest_path(config), vector_target(config))
        stack.callback(manifest.close)
        store = opened_store or open_vector_store(config, decide_text_analyzer(config, config.workspace_path()))
        stack.callback(store.close)
        report.seconds["vector_open"] = round(time.perf_counter() - opened, 3)  # a fixed cost of every build
        embedder = open_embedder(config, config.workspace_path(), models)
        stack.callback(embedder.close)
        report.vector_store = store.name
        report.embedding = f"{embedder.name}, {decide_embedding(config, config.workspace_path()).reason}"
        # sync_vectors reads report.resumed as "this store was interrupted" and then lists the
        # store's ids to reconcile (it also does when a collection's count disagrees with the
        # manifest); this report is the vector store's own, so an interrupted graph write never
        # costs the vector store that listing.
        report.resumed = manifest.begin()
        sync_vectors(workspace, store, embedder, manifest, report, prefix=config.vector_store.collection_prefix,
                     batch_size=config.vector_store.batch_size, progress=progress)
        manifest.finish()
        inner = embedder.inner
        if isinstance(inner, SentenceEmbedder):
            report.embedding_backend = inner.backend
            report.embeddings_truncated += inner.truncated
            report.embedding_window = inner.window or report.embedding_window
    report.seconds["vectors"] = round(time.perf_counter() - started, 3)
