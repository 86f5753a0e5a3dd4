from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from shared_data import shared_data_dir

from kgbuild.errors import ConfigError
from kgbuild.extract.domain_concepts import (
    ConceptIndex,
    DomainConcept,
    format_for_prompt,
    load_domain_concepts,
)
from kgbuild.model import Concept

DATA = shared_data_dir()
DOMAIN_KG = DATA / "domain_kg"
MEDICINE = DATA / "medicine"
needs_domain_kg = pytest.mark.skipif(not (DOMAIN_KG / "nodes.json").is_file(), reason="shared domain_kg data absent")
needs_medicine = pytest.mark.skipif(not (MEDICINE / "Disease.csv").is_file(), reason="shared medicine data absent")

# Hand-made English concepts: the heart attack chunk shares no content word with the
# description of myocardial infarction, so only an embedder can connect the two.
ENGLISH = [
    DomainConcept("Myocardial infarction", "Necrosis of the myocardium caused by prolonged ischaemia after "
                  "coronary artery occlusion.", ["MI"], ["Cardiovascular disease"]),
    DomainConcept("Cardiovascular disease", "A class of disorders of the circulatory system."),
    DomainConcept("Type 2 diabetes", "A metabolic disorder with high blood glucose and insulin resistance.", ["T2DM"]),
    DomainConcept("Asthma", "Chronic inflammation of the airways with wheezing and shortness of breath."),
    DomainConcept("Stroke", "Loss of brain function from interrupted blood supply.", ["cerebrovascular accident"]),
    DomainConcept("Aspirin", "An analgesic and antiplatelet drug.", ["acetylsalicylic acid"]),
    DomainConcept("Migraine", "A primary headache disorder with recurrent attacks of throbbing pain."),
    DomainConcept("Fracture", "A break in the continuity of a bone."),
]
HEART_ATTACK = ("Last night my father had a heart attack: crushing chest pain spread to his left arm "
                "and he was rushed to the emergency room.")


def names(concepts: list[DomainConcept]) -> list[str]:
    return [c.name for c in concepts]


def write_json(path: Path, value: object) -> Path:
    path.write_text(json.dumps(value, ensure_ascii=False), encoding="utf-8")
    return path


# ---------------------------------------------------------------- loading the shared data


@needs_domain_kg
def test_domain_kg_nodes_and_edges() -> None:
    dc = load_domain_concepts(DOMAIN_KG)
    raw_nodes = json.loads((DOMAIN_KG / "nodes.json").read_text(encoding="utf-8"))
    assert len(dc) == len({n["id"] for n in raw_nodes}) == 25  # repeated ids are one node
    assert dc.warnings == []
    acth = dc.nodes["ACTH"]
    assert acth.parents == ["促肾上腺皮质激素"] and acth.label == "Concept"
    assert sorted(n for n, c in dc.nodes.items() if c.parents == ["促肾上腺皮质激素"]) == sorted(
        ["(缩)肾上腺皮质激素", "促肾皮素", "促皮质素", "促肾上腺皮质[激]素", "ACTH", "促皮质激素", "促肾上腺皮质素"])
    assert dc.nodes["促肾上腺皮质激素"].parents == []
    edges = sum(len(c.parents) for c in dc)
    assert edges == 19
    # the same result from either file of the pair
    assert load_domain_concepts(DOMAIN_KG / "edges.json").nodes == dc.nodes
    assert load_domain_concepts(DOMAIN_KG / "nodes.json").nodes == dc.nodes


@needs_domain_kg
def test_records_are_concepts_with_parent_ids() -> None:
    records = {r.name: r for r in load_domain_concepts(DOMAIN_KG).to_records()}
    assert isinstance(records["ACTH"], Concept)
    assert records["ACTH"].id == Concept.make_id("ACTH")
    assert records["ACTH"].parents == [Concept.make_id("促肾上腺皮质激素")]


