"""The code line above a Chinese report's title: 证券代码：603417　证券简称：闽溪纸业　公告编号：临2025-052.

Every announcement a listed company files opens with this line (公司代码 / 公司简称 in an annual report's summary,
股票代码 / 股票简称 elsewhere). Its short name is the report's own company's, which the report may never declare in
brackets (X股份有限公司（以下简称“公司”）declares 公司 only), so the line is the one place the short name is stated.
Read as prose, 证券简称：Y is "证券, also called Y": 证券 became a company with Y as its alias.

The company is not named on the line, and often not before the next chunk: the short name goes to the stand-in for
the document's company (`report_reference`), which `kgbuild.document_references` resolves.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# a line that holds a listed company's code (six digits, or a Hong Kong code of four or five)
_CODE = re.compile(r"(?:证券|股票|公司|A股|H股)代码[：:]\s*\d{4,6}")
# the short name after its label, up to the next label, a space or the line's end (闽溪纸业, *ST岱升, 岱升B)
_SHORT = re.compile(r"((?:证券|股票|公司|A股|H股)简称)[：:][ \t\u3000]*"
                    r"((?:\*?ST)?[\u4e00-\u9fff][\u4e00-\u9fffA-Za-z0-9]{1,7}?)"
                    r"(?=[ \t\u3000]|$|[，,；;]|公告编号|(?:证券|股票|公司|A股|H股)(?:代码|简称))")


@dataclass(frozen=True)
class HeaderShortName:
    label_start: int  # where 证券简称 starts: no name inside the label
    name_start: int
    name_end: int
    name: str


def header_short_names(text: str) -> list[HeaderShortName]:
    """The short names the chunk's code lines state (证券简称：闽溪纸业 on a line with 证券代码：603417)."""
    out: list[HeaderShortName] = []
    at = 0
    for line in text.split("\n"):
        if _CODE.search(line):
            for m in _SHORT.finditer(line):
                out.append(HeaderShortName(at + m.start(1), at + m.start(2), at + m.end(2), m.group(2)))
        at += len(line) + 1
    return out
