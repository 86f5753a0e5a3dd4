"""The tables of quarterly and annual reports as PDF converters leave them (seventeenth session): Markdown tables after a
page marker, HTML tables with rowspan / colspan, the figures table with several period columns, financial-statement
excerpts, 非经常性损益 items, officers' tables, contacts under a row of titles, associates and registered capital.

Every table and sentence here was written for these tests (no gold set's)."""

from __future__ import annotations

from pathlib import Path

from test_zh_report_tables import _build

from kgbuild.ingest.readers.converter_markup import html_table_parts, strip_converter_markup
from kgbuild.ingest.readers.markdown import parse_markdown

_COMPANY = "泓远电气股份有限公司"


# a Markdown table after a page marker: the marker's tag is dropped, the table's bars must stay
_AFTER_MARKER = """泓远电气股份有限公司（以下简称“泓远电气”或“公司”）2025年第二季度报告。

<PAGE_DIV>

- 3 -

单位：元 币种：人民币

| 项目 | 本报告期 | 上年同期 | 增减变动幅度(%) |
|---|---|---|---|
| 营业收入 | 1,204,500,300.10 | 1,100,000,000.00 | 9.50 |
"""


def test_a_page_marker_leaves_the_bars_of_a_markdown_table() -> None:
    text, dropped = strip_converter_markup(_AFTER_MARKER)
    assert dropped >= 2 and "PAGE_DIV" not in text
    assert "| 项目 | 本报告期 | 上年同期 | 增减变动幅度(%) |" in text.split("\n")
    table = next(p.text for p in parse_markdown(_AFTER_MARKER).paragraphs if "营业收入" in p.text)
    # a row a line (the unit line above the table goes with it: eighteenth session)
    assert table.split("\n")[2] == "营业收入 | 1,204,500,300.10 | 1,100,000,000.00 | 9.50"


# MinerU-style HTML: a two-row header whose periods span a figure and its change, a label over both header rows, a
# 不适用 cell across two columns, and a person's name over two posts
_HTML_FIGURES = (
    '<table><tr><td rowspan="2">项目</td><td colspan="2">本报告期</td><td colspan="2">年初至报告期末</td></tr>'
    "<tr><td>金额</td><td>比上年同期增减(%)</td><td>金额</td><td>比上年同期增减(%)</td></tr>"
    "<tr><td>营业收入</td><td>1,204,500,300.10</td><td>9.50</td><td>2,310,800,640.22</td><td>7.25</td></tr>"
    '<tr><td>经营活动产生的现金流量净额</td><td colspan="2">不适用</td><td>310,420,118.05</td><td>-4.10</td></tr>'
    "</table>")


def test_html_table_spans_are_written_on_a_grid_with_one_header_row() -> None:
    rows = html_table_parts(_HTML_FIGURES)[1]
    assert rows[0] == ["项目", "本报告期金额", "本报告期比上年同期增减(%)", "年初至报告期末金额",
                       "年初至报告期末比上年同期增减(%)"]
    assert rows[2] == ["经营活动产生的现金流量净额", "不适用", "不适用", "310,420,118.05", "-4.10"]
    officers = html_table_parts('<table><tr><th>姓名</th><th>职务</th></tr><tr><td rowspan="2">岑柏舟</td>'
                               "<td>董事长</td></tr><tr><td>总经理</td></tr></table>")[1]
    assert officers == [["姓名", "职务"], ["岑柏舟", "董事长"], ["岑柏舟", "总经理"]]


def test_an_html_table_reaches_the_chunks_as_table_rows() -> None:
    parsed = parse_markdown("## 一、主要财务数据\n\n单位：元\n\n" + _HTML_FIGURES + "\n\n本报告期营业收入增长主要来自海外。\n")
    table = next(p.text for p in parsed.paragraphs if "营业收入 |" in p.text)
    assert table.split("\n")[0] == "单位：元"  # the unit line goes with its table (eighteenth session)
    assert table.split("\n")[2] == "营业收入 | 1,204,500,300.10 | 9.50 | 2,310,800,640.22 | 7.25"
    assert "<td" not in table and "海外" not in table  # the prose after it is a paragraph of its own


