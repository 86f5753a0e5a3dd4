"""Read-only queries over the workspace tables, behind `kgbuild inspect`.

Filters run as Arrow compute kernels over the Parquet columns, so they stay fast on big builds.
The results stay table rows (dicts keyed by column, `subject_name`, `time_name`...): they are
what `kgbuild inspect` prints and dumps as JSON, column by column, except that columns stored as
JSON text (an event's `arguments`, `properties`) come back decoded, so `--json` nests them rather
than quoting JSON inside JSON. Code that needs the graph's records reads them with
`Workspace.records` (e.g. `ws.records("entities", Entity)`).
"""

from __future__ import annotations

import json
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from kgbuild.errors import WorkspaceError
from kgbuild.tables import CODECS, GRAPH_TABLES
from kgbuild.workspace import Workspace


def _require(ws: Workspace) -> None:
    if not ws.has_table("documents"):
        raise WorkspaceError(str(ws.path), "no build found in this workspace", "run `kgbuild build PATH` first")


def _contains(column: pa.ChunkedArray, text: str) -> pa.ChunkedArray:
    return pc.fill_null(pc.match_substring(column, text, ignore_case=True), False)


def _equals_ci(column: pa.ChunkedArray, text: str) -> pa.ChunkedArray:
    return pc.fill_null(pc.equal(pc.utf8_lower(column), text.lower()), False)


def _has_doc(column: pa.ChunkedArray, doc: str) -> pa.ChunkedArray:
    # doc_ids is list<string>: a row matches when any of its documents equals `doc`.
    flat = pc.list_flatten(column)
    parents = pc.list_parent_indices(column)
    hits = pc.filter(parents, pc.equal(flat, doc))
    mask = [False] * len(column)
    for i in hits.to_pylist():
        mask[i] = True
    return pa.chunked_array([pa.array(mask, pa.bool_())])


def counts(ws: Workspace) -> dict[str, int]:
    _require(ws)
    names = ("documents", "chunks", *GRAPH_TABLES, "drops", "merges")
    return {name: ws.row_count(name) for name in names}


def entities(ws: Workspace, *, name: str | None = None, spg_class: str | None = None,
             doc: str | None = None, limit: int | None = 50) -> list[dict[str, Any]]:
    _require(ws)
    t = ws.read_table("entities")
    masks = []
    if name:
        masks.append(pc.or_(_contains(t["name"], name), _equals_ci(t["id"], name)))
    if spg_class:
        masks.append(pc.or_(_equals_ci(t["spg_class"], spg_class), _equals_ci(t["semantic_type"], spg_class)))
    if doc:
        masks.append(_has_doc(t["doc_ids"], doc))
    return _apply(t, masks, limit, "entities")


def _decode(rows: list[dict[str, Any]], table: str) -> list[dict[str, Any]]:
    json_columns = [name for name, shape in CODECS[table].fields if shape == "json"]
    for row in rows:
        for name in json_columns:
            if isinstance(row.get(name), str):
                row[name] = json.loads(row[name])
    return rows


def _apply(t: pa.Table, masks: list[Any], limit: int | None, table: str) -> list[dict[str, Any]]:
    # Masks are built against the full table, so combine them before filtering once.
    if masks:
        combined = masks[0]
        for m in masks[1:]:
            combined = pc.and_(combined, m)
        t = t.filter(combined)
    if limit is not None:
        t = t.slice(0, limit)
    return _decode(t.to_pylist(), table)


def triples(ws: Workspace, *, entity: str | None = None, predicate: str | None = None,
            type_: str | None = None, doc: str | None = None, limit: int | None = 50) -> list[dict[str, Any]]:
    """Relations whose subject or object name contains `entity`, with the given predicate/class/document."""
    _require(ws)
    t = ws.read_table("relations")
    masks = []
    if entity:
        masks.append(pc.or_(pc.or_(_contains(t["subject_name"], entity), _contains(t["object_name"], entity)),
                            pc.or_(_equals_ci(t["subject_id"], entity), _equals_ci(t["object_id"], entity))))
    if predicate:
        masks.append(_equals_ci(t["predicate"], predicate))
    if type_:
        masks.append(pc.or_(_equals_ci(t["subject_class"], type_), _equals_ci(t["object_class"], type_)))
    if doc:
        masks.append(_has_doc(t["doc_ids"], doc))
    return _apply(t, masks, limit, "relations")


