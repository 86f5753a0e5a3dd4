"""Issue 28: a build's records graph (Arrow columns, records/graph.py) is the graph assembly makes of
the same records mapped one at a time (`RecordExtractor`, validated, merged by id).

The files hold what makes the two paths part ways if either is wrong: a relation to a record no
file holds (a stub, or dropped), a target named by an alias and by an id, two records whose names
are equal once normalised (merged, aliases and properties unioned), a name without letters, a
self-loop, a predicate whose range refuses the target, an SPO file with properties, an inverse
predicate and a subject class the schema lacks.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kgbuild.assemble import assemble
from kgbuild.extract.validate import validate_extraction
from kgbuild.ingest.readers.problems import ReadProblem
from kgbuild.record_mapping import RecordsConfig
from kgbuild.records import (
    MappedFiles,
    PendingChunks,
    RecordExtractor,
    build_records_graph,
    chunk_table,
    record_chunks,
)
from kgbuild.schema import resolve_schema
from kgbuild.tables import CODECS, entity_row, relation_row

DRUGS = "id,name,alias,form\n1,Aspirin,ASA;acetylsalicylic acid,tablet\n2,aspirin ,,powder;tablet\n3,---,,tablet\n"
DISEASES = ("name,alias,drugs,dept,sub\n"
            "Flu,influenza,ASA;Nowhere drug,D1,\n"
            "Cold,,aspirin;Flu,D9,Cold\n"
            "Fever,,,D1;D2,Flu\n")
DEPARTMENTS = "code,path\nD1,内科-呼吸内科\nD2,内科\n"
SPO = ('S,P,O,properties\nFlu,has_symptom,Fever,"{""confidence"": 0.9}"\nFever,possible_disease,Flu,{}\n'
       'Flu,has_symptom,Fever,"{""source"": ""table""}"\n')


def _config(missing: str) -> RecordsConfig:
    return RecordsConfig.model_validate({"missing_targets": missing, "files": [
        {"path": "drugs.csv", "class": "Drug", "id": "id", "name": "name", "aliases": ["alias"],
         "properties": [{"column": "form", "property": "dosageForm", "parse": "list"}]},
        {"path": "diseases.csv", "class": "Disease", "name": "name", "aliases": ["alias"],
         "relations": [{"column": "drugs", "predicate": "treatedWith", "target": "Drug", "separator": ";"},
                       {"column": "dept", "predicate": "belongsToDepartment", "target": "HospitalDepartment",
                        "by": "id", "separator": ";"},
                       # The schema's subDepartmentOf joins departments: every row of it is refused.
                       {"column": "sub", "predicate": "subDepartmentOf", "target": "Disease"}]},
        {"path": "departments.csv", "class": "HospitalDepartment", "id": "code",
         "hierarchy": {"column": "path", "separator": "-"}},
        {"path": "spo.csv", "spo": {}},
    ]})


def _read(tmp_path: Path, config: RecordsConfig) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    schema = resolve_schema("medicine")
    files = MappedFiles(config, schema)
    docs, chunks, mapped = {}, {}, {}
    for name, text in (("drugs.csv", DRUGS), ("diseases.csv", DISEASES), ("departments.csv", DEPARTMENTS),
                       ("spo.csv", SPO)):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        for item in files.read(path, name, path.stem) or ():
            assert not isinstance(item, ReadProblem), item.line()
            if item.format != "records":
                continue
            docs[item.id] = item
            mapped[item.id] = files.take(item)
            chunks[item.id] = chunk_table(item, mapped[item.id].rows)
    return docs, chunks, mapped


def _rows(rows: list[dict[str, Any]], drop: tuple[str, ...] = ()) -> dict[str, dict[str, Any]]:
    return {r["id"]: {k: v for k, v in r.items() if k not in drop} for r in rows}


@pytest.mark.parametrize("missing", ["stub", "drop"])
@pytest.mark.parametrize("strict", [False, True])
def test_the_columnar_records_graph_is_what_assembly_makes_of_the_records(tmp_path: Path, missing: str,
                                                                          strict: bool) -> None:
    config = _config(missing)
    schema = resolve_schema("medicine")
    docs, chunks, mapped = _read(tmp_path, config)
    graph = build_records_graph(config, schema, docs, chunks, mapped, strict=strict)
    # The same records, one at a time, as per-record extractions, validated and merged by id.
    as_records = {d: record_chunks(t) for d, t in chunks.items()}
    extractor = RecordExtractor.for_corpus(config, schema, docs, as_records)
    extractions = [validate_extraction(ex, schema, strict=strict) for d in sorted(as_records)
                   for ex in extractor.extract(docs[d], as_records[d])]
    expected = assemble(extractions)
    classes = expected.node_classes()
    want_entities = _rows([CODECS["entities"].to_row(e, doc_ids=entity_row(e)["doc_ids"])
                           for e in expected.entities])
    want_relations = _rows([relation_row(r, classes) for r in expected.relations])
    assert _rows(graph.entities.to_pylist()) == want_entities
    assert _rows(graph.relations.to_pylist()) == want_relations
    assert sorted(c.model_dump_json() for c in graph.concepts) == sorted(
        c.model_dump_json() for c in expected.concepts)
    notes = sorted((n.reason.value, n.kind, n.detail, n.chunk_id) for n in [*graph.drops, *graph.retypes])
    assert notes == sorted((n.reason.value, n.kind, n.detail, n.chunk_id) for n in expected.notes())
    # What the files hold shows: an alias found the target, a stub or a drop for the missing one.
    names = {r["name"] for r in graph.entities.to_pylist()}
    assert ("Nowhere drug" in names) == (missing == "stub") and "---" not in names
    assert {"Flu", "Cold", "Fever", "呼吸内科"} <= names
    aspirin = next(r for r in graph.entities.to_pylist() if r["name"] == "Aspirin")
    assert json.loads(aspirin["properties"]) == {"dosageForm": ["tablet", "powder"]}
    assert aspirin["aliases"] == ["ASA", "acetylsalicylic acid"]  # `aspirin ` is the same record
    triples = {(r["subject_name"], r["predicate"], r["object_name"]): r for r in graph.relations.to_pylist()}
    assert ("Flu", "treatedWith", "Aspirin") in triples  # by the alias ASA
    assert json.loads(triples[("Flu", "hasSymptom", "Fever")]["properties"]) == {"confidence": "0.9",
                                                                                 "source": "table"}
    assert not [t for t in triples if t[1] == "subDepartmentOf"]
    reasons = {d.reason.value for d in graph.drops}
    assert {"self loop", "domain/range violation", "name has no letter or digit"} <= reasons, reasons
    # Nowhere drug and D9 are no record of any file; Flu is a Disease, not a Drug.
    assert graph.counts.stubs + graph.counts.dropped_targets == 3


def test_only_the_records_fusion_has_work_for_enter_it(tmp_path: Path) -> None:
    """A record whose name or alias the text also names, records of two classes answering to one
    name, and hierarchy records (their semantic type links them to a concept) are handed to
    alignment as records; every other row stays in the table."""
    from kgbuild.model import Entity

    config = _config("stub")
    docs, chunks, mapped = _read(tmp_path, config)
    graph = build_records_graph(config, resolve_schema("medicine"), docs, chunks, mapped)
    before = graph.entities.num_rows
    text = [Entity(id=Entity.make_id("Influenza", "Disease"), name="Influenza", spg_class="Disease",
                   chunk_ids=["notes#p00000#0"])]
    brought = {(e.name, e.spg_class) for e in graph.bring_in(text)}
    # Flu by its alias influenza; Flu the Disease and the stub Drug "Flu" (diseases.csv:3) share a
    # name, as do Fever the Disease record and Fever the Symptom of spo.csv; the departments have
    # semantic types. Cold and Aspirin stay in the table.
    assert brought == {("Flu", "Disease"), ("Flu", "Drug"), ("Fever", "Disease"), ("Fever", "Symptom"),
                       ("内科", "HospitalDepartment"), ("呼吸内科", "HospitalDepartment")}
    left = {r["name"] for r in graph.entities.to_pylist()}
    assert graph.entities.num_rows == before - len(brought) and {"Cold", "Aspirin"} <= left


@pytest.mark.parametrize("step", [1, 2, 3, 10])
def test_chunk_rows_made_a_slice_at_a_time_are_the_files_rows(tmp_path: Path, step: int) -> None:
    """Persist makes the chunk rows of a file read this build a slice at a time
    (`PendingChunks.parts`): the rows of the whole file, each record linked to the one before and
    after it across the slices' edges, numbered in file order."""
    docs, chunks, mapped = _read(tmp_path, _config("stub"))
    pending = PendingChunks(docs["diseases"], mapped["diseases"].rows)
    assert pending.num_rows == 3
    rows = [row for part in pending.parts(step) for row in part.to_pylist()]
    assert rows == chunks["diseases"].to_pylist() == pending.table().to_pylist()
    assert [(r["id"], r["prev_id"], r["next_id"], r["order"], r["section"]) for r in rows] == [
        ("diseases#p00002#0", None, "diseases#p00003#0", 0, ["diseases.csv:2"]),
        ("diseases#p00003#0", "diseases#p00002#0", "diseases#p00004#0", 1, ["diseases.csv:3"]),
        ("diseases#p00004#0", "diseases#p00003#0", None, 2, ["diseases.csv:4"]),
    ]
