"""CSV/TSV files as corpora (issue 17, item 7): one document per row, columns mapped by `read.csv`
or guessed from the header, the other columns as properties, and a bad row is one line naming the
file and line while the rest is read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from shared_data import shared_data_dir

from kgbuild.cli import main
from kgbuild.config import CsvColumns
from kgbuild.ingest.readers import ReadProblem, read_sources
from kgbuild.model import Document


def read(path: Path, columns: CsvColumns | None = None) -> tuple[list[Document], list[ReadProblem]]:
    items = list(read_sources([path], csv_columns=columns))
    return ([i for i in items if isinstance(i, Document)], [i for i in items if isinstance(i, ReadProblem)])


def test_the_medicine_disease_csv_reads_one_document_per_row() -> None:
    path = shared_data_dir() / "medicine" / "Disease.csv"
    if not path.exists():
        pytest.skip(f"{path} not present")
    docs, problems = read(path)
    assert problems == []
    assert [d.id for d in docs] == ["Disease/1", "Disease/2"]  # idx is the id column, under the file's id
    first = docs[0]
    assert first.title == "脂溢性皮炎" and first.format == "csv"
    assert first.text.startswith("脂溢性皮炎，亦称脂溢性湿疹") and "\n" in first.text  # line breaks kept
    assert set(first.metadata) == {"alias"} and first.metadata["alias"]
    assert first.source == f"{path.as_posix()}:2"


def test_bad_rows_are_one_line_each_and_the_rest_is_read(tmp_path: Path) -> None:
    text = ("\ufeffName,Description,country\n"  # BOM, guessed columns in another case
            'Ada Lovelace,"Wrote the first program.\n\nShe worked with Babbage.",UK\n'  # quoted blank line
            "Alan Turing,Broke Enigma,UK,extra\n"  # line 5: a field too many
            "Grace Hopper,,US\n"  # line 6: empty text
            ",Nobody knows,XX\n"  # line 7: neither title nor id
            "\n"
            'Edsger Dijkstra,"Said ""goto"" is harmful, famously",NL\n')  # quoted comma and quotes
    path = tmp_path / "people.csv"
    path.write_text(text, encoding="utf-8")
    docs, problems = read(path)
    assert [d.title for d in docs] == ["Ada Lovelace", "Edsger Dijkstra"]
    ada = docs[0]
    assert [p.text for p in ada.paragraphs] == ["Wrote the first program.", "She worked with Babbage."]
    assert ada.metadata == {"country": "UK"} and ada.id == "people/Ada Lovelace"
    assert docs[1].text == 'Said "goto" is harmful, famously' and docs[1].source.endswith("people.csv:9")
    assert [(p.source.rsplit("/", 1)[-1], p.message.split(";")[0]) for p in problems] == [
        ("people.csv:5", "row has 4 fields, the header has 3"),
        ("people.csv:6", "empty text in column 'Description'"),
        ("people.csv:7", "no title or id: fill in column 'Name' or set read.csv.title / read.csv.id (skipped)"),
    ]
    assert all("\n" not in p.line() for p in problems)


def test_tsv_and_a_configured_mapping(tmp_path: Path) -> None:
    path = tmp_path / "drugs.tsv"
    path.write_text("code\tlabel\tusage\tnotes\tmaker\n"
                    "D1\tAspirin\tPain relief, fever.\tTake with food.\tBayer\n"
                    "D2\tAspirin\tBlood thinning.\t\tBayer\n", encoding="utf-8")
    docs, problems = read(path, CsvColumns(title="label", text=["usage", "notes"], id="code"))
    assert problems == []
    assert [(d.id, d.title, d.format) for d in docs] == [("drugs/D1", "Aspirin", "tsv"), ("drugs/D2", "Aspirin", "tsv")]
    assert [p.text for p in docs[0].paragraphs] == ["Pain relief, fever.", "Take with food."]
    assert docs[0].metadata == {"maker": "Bayer"}
    # Guessing finds no text column here: one problem for the file, naming the setting.
    _, (problem,) = read(path)
    assert problem.message.startswith("no text column") and "read.csv.text" in problem.message
    _, (wrong,) = read(path, CsvColumns(text="usgae"))
    assert "read.csv.text: no column 'usgae'" in wrong.message


def test_broken_quoting_keeps_the_rows_before_and_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.csv"
    path.write_text('title,text\nA,"fine"\nB,"never closed\nC,more\n', encoding="utf-8")
    docs, (problem,) = read(path)
    assert [d.title for d in docs] == ["A"]
    assert problem.source.endswith("broken.csv:3") and "quotes" in problem.message


def test_build_of_a_csv_reports_bad_rows_and_builds_the_rest(tmp_path: Path) -> None:
    (tmp_path / "kgbuild.yaml").write_text(
        "workspace: ws\ngraph_store:\n  backend: none\nvector_store:\n  backend: none\nbuild:\n  workers: 1\n"
        "read:\n  csv:\n    text: about\n", encoding="utf-8")
    (tmp_path / "people.csv").write_text(
        "title,about\nAda Lovelace,Ada Lovelace wrote the first program for the Analytical Engine.\n"
        "Bad,row,with,extra\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["-c", str(tmp_path / "kgbuild.yaml"), "build", "-q",
                                       str(tmp_path / "people.csv")])
    assert result.exit_code == 1, result.output
    assert "skipped: " in result.stderr and "people.csv:3: row has 4 fields, the header has 2" in result.stderr
    docs = CliRunner().invoke(main, ["-c", str(tmp_path / "kgbuild.yaml"), "inspect", "documents", "--json"])
    assert "Ada Lovelace" in docs.output


def test_inspect_documents_json_shows_the_other_columns(tmp_path: Path) -> None:
    # docs/csv.md: every other column becomes a document property, shown by `inspect documents --json`
    (tmp_path / "kgbuild.yaml").write_text(
        "workspace: ws\ngraph_store:\n  backend: none\nvector_store:\n  backend: none\nbuild:\n  workers: 1\n",
        encoding="utf-8")
    (tmp_path / "people.csv").write_text(
        "id,title,text,born,field\n1,Ada Lovelace,Ada Lovelace wrote the first program.,1815,mathematics\n"
        "2,Alan Turing,Alan Turing broke Enigma.,1912,\n", encoding="utf-8")
    built = CliRunner().invoke(main, ["-c", str(tmp_path / "kgbuild.yaml"), "build", "-q", str(tmp_path / "people.csv")])
    assert built.exit_code == 0, built.output
    docs = CliRunner().invoke(main, ["-c", str(tmp_path / "kgbuild.yaml"), "inspect", "documents", "--json"])
    by_title = {d["title"]: d for d in json.loads(docs.output)}
    assert by_title["Ada Lovelace"]["metadata"] == {"born": "1815", "field": "mathematics"}
    assert by_title["Alan Turing"]["metadata"]["born"] == "1912"


def test_rows_with_a_nul_byte_are_skipped_one_by_one_and_the_good_rows_read(tmp_path: Path) -> None:
    path = tmp_path / "people.csv"
    path.write_bytes(b"id,name,text\n1,Ada,Wrote the first program.\n2,Bad,Broken \x00 row\n"
                     b"3,Alan,Broke Enigma.\n4,Worse\x00,Also broken\n5,Grace,Wrote a compiler.\n")
    docs, problems = read(path)
    assert [d.title for d in docs] == ["Ada", "Alan", "Grace"]
    assert [(p.source.rsplit("/", 1)[-1], p.message.split(";")[0]) for p in problems] == [
        ("people.csv:3", "row holds a NUL byte (binary data in a text field)"),
        ("people.csv:5", "row holds a NUL byte (binary data in a text field)")]
    binary = tmp_path / "image.csv"
    binary.write_bytes(b"\x89PNG\x00\x00\x00\rIHDR" * 50)
    docs, problems = read(binary)
    assert not docs and len(problems) == 1 and "binary file" in problems[0].message


def test_row_ids_are_namespaced_by_file(tmp_path: Path) -> None:
    for name in ("a", "b", "c"):
        (tmp_path / "in" / name).mkdir(parents=True)
        (tmp_path / "in" / name / "rows.csv").write_text(f"id,title,text\n1,{name} one,First row of {name}.\n",
                                                         encoding="utf-8")
    docs, problems = read(tmp_path / "in")
    assert not problems and [d.id for d in docs] == ["a/rows/1", "b/rows/1", "c/rows/1"]
