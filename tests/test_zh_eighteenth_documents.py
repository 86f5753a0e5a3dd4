"""Whole report documents as PDF converters leave them (eighteenth session): a unit line that stays behind when a long
table becomes a chunk of its own, the shareholders' equity row of a figures table, the short name on the code line
above the title, a short name in a table that does not name its company, and a report whose auditor comes before its
declaration.

Every table and sentence here was written for these tests (no gold set's)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_zh_report_tables import _build

from kgbuild.document_references import resolve
from kgbuild.extract.zh.extractor import ChineseExtractor
from kgbuild.extract.zh.report_header import header_short_names
from kgbuild.ingest.readers.markdown import parse_markdown
from kgbuild.model import Chunk, ChunkExtraction
from kgbuild.schema import resolve_schema

_COMPANY = "澄川阀门股份有限公司"


@pytest.fixture(scope="module")
def zh() -> ChineseExtractor:
    return ChineseExtractor(resolve_schema("open_domain"))


def _chunks(*texts: str) -> list[Chunk]:
    return [Chunk(id=f"doc#p{i:05d}#0", doc_id="doc", text=t, order=i, paragraph_start=i, paragraph_end=i,
                  token_count=len(t), content_hash=str(i)) for i, t in enumerate(texts)]


def _triples(exs: list[ChunkExtraction]) -> set[tuple[str, str, str]]:
    return {(r.subject.name, r.predicate, r.object.name) for ex in exs for r in ex.relations}


def _names(exs: list[ChunkExtraction]) -> dict[str, set[str]]:
    """Every entity's aliases over the chunks (a build merges them by id)."""
    out: dict[str, set[str]] = {}
    for e in (e for ex in exs for e in ex.entities):
        out.setdefault(e.name, set()).update(e.aliases)
    return out


# the unit line closes a paragraph of check boxes (no blank line before it), and the HTML table after it is long
_FIGURES = ("公司是否需追溯调整或重述以前年度会计数据\n□是 √否\n单位：元　币种：人民币\n"
            "<table><tr><td>项目</td><td>本报告期</td><td>上年同期</td><td>本报告期比上年同期增减变动幅度(%)</td></tr>"
            "<tr><td>营业收入</td><td>402,118,630.55</td><td>371,906,204.18</td><td>8.12</td></tr>"
            "<tr><td>归属于上市公司股东的所有者权益</td><td>1,906,225,314.02</td><td>1,850,611,970.43</td>"
            "<td>3.01</td></tr></table>\n")


def test_a_unit_line_before_a_table_goes_with_the_table() -> None:
    paragraphs = parse_markdown("## 一、主要财务数据\n\n" + _FIGURES).paragraphs
    table = next(p.text for p in paragraphs if "营业收入 |" in p.text)
    assert table.split("\n")[0] == "单位：元 币种：人民币"
    before = next(p.text for p in paragraphs if "追溯调整" in p.text)
    assert "单位" not in before  # the lines above keep the rest
    # a unit inside a sentence, or 编制单位 (who drew up the statement), is no unit line of the table
    kept = parse_markdown("编制单位：澄川阀门股份有限公司\n| 项目 | 2025年 |\n| --- | --- |\n| 营业收入 | 1.00 |\n")
    assert kept.paragraphs[0].text == "编制单位：澄川阀门股份有限公司"


def test_a_table_in_a_chunk_of_its_own_keeps_the_unit_and_names_equity_net_assets(zh: ChineseExtractor) -> None:
    paragraphs = parse_markdown(f"{_COMPANY}（以下简称“公司”）2025年第三季度报告。\n\n" + _FIGURES).paragraphs
    # each paragraph a chunk, as a long table is one: the unit must be in the table's
    exs = list(resolve(zh.extract(_chunks(*(p.text for p in paragraphs)))))
    triples = _triples(exs)
    assert {(_COMPANY, "营业收入", "402,118,630.55元"), (_COMPANY, "净资产", "1,906,225,314.02元")} <= triples


