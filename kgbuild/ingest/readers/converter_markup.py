"""Markup that PDF-to-Markdown converters leave in their output and that is not content.

Converters (MinerU, marker, docling, nougat, commercial OCR services) write Markdown with HTML-like
pieces in it: page markers (`<PAGE_DIV>`, `<span id="page-3-0"></span>`, `{12}-----`, `[MISSING_PAGE...]`),
image placeholders (`![](images/p3_1.jpg)`, `<img src=...>`, `![image](...)`), tables as HTML
(`<table><tr><td>...`) and inline HTML (`<sup>`, `<br>`). Left in, they reach chunks, the BM25 index
and extractive answers as words (`PAGE_DIV` was given as an answer). `strip_converter_markup` drops the
tags and placeholders, keeps the text between tags (a table cell's figures are content), and counts what
it dropped so the build report can say so. Code blocks are left exactly as written: HTML in a fenced
block is what the manual is about.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

# Tags whose name says they mark layout, never content: page markers by name, and any name written
# in capitals with an underscore or digit (PAGE_DIV, PAGE_BREAK, IMG_1): HTML has no such element.
_MARKER_NAME = re.compile(r"page|^[A-Z][A-Z0-9]*_[A-Z0-9_]*$", re.IGNORECASE)
# HTML elements converters write inside Markdown: the tag goes, its text stays.
_HTML_NAMES = frozenset((
    "a abbr b big blockquote body br caption center cite code col colgroup dd del div dl dt em figcaption "
    "figure font footer h1 h2 h3 h4 h5 h6 head header hr html i img ins kbd li mark math ol p pre s section "
    "small span strike strong sub sup table tbody td tfoot th thead tr tt u ul page"
).split())
# Elements whose content goes with them.
_DROP_WITH_CONTENT = re.compile(r"<(script|style|head)\b[^>]*>.*?</\1\s*>", re.IGNORECASE | re.DOTALL)
_TAG = re.compile(r"</?([A-Za-z][A-Za-z0-9_:-]*)(?:\s+[^<>]*?)?\s*/?>")
_CELL_END = re.compile(r"</t[dh]\s*>", re.IGNORECASE)
_ROW_END = re.compile(r"</tr\s*>|<br\s*/?>", re.IGNORECASE)
_BREAK = re.compile(r"<br\s*/?>", re.IGNORECASE)
_HTML_TABLE = re.compile(r"<table\b[^>]*>.*?</table\s*>", re.IGNORECASE | re.DOTALL)
_MD_ROW = re.compile(r"^\s*\|")
# a tag taken out marks its line with this character, so that only the lines that held tags are tidied (a
# Markdown table elsewhere in the text keeps the bars that make it a table)
_MARK = "\x01"
# Markdown images whose alt text is empty or a placeholder (a file name, 'image', '图片', 'Figure 3').
_IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")
_PLACEHOLDER_ALT = re.compile(
    r"^\s*(?:|image|img|picture|pic|photo|figure|fig|graph|chart|图片?|图像|插图|照片|表格?|"
    r"[\w.-]+\.(?:png|jpe?g|gif|bmp|tiff?|webp|svg))\s*[\d_.-]*\s*$", re.IGNORECASE)
# Whole lines that only mark a page: marker's `{12}------`, nougat's `[MISSING_PAGE_EMPTY:3]`,
# '- 12 -', '第 3 页 共 120 页', 'Page 3 of 120'.
_PAGE_LINE = re.compile(
    r"^\s*(?:\{\d+\}-{3,}|\[MISSING_PAGE[^\]]*\]|-\s*\d{1,4}\s*-|第\s*\d{1,4}\s*页(?:\s*[/，,]?\s*共\s*\d{1,4}\s*页)?"
    r"|page\s+\d{1,4}(?:\s+of\s+\d{1,4})?)\s*$", re.IGNORECASE)
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


# a line that only marks a page: page-marker tags (<PAGE_DIV>, <span id="page-3-0"></span>) and nothing else
_MARKER_LINE = re.compile(r"^\s*(?:<[^<>]*>\s*)+$")
# where a sentence of Chinese prose may end: a paragraph cut off before one of these went on past the page
_SENTENCE_END = re.compile(r"[。！？!?；;：:…”」》）)]\s*$")
# (a Chinese character at both ends of the cut: 2023 / <PAGE_DIV> / 2024 results… in English prose is no cut word)
_CJK_END = re.compile(r"[\u4e00-\u9fff，、]$")
_CJK_START = re.compile(r"^\s*[\u4e00-\u9fff]")
# what opens a new block after a page, never the rest of a cut sentence: a year (2025年公司将…), a unit line over a
# table (单位：元), a caption (表1：…, 注：)
_NEW_BLOCK = re.compile(r"^\s*(?:\d{4}年|单位[：:]|表\s*\d|图\s*\d|注[：:])")
_HEADING_START = re.compile(r"^\s*(?:第[一二三四五六七八九十\d]{1,3}[节章]|[一二三四五六七八九十]{1,3}、|"
                            r"[（(][一二三四五六七八九十\d]{1,3}[）)]|\d{1,2}[.、．])")


def _is_page_mark(line: str) -> bool:
    if _PAGE_LINE.match(line):
        return True
    if not _MARKER_LINE.match(line):
        return False
    return all(_MARKER_NAME.search(m.group(1)) or "page" in m.group(0).lower() for m in _TAG.finditer(line))


def _repeated_lines(lines: list[str]) -> set[str]:
    """Lines written more than once in the document (a running header or footer: 某某股份有限公司2024年年度报告全文)."""
    seen: dict[str, int] = {}
    for line in lines:
        body = line.strip()
        if len(body) >= 6 and not body.startswith("|"):
            seen[body] = seen.get(body, 0) + 1
    return {body for body, n in seen.items() if n > 1}


def _join_page_breaks(text: str) -> tuple[str, int]:
    """A paragraph of Chinese prose that a page break cut mid-sentence (…公司与浙江大 / <PAGE_DIV> / - 3 - / 学签署…)
    is one paragraph again: its first part is a long line ending without a sentence's end, the page's marks (a marker
    tag, a page number) and blank lines stand between, and the next line goes on in Chinese (no heading, table or
    list, a year, a unit line or a caption). A running header or footer between (a line the document repeats) is a
    page's mark too. Prose in other scripts is left as it is. Returns the text and how many marks the joins took
    out."""
    lines = text.split("\n")
    running = _repeated_lines(lines)
    out: list[str] = []
    taken = 0
    i = 0
    while i < len(lines):
        line = lines[i]
        out.append(line)
        i += 1
        body = line.strip()
        if len(body) < 20 or not _CJK_END.search(body) or _SENTENCE_END.search(body) or body[0] in "|#<!>-*" \
                or _HEADING_START.match(body) or body in running:
            continue  # (a heading, or a running header itself, is no sentence cut by the page)
        j, marks = i, 0
        while j < len(lines) and (not lines[j].strip() or _is_page_mark(lines[j]) or lines[j].strip() in running):
            marks += bool(lines[j].strip())
            j += 1
        if marks and j < len(lines) and _CJK_START.match(lines[j]) and not _HEADING_START.match(lines[j]) \
                and not _NEW_BLOCK.match(lines[j]) and lines[j].strip() not in running:
            out[-1] = line.rstrip() + lines[j].strip()
            taken += marks
            i = j + 1
    return "\n".join(out), taken


def _clean_prose(text: str) -> tuple[str, int]:
    text, dropped = _join_page_breaks(text)

    def drop_image(m: re.Match[str]) -> str:
        nonlocal dropped
        if _PLACEHOLDER_ALT.match(m.group(1)):
            dropped += 1
            return ""
        return m.group(0)  # a real description: the Markdown reader keeps it as text

    def drop_tag(m: re.Match[str]) -> str:
        nonlocal dropped
        name = m.group(1)
        if name.casefold() in _HTML_NAMES or _MARKER_NAME.search(name):
            dropped += 1
            return _MARK
        return m.group(0)  # '<Foo>' in prose that names no HTML element nor marker: text

    def table(m: re.Match[str]) -> str:
        nonlocal dropped
        block = m.group(0)
        dropped += len(_TAG.findall(block)) - len(_CELL_END.findall(block)) - len(_ROW_END.findall(block))
        captions, rows = html_table_parts(block)
        table = "\n".join("| " + " | ".join(row) + " |" for row in rows)
        return "\n\n" + "\n\n".join([*captions, table] if rows else captions) + "\n\n" if rows or captions else _MARK

    text, n = _DROP_WITH_CONTENT.subn(" ", text)
    dropped += n
    text = _IMAGE.sub(drop_image, text)
    text = _HTML_TABLE.sub(table, text)
    # a line break inside a Markdown table's cell is no new row
    text = "\n".join(_BREAK.sub(_MARK, line) if _MD_ROW.match(line) else line for line in text.split("\n"))
    text = _CELL_END.sub(_MARK + " | ", text)  # a table's cells stay apart once their tags are gone
    text = _ROW_END.sub(_MARK + "\n" + _MARK, text)
    text = _TAG.sub(drop_tag, text)
    lines = text.split("\n")
    kept = [line for line in lines if not _PAGE_LINE.match(line.replace(_MARK, ""))]
    # tags became spaces and cell bars: tidy those lines (the others keep their indent and their bars)
    kept = [_tidy(line.replace(_MARK, " ")) if _MARK in line else line for line in kept]
    dropped += len(lines) - len(kept)
    return "\n".join(kept), dropped


def _tidy(line: str) -> str:
    """A line whose tags were taken out: one space between words, no bar at either end (a Markdown table
    row keeps its bars); a line left with only spaces and bars was markup, and becomes blank."""
    line = re.sub(r"[ \t]{2,}", " ", line)
    bare = line.strip(" |\t")
    return line.strip() if bare and _MD_ROW.match(line) else bare


class _TableCells(HTMLParser):
    """The rows of one HTML table: each cell's text with its rowspan and colspan; and the text outside every cell
    (a <caption>, stray words), which is kept as caption lines."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.rows: list[list[tuple[str, int, int]]] = []
        self.outside: list[str] = []
        self._cell: list[str] | None = None
        self._spans = (1, 1)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "tr":
            self._end_cell()
            self.rows.append([])
        elif tag in ("td", "th"):
            self._end_cell()
            if not self.rows:
                self.rows.append([])
            found = dict(attrs)
            self._spans = (_span(found.get("rowspan")), _span(found.get("colspan")))
            self._cell = []
        elif tag == "br" and self._cell is not None:
            self._cell.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th", "tr", "table"):
            self._end_cell()

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)
        elif data.strip():
            self.outside.append(re.sub(r"\s+", " ", data).strip())

    def _end_cell(self) -> None:
        if self._cell is not None:
            text = re.sub(r"\s+", " ", "".join(self._cell)).strip().replace("|", "｜")
            self.rows[-1].append((text, *self._spans))
            self._cell = None


