"""Issue 28: structured records (CSV/TSV/JSON/JSONL, SPO files) mapped onto the schema, no model.

The expected facts are read off the medicine files themselves (KAG's example data in
shared/data/medicine): HospitalDepartment.csv line 3 is `内科-内分泌科`, Disease.csv's record at
line 2 is 脂溢性皮炎 with the alias 脂溢性湿疹 and a text that starts "脂溢性皮炎，亦称脂溢性湿疹",
SPO.csv line 2 is (Panic_disorder, has_symptom, Anxiety_and_nervousness, {"confidence": 1.0}).
"""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from shared_data import shared_data_dir

from kgbuild import explore
from kgbuild.build import Builder
from kgbuild.config import default_config_text, load_config
from kgbuild.extract.validate import validate_extraction
from kgbuild.ingest.readers.problems import ReadProblem
from kgbuild.model import Chunk, Concept, Document
from kgbuild.record_mapping import FileMapping, RecordsConfig
from kgbuild.records import MappedFiles, RecordExtractor, chunk_table, read_rows, record_chunks
from kgbuild.records.values import BadValue, parse, split
from kgbuild.workspace import Workspace

MEDICINE = shared_data_dir() / "medicine"
needs_data = pytest.mark.skipif(not (MEDICINE / "Disease.csv").is_file(), reason="shared medicine data not present")


def _schema() -> Any:
    from kgbuild.schema import resolve_schema

    return resolve_schema("medicine")


def _records(text: str) -> RecordsConfig:
    return RecordsConfig.model_validate({"files": json.loads(text)} if text.startswith("[") else text)


# The chunks of the records documents `_read` gave, by document id (reading keeps records as columns).
_CHUNKS: dict[str, list[Chunk]] = {}


def _read(path: Path, config: RecordsConfig) -> tuple[list[Document], list[str]]:
    """A mapped file's documents and its problems as the one-line texts the build report shows."""
    files = MappedFiles(config, _schema())
    claimed = files.read(path, path.name, path.stem)
    assert claimed is not None, f"no mapping claims {path.name}"
    docs, problems = [], []
    for item in claimed:
        if isinstance(item, ReadProblem):
            problems.append(item.line())
        else:
            docs.append(item)
            if item.format == "records":
                mapped = files.take(item)
                assert mapped is not None
                _CHUNKS[item.id] = record_chunks(chunk_table(item, mapped.rows))
    return docs, problems


def _extract(docs: list[Document], config: RecordsConfig) -> tuple[list[Any], RecordExtractor]:
    records = [d for d in docs if d.format == "records"]
    chunks = {d.id: _CHUNKS[d.id] for d in records}
    extractor = RecordExtractor.for_corpus(config, _schema(), {d.id: d for d in records}, chunks)
    out = [ex for d in records for ex in extractor.extract(d, chunks[d.id])]
    return out, extractor


# ---------------------------------------------------------------- reading and values


@needs_data
def test_records_start_on_their_own_line_even_with_multiline_cells() -> None:
    rows = [r for r in read_rows(MEDICINE / "Disease.csv", "Disease.csv", "csv") if not isinstance(r, ReadProblem)]
    assert [(r.line, r.values["title"]) for r in rows] == [(2, "脂溢性皮炎"), (6, "甲状腺结节")]


def test_json_array_and_jsonl_records_know_their_lines(tmp_path: Path) -> None:
    array = tmp_path / "drugs.json"
    array.write_text('[\n  {"name": "aspirin"},\n  {"name": "ibuprofen",\n   "dose": 200},\n  3\n]\n', encoding="utf-8")
    got = list(read_rows(array, "drugs.json", "json"))
    assert [(r.line, r.values["name"]) for r in got if not isinstance(r, ReadProblem)] == [(2, "aspirin"),
                                                                                           (3, "ibuprofen")]
    assert [p.line() for p in got if isinstance(p, ReadProblem)] == [
        "drugs.json:5: a record must be a JSON object (record skipped)"]
    lines = tmp_path / "drugs.jsonl"
    lines.write_text('{"name": "a"}\n\n{"name": \n{"name": "c"}\n', encoding="utf-8")
    got = list(read_rows(lines, "drugs.jsonl", "jsonl"))
    assert [r.line for r in got if not isinstance(r, ReadProblem)] == [1, 4]
    assert [p.source for p in got if isinstance(p, ReadProblem)] == ["drugs.jsonl:3"]


