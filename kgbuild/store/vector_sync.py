"""Workspace tables -> vector collections, touching only what changed since the last sync.

Three collections, keyed by the graph's ids (docs/graph_model.md):
    <prefix>_chunks    chunk text (dense vector + BM25), doc_id
    <prefix>_entities  "name: description", name, type (spg_class), doc_id (first supporting document)
    <prefix>_concepts  the concept name

Every row gets a hash of what it would store (embedded text, metadata, embedder name); the
manifest remembers the hashes of the rows the store accepted, so an unchanged row is neither
re-embedded nor re-written, and a changed embedding model rewrites everything.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from kgbuild.embed.cached import CachedEmbedder
from kgbuild.embed.types import Embedder
from kgbuild.ids import content_hash
from kgbuild.progress import Advance, ProgressReporter
from kgbuild.store.manifest import Diff, StoreManifest, diff
from kgbuild.store.milvus import CollectionMismatch
from kgbuild.store.types import SyncReport, VectorRow, VectorStore
from kgbuild.workspace import Workspace


@dataclass(frozen=True)
class _Pending:
    """A row as it would be stored, before it has a vector."""

    embed_text: str
    row: VectorRow  # vector left empty until embedding


# The three readers below take a few columns as plain rows, not records (Workspace.records):
# they run on every sync over the largest tables (millions of chunks), where building a record
# per row doubled the read time (measured: 0.43 s -> 0.80 s per 100k chunks) for three fields.


def _chunk_rows(workspace: Workspace) -> dict[str, _Pending]:
    table = workspace.read_table("chunks", columns=["id", "doc_id", "text"]).to_pylist()
    out: dict[str, _Pending] = {}
    for r in table:
        text = r["text"] or ""
        out[r["id"]] = _Pending(text, VectorRow(id=r["id"], vector=[], text=text, doc_id=r["doc_id"] or ""))
    return out


def entity_text(name: str, description: str) -> str:
    """The text an entity's vector is made of (the LLM build's prefetch embeds the same)."""
    description = description.strip()
    return f"{name}: {description}" if description else name


def _entity_rows(workspace: Workspace) -> dict[str, _Pending]:
    columns = ["id", "name", "description", "spg_class", "doc_ids"]
    out: dict[str, _Pending] = {}
    for r in workspace.read_table("entities", columns=columns).to_pylist():
        name = r["name"] or ""
        text = entity_text(name, r["description"] or "")
        doc_ids = r["doc_ids"] or []
        out[r["id"]] = _Pending(text, VectorRow(id=r["id"], vector=[], text=text, name=name,
                                                type=r["spg_class"] or "", doc_id=doc_ids[0] if doc_ids else ""))
    return out


def _concept_rows(workspace: Workspace) -> dict[str, _Pending]:
    out: dict[str, _Pending] = {}
    for r in workspace.read_table("concepts", columns=["id", "name"]).to_pylist():
        name = r["name"] or ""
        out[r["id"]] = _Pending(name, VectorRow(id=r["id"], vector=[], text=name, name=name))
    return out


# (collection suffix, row builder, full text). The manifest kind is the collection name, so a
# changed prefix is a new set of collections with nothing recorded.
_KINDS: tuple[tuple[str, Callable[[Workspace], dict[str, _Pending]], bool], ...] = (
    ("chunks", _chunk_rows, True),
    ("entities", _entity_rows, False),
    ("concepts", _concept_rows, False),
)


def prepare_collections(store: VectorStore, prefix: str, dim: int) -> None:
    """Create the collections a sync writes that do not exist yet (an LLM build does it while it waits
    on the model: a new Milvus Lite index is polled for about half a second). One that exists with
    another width or analyzer is left to the sync, which drops it and forgets its manifest rows."""
    for suffix, _, full_text in _KINDS:
        try:
            store.ensure_collection(f"{prefix}_{suffix}", dim, full_text=full_text)
        except CollectionMismatch:
            continue


def vector_texts(workspace: Workspace) -> list[str]:
    """Every text the three collections embed, as `sync_vectors` will ask the embedder for them."""
    return [p.embed_text for _, build_rows, _ in _KINDS for p in build_rows(workspace).values()]


def unwritten_texts(workspace: Workspace, manifest: StoreManifest, prefix: str, embedder_name: str) -> list[str]:
    """The texts of the rows the next `sync_vectors` will write (new, or changed since the manifest
    recorded them), as it will ask the embedder `embedder_name` for them: what an LLM build embeds
    ahead of the sync (kgbuild.build.vector_prefetch), without looking up an unchanged workspace's
    every text. The sync's own reconciliation with the store (after an interrupted sync) may add rows."""
    out: list[str] = []
    for suffix, build_rows, _ in _KINDS:
        old = manifest.hashes(f"{prefix}_{suffix}")
        out += [p.embed_text for i, p in build_rows(workspace).items() if old.get(i) != _row_hash(p, embedder_name)]
    return out


@dataclass
class _Plan:
    collection: str
    rows: dict[str, _Pending]
    hashes: dict[str, str]
    diff: Diff