@needs_medicine
def test_medicine_csvs() -> None:
    dc = load_domain_concepts(MEDICINE)
    assert len(dc.files) == 3  # Disease, HospitalDepartment, HumanBodyPart
    assert any("SPO.csv: skipped" in w for w in dc.warnings)
    # trees: isA chains, with a node under two parents
    assert dc.nodes["内分泌科"].parents == ["内科"] and dc.nodes["内分泌科"].label == "HospitalDepartment"
    assert dc.nodes["内科"].parents == []
    assert dc.nodes["空肠"].parents == ["消化道"] and dc.nodes["消化道"].parents == ["消化系统"]
    assert sorted(dc.nodes["咽"].parents) == ["呼吸道", "消化道"]
    # `眼科-眼科` would make 眼科 its own parent: reported and broken
    assert dc.nodes["眼科"].parents == []
    assert any("isA cycle 眼科 -> 眼科" in w for w in dc.warnings)
    # title,text,alias: description and aliases, the title itself never an alias
    disease = dc.nodes["脂溢性皮炎"]
    assert disease.aliases == ["脂溢性湿疹"] and disease.description.startswith("脂溢性皮炎，亦称")
    assert dc.nodes["甲状腺结节"].aliases == []
    assert dc.find("脂溢性湿疹") is disease
    departments = sum(1 for c in dc if c.label == "HospitalDepartment")
    lines = (MEDICINE / "HospitalDepartment.csv").read_text(encoding="utf-8").split()[1:]
    assert departments == len({line.split("-")[-1] for line in lines} | {line.split("-")[0] for line in lines})


def test_cycles_and_aliases_in_json(tmp_path: Path) -> None:
    write_json(tmp_path / "nodes.json", [
        {"id": "a", "name": "Alpha", "label": "Concept",
         "properties": {"description": "first", "aliases": "A1, A2、Alpha"}},
        {"id": "b", "name": "Beta"},
        {"id": "c", "name": "Gamma"},
        {"id": "a", "name": "Alpha", "properties": {"description": "ignored: the first description wins"}},
    ])
    write_json(tmp_path / "edges.json", [
        {"from": "a", "to": "b", "label": "isA"},
        {"from": "b", "to": "c", "label": "isA"},
        {"from": "c", "to": "a", "label": "isA"},
        {"from": "a", "to": "c", "label": "relatedTo"},
    ])
    dc = load_domain_concepts(tmp_path)
    assert dc.nodes["Alpha"].description == "first"
    assert dc.nodes["Alpha"].aliases == ["A1", "A2"]
    assert [w for w in dc.warnings if "cycle" in w] == [
        "isA cycle Alpha -> Beta -> Gamma -> Alpha: dropped 'Gamma' isA 'Alpha'"]
    assert [dc.nodes[n].parents for n in ("Alpha", "Beta", "Gamma")] == [["Beta"], ["Gamma"], []]
    assert dc.relations == [("Alpha", "relatedTo", "Gamma")]


# ---------------------------------------------------------------- malformed input


@pytest.mark.parametrize(("files", "where", "problem"), [
    ({"nodes.json": "[{\"id\": \"a\",}]"}, "nodes.json", "invalid JSON at line 1"),
    ({"nodes.json": "{\"id\": \"a\"}"}, "nodes.json", "expected a JSON list"),
    ({"nodes.json": "[{\"id\": \"a\"}, 3]"}, "nodes.json: record 2", "must be a JSON object"),
    ({"nodes.json": "[{\"label\": \"Concept\"}]"}, "nodes.json: record 1", "'name' is missing"),
    ({"nodes.json": "[{\"id\": \"a\", \"name\": [1]}]"}, "nodes.json: record 1", "'name' must be text"),
    ({"nodes.json": "[{\"id\": \"a\"}]", "edges.json": "[{\"from\": \"a\", \"to\": \"zz\", \"label\": \"isA\"}]"},
     "edges.json: record 1", "'to' is 'zz', which is no node id"),
    ({"nodes.json": "[{\"id\": \"a\"}]", "edges.json": "[{\"from\": \"a\", \"to\": \"a\"}]"},
     "edges.json: record 1", "'label' is missing"),
    ({"Dept.csv": "id\nA\nA--B\n"}, "Dept.csv: record 2", "not an isA path"),
    ({"Disease.csv": "title,text,alias\nFlu,A virus,\n,no title,x\n"}, "Disease.csv: record 2", "'title' is empty"),
])
def test_malformed_files_give_one_line_errors(tmp_path: Path, files: dict[str, str], where: str, problem: str) -> None:
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_domain_concepts(tmp_path)
    err = info.value
    assert err.where == f"{tmp_path / where.split(':')[0]}" + (where[where.index(":"):] if ":" in where else "")
    assert problem in err.problem
    assert "extract.domain_concepts" in err.hint
    assert "\n" not in err.line()