def _span(value: str | None) -> int:
    digits = re.match(r"\s*(\d{1,3})", value or "")
    return max(1, min(50, int(digits.group(1)))) if digits else 1


def html_table_parts(block: str) -> tuple[list[str], list[list[str]]]:
    """An HTML table as its caption lines and its rows of cell texts on a grid: a cell spanning rows or columns is
    written in each place it covers (项目 over both header rows, 不适用 across two period columns), and a header
    whose cells span the columns of the row under it (本报告期 over 金额 | 比上年同期增减(%)) is one header row with
    both names (本报告期金额 | 本报告期比上年同期增减(%)), as a Markdown table's single header row would be. A
    first row of one cell across the whole table (单位：元 币种：人民币, a table's title) is a line above it."""
    parser = _TableCells()
    parser.feed(block)
    parser.close()
    grid: list[list[str]] = []
    spanned: list[bool] = []  # whether a row holds a cell spanning several columns
    carried: dict[tuple[int, int], str] = {}  # (row, column) a rowspan above fills
    for r, cells in enumerate(parser.rows):
        row: list[str] = []
        wide = False

        def fill(at: int, row: list[str] = row, r: int = r) -> None:
            while (r, at) in carried:
                row.append(carried.pop((r, at)))
                at += 1

        fill(0)
        for text, rowspan, colspan in cells:
            start = len(row)
            for c in range(start, start + colspan):
                row.append(text)
                for below in range(1, rowspan):
                    carried[(r + below, c)] = text
            wide = wide or colspan > 1
            fill(len(row))
        grid.append(row)
        spanned.append(wide)
    kept = [(row, wide) for row, wide in zip(grid, spanned, strict=True) if any(row)]
    width = max((len(row) for row, _ in kept), default=0)
    kept = [(row + [""] * (width - len(row)), wide) for row, wide in kept]
    captions: list[str] = list(parser.outside)
    while len(kept) > 1 and width > 1 and len(set(kept[0][0])) == 1:
        captions.append(kept.pop(0)[0][0])
    grid = [row for row, _ in kept]
    # (项目 written over both rows says the second row is a header too; 姓名 | 任职情况 over a first row of data,
    # 岑柏舟 | 董事长 | 现任, has no cell over both rows)
    if len(grid) > 2 and kept[0][1] and not any(_NUMBER_CELL.match(c) for c in grid[1]) \
            and any(up and up == low for up, low in zip(grid[0], grid[1], strict=True)):
        # two header rows: the upper names the period a run of columns shares, the lower each column
        grid[:2] = [[up if up == low or not low else low if not up or low.startswith(up) else up + low
                     for up, low in zip(grid[0], grid[1], strict=True)]]
    return captions, grid


