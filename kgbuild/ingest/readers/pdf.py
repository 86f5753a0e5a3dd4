"""PDF via pypdf: text per page, re-flowed into paragraphs."""

from __future__ import annotations

import io
import re

from kgbuild.ingest.readers.document import Parsed, clean_text, split_paragraphs
from kgbuild.ingest.readers.problems import BadInput
from kgbuild.model import Paragraph

_SENTENCE_END = re.compile(r"[.!?…][\"'”’)\]]*$")
_HYPHEN_BREAK = re.compile(r"[A-Za-z]-$")
_PAGE_NUMBER = re.compile(r"^(?:page\s+)?\d{1,4}(?:\s*(?:/|of)\s*\d{1,4})?$", re.IGNORECASE)


def _join_lines(lines: list[str]) -> str:
    """Re-flow wrapped lines, undoing hyphenation at line ends ('compu-' + 'ter')."""
    out = ""
    for line in lines:
        if not out:
            out = line
        elif _HYPHEN_BREAK.search(out) and line[:1].islower():
            out = out[:-1] + line
        else:
            out = f"{out} {line}"
    return out


def _page_paragraphs(text: str) -> list[str]:
    blocks: list[list[str]] = []
    for block in split_paragraphs(text):
        lines = [line for line in (clean_text(raw) for raw in block.split("\n")) if line]
        if lines:
            blocks.append(lines)
    # Running page numbers would otherwise glue onto the first or last paragraph.
    for index, pos in ((0, 0), (-1, -1)):
        if blocks and _PAGE_NUMBER.match(blocks[index][pos]):
            del blocks[index][pos]
            blocks = [block for block in blocks if block]
    if len(blocks) > 1:
        return [_join_lines(b) for b in blocks]
    # No blank lines (pypdf's usual output): a line ending a sentence ends a paragraph.
    paras: list[str] = []
    current: list[str] = []
    for line in blocks[0] if blocks else []:
        current.append(line)
        if _SENTENCE_END.search(line):
            paras.append(_join_lines(current))
            current = []
    if current:
        paras.append(_join_lines(current))
    return paras


def parse_pdf(data: bytes) -> Parsed:
    from pypdf import PdfReader  # imported when a PDF is read: a build without one skips its import time

    # pypdf raises many exception types (its own, ValueError, KeyError, struct errors...) on
    # damaged files; any of them means the same thing to the user: this PDF cannot be read.
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not reader.decrypt(""):
            raise BadInput("encrypted PDF; remove the password and try again")
        pages = list(reader.pages)
    except BadInput:
        raise
    except Exception as err:  # noqa: BLE001 - see above
        raise BadInput(f"cannot open PDF ({type(err).__name__}: {err}); check it is a complete PDF") from None

    texts: list[str] = []
    for page in pages:
        try:
            texts.append(page.extract_text() or "")
        except Exception:  # noqa: BLE001 - one bad page should not lose the others
            texts.append("")

    paragraphs: list[str] = []
    for text in texts:
        page_paras = _page_paragraphs(text)
        # A paragraph cut by a page break continues in lower case on the next page.
        if page_paras and paragraphs and not _SENTENCE_END.search(paragraphs[-1]) and page_paras[0][:1].islower():
            paragraphs[-1] = _join_lines([paragraphs[-1], page_paras.pop(0)])
        paragraphs.extend(page_paras)
    if not paragraphs:
        raise BadInput("no extractable text (scanned PDF?); run OCR on it or remove it from the input")

    title: str | None = None
    try:
        meta_title = reader.metadata.title if reader.metadata else None
        title = clean_text(str(meta_title)) if meta_title else None
    except Exception:  # noqa: BLE001 - a broken info dictionary only costs the title
        title = None
    return Parsed(
        title=title,
        paragraphs=[Paragraph(section=[], text=p) for p in paragraphs if p],
        metadata={"pages": str(len(pages))},
    )
