"""A report's 公司 across the chunks of one document, and the spaces a PDF converter leaves in Chinese text.

Sentences written for these tests (no gold set's)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from kgbuild.document_references import DEPENDENTS, FALLBACK, STANDS_FOR, resolve
from kgbuild.extract.zh.extractor import ChineseExtractor
from kgbuild.extract.zh.mentions import Mention
from kgbuild.extract.zh.report_reference import stand_in
from kgbuild.extract.zh.spacing import close_up
from kgbuild.model import Chunk, ChunkExtraction, Entity, HyperNode, Relation
from kgbuild.schema import resolve_schema


@pytest.fixture(scope="module")
def zh() -> ChineseExtractor:
    return ChineseExtractor(resolve_schema("open_domain"))


def test_a_converters_spaces_beside_chinese_are_closed_up() -> None:
    assert close_up("实现营业收入 58.2 亿元，同比增长 6.5%") == "实现营业收入58.2亿元，同比增长6.5%"
    assert close_up("于 2024 年 9 月投产，采用 AI 质检") == "于2024年9月投产，采用AI质检"
    # between two Chinese characters a space separates (a byline, a dateline); between Latin words it is a word's end
    assert close_up("（记者 孟凡）本报合肥电 华徽") == "（记者 孟凡）本报合肥电 华徽"
    assert close_up("Mate 60 Pro") == "Mate 60 Pro"


def _company(m: Mention) -> bool:
    return m.spg_class == "Company"


def test_a_stand_in_only_where_gongsi_opens_a_clause_before_any_company() -> None:
    named = [Mention("岭南纸业", "Company", 20, 24, "岭南纸业")]
    found = stand_in("报告期内，公司实现营业收入9.1亿元。公司全资子公司岭南纸业投产。", named, _company, "Company")
    assert found is not None and (found.name, found.start) == ("公司", 5)
    # the chunk named its company first: 公司 is that company, the chunk's own rules resolve it
    first = [Mention("岭南纸业股份有限公司", "Company", 0, 10, "岭南纸业股份有限公司")]
    assert stand_in("岭南纸业股份有限公司成立于2001年。公司主要生产文化纸。", first, _company, "Company") is None
    # a converted table's label, and a schema without companies
    assert stand_in("公司名称：岭南纸业", [], _company, "Company") is None
    assert stand_in("公司实现营业收入9.1亿元。", [], _company, "") is None


def _ex(chunk_id: str, entities: list[Entity], relations: list[Relation] = (),  # type: ignore[assignment]
        hypernodes: list[HyperNode] = ()) -> ChunkExtraction:  # type: ignore[assignment]
    return ChunkExtraction(chunk_id=chunk_id, extractor="t", entities=entities, relations=list(relations),
                           hypernodes=list(hypernodes))


def _entity(name: str, cls: str = "Company", **props: list[str]) -> Entity:
    return Entity(id=Entity.make_id(name, cls), name=name, spg_class=cls, properties=dict(props))


def _relation(s: Entity, p: str, o: Entity) -> Relation:
    return Relation(id=Relation.make_id(s.id, p, o.id), subject=s.ref(), predicate=p, object=o.ref())


def test_the_stand_in_becomes_the_company_an_earlier_chunk_declared() -> None:
    own = _entity("岭南纸业股份有限公司")
    own.aliases.append("岭南纸业")
    shareholder = _entity("粤华投资集团有限公司")
    first = _ex("r#p00000#0", [shareholder, own], [_relation(own, "ownedBy", shareholder)])
    gongsi = _entity("公司", **{STANDS_FOR: ["公司"]})
    amount = _entity("9.1亿元", "Thing")
    change = _entity("4.2%", "Thing")
    figure = _relation(gongsi, "营业收入", amount)
    hyper = HyperNode(id=HyperNode.make_id(figure.id, "同比增长", change.id), subject=figure.ref(),
                      predicate="同比增长", object=change.ref())
    later = _ex("r#p00003#0", [gongsi, amount, change], [figure], [hyper])
    out = list(resolve([first, later]))
    assert out[0] == first
    resolved = out[1]
    assert "公司" not in {e.name for e in resolved.entities}
    assert [(r.subject.name, r.predicate, r.object.name) for r in resolved.relations] == [
        ("岭南纸业股份有限公司", "营业收入", "9.1亿元")]
    # the qualifier follows its triple's new id, and the company is supported by this chunk too
    assert resolved.hypernodes[0].subject.id == resolved.relations[0].id
    assert next(e for e in resolved.entities if e.id == own.id).chunk_ids == ["r#p00003#0"]


def test_an_unresolved_stand_in_goes_with_its_facts_and_what_only_they_made() -> None:
    amount = _entity("9.1亿元", "Thing")
    person = _entity("韦思远", "Person")
    gongsi = _entity("公司", **{STANDS_FOR: ["公司"], DEPENDENTS: [amount.id]})
    out = next(resolve([_ex("solo#p00000#0", [gongsi, amount, person],
                            [_relation(gongsi, "营业收入", amount), _relation(person, "worksFor", gongsi)])]))
    assert [e.name for e in out.entities] == ["韦思远"]
    assert out.relations == [] and len(out.drops) == 2


def test_the_chunks_own_company_is_no_fallback_when_the_stand_ins_facts_relate_them() -> None:
    holder = _entity("粤华投资集团有限公司")
    gongsi = _entity("公司", **{STANDS_FOR: ["本公司"], FALLBACK: [holder.id]})
    out = next(resolve([_ex("solo#p00000#0", [gongsi, holder], [_relation(gongsi, "ownedBy", holder)])]))
    assert out.relations == []  # 本公司控股股东为X: 公司 is not X
    person = _entity("韦思远", "Person")
    gongsi = _entity("公司", **{STANDS_FOR: ["公司"], FALLBACK: [holder.id]})
    out = next(resolve([_ex("solo#p00000#0", [gongsi, holder, person], [_relation(person, "worksFor", gongsi)])]))
    assert [(r.subject.name, r.object.name) for r in out.relations] == [("韦思远", "粤华投资集团有限公司")]


def test_a_subsidiary_named_after_gongsi_is_the_subject_and_part_of_it(zh: ChineseExtractor) -> None:
    text = "报告期内，公司全资子公司岭南特种纸有限公司于2024年8月收购越南海防纸品公司。"
    ex = zh.extract([Chunk(id="t#p00001#0", doc_id="t", text=text, order=1, paragraph_start=1, paragraph_end=1,
                           token_count=40, content_hash="x")])[0]
    triples = {(r.subject.name, r.predicate, r.object.name) for r in ex.relations}
    assert ("岭南特种纸有限公司", "acquire", "海防纸品公司") in triples  # in 越南
    assert ("岭南特种纸有限公司", "partOf", "公司") in triples  # the stand-in, resolved at assembly


_REPORT = """# 岭南纸业股份有限公司 2024 年半年度报告摘要