def test_unusable_paths(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not found"):
        load_domain_concepts(tmp_path / "missing")
    with pytest.raises(ConfigError, match="no concept files"):
        load_domain_concepts(tmp_path)
    (tmp_path / "spo.csv").write_text("S,P,O\na,b,c\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="unrecognised columns"):
        load_domain_concepts(tmp_path / "spo.csv")
    with pytest.raises(ConfigError, match="no CSV file here has concept columns"):
        load_domain_concepts(tmp_path)
    (tmp_path / "bad.csv").write_bytes(b"id\n\xff\xfe\n")
    with pytest.raises(ConfigError, match="not UTF-8"):
        load_domain_concepts(tmp_path / "bad.csv")
    (tmp_path / "empty.csv").write_text("id\n\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="no concepts found"):
        load_domain_concepts(tmp_path / "empty.csv")


# ---------------------------------------------------------------- retrieval


@needs_domain_kg
def test_candidates_for_domain_kg_doc() -> None:
    dc = load_domain_concepts(DOMAIN_KG)
    index = ConceptIndex(dc)
    doc = (DOMAIN_KG / "doc.txt").read_text(encoding="utf-8")
    first, second = doc.split("\n")[:2]
    assert {"生长激素", "人生长激素"} <= set(names(index.candidates(first, 3)))
    assert names(index.candidates(second, 1)) == ["促肾上腺皮质激素"]
    found = set(names(index.candidates(doc, 8)))
    assert {"生长激素", "人生长激素", "促肾上腺皮质激素"} <= found
    assert "ACTH" not in found and "催乳素" not in found  # not in the text
    assert index.candidates("", 5) == []


@needs_medicine
def test_description_overlap_finds_unnamed_disease() -> None:
    index = ConceptIndex(load_domain_concepts(MEDICINE))
    chunk = ("婴儿出生后三到四周，头皮、面部和胸背部等皮脂溢出部位出现红斑性皮疹，表面附着油腻鳞屑或痂皮，"
             "伴有瘙痒。医生建议外用消炎止痒药物，并调整饮食习惯，避免过度清洁。")
    assert names(index.candidates(chunk, 3)) == ["脂溢性皮炎"]


def test_english_lexical() -> None:
    index = ConceptIndex(ENGLISH)
    text = "Patients with T2DM and asthmas were given acetylsalicylic acid. Diabetes is common."
    assert set(names(index.candidates(text, 5))) == {"Type 2 diabetes", "Asthma", "Aspirin"}
    # a name must be a whole word: "MI" is not found inside "MIGRATION" or "mine"
    assert names(index.candidates("Mine workers and migration.", 5)) == []
    # no word in common with myocardial infarction; migraine has "attacks" of "pain"
    assert names(index.candidates(HEART_ATTACK, 3)) == ["Migraine"]
    assert names(index.candidates_batch([text, HEART_ATTACK], 5)[1]) == ["Migraine"]


def test_english_with_embedder() -> None:
    from kgbuild.embed.models import load_embedder

    index = ConceptIndex(ENGLISH, embedder=load_embedder("bundled", setting="extract.concept_embedder"))
    assert names(index.candidates(HEART_ATTACK, 3))[0] == "Myocardial infarction"
    # the lexical score still leads when names occur
    assert set(names(index.candidates("Aspirin for asthma?", 2))) == {"Aspirin", "Asthma"}


def test_index_is_fast_for_many_concepts() -> None:
    syllables = ["ka", "lo", "mi", "re", "su", "ten", "var", "ox", "ul", "zen", "qui", "bra"]
    concepts = [DomainConcept(f"{syllables[i % 12]}{syllables[i // 12 % 12]}{syllables[i // 144 % 12]}{i}",
                              f"term {i} about {syllables[i % 7]}") for i in range(10_000)]
    # This process's CPU time, not the wall clock: the bound guards against a quadratic index, and a
    # loaded machine stretched the wall clock past it (18.8 s at a load of 20; the CPU time is ~1 s).
    start = time.process_time()
    index = ConceptIndex(concepts)
    texts = [" ".join(c.name for c in concepts[i:i + 60:3]) + " about ka and lo" for i in range(0, 10_000, 10)]
    results = index.candidates_batch(texts, 8)
    assert time.process_time() - start < 5.0
    assert concepts[0].name in names(results[0])


def test_format_for_prompt() -> None:
    text = format_for_prompt([
        ENGLISH[0],
        DomainConcept("内分泌科", parents=["内科"]),
        DomainConcept("ACTH"),
        DomainConcept("Long", "x" * 200),
    ])
    lines = text.split("\n")
    assert lines[0].startswith("Myocardial infarction — Necrosis of the myocardium caused by")
    assert lines[0].endswith("… (isA Cardiovascular disease; also MI)")  # description cut at 80 characters
    assert lines[1] == "内分泌科 (isA 内科)"
    assert lines[2] == "ACTH"
    assert lines[3].startswith("Long — xxx") and lines[3].endswith("…") and len(lines[3]) < 100