_QUARTERLY = """证券代码：688321        证券简称：泓远电气        公告编号：2025-041

泓远电气股份有限公司
2025年第二季度报告

泓远电气股份有限公司（以下简称“泓远电气”或“公司”）董事会保证本报告内容真实、准确、完整。

## 一、主要财务数据

单位：元 币种：人民币

""" + _HTML_FIGURES + """

<PAGE_DIV>

- 2 -

## （二）非经常性损益项目和金额

| 项目 | 本期金额 | 年初至报告期末金额 |
|---|---|---|
| 计入当期损益的政府补助 | 8,120,400.00 | 15,306,221.40 |
| 合计 | 8,120,400.00 | 15,306,221.40 |

## 四、季度财务报表

合并资产负债表（节选）

单位：元 币种：人民币

| 项目 | 2025年6月30日 | 2024年12月31日 |
|---|---|---|
| 货币资金 | 1,822,416,503.18 | 1,641,020,337.90 |
| 资产总计 | 9,604,218,775.31 | 9,115,662,140.02 |

合并利润表（节选）

单位：元 币种：人民币

| 项目 | 2025年1-6月 | 2024年1-6月 |
|---|---|---|
| 一、营业总收入 | 2,310,800,640.22 | 2,154,600,000.00 |
| 二、营业总成本 | 2,016,335,902.47 | 1,905,118,260.33 |
"""


def test_a_quarterly_reports_tables_give_both_periods_statements_and_no_items(tmp_path: Path) -> None:
    _names, triples, qualifiers = _build(tmp_path, _QUARTERLY)
    # the figures table's two current columns, each with its own change
    assert (_COMPANY, "营业收入", "1,204,500,300.10元") in triples
    assert (_COMPANY, "营业收入", "2,310,800,640.22元") in triples
    assert ("营业收入", "2,310,800,640.22元", "同比增长", "7.25%") in qualifiers
    assert (_COMPANY, "经营活动产生的现金流量净额", "310,420,118.05元") in triples
    assert ("经营活动产生的现金流量净额", "310,420,118.05元", "同比下降", "4.10%") in qualifiers
    # a balance sheet's lines are figures at the column's date; 资产总计 is 总资产, a statement's numbering goes
    assert (_COMPANY, "货币资金", "1,822,416,503.18元") in triples
    assert ("货币资金", "1,822,416,503.18元", "时间", "2025年6月30日") in qualifiers
    assert (_COMPANY, "总资产", "9,604,218,775.31元") in triples
    assert (_COMPANY, "营业总成本", "2,016,335,902.47元") in triples
    # 非经常性损益 items and totals are no figures of the company
    assert not any(p in ("计入当期损益的政府补助", "合计") for _, p, _ in triples)


_GOVERNANCE = """# 蔚川物流股份有限公司 2024 年年度报告

蔚川物流股份有限公司（以下简称“蔚川物流”或“公司”）主要从事冷链仓储和城市配送。

| 股票简称 | 蔚川物流 | 股票代码 | 603588 |
|---|---|---|---|
| 联系人和联系方式 | 董事会秘书 | 证券事务代表 | |
| 姓名 | 钟岚清 | 唐兰舟 | |
| 董事会秘书（代行） | 瞿望川 | | |

## 第四节 公司治理

单位：万元

| 姓名 | 职务 | 性别 | 任期起始日期 | 任职状态 | 税前报酬总额 |
|---|---|---|---|---|---|
| 岑柏舟 | 董事长 | 男 | 2022年6月15日 | 现任 | 88.20 |
| 祁晓岚 | 财务总监（离任） | 女 | 2019年6月12日 | 离任 | 41.60 |
| 合计 | / | / | / | / | 129.80 |

| 公司名称 | 公司类型 | 注册资本（万元） | 持股比例 |
|---|---|---|---|
| 武汉蔚川冷链有限公司 | 子公司 | 12,000 | 100% |
| 鄂州临港仓储有限公司 | 参股公司 | 5,000 | 35% |
"""


