"""A Chinese company report's tables, as the Markdown reader leaves them (cells joined by " | "), read by their labels.

Tables written for these tests (no gold set's)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from kgbuild.model import Entity, HyperNode, Relation

_REPORT = """# 岭南纸业股份有限公司 2024 年年度报告

## 第二节 公司简介和主要财务指标

| 股票简称 | 岭南纸业 | 股票代码 | 603999 |
|---|---|---|---|
| 股票上市证券交易所 | 上海证券交易所 | | |
| 公司的中文名称 | 岭南纸业股份有限公司 | | |
| 公司的法定代表人 | 韩启东 | | |

| 项目 | 2024年 | 2023年 | 本年比上年增减(%) |
|---|---|---|---|
| 营业收入（元） | 9,126,400,512.35 | 8,612,300,100.00 | 5.97 |
| 归属于上市公司股东的净利润（元） | 612,500,300.12 | 655,120,000.00 | -6.51 |

## 第六节 股份变动及股东情况

| 股东名称 | 股东性质 | 持股数量（股） | 持股比例(%) |
|---|---|---|---|
| 广东粤华投资集团有限公司 | 国有法人 | 312,450,000 | 38.62 |
| 韦思远 | 境内自然人 | 41,200,000 | 5.09 |

## 第七节 主要控股参股公司分析

| 公司名称 | 主要业务 | 注册资本（万元） | 持股比例 |
|---|---|---|---|
| 江门岭南特种纸有限公司 | 特种纸生产 | 30,000 | 100% |
"""


def _build(tmp_path: Path, text: str) -> tuple[set[str], set[tuple[str, str, str]], set[tuple[str, str, str, str]]]:
    from kgbuild.build import Builder
    from kgbuild.config import load_config
    from kgbuild.workspace import Workspace

    (tmp_path / "report.md").write_text(text, encoding="utf-8")
    (tmp_path / "kgbuild.yaml").write_text("workspace: ws\ngraph_store:\n  backend: none\nvector_store:\n"
                                           "  backend: none\nbuild:\n  workers: 1\n", encoding="utf-8")
    asyncio.run(Builder(load_config(tmp_path / "kgbuild.yaml", env={})).arun([tmp_path / "report.md"]))
    ws = Workspace(tmp_path / "ws")
    relations = {r.id: r for r in ws.records("relations", Relation)}
    triples = {(r.subject.name, r.predicate, r.object.name) for r in relations.values()}
    qualifiers = {(relations[h.subject.id].predicate, relations[h.subject.id].object.name, h.predicate, h.object.name)
                  for h in ws.records("hypernodes", HyperNode) if h.subject.id in relations}
    # every name and alias of the graph's entities
    return {n for e in ws.records("entities", Entity) for n in (e.name, *e.aliases)}, triples, qualifiers


def test_a_reports_tables_give_its_company_figures_holders_and_subsidiaries(tmp_path: Path) -> None:
    names, triples, qualifiers = _build(tmp_path, _REPORT)
    company = "岭南纸业股份有限公司"
    assert {("韩启东", "worksFor", company), (company, "listedIn", "上海证券交易所"),
            (company, "营业收入", "9,126,400,512.35元"), (company, "净利润", "612,500,300.12元"),
            (company, "ownedBy", "广东粤华投资集团有限公司"), (company, "ownedBy", "韦思远"),
            ("江门岭南特种纸有限公司", "partOf", company)} <= triples
    assert {("营业收入", "9,126,400,512.35元", "同比增长", "5.97%"), ("净利润", "612,500,300.12元", "同比下降", "6.51%"),
            ("ownedBy", "广东粤华投资集团有限公司", "比例", "38.62%"), ("partOf", company, "比例", "100%")} <= qualifiers
    # a label cell names nothing, and a name cell is one name (not 启东 out of 韩启东)
    assert not {"股票上市证券交易所", "启东", "公司"} & names


def test_tables_a_title_does_not_name_take_the_company_the_text_declared(tmp_path: Path) -> None:
    text = ("# 2024 年年度报告摘要\n\n## 第一节 公司简介\n\n岭南纸业股份有限公司（以下简称“岭南纸业”或“公司”）成立于2001年。\n\n"
            "## 第六节 股东情况\n\n| 股东名称 | 持股比例(%) |\n|---|---|\n| 广东粤华投资集团有限公司 | 38.62 |\n")
    _, triples, _ = _build(tmp_path, text)
    assert ("岭南纸业股份有限公司", "ownedBy", "广东粤华投资集团有限公司") in triples


def test_column_labels_a_unit_line_officers_by_title_and_a_second_header(tmp_path: Path) -> None:
    text = """# 华岳精工股份有限公司 2025 年半年度报告摘要

## 第二节 公司基本情况

| 公司名称 | 华岳精工股份有限公司 |
| --- | --- |
| 公司简称 | 华岳精工 |

| 股票种类 | 股票上市交易所及板块 | 股票简称 | 股票代码 |
| --- | --- | --- | --- |
| A股 | 深圳证券交易所创业板 | 华岳精工 | 300999 |

| 联系人和联系方式 | 董事会秘书 | 证券事务代表 |
| --- | --- | --- |
| 姓名 | 潘一鸣 | 柯文卿 |

单位：元 币种：人民币

| 项目 | 本报告期 | 上年同期 | 本报告期比上年同期增减(%) |
| --- | --- | --- | --- |
| 营业收入 | 1,520,330,100.25 | 1,402,118,300.00 | 8.43 |
|  | 本报告期末 | 上年度末 | 本报告期末比上年度末增减(%) |
| 总资产 | 6,402,500,000.00 | 6,100,000,000.00 | 4.96 |
"""
    _, triples, qualifiers = _build(tmp_path, text)
    company = "华岳精工股份有限公司"
    assert {(company, "listedIn", "深圳证券交易所"), ("潘一鸣", "worksFor", company), ("柯文卿", "worksFor", company),
            (company, "营业收入", "1,520,330,100.25元"), (company, "总资产", "6,402,500,000.00元")} <= triples
    assert ("总资产", "6,402,500,000.00元", "同比增长", "4.96%") in qualifiers
    assert not any(p == "synonym" and o in ("股票代码", "股票简称") for _, p, o in triples)


def test_a_label_value_table_is_not_read_by_column_and_a_unit_stays_with_its_table(tmp_path: Path) -> None:
    text = """# 青澜航运股份有限公司 2024 年年度报告

## 第二节 公司简介

| 公司的中文名称 | 青澜航运股份有限公司 | 公司的中文简称 | 青澜航运 |
| --- | --- | --- | --- |
| 股票上市证券交易所 | 上海证券交易所 | 法定代表人 | 韩启东 |
| 注册地址 | 浙江省宁波市 | 公司网址 | www.ql.com |

单位：万元

| 项目 | 2024年 | 2023年 | 本年比上年增减(%) |
| --- | --- | --- | --- |
| 营业收入 | 1,864,051.23 | 1,654,020.81 | 12.70 |

| 项目 | 2024年 | 2023年 | 本年比上年增减(%) |
| --- | --- | --- | --- |
| 员工人数 | 3,500 | 3,300 | 6.06 |
"""
    names, triples, _ = _build(tmp_path, text)
    company = "青澜航运股份有限公司"
    assert (company, "营业收入", "1,864,051.23万元") in triples
    assert (company, "员工人数", "3,500万元") not in triples
    assert "公司网址" not in names and ("韩启东", "worksFor", company) in triples
