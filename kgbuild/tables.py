"""The workspace tables (Parquet): one row record per table, the Arrow schemas derived from them.

The graph model is defined once, by the records of `kgbuild.model`; a table's row record is that
record plus the columns only the table needs (`doc_ids` for filters, the classes of a relation's
ends). `arrow_schema` maps a record's fields to columns, and `TableCodec` turns records into rows
and back with the same field walk, so schema, writer and reader cannot disagree:

- str, int, float, bool, enums and literals are plain columns; `X | None` is a nullable X;
- lists of plain values stay lists (never delimiter-joined);
- a `Ref` field is three columns `<field>_id`, `<field>_name`, `<field>_kind`;
- maps and other nested structures are JSON strings, so any Parquet reader (pandas, DuckDB,
  Spark) opens the tables without kgbuild.
"""

from __future__ import annotations

import enum
import json
import types
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Literal, Protocol, TypeVar, Union, get_args, get_origin

import pyarrow as pa
from pydantic import BaseModel, Field

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
    Record,
    Ref,
    Relation,
    RepairNote,
    Retype,
    legacy_note,
)

M = TypeVar("M", bound=BaseModel)

# ---------------------------------------------------------------- row records


class DocumentRow(Document):
    chunker: str = ""  # fingerprint of the chunker that cut it: a changed chunker re-chunks
    words: int = Field(0, alias="word_count")  # column `word_count`; the name is Document's method


class EntityRow(Entity):
    doc_ids: list[str] = Field(default_factory=list)


class RelationRow(Relation):
    subject_class: str | None = None  # entity class or event type of each end, for type filters
    object_class: str | None = None
    doc_ids: list[str] = Field(default_factory=list)


class EventRow(Event):
    doc_ids: list[str] = Field(default_factory=list)


class HyperNodeRow(HyperNode):
    doc_ids: list[str] = Field(default_factory=list)


class ConceptRow(Concept):
    doc_ids: list[str] = Field(default_factory=list)


class NoteRow(Record):
    """A row of the `drops` table: a removal, a retype, a repair or a chunk failure (see `record`)."""

    stage: str
    reason: str
    kind: str
    detail: str = ""
    chunk_id: str | None = None
    record: str | None = None  # drop, retype, repair, failure; absent in tables of earlier builds

    def note(self) -> Note:
        return note_from_row(self.model_dump())


class MergeRow(Record):
    """A fusion decision: which entity ids were folded into which, by which step and why."""

    canonical_id: str
    canonical_name: str | None = None
    merged_ids: list[str] = Field(default_factory=list)
    step: str
    reason: str


TABLE_RECORDS: dict[str, type[BaseModel]] = {
    "documents": DocumentRow,
    "chunks": Chunk,
    "entities": EntityRow,
    "relations": RelationRow,
    "events": EventRow,
    "hypernodes": HyperNodeRow,
    "concepts": ConceptRow,
    "drops": NoteRow,
    "merges": MergeRow,
}

GRAPH_TABLES = ("entities", "relations", "events", "hypernodes", "concepts")

# ---------------------------------------------------------------- record fields -> Arrow columns

_Shape = Literal["plain", "json", "ref"]


def _unwrap_optional(annotation: Any) -> tuple[Any, bool]:
    if get_origin(annotation) in (Union, types.UnionType):
        args = [a for a in get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return args[0], len(args) < len(get_args(annotation))
    return annotation, False


def _scalar(annotation: Any) -> pa.DataType | None:
    if annotation is bool:  # before int: bool is an int subclass
        return pa.bool_()
    if annotation is int:
        return pa.int64()
    if annotation is float:
        return pa.float64()
    if annotation is str or get_origin(annotation) is Literal:
        return pa.string()
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum) and issubclass(annotation, str):
        return pa.string()
    return None


def _shape(annotation: Any) -> tuple[_Shape, pa.DataType]:
    inner, _ = _unwrap_optional(annotation)
    if inner is Ref:
        return "ref", pa.string()
    scalar = _scalar(inner)
    if scalar is not None:
        return "plain", scalar
    if get_origin(inner) is list:
        (element,) = get_args(inner)
        item = _scalar(element)
        if item is not None:
            return "plain", pa.list_(item)
    return "json", pa.string()  # maps, lists of records, nested records


def arrow_schema(model: type[BaseModel]) -> pa.Schema:
    """The Arrow schema of a table whose rows are `model` records."""
    columns: list[pa.Field] = []
    for field_name, info in model.model_fields.items():
        name = info.alias or field_name
        shape, arrow_type = _shape(info.annotation)
        if shape == "ref":
            columns.extend(pa.field(f"{name}_{part}", pa.string()) for part in ("id", "name", "kind"))
        else:
            columns.append(pa.field(name, arrow_type))
    return pa.schema(columns)


SCHEMAS: dict[str, pa.Schema] = {name: arrow_schema(model) for name, model in TABLE_RECORDS.items()}

# ---------------------------------------------------------------- records <-> rows


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


