"""What kind of answer a Chinese question expects, from its question words (no model), and the Chinese
dates and amounts a date or number question is answered by.

The same kinds as English questions get (`answer_types`): 谁 a person, 哪里 a place, 哪家 an
organisation, 多少 / 几 a number, 何时 a date, 哪一年 a year, 是否 / …吗 a yes/no, "A还是B" / "A和B谁先…"
one of two names; 哪个 / 什么 take the kind of the noun they ask about (哪个城市 a place, 哪家公司 an
organisation, 什么小说 a work); a bare 什么 says nothing (any).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Kind names: the same strings as answer_types' (checked by the tests).
YESNO, CHOICE, DATE, YEAR, NUMBER, PLACE, PERSON, ORG, WORK, ANY = (
    "yesno", "choice", "date", "year", "number", "place", "person", "organization", "work", "any")

# Head nouns after 哪个 / 哪一 / 什么 / 哪 + measure word, by the kind they ask for (longest first when matched).
_HEADS: dict[str, tuple[str, ...]] = {
    YEAR: ("年份", "一年", "年"),
    DATE: ("日期", "时间", "时候", "天", "月份", "一天"),
    PLACE: ("城市", "国家", "省份", "省", "市", "地方", "地区", "地点", "位置", "区域", "县", "州", "大洲", "岛",
            "山", "河", "湖", "港口", "首都", "国度"),
    PERSON: ("人", "人物", "作家", "作者", "科学家", "数学家", "董事长", "总经理", "总裁", "首席执行官", "创始人",
    "行长",
             "校长", "院长", "主席", "总统", "国王", "女王", "演员", "歌手", "导演", "诗人", "画家", "设计者", "设计师",
             "发明者", "发明人", "负责人", "领导人", "父亲", "母亲", "儿子", "女儿", "妻子", "丈夫"),
    ORG: ("公司", "企业", "集团", "银行", "机构", "组织", "大学", "学院", "学校", "医院", "部门", "单位", "政府",
          "出版社", "协会", "研究所", "研究院", "实验室", "团队", "球队", "乐队", "政党", "品牌", "基金会", "中心"),
    WORK: ("书", "小说", "著作", "作品", "电影", "影片", "歌曲", "歌", "专辑", "游戏", "论文", "报告", "杂志", "报纸",
           "剧", "电视剧", "诗", "画"),
}
# Measure words between 哪 / 哪一 and the noun (哪所大学, 哪座城市, 哪部小说).
_MEASURE = "个位家所座部本首篇名条项只支间种款届"
_WHICH = re.compile(rf"(?:哪(?:一)?[{_MEASURE}]?|什么|何种|何|哪些)")
_ASK_YEAR = re.compile(r"哪一?年|何年|什么年份|哪个年份|几几年")
_ASK_DATE = re.compile(r"何时|什么时候|哪一?天|几月几[日号]|几号|哪个月|几月|何日|何年何月|什么日子|什么时间")
_ASK_NUMBER = re.compile(r"多少|几[个位家人次岁年名项种座台辆条本部所倍层]|几何|多大|多高|多长|多远|多重|多久|"
                         r"多深|多宽|百分之几|比例是|几成")
_ASK_PLACE = re.compile(r"哪里|哪儿|何地|何处|什么地方|在哪|何方")
_ASK_PERSON = re.compile(r"谁|何人|哪位|什么人")
_ASK_ORG = re.compile(r"哪家")
# A yes/no: 是否, 是不是, 有没有, 能不能, or a question ending in 吗.
_YES_NO = re.compile(r"是否|是不是|有没有|能不能|会不会|对不对|吗\s*[？?]?\s*$")
# "A还是B" and "A和B，谁先…": the two names compared.
_OR = re.compile(r"(?P<a>[^，,。？?还]{1,30}?)还是(?P<b>[^，,。？?]{1,30}?)(?:[？?]|$)")
_AND_WHO = re.compile(r"^(?P<a>[^，,。？?和与及跟]{1,30})(?:和|与|及|跟)(?P<b>[^，,。？?]{1,30}?)"
                      r"(?:两人|二人|两者|之间|中)?[，,]?\s*(?:谁|哪个|哪一个|哪家|哪位)")
_EARLIER = re.compile(r"先|更早|最早|早于|年长|年纪大|更老|较早")
_LATER = re.compile(r"后|更晚|最晚|晚于|年轻|更新|较晚|最近")
_COMPARE_LEAD = re.compile(r"^(?:请问|问|比较)[：:，,]?\s*")


@dataclass(frozen=True)
class ZhExpected:
    kind: str
    options: tuple[str, ...] = ()
    order: str = ""


def _clean_option(text: str) -> str:
    return _COMPARE_LEAD.sub("", text.strip(" ，,：:“”\"'《》"))


def _head_kind(question: str) -> str | None:
    """The kind of the noun a 哪个 / 什么 asks about: the earliest such question word decides."""
    for m in _WHICH.finditer(question):
        after = question[m.end():m.end() + 6]
        best: tuple[int, str] | None = None
        for kind, nouns in _HEADS.items():
            for noun in nouns:
                if after.startswith(noun) and (best is None or len(noun) > best[0]):
                    best = (len(noun), kind)
        if best is not None:
            return best[1]
    return None


def expected_zh(question: str) -> ZhExpected:
    q = question.strip()
    for pattern in (_OR, _AND_WHO):
        m = pattern.search(q)
        if m:
            a, b = _clean_option(m.group("a")), _clean_option(m.group("b"))
            if a and b and a != b and (pattern is _OR or _EARLIER.search(q[m.end():]) or _LATER.search(q[m.end():])
                                      or "更" in q[m.end():] or "最" in q[m.end():]):
                tail = q[m.end():] if pattern is _AND_WHO else q
                order = "earlier" if _EARLIER.search(tail) else "later" if _LATER.search(tail) else ""
                return ZhExpected(CHOICE, (a, b), order)
    if _YES_NO.search(q) and not (_ASK_PERSON.search(q) or _ASK_PLACE.search(q) or "什么" in q or "哪" in q
                                   or _ASK_NUMBER.search(q)):
        return ZhExpected(YESNO)
    if _ASK_YEAR.search(q):
        return ZhExpected(YEAR)
    if _ASK_DATE.search(q):
        return ZhExpected(DATE)
    head = _head_kind(q)
    if head is not None:
        return ZhExpected(head)
    if _ASK_NUMBER.search(q):
        return ZhExpected(NUMBER)
    if _ASK_PLACE.search(q):
        return ZhExpected(PLACE)
    if _ASK_PERSON.search(q):
        return ZhExpected(PERSON)
    if _ASK_ORG.search(q):
        return ZhExpected(ORG)
    return ZhExpected(ANY)


# ---------------------------------------------------------------- Chinese dates and amounts

# 2022年, 2022年3月, 2022年3月1日, 3月1日, 2022-03-01; report periods (2022年第三季度, 2023年上半年).
ZH_DATE_RE = re.compile(
    r"(?<![\d])(?:\d{4}年(?:\d{1,2}月(?:\d{1,2}[日号])?|第[一二三四1-4]季度|[上下]半年|年[初末底]|[一二三四1-4]季度)?"
    r"|\d{1,2}月\d{1,2}[日号]|\d{4}-\d{1,2}-\d{1,2})")
# An amount with its unit (3,549亿元, 8.3%, 4200余人, 0.08个百分点) or a bare number; never a year (2022年).
ZH_NUMBER_RE = re.compile(
    r"(?<![\d.,])\d[\d,]*(?:\.\d+)?(?:余|多)?(?:万亿|亿|万|千|百)?(?:余|多)?"
    r"(?:个百分点|%|％|元人民币|美元|欧元|港元|港币|日元|英镑|元|人民币|人|家|个|名|辆|台|吨|件|次|股|户|座|所|项|岁|倍|平方公里|公里|米)?"
    r"(?![\d年月日号])")
_ZH_UNIT_YEAR = re.compile(r"^\d{4}$")


def zh_spans(sentence: str, kind: str) -> list[tuple[str, int, int]]:
    """(span, start, end) of the Chinese dates (DATE, YEAR) or amounts (NUMBER) of `sentence`."""
    if kind in (DATE, YEAR):
        return [(m.group(0), m.start(), m.end()) for m in ZH_DATE_RE.finditer(sentence)]
    if kind == NUMBER:
        return [(m.group(0), m.start(), m.end()) for m in ZH_NUMBER_RE.finditer(sentence)
                if not _ZH_UNIT_YEAR.match(m.group(0))]
    return []
