"""Workspace tables: schemas derived from the records, rows both ways, tables of earlier builds."""

from __future__ import annotations

import json
from enum import Enum
from pathlib import Path
from typing import Literal

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from pydantic import BaseModel, Field

from kgbuild.model import (
    Chunk,
    ChunkFailure,
    Concept,
    Document,
    Drop,
    DropReason,
    Entity,
    Event,
    HyperNode,
    Paragraph,
    Ref,
    Relation,
    RepairNote,
    RepairReason,
    Retype,
    RetypeReason,
)
from kgbuild.report import AssembleSection
from kgbuild.tables import (
    SCHEMAS,
    EntityRow,
    NoteRow,
    RelationRow,
    arrow_schema,
    chunk_row,
    concept_row,
    document_from_row,
    document_row,
    drop_row,
    entity_row,
    event_row,
    hypernode_row,
    merge_row,
    note_from_row,
    relation_row,
)
from kgbuild.workspace import Workspace

_S, _LS = pa.string(), pa.list_(pa.string())

# The hand-written schemas of the tables before they were derived from the records: workspaces
# written then must keep reading, so every one of these columns keeps its name and type.
LEGACY = {
    "documents": [("id", _S), ("source", _S), ("title", _S), ("format", _S), ("content_hash", _S), ("chunker", _S),
                  ("word_count", pa.int64()), ("metadata", _S), ("paragraphs", _S), ("chunk_ids", _LS)],
    "chunks": [("id", _S), ("doc_id", _S), ("text", _S), ("section", _LS), ("order", pa.int64()),
               ("paragraph_start", pa.int64()), ("paragraph_end", pa.int64()), ("token_count", pa.int64()),
               ("content_hash", _S), ("prev_id", _S), ("next_id", _S), ("summary", _S), ("oversize_split", pa.bool_())],
    "entities": [("id", _S), ("name", _S), ("spg_class", _S), ("semantic_type", _S), ("description", _S),
                 ("summary", _S), ("aliases", _LS), ("properties", _S), ("chunk_ids", _LS), ("doc_ids", _LS)],
    "relations": [("id", _S), ("subject_id", _S), ("subject_name", _S), ("subject_kind", _S), ("subject_class", _S),
                  ("predicate", _S), ("object_id", _S), ("object_name", _S), ("object_kind", _S), ("object_class", _S),
                  ("properties", _S), ("chunk_ids", _LS), ("doc_ids", _LS)],
    "events": [("id", _S), ("type", _S), ("trigger", _S), ("arguments", _S), ("time_id", _S), ("time_name", _S),
               ("place_id", _S), ("place_name", _S), ("chunk_ids", _LS), ("doc_ids", _LS)],
    "hypernodes": [("id", _S), ("subject_id", _S), ("subject_name", _S), ("subject_kind", _S), ("predicate", _S),
                   ("object_id", _S), ("object_name", _S), ("object_kind", _S), ("chunk_ids", _LS), ("doc_ids", _LS)],
    "concepts": [("id", _S), ("name", _S), ("description", _S), ("parents", _LS), ("chunk_ids", _LS), ("doc_ids", _LS)],
    "drops": [("stage", _S), ("reason", _S), ("kind", _S), ("detail", _S), ("chunk_id", _S)],
    "merges": [("canonical_id", _S), ("canonical_name", _S), ("merged_ids", _LS), ("step", _S), ("reason", _S)],
}
ADDED = {"events": {"time_kind", "place_kind"}, "drops": {"record"}, "documents": {"markup_dropped"}}

C1, C2 = "doc#p00000#0", "other#p00002#1"
ADA = Entity(id=Entity.make_id("Ada Lovelace", "Person"), name="Ada Lovelace", spg_class="Person",
             semantic_type="mathematician", description="wrote the first program", aliases=["Ada"],
             properties={"birthDate": ["1815"]}, chunk_ids=[C1, C2])
ENGINE = Entity(id=Entity.make_id("Analytical Engine", "Artifact"), name="Analytical Engine", spg_class="Artifact",
                chunk_ids=[C1])
YEAR = Entity(id=Entity.make_id("1843", "Date"), name="1843", spg_class="Date", chunk_ids=[C1])
WROTE = Relation(id=Relation.make_id(ADA.id, "wrote about", ENGINE.id), subject=ADA.ref(), predicate="wrote about",
                 object=ENGINE.ref(), properties={"since": "1843"}, chunk_ids=[C1])
NOTE = Event(id="evt_1", type="Creation", trigger="published", arguments={"creator": [ADA.ref()]},
             time=YEAR.ref(), chunk_ids=[C1])
