from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from kgbuild.assemble import assemble
from kgbuild.config import ChunkingConfig
from kgbuild.extract.structure import combine, split_items, structure_extract
from kgbuild.extract.validate import validate_extraction
from kgbuild.ingest.chunking import Chunker
from kgbuild.ingest.readers import read_sources
from kgbuild.model import Chunk, ChunkExtraction, Document, Entity, Paragraph
from kgbuild.schema import Schema, SchemaProblem, builtin_schema_path, check_schema, heading_key, load_schema

SCHEMA = """\
name: services
fallback_class: Thing
entity_types:
  Thing: {}
  Service:
    parent: Thing
    properties:
      fee: text
  GovernmentService:
    parent: Service
    properties:
      requiredMaterials: {type: text, multi_value: true}
      processingTime: {type: text}
    document_structure:
      match: {title: "(?i)service guide|办事指南"}
      sections:
        "Required materials": requiredMaterials
        "申请材料": requiredMaterials
        "Processing time": processingTime
        "(?:办理|承诺)时限": processingTime
        Fees: fee
"""

GUIDE = """\
# Passport renewal service guide

This guide explains how to renew an adult passport at a service centre.

## Required materials

- Your current passport
- Two recent photos (35 x 45 mm)
- 1. Completed form DS-82

### For minors

Consent of both parents. A birth certificate.

## 2. Processing time:

Applications are processed within 15 working days. Express service takes 5 days.

## Contact

Call 12345 for help.
"""