def test_officers_contacts_under_titles_an_associate_and_registered_capital(tmp_path: Path) -> None:
    company = "蔚川物流股份有限公司"
    _names, triples, qualifiers = _build(tmp_path, _GOVERNANCE)
    assert ("岑柏舟", "worksFor", company) in triples
    assert ("worksFor", company, "时间", "2022年6月15日") in qualifiers
    assert ("祁晓岚", "worksFor", company) in triples  # a 离任 row held the post from its term's start
    assert not any(s == "合计" for s, _, _ in triples)
    assert ("钟岚清", "worksFor", company) in triples and ("唐兰舟", "worksFor", company) in triples
    assert ("瞿望川", "worksFor", company) in triples
    assert ("武汉蔚川冷链有限公司", "partOf", company) in triples
    assert ("武汉蔚川冷链有限公司", "注册资本", "12,000万元") in triples
    assert ("鄂州临港仓储有限公司", "ownedBy", company) in triples
    assert ("鄂州临港仓储有限公司", "partOf", company) not in triples


_ANNUAL = """# 岑柏食品股份有限公司 2024 年年度报告摘要

## 第二节 公司基本情况

| 公司名称 | 岑柏食品股份有限公司 |
|---|---|
| 公司注册地址 | 河南省漯河市源汇区黄河路166号 |
| 公司办公地址 | 河南省郑州市金水区花园路58号 |

单位：元 币种：人民币

| 项目 | 2024年 | 2023年 | 本年比上年增减(%) |
|---|---|---|---|
| 营业收入 | 5,206,118,430.52 | 4,870,226,913.04 | 6.90 |
| 基本每股收益（元／股） | 0.86 | 0.80 | 7.50 |

截至2024年12月31日，公司普通股股东总数为31,406户。

| 股东名称（全称） | 期末持股数量（股） | 比例(%) | 股东性质 |
|---|---|---|---|
| 漯河岑柏投资控股有限公司 | 212,400,000 | 42.48 | 境内非国有法人 |
| 祁文远 | 30,000,000 | 6.00 | 境内自然人 |
"""


def test_addresses_holders_by_proportion_and_date_and_a_full_width_unit(tmp_path: Path) -> None:
    company = "岑柏食品股份有限公司"
    _names, triples, qualifiers = _build(tmp_path, _ANNUAL)
    assert (company, "locatedIn", "源汇区") in triples
    assert (company, "headquarteredIn", "金水区") in triples
    assert (company, "营业收入", "5,206,118,430.52元") in triples
    assert ("营业收入", "5,206,118,430.52元", "时间", "2024年") in qualifiers
    assert (company, "基本每股收益", "0.86元/股") in triples
    assert (company, "ownedBy", "漯河岑柏投资控股有限公司") in triples
    assert ("ownedBy", "漯河岑柏投资控股有限公司", "比例", "42.48%") in qualifiers
    assert ("ownedBy", "祁文远", "时间", "2024年12月31日") in qualifiers


# headings a converter wrote as plain lines, and a sentence a page break cut in two
_PLAIN = """澄川化工股份有限公司
2024年年度报告摘要

第一节 重要提示
澄川化工股份有限公司（以下简称“澄川化工”或“公司”）董事会保证本报告内容真实、准确、完整。

第三节 管理层讨论与分析
一、报告期内公司从事的主要业务
报告期内，公司聘任罗晓峰为公司总经理。公司研发投入3.6亿元，同比增长12.5%。公司与浙江大
<PAGE_DIV>
- 3 -
学签署战略合作协议，共建有机硅联合实验室。

一、2025年3月，公司完成董事会换届。
"""


def test_plain_line_headings_and_a_sentence_cut_by_a_page_break() -> None:
    parsed = parse_markdown(_PLAIN)
    by_text = {p.text: p.section for p in parsed.paragraphs}
    joined = next(t for t in by_text if t.startswith("报告期内"))
    assert "公司与浙江大学签署战略合作协议" in joined  # one sentence again, the page's marks gone
    assert by_text[joined][-2:] == ["第三节 管理层讨论与分析", "一、报告期内公司从事的主要业务"]
    assert not any(t.startswith(("第一节", "第三节")) for t in by_text)  # headings, not text
    assert "一、2025年3月，公司完成董事会换届。" in by_text  # a numbered item of prose stays prose


def test_a_cut_sentence_gives_its_relation(tmp_path: Path) -> None:
    _names, triples, _qualifiers = _build(tmp_path, _PLAIN)
    assert ("澄川化工股份有限公司", "cooperateWith", "浙江大学") in triples


