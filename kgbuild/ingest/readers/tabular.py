"""CSV and TSV files as corpora: one document per row.

Which columns are the title, the text and the id comes from `read.csv` in the config, else it is
guessed from the header (`title`/`name`, `text`/`content`/`description`, `id`/`idx`); every other
column becomes a document property (`Document.metadata`). A bad row is one problem naming its
file and line, and the rows after it are still read; a header without a text column is one
problem for the whole file.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from dataclasses import dataclass

from kgbuild.config import CsvColumns
from kgbuild.ingest.readers.corpus import IdAllocator
from kgbuild.ingest.readers.decode import decode_text
from kgbuild.ingest.readers.document import clean_text, make_document, paragraph, split_paragraphs
from kgbuild.ingest.readers.problems import BadInput, ReadProblem
from kgbuild.model import Document, Paragraph

TITLE_COLUMNS = ("title", "name", "subject", "label", "headline")
TEXT_COLUMNS = ("text", "content", "contents", "description", "body", "abstract", "summary", "desc")
ID_COLUMNS = ("id", "_id", "idx", "key", "uid")
# A CSV field may hold a whole article; Python's default limit (128 KiB) would reject it.
FIELD_LIMIT = 64 * 1024 * 1024


@dataclass(frozen=True)
class _Layout:
    header: list[str]
    title: int | None
    text: list[int]
    id: int | None

    def properties(self, row: list[str]) -> dict[str, str]:
        used = {self.title, self.id, *self.text}
        out: dict[str, str] = {}
        for i, name in enumerate(self.header):
            value = clean_text(row[i]) if i not in used else ""
            if value and name:
                out[name] = value
        return out


def _column(header: list[str], wanted: str | None, guesses: tuple[str, ...], setting: str) -> int | None:
    folded = [h.strip().casefold() for h in header]
    if wanted is not None:
        if wanted.strip().casefold() not in folded:
            raise BadInput(f"{setting}: no column {wanted!r}; the header has {_shown(header)}")
        return folded.index(wanted.strip().casefold())
    return next((folded.index(g) for g in guesses if g in folded), None)


def _shown(header: list[str]) -> str:
    return ", ".join(repr(h) for h in header[:20]) + (f" and {len(header) - 20} more" if len(header) > 20 else "")


def _layout(header: list[str], columns: CsvColumns) -> _Layout:
    wanted = [columns.text] if isinstance(columns.text, str) else columns.text
    if wanted:
        text = [_column(header, w, (), "read.csv.text") for w in wanted]
    else:
        text = [_column(header, None, TEXT_COLUMNS, "read.csv.text")]
    if any(t is None for t in text):
        raise BadInput(f"no text column (looked for {', '.join(TEXT_COLUMNS[:4])}, ...); the header has "
                       f"{_shown(header)}: set read.csv.text in the config to the column(s) holding the text")
    return _Layout(header, _column(header, columns.title, TITLE_COLUMNS, "read.csv.title"),
                   [t for t in text if t is not None], _column(header, columns.id, ID_COLUMNS, "read.csv.id"))


def _paragraphs(layout: _Layout, row: list[str]) -> list[Paragraph]:
    out: list[Paragraph] = []
    for i in layout.text:
        # A blank line inside a field starts a new paragraph; single line breaks are kept.
        out += [p for p in (paragraph([], part, "\n") for part in split_paragraphs(row[i])) if p]
    return out


def read_table(data: bytes, source: str, fmt: str, columns: CsvColumns | None = None,
               namespace: str = "") -> Iterator[Document | ReadProblem]:
    """Documents of a .csv (fmt "csv") or .tsv ("tsv") file, one per row; problems name `source:LINE`.
    A row's id is `namespace/ROW-ID` (the file's own id, e.g. `data/drugs/7`): row ids repeat across
    files (every export numbers from 1), and a document id must not."""
    columns = columns or CsvColumns()
    text = decode_text(_stray_nul_kept(data))  # BOM stripped, empty/binary/non-UTF-8 refused
    delimiter = columns.delimiter or ("\t" if fmt == "tsv" else ",")
    previous_limit = csv.field_size_limit(FIELD_LIMIT)
    try:
        yield from _rows(text, source, fmt, delimiter, columns, namespace)
    finally:
        csv.field_size_limit(previous_limit)


# A table with a NUL byte here and there is text with damaged rows; one where NULs are common (or in
# the header) is a binary file named .csv, or UTF-16 without a BOM.
_NUL_SHARE_OF_BINARY = 0.1
_NUL_MARK = "\uffff"  # a noncharacter: no real text holds it


def _stray_nul_kept(data: bytes) -> bytes:
    """`data` with its stray NUL bytes as U+FFFF placeholders, so the text check lets it through and
    `_rows` skips just the rows holding one; a file that is mostly NULs is left for the check to refuse."""
    count = data.count(b"\x00")
    header_end = data.find(b"\n")
    if count == 0 or count > len(data) * _NUL_SHARE_OF_BINARY or b"\x00" in data[:max(header_end, 0)]:
        return data
    return data.replace(b"\x00", _NUL_MARK.encode("utf-8"))


def _rows(text: str, source: str, fmt: str, delimiter: str, columns: CsvColumns,
          namespace: str) -> Iterator[Document | ReadProblem]:
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    try:
        header = next(reader, None)
    except csv.Error as err:
        raise BadInput(f"line 1: unreadable header: {err}") from None
    if header is None or not any(h.strip() for h in header):
        raise BadInput("no header row; the first line must name the columns (e.g. title,text)")
    layout = _layout(header, columns)
    ids = IdAllocator()
    line = reader.line_num + 1  # where the next record starts (quoted fields may span lines)
    rows = 0
    while True:
        where = f"{source}:{line}"
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as err:
            # The quoting is broken: the reader cannot tell where the next row starts, so the rest
            # of the file is one problem (the rows before it are kept).
            yield ReadProblem(where, f"{err}; check the quotes from this line on (a field holding "
                                     f"{'tabs' if delimiter == chr(9) else 'commas'}, quotes or line breaks "
                                     "must be quoted, a quote inside doubled); the rest of the file was not read")
            return
        line = reader.line_num + 1
        if not any(cell.strip() for cell in row):
            continue  # blank line
        rows += 1
        if len(row) != len(header):
            yield ReadProblem(where, f"row has {len(row)} fields, the header has {len(header)}; quote fields "
                                     "that hold the delimiter, or fix the row (skipped)")
            continue
        if any(_NUL_MARK in cell for cell in row):
            yield ReadProblem(where, "row holds a NUL byte (binary data in a text field); remove it or re-export "
                                     "the row (skipped)")
            continue
        try:
            yield _document(layout, row, where, fmt, ids, namespace)
        except BadInput as err:
            yield ReadProblem(where, err.message)
    if rows == 0:
        raise BadInput("only a header, no rows; nothing to build")


def _document(layout: _Layout, row: list[str], where: str, fmt: str, ids: IdAllocator,
              namespace: str) -> Document:
    title = clean_text(row[layout.title]) if layout.title is not None else ""
    raw_id = clean_text(row[layout.id]) if layout.id is not None else ""
    names = ", ".join(repr(layout.header[i]) for i in layout.text)
    paragraphs = _paragraphs(layout, row)
    if not paragraphs:
        raise BadInput(f"empty text in column {names}; fill it in or remove the row (skipped)")
    if not title and not raw_id:
        shown = f"column {layout.header[layout.title]!r}" if layout.title is not None else "a title column"
        raise BadInput(f"no title or id: fill in {shown} or set read.csv.title / read.csv.id (skipped)")
    row_id = raw_id or title
    doc = make_document(f"{namespace}/{row_id}" if namespace else row_id, where, title or raw_id, fmt, paragraphs,
                        layout.properties(row))
    unique = ids.allocate(doc.id)
    return doc if unique == doc.id else doc.model_copy(update={"id": unique})