def write(tmp_path: Path, text: str, name: str = "schema.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def chunker() -> Chunker:
    return Chunker(ChunkingConfig(min_tokens=0))  # one chunk per paragraph: easy to address


@pytest.fixture
def schema(tmp_path: Path) -> Schema:
    return load_schema(write(tmp_path, SCHEMA))


def read(tmp_path: Path, name: str, text: str, chunker: Chunker) -> tuple[Document, list[Chunk]]:
    (tmp_path / name).write_text(text, encoding="utf-8")
    [doc] = list(read_sources([tmp_path / name]))
    assert isinstance(doc, Document)
    return doc, chunker.chunk(doc).chunks


def by_section(chunks: list[Chunk]) -> dict[str, str]:
    return {c.section[-1]: c.id for c in chunks}


# ---------------------------------------------------------------- extraction


def test_service_guide_sections_become_properties(tmp_path: Path, schema: Schema, chunker: Chunker) -> None:
    doc, chunks = read(tmp_path, "passport.md", GUIDE, chunker)
    ids = by_section(chunks)
    result = structure_extract(doc, chunks, schema)

    assert result.handled == {ids["Required materials"], ids["For minors"], ids["2. Processing time:"]}
    entity = result.entity
    assert entity is not None
    assert entity.name == "Passport renewal service guide" and entity.spg_class == "GovernmentService"
    assert entity.id == Entity.make_id("Passport renewal service guide", "GovernmentService")
    assert entity.properties == {
        "requiredMaterials": ["Your current passport", "Two recent photos (35 x 45 mm)", "Completed form DS-82",
                              "For minors: Consent of both parents", "For minors: A birth certificate"],
        "processingTime": ["Applications are processed within 15 working days. Express service takes 5 days."],
    }
    first = chunks[0].id
    assert first not in result.handled
    assert entity.chunk_ids == [first, ids["Required materials"], ids["For minors"], ids["2. Processing time:"]]

    # one record per handled chunk plus the first chunk, each with its own provenance
    assert set(result.extractions) == result.handled | {first}
    anchor = result.extractions[first].entities[0]
    assert anchor.properties == {} and anchor.chunk_ids == [first]
    assert all(ex.extractor == "structure" for ex in result.extractions.values())
    # validated and assembled like any extractor's output, they give the same entity
    graph = assemble(validate_extraction(ex, schema, strict=True) for ex in result.extractions.values())
    [assembled] = graph.entities
    assert assembled.properties == entity.properties
    assert sorted(assembled.chunk_ids) == sorted(entity.chunk_ids)
    assert graph.drops == []


def test_chinese_guide_and_inherited_property(schema: Schema) -> None:
    doc = Document(id="g", source="guides/居住证.txt", title="居住证办理办事指南", format="txt", content_hash="h",
                   paragraphs=[Paragraph(text="x")])

    def chunk(n: int, section: list[str], text: str) -> Chunk:
        return Chunk(id=f"g#p{n:05d}#0", doc_id="g", text=text, section=section, order=n, paragraph_start=n,
                     paragraph_end=n, token_count=10, content_hash=str(n))

    chunks = [
        chunk(0, ["一、申请材料"], "1. 居民身份证；2. 近期照片；3. 租房合同。"),
        chunk(1, ["二、承诺时限"], "15个工作日。"),
        chunk(2, ["二、承诺时限"], "材料不全的，时限重新计算。"),  # a long section cut in two: still one value
        chunk(3, ["三、Fees"], "免费"),  # `fee` is declared on the parent type Service
        chunk(4, ["四、咨询电话"], "12345"),
    ]
    result = structure_extract(doc, chunks, schema)
    assert result.entity is not None
    assert result.entity.properties == {
        "requiredMaterials": ["居民身份证", "近期照片", "租房合同"],
        "processingTime": ["15个工作日。\n\n材料不全的，时限重新计算。"],
        "fee": ["免费"],
    }
    assert result.handled == {c.id for c in chunks[:4]}
    assert result.entity.chunk_ids == [c.id for c in chunks[:4]]  # the first chunk is handled itself
    assert result.extractions[chunks[2].id].entities[0].properties == {}  # its text is in chunk 1's value


def test_non_matching_document_is_untouched(tmp_path: Path, schema: Schema, chunker: Chunker) -> None:
    doc, chunks = read(tmp_path, "essay.md", GUIDE.replace("service guide", "essay"), chunker)
    result = structure_extract(doc, chunks, schema)
    assert result.handled == set() and result.extractions == {} and result.entity is None
    # a schema without document types never matches
    plain = Schema(name="plain", fallback_class="Thing", entity_types={"Thing": {}})
    assert structure_extract(doc, chunks, plain).handled == set()


def test_match_by_source_glob(tmp_path: Path, chunker: Chunker) -> None:
    text = SCHEMA.replace('match: {title: "(?i)service guide|办事指南"}', "match: {source: '*guides/*.md'}")
    schema = load_schema(write(tmp_path, text))
    (tmp_path / "corpus" / "guides").mkdir(parents=True)
    (tmp_path / "corpus" / "guides" / "p.md").write_text(GUIDE, encoding="utf-8")
    [doc] = list(read_sources([tmp_path / "corpus"]))
    assert isinstance(doc, Document) and doc.source == "guides/p.md"
    assert structure_extract(doc, chunker.chunk(doc).chunks, schema).entity is not None
    other = doc.model_copy(update={"source": "notes/p.md"})
    assert structure_extract(other, chunker.chunk(doc).chunks, schema).entity is None


def test_matched_document_without_mapped_sections_still_has_its_entity(schema: Schema) -> None:
    doc = Document(id="d", source="a.md", title="Fishing licence service guide", format="md", content_hash="h",
                   paragraphs=[Paragraph(text="x")])
    chunk = Chunk(id="d#p00000#0", doc_id="d", text="Apply online.", order=0, paragraph_start=0, paragraph_end=0,
                  token_count=3, content_hash="c")
    result = structure_extract(doc, [chunk], schema)
    assert result.handled == set()
    assert list(result.extractions) == [chunk.id]  # to be combined with the extractor's output
    llm = ChunkExtraction(chunk_id=chunk.id, extractor="llm",
                          entities=[Entity(id="e1", name="Apply", spg_class="Thing")])
    merged = combine(llm, result.extractions[chunk.id])
    assert [e.name for e in merged.entities] == ["Apply", "Fishing licence service guide"]
    assert merged.extractor == "llm"


@pytest.mark.parametrize(("text", "items"), [
    ("- a\n- b", ["a", "b"]),
    ("1) ID card\n2) Photo.\n(3) Form", ["ID card", "Photo", "Form"]),
    ("身份证；户口簿；照片。", ["身份证", "户口簿", "照片"]),
    ("Bring your ID. Pay 1.5 dollars! Done", ["Bring your ID", "Pay 1.5 dollars", "Done"]),
    ("①身份证\n②照片", ["身份证", "照片"]),
    ("", []),
])
def test_split_items(text: str, items: list[str]) -> None:
    assert split_items(text) == items


def test_heading_key() -> None:
    assert heading_key("3. Required  materials:") == "Required materials"
    assert heading_key("（二）申请材料：") == "申请材料"
    assert heading_key("2019 annual report") == "2019 annual report"


# ---------------------------------------------------------------- schema format


def test_example_schema_is_clean() -> None:
    path = builtin_schema_path("government_services")
    assert check_schema(path) == []
    [doc_type] = load_schema(path).document_types()
    assert doc_type.cls == "GovernmentService"
    assert doc_type.structure.property_for("3. Required documents") == "requiredMaterials"
    assert doc_type.structure.property_for("承诺办结时限") == "processingTime"
    assert doc_type.structure.property_for("Contact") is None


def one_problem(problems: list[SchemaProblem], path: str) -> SchemaProblem:
    found = [p for p in problems if p.path == path]
    assert found, f"no problem at {path!r}; got: {[p.line_text() for p in problems]}"
    return found[0]


def line_of(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), start=1) if needle in line)