def test_typed_parses_normalise_values_and_refuse_bad_ones() -> None:
    assert parse("1,234.5", "number", []) == ["1234.5"]
    assert parse(7.0, "integer", []) == ["7"]
    assert parse("2024/3/5", "date", []) == ["2024-03-05"]
    assert parse("是", "boolean", []) == ["true"]
    assert parse("口服; 外用；口服", "list", [";", "；"]) == ["口服", "外用"]
    for value, kind in (("about ten", "number"), ("2.5", "integer"), ("next week", "date"), ("maybe", "boolean")):
        with pytest.raises(BadValue):
            parse(value, kind, [])


def test_the_fast_paths_of_cells_give_what_the_general_ones_give() -> None:
    """One separator is split with str.split and a plain number read by float at once (issue 28's
    import time): the same values as the regex and the grouping rule, on the cells that differ."""
    for cell in ("drug 1;drug 2", " a ;; a;b ", ";", "a", "", "x;\u00a0;y", "a ;a"):
        assert split(cell, ";") == split(cell, [";"]), cell
    assert split(" a ;; a;b ", ";") == ["a", "b"]
    for cell, number in (("12345", "12345"), ("1_000", "1000"), ("1_00", "100"), ("1,234", "1234"), ("1 234 567", "1234567"),
                         (" 2.50 ", "2.5"), ("1e3", "1000"), ("１２", "12")):
        assert parse(cell, "number", []) == [number], cell
    for bad in ("1,23", "nan", "inf", "1__000"):
        with pytest.raises(BadValue):
            parse(bad, "number", [])


# ---------------------------------------------------------------- mapping the medicine files


MEDICINE_MAPPING = RecordsConfig.model_validate({"files": [
    {"path": "Disease.csv", "class": "Disease", "id": "idx", "name": "title", "aliases": ["alias"], "text": "text"},
    {"path": "HospitalDepartment.csv", "class": "HospitalDepartment", "hierarchy": {"column": "id"}},
    {"path": "SPO.csv", "spo": {}},
]})


@needs_data
def test_department_paths_become_an_isa_chain_and_each_record_cites_its_line() -> None:
    docs, problems = _read(MEDICINE / "HospitalDepartment.csv", MEDICINE_MAPPING)
    assert problems == []
    (doc,) = docs
    assert doc.metadata["records.count"] == "144"  # every line below the header
    assert len(_CHUNKS[doc.id]) == 144
    extractions, _ = _extract(docs, MEDICINE_MAPPING)
    by_chunk = {ex.chunk_id: ex for ex in extractions}
    endo = by_chunk["HospitalDepartment#p00003#0"]  # line 3: 内科-内分泌科
    (entity,) = endo.entities
    assert (entity.name, entity.spg_class, entity.semantic_type) == ("内分泌科", "HospitalDepartment", "内分泌科")
    leaf = next(c for c in endo.concepts if c.name == "内分泌科")
    assert leaf.parents == [Concept.make_id("内科")] and leaf.chunk_ids == ["HospitalDepartment#p00003#0"]
    assert _CHUNKS[doc.id][1].section == ["HospitalDepartment.csv:3"]