def sync_vectors(workspace: Workspace, store: VectorStore, embedder: Embedder, manifest: StoreManifest,
                 report: SyncReport, *, prefix: str, batch_size: int, progress: ProgressReporter) -> None:
    """Bring the three collections in line with the workspace tables; counters go to `report`.

    The caller brackets this with `manifest.begin()` / `finish()` and sets `report.resumed` from
    `begin()`; a resumed sync reconciles the manifest with the ids the store really holds.
    """
    report.vector_store = report.vector_store or store.name
    plans: list[_Plan] = []
    for suffix, build_rows, full_text in _KINDS:
        collection = f"{prefix}_{suffix}"
        _ensure(store, manifest, collection, embedder.dim, full_text)
        rows = build_rows(workspace)
        hashes = {i: _row_hash(p, embedder.name) for i, p in rows.items()}
        old = _recorded(store, manifest, collection, resumed=report.resumed)
        plans.append(_Plan(collection, rows, hashes, diff(old, hashes)))

    total = sum(len(p.diff.upsert) + len(p.diff.delete) for p in plans)
    with progress.stage("vectors", total=total) as advance:
        for plan in plans:
            report.unchanged += plan.diff.unchanged
            _write(plan, store, embedder, manifest, report, batch_size, advance)
            _delete(plan, store, manifest, report, batch_size, advance)


def _ensure(store: VectorStore, manifest: StoreManifest, collection: str, dim: int, full_text: bool) -> None:
    try:
        store.ensure_collection(collection, dim, full_text=full_text)
    except CollectionMismatch:
        # Another embedding model (another dimension): every vector in it is stale anyway.
        store.drop(collection)
        manifest.forget(collection, list(manifest.hashes(collection)))
        store.ensure_collection(collection, dim, full_text=full_text)


def _recorded(store: VectorStore, manifest: StoreManifest, collection: str, *, resumed: bool) -> dict[str, str]:
    """The manifest's hashes, corrected by the store's own ids when the two may disagree.

    They disagree after an interrupted sync (rows written but not recorded) or when the
    collection was dropped or emptied behind kgbuild's back. Counting is cheap, listing ids is
    not, so ids are listed only then. Ids the store holds without a record get an empty hash:
    rewritten if still wanted, deleted otherwise.
    """
    old = manifest.hashes(collection)
    if not resumed and store.count(collection) == len(old):
        return old
    held = store.ids(collection)
    lost = [i for i in old if i not in held]
    if lost:
        manifest.forget(collection, lost)
    return {i: old.get(i, "") for i in held}


def _row_hash(pending: _Pending, embedder_name: str) -> str:
    r = pending.row
    return content_hash(json.dumps([pending.embed_text, r.text, r.doc_id, r.type, r.name, embedder_name]))


def _write(plan: _Plan, store: VectorStore, embedder: Embedder, manifest: StoreManifest, report: SyncReport,
           batch_size: int, advance: Advance) -> None:
    # Texts of like length go to the model together (a batch pads to its longest text), and the
    # store writes one batch while the model embeds the next: Milvus Lite works in its own process,
    # ONNX Runtime and torch release the GIL, so the two overlap.
    ids_by_length = sorted(plan.diff.upsert, key=lambda i: (len(plan.rows[i].embed_text), i))
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="vector-upsert") as writer:
        inflight: tuple[Sequence[str], Future[None]] | None = None
        for ids in _slices(ids_by_length, batch_size):
            rows = _embedded_rows(plan, ids, embedder, report)
            if inflight is not None:
                _recorded_write(plan, manifest, report, advance, *inflight)
                inflight = None
            inflight = (ids, writer.submit(store.upsert, plan.collection, rows))
        if inflight is not None:
            _recorded_write(plan, manifest, report, advance, *inflight)


def _embedded_rows(plan: _Plan, ids: Sequence[str], embedder: Embedder, report: SyncReport) -> list[VectorRow]:
    pending = [plan.rows[i] for i in ids]
    if isinstance(embedder, CachedEmbedder):  # the cache knows which texts it answered itself
        computed, cached = embedder.computed, embedder.cached
        vectors = embedder.embed([p.embed_text for p in pending])
        report.embeddings_computed += embedder.computed - computed
        report.embeddings_cached += embedder.cached - cached
    else:  # no cache in front: every text was computed
        vectors = embedder.embed([p.embed_text for p in pending])
        report.embeddings_computed += len(pending)
    return [p.row.model_copy(update={"vector": list(v)}) for p, v in zip(pending, vectors, strict=True)]


def _recorded_write(plan: _Plan, manifest: StoreManifest, report: SyncReport, advance: Advance,
                    ids: Sequence[str], written: Future[None]) -> None:
    written.result()  # a failed write raises here, before anything about it is recorded
    # Recorded only once the store has the batch: the manifest never claims more than it holds.
    manifest.record(plan.collection, {i: plan.hashes[i] for i in ids})
    report.vectors_written += len(ids)
    advance(len(ids))


def _delete(plan: _Plan, store: VectorStore, manifest: StoreManifest, report: SyncReport,
            batch_size: int, advance: Advance) -> None:
    for ids in _slices(plan.diff.delete, batch_size):
        store.delete(plan.collection, ids)
        manifest.forget(plan.collection, ids)
        report.vectors_deleted += len(ids)
        advance(len(ids))


def _slices(items: Sequence[Any], size: int) -> list[Sequence[Any]]:
    return [items[i : i + size] for i in range(0, len(items), max(size, 1))]