## 第一节 公司基本情况

岭南纸业股份有限公司（以下简称“岭南纸业”或“公司”）成立于 2001 年，总部位于广东省江门市，主要生产文化用纸和特种纸。

<PAGE_DIV>

## 第二节 经营情况

报告期内，公司实现营业收入 9.1 亿元，同比增长 4.2%。公司全资子公司岭南特种纸有限公司于 2024 年 8 月收购越南海防纸品公司。

- 7 -

## 第三节 公司治理

2024 年 5 月，公司董事会聘任韦思远为公司总经理。公司与华南理工大学签署合作协议，共建特种纸研究中心。
"""


def test_a_report_built_whole_gives_its_later_sections_facts_to_the_declared_company(tmp_path: Path) -> None:
    from kgbuild.build import Builder
    from kgbuild.config import load_config
    from kgbuild.workspace import Workspace

    (tmp_path / "report.md").write_text(_REPORT, encoding="utf-8")
    (tmp_path / "kgbuild.yaml").write_text("workspace: ws\ngraph_store:\n  backend: none\nvector_store:\n"
                                           "  backend: none\nbuild:\n  workers: 1\n", encoding="utf-8")
    asyncio.run(Builder(load_config(tmp_path / "kgbuild.yaml", env={})).arun([tmp_path / "report.md"]))
    ws = Workspace(tmp_path / "ws")
    names = {e.name for e in ws.records("entities", Entity)}
    relations = list(ws.records("relations", Relation))
    triples = {(r.subject.name, r.predicate, r.object.name) for r in relations}
    assert "公司" not in names
    company = "岭南纸业股份有限公司"
    assert {(company, "营业收入", "9.1亿元"), ("韦思远", "worksFor", company),
            ("岭南特种纸有限公司", "partOf", company), ("岭南特种纸有限公司", "acquire", "海防纸品公司")} <= triples
    by_id = {r.id: r for r in relations}
    qualifiers = {(by_id[h.subject.id].object.name, h.predicate, h.object.name)
                  for h in ws.records("hypernodes", HyperNode) if h.subject.id in by_id}
    assert ("9.1亿元", "同比增长", "4.2%") in qualifiers


def _resolved(zh: ChineseExtractor, *texts: str) -> set[tuple[str, str, str]]:
    """The chunks of one document, extracted and resolved as a build does."""
    chunks = [Chunk(id=f"doc#p{i:05d}#0", doc_id="doc", text=t, order=i, paragraph_start=i, paragraph_end=i,
                    token_count=len(t), content_hash=str(i)) for i, t in enumerate(texts)]
    return {(r.subject.name, r.predicate, r.object.name) for ex in resolve(zh.extract(chunks)) for r in ex.relations}


def test_a_banks_benhang_and_a_list_of_top_holders_are_the_declared_bank(zh: ChineseExtractor) -> None:
    triples = _resolved(zh, "岷江农商银行股份有限公司（以下简称“岷江农商行”或“本行”）董事会保证报告内容真实。",
                        "本行注册地址位于四川省乐山市市中区。本行全资子公司岷江金融租赁有限公司于2024年开业。",
                        "截至报告期末，前十名股东中，乐山国有资产经营有限公司持股比例为12.40%，四川蜀能投资有限公司持股8.15%。")
    bank = "岷江农商银行股份有限公司"
    assert {("岷江金融租赁有限公司", "partOf", bank), (bank, "ownedBy", "乐山国有资产经营有限公司"),
            (bank, "ownedBy", "四川蜀能投资有限公司")} <= triples


def test_what_becomes_gongsis_subsidiary_without_de(zh: ChineseExtractor) -> None:
    triples = _resolved(zh, "2024年3月，公司以5.6亿元收购苏州锦程精密模具有限公司70%的股权，交易完成后该公司成为公司控股子公司。")
    assert ("苏州锦程精密模具有限公司", "partOf", "苏州锦程精密模具有限公司") not in triples
    first = _resolved(zh, "华岳精工股份有限公司（以下简称“华岳精工”或“公司”）主要生产汽车模具。",
                      "2024年3月，公司以5.6亿元收购苏州锦程精密模具有限公司70%的股权，交易完成后该公司成为公司控股子公司。")
    assert {("华岳精工股份有限公司", "acquire", "苏州锦程精密模具有限公司"),
            ("苏州锦程精密模具有限公司", "partOf", "华岳精工股份有限公司")} <= first


def test_a_figure_defined_by_its_de_keeps_it_and_the_signatories_work_for_the_company(zh: ChineseExtractor) -> None:
    triples = _resolved(zh, "华岳精工股份有限公司2024年实现归属于上市公司股东的净利润3.2亿元；归属于上市公司股东的扣除非经常性"
                            "损益的净利润2.9亿元；经营活动产生的现金流量净额4.1亿元。")
    company = "华岳精工股份有限公司"
    assert {(company, "净利润", "3.2亿元"), (company, "扣除非经常性损益的净利润", "2.9亿元"),
            (company, "经营活动产生的现金流量净额", "4.1亿元")} <= triples
    assert (company, "净利润", "2.9亿元") not in triples
    signed = _resolved(zh, "华岳精工股份有限公司（以下简称“公司”）主要生产汽车模具。",
                       "公司负责人章泽霖、主管会计工作负责人韦思远保证季度报告中财务信息的真实、准确、完整。")
    assert {("章泽霖", "worksFor", company), ("韦思远", "worksFor", company)} <= signed


def test_a_bare_subsidiary_clause_is_the_reports_company_and_a_duty_is_no_employer(zh: ChineseExtractor) -> None:
    triples = _resolved(zh, "华岳精工股份有限公司（以下简称“公司”）主要生产汽车模具。",
                        "公司全资子公司华岳模具科技有限公司负责模具设计；控股子公司远航精密铸造有限公司完成产线改造。")
    company = "华岳精工股份有限公司"
    assert ("远航精密铸造有限公司", "partOf", company) in triples
    assert ("远航精密铸造有限公司", "partOf", "华岳模具科技有限公司") not in triples
    signed = zh.extract([Chunk(id="s#p00000#0", doc_id="s", text="公司负责人章泽霖、主管会计工作负责人韦思远保证财务信息的真实。",
                               order=0, paragraph_start=0, paragraph_end=0, token_count=30, content_hash="s")])[0]
    assert "主管会计工作" not in {e.name for e in signed.entities}


def test_a_company_declared_as_gongsi_gets_no_such_alias_and_a_dividend_is_no_figure(zh: ChineseExtractor) -> None:
    ex = zh.extract([Chunk(id="h#p00000#0", doc_id="h", text="2025年上半年，黔川牧业股份有限公司（以下简称“公司”）共出栏生猪"
                           "212.6万头。公司向全体股东每10股派发现金红利3.60元（含税），共计派发现金红利1.48亿元。",
                           order=0, paragraph_start=0, paragraph_end=0, token_count=60, content_hash="h")])[0]
    company = next(e for e in ex.entities if e.name == "黔川牧业股份有限公司")
    # every report's company would share the alias 公司, and fusion would merge them all
    assert "公司" not in company.aliases and company.properties.get("declared") == ["公司"]
    assert not [r for r in ex.relations if "派发" in r.predicate]
    later = _resolved(zh, "2025年上半年，黔川牧业股份有限公司（以下简称“公司”）共出栏生猪212.6万头。",
                      "报告期内，公司实现营业收入98.37亿元。")
    assert ("黔川牧业股份有限公司", "营业收入", "98.37亿元") in later


def test_what_a_company_does_for_its_listed_subsidiaries_names_them_as_its_own(zh: ChineseExtractor) -> None:
    triples = _resolved(zh, "黔川牧业股份有限公司同意为全资子公司遵义川源养殖有限公司、铜仁川泰生猪养殖有限公司向银行申请的融资提供担保。")
    assert {("遵义川源养殖有限公司", "partOf", "黔川牧业股份有限公司"),
            ("铜仁川泰生猪养殖有限公司", "partOf", "黔川牧业股份有限公司")} <= triples


def test_what_a_review_found_the_references_did_wrong(zh: ChineseExtractor) -> None:
    # an acquisition whose buyer nothing resolves goes whole, with nothing left pointing at a dropped date
    alone = next(resolve(zh.extract([Chunk(id="a#p00000#0", doc_id="a", text="报告期内，公司实现营业收入4.2亿元。"
                                           "公司于2024年3月收购宁波海港物流有限公司。", order=0, paragraph_start=0,
                                           paragraph_end=0, token_count=40, content_hash="a")])))
    assert not alone.events and not alone.relations and "2024年3月" not in {e.name for e in alone.entities}
    # a shareholder the report names before declaring itself is not the report's company
    triples = _resolved(zh, "公司控股股东为宁波海港集团有限公司。",
                        "报告期内，公司实现营业收入4.2亿元。")
    assert ("宁波海港集团有限公司", "营业收入", "4.2亿元") not in triples
    # 以下简称“青澜航运”或“公司” declares the report's company, before any other company's short name
    triples = _resolved(zh, "本公司控股股东宁波海港集团有限公司（以下简称“海港集团”）持股51%。",
                        "青澜航运股份有限公司（以下简称“青澜航运”或“公司”）成立于2003年。", "报告期内，公司实现营业收入4.2亿元。")
    assert ("青澜航运股份有限公司", "营业收入", "4.2亿元") in triples