QUAL = HyperNode(id="hyp_1", subject=WROTE.ref(), predicate="in", object=YEAR.ref(), chunk_ids=[C1])
MATH = Concept(id=Concept.make_id("mathematician"), name="mathematician", description="d", parents=["con_person"],
               chunk_ids=[C2])
DOC = Document(id="doc", source="doc.md", title="Ada", format="md", content_hash="h",
               paragraphs=[Paragraph(section=["Life"], text="Ada Lovelace wrote notes.")], metadata={"lang": "en"},
               chunk_ids=[C1])
CHUNK = Chunk(id=C1, doc_id="doc", text="Ada Lovelace wrote notes.", section=["Life"], order=0, paragraph_start=0,
              paragraph_end=0, token_count=5, content_hash="c", next_id="doc#p00001#0")


# ---------------------------------------------------------------- schemas


class Colour(str, Enum):
    RED = "red"


class Sample(BaseModel):
    name: str
    count: int
    share: float | None = None
    flag: bool = False
    colour: Colour = Colour.RED
    mode: Literal["a", "b"] = "a"
    tags: list[str] = Field(default_factory=list)
    sizes: list[int] = Field(default_factory=list)
    props: dict[str, list[str]] = Field(default_factory=dict)
    refs: list[Ref] = Field(default_factory=list)
    owner: Ref | None = None


def test_arrow_schema_maps_each_kind_of_field() -> None:
    schema = arrow_schema(Sample)
    assert [(f.name, f.type) for f in schema] == [
        ("name", pa.string()), ("count", pa.int64()), ("share", pa.float64()), ("flag", pa.bool_()),
        ("colour", pa.string()), ("mode", pa.string()), ("tags", _LS), ("sizes", pa.list_(pa.int64())),
        ("props", pa.string()), ("refs", pa.string()),  # maps and lists of records: JSON text
        ("owner_id", pa.string()), ("owner_name", pa.string()), ("owner_kind", pa.string()),  # a Ref: three columns
    ]


@pytest.mark.parametrize("name", sorted(LEGACY))
def test_derived_schemas_keep_every_column_of_the_hand_written_ones(name: str) -> None:
    derived = {f.name: f.type for f in SCHEMAS[name]}
    assert {col: derived.get(col) for col, _ in LEGACY[name]} == dict(LEGACY[name])
    assert set(derived) - {col for col, _ in LEGACY[name]} == ADDED.get(name, set())


# ---------------------------------------------------------------- rows both ways


def test_rows_keep_the_layout_of_earlier_builds() -> None:
    row = relation_row(WROTE, {ADA.id: "Person"})
    assert row["subject_id"] == ADA.id and row["subject_kind"] == "entity" and row["subject_class"] == "Person"
    assert row["object_class"] is None and json.loads(row["properties"]) == {"since": "1843"}
    assert row["doc_ids"] == ["doc"]
    ev = event_row(NOTE)
    assert json.loads(ev["arguments"]) == {"creator": [ADA.ref().model_dump()]}
    assert (ev["time_id"], ev["time_name"], ev["place_id"]) == (YEAR.id, "1843", None)
    assert entity_row(ADA)["doc_ids"] == ["doc", "other"]
    doc = document_row(DOC, "chunker-1")
    assert (doc["chunker"], doc["word_count"]) == ("chunker-1", 4)
    assert json.loads(doc["paragraphs"]) == [{"section": ["Life"], "text": "Ada Lovelace wrote notes."}]


def test_records_round_trip_through_the_workspace(tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "ws")
    ws.ensure()
    ws.write_table("entities", [entity_row(ADA), entity_row(ENGINE)])
    ws.write_table("relations", [relation_row(WROTE, {ADA.id: "Person", ENGINE.id: "Artifact"})])
    ws.write_table("events", [event_row(NOTE)])
    ws.write_table("hypernodes", [hypernode_row(QUAL)])
    ws.write_table("concepts", [concept_row(MATH)])
    ws.write_table("documents", [document_row(DOC, "chunker-1")])
    ws.write_table("chunks", [chunk_row(CHUNK)])
    assert list(ws.records("entities", Entity)) == [ADA, ENGINE]
    assert list(ws.records("relations", Relation)) == [WROTE]
    assert list(ws.records("events", Event)) == [NOTE]
    assert list(ws.records("hypernodes", HyperNode)) == [QUAL]
    assert list(ws.records("concepts", Concept)) == [MATH]
    assert list(ws.records("documents", Document)) == [DOC]
    assert list(ws.records("chunks", Chunk)) == [CHUNK]
    assert document_from_row(ws.rows("documents")[0]) == DOC
    # the row records carry the table-only columns
    (row,) = ws.records("relations", RelationRow)
    assert (row.subject_class, row.object_class, row.doc_ids) == ("Person", "Artifact", ["doc"])
    assert isinstance(row, Relation)
    assert [e.doc_ids for e in ws.records("entities", EntityRow, batch_size=1)] == [["doc", "other"], ["doc"]]
    assert list(ws.records("merges", NoteRow)) == []  # no table yet: nothing


