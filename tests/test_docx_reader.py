"""Word documents (issue 14): a real .docx written with python-docx is read into sections and paragraph
codes, its table kept as text rows, and built; a damaged one is one line naming the file while the
rest of the input is built."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from kgbuild.ingest.readers import ReadProblem, read_sources
from kgbuild.model import Document

docx = pytest.importorskip("docx")


def write_docx(path: Path) -> None:
    document = docx.Document()
    document.core_properties.title = "Bletchley Park report"
    document.add_heading("Codebreakers", level=1)
    document.add_paragraph("Alan Turing worked at Bletchley Park in Buckinghamshire.")
    document.add_heading("Machines", level=2)
    document.add_paragraph("The Bombe helped break the Enigma cipher.")
    table = document.add_table(rows=3, cols=2)
    for row, (name, year) in zip(table.rows, [("Machine", "Year"), ("Bombe", "1940"), ("Colossus", "1944")],
                                 strict=True):
        row.cells[0].text, row.cells[1].text = name, year
    document.add_heading("People", level=1)
    document.add_paragraph("Joan Clarke was a cryptanalyst.")
    document.save(str(path))


def test_headings_become_sections_and_tables_text_rows(tmp_path: Path) -> None:
    write_docx(tmp_path / "report.docx")
    [doc] = list(read_sources([tmp_path / "report.docx"]))
    assert isinstance(doc, Document)
    assert (doc.id, doc.title, doc.format) == ("report", "Bletchley Park report", "docx")
    assert [(p.section, p.text) for p in doc.paragraphs] == [
        (["Codebreakers"], "Alan Turing worked at Bletchley Park in Buckinghamshire."),
        (["Codebreakers", "Machines"], "The Bombe helped break the Enigma cipher."),
        (["Codebreakers", "Machines"], "Machine | Year\nBombe | 1940\nColossus | 1944"),
        (["People"], "Joan Clarke was a cryptanalyst."),
    ]


def test_a_damaged_docx_is_one_line_and_the_rest_is_built(tmp_path: Path) -> None:
    from kgbuild.build import Builder
    from kgbuild.config import load_config

    src = tmp_path / "src"
    src.mkdir()
    write_docx(src / "report.docx")
    whole = (src / "report.docx").read_bytes()
    (src / "damaged.docx").write_bytes(whole[: len(whole) // 2])  # cut short, as by a failed copy
    (src / "notes.docx").write_text("plain text saved under the wrong name", encoding="utf-8")
    problems = [item for item in read_sources([src]) if isinstance(item, ReadProblem)]
    assert [p.source for p in problems] == ["damaged.docx", "notes.docx"]
    for problem in problems:
        assert "\n" not in problem.line() and "cannot open Word document" in problem.message
        assert problem.message.endswith("(an old .doc: save it as .docx)")

    config = tmp_path / "kgbuild.yaml"
    config.write_text("workspace: ws\ngraph_store: {backend: none}\nvector_store: {backend: none}\n"
                      "build: {workers: 1}\n", encoding="utf-8")
    report = asyncio.run(Builder(load_config(config, env={})).arun([src], sync=False))
    assert report.read is not None and report.read.documents_read == 1
    assert sorted(s.source for s in report.skipped) == ["damaged.docx", "notes.docx"]
    chunks = pq.read_table(tmp_path / "ws" / "tables" / "chunks.parquet").to_pylist()
    # Chunk ids follow articleID#paraCode#idInPara: the chunk starts in a paragraph of the report.
    assert chunks and all(c["id"].startswith("report#") for c in chunks)
    assert any("Colossus | 1944" in c["text"] for c in chunks)
    names = {e["name"] for e in pq.read_table(tmp_path / "ws" / "tables" / "entities.parquet").to_pylist()}
    assert "Alan Turing" in names and "Bletchley Park" in names


def _bomb(path: Path, paragraphs: int) -> None:
    """A real .docx whose main part is rewritten to hold `paragraphs` paragraphs of 100 characters:
    tens of MB of text in a file of a few hundred KB (the deflate of repeated XML)."""
    import zipfile

    write_docx(path)
    with zipfile.ZipFile(path) as source:
        parts = {name: source.read(name) for name in source.namelist()}
    xml = parts["word/document.xml"].decode("utf-8")
    para = "<w:p><w:r><w:t>" + "Bletchley " * 10 + "</w:t></w:r></w:p>"
    start = xml.index("<w:body>") + len("<w:body>")
    parts["word/document.xml"] = (xml[:start] + para * paragraphs + xml[start:]).encode("utf-8")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as target:
        for name, data in parts.items():
            target.writestr(name, data)


def test_a_docx_bomb_is_refused_in_one_line_before_it_is_inflated(tmp_path: Path) -> None:
    import tracemalloc

    src = tmp_path / "src"
    src.mkdir()
    _bomb(src / "bomb.docx", 300_000)  # 30 M characters of text
    write_docx(src / "report.docx")
    assert (src / "bomb.docx").stat().st_size < 2_000_000
    tracemalloc.start()
    items = list(read_sources([src], max_chars=1_000_000))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    problems = [i for i in items if isinstance(i, ReadProblem)]
    assert [d.id for d in items if not isinstance(d, ReadProblem)] == ["report"]  # the rest is read
    assert [p.source for p in problems] == ["bomb.docx"]
    assert "over the cap of 1,000,000 (read.max_document_chars)" in problems[0].message
    assert "\n" not in problems[0].line()
    assert peak < 100_000_000, f"peak {peak / 1e6:.0f} MB while refusing the bomb"  # the text alone is 30 MB
