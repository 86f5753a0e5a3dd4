"""The per-document size cap: how much text one document may hold once decompressed and read.

A Word file is a zip: 86 KB on disk held 50 MB of text (34,150 chunks to extract) and a 237 KB file
inflated to 200 MB peaked at 595 MB while python-docx built its tree. The cap is counted in
characters of text, the unit every later stage pays for; a Word file's text is counted by a
streaming pass over its XML before any tree is built, so a bomb is refused at a few MB of memory.
"""

from __future__ import annotations

import io
import zipfile
from xml.etree.ElementTree import ParseError, iterparse

from kgbuild.ingest.readers.problems import BadInput

# About 2,500 pages of prose: far above any real document, far below what would exhaust memory.
# The default of read.max_document_chars (config.py cannot import the readers; a test ties the two).
DEFAULT_MAX_DOCUMENT_CHARS = 10_000_000
# UTF-8 needs at most 4 bytes a character: a plain file larger than this is over the cap unread.
MAX_UTF8_BYTES_PER_CHAR = 4

_W_TEXT = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}t"


def too_large(chars: int | str, limit: int) -> BadInput:
    shown = f"{chars:,}" if isinstance(chars, int) else chars
    return BadInput(f"document holds {shown} characters of text, over the cap of {limit:,} "
                    "(read.max_document_chars); split it, or raise the setting if it is genuine (skipped)")


def check_text_bytes(data: bytes, limit: int) -> None:
    """Refuse a plain file whose size alone proves it is over the cap (before decoding it)."""
    if len(data) > limit * MAX_UTF8_BYTES_PER_CHAR:
        raise too_large(f"more than {len(data) // MAX_UTF8_BYTES_PER_CHAR:,}", limit)


def check_docx_text(data: bytes, limit: int) -> None:
    """Count the text of a .docx's main part while streaming its XML; refuse it past `limit`. A file
    that is not a readable .docx passes: python-docx then names what is wrong with it."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as package, package.open("word/document.xml") as xml:
            count = 0
            for _, element in iterparse(xml, events=("end",)):
                if element.tag == _W_TEXT and element.text:
                    count += len(element.text)
                    if count > limit:
                        raise too_large(f"more than {limit:,}", limit)
                element.clear()  # keep memory flat: only the count is needed
    except (zipfile.BadZipFile, KeyError, ParseError, OSError, EOFError, RuntimeError, ValueError):
        return