def test_bad_document_structure_is_reported_with_lines(tmp_path: Path) -> None:
    text = SCHEMA.replace('"Required materials": requiredMaterials', '"Required materials": requiredMaterial') \
                 .replace('"(?i)service guide|办事指南"', '"(?i)service guide|办事指南("') \
                 .replace('"(?:办理|承诺)时限": processingTime', '"[办理时限": processingTime')
    problems = check_schema(write(tmp_path, text))
    base = "entity_types.GovernmentService.document_structure"
    prop = one_problem(problems, f"{base}.sections.Required materials")
    assert prop.line == line_of(text, '"Required materials"')
    assert prop.message == "'requiredMaterial' is not a property of GovernmentService"
    assert prop.hint == "did you mean 'requiredMaterials'?"
    title = one_problem(problems, f"{base}.match.title")
    assert title.line == line_of(text, "match:") and "invalid regex" in title.message
    heading = one_problem(problems, f"{base}.sections.[办理时限")
    assert "invalid regex '[办理时限'" in heading.message and heading.line == line_of(text, "[办理时限")
    assert len(problems) == 3


def test_document_structure_unknown_keys_and_missing_match(tmp_path: Path) -> None:
    text = SCHEMA.replace("      match:", "      mach:")
    problems = check_schema(write(tmp_path, text))
    base = "entity_types.GovernmentService.document_structure"
    unknown = one_problem(problems, f"{base}.mach")
    assert unknown.message == "unknown key 'mach'" and unknown.hint == "did you mean 'match'?"
    assert one_problem(problems, f"{base}.match").message == "required key 'match' is missing"

    text = SCHEMA.replace('match: {title: "(?i)service guide|办事指南"}', "match: {titel: x}")
    problems = check_schema(write(tmp_path, text))
    assert one_problem(problems, f"{base}.match.titel").hint == "did you mean 'title'?"

    text = SCHEMA.replace('match: {title: "(?i)service guide|办事指南"}', "match: {}")
    problems = check_schema(write(tmp_path, text))
    assert one_problem(problems, f"{base}.match").message == "match needs 'title' (a regex) or 'source' (a glob)"


def test_document_structure_sections_checks(tmp_path: Path) -> None:
    text = SCHEMA.replace('        Fees: fee\n', '        "required materials:": processingTime\n        "1.": fee\n')
    problems = check_schema(write(tmp_path, text))
    base = "entity_types.GovernmentService.document_structure.sections"
    clash = one_problem(problems, f"{base}.required materials:")
    assert "is the same as 'Required materials' but maps to another property" in clash.message
    assert one_problem(problems, f"{base}.1.").message == "heading '1.' is empty"
    with pytest.raises(ValueError, match="no sections mapped"):
        Schema.model_validate({"name": "s", "fallback_class": "T", "entity_types": {
            "T": {"document_structure": {"match": {"title": "x"}, "sections": {}}}}})