def hypernodes(ws: Workspace, *, entity: str | None = None, predicate: str | None = None,
               doc: str | None = None, limit: int | None = 50) -> list[dict[str, Any]]:
    _require(ws)
    t = ws.read_table("hypernodes")
    masks = []
    if entity:
        masks.append(pc.or_(_contains(t["subject_name"], entity), _contains(t["object_name"], entity)))
    if predicate:
        masks.append(_equals_ci(t["predicate"], predicate))
    if doc:
        masks.append(_has_doc(t["doc_ids"], doc))
    return _apply(t, masks, limit, "hypernodes")


def events(ws: Workspace, *, type_: str | None = None, doc: str | None = None,
           limit: int | None = 50) -> list[dict[str, Any]]:
    _require(ws)
    t = ws.read_table("events")
    masks = []
    if type_:
        masks.append(_equals_ci(t["type"], type_))
    if doc:
        masks.append(_has_doc(t["doc_ids"], doc))
    return _apply(t, masks, limit, "events")


def documents(ws: Workspace, *, limit: int | None = 50) -> list[dict[str, Any]]:
    _require(ws)
    # metadata: a CSV row's other columns, a JSON record's other fields (docs/csv.md promises them here)
    t = ws.read_table("documents", columns=["id", "title", "source", "format", "word_count", "metadata",
                                            "chunk_ids"])
    return _apply(t, [], limit, "documents")


def chunks(ws: Workspace, *, doc: str | None = None, ids: list[str] | None = None,
           limit: int | None = 50) -> list[dict[str, Any]]:
    _require(ws)
    t = ws.read_table("chunks")
    masks = []
    if doc:
        masks.append(pc.fill_null(pc.equal(t["doc_id"], doc), False))
    if ids is not None:
        masks.append(pc.is_in(t["id"], value_set=pa.array(ids, pa.string())))
    return _apply(t, masks, limit, "chunks")


def merges(ws: Workspace, *, name: str | None = None, step: str | None = None,
           limit: int | None = 50) -> list[dict[str, Any]]:
    """Fusion decisions: the canonical entity, the ids folded into it, the step and the reason."""
    _require(ws)
    t = ws.read_table("merges")
    masks = []
    if name:
        masks.append(pc.or_(_contains(t["canonical_name"], name), _equals_ci(t["canonical_id"], name)))
    if step:
        masks.append(_equals_ci(t["step"], step))
    return _apply(t, masks, limit, "merges")


def drops(ws: Workspace, *, reason: str | None = None, limit: int | None = 50) -> list[dict[str, Any]]:
    _require(ws)
    t = ws.read_table("drops")
    masks = [_contains(t["reason"], reason)] if reason else []
    return _apply(t, masks, limit, "drops")


def support(ws: Workspace, item_id: str) -> tuple[str, dict[str, Any], list[dict[str, Any]]]:
    """The item with this id (from any graph table) and the chunks that support it, in reading order.

    `item_id` may be a prefix of the id, as `kgbuild inspect` prints ids in 80 columns (`rel_0078…`,
    with or without the ellipsis), when exactly one item's id starts with it.
    """
    _require(ws)
    total, found = _by_id(ws, item_id, exact=True)
    if not total:
        total, found = _by_id(ws, item_id.rstrip("…").strip(), exact=False)
    if not total:
        raise WorkspaceError(item_id, "no entity, relation, event, hypernode or concept has this id",
                             "list ids with `kgbuild inspect triples` or `kgbuild inspect entities`")
    if total > 1:
        shown = ", ".join(row["id"] for _, row in found[:3])
        raise WorkspaceError(item_id, f"{total} items have ids starting with it, e.g. {shown}",
                             "give more of the id; `--wide` and `--json` print ids in full")
    name, row = found[0]
    by_id = {c["id"]: c for c in chunks(ws, ids=row["chunk_ids"], limit=None)}
    return name, row, [by_id[c] for c in row["chunk_ids"] if c in by_id]


def _by_id(ws: Workspace, item_id: str, *, exact: bool) -> tuple[int, list[tuple[str, dict[str, Any]]]]:
    """How many items of the graph tables have this id (or one starting with it), and the first few."""
    if not item_id:
        return 0, []
    total = 0
    found: list[tuple[str, dict[str, Any]]] = []
    for name in GRAPH_TABLES:
        t = ws.read_table(name)
        match = pc.equal(t["id"], item_id) if exact else pc.starts_with(t["id"], item_id)
        hit = t.filter(pc.fill_null(match, False))
        total += hit.num_rows
        found.extend((name, row) for row in _decode(hit.slice(0, 3).to_pylist(), name))
    return total, found