def test_the_code_lines_short_name_is_the_reports_company(zh: ChineseExtractor) -> None:
    line = "证券代码：688507　　证券简称：澄川阀门　　公告编号：2025-033"
    assert [h.name for h in header_short_names(line)] == ["澄川阀门"]
    assert [h.name for h in header_short_names("公司代码：600871 公司简称：*ST澄川")] == ["*ST澄川"]
    assert header_short_names("股票简称：澄川阀门") == []  # no code on the line: a label of some other text
    exs = list(resolve(zh.extract(_chunks(
        line + "\n\n" + f"{_COMPANY}\n2025年第三季度报告",
        f"{_COMPANY}（以下简称“公司”）注册地位于江苏省无锡市锡山区。"))))
    names = _names(exs)
    assert "澄川阀门" in names.get(_COMPANY, set())
    assert "证券" not in names  # not 证券, also called 澄川阀门


def test_a_tables_short_name_without_the_company_is_the_documents(zh: ChineseExtractor) -> None:
    exs = list(resolve(zh.extract(_chunks(
        f"{_COMPANY}（以下简称“公司”）注册地位于江苏省无锡市锡山区。",
        "股票简称 | 澄川阀门 | 股票代码 | 688507\n股票上市交易所 | 上海证券交易所 | |"))))
    assert "澄川阀门" in _names(exs).get(_COMPANY, set())


def test_the_company_declared_after_the_auditor_is_the_reports(zh: ChineseExtractor) -> None:
    # the auditor's opinion and a contacts table come before 公司基本情况, where the report declares its company
    triples = _triples(list(resolve(zh.extract(_chunks(
        "德衡永信会计师事务所（特殊普通合伙）为本公司出具了标准无保留意见的审计报告。",
        "联系人和联系方式 | 董事会秘书 | 证券事务代表\n姓名 | 滕晓岚 | 郁庭舟",
        f"{_COMPANY}（以下简称“公司”）前身为无锡澄川阀门厂，2016年3月在上海证券交易所主板上市。")))))
    assert {("滕晓岚", "worksFor", _COMPANY), ("郁庭舟", "worksFor", _COMPANY)} <= triples
    assert not any(o.startswith("德衡永信") for _, p, o in triples if p == "worksFor")


def test_a_built_report_with_the_code_line_keeps_the_short_name(tmp_path: Path) -> None:
    text = ("证券代码：688507　　证券简称：澄川阀门　　公告编号：2025-033\n\n"
            f"# {_COMPANY}2025年第三季度报告\n\n" + f"{_COMPANY}（以下简称“公司”）董事会保证本报告内容真实。\n\n"
            "## 一、主要财务数据\n\n" + _FIGURES)
    names, triples, _ = _build(tmp_path, text)
    assert "澄川阀门" in names and "证券" not in names
    assert (_COMPANY, "营业收入", "402,118,630.55元") in triples


# 主要控股参股公司分析 under a 单位 line: the subsidiaries' own figures, one cell with a unit of its own
_SUBSIDIARIES = f"""{_COMPANY}（以下简称“公司”）2025年年度报告摘要。

## 六、主要控股参股公司分析

单位：万元

| 公司名称 | 公司类型 | 主要业务 | 注册资本 | 总资产 | 净资产 | 营业收入 | 净利润 |
| --- | --- | --- | --- | --- | --- | --- | --- |
| 澄川流体控制（越南）有限公司 | 子公司 | 阀门铸件 | 800万美元 | 12,406.55 | 7,311.02 | 9,870.14 | 1,204.33 |
| 无锡澄川智能装备有限公司 | 子公司 | 执行器研发 | 3,000.00 | 5,218.40 | 2,980.16 | 4,115.72 | -210.58 |
"""


def test_a_subsidiaries_tables_figure_columns_are_the_subsidiaries(tmp_path: Path) -> None:
    _, triples, _ = _build(tmp_path, _SUBSIDIARIES)
    vietnam, wuxi = "澄川流体控制(越南)有限公司", "无锡澄川智能装备有限公司"
    found = {(s.replace("（", "(").replace("）", ")"), p, o) for s, p, o in triples}
    assert {(vietnam, "注册资本", "800万美元"), (vietnam, "总资产", "12,406.55万元"), (vietnam, "净利润", "1,204.33万元"),
            (wuxi, "注册资本", "3,000.00万元"), (wuxi, "净资产", "2,980.16万元"), (wuxi, "营业收入", "4,115.72万元"),
            (wuxi, "净利润", "-210.58万元")} <= found
    assert not any(s == _COMPANY and p in ("总资产", "净利润") for s, p, _ in triples)


