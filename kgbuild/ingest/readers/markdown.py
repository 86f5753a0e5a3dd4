"""Markdown: heading paths from ATX and setext headings, one paragraph per block.

A line scanner rather than a full CommonMark parser: the builder needs the heading path
and clean prose, and a scanner is fast and never fails on odd input.

Code stays code: a fenced or indented code block becomes a paragraph of its own, written as a
fenced block with its indentation, and inline code keeps its backticks, so the extractor can
tell code from English (`kgbuild.extract.code_text`). Navigation is left out: tables of
contents, back-of-book indexes, running page headers and footers (`book_furniture`); the
document's metadata says how many lines went (`skipped`). A line that is wholly bold and
short (`**Running Slide Shows**`) is a heading, as converters of books write them.
"""

from __future__ import annotations

import re
import textwrap
from typing import Literal

import yaml

from kgbuild.ingest.readers import book_furniture as furniture
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
_CODE_SPAN = re.compile(r"(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.DOTALL)
_PLACEHOLDER = re.compile(r"\x00(\d+)\x00")
_INDENTED = re.compile(r"^(?: {4}|\t)")
# A line that is wholly bold and short, without a sentence's end: a converted book's heading.
_BOLD_HEADING = re.compile(r"^ {0,3}(\*\*|__)(?=\S)([^*_]{1,100}?)(?<=\S)\1\s*$")
_BOLD_HEADING_LEVEL = 6  # below every ATX heading, a sibling of the previous bold one
# A Chinese report's section headings when a PDF converter wrote them as plain lines, without `#`:
# 第三节 管理层讨论与分析 (a chapter), 一、主要财务数据 (a section), （二）非经常性损益项目和金额 (a subsection);
# their level as a report nests them.
# Only a short line of words: 一、2025年7月，公司以… is a numbered item of prose, not a heading.
_ZH_HEADINGS = (
    (re.compile(r"^\s*第[一二三四五六七八九十\d]{1,3}[节章]\s*[\u4e00-\u9fff][\u4e00-\u9fff、 ]{1,20}\s*$"), 2),
    (re.compile(r"^\s*[一二三四五六七八九十]{1,3}、\s*[\u4e00-\u9fff][\u4e00-\u9fff、 ]{1,20}\s*$"), 3),
    (re.compile(r"^\s*[（(][一二三四五六七八九十]{1,3}[）)]\s*[\u4e00-\u9fff][\u4e00-\u9fff、 ]{1,20}\s*$"), 4),
)


_SENTENCE_DONE = re.compile(r"[。！？!?]\s*$")
# A Chinese report's unit line over a table (单位：元 币种：人民币, …审计类型：未经审计), last in the
# paragraph before the table (a converter often writes it with no blank line after the lines above it). It belongs to
# the table: a long table is a chunk of its own, and its amounts would lose their unit (元) if the line stayed behind.
_UNIT_LINE = re.compile(r"(?:^|(?<=\s))单位[：:]\s*[^\s。；;，,|：:]{1,6}"
                        r"(?:[ \t\u3000]+[\u4e00-\u9fff]{2,4}[：:]\s*[^\s。；;，,|：:]{1,8}){0,3}\s*$")


# A table of officers' careers that a converter left without its bars, one person a line (姓名　主要工作经历 over
# 龙岱钧　1968年出生，毕业于…): the name, a wide space, then the career. Written as a report writes it in prose
# (龙岱钧，1968年出生，…), so the career is the person's, not the person's named last before.
_BIO_LINE = re.compile(r"^(\s*[\u4e00-\u9fff]{2,4}(?:·[\u4e00-\u9fff]{1,8})?)"
                       r"(?:[ \t]{2,}|[ \t]*\u3000[ \t\u3000]*)"
                       r"(?=(?:男|女)?[，,]?\s*\d{4}年(?:\d{1,2}月)?(?:出生|生)[，,])")


def _zh_heading_level(line: str) -> int | None:
    return next((level for pattern, level in _ZH_HEADINGS if pattern.match(line)), None)

# Inline markup that would otherwise reach the extractor as noise.
_INLINE = [
    (re.compile(r"!\[([^\]]*)\]\([^)]*\)"), r"\1"),  # image -> alt text
    (re.compile(r"\[([^\]]+)\]\([^)]*\)"), r"\1"),  # link -> link text
    (re.compile(r"\[([^\]]+)\]\[[^\]]*\]"), r"\1"),  # reference link
    (re.compile(r"<(https?://[^>\s]+)>"), r"\1"),  # autolink
    (re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1"), r"\2"),  # strong
    (re.compile(r"(?<![\w*])\*(?=\S)(.+?)(?<=\S)\*(?![\w*])"), r"\1"),  # emphasis
    (re.compile(r"(?<!\w)_(?=\S)(.+?)(?<=\S)_(?!\w)"), r"\1"),
]
# A backslash escape ("\*not\*", "total\_heap\_size"): the character itself, never markup. Set aside (as a
# private-use character) before the patterns above run, so an escaped `*` or `_` neither opens nor closes emphasis.
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!>|])")
_ESCAPED = re.compile("[\ue000-\ue07f]")

