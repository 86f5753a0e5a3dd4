"""The offline Chinese extractor (kgbuild/extract/zh): known outputs on small sentences, language
routing, the one-line notice for languages no offline extractor reads, and a medicine-schema build."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from shared_data import shared_data_dir

from kgbuild.cli import main
from kgbuild.extract.language import detect_language, tally_languages, unsupported_line
from kgbuild.extract.routing import LanguageRouter
from kgbuild.extract.zh.extractor import ChineseExtractor
from kgbuild.model import Chunk, ChunkExtraction
from kgbuild.schema import resolve_schema
from kgbuild.workspace import Workspace


def chunk(text: str, n: int = 0) -> Chunk:
    return Chunk(id=f"d{n}#0", doc_id=f"d{n}", text=text, order=0, paragraph_start=0, paragraph_end=0,
                 token_count=len(text), content_hash=str(n))


@pytest.fixture(scope="module")
def zh() -> ChineseExtractor:
    return ChineseExtractor(resolve_schema("medicine"))


def run(ex: ChineseExtractor, text: str) -> tuple[dict[str, tuple[str, list[str]]], set[tuple[str, str, str]]]:
    result: ChunkExtraction = ex.extract([chunk(text)])[0]
    assert result.failure is None and result.extractor == "jieba-rules"
    entities = {e.name: (e.spg_class, e.aliases) for e in result.entities}
    return entities, {(r.subject.name, r.predicate, r.object.name) for r in result.relations}


def test_definition_gives_alias_and_subtype(zh: ChineseExtractor) -> None:
    entities, triples = run(zh, "脂溢性皮炎，亦称脂溢性湿疹，是一种慢性炎症性皮肤病。")
    assert entities["脂溢性皮炎"] == ("Disease", ["脂溢性湿疹"])
    assert entities["慢性炎症性皮肤病"][0] == "Disease"
    assert "脂溢性湿疹" not in entities  # the other name is the same entity, not a second one
    assert triples == {("脂溢性皮炎", "subtypeOf", "慢性炎症性皮肤病")}


def test_symptom_list_is_typed_by_its_context(zh: ChineseExtractor) -> None:
    entities, triples = run(zh, "脂溢性皮炎主要症状包括黄红色斑片、瘙痒和油腻鳞屑。")
    assert {("脂溢性皮炎", "hasSymptom", s) for s in ("黄红色斑片", "瘙痒", "油腻鳞屑")} <= triples
    assert entities["瘙痒"][0] == "Symptom"


def test_schema_tree_terms_departments_and_proper_names(zh: ChineseExtractor) -> None:
    entities, triples = run(zh, "甲状腺结节患者可以在甲状腺外科，内分泌科挂号就诊。")
    assert entities["甲状腺外科"][0] == entities["内分泌科"][0] == "HospitalDepartment"
    assert ("甲状腺结节", "belongsToDepartment", "内分泌科") in triples
    entities, _ = run(zh, "北京协和医院的专家指出，流感病毒可以引起肺炎。")
    assert entities["北京协和医院"][0] == "Hospital"
    assert entities["流感病毒"][0] == "Pathogen" and entities["肺炎"][0] == "Disease"


def test_domain_concept_file_terms_link_to_their_concept(tmp_path: Path) -> None:
    (tmp_path / "Disease.csv").write_text("idx,title,text,alias\n1,肝豆状核变性,遗传病,威尔逊病\n", encoding="utf-8")
    ex = ChineseExtractor(resolve_schema("medicine"), tmp_path)
    entities, _ = run(ex, "威尔逊病多见于青少年。")
    assert entities["肝豆状核变性"] == ("Disease", ["威尔逊病"])  # the alias written, the concept's name kept


def test_language_detection_and_routing() -> None:
    assert detect_language("生长激素是一种肽类激素（HGH）。") == "zh"
    assert detect_language("東京は日本の首都です。") == "ja"
    assert detect_language("Alan Turing was born in London.") == "en"
    assert detect_language("القاهرة عاصمة مصر") == "ar"
    router = LanguageRouter(resolve_schema("medicine"), ["en_core_web_sm"])
    assert router.is_chinese(chunk("甲状腺结节是临床常见的病症。")) and not router.is_chinese(chunk("A cat."))
    assert LanguageRouter(resolve_schema("medicine"), [], prompt_language="zh").is_chinese(chunk("A cat."))
    line = unsupported_line(tally_languages(["東京は日本の首都です。", "A cat.", "生长激素"]))
    assert line is not None and "1 chunk(s) in Japanese" in line and "llm.base_url" in line
    assert unsupported_line(tally_languages(["A cat.", "生长激素"])) is None


@pytest.mark.slow
def test_medicine_build_of_chinese_text_has_entities_and_names_unsupported_languages(tmp_path: Path) -> None:
    doc = shared_data_dir() / "domain_kg" / "doc.txt"
    if not doc.is_file():
        pytest.skip(f"{doc} not found (set KGBUILD_SHARED_DATA)")
    docs = tmp_path / "docs"
    docs.mkdir()
    shutil.copy(doc, docs / "doc.txt")
    (docs / "ja.txt").write_text("東京は日本の首都です。多くの人が住んでいます。\n", encoding="utf-8")
    config = tmp_path / "kgbuild.yaml"
    config.write_text("workspace: ws\nschema: medicine\nbuild:\n  workers: 1\ngraph_store:\n  backend: none\n"
                      "vector_store:\n  backend: none\nalign:\n  enabled: false\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["-c", str(config), "build", str(docs), "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    notices = [line for line in result.stderr.splitlines() if "Japanese" in line]
    assert len(notices) == 1 and "1 file(s) in Japanese" in notices[0]
    report = json.loads(result.stdout)
    assert "jieba-rules" in report["extract"]["extractor"]
    rows = Workspace(tmp_path / "ws").rows("entities")
    names = {r["name"]: r["spg_class"] for r in rows}
    assert names.get("生长激素") == "Drug" and names.get("糖皮质激素") == "Drug"
    assert sum(1 for c in names.values() if c == "HumanBodyPart") >= 3
    assert len(rows) >= 15


def test_list_items_become_mentions_split_at_conjunctions(zh: ChineseExtractor) -> None:
    entities, triples = run(zh, "皮炎可能导致糜烂、色素沉着等并发症。临床常用药物有地塞米松磷酸钠和曲安奈德等。")
    assert {("皮炎", "hasComplication", "糜烂"), ("皮炎", "hasComplication", "色素沉着")} <= triples
    assert entities["地塞米松磷酸钠"][0] == entities["曲安奈德"][0] == "Drug"
    assert "色素" not in entities


def test_a_mention_inside_another_name_is_part_of_that_name(zh: ChineseExtractor) -> None:
    entities, _ = run(zh, "生长激素是注射用人生长激素的简称。")
    assert entities["生长激素"] == ("Drug", ["注射用人生长激素"])
    assert set(entities) == {"生长激素"}  # jieba's 用人生长激素 is a piece of the full name