@needs_data
def test_disease_records_keep_aliases_and_their_text_becomes_a_document() -> None:
    docs, problems = _read(MEDICINE / "Disease.csv", MEDICINE_MAPPING)
    assert problems == []
    texts = [d for d in docs if d.format != "records"]
    assert [(d.id, d.title, d.source) for d in texts] == [("Disease/1", "脂溢性皮炎", "Disease.csv:2"),
                                                          ("Disease/2", "甲状腺结节", "Disease.csv:6")]
    assert texts[0].text.startswith("脂溢性皮炎，亦称脂溢性湿疹")
    extractions, _ = _extract(docs, MEDICINE_MAPPING)
    first = extractions[0].entities[0]
    assert (first.name, first.aliases, first.chunk_ids) == ("脂溢性皮炎", ["脂溢性湿疹"], ["Disease#p00002#0"])
    assert "text" not in json.loads(_CHUNKS[docs[-1].id][0].text)  # the row chunk leaves the text column out


@needs_data
def test_spo_rows_are_schema_checked_triples_with_their_properties() -> None:
    docs, problems = _read(MEDICINE / "SPO.csv", MEDICINE_MAPPING)
    assert problems == []
    extractions, _ = _extract(docs, MEDICINE_MAPPING)
    assert len(extractions) == 14
    (first,) = extractions[0].relations
    assert (first.subject.name, first.predicate, first.object.name) == (
        "Panic_disorder", "hasSymptom", "Anxiety_and_nervousness")
    assert first.properties == {"confidence": "1.0"} and first.chunk_ids == ["SPO#p00002#0"]
    classes = {e.name: e.spg_class for e in extractions[0].entities}
    assert classes == {"Panic_disorder": "Disease", "Anxiety_and_nervousness": "Symptom"}  # hasSymptom's ends
    (back,) = extractions[1].relations  # line 3 uses the inverse name
    assert back.predicate == "possibleDisease" and extractions[1].entities[0].spg_class == "Symptom"


# ---------------------------------------------------------------- bad input: one line each, the rest imported