# the careers table of the officers, left by the converter as lines of a name, a wide space and the career
_CAREERS = f"""{_COMPANY}（以下简称“公司”）2025年年度报告。

## 第四节 公司治理

注：监事会主席晏清禾在控股股东单位领取薪酬。

姓名　主要工作经历

甄牧远　1971年出生，毕业于江南大学，高级工程师，2018年5月起任公司董事长。

鞠晚舟　1983年出生，毕业于苏州大学，现任公司董事会秘书。
"""


def test_a_careers_table_without_bars_gives_each_line_its_person() -> None:
    texts = [p.text for p in parse_markdown(_CAREERS).paragraphs]
    assert "甄牧远，1971年出生，毕业于江南大学，高级工程师，2018年5月起任公司董事长。" in texts
    assert "鞠晚舟，1983年出生，毕业于苏州大学，现任公司董事会秘书。" in texts
    assert "姓名 主要工作经历" in texts  # a header line with no year of birth stays as it is


def test_a_careers_table_without_bars_through_a_build(tmp_path: Path) -> None:
    _, triples, _ = _build(tmp_path, _CAREERS)
    assert {("甄牧远", "educatedAt", "江南大学"), ("鞠晚舟", "educatedAt", "苏州大学")} <= triples
    assert not any(s == "晏清禾" and p not in ("belongTo", "isA") for s, p, _ in triples)


def test_a_count_of_shareholders_is_no_figure_of_the_company(zh: ChineseExtractor) -> None:
    triples = _triples(list(resolve(zh.extract(_chunks(
        f"{_COMPANY}（以下简称“公司”）2025年年度报告摘要。截至2025年12月31日，公司普通股股东总数为27,415户，"
        "A股股东27,380户。2025年，公司实现营业收入18.62亿元。")))))
    assert (_COMPANY, "营业收入", "18.62亿元") in triples
    assert not any("股东" in p for _, p, _ in triples)


def test_one_products_sales_volume_is_the_companys_sales_volume(zh: ChineseExtractor) -> None:
    triples = _triples(list(resolve(zh.extract(_chunks(
        f"{_COMPANY}（以下简称“公司”）2025年年度报告摘要。2025年，公司球阀销量42.6万台，同比增长8.3%。",
        "2025年，公司闸阀销量12.1万台，蝶阀销量9.4万台。",
        "2025年，公司阀门销量63.5万台，其中出口阀门销量18.2万台。")))))
    assert (_COMPANY, "销量", "42.6万台") in triples
    # two products' volumes in one sentence, and a part after 其中, keep their own names
    assert {(_COMPANY, "闸阀销量", "12.1万台"), (_COMPANY, "蝶阀销量", "9.4万台")} <= triples
    assert (_COMPANY, "销量", "18.2万台") not in triples


def test_a_table_of_posts_at_the_shareholder_gives_the_person_that_body(zh: ChineseExtractor) -> None:
    text = ("任职人员姓名 | 股东单位名称 | 在股东单位担任的职务 | 任期起始日期\n"
            "晏清禾 | 无锡澄川投资控股有限公司 | 财务总监 | 2022年4月")
    exs = list(resolve(zh.extract(_chunks(f"{_COMPANY}（以下简称“公司”）2025年年度报告。", text))))
    works = [r for ex in exs for r in ex.relations if r.predicate == "worksFor"]
    assert [(r.subject.name, r.object.name) for r in works] == [("晏清禾", "无锡澄川投资控股有限公司")]
    names = {e.id: e.name for ex in exs for e in ex.entities}
    assert any(h.subject.id == works[0].id and h.predicate == "时间" and names.get(h.object.id) == "2022年4月"
               for ex in exs for h in ex.hypernodes)
