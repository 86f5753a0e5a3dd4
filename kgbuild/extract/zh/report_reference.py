"""A report's 公司 that no name of its chunk can be: a stand-in for the document's company.

In a company report cut into chunks, a section often opens with 公司 before naming any company ("报告期内，公司实现
营业收入186.4亿元。公司全资子公司X…"): 公司 is the company the report declared in an earlier chunk, which this chunk
cannot see, and not X, the first company it names. The stand-in is resolved once the document's chunks are
assembled (`kgbuild.document_references`); a chunk that names its company before saying 公司 needs none.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from kgbuild.extract.zh.mentions import Mention

# A numbered item's number opening a clause (3、 / 1. / （四） / (2) / 一、), never an amount's digits (1.5亿元)
LIST_NUMBER = (r"(?:\d{1,2}(?:、|[.．](?!\d))|[（(](?:[一二三四五六七八九十]{1,3}|\d{1,2})[）)]"
               r"|[一二三四五六七八九十]{1,3}、)")

# 公司 / 本公司 / 本集团 / 本行 (a bank) opening a clause (after a sentence's or clause's punctuation, or the chunk's
# start), as the subject of what follows; not a label of a converted table (公司名称：, 公司代码) nor a compound
# (公司章程: a document)
# (a numbered item's number before it too: 3、公司全资子公司…, （二）公司…, 一、公司…)
_OPENING = re.compile(r"(?:^|(?<=[，,。；;！？!?：:\n]))[ \t]*(?:" + LIST_NUMBER + r"[ \t]*)?"
                      r"(本公司|公司|本集团|本行)"
                      r"(?!名称|简称|代码|简介|地址|网址|电话|传真|章程|法定代表人|[：:，,。])")

# 前十名股东中，A持股…: the shareholders of the report's own company, listed before any company is named
_HOLDERS = re.compile(r"(?:^|(?<=[，,。；;！？!?：:\n]))[ \t]*(?:报告期末|截至[^，。；]{2,14}?[，,]?)?"
                      r"((?:前(?:十|10)名|前十大)(?:无限售条件)?(?:普通股)?股东)")

STAND_IN_KIND = "document"  # Mention.kind of a stand-in


def stand_in(text: str, mentions: list[Mention], is_company: Callable[[Mention], bool],
             company_class: str) -> Mention | None:
    """The stand-in for the chunk's first 公司, where it opens a clause before the chunk names any company."""
    if not company_class:
        return None
    first_company = min((m.start for m in mentions if is_company(m)), default=len(text))
    opening = next((m for m in _OPENING.finditer(text, 0, first_company)
                    if not any(x.start <= m.start(1) < x.end for x in mentions)), None)
    if opening is not None:
        # one node per chunk whatever the word (本集团 in prose, a table's 公司): named 公司, written as it was
        return Mention("公司", company_class, opening.start(1), opening.end(1), opening.group(1), kind=STAND_IN_KIND)
    holders = _HOLDERS.search(text, 0, first_company)
    if holders is not None:
        return Mention("公司", company_class, holders.start(1), holders.start(1), "公司", kind=STAND_IN_KIND)
    return None


# 岭南纸业股份有限公司 2024 年年度报告: a report's title, its first heading, names its company
_TITLE_COMPANY = re.compile(r"^\s*([\u4e00-\u9fff（）()]{2,30}?(?:股份有限公司|有限责任公司|有限公司|集团|银行))"
                            r"\s*(?:\d{4}|[（(]|年度|半年度|季度|第|报告|$)")


def title_company(section: Sequence[str]) -> str | None:
    """The company a chunk's document title names, if the title is a report's (its first heading)."""
    hit = _TITLE_COMPANY.match(section[0]) if section else None
    return hit.group(1) if hit is not None and re.search(r"报告|公告|摘要", section[0]) else None


# X股份有限公司（以下简称“X”或“公司”）: the company a report declares as its 公司, whatever short name comes first
_DECLARES = re.compile(r"\s*[（(](?:以下简称|以下称|下称)[^）)]{0,40}?[“\"](?:本公司|公司|本集团|本行)[”\"]"
                       r"[^）)]{0,30}[）)]")


def declared(text: str, mentions: list[Mention], is_company: Callable[[Mention], bool]) -> list[Mention]:
    """The companies the chunk declares as its 公司 (以下简称“青澜航运”或“公司”)."""
    return [m for m in mentions if is_company(m) and _DECLARES.match(text, m.end)]
