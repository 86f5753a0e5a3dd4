"""A report's 公司 is never a company its chunk names beside it.

A section of a company report often names other companies only in a role towards the report's own company: its
subsidiaries (公司全资子公司X, X为本公司全资子公司, 本公司持有X 70%的股权), its holders (X为公司控股股东, X持有公司
38.6%的股份) or what it bought (公司以4.36亿元收购X). Such a chunk may say 公司 after those names, or open with a list
number (3、公司全资子公司X…), so no stand-in for the document's company is made, and 公司 was taken for the chunk's
first company: the subsidiary or the holder itself (X为本公司控股股东 became nothing, X's own facts became the
report company's). Here a company named in such a role is no candidate for 公司; where the chunk's first company is
one, its 公司 is a stand-in for the document's company, resolved as `report_reference.stand_in`'s are.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from kgbuild.extract.zh.mentions import Mention
from kgbuild.extract.zh.report_reference import LIST_NUMBER

_OWN = r"(?:本公司|公司|本集团)"
_CHILD = r"(?:的)?(?:全资|控股|参股)?(?:子公司|孙公司)"
_HOLDER = r"(?:控股股东|实际控制人|第一大股东|股东|战略投资者|员工持股平台)"
# X持有公司N%的股份 / X为公司控股股东: what a text says after a holder of the report's company
HOLDS_OWN = r"持有" + _OWN + r"|(?:为|系|是)" + _OWN + r"的?" + _HOLDER
# 公司全资子公司X / 本公司控股股东X / 公司以4.36亿元收购X / 本公司持有X / 公司与意大利企业X合资 / 控股子公司X: X right
# after
_ROLE_BEFORE = re.compile(r"(?:" + _OWN + r"(?:" + _CHILD + r"|" + _HOLDER + r"|(?:以[^，。；]{0,20}?)?(?:收购|持有)"
                          r"|与(?:[\u4e00-\u9fff]{2,8}?(?:企业|公司))?)"
                          r"|(?:全资|控股|参股)子公司|的子公司)$")
# X（100%股权）由Y…收购: a company another one bought
_BOUGHT_BY = re.compile(r"[^，。；由]{0,12}由[^，。；]{2,30}?(?:收购|并购)")
# X为本公司全资子公司 / X系公司控股股东 / X持有公司38.6%的股份 / X与公司签订: X right before
# (X与公司签订…合同 / X与本公司共同出资: X is the company's counterparty or partner)
_ROLE_AFTER = re.compile(r"(?:为|系|是)" + _OWN + _CHILD + r"|" + HOLDS_OWN
                         + r"|[与和同向]" + _OWN + r"(?![章名简代])")
# A list item's number, then 公司 / 本公司 opening the item (3、公司… / （四）本公司… / 1. 公司…)
_NUMBERED_OWN = re.compile(r"(?:^|(?<=[\n。；;]))\s*" + LIST_NUMBER + r"\s*(本公司|公司|本集团)(?!名称|简称|代码|章程)")
# 公司 / 本公司 / 本集团 as a reference (not 公司章程, 公司名称, nor a company's name ending in 公司)
_REFERENCE = re.compile(r"(本公司|本集团)|(?:^|(?<=[，,。；;：:、\s为与及和对向持由在]))(公司)"
                        r"(?!名称|简称|代码|简介|地址|网址|电话|传真|章程|法定代表人|债券|股票)")


# An auditor or a law firm doing its work for the report (经X会计师事务所审计, 聘请X律师事务所, X出具…意见): a
# firm named so is not what the report's 公司 is; a firm's own text (X律师事务所成立于1993年，公司总部位于北京) is
# about the firm
_FIRM = re.compile(r"事务所(?:[（(][^）)]{2,8}[）)])?$")
_ENGAGED = re.compile(r"(?:经|聘请|续聘|聘任|改聘|委托|由)$")
_WORK_DONE = re.compile(r"[^，。；]{0,8}?(?:审计|出具|鉴证|审阅)")
# 创业板公司 / 港股上市公司 / 沪市上市公司: where a company is listed, said before its name; no company itself
_MARKET_LABEL = re.compile(r"(?:上市公司|板公司|挂牌公司)$")


def market_label(m: Mention) -> bool:
    """Whether `m` is a word for where a company is listed (创业板公司汇溪环境), taken for a company's name."""
    return _MARKET_LABEL.search(m.name) is not None


# 由公司持股60% / 由本公司全资控股: the report's company holds what is named before it
HELD_BY_OWN = re.compile(r"(?<![不未非再])由(?:本公司|公司|本集团)(?:全资|绝对|相对|直接|间接)?"
                         r"(?:控股(?![股子公])|持股(?!比例)|"
                         r"持有(?![的其]))")


def beside_own(text: str, m: Mention) -> bool:
    """Whether the text names `m` in a role towards the report's own 公司 (its subsidiary, holder, purchase), or
    as someone's subsidiary (通过控股子公司X经营…), or `m` is an auditor or a law firm (经X会计师事务所审计): never
    the company a report's 公司 is."""
    auditor = _FIRM.search(m.name) is not None and (_ENGAGED.search(text, max(0, m.start - 6), m.start) is not None
                                                    or _WORK_DONE.match(text, m.end) is not None)
    if auditor or market_label(m) or _BOUGHT_BY.match(text, m.end) or HELD_BY_OWN.match(text, m.end):
        return True  # (X100%股权由Y以4.05亿元收购: X was bought; the 公司 after it is Y; X由公司持股60%: X is held)
    return _ROLE_BEFORE.search(text, max(0, m.start - 30), m.start) is not None or \
        _ROLE_AFTER.match(text, m.end) is not None


def others_only_stand_in(text: str, mentions: Sequence[Mention], is_company: Callable[[Mention], bool],
                         company_class: str, kind: str) -> Mention | None:
    """A stand-in for the document's company where the chunk says 公司 and the first company it names is named in
    a role towards it (`beside_own`), or says 本公司 / 本集团 and declares no company (one with a short name); None
    where the chunk names a company of its own first, or says no 公司."""
    if not company_class:
        return None
    companies = [m for m in mentions if is_company(m)]
    first = min(companies, key=lambda m: m.start, default=None)
    said = next((r for r in _REFERENCE.finditer(text)
                 if not any(x.start <= r.start() < x.end for x in mentions)), None)
    if said is None:
        return None
    if first is None:
        # 4、公司与武汉大学联合研发的…: a numbered item opening with 公司 in a chunk that names no company
        opened = _NUMBERED_OWN.search(text)
        if opened is None:
            return None
        at = opened.start(1)
        return Mention("公司", company_class, at, at + len(opened.group(1)), opened.group(1), kind=kind)
    # (本公司 / 本集团, "this company", is the report's own wherever the chunk declares no company of its own:
    # 阎振川…曾任X副总经理，2021年5月起任本公司董事长)
    if not beside_own(text, first) and not (said.group(1) and not any(m.aliases for m in companies)):
        return None
    at = said.start(1) if said.group(1) else said.start(2)
    word = said.group(1) or said.group(2)
    return Mention("公司", company_class, at, at + len(word), word, kind=kind)
