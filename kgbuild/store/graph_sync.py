"""Bring the graph store in line with the workspace: write what changed, delete what is gone.

The store is never read to decide what to write; the manifest (what kgbuild committed before)
is compared with the rows of this build. Order matters for crash safety:
1. edges that disappeared are deleted (their ends may survive);
2. nodes that disappeared, or whose class label changed, are detach-deleted; a relabelled node's
   relationships are forgotten in the manifest *first*, so a kill before step 4 cannot leave the
   manifest claiming edges the store lost;
3. new and changed nodes are merged;
4. new and changed edges (and every edge of a relabelled node) are merged.
Each batch is recorded in the manifest only after its transaction committed.

When the manifest is trusted (the last sync finished), an id it does not list is not in the store,
so new rows are CREATEd, which is several times faster than MERGE. When it is not (the last sync was
interrupted, so a batch may have committed without being recorded; or the store holds data this
manifest never saw), the manifest is first rebuilt from the ids the store really holds, with unknown
content hashes, so every such row is rewritten in place and nothing is created twice.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial
from typing import TypeVar

from kgbuild.progress import ProgressReporter
from kgbuild.store import cypher
from kgbuild.store.graph_rows import EdgeRow, GraphRows, NodeRow, row_owner
from kgbuild.store.labels import BASE_LABELS
from kgbuild.store.manifest import StoreManifest, diff
from kgbuild.store.types import GraphStore, SyncReport

T = TypeVar("T")
K = TypeVar("K", bound=tuple[str | None, ...])

Write = tuple[str, Mapping[str, object]]  # a statement and its parameters


def _batches(items: Sequence[T], size: int) -> Iterable[Sequence[T]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _grouped(items: Iterable[T], key: Callable[[T], K]) -> dict[K, list[T]]:
    groups: dict[K, list[T]] = defaultdict(list)
    for item in items:
        groups[key(item)].append(item)
    return dict(sorted(groups.items(), key=lambda kv: tuple(x or "" for x in kv[0])))


def _class_of(digest: str) -> str:
    return digest.split(":", 1)[0]


class _Packer:
    """Packs small statements into transactions of about `limit` rows.

    Extracted predicates give hundreds of relationship types, most with a handful of rows; one
    transaction each spent more time committing than writing (measured: 685 commits for 18,801
    HotpotQA relationships, 40% of the write). The manifest is told after the commit, as before.
    """

    def __init__(self, store: GraphStore, manifest: StoreManifest, report: SyncReport,
                 advance: Callable[[int], None], limit: int) -> None:
        self.store, self.manifest, self.report, self.advance, self.limit = store, manifest, report, advance, limit
        self._writes: list[Write] = []
        self._done: list[tuple[tuple[str, Mapping[str, str]] | None, tuple[str, list[str]] | None, dict[str, int]]] = []
        self._rows = 0

    def add(self, writes: Sequence[Write], *, record: tuple[str, Mapping[str, str]] | None = None,
            forget: tuple[str, list[str]] | None = None, **counts: int) -> None:
        self._writes.extend(writes)
        self._done.append((record, forget, counts))
        self._rows += sum(counts.values())
        if self._rows >= self.limit:
            self.flush()

    def flush(self) -> None:
        if self._writes:
            self.store.execute_many(self._writes)
        for record, forget, counts in self._done:
            if record is not None:
                self.manifest.record(*record, owner=partial(row_owner, record[0]))
            if forget is not None:
                self.manifest.forget(*forget)
            for name, n in counts.items():
                setattr(self.report, name, getattr(self.report, name) + n)
            self.advance(sum(counts.values()))
        self._writes, self._done, self._rows = [], [], 0


def _node_params(nodes: Sequence[NodeRow]) -> dict[str, list[dict[str, object]]]:
    return {"rows": [{"id": n.id, "props": n.props} for n in nodes]}


def _edge_params(edges: Sequence[EdgeRow]) -> dict[str, list[dict[str, object]]]:
    return {"rows": [{"src": e.src, "dst": e.dst, "id": e.id, "props": {"id": e.id, **e.props}} for e in edges]}


def _recover(store: GraphStore, manifest: StoreManifest) -> None:
    """Replace the manifest with what the store holds: ids and class labels, content unknown."""
    nodes: dict[str, str] = {}
    edges: dict[str, str] = {}
    for label in sorted(BASE_LABELS):
        for row in store.query(cypher.stored_nodes(label)):
            if row["id"] is None:
                continue  # not written by kgbuild
            extra = next((x for x in sorted(row["labels"]) if x not in BASE_LABELS), "")
            nodes[f"{label}\t{row['id']}"] = f"{extra}:?"
        for row in store.query(cypher.stored_edges(label)):
            dst_label = next((x for x in row["dst_labels"] if x in BASE_LABELS), None)
            if row["id"] is None or row["src"] is None or dst_label is None:
                continue
            edges[EdgeRow(row["type"], label, row["src"], dst_label, row["dst"], row["id"]).key] = "?"
    manifest.clear_rows()  # the dirty flag stays until this sync finishes
    manifest.record("node", nodes, owner=partial(row_owner, "node"))
    manifest.record("edge", edges, owner=partial(row_owner, "edge"))


def _node_writes(label: str, extra: str | None, batch: Sequence[NodeRow], old: dict[str, str],
                 relabelled: set[str]) -> list[Write]:
    # A relabelled node was deleted above, so it is created again like a new one.
    new = [n for n in batch if n.key not in old or n.key in relabelled]
    changed = [n for n in batch if n.key in old and n.key not in relabelled]
    writes: list[Write] = [(cypher.create_nodes(label, extra), _node_params(new))] if new else []
    if changed:
        writes.append((cypher.update_nodes(label), _node_params(changed)))
    return writes


def node_digest(node: NodeRow) -> str:
    # The class label travels in front of the hash so a relabel is visible without the old row.
    return f"{node.extra_label or ''}:{node.digest()}"


def sync_graph(rows: GraphRows, store: GraphStore, manifest: StoreManifest, report: SyncReport, *,
               batch_size: int, progress: ProgressReporter, trusted: bool) -> None:
    """Every row of the graph compared with the manifest."""
    t = time.perf_counter()
    for statement in cypher.constraints():
        store.execute(statement)
    if not trusted:
        _recover(store, manifest)
    for kind in ("node", "edge"):  # rows recorded by a kgbuild that kept no owners
        manifest.fill_owners(kind, partial(row_owner, kind))
    _write_changes(rows, manifest.hashes("node"), manifest.hashes("edge"), store, manifest, report,
                   batch_size=batch_size, progress=progress)
    report.seconds["graph"] = round(time.perf_counter() - t, 3)


def sync_owned(rows: GraphRows, owners: set[str], store: GraphStore, manifest: StoreManifest, report: SyncReport, *,
               batch_size: int, progress: ProgressReporter) -> None:
    """Only the rows of the table rows `owners` (ids of any table) compared with the manifest's
    rows of the same owners: `rows` are all the graph rows they make (`owned_rows.owned_rows`),
    and every other row of the store is the one the manifest records. Needs a manifest that a
    finished sync left, with every row's owner recorded."""
    t = time.perf_counter()
    held = manifest.count("node") + manifest.count("edge")
    old_nodes, old_edges = manifest.owned("node", owners), manifest.owned("edge", owners)
    report.unchanged += held - len(old_nodes) - len(old_edges)
    _write_changes(rows, old_nodes, old_edges, store, manifest, report, batch_size=batch_size, progress=progress)
    report.seconds["graph"] = round(time.perf_counter() - t, 3)


