"""Columnar layout of the workspace tables (Parquet) and the record <-> row conversions.

Lists stay lists (never delimiter-joined); maps and nested structures are JSON strings so
any Parquet reader (pandas, DuckDB, Spark) can open the tables without kgbuild.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import pyarrow as pa

from kgbuild.model import (
    Chunk,
    ChunkFailure,
    Concept,
    Document,
    Drop,
    Entity,
    Event,
    HyperNode,
    Note,
    Paragraph,
    Ref,
    Relation,
    RepairNote,
    Retype,
    legacy_note,
)

_S = pa.string()
_LS = pa.list_(pa.string())

SCHEMAS: dict[str, pa.Schema] = {
    "documents": pa.schema(
        [("id", _S), ("source", _S), ("title", _S), ("format", _S), ("content_hash", _S), ("chunker", _S),
         ("word_count", pa.int64()), ("metadata", _S), ("paragraphs", _S), ("chunk_ids", _LS)]
    ),
    "chunks": pa.schema(
        [("id", _S), ("doc_id", _S), ("text", _S), ("section", _LS), ("order", pa.int64()),
         ("paragraph_start", pa.int64()), ("paragraph_end", pa.int64()), ("token_count", pa.int64()),
         ("content_hash", _S), ("prev_id", _S), ("next_id", _S), ("summary", _S), ("oversize_split", pa.bool_())]
    ),
    "entities": pa.schema(
        [("id", _S), ("name", _S), ("spg_class", _S), ("semantic_type", _S), ("description", _S), ("summary", _S),
         ("aliases", _LS), ("properties", _S), ("chunk_ids", _LS), ("doc_ids", _LS)]
    ),
    "relations": pa.schema(
        [("id", _S), ("subject_id", _S), ("subject_name", _S), ("subject_kind", _S), ("subject_class", _S),
         ("predicate", _S), ("object_id", _S), ("object_name", _S), ("object_kind", _S), ("object_class", _S),
         ("properties", _S), ("chunk_ids", _LS), ("doc_ids", _LS)]
    ),
    "events": pa.schema(
        [("id", _S), ("type", _S), ("trigger", _S), ("arguments", _S), ("time_id", _S), ("time_name", _S),
         ("place_id", _S), ("place_name", _S), ("chunk_ids", _LS), ("doc_ids", _LS)]
    ),
    "hypernodes": pa.schema(
        [("id", _S), ("subject_id", _S), ("subject_name", _S), ("subject_kind", _S), ("predicate", _S),
         ("object_id", _S), ("object_name", _S), ("object_kind", _S), ("chunk_ids", _LS), ("doc_ids", _LS)]
    ),
    "concepts": pa.schema(
        [("id", _S), ("name", _S), ("description", _S), ("parents", _LS), ("chunk_ids", _LS), ("doc_ids", _LS)]
    ),
    "drops": pa.schema([("stage", _S), ("reason", _S), ("kind", _S), ("detail", _S), ("chunk_id", _S), ("record", _S)]),
    "merges": pa.schema([("canonical_id", _S), ("canonical_name", _S), ("merged_ids", _LS), ("step", _S), ("reason", _S)]),
}

GRAPH_TABLES = ("entities", "relations", "events", "hypernodes", "concepts")


def doc_ids_of(chunk_ids: Iterable[str]) -> list[str]:
    """Documents behind a list of chunk ids, in first-seen order (chunk id = article#para#n)."""
    seen: dict[str, None] = {}
    for cid in chunk_ids:
        seen.setdefault(cid.split("#", 1)[0], None)
    return list(seen)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def document_row(doc: Document, chunker: str) -> dict[str, Any]:
    return {
        "id": doc.id, "source": doc.source, "title": doc.title, "format": doc.format,
        "content_hash": doc.content_hash, "chunker": chunker, "word_count": doc.word_count(),
        "metadata": _json(doc.metadata), "paragraphs": _json([p.model_dump() for p in doc.paragraphs]),
        "chunk_ids": doc.chunk_ids,
    }


def document_from_row(row: dict[str, Any]) -> Document:
    return Document(
        id=row["id"], source=row["source"], title=row["title"], format=row["format"],
        content_hash=row["content_hash"], metadata=json.loads(row["metadata"]),
        paragraphs=[Paragraph(**p) for p in json.loads(row["paragraphs"])], chunk_ids=list(row["chunk_ids"]),
    )


def chunk_row(chunk: Chunk) -> dict[str, Any]:
    return chunk.model_dump()


def chunk_from_row(row: dict[str, Any]) -> Chunk:
    return Chunk(**row)


def _ref_cols(prefix: str, ref: Ref | None) -> dict[str, Any]:
    return {f"{prefix}_id": ref.id if ref else None, f"{prefix}_name": ref.name if ref else None}


def entity_row(e: Entity) -> dict[str, Any]:
    row = e.model_dump(exclude={"properties"})
    row["properties"] = _json(e.properties)
    row["doc_ids"] = doc_ids_of(e.chunk_ids)
    return row


def relation_row(r: Relation, classes: dict[str, str]) -> dict[str, Any]:
    """`classes` maps node ids to their class (entity spgClass, event type) for type filters."""
    return {
        "id": r.id,
        **_ref_cols("subject", r.subject), "subject_kind": r.subject.kind, "subject_class": classes.get(r.subject.id),
        "predicate": r.predicate,
        **_ref_cols("object", r.object), "object_kind": r.object.kind, "object_class": classes.get(r.object.id),
        "properties": _json(r.properties), "chunk_ids": r.chunk_ids, "doc_ids": doc_ids_of(r.chunk_ids),
    }


def event_row(ev: Event) -> dict[str, Any]:
    return {
        "id": ev.id, "type": ev.type, "trigger": ev.trigger,
        "arguments": _json({role: [ref.model_dump() for ref in refs] for role, refs in ev.arguments.items()}),
        **_ref_cols("time", ev.time), **_ref_cols("place", ev.place),
        "chunk_ids": ev.chunk_ids, "doc_ids": doc_ids_of(ev.chunk_ids),
    }


def hypernode_row(h: HyperNode) -> dict[str, Any]:
    return {
        "id": h.id, **_ref_cols("subject", h.subject), "subject_kind": h.subject.kind, "predicate": h.predicate,
        **_ref_cols("object", h.object), "object_kind": h.object.kind,
        "chunk_ids": h.chunk_ids, "doc_ids": doc_ids_of(h.chunk_ids),
    }


def concept_row(c: Concept) -> dict[str, Any]:
    return {**c.model_dump(), "doc_ids": doc_ids_of(c.chunk_ids)}


def drop_row(note: Note) -> dict[str, Any]:
    """Removals, retypes, repairs and chunk failures share the `drops` table; `record` tells them apart."""
    return note.model_dump(mode="json")


def note_from_row(row: dict[str, Any]) -> Note:
    """A row of the `drops` table as its record; rows of tables written before the `record`
    column existed are sorted by their reason text."""
    record = row.get("record")
    if record is None:
        return legacy_note(row)
    fields = {k: v for k, v in row.items() if v is not None}
    return _NOTE_TYPES[record].model_validate(fields)


_NOTE_TYPES: dict[str, type[Drop] | type[Retype] | type[ChunkFailure] | type[RepairNote]] = {
    "drop": Drop, "retype": Retype, "failure": ChunkFailure, "repair": RepairNote,
}


def merge_row(merge: Any, names: dict[str, str]) -> dict[str, Any]:
    """A fusion decision: which entity ids were folded into which, by which step and why."""
    return {"canonical_id": merge.canonical_id, "canonical_name": names.get(merge.canonical_id),
            "merged_ids": list(merge.merged_ids), "step": merge.step, "reason": merge.reason}