def _csv(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_missing_column_is_one_line_for_the_file(tmp_path: Path) -> None:
    path = _csv(tmp_path, "Disease.csv", "idx,title\n1,脂溢性皮炎\n")
    docs, problems = _read(path, MEDICINE_MAPPING)
    assert docs == []
    assert len(problems) == 1 and problems[0].startswith("Disease.csv: line 1: no column 'text', 'alias' (the header has 'idx', 'title')")


def test_an_unknown_class_or_relation_predicate_in_the_mapping_skips_the_file(tmp_path: Path) -> None:
    path = _csv(tmp_path, "x.csv", "name\nfoo\n")
    config = _records('[{"path": "x.csv", "class": "Spaceship", "name": "name"}]')
    assert _read(path, config) == ([], ["x.csv: records.files[0].class: class 'Spaceship' is not in schema "
                                        "'medicine'; use one of its entity_types or concept_types (file skipped)"])
    config = _records('[{"path": "x.csv", "class": "Diseas", "name": "name"}]')
    assert _read(path, config)[1] == ["x.csv: records.files[0].class: class 'Diseas' is not in schema 'medicine'; "
                                      "did you mean 'Disease'? (file skipped)"]
    config = _records('[{"path": "x.csv", "class": "Disease", "name": "name", '
                      '"relations": [{"column": "name", "predicate": "orbits", "target": "Disease"}]}]')
    _, problems = _read(path, config)
    assert problems == ["x.csv: records.files[0].relations[0].predicate: 'orbits' is not a relation of schema "
                        "'medicine' (file skipped)"]


def test_bad_spo_rows_are_one_line_each_and_the_rest_is_imported(tmp_path: Path) -> None:
    path = _csv(tmp_path, "SPO.csv", "S,P,O,properties\n"
                "Flu,has_symptom,Fever,{\"confidence\": 0.9}\n"
                "Flu,orbits,Moon,{}\n"
                "Flu,has_symptom,Cough,{confidence: 1}\n"
                "Flu,has_symptom,Ache\n")
    docs, problems = _read(path, MEDICINE_MAPPING)
    assert problems == [
        "SPO.csv:3: predicate 'orbits' is not a relation of schema 'medicine'; declare it under relation_types "
        "or fix the row (record skipped)",
        "SPO.csv:4: column 'properties': not a JSON object (Expecting property name enclosed in double quotes at "
        "column 2); the triple is kept without properties",
        "SPO.csv:5: row has 3 fields, the header has 4; quote fields holding the delimiter (row skipped)",
    ]
    extractions, _ = _extract(docs, MEDICINE_MAPPING)
    triples = [(r.object.name, r.properties) for ex in extractions for r in ex.relations]
    assert triples == [("Fever", {"confidence": "0.9"}), ("Cough", {})]


def test_an_spo_file_without_a_properties_column_imports(tmp_path: Path) -> None:
    path = _csv(tmp_path, "SPO.csv", "S,P,O\nFlu,has_symptom,Fever\n")
    docs, problems = _read(path, MEDICINE_MAPPING)
    assert problems == []
    extractions, _ = _extract(docs, MEDICINE_MAPPING)
    assert [(r.subject.name, r.object.name, r.properties) for r in extractions[0].relations] == [("Flu", "Fever", {})]


def test_a_bad_number_leaves_out_the_value_and_keeps_the_record(tmp_path: Path) -> None:
    path = _csv(tmp_path, "drugs.tsv", "name\tform\tstock\nAspirin\ttablet;powder\tmany\nIbuprofen\ttablet\t1,200\n")
    config = _records('[{"path": "drugs.tsv", "class": "Drug", "name": "name", "properties": ['
                      '{"column": "form", "property": "dosageForm", "parse": "list"},'
                      '{"column": "stock", "parse": "number"}]}]')
    docs, problems = _read(path, config)
    assert problems == ["drugs.tsv:2: column 'stock': 'many' is not a number (value left out)"]
    extractions, _ = _extract(docs, config)
    assert [e.entities[0].properties for e in extractions] == [
        {"dosageForm": ["tablet", "powder"]}, {"dosageForm": ["tablet"], "stock": ["1200"]}]


@pytest.mark.parametrize("missing", ["stub", "drop"])
def test_a_relation_to_a_record_no_file_holds_is_a_named_stub_or_dropped_and_counted(
        tmp_path: Path, missing: str) -> None:
    departments = _csv(tmp_path, "dept.csv", "code,name\nD1,内分泌科\nD2,皮肤科\n")
    diseases = _csv(tmp_path, "disease.json", json.dumps([
        {"name": "甲状腺结节", "departments": ["D1", "D9"]},
        {"name": "脂溢性皮炎", "departments": "D2"},
    ], ensure_ascii=False, indent=1))
    config = RecordsConfig.model_validate({"missing_targets": missing, "files": [
        {"path": "dept.csv", "class": "HospitalDepartment", "id": "code", "name": "name"},
        {"path": "disease.json", "class": "Disease", "name": "name",
         "relations": [{"column": "departments", "predicate": "department", "target": "HospitalDepartment",
                        "by": "id"}]},
    ]})
    docs = [d for path in (departments, diseases) for d in _read(path, config)[0]]
    extractions, extractor = _extract(docs, config)
    triples = [(r.subject.name, r.predicate, r.object.name) for ex in extractions for r in ex.relations]
    expected = [("甲状腺结节", "belongsToDepartment", "内分泌科"), ("脂溢性皮炎", "belongsToDepartment", "皮肤科")]
    if missing == "stub":
        expected.insert(1, ("甲状腺结节", "belongsToDepartment", "D9"))
    assert triples == expected
    # What assembly keeps: both ends of every triple are in the record's extraction (not dangling).
    kept = [validate_extraction(ex, _schema(), strict=False) for ex in extractions]
    assert [(r.subject.name, r.predicate, r.object.name) for ex in kept for r in ex.relations] == expected
    drops = [d.detail for ex in extractions for d in ex.drops]
    assert drops == ([] if missing == "stub" else
                     ["disease.json:2: column 'departments': no HospitalDepartment record with id 'D9'"])
    # A kept stub has its `file:line` line too: a retype note (`kgbuild inspect drops`), one per target.
    stubs = [(r.reason.value, r.detail) for ex in extractions for r in ex.retypes]
    assert stubs == ([] if missing == "drop" else [
        ("missing target to named stub",
         "disease.json:2: column 'departments': no HospitalDepartment record with id 'D9' (kept as a named stub)")])
    assert "1 relation target(s) no mapped record holds" in extractor.notes()[0]


def test_a_mapping_is_either_records_or_spo() -> None:
    with pytest.raises(ValueError, match="either `class`"):
        FileMapping.model_validate({"path": "x.csv", "class": "Disease", "name": "n", "spo": {}})
    with pytest.raises(ValueError, match="names each record"):
        FileMapping.model_validate({"path": "x.csv", "class": "Disease"})


# ---------------------------------------------------------------- the build: text and tables together


def _project(tmp_path: Path, files: list[str], *, mapping: str | None = None) -> tuple[Path, Path]:
    data = tmp_path / "data"
    data.mkdir()
    for name in files:
        shutil.copy(MEDICINE / name, data / name)
    text = default_config_text("medicine-demo", "medicine")
    if mapping is not None:
        text = text.split("records:")[0] + mapping + "\nquery:" + text.split("\nquery:", 1)[1]
    (tmp_path / "kgbuild.yaml").write_text(text, encoding="utf-8")
    return tmp_path / "kgbuild.yaml", data


def _build(config_file: Path, data: Path, **kw: Any) -> Any:
    return asyncio.run(Builder(load_config(config_file, env={})).arun([data], sync=False, **kw))


@pytest.mark.slow  # builds the medicine files with their text (offline Chinese extraction)
@needs_data
def test_medicine_files_build_one_graph_with_the_text(tmp_path: Path) -> None:
    config_file, data = _project(tmp_path, ["Disease.csv", "HospitalDepartment.csv", "HumanBodyPart.csv",
                                            "SPO.csv"])
    report = _build(config_file, data)
    assert report.read.skipped == []
    ws = Workspace(load_config(config_file, env={}).workspace_path())
    # The disease of Disease.csv line 2 and of its text is one node citing both.
    (disease,) = [e for e in explore.entities(ws, name="脂溢性皮炎", spg_class="Disease", limit=None)
                  if e["name"] == "脂溢性皮炎"]
    assert "Disease#p00002#0" in disease["chunk_ids"]
    assert any(c.startswith("Disease/1#") for c in disease["chunk_ids"])
    assert disease["aliases"] == ["脂溢性湿疹"]
    _, _, support = explore.support(ws, disease["id"])
    row = next(c for c in support if c["id"] == "Disease#p00002#0")
    assert row["section"] == ["Disease.csv:2"] and json.loads(row["text"])["alias"] == "脂溢性湿疹"
    # 内科-内分泌科: the department belongTo its concept, which isA the concept of 内科.
    triples = explore.triples(ws, entity="内分泌科", limit=None)
    belong = [t for t in triples if t["predicate"] == "belongTo" and t["subject_name"] == "内分泌科"]
    assert len(belong) == 1 and "HospitalDepartment#p00003#0" in belong[0]["chunk_ids"]
    concept = belong[0]["object_id"]
    isa = [t for t in explore.triples(ws, predicate="isA", limit=None) if t["subject_id"] == concept]
    parents = {t["object_name"] for t in isa}
    assert parents & {"内科", "Internal medicine"}, parents  # the schema spells 内科 in English
    # SPO rows: schema-checked triples with their properties, citing their line.
    spo = [t for t in explore.triples(ws, predicate="hasSymptom", limit=None) if t["subject_name"] == "Panic_disorder"]
    assert len(spo) == 7 and all(t["properties"] == {"confidence": "1.0"} for t in spo)
    assert {c for t in spo for c in t["chunk_ids"]} == {f"SPO#p{n:05d}#0" for n in range(2, 15, 2)}


@pytest.mark.slow  # three builds
@needs_data
def test_a_changed_record_changes_only_what_it_maps_to_and_a_removed_file_takes_its_nodes(tmp_path: Path) -> None:
    mapping = """records:
  files:
    - path: HospitalDepartment.csv
      class: HospitalDepartment
      hierarchy: {column: id, separator: "-"}
    - path: SPO.csv
      spo: {}
"""
    config_file, data = _project(tmp_path, ["HospitalDepartment.csv", "SPO.csv"], mapping=mapping)
    _build(config_file, data)
    ws = Workspace(load_config(config_file, env={}).workspace_path())
    before = {e["id"]: e for e in explore.entities(ws, limit=None)}
    again = _build(config_file, data)
    assert again.chunk.documents_unchanged == 2 and again.chunk.documents_changed == 0
    assert {e["id"]: e for e in explore.entities(ws, limit=None)} == before
    text = (data / "HospitalDepartment.csv").read_text(encoding="utf-8")
    (data / "HospitalDepartment.csv").write_text(text.replace("内科-内分泌科\n", "内科-内分泌代谢科\n"),
                                                 encoding="utf-8")
    changed = _build(config_file, data)
    assert changed.chunk.documents_changed == 1
    after = {e["id"]: e for e in explore.entities(ws, limit=None)}
    gone, new = set(before) - set(after), set(after) - set(before)
    assert [before[i]["name"] for i in gone] == ["内分泌科"]
    assert [after[i]["name"] for i in new] == ["内分泌代谢科"]
    assert all(after[i] == before[i] for i in set(before) & set(after))
    (data / "SPO.csv").unlink()
    _build(config_file, data, prune=True)
    names = {e["name"] for e in explore.entities(ws, limit=None)}
    assert "Panic_disorder" not in names and "内分泌代谢科" in names


def test_init_for_medicine_maps_the_four_files(tmp_path: Path) -> None:
    (tmp_path / "kgbuild.yaml").write_text(default_config_text("demo", "medicine"), encoding="utf-8")
    config = load_config(tmp_path / "kgbuild.yaml", env={})
    paths = [m.path for m in config.records.files]
    assert paths == ["Disease.csv", "HospitalDepartment.csv", "HumanBodyPart.csv", "SPO.csv"]
    assert load_config(_csv(tmp_path, "kgbuild.yaml", default_config_text("demo", "open_domain")),
                       env={}).records.files == []


@needs_data
def test_a_text_entity_named_by_a_records_alias_fuses_with_the_record() -> None:
    from kgbuild.align.fusion import fuse_entities
    from kgbuild.model import Entity

    docs, _ = _read(MEDICINE / "Disease.csv", MEDICINE_MAPPING)
    extractions, _ = _extract(docs, MEDICINE_MAPPING)
    record = extractions[0].entities[0]  # 脂溢性皮炎, alias 脂溢性湿疹 (Disease.csv:2)
    said = [Entity(id=Entity.make_id("脂溢性湿疹", cls), name="脂溢性湿疹", spg_class=cls, chunk_ids=[chunk])
            for cls, chunk in (("Disease", "text#p00000#0"), ("Drug", "text#p00001#0"))]
    fused = fuse_entities([record, *said], [], _schema())
    by_class = {e.spg_class: e for e in fused.entities}
    assert len(fused.entities) == 2  # the Drug of the same spelling is not the disease
    disease = by_class["Disease"]
    assert (disease.name, disease.aliases) == ("脂溢性皮炎", ["脂溢性湿疹"])  # the table's name wins
    assert disease.chunk_ids == ["Disease#p00002#0", "text#p00000#0"]
    assert [m.step for m in fused.merges] == ["alias"]


def test_an_unchanged_reimport_parses_nothing_and_keeps_the_tables(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 28: a records file whose bytes, mapping and schema are unchanged is not parsed again,
    and a build that changed nothing keeps the last build's assembly, alignment and tables; its
    bad rows are still reported. A changed row is read and built again."""
    import kgbuild.records.documents as documents
    from kgbuild.build.unchanged import NOTE

    data = tmp_path / "data"
    data.mkdir()
    (data / "drugs.csv").write_text("id,name,stock\n1,aspirin,12\n2,ibuprofen,many\n", encoding="utf-8")
    mapping = """records:
  files:
    - path: drugs.csv
      class: Drug
      id: id
      name: name
      properties:
        - {column: stock, parse: number}
"""
    text = default_config_text("records-demo", "medicine")
    text = text.split("records:")[0] + mapping + "\nquery:" + text.split("\nquery:", 1)[1]
    (tmp_path / "kgbuild.yaml").write_text(text, encoding="utf-8")
    config_file = tmp_path / "kgbuild.yaml"
    parsed: list[str] = []
    real = documents.read_rows

    def counting(path: Path, *args: Any, **kw: Any) -> Any:
        parsed.append(path.name)
        return real(path, *args, **kw)

    monkeypatch.setattr(documents, "read_rows", counting)
    first = _build(config_file, data)
    assert parsed == ["drugs.csv"] and "assemble" in first.stage_seconds
    ws = Workspace(load_config(config_file, env={}).workspace_path())
    tables = {name: ws.rows(name) for name in ("entities", "relations", "chunks", "documents")}
    again = _build(config_file, data)
    assert parsed == ["drugs.csv"]  # not parsed a second time
    assert NOTE in again.notes
    assert not {"assemble", "align", "persist"} & set(again.stage_seconds)
    assert [s.reason for s in again.read.skipped] == [s.reason for s in first.read.skipped]
    assert any("'many' is not a number" in s.reason for s in again.read.skipped)
    assert again.graph == first.graph and again.persist == first.persist
    assert {name: ws.rows(name) for name in tables} == tables
    (data / "drugs.csv").write_text("id,name,stock\n1,aspirin,13\n2,ibuprofen,many\n", encoding="utf-8")
    changed = _build(config_file, data)
    assert parsed == ["drugs.csv", "drugs.csv"] and changed.chunk.documents_changed == 1
    assert "assemble" in changed.stage_seconds and NOTE not in changed.notes
    (aspirin,) = [e for e in explore.entities(ws, name="aspirin", limit=None)]
    assert aspirin["properties"] == {"stock": ["13"]}


@pytest.mark.slow  # builds the medicine tables and text, syncs Milvus Lite, asks FRAG
@needs_data
def test_a_question_joining_a_text_fact_and_a_table_fact_is_answered_without_a_model(tmp_path: Path) -> None:
    """Issue 28, written from the data before running it: Disease.csv's text for 甲状腺结节 (line 6)
    says patients register at 普外科, 甲状腺外科, 内分泌科 or 头颈外科; HospitalDepartment.csv says
    内科-内分泌科 (line 3), 外科-甲状腺外科 (line 73) and 耳鼻咽喉头颈外科-头颈外科 (line 93). So the
    内科 department for 甲状腺结节 is 内分泌科, the 外科 one 甲状腺外科: only the text knows the
    disease's departments, only the table knows which is part of which."""
    pytest.importorskip("milvus_lite")
    import kgbuild

    config_file, data = _project(tmp_path, ["Disease.csv", "HospitalDepartment.csv"])
    report = asyncio.run(Builder(load_config(config_file, env={})).arun([data]))
    assert not report.store_error, report.store_error
    with kgbuild.open(config_file) as engine:
        for question, gold, other in (("甲状腺结节患者可以去哪个内科科室挂号？", "内分泌科", "甲状腺外科"),
                                      ("甲状腺结节可以挂外科的哪个科？", "甲状腺外科", "内分泌科")):
            answer = engine.query(question, strategy="frag")
            assert answer.answer == gold, (question, answer.answer, answer.notes)
            facts = {(t.subject, t.predicate, t.object): t.chunk_ids for t in answer.triples}
            text_fact = facts[("甲状腺结节", "belongsToDepartment", gold)]
            assert any(c.startswith("Disease/2#") for c in text_fact)  # the text of Disease.csv line 6
            table_fact = next(chunks for (s, p, _), chunks in facts.items() if s == gold and p == "subDepartmentOf")
            assert all(c.startswith("HospitalDepartment#") for c in table_fact)  # a row of the table
            assert other != answer.answer


def test_records_are_never_paired_by_a_similarity_step_but_text_still_fuses_with_them() -> None:
    """Two rows of a table whose names differ by one letter are two records; a text entity spelled
    that way is still the record (fusion's typo step), and an equal name still fuses records."""
    from kgbuild.align.fusion import fuse_entities
    from kgbuild.model import Entity

    def disease(name: str, chunk: str) -> Entity:
        return Entity(id=Entity.make_id(name, "Disease"), name=name, spg_class="Disease", chunk_ids=[chunk])

    rows = [disease("Seborrheic dermatitis", "Disease#p00002#0"), disease("Seborrheic dermatitus", "Disease#p00003#0")]
    text = disease("Seborrheic dermatitus", "notes#p00001#0")
    settled = {e.id for e in rows}
    apart = fuse_entities(rows, [], _schema(), settled=settled)
    assert len(apart.entities) == 2 and apart.merges == []
    before = fuse_entities(rows, [], _schema())  # without the records known, the typo step joins them
    assert len(before.entities) == 1
    other = disease("Atopic dermatitis", "notes#p00002#0")
    typo = disease("Atopic dermatitus", "Disease#p00004#0")  # a record, and the text's spelling one letter off
    fused = fuse_entities([typo, other], [], _schema(), settled={typo.id})
    assert len(fused.entities) == 1 and [m.step for m in fused.merges] == ["lsh"]
    assert text.id == rows[1].id  # the same name and class is the same node before fusion


@pytest.mark.slow  # a build that syncs Milvus Lite, then `kgbuild query`
def test_an_answer_citing_a_record_names_its_file_and_line(tmp_path: Path) -> None:
    """Issue 28: a row is a citeable source in answers. Written from the file: drugs.csv line 3 is
    Ibuprofen, the only capsule, so BM25 (no model) cites that row as `drugs.csv:3`; the passage
    of a text file is cited by its document, as before."""
    pytest.importorskip("milvus_lite")
    from click.testing import CliRunner

    from kgbuild.cli.root import main

    data = tmp_path / "data"
    data.mkdir()
    (data / "drugs.csv").write_text("id,name,form\n1,Aspirin,tablet\n2,Ibuprofen,capsule\n", encoding="utf-8")
    (data / "notes.txt").write_text("Capsule shells are made of gelatin.\n", encoding="utf-8")
    mapping = "records:\n  files:\n    - {path: drugs.csv, class: Drug, id: id, name: name}\n"
    text = default_config_text("records-demo", "medicine")
    text = text.split("records:")[0] + mapping + "\nquery:" + text.split("\nquery:", 1)[1]
    config_file = tmp_path / "kgbuild.yaml"
    config_file.write_text(text, encoding="utf-8")
    report = asyncio.run(Builder(load_config(config_file, env={})).arun([data]))
    assert not report.store_error, report.store_error
    args = ["--config", str(config_file), "query", "Which drug is a capsule?", "--strategy", "bm25", "--k", "2"]
    runner = CliRunner()
    as_json = runner.invoke(main, [*args, "--json"], catch_exceptions=False)
    assert as_json.exit_code == 0, as_json.output
    citations = {c["chunk_id"]: c for c in json.loads(as_json.stdout)["citations"]}
    assert citations["drugs#p00003#0"]["source"] == "drugs.csv:3", citations
    assert all(c["source"] is None for c in citations.values() if c["doc_id"] == "notes"), citations
    human = runner.invoke(main, args, catch_exceptions=False)
    assert human.exit_code == 0, human.output
    assert "[drugs#p00003#0] (drugs.csv:3)" in human.stdout, human.stdout
