"""Shared pieces of every format reader: whitespace rules, heading paths, Document assembly."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from kgbuild.ids import content_hash, escape_article_id
from kgbuild.ingest.readers.problems import BadInput
from kgbuild.model import Document, Paragraph

# A blank line, possibly holding only spaces, separates paragraphs.
_BLANK_LINE = re.compile(r"\n[^\S\n]*\n")


_WINDOW = 1 << 20  # characters collapsed at a time
_SPACE = re.compile(r"\s")  # the same characters as str.isspace(), which str.split() splits on


def collapse_spaces(text: str, window: int = _WINDOW) -> str:
    """`" ".join(text.split())`, a window at a time: one split of a 50 MB paragraph makes millions of
    word objects (about 20 bytes of memory per byte of text); windows end at a space, so no word is cut
    and the result is the same."""
    if len(text) <= window:
        return " ".join(text.split())  # str.split() knows every Unicode space and is far faster than a regex
    pieces: list[str] = []
    start, n = 0, len(text)
    while start < n:
        end = min(start + window, n)
        if end < n:
            space = _SPACE.search(text, end)
            end = space.start() if space else n
        piece = " ".join(text[start:end].split())
        if piece:
            pieces.append(piece)
        start = end
    return " ".join(pieces)


def clean_text(text: str, line_sep: str = " ") -> str:
    """Collapse runs of spaces on each line and drop blank lines.

    `line_sep=" "` re-flows soft-wrapped prose; `"\\n"` keeps line breaks where they carry
    meaning (list items, code, corpus records whose author put them there).
    """
    if line_sep == " ":
        return collapse_spaces(text)
    lines = (collapse_spaces(line) for line in text.split("\n"))
    return line_sep.join(line for line in lines if line)


def split_paragraphs(text: str) -> list[str]:
    """Split on blank lines; the parts are not cleaned yet."""
    return _BLANK_LINE.split(text.replace("\r\n", "\n"))


@dataclass
class Outline:
    """The heading path at the current point of a document being read top to bottom."""

    _stack: list[tuple[int, str]] = field(default_factory=list)
    first_top: str | None = None  # first level-1 heading: the usual document title
    first_any: str | None = None

    def enter(self, level: int, heading: str) -> None:
        heading = clean_text(heading)
        if not heading:
            return
        # A heading closes every open heading at its level or deeper.
        while self._stack and self._stack[-1][0] >= level:
            self._stack.pop()
        self._stack.append((level, heading))
        if self.first_any is None:
            self.first_any = heading
        if level == 1 and self.first_top is None:
            self.first_top = heading

    @property
    def path(self) -> list[str]:
        return [heading for _, heading in self._stack]

    def title(self) -> str | None:
        return self.first_top or self.first_any


@dataclass
class Parsed:
    """What a format reader extracted from one file, before ids and hashes are attached."""

    title: str | None
    paragraphs: list[Paragraph]
    metadata: dict[str, str] = field(default_factory=dict)
    markup_dropped: int = 0  # converter tags, image placeholders and page markers left out (converter_markup)


def paragraph(section: list[str], text: str, line_sep: str = " ") -> Paragraph | None:
    cleaned = clean_text(text, line_sep)
    return Paragraph(section=list(section), text=cleaned) if cleaned else None


def document_hash(title: str, paragraphs: list[Paragraph]) -> str:
    # JSON keeps section boundaries unambiguous, so moving a paragraph under another
    # heading changes the hash even when the concatenated text would not.
    payload = json.dumps([title, [[p.section, p.text] for p in paragraphs]], ensure_ascii=False)
    return content_hash(payload)


def make_document(
    raw_id: str,
    source: str,
    title: str,
    fmt: str,
    paragraphs: list[Paragraph],
    metadata: dict[str, str] | None = None,
    markup_dropped: int = 0,
) -> Document:
    if not paragraphs:
        raise BadInput("no text found (only headings or markup?); nothing to build")
    try:
        doc_id = escape_article_id(raw_id)
    except ValueError:
        raise BadInput(f"id {raw_id!r} is empty once control characters are removed; give it a visible id") from None
    title = clean_text(title) or doc_id
    return Document(
        id=doc_id,
        source=source,
        title=title,
        format=fmt,
        paragraphs=paragraphs,
        content_hash=document_hash(title, paragraphs),
        metadata=dict(metadata or {}),
        markup_dropped=markup_dropped,
    )