@dataclass(frozen=True)
class TableCodec(Generic[M]):
    """Rows of `model` records: the same field walk as `arrow_schema`, in both directions."""

    model: type[M]
    fields: tuple[tuple[str, _Shape], ...]  # (column or column prefix, shape); a field's alias names its column

    @classmethod
    def of(cls, model: type[M]) -> TableCodec[M]:
        return cls(model, tuple((info.alias or name, _shape(info.annotation)[0])
                                for name, info in model.model_fields.items()))

    @property
    def plain(self) -> bool:
        return all(shape == "plain" for _, shape in self.fields)

    def columns(self) -> list[str]:
        out: list[str] = []
        for name, shape in self.fields:
            out.extend([f"{name}_id", f"{name}_name", f"{name}_kind"] if shape == "ref" else [name])
        return out

    def to_row(self, record: BaseModel, **extra: Any) -> dict[str, Any]:
        """`record` (an instance of `model` or of the record it extends) as a row; `extra` fills the
        columns the record lacks (e.g. `doc_ids` of an `Entity` written as an `EntityRow`)."""
        # Python mode: JSON mode cost a third more per row; str enums are str to Arrow and to json.
        data = record.model_dump(by_alias=True)
        data.update(extra)
        row: dict[str, Any] = {}
        for name, shape in self.fields:
            value = data.get(name)
            if shape == "json":
                row[name] = _json(value)
            elif shape == "ref":
                row[f"{name}_id"] = value["id"] if value else None
                row[f"{name}_name"] = value["name"] if value else None
                row[f"{name}_kind"] = value["kind"] if value else None
            else:
                row[name] = value
        return row

    def from_row(self, row: dict[str, Any]) -> M:
        if self.plain:
            return self.model.model_validate(row)  # nothing to decode: the row is the record
        data: dict[str, Any] = {}
        for name, shape in self.fields:
            if shape == "ref":
                ref_id = row.get(f"{name}_id")
                # Tables of earlier builds have no `_kind` column for event time and place: entities.
                data[name] = None if ref_id is None else {
                    "id": ref_id, "name": row.get(f"{name}_name") or "", "kind": row.get(f"{name}_kind") or "entity"}
            elif name not in row:
                continue  # a column added after the table was written: the record's default
            elif shape == "json":
                raw = row[name]
                if raw is not None:
                    data[name] = json.loads(raw)
            elif row[name] is not None:
                data[name] = row[name]
        return self.model.model_validate(data)


CODECS: dict[str, TableCodec[Any]] = {name: TableCodec.of(model) for name, model in TABLE_RECORDS.items()}
_DOCUMENT = TableCodec.of(Document)  # a documents row without the row-only columns


def doc_ids_of(chunk_ids: Iterable[str]) -> list[str]:
    """Documents behind a list of chunk ids, in first-seen order (chunk id = article#para#n)."""
    seen: dict[str, None] = {}
    for cid in chunk_ids:
        seen.setdefault(cid.split("#", 1)[0], None)
    return list(seen)


def document_row(doc: Document, chunker: str) -> dict[str, Any]:
    return CODECS["documents"].to_row(doc, chunker=chunker, word_count=doc.word_count())


def document_from_row(row: dict[str, Any]) -> Document:
    """The document itself (without the row's chunker and word count)."""
    return _DOCUMENT.from_row(row)


def chunk_row(chunk: Chunk) -> dict[str, Any]:
    return CODECS["chunks"].to_row(chunk)


def chunk_from_row(row: dict[str, Any]) -> Chunk:
    chunk: Chunk = CODECS["chunks"].from_row(row)
    return chunk


def entity_row(e: Entity) -> dict[str, Any]:
    return CODECS["entities"].to_row(e, doc_ids=doc_ids_of(e.chunk_ids))


def relation_row(r: Relation, classes: dict[str, str]) -> dict[str, Any]:
    """`classes` maps node ids to their class (entity spgClass, event type) for type filters."""
    return CODECS["relations"].to_row(r, subject_class=classes.get(r.subject.id), object_class=classes.get(r.object.id),
                                      doc_ids=doc_ids_of(r.chunk_ids))


def event_row(ev: Event) -> dict[str, Any]:
    return CODECS["events"].to_row(ev, doc_ids=doc_ids_of(ev.chunk_ids))


def hypernode_row(h: HyperNode) -> dict[str, Any]:
    return CODECS["hypernodes"].to_row(h, doc_ids=doc_ids_of(h.chunk_ids))


def concept_row(c: Concept) -> dict[str, Any]:
    return CODECS["concepts"].to_row(c, doc_ids=doc_ids_of(c.chunk_ids))


def drop_row(note: Note) -> dict[str, Any]:
    """Removals, retypes, repairs and chunk failures share the `drops` table; `record` tells them apart."""
    return CODECS["drops"].to_row(note)


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


class MergeDecision(Protocol):
    """What the `merges` table records of a fusion decision (`kgbuild.align.fusion.Merge`)."""

    @property
    def canonical_id(self) -> str: ...
    @property
    def merged_ids(self) -> Sequence[str]: ...
    @property
    def step(self) -> str: ...
    @property
    def reason(self) -> str: ...


def merge_row(merge: MergeDecision, names: dict[str, str]) -> dict[str, Any]:
    row = MergeRow(canonical_id=merge.canonical_id, canonical_name=names.get(merge.canonical_id),
                   merged_ids=list(merge.merged_ids), step=merge.step, reason=merge.reason)
    return CODECS["merges"].to_row(row)