_NUMBER_CELL = re.compile(r"^-?\d[\d,]*(?:\.\d+)?%?$")


_CODE_SPAN = re.compile(r"(`+)[^`\n]+?\1")


def _clean_outside_code_spans(text: str) -> tuple[str, int]:
    """`_clean_prose` on the text between inline code spans (`<div>` in backticks is what a manual shows)."""
    keep: list[str] = []

    def hold(m: re.Match[str]) -> str:  # swapped for a placeholder no rule touches, put back after
        keep.append(m.group(0))
        return f"\x00{len(keep) - 1}\x00"

    marked = _CODE_SPAN.sub(hold, text)
    if not keep:
        return _clean_prose(text)
    cleaned, dropped = _clean_prose(marked)
    return re.sub(r"\x00(\d+)\x00", lambda m: keep[int(m.group(1))], cleaned), dropped


def strip_converter_markup(text: str) -> tuple[str, int]:
    """`text` without converter tags, image placeholders and page-marker lines (fenced code untouched),
    and how many were dropped."""
    out: list[str] = []
    prose: list[str] = []
    dropped = 0
    fence: str | None = None

    def flush() -> None:
        nonlocal dropped
        if prose:
            cleaned, n = _clean_outside_code_spans("\n".join(prose))
            out.append(cleaned)
            dropped += n
            prose.clear()

    for line in text.split("\n"):
        m = _FENCE.match(line)
        if fence is None and m:
            flush()
            fence = m.group(1)
            out.append(line)
        elif fence is not None:
            out.append(line)
            if line.strip().startswith(fence) and not line.strip().strip(fence[0]):
                fence = None
        else:
            prose.append(line)
    flush()
    return "\n".join(out), dropped