BlockKind = Literal["para", "list", "quote", "table"]


def strip_inline(text: str) -> str:
    """Text without emphasis and link markup; code spans are kept, backticks included, and nothing
    inside them is touched (`__init__` is not bold, `a_b_c` not emphasis). Code is set aside first,
    so a link whose text is code (`[`net.connect()`][]`) becomes that code."""
    spans: list[str] = []

    def keep(m: re.Match[str]) -> str:
        spans.append(" ".join(m.group(2).split()))
        return f"\x00{len(spans) - 1}\x00"

    text = _CODE_SPAN.sub(keep, text.replace("\x00", ""))
    text = _ESCAPE.sub(lambda m: chr(0xE000 + ord(m.group(1))), _ESCAPED.sub("", text))
    for pattern, repl in _INLINE:
        text = pattern.sub(repl, text)
    text = _ESCAPED.sub(lambda m: chr(ord(m.group()) - 0xE000), text)
    return _PLACEHOLDER.sub(lambda m: f"`{spans[int(m.group(1))]}`", text) if spans else text


def heading_text(text: str) -> str:
    """A heading as the section path shows it: markup and backticks removed."""
    return _CODE_SPAN.sub(lambda m: m.group(2), strip_inline(text)).replace("`", "")


def code_block(lines: list[str], info: str = "") -> str:
    """A code block as a paragraph's text: fenced, its indentation kept, outer blank lines dropped."""
    body = textwrap.dedent("\n".join(line.rstrip() for line in lines).expandtabs(4)).strip("\n")
    return f"```{info.strip()}\n{body}\n```" if body.strip() else ""


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


def _prose_blocks(lines: list[str]) -> list[tuple[int, int]]:
    """(start, end) line ranges of the plain paragraphs outside code: where running headers and
    footers and bare page numbers of a converted book sit."""
    blocks: list[tuple[int, int]] = []
    start: int | None = None
    fence: str | None = None
    for i, line in enumerate([*lines, ""]):
        stripped = line.strip()
        if fence is not None:
            if stripped.startswith(fence) and not stripped.strip(fence[0]):
                fence = None
            continue
        if m := _FENCE.match(line):
            fence = m.group(1)
        if not stripped or fence is not None or _ATX.match(line) or _kind_of(line) != "para":
            if start is not None:
                blocks.append((start, i))
                start = None
            continue
        if start is None:
            start = i
    return blocks


