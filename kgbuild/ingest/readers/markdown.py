"""Markdown: heading paths from ATX and setext headings, one paragraph per block.

A line scanner rather than a full CommonMark parser: the builder needs the heading path
and clean prose, and a scanner is fast and never fails on odd input.
"""

from __future__ import annotations

import re
from typing import Literal

import yaml

from kgbuild.ingest.readers.converter_markup import strip_converter_markup
from kgbuild.ingest.readers.document import Outline, Parsed, clean_text, paragraph
from kgbuild.model import Paragraph

_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_THEMATIC_BREAK = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_BULLET = re.compile(r"^\s*[-*+][ \t]+")
_ORDERED = re.compile(r"^\s*\d{1,9}[.)][ \t]+")
_QUOTE_MARKS = re.compile(r"^\s*(?:>\s?)+")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")
_LINK_DEFINITION = re.compile(r"^ {0,3}\[[^\]]+\]:\s*\S+")
_HTML_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)

# Inline markup that would otherwise reach the extractor as noise.
_INLINE = [
    (re.compile(r"!\[([^\]]*)\]\([^)]*\)"), r"\1"),  # image -> alt text
    (re.compile(r"\[([^\]]+)\]\([^)]*\)"), r"\1"),  # link -> link text
    (re.compile(r"\[([^\]]+)\]\[[^\]]*\]"), r"\1"),  # reference link
    (re.compile(r"<(https?://[^>\s]+)>"), r"\1"),  # autolink
    (re.compile(r"`([^`]+)`"), r"\1"),  # code span
    (re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1"), r"\2"),  # strong
    (re.compile(r"(?<![\w*])\*(?=\S)(.+?)(?<=\S)\*(?![\w*])"), r"\1"),  # emphasis
    (re.compile(r"(?<!\w)_(?=\S)(.+?)(?<=\S)_(?!\w)"), r"\1"),
    (re.compile(r"\\([\\`*_{}\[\]()#+\-.!>|])"), r"\1"),  # backslash escapes
]

BlockKind = Literal["para", "list", "quote", "table"]


def strip_inline(text: str) -> str:
    for pattern, repl in _INLINE:
        text = pattern.sub(repl, text)
    return text


def _front_matter(lines: list[str]) -> tuple[int, dict[str, str]]:
    """Length of a leading `---` block and its scalar fields (as strings)."""
    if not lines or lines[0].strip() != "---":
        return 0, {}
    for end in range(1, len(lines)):
        if lines[end].strip() in ("---", "..."):
            break
    else:
        return 0, {}  # no closing line: it was a thematic break, not front matter
    try:
        data = yaml.safe_load("\n".join(lines[1:end]))
    except yaml.YAMLError:
        data = None  # still skip the block: it is metadata, not prose
    fields: dict[str, str] = {}
    if isinstance(data, dict):
        for key, value in data.items():
            if isinstance(value, (str, int, float)) and not isinstance(value, bool):
                fields[str(key)] = clean_text(str(value))
    return end + 1, fields


def _kind_of(line: str) -> BlockKind:
    if _BULLET.match(line) or _ORDERED.match(line):
        return "list"
    if _QUOTE_MARKS.match(line):
        return "quote"
    if line.lstrip().startswith("|"):
        return "table"
    return "para"


def _block_text(kind: BlockKind, lines: list[str]) -> tuple[str, str]:
    """The text of a finished block and the separator its lines keep."""
    if kind == "list":
        items: list[str] = []
        for line in lines:
            if _BULLET.match(line) or _ORDERED.match(line):
                items.append(_BULLET.sub("", line, count=1).strip())
            elif items:  # continuation of a wrapped item
                items[-1] += " " + line.strip()
        return "\n".join(strip_inline(item) for item in items), "\n"
    if kind == "quote":
        return strip_inline(" ".join(_QUOTE_MARKS.sub("", line) for line in lines)), " "
    if kind == "table":
        rows = [line.strip().strip("|") for line in lines if not _TABLE_RULE.match(line)]
        return "\n".join(strip_inline(re.sub(r"\s*\|\s*", " | ", row)) for row in rows), "\n"
    return strip_inline(" ".join(lines)), " "


def parse_markdown(text: str) -> Parsed:
    text, comments = _HTML_COMMENT.subn("", text)
    # Markdown from PDF converters carries page markers, image placeholders and HTML tables.
    text, dropped = strip_converter_markup(text)
    lines = text.splitlines()
    start, front = _front_matter(lines)
    outline = Outline()
    paragraphs: list[Paragraph] = []
    buf: list[str] = []
    kind: BlockKind = "para"
    fence: str | None = None

    def add(text: str, sep: str) -> None:
        para = paragraph(outline.path, text, sep)
        if para:
            paragraphs.append(para)

    def flush() -> None:
        if buf:
            add(*_block_text(kind, buf))
            buf.clear()

    for line in lines[start:]:
        if fence is not None:
            # Code is kept verbatim apart from whitespace: no inline markup stripping.
            if line.strip().startswith(fence) and not line.strip().strip(fence[0]):
                add("\n".join(buf), "\n")
                buf.clear()
                fence = None
            else:
                buf.append(line)
            continue
        if not line.strip():
            flush()
            continue
        if m := _FENCE.match(line):
            flush()
            fence = m.group(1)
            continue
        if m := _ATX.match(line):
            flush()
            outline.enter(len(m.group(1)), strip_inline(m.group(2) or ""))
            continue
        if (m := _SETEXT.match(line)) and buf and kind == "para":
            # The paragraph just read was the heading text (`===` level 1, `---` level 2).
            outline.enter(1 if m.group(1)[0] == "=" else 2, strip_inline(" ".join(buf)))
            buf.clear()
            continue
        if _THEMATIC_BREAK.match(line) or _LINK_DEFINITION.match(line):
            flush()
            continue
        line_kind = _kind_of(line)
        # Lists, quotes and tables may start without a blank line before them.
        if buf and line_kind != kind and not (kind == "list" and line_kind == "para"):
            flush()
        if not buf:
            kind = line_kind
        buf.append(line)
    if fence is not None:  # unclosed fence: keep what was read
        add("\n".join(buf), "\n")
    else:
        flush()
    title = front.pop("title", None) or outline.title()
    return Parsed(title=title, paragraphs=paragraphs, metadata=front, markup_dropped=dropped + comments)
