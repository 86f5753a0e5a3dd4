"""Lines of a book or manual that are navigation, not prose: tables of contents, back-of-book
indexes, running page headers and footers, bare page numbers.

Converted books (PDF or EPUB to Markdown) keep them as text, and read as prose they make
nonsense facts ("Chapter 7: Using Array Variables Chapter 8" finding "Properties You Need").
The reader leaves them out of the document and counts what it left out.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

# "1.2 Getting Started ........ 15", "Chapter 7: Using Arrays  123", "Appendix B  401": a title that
# ends in a page number after dot leaders or a gap (or just a space when it opens with a number).
_TOC_LINE = re.compile(
    r"^\s*(?:[-*+]\s+)?(?:(?:chapter|part|appendix|section|lesson)\s+[\w.]+\b.*?|\d+(?:\.\d+)*\.?\s+\S.*?|\S.*?)"
    r"(?:\s*\.{2,}\s*|\s{2,}|\s+[■•·|]\s*|(?<=[a-z)])\s+)(?:\d{1,4}|[ivxlc]{1,6})\s*$",
    re.IGNORECASE,
)
_NUMBERED_TITLE = re.compile(r"^\s*(?:[-*+]\s+)?(?:(?:chapter|part|appendix)\s+\w+|\d+(?:\.\d+)+)\b", re.IGNORECASE)
# A list item that is only a link (a README's table of contents): "- [Install](#install)".
_LINK_ITEM = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+\[[^\]]+\]\([^)]*\)\s*$")
# "socket buffer, 112, 140–145", "TCP (Transmission Control Protocol), 3": an index entry.
_INDEX_LINE = re.compile(
    r"^\s*(?:[-*+]\s+)?[^\d,][^,]{0,80}(?:,\s*(?:see\s+(?:also\s+)?\S.*|\d{1,4}(?:\s*[-–]\s*\d{1,4})?))+\s*$",
    re.IGNORECASE)
# A bare page number: "123", "- 12 -", "Page 7", "xiv".
_PAGE_NUMBER = re.compile(r"^\s*[-–—]?\s*(?:page\s+)?(?:\d{1,4}|[ivxlc]{2,6})\s*[-–—]?\s*$", re.IGNORECASE)
# Page numbers come in series: fewer than this many in a document are text ("42" as an answer).
PAGE_NUMBERS_MIN = 3
_NAV_HEADINGS = re.compile(
    r"^\s*(?:(?:brief\s+|detailed\s+)?(?:table\s+of\s+)?contents(?:\s+at\s+a\s+glance)?|index|toc)\s*$", re.IGNORECASE)
_DIGITS = re.compile(r"\d+")

# How often a short line must recur as a block of its own to be a running header or footer.
_RUNNING_REPEATS = 4
_RUNNING_MAX_CHARS = 80
# Share of a block's lines that must look like contents or index lines for the block to be one.
_BLOCK_SHARE = 0.7
_BLOCK_MIN_LINES = 3


@dataclass
class Skipped:
    """What a reader left out of a document as navigation, by kind (lines)."""

    counts: Counter[str] = field(default_factory=Counter)

    def add(self, kind: str, lines: int = 1) -> None:
        self.counts[kind] += lines

    def summary(self) -> str:
        """One line for the document's metadata: 'table of contents 12 lines; page header/footer 40 lines'."""
        return "; ".join(f"{kind} {n} lines" for kind, n in sorted(self.counts.items()) if n)


def is_navigation_heading(heading: str) -> bool:
    """A heading whose section is navigation ("Contents", "Table of Contents", "Index")."""
    return bool(_NAV_HEADINGS.match(heading.strip("*_# ")))


def block_kind(lines: Sequence[str]) -> str | None:
    """'table of contents' or 'index' when most lines of a block look like one, else None."""
    lines = [line for line in lines if line.strip()]
    if len(lines) < _BLOCK_MIN_LINES:
        return None
    need = _BLOCK_SHARE * len(lines)
    if sum(bool(_LINK_ITEM.match(line)) for line in lines) >= need:
        return "table of contents"
    if sum(bool(_TOC_LINE.match(line) or _NUMBERED_TITLE.match(line)) for line in lines) >= need and sum(
            bool(_TOC_LINE.match(line)) for line in lines) >= len(lines) / 2:
        return "table of contents"
    if sum(bool(_INDEX_LINE.match(line)) for line in lines) >= need:
        return "index"
    return None


def running_lines(blocks: Sequence[Sequence[str]]) -> set[str]:
    """Keys (`line_key`) of the short lines that recur as one-line blocks or as a block's first or last
    line, often enough to be a running header or footer; digits are ignored, so "Chapter 7 Sockets 123"
    and "Chapter 7 Sockets 125" are the same line."""
    counts: Counter[str] = Counter()
    for block in blocks:
        edges = {block[0], block[-1]} if block else set()
        for line in edges:
            key = line_key(line)
            if key and len(line.strip()) <= _RUNNING_MAX_CHARS:
                counts[key] += 1
    return {key for key, n in counts.items() if n >= _RUNNING_REPEATS}


def line_key(line: str) -> str:
    return _DIGITS.sub("#", " ".join(line.split()).lower())


def is_page_number(line: str) -> bool:
    return bool(_PAGE_NUMBER.match(line))
