"""Word documents (.docx) via python-docx: heading styles give the section path, body paragraphs and
tables come in document order, a table as one paragraph of text rows ("cell | cell | cell")."""

from __future__ import annotations

import io
import re
from typing import Any

from kgbuild.ingest.readers.document import Outline, Parsed, clean_text, paragraph
from kgbuild.ingest.readers.problems import BadInput
from kgbuild.model import Paragraph

_HEADING = re.compile(r"^heading\s*([1-9])$", re.IGNORECASE)


def _heading_level(style_name: str) -> int | None:
    match = _HEADING.match(style_name.strip())
    return int(match.group(1)) if match else None


def _table_rows(table: Any) -> str:
    rows = []
    for row in table.rows:
        cells: list[str] = []
        last = None
        for cell in row.cells:
            if cell._tc is last:  # a merged cell is listed once per grid column it spans
                continue
            last = cell._tc
            cells.append(clean_text(cell.text))
        if any(cells):
            rows.append(" | ".join(cells))
    return "\n".join(rows)


def parse_docx(data: bytes) -> Parsed:
    import docx  # python-docx (and lxml) load only when a Word file is read
    from docx.table import Table

    # A damaged file fails in the zip layer, the package layer or the XML parser, with their own
    # exception types; to the user they all mean the same: this is not a readable .docx.
    try:
        document = docx.Document(io.BytesIO(data))
        blocks = list(document.iter_inner_content())
        meta_title = document.core_properties.title
    except Exception as err:  # noqa: BLE001 - see above
        raise BadInput(f"cannot open Word document ({type(err).__name__}: {err}); check it is a complete .docx "
                       "(an old .doc: save it as .docx)") from None
    outline = Outline()
    paragraphs: list[Paragraph] = []
    title: str | None = clean_text(meta_title) if meta_title else None
    for block in blocks:
        if isinstance(block, Table):
            para = paragraph(outline.path, _table_rows(block), "\n")
        else:
            style = block.style.name if block.style is not None else ""
            level = _heading_level(style or "")
            if style == "Title":
                title = title or clean_text(block.text) or None
                continue
            if level is not None:
                outline.enter(level, block.text)
                continue
            para = paragraph(outline.path, block.text)
        if para:
            paragraphs.append(para)
    return Parsed(title=title or outline.title(), paragraphs=paragraphs)