def _write_changes(rows: GraphRows, old_nodes: dict[str, str], old_edges: dict[str, str], store: GraphStore,
                   manifest: StoreManifest, report: SyncReport, *, batch_size: int,
                   progress: ProgressReporter) -> None:
    """The store brought from what the manifest says of `old_nodes`/`old_edges` to `rows`."""
    nodes = {n.key: n for n in rows.nodes}
    edges = {e.key: e for e in rows.edges}
    node_diff = diff(old_nodes, {k: node_digest(n) for k, n in nodes.items()})
    edge_diff = diff(old_edges, {k: e.digest() for k, e in edges.items()})
    relabelled = {k for k in node_diff.upsert
                  if k in old_nodes and _class_of(old_nodes[k]) != (nodes[k].extra_label or "")}
    moved_ids = {nodes[k].id for k in relabelled}
    rewrite_edges = set(edge_diff.upsert)
    if moved_ids:
        touching = [k for k in old_edges if (e := EdgeRow.from_key(k)).src in moved_ids or e.dst in moved_ids]
        manifest.forget("edge", touching)
        for k in touching:
            old_edges.pop(k)
        rewrite_edges |= {k for k, e in edges.items() if e.src in moved_ids or e.dst in moved_ids}
    doomed_nodes = sorted(set(node_diff.delete) | relabelled)
    doomed_edges = edge_diff.delete
    total = len(doomed_edges) + len(doomed_nodes) + len(node_diff.upsert) + len(rewrite_edges)
    report.unchanged += node_diff.unchanged + edge_diff.unchanged
    with progress.stage("graph", total=total) as advance:
        tx = _Packer(store, manifest, report, advance, batch_size)
        for (type_, src_label), dead_edges in _grouped([EdgeRow.from_key(k) for k in doomed_edges],
                                                       lambda e: (e.type, e.src_label)).items():
            for edge_batch in _batches(dead_edges, batch_size):
                tx.add([(cypher.delete_edges(type_, src_label),
                         {"rows": [{"src": e.src, "id": e.id} for e in edge_batch]})],
                       forget=("edge", [e.key for e in edge_batch]), edges_deleted=len(edge_batch))
        for (label,), dead_keys in _grouped(doomed_nodes, lambda k: (k.split("\t", 1)[0],)).items():
            for key_batch in _batches(dead_keys, batch_size):
                tx.add([(cypher.delete_nodes(label), {"ids": [k.split("\t", 1)[1] for k in key_batch]})],
                       forget=("node", list(key_batch)), nodes_deleted=len([k for k in key_batch if k not in nodes]))
        tx.flush()
        t_nodes = time.perf_counter()
        for (node_label, extra), new_nodes in _grouped([nodes[k] for k in node_diff.upsert],
                                                       lambda n: (n.label, n.extra_label)).items():
            for node_batch in _batches(new_nodes, batch_size):
                tx.add(_node_writes(node_label, extra, node_batch, old_nodes, relabelled),
                       record=("node", {n.key: node_digest(n) for n in node_batch}), nodes_written=len(node_batch))
        tx.flush()  # every node exists before the first relationship points at it
        t_edges = time.perf_counter()
        report.seconds["graph_nodes"] = round(t_edges - t_nodes, 3)
        for (edge_type, from_label, dst_label), new_edges in _grouped(
                [edges[k] for k in sorted(rewrite_edges)], lambda e: (e.type, e.src_label, e.dst_label)).items():
            for batch in _batches(new_edges, batch_size):
                new = [e for e in batch if e.key not in old_edges]
                known = [e for e in batch if e.key in old_edges]
                writes: list[Write] = (
                    [(cypher.create_edges(edge_type, from_label, dst_label), _edge_params(new))] if new else [])
                if known:
                    writes.append((cypher.merge_edges(edge_type, from_label, dst_label), _edge_params(known)))
                tx.add(writes, record=("edge", {e.key: e.digest() for e in batch}), edges_written=len(batch))
        tx.flush()
        report.seconds["graph_edges"] = round(time.perf_counter() - t_edges, 3)