_HALF_YEAR = """# 鹤川乳品股份有限公司 2025 年半年度报告摘要

| 公司名称 | 鹤川乳品股份有限公司 |
|---|---|
| 董事会秘书 | 其木格 |

| 联系人和联系方式 | 董事会秘书 | 证券事务代表 |
|---|---|---|
| 办公地址 | 内蒙古呼和浩特市新城区迎宾路8号 | 内蒙古呼和浩特市新城区迎宾路8号 |

| 项目 | 本报告期 | 上年同期 | 本报告期比上年同期增减 |
|---|---|---|---|
| 加权平均净资产收益率 | 3.18% | 2.96% | 增加0.22个百分点 |

| 股东名称 | 持股数量（股） | 持股比例(%) |
|---|---|---|
| 呼伦贝尔牧业发展基金（有限合伙） | 52,000,000 | 6.50 |

| 子公司名称 | 注册地 | 业务性质 | 直接持股比例(%) | 间接持股比例(%) |
|---|---|---|---|---|
| 鹤川乳品（香港）有限公司 | 香港 | 贸易 | 100.00 | |
| 鹤川乳品（新西兰）有限公司 | 新西兰 | 奶粉生产 | | 100.00 |
"""


def test_a_secretary_without_a_known_surname_a_fund_holder_seats_and_indirect_stakes(tmp_path: Path) -> None:
    company = "鹤川乳品股份有限公司"
    _names, triples, qualifiers = _build(tmp_path, _HALF_YEAR)
    assert ("其木格", "worksFor", company) in triples  # the label says it is a person
    assert not any(p == "headquarteredIn" for _, p, _ in triples)  # the officers' contact address
    assert (company, "加权平均净资产收益率", "3.18%") in triples
    assert (company, "ownedBy", "呼伦贝尔牧业发展基金（有限合伙）") in triples
    assert ("鹤川乳品（香港）有限公司", "locatedIn", "香港") in triples
    assert ("partOf", company, "比例", "100.00%") in qualifiers
    assert ("鹤川乳品（新西兰）有限公司", "partOf", company) in triples


_NUMBERED = """# 蔚蓝纺织股份有限公司 2024 年年度报告摘要

## 第一节 重要提示

蔚蓝纺织股份有限公司（以下简称“蔚蓝纺织”或“公司”）董事会保证本报告内容真实、准确、完整。

<PAGE_DIV>

## 第三节 重要事项

3、公司全资子公司蔚蓝纺织（柬埔寨）有限公司于2024年5月在金边投产；2024年9月，公司与东华大学签订产学研合作协议。
"""


def test_a_numbered_items_company_is_the_reports_company(tmp_path: Path) -> None:
    _names, triples, _qualifiers = _build(tmp_path, _NUMBERED)
    assert ("蔚蓝纺织股份有限公司", "cooperateWith", "东华大学") in triples
    assert not any(s.startswith("蔚蓝纺织（柬埔寨）") and p == "cooperateWith" for s, p, _ in triples)


def test_an_html_tables_unit_row_is_a_line_above_it_and_a_minus_sign_is_a_loss(tmp_path: Path) -> None:
    table = ('<table><tr><td colspan="4">单位：元 币种：人民币</td></tr>'
             "<tr><td>项目</td><td>本报告期</td><td>上年同期</td><td>增减变动幅度(%)</td></tr>"
             "<tr><td>营业收入</td><td>802,114,360.25</td><td>905,300,118.40</td><td>−11.40</td></tr>"
             "<tr><td>归属于上市公司股东的净利润</td><td>−35,207,118.62</td><td>12,004,300.00</td><td>不适用</td></tr>"
             "</table>")
    text = strip_converter_markup(table)[0]
    assert text.strip().split("\n\n")[0] == "单位：元 币种：人民币"
    assert "| 项目 | 本报告期 | 上年同期 | 增减变动幅度(%) |" in text
    report = ("# 汀岚航运股份有限公司 2025 年第一季度报告\n\n汀岚航运股份有限公司（以下简称“汀岚航运”或“公司”）"
              "董事会保证本报告内容真实。\n\n## 一、主要财务数据\n\n" + table + "\n")
    _names, triples, qualifiers = _build(tmp_path, report)
    company = "汀岚航运股份有限公司"
    assert (company, "营业收入", "802,114,360.25元") in triples
    assert ("营业收入", "802,114,360.25元", "同比下降", "11.40%") in qualifiers
    assert (company, "净利润", "-35,207,118.62元") in triples
