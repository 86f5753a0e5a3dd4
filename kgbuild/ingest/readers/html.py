"""HTML via the standard library parser: headings give the section path, blocks give paragraphs."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from kgbuild.ingest.readers.document import Outline, Parsed, clean_text, paragraph
from kgbuild.ingest.readers.markdown import code_block
from kgbuild.ingest.readers.problems import BadInput
from kgbuild.model import Paragraph

# Page furniture, not content: menus and banners would repeat on every page of a site.
_SKIP = frozenset({"script", "style", "nav", "header", "footer", "noscript", "template", "svg", "iframe"})
_HEADINGS = {f"h{n}": n for n in range(1, 7)}
# Any of these starting or ending closes the text gathered so far, so text sitting directly
# inside a <div> still becomes a paragraph instead of running into its neighbours.
_BLOCKS = frozenset(
    {
        "p", "li", "blockquote", "pre", "td", "th", "dd", "dt", "div", "section", "article", "main",
        "aside", "ul", "ol", "dl", "table", "tr", "thead", "tbody", "tfoot", "caption", "figure",
        "figcaption", "form", "fieldset", "address", "details", "summary", "body", "html", "hr",
    }
)
_WHITESPACE = re.compile(r"\s+")


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)  # decodes &amp;, &eacute;, &#8212; ...
        self.outline = Outline()
        self.paragraphs: list[Paragraph] = []
        self.title_parts: list[str] | None = None  # set while inside <title>
        self.title: str | None = None
        self.skip_depth = 0
        self.pre_depth = 0
        self.heading: tuple[int, list[str]] | None = None
        self.buf: list[str] = []

    def _flush(self) -> None:
        if self.buf:
            para = paragraph(self.outline.path, "".join(self.buf), "\n")
            if para:
                self.paragraphs.append(para)
            self.buf = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "title" and self.title is None:
            self.title_parts = []
        elif tag in _SKIP:
            self.skip_depth += 1
        elif self.skip_depth:
            return
        elif tag in _HEADINGS:
            self._flush()
            self.heading = (_HEADINGS[tag], [])
        elif tag == "br":
            self._text("\n")
        elif tag == "code" and not self.pre_depth and self.heading is None:
            self._text("`")  # inline code stays marked, as in Markdown: the extractor does not parse it
        elif tag in _BLOCKS:
            self._flush()
            if tag == "pre":
                self.pre_depth += 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        # `<br/>` and `<hr/>` must not open a skip region or a heading that never closes.
        if tag == "br" and not self.skip_depth:
            self._text("\n")
        elif tag in _BLOCKS and not self.skip_depth:
            self._flush()

    def handle_endtag(self, tag: str) -> None:
        if tag == "title" and self.title_parts is not None:
            self.title = clean_text("".join(self.title_parts)) or None
            self.title_parts = None
        elif tag in _SKIP:
            self.skip_depth = max(0, self.skip_depth - 1)
        elif self.skip_depth:
            return
        elif tag in _HEADINGS and self.heading is not None:
            level, parts = self.heading
            self.heading = None
            self.outline.enter(level, "".join(parts))
        elif tag == "code" and not self.pre_depth and self.heading is None:
            self._text("`")
        elif tag == "pre" and self.pre_depth == 1:
            # A code block: one paragraph, fenced and verbatim (docs/technical_text.md).
            code = code_block("".join(self.buf).split("\n"))
            if code:
                self.paragraphs.append(Paragraph(section=list(self.outline.path), text=code))
            self.buf = []
            self.pre_depth = 0
        elif tag in _BLOCKS:
            self._flush()
            if tag == "pre":
                self.pre_depth = max(0, self.pre_depth - 1)

    def handle_data(self, data: str) -> None:
        if self.title_parts is not None:
            self.title_parts.append(data)
        elif not self.skip_depth:
            self._text(data if self.pre_depth else _WHITESPACE.sub(" ", data))

    def _text(self, text: str) -> None:
        if self.heading is not None:
            self.heading[1].append(" " if text == "\n" else text)
        else:
            self.buf.append(text)


def parse_html(text: str) -> Parsed:
    collector = _Collector()
    try:
        collector.feed(text)
        collector.close()
    except (AssertionError, ValueError) as err:  # html.parser's only failure modes on odd markup
        raise BadInput(f"cannot parse HTML ({err}); check the file is complete HTML") from None
    if collector.heading is not None:  # unclosed heading at end of file
        collector.outline.enter(collector.heading[0], "".join(collector.heading[1]))
    collector._flush()
    return Parsed(title=collector.title or collector.outline.first_top, paragraphs=collector.paragraphs)
