"""The tables every Chinese company report prints, as a PDF converter leaves them ("股票简称 | 青澜航运 | …").

The Markdown reader writes a table row as its cells joined by " | ", one row a line. Prose rules read such a line as a
run of names and numbers, so a report's most plainly stated facts were lost: which company it is (公司的中文名称), its
short name, exchange and legal representative, its main figures with their change, its top shareholders with their
stakes, its subsidiaries. Rows are read here by their labels:

- **information rows**, label then value, two or four cells a row: 公司的中文名称 / 公司名称 (the report's company),
  公司的中文简称 / 股票简称 / 证券简称 (its short name), 法定代表人 (worksFor), 股票上市证券交易所 (listedIn);
- **figure rows** under a header naming the period and its change (项目 | 本报告期 | 上年同期 | 增减(%)): the label
  with its unit (营业收入（元）), the current period's value, the change (12.70 -> 同比增长 12.70%);
- **holder rows** under a header with 股东名称 and 持股比例: each holder owns the company, with its stake;
- **subsidiary rows** under a header with 公司名称 / 子公司名称 and 持股比例 or 主要业务: each is partOf the company.

The company is the one the table names (公司的中文名称), else the stand-in for the document's company
(`report_reference`), resolved at assembly.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from kgbuild.extract.zh.clause_rules import OpenFact
from kgbuild.extract.zh.mentions import Mention

_NAME_LABEL = re.compile(r"公司的?(?:中文)?名称|中文名称")
_SHORT_LABEL = re.compile(r"公司的?(?:中文)?简称|中文简称|[AH]?股票简称|证券简称|[AH]股简称")
_LEGAL_LABEL = re.compile(r"(?:公司的?)?法定代表人")
_EXCHANGE_LABEL = re.compile(r"(?:股票|A股|H股)?上市(?:证券)?交易所(?:及板块)?|(?:股票)?上市地点")
# the officers a contacts table lists under their titles, in a row labelled 姓名
_TITLE_HEADER = re.compile(r"董事会秘书|证券事务代表|董事长|总经理|总裁|财务总监|财务负责人")
# 单位：元 币种：人民币 above a figures table: the unit of every amount in it whose label gives none
# a title as a row's label, with a note in brackets (董事会秘书（代行）)
_PERSON_CELL = re.compile(r"[\u4e00-\u9fff]{2,8}|[\u4e00-\u9fff]{1,6}·[\u4e00-\u9fff]{1,8}")
_NO_PERSON = frozenset(("合计", "小计", "总计", "不适用", "暂无", "其他", "姓名", "现任", "离任"))
_TITLE_LABEL = re.compile(r"(董事会秘书|证券事务代表)(?:[（(][^）)]{1,6}[）)])?")
# 其他单位名称 / 任职单位 / 股东单位名称: the column of an officers table that names another body, where the
# post is held
_OTHER_BODY_HEADER = re.compile(r"(?:其他|任职|股东)单位|单位名称")
_TABLE_UNIT = re.compile(r"单位[：:]\s*(元|万元|亿元|千元|百万元)")
# 注册地址 | 福建省漳州市龙海区港滨路18号: the company is located in the district (公司办公地址: its headquarters)
_SEAT_LABEL = re.compile(r"(?:公司的?)?注册地址")
_OFFICE_LABEL = re.compile(r"(?:公司的?)?办公地址")
_INFO_LABELS = (_NAME_LABEL, _SHORT_LABEL, _LEGAL_LABEL, _EXCHANGE_LABEL, _SEAT_LABEL, _OFFICE_LABEL)
# 截至2024年12月31日 in the line above a holders table: the date of the stakes it lists
_AS_OF = re.compile(r"截至(\d{4}年\d{1,2}月\d{1,2}日)")
# a value cell that is itself a label (股票简称 | 股票代码 in a header row): no value
_A_LABEL = re.compile(r".*(?:简称|代码|名称|代表人|交易所及板块|种类)$")
_FIGURE_HEADER = re.compile(r"本报告期|本期|本年|报告期|\d{4}年")
_CHANGE_HEADER = re.compile(r"增减|变动|同比")
# a column of the current period: 本报告期, 本期, 本年(末), 年初至报告期末 (a quarterly report's year to date: a second
# figure under the same name), a date (the first date column is the current one, later ones are prior periods)
_CURRENT_HEADER = re.compile(r"本报告期|本期|本年|年初至报告期末|^报告期")
_DATE_HEADER = re.compile(r"^\d{4}年")
_PRIOR_HEADER = re.compile(r"上年|上期|去年|同期|调整前")
# a numbered statement line (一、营业总收入, （二）, 1.) or its sign (加：, 减：, 其中：): not part of the figure's name
_LINE_PREFIX = re.compile(r"^(?:[一二三四五六七八九十]+、|[（(][一二三四五六七八九十\d]+[）)]|\d+[.、．]\s*|"
                          r"(?:加|减|其中)[：:])+")
# the items of 非经常性损益 and a table's totals: amounts no figure name fits, not the company's results
_ITEM_LABEL = re.compile(r"^(?:合计|小计|总计|其他)$|政府补助|损益$|影响额$|营业外收入和支出|^非经常性损益")
# what a financial statement calls a figure the figures table names otherwise
# (负债合计 keeps its own name: no figures table names a 总负债 it would repeat)
_STATEMENT_NAMES = {"资产总计": "总资产", "营业总收入": "营业收入"}
# what the shareholders of the listed company own, however the table words it (归属于上市公司股东的所有者权益,
# 归属于母公司股东权益): the company's 净资产, as 归属于上市公司股东的净资产 is
_OWNERS_EQUITY = re.compile(r"^归属于(?:上市公司|母公司)?(?:股东|所有者)的?(?:所有者|股东)?权益(?:合计)?$")
# an officers table (姓名 | 职务 | … | 任期起始日期 | 任职状态): every row is one of the company's officers
_POST_HEADER = re.compile(r"^(?:担任的?)?职务(?:[（(][^）)]*[）)])?$")
_TERM_HEADER = re.compile(r"任期起始日期|任职日期|任期起始|起始日期")
_UNIT = re.compile(r"[（(]\s*(元|万元|亿元|千元|百万元|元[/／]股|%|户|人)\s*[）)]$")
_NUMBER = re.compile(r"^-?\d[\d,]*(?:\.\d+)?$")
# a cell that writes its own unit (1,500万美元, 2.3亿元)
_OWN_UNIT = re.compile(r"^(-?\d[\d,]*(?:\.\d+)?)((?:万|亿|千|百万)?(?:元|美元|港元|欧元|日元|林吉特))$")
# the columns of a subsidiaries table that are the subsidiary's own figures
_SUBSIDIARY_FIGURES = frozenset(("注册资本", "总资产", "净资产", "营业收入", "营业利润", "净利润"))
# the endings of a body's name in a table cell (a company, a partnership, a fund, a commission...)
COMPANY_END = re.compile(r"(?:公司|集团|银行|(?:合伙企业|基金)[（(]有限合伙[)）]|合伙企业|基金|研究院|委员会|中心)$")
# the figure's name, as the prose rules name it (归属于上市公司股东的净利润 is the company's 净利润; 扣除非经常性损益的
# 净利润 and 经营活动产生的现金流量净额 are figures of their own)
_WHOSE = re.compile(r"^归属于[^的]{2,14}的")
_DEFINED = re.compile(r"(?:扣除非经常性损益(?:后)?的|(?:经营|投资|筹资)活动产生的)[\u4e00-\u9fff]{2,8}$")


@dataclass
class TableFacts:
    facts: list[OpenFact] = field(default_factory=list)
    aliases: list[tuple[Mention, str]] = field(default_factory=list)
    mentions: list[Mention] = field(default_factory=list)  # the cells' names, replacing what the name rules found
    labels: list[tuple[int, int]] = field(default_factory=list)  # label cells (股票上市证券交易所): no name in them
    company: Mention | None = None  # the company a table named (公司的中文名称)


@dataclass(frozen=True)
class _Cell:
    text: str
    start: int
    end: int


def _minus(text: str) -> str:
    """A cell's number with a converter's minus sign (−, －) written as "-"."""
    return text.replace("−", "-").replace("－", "-")


def _rows(text: str) -> list[tuple[list[_Cell], bool]]:
    """Every table row's cells, and whether the row opens its table (the line before it is no row): the reader
    leaves out Markdown's separator row, so a table's first row is its header where it has one."""
    rows = []
    pos = 0
    previous = False
    for line in text.split("\n"):
        is_row = "|" in line
        if is_row:
            cells, at = [], pos
            for part in line.split("|"):
                stripped = part.strip()
                offset = at + (part.find(stripped) if stripped else 0)
                cells.append(_Cell(stripped, offset, offset + len(stripped)))
                at += len(part) + 1
            if not all(not c.text or set(c.text) <= set("-: ") for c in cells):  # a separator left in
                rows.append((cells, not previous))
        previous = is_row
        pos += len(line) + 1
    return rows


def read_tables(text: str, mentions: list[Mention], classify: Callable[[str], tuple[str, str] | None],
                fallback: str, company_mention: Callable[[int], Mention], person_class: str = "") -> TableFacts:
    """`classify`: a cell's class and kind ("org", "person") from its form (…有限公司, a surname and a given name),
    None if it names nothing; `company_mention(at)`: the stand-in for the document's company, made where needed;
    `person_class`: the class of a person a label or a column says a cell names (董事会秘书 | 乌兰图雅)."""
    out = TableFacts()
    if "|" not in text:
        return out
    rows = _rows(text)

    def named(cell: _Cell, want: str | None = None) -> Mention | None:
        """The name a cell holds: what the name rules found for the whole cell, else a mention of its own (the
        name rules' pieces of it go); `want`: its kind ("person")."""
        if not cell.text:
            return None
        whole = next((m for m in mentions if m.start == cell.start and m.end == cell.end and m.spg_class), None)
        if whole is not None and (want is None or whole.kind == want):
            return whole
        found = classify(cell.text)
        if found is None or (want is not None and found[1] != want):
            return None
        m = Mention(cell.text, found[0], cell.start, cell.end, cell.text, kind=found[1])
        out.mentions.append(m)
        return m

    def person(cell: _Cell, loose: bool = True) -> Mention | None:
        """The person a cell holds where its label or column says it is one (董事会秘书, 姓名): any name of two to
        eight characters, a surname or not (乌兰图雅, 阿依古丽·买买提)."""
        found = named(cell, "person")
        if found is not None or not loose or not person_class or not _PERSON_CELL.fullmatch(cell.text) or (
                _A_LABEL.match(cell.text) or _TITLE_HEADER.search(cell.text) or cell.text in _NO_PERSON):
            return found
        m = Mention(cell.text, person_class, cell.start, cell.end, cell.text, kind="person")
        out.mentions.append(m)
        return m

    def owner(at: int) -> Mention:
        return out.company if out.company is not None else company_mention(at)

    def value(cell: _Cell, unit: str, percent: bool = False) -> Mention | None:
        text = _minus(cell.text)
        number = text.rstrip("%") if percent else text
        if not _NUMBER.match(number):
            return None
        name = number + ("%" if percent else unit)
        return Mention(name, fallback, cell.start, cell.end, name, kind="value")

    def info(label: str, val: _Cell, loose: bool = True) -> None:
        """One labelled value: a row's label and the cell after it, or a header's label and the cell under it;
        `loose`: the label is the row's first cell or the column's header, so a person needs no known surname (a
        title inside a row of another table, 任书瑜 | 董事会秘书 | 离任, labels nothing)."""
        if not val.text or _A_LABEL.match(val.text):
            return
        if _SHORT_LABEL.fullmatch(label):
            # (a table that does not name the company: the short name is the document's company's, 股票简称 | 淮岳燃气)
            out.aliases.append((owner(val.start), val.text))
        elif _LEGAL_LABEL.fullmatch(label) and (who := person(val, loose)) is not None:
            out.facts.append(OpenFact(who, "worksFor", owner(who.start), said="法定代表人"))
        elif (title := _TITLE_LABEL.fullmatch(label)) is not None and (who := person(val, loose)) is not None:
            # 董事会秘书 | 钟溪若, 董事会秘书（代行） | 郭北辰
            out.facts.append(OpenFact(who, "worksFor", owner(who.start), said=title.group(1)))
        elif not contacts and (_SEAT_LABEL.fullmatch(label) or _OFFICE_LABEL.fullmatch(label)) and (
                place := _district(val, mentions)) is not None:
            out.facts.append(OpenFact(owner(place.start), "locatedIn" if _SEAT_LABEL.fullmatch(label)
                                      else "headquarteredIn", place, said="地址"))
        elif _EXCHANGE_LABEL.fullmatch(label) and (cut := val.text.find("交易所")) > 0:
            # 上海证券交易所科创板: the exchange, without its board
            exchange = named(_Cell(val.text[:cut + 3], val.start, val.start + cut + 3))
            if exchange is not None:
                out.facts.append(OpenFact(owner(exchange.start), "listedIn", exchange, said="上市"))

    # the company the tables name comes first: every other row's facts are its
    for cells, _ in rows:
        for label, val in itertools.pairwise(cells):
            if _NAME_LABEL.fullmatch(label.text) and COMPANY_END.search(val.text):
                out.company = out.company or named(val)
    header: list[str] = []
    header_cells: list[_Cell] = []
    by_column = False  # the header's labels stand over the values of the rows under it (not a label | value table)
    unit = ""  # the unit a 单位 line gave the current table
    as_of: Mention | None = None  # the date (截至2024年12月31日) a line just above the current table gives
    contacts = False  # under a row of titles (联系人和联系方式 | 董事会秘书): an 办公地址 there is the officers' own
    table_end = 0  # where the last row read ended: a 单位 line between it and a table's first row is that table's
    for cells, opens in rows:
        texts = [c.text for c in cells]
        if opens and header and len(texts) == len(header) and any(_NUMBER.match(t) for t in texts[1:]):
            opens = False  # a table carried on past a page (a blank line, no header of its own)
        titles = len(texts) > 2 and bool(texts[1]) and all(_TITLE_HEADER.fullmatch(t) for t in texts[1:] if t)
        if opens:
            contacts = titles
            found = list(_TABLE_UNIT.finditer(text, table_end, cells[0].start))
            unit = found[-1].group(1) if found else ""
            dated = list(_AS_OF.finditer(text, max(table_end, cells[0].start - 160), cells[0].start))
            as_of = next((m for m in mentions if m.kind == "date" and dated and m.start == dated[-1].start(1)
                          and m.end == dated[-1].end(1)), None)
        table_end = cells[-1].end
        if opens or (not texts[0] and len(texts) > 2 and not any(_NUMBER.match(t) for t in texts)):
            header, header_cells = texts, cells  # a table's first row heads the rows under it, as does a row of
            if not opens:  # labels with none first
                continue
        elif titles:
            # 联系人和联系方式 | 董事会秘书 | 证券事务代表: the titles of the rows under it
            header, header_cells, contacts = texts, cells, True
            continue
        labels = [c for c in cells if any(p.fullmatch(c.text) for p in _INFO_LABELS)]
        out.labels.extend((c.start, c.end) for c in labels)
        before = len(out.facts) + len(out.aliases)
        for label, val in itertools.pairwise(cells):
            info(label.text, val, label is cells[0])
        if opens:
            by_column = bool(labels) and len(out.facts) + len(out.aliases) == before
            continue
        if by_column and not labels:
            for column, val in zip(header, cells, strict=False):
                info(column, val)  # 股票简称 over 栖衡生物
        if texts[0] == "姓名":
            for column, val in zip(header[1:], cells[1:], strict=False):
                if _TITLE_HEADER.fullmatch(column) and (who := person(val)) is not None:
                    out.facts.append(OpenFact(who, "worksFor", owner(who.start), said=column))
            continue
        if header and header[0] == "姓名" and any(_POST_HEADER.fullmatch(h) for h in header):
            _officer_row(cells, header_cells, mentions, out, person, owner)
            continue
        if header and header[0].endswith("姓名") and any(_OTHER_BODY_HEADER.search(h) for h in header) and any(
                "职务" in h for h in header):
            _post_elsewhere_row(cells, header_cells, mentions, out, person, named)
            continue
        _table_row(cells, header_cells, mentions, out, named, owner, value, unit, as_of)
    return out


def _district(cell: _Cell, mentions: list[Mention]) -> Mention | None:
    """The narrowest place an address names (福建省漳州市龙海区港滨路18号: 龙海区; no district: its city)."""
    places = [m for m in mentions if m.kind == "place" and cell.start <= m.start and m.end <= cell.end]
    return next((m for m in reversed(places) if m.name.endswith(("区", "县"))), None) or next(
        (m for m in reversed(places) if m.name.endswith("市")), None)


def _in_cell(cell: _Cell, mentions: list[Mention], kind: str) -> Mention | None:
    """The mention of `kind` ("date") a cell holds."""
    return next((m for m in mentions if m.kind == kind and cell.start <= m.start and m.end <= cell.end), None)


def _officer_row(cells: list[_Cell], header: list[_Cell], mentions: list[Mention], out: TableFacts,
                 person_in: Callable[[_Cell], Mention | None], owner: Callable[[int], Mention]) -> None:
    """A row of an officers table: the person worksFor the company, since the term's start where a column gives it
    (a 离任 row too: the post was held from then)."""
    if len(cells) > 1 and not any(c.text for c in cells[1:]):
        return  # 独立董事 | | |: a group's row over the names under it, no person
    body = next((i for i, h in enumerate(header) if _OTHER_BODY_HEADER.search(h.text)), None)
    if body is not None and body < len(cells) and cells[body].text and cells[body].text not in _NO_PERSON:
        return  # 姓名 | 其他单位名称 | 职务: a post at another body, which the row names (not the company's)
    person = person_in(cells[0])
    if person is None or re.search(r"(?:董事|监事|会|人员)$", person.name):
        return
    term = next((i for i, h in enumerate(header) if _TERM_HEADER.search(h.text)), None)
    start = _in_cell(cells[term], mentions, "date") if term is not None and term < len(cells) else None
    post = next((i for i, h in enumerate(header) if _POST_HEADER.fullmatch(h.text)), None)
    said = cells[post].text if post is not None and post < len(cells) else "职务"
    out.facts.append(OpenFact(person, "worksFor", owner(person.start), [("时间", start)] if start else [],
                              said=said))


def _post_elsewhere_row(cells: list[_Cell], header: list[_Cell], mentions: list[Mention], out: TableFacts,
                        person_in: Callable[[_Cell], Mention | None], named: Callable[..., Mention | None]) -> None:
    """A row of a table of posts held at other bodies (任职人员姓名 | 股东单位名称 | 在股东单位担任的职务 | 任期起始日期
    …): the person works for the body the row names, since the term's start where a column gives it."""
    body = next((i for i, h in enumerate(header) if _OTHER_BODY_HEADER.search(h.text)), None)
    if body is None or body >= len(cells) or not COMPANY_END.search(cells[body].text):
        return
    person, where = person_in(cells[0]), named(cells[body])
    if person is None or where is None:
        return
    term = next((i for i, h in enumerate(header) if _TERM_HEADER.search(h.text)), None)
    start = _in_cell(cells[term], mentions, "date") if term is not None and term < len(cells) else None
    post = next((i for i, h in enumerate(header) if "职务" in h.text), None)
    out.facts.append(OpenFact(person, "worksFor", where, [("时间", start)] if start else [],
                              said=cells[post].text if post is not None and post < len(cells) else "职务"))


def _table_row(cells: list[_Cell], header_cells: list[_Cell], mentions: list[Mention], out: TableFacts,
               named: Callable[..., Mention | None], owner: Callable[[int], Mention],
               value: Callable[..., Mention | None], table_unit: str, as_of: Mention | None = None) -> None:
    """A row under a header: a figure (`table_unit`: the unit 单位：元 gave the table), a holder or a subsidiary."""
    header = [c.text for c in header_cells]
    if not header or len(cells) < 2:
        return
    texts = [c.text for c in cells]
    ratio_col = next((i for i, h in enumerate(header) if "持股比例" in h or "持股比" in h), None)
    if any("股东名称" in h for h in header):
        # 股东名称（全称） | 期末持股数量（股） | 比例(%): the stake's column may say 比例 alone
        ratio_col = ratio_col if ratio_col is not None else next(
            (i for i, h in enumerate(header) if re.match(r"(?:持股)?比例", h)), None)
        holder = named(cells[0])
        stake = value(cells[ratio_col], "", percent=True) if ratio_col is not None and ratio_col < len(cells) else None
        if holder is not None:
            held: list[tuple[str, Mention]] = [("比例", stake)] if stake is not None else []
            if as_of is not None:
                held.append(("时间", as_of))
            out.facts.append(OpenFact(owner(holder.start), "ownedBy", holder, held, said="持股"))
        return
    if header and re.search(r"(?:子公司|公司)名称", header[0]) and (
            ratio_col is not None or any("主要业务" in h or "业务性质" in h for h in header)):
        sub = named(cells[0]) if COMPANY_END.search(texts[0]) else None
        # 直接持股比例(%) | 间接持股比例(%): the stake is in whichever of them is filled
        stake = next((v for i, h in enumerate(header) if ("持股比例" in h or "持股比" in h) and i < len(cells)
                      and (v := value(cells[i], "", percent=True)) is not None), None)
        if sub is not None:
            # 公司类型 | 参股公司: an associate, which the company owns a part of
            associate = any(t in ("参股公司", "联营企业", "合营企业", "参股") for t in texts[1:])
            stake_quals = [("比例", stake)] if stake is not None else []
            if associate:
                out.facts.append(OpenFact(sub, "ownedBy", owner(sub.start), stake_quals, said="参股"))
            else:
                out.facts.append(OpenFact(sub, "partOf", owner(sub.start), stake_quals, said="子公司"))
            # 注册地 | 香港: where the subsidiary is registered
            seat = next((i for i, h in enumerate(header) if h == "注册地"), None)
            if seat is not None and seat < len(cells) and (
                    place := _in_cell(cells[seat], mentions, "place")) is not None and place.end - place.start == len(
                    texts[seat]):
                out.facts.append(OpenFact(sub, "locatedIn", place, said="注册地"))
            # 注册资本（万元） | 30,000, and the figures 主要控股参股公司分析 gives each (总资产 | 净资产 | 营业收入 |
            # 净利润): the subsidiary's own, with the column's unit, else the 单位 line's, else the cell's (1,500万美元)
            for i, h in enumerate(header[:len(cells)]):
                unit = _UNIT.search(h)
                figure = _UNIT.sub("", h).strip()
                if figure not in _SUBSIDIARY_FIGURES:
                    continue
                amount = value(cells[i], unit.group(1) if unit else table_unit) if unit or table_unit else None
                own = _OWN_UNIT.match(_minus(cells[i].text))
                if amount is None and own is not None:
                    amount = value(_Cell(own.group(1), cells[i].start, cells[i].start + own.end(1)), own.group(2))
                if amount is not None:
                    out.facts.append(OpenFact(sub, figure, amount))
        return
    label = _LINE_PREFIX.sub("", texts[0]).strip()
    unit = _UNIT.search(label)
    bare = _UNIT.sub("", label).strip()
    if _ITEM_LABEL.search(bare) and not _DEFINED.search(bare):
        return  # 计入当期损益的政府补助, 合计: a 非经常性损益 item or a total, no figure of the company's
    defined = _DEFINED.search(bare)
    metric = defined.group(0) if defined is not None else "净资产" if _OWNERS_EQUITY.match(bare) else \
        _WHOSE.sub("", bare)
    metric = _STATEMENT_NAMES.get(metric, metric)
    if not re.fullmatch(r"[\u4e00-\u9fff]{2,16}", metric) or (re.search(r"每股|比率|率$", metric) and unit is None
                                                               and not _percent_cells(cells)):
        return
    for col, change_col in _current_columns(header):
        if col >= len(cells):
            continue
        percent = unit is None and cells[col].text.endswith("%") and bool(re.search(r"率$", metric))
        amount = value(cells[col], "", percent=True) if percent else value(
            cells[col], unit.group(1).replace("／", "/") if unit else table_unit)
        if amount is None:
            continue
        quals: list[tuple[str, Mention]] = []
        if change_col is not None and change_col < len(cells) and "%" in header[change_col] + texts[change_col]:
            raw = cells[change_col]
            number = _minus(raw.text).rstrip("%")
            if _NUMBER.match(number):
                way = "同比下降" if number.startswith("-") else "同比增长"
                pct = number.lstrip("-") + "%"
                quals.append((way, Mention(pct, amount.spg_class, raw.start, raw.end, pct, kind="value")))
        if _DATE_HEADER.match(header[col]) and (when := _in_cell(header_cells[col], mentions, "date")) is not None:
            quals.append(("时间", when))  # 2024年, 2025年9月30日: the period the column states
        out.facts.append(OpenFact(owner(amount.start), metric, amount, quals))


def _percent_cells(cells: list[_Cell]) -> bool:
    """A rate's row whose cells carry their own % (加权平均净资产收益率 | 2.41% | 2.08%)."""
    return len(cells) > 1 and bool(_NUMBER.match(cells[1].text.rstrip("%"))) and cells[1].text.endswith("%")


def _current_columns(header: list[str]) -> list[tuple[int, int | None]]:
    """The columns of a figures table that state the current period, each with the change column that follows it
    (项目 | 本报告期 | 增减(%) | 年初至报告期末 | 增减(%): two; 项目 | 2024年 | 2023年 | 增减(%): the first date)."""
    if len(header) < 3 or not _FIGURE_HEADER.search(header[1]):
        return []
    current: list[int] = []
    for i, h in enumerate(header[1:], 1):
        if _CHANGE_HEADER.search(h) or _PRIOR_HEADER.search(h):
            continue
        if _CURRENT_HEADER.search(h) or (_DATE_HEADER.match(h) and not any(_DATE_HEADER.match(header[j])
                                                                             for j in range(1, i))):
            current.append(i)
    out: list[tuple[int, int | None]] = []
    for n, col in enumerate(current):
        stop = current[n + 1] if n + 1 < len(current) else len(header)
        out.append((col, next((j for j in range(col + 1, stop) if _CHANGE_HEADER.search(header[j])), None)))
    return out