def test_a_table_written_before_the_derived_schemas_reads_back(tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "ws")
    ws.ensure()

    def write_legacy(name: str, rows: list[dict[str, object]]) -> None:
        pq.write_table(pa.Table.from_pylist(rows, schema=pa.schema(LEGACY[name])), ws.table_path(name))

    # rows exactly as the code before this change wrote them (no time_kind, no record column)
    write_legacy("events", [{
        "id": NOTE.id, "type": "Creation", "trigger": "published",
        "arguments": json.dumps({"creator": [ADA.ref().model_dump()]}, sort_keys=True),
        "time_id": YEAR.id, "time_name": "1843", "place_id": None, "place_name": None,
        "chunk_ids": [C1], "doc_ids": ["doc"]}])
    write_legacy("drops", [
        {"stage": "validate", "reason": "self loop", "kind": "relation", "detail": "(a, b, a)", "chunk_id": C1},
        {"stage": "validate", "reason": "retyped: unknown class to fallback", "kind": "entity", "detail": "'x'",
         "chunk_id": C1},
        {"stage": "extract", "reason": "extractor error", "kind": "chunk", "detail": "boom", "chunk_id": C2},
        {"stage": "extract", "reason": "truncated reply repaired", "kind": "chunk", "detail": "", "chunk_id": C2},
    ])
    assert list(ws.records("events", Event)) == [NOTE]
    notes = ws.notes()
    assert [type(n) for n in notes] == [Drop, Retype, ChunkFailure, RepairNote]
    assert notes[0].reason is DropReason.SELF_LOOP and notes[1].reason is RetypeReason.UNKNOWN_CLASS_TO_FALLBACK
    assert notes[2].chunk_id == C2 and notes[2].detail == "boom"


# ---------------------------------------------------------------- drops, retypes, repairs, failures


def test_notes_share_the_drops_table_and_come_back_as_their_records(tmp_path: Path) -> None:
    notes = [
        Drop(stage="validate", reason=DropReason.SELF_LOOP, kind="relation", detail="(a, b, a)", chunk_id=C1),
        Retype(stage="validate", reason=RetypeReason.UNKNOWN_CLASS_TO_FALLBACK, kind="entity", detail="'x'"),
        ChunkFailure(detail="ValueError: boom", chunk_id=C2),
        RepairNote(reason=RepairReason.TRUNCATED_REPAIRED, chunk_id=C2, detail="extract: finish_reason=length"),
    ]
    rows = [drop_row(n) for n in notes]
    assert [r["record"] for r in rows] == ["drop", "retype", "failure", "repair"]
    assert [r["reason"] for r in rows] == ["self loop", "unknown class to fallback", "extractor error",
                                           "truncated reply repaired"]
    assert [note_from_row(r) for r in rows] == notes
    ws = Workspace(tmp_path / "ws")
    ws.ensure()
    ws.write_table("drops", rows)
    assert ws.notes() == notes


def test_report_counts_removals_and_retypes_apart_with_readable_keys() -> None:
    report = AssembleSection()
    report.count_drops([
        Drop(stage="validate", reason=DropReason.SELF_LOOP, kind="relation"),
        Drop(stage="validate", reason=DropReason.SELF_LOOP, kind="relation"),
        Retype(stage="validate", reason=RetypeReason.UNKNOWN_CLASS_TO_FALLBACK, kind="entity"),
        ChunkFailure(chunk_id=C1),
    ])
    assert report.drops == {"extract/chunk/extractor error": 1, "validate/relation/self loop": 2}
    assert report.retyped == {"validate/entity/retyped: unknown class to fallback": 1}


def test_merge_rows() -> None:
    from kgbuild.align.fusion import Merge

    row = merge_row(Merge(ADA.id, (ADA.id, "ent_x"), "exact", "same key"), {ADA.id: "Ada Lovelace"})
    assert row == {"canonical_id": ADA.id, "canonical_name": "Ada Lovelace", "merged_ids": [ADA.id, "ent_x"],
                   "step": "exact", "reason": "same key"}