def _furniture_lines(lines: list[str]) -> set[int]:
    """Indices of running headers/footers and bare page numbers: the first or last line of a plain
    paragraph that recurs (digits aside) or is only a page number."""
    blocks = _prose_blocks(lines)
    running = furniture.running_lines([lines[a:b] for a, b in blocks])
    skip: set[int] = set()
    pages: set[int] = set()
    for a, b in blocks:
        for i in {a, b - 1}:
            line = lines[i].strip()
            if furniture.is_page_number(line):
                pages.add(i)
            elif furniture.line_key(line) in running and not line.endswith((".", ":", ";", ",", "!", "?")):
                skip.add(i)
    return skip | pages if len(pages) >= furniture.PAGE_NUMBERS_MIN else skip


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
    last_kind: BlockKind | None = None  # kind of the block before a blank line: indented lines continue a list
    fence: str | None = None
    fence_info = ""
    indented = False
    skipped = furniture.Skipped()
    navigation: int | None = None  # level of an open "Contents"/"Index" section, whose blocks are left out
    furniture_lines = _furniture_lines(lines)

    def add(text: str, sep: str) -> None:
        para = paragraph(outline.path, text, sep)
        if para:
            paragraphs.append(para)

    def add_code(lines: list[str], info: str) -> None:
        code = code_block(lines, info)
        if code and navigation is None:
            paragraphs.append(Paragraph(section=list(outline.path), text=code))

    def flush() -> None:
        nonlocal last_kind
        if buf:
            if navigation is not None:
                skipped.add("table of contents" if navigation > 0 else "index", len(buf))
            elif (nav := furniture.block_kind(buf)) is not None:
                skipped.add(nav, len(buf))
            else:
                text, sep = _block_text(kind, buf)
                if kind == "table" and paragraphs and paragraphs[-1].section == outline.path and (
                        unit := _UNIT_LINE.search(paragraphs[-1].text)) is not None:
                    # 单位：元 币种：人民币 goes with the table it stands over
                    head = paragraphs[-1].text[:unit.start()].strip()
                    if head:
                        paragraphs[-1] = Paragraph(section=paragraphs[-1].section, text=head)
                    else:
                        paragraphs.pop()
                    text = unit.group(0).strip() + "\n" + text
                add(text, sep)
            last_kind = kind
            buf.clear()

    def heading(level: int, title: str) -> None:
        nonlocal navigation
        if navigation is not None and abs(navigation) >= level:
            navigation = None
        if furniture.is_navigation_heading(title):
            # Positive level: a table of contents; negative: an index (only the sign is read apart).
            navigation = -level if "index" in title.lower() else level
            return
        outline.enter(level, heading_text(title))

    for number, line in enumerate(lines[start:], start):
        if fence is None and not indented and (bio := _BIO_LINE.match(line)) is not None:
            line = bio.group(1) + "，" + line[bio.end():]
        if fence is not None:
            # Code is kept verbatim: no inline markup stripping, indentation kept.
            if line.strip().startswith(fence) and not line.strip().strip(fence[0]):
                add_code(buf, fence_info)
                buf.clear()
                fence = None
            else:
                buf.append(line)
            continue
        if indented:
            if not line.strip() or _INDENTED.match(line):
                buf.append(line)
                continue
            add_code(buf, "")
            buf.clear()
            indented = False
        if number in furniture_lines:
            skipped.add("page header/footer")
            continue
        if not line.strip():
            flush()
            continue
        if m := _FENCE.match(line):
            flush()
            fence = m.group(1)
            fence_info = line.strip()[len(fence):].strip().strip(fence[0])
            continue
        if not buf and _INDENTED.match(line) and last_kind != "list":
            indented = True  # an indented code block: only after a blank line, never inside a list
            buf.append(line)
            continue
        if m := _ATX.match(line):
            flush()
            heading(len(m.group(1)), m.group(2) or "")
            continue
        if (m := _SETEXT.match(line)) and buf and kind == "para":
            # The paragraph just read was the heading text (`===` level 1, `---` level 2).
            setext = " ".join(buf)
            buf.clear()
            heading(1 if m.group(1)[0] == "=" else 2, setext)
            continue
        if not buf and (m := _BOLD_HEADING.match(line)) and not m.group(2).rstrip().endswith((".", ":", "!", "?")) and (
                len(m.group(2).split()) <= 12 and (number + 1 >= len(lines) or not lines[number + 1].strip())):
            heading(_BOLD_HEADING_LEVEL, m.group(2))
            continue
        if _THEMATIC_BREAK.match(line) or _LINK_DEFINITION.match(line):
            flush()
            continue
        # (inside a paragraph only after a sentence's end: 措施如下：/ 一、加强研发投入 / 二、… is a list of the
        # paragraph, and a hard-wrapped line that opens 第二章… goes on with the sentence)
        if (level := _zh_heading_level(line)) is not None and (not buf or (
                kind == "para" and _SENTENCE_DONE.search(buf[-1]))):
            flush()
            heading(level, line.strip())
            continue
        line_kind = _kind_of(line)
        # Lists, quotes and tables may start without a blank line before them.
        if buf and line_kind != kind and not (kind == "list" and line_kind == "para"):
            flush()
        if not buf:
            kind = line_kind
        buf.append(line)
    if fence is not None or indented:  # unclosed fence: keep what was read
        add_code(buf, fence_info if fence is not None else "")
    else:
        flush()
    title = front.pop("title", None) or outline.title()
    if skipped.counts:
        front["skipped"] = skipped.summary()
    return Parsed(title=title, paragraphs=paragraphs, metadata=front, markup_dropped=dropped + comments)
