"""Plain text: paragraphs separated by blank lines, optional underlined headings."""

from __future__ import annotations

import re

from kgbuild.ingest.readers.document import Outline, Parsed, paragraph
from kgbuild.model import Paragraph

# At least three '=' (level 1) or '-' (level 2), as in setext Markdown and many README.txt files.
_UNDERLINE = re.compile(r"^(=+|-+)$")


def parse_txt(text: str) -> Parsed:
    outline = Outline()
    paragraphs: list[Paragraph] = []
    buf: list[str] = []

    def flush() -> None:
        if buf:
            para = paragraph(outline.path, " ".join(buf))
            if para:
                paragraphs.append(para)
            buf.clear()

    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            flush()
        elif len(line) >= 3 and _UNDERLINE.match(line):
            # Only a line standing alone above the rule is a heading; a rule under a longer
            # paragraph (or on its own) is a divider, so it just ends the paragraph.
            if len(buf) == 1:
                outline.enter(1 if line[0] == "=" else 2, buf.pop())
            flush()
        else:
            buf.append(line)
    flush()
    return Parsed(title=outline.title(), paragraphs=paragraphs)
