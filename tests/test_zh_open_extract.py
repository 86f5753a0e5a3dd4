"""Open-domain Chinese extraction without a model (issue 25, item 1): each rule on sentences written for
these tests (not the bench's labelled paragraphs), and the stop list: common words never become entities.
Before this issue the offline Chinese rules found none of these relations and typed 智能化 and 荣获 as
people."""

from __future__ import annotations

import pytest

from kgbuild.document_references import resolve
from kgbuild.extract.zh.extractor import ChineseExtractor
from kgbuild.model import Chunk, ChunkExtraction
from kgbuild.schema import resolve_schema


def chunk(text: str) -> Chunk:
    return Chunk(id="t#0", doc_id="t", text=text, order=0, paragraph_start=0, paragraph_end=0, token_count=len(text),
                 content_hash="0")


@pytest.fixture(scope="module")
def zh() -> ChineseExtractor:
    # the rules alone: each test here is a rule's; the pair model after them has tests of its own (test_zh_pair_model)
    return ChineseExtractor(resolve_schema("open_domain"))


def extract(ex: ChineseExtractor, text: str) -> ChunkExtraction:
    """The chunk as a document of its own: a report's 公司 before any company is resolved as a build resolves it."""
    result = next(resolve(ex.extract([chunk(text)])))
    assert result.failure is None
    return result


def entities(result: ChunkExtraction) -> dict[str, str]:
    return {e.name: e.spg_class for e in result.entities}


def triples(result: ChunkExtraction) -> set[tuple[str, str, str]]:
    return {(r.subject.name, r.predicate, r.object.name) for r in result.relations}


def qualifiers(result: ChunkExtraction) -> set[tuple[str, str, str, str, str]]:
    by_id = {r.id: r for r in result.relations}
    return {(by_id[h.subject.id].subject.name, by_id[h.subject.id].predicate, by_id[h.subject.id].object.name,
             h.predicate, h.object.name) for h in result.hypernodes}


REPORT = ("青云半导体股份有限公司（以下简称“青云半导体”）成立于2012年，总部位于苏州。2023年，青云半导体实现营业收入45.7亿元，"
          "同比增长18.2%；净利润3.9亿元，同比下降6.5%。青云半导体总经理林海峰表示，公司将继续扩大产能。")


def test_a_company_its_short_name_founding_date_and_seat(zh: ChineseExtractor) -> None:
    result = extract(zh, REPORT)
    company = next(e for e in result.entities if e.name == "青云半导体股份有限公司")
    assert company.spg_class == "Company" and company.aliases == ["青云半导体"]
    assert "青云半导体" not in entities(result)  # the short name is the same company
    assert entities(result)["苏州"] == "City"
    assert {("青云半导体股份有限公司", "foundedOn", "2012年"), ("青云半导体股份有限公司", "headquarteredIn", "苏州")} <= triples(result)


def test_reported_figures_carry_their_change_and_period(zh: ChineseExtractor) -> None:
    result = extract(zh, REPORT)
    assert {("青云半导体股份有限公司", "营业收入", "45.7亿元"), ("青云半导体股份有限公司", "净利润", "3.9亿元")} <= triples(result)
    assert {("青云半导体股份有限公司", "营业收入", "45.7亿元", "同比增长", "18.2%"),
            ("青云半导体股份有限公司", "营业收入", "45.7亿元", "时间", "2023年"),
            ("青云半导体股份有限公司", "净利润", "3.9亿元", "同比下降", "6.5%")} <= qualifiers(result)


def test_a_title_between_an_organisation_and_a_person_is_employment(zh: ChineseExtractor) -> None:
    result = extract(zh, REPORT)
    assert entities(result)["林海峰"] == "Person"
    assert ("林海峰", "worksFor", "青云半导体股份有限公司") in triples(result)
    assert next(e for e in result.entities if e.name == "林海峰").semantic_type == "总经理"


def test_an_acquisition_with_its_price_date_and_event(zh: ChineseExtractor) -> None:
    result = extract(zh, "2021年，北辰控股集团以5.6亿元收购了南港造船有限公司。")
    assert ("北辰控股集团", "acquire", "南港造船有限公司") in triples(result)
    assert {("北辰控股集团", "acquire", "南港造船有限公司", "金额", "5.6亿元"),
            ("北辰控股集团", "acquire", "南港造船有限公司", "时间", "2021年")} <= qualifiers(result)
    assert [e.type for e in result.events] == ["Acquisition"]


def test_a_product_in_quotes_is_released_and_typed_by_its_noun(zh: ChineseExtractor) -> None:
    result = extract(zh, "2024年3月，北辰控股集团发布了新一代存储芯片“玄武”，并宣布与长江银行开展战略合作。")
    assert entities(result)["玄武"] == "ArtificialObject"
    assert next(e for e in result.entities if e.name == "玄武").semantic_type == "存储芯片"
    assert {("北辰控股集团", "release", "玄武"), ("北辰控股集团", "cooperateWith", "长江银行")} <= triples(result)


def test_an_encyclopedia_entry_birth_place_chain_and_founding(zh: ChineseExtractor) -> None:
    result = extract(zh, "陈嘉庚，1874年出生于福建省厦门市，1913年创办集美学校。")
    found = entities(result)
    assert found["陈嘉庚"] == "Person" and found["集美学校"] == "EducationalInstitution"
    assert found["福建省"] == "AdministrativeRegion" and found["厦门市"] == "City"
    assert {("陈嘉庚", "bornOn", "1874年"), ("陈嘉庚", "bornIn", "厦门市"), ("厦门市", "locatedIn", "福建省"),
            ("集美学校", "foundedBy", "陈嘉庚")} <= triples(result)
    assert {e.type for e in result.events} == {"Birth", "Founding"}


def test_education_and_a_work_with_its_author_and_award(zh: ChineseExtractor) -> None:
    result = extract(zh, "林徽因，1904年生于杭州，1927年毕业于宾夕法尼亚大学。")
    assert ("林徽因", "educatedAt", "宾夕法尼亚大学") in triples(result)
    assert ("林徽因", "educatedAt", "宾夕法尼亚大学", "时间", "1927年") in qualifiers(result)
    result = extract(zh, "《白鹿原》是作家陈忠实创作的长篇小说，1997年获得茅盾文学奖。")
    assert entities(result)["白鹿原"] == "Book" and entities(result)["茅盾文学奖"] == "Award"
    assert {("白鹿原", "createdBy", "陈忠实"), ("白鹿原", "awardReceived", "茅盾文学奖")} <= triples(result)


def test_membership_and_places_inside_places(zh: ChineseExtractor) -> None:
    result = extract(zh, "南港造船有限公司隶属于北辰控股集团。")
    assert ("南港造船有限公司", "partOf", "北辰控股集团") in triples(result)
    result = extract(zh, "千岛湖位于浙江省杭州市淳安县境内。")
    assert entities(result)["千岛湖"] == "NaturalFeature"
    assert {("千岛湖", "locatedIn", "淳安县"), ("杭州市", "locatedIn", "浙江省"),
            ("淳安县", "locatedIn", "杭州市")} <= triples(result)


def test_a_news_source_is_not_the_subject(zh: ChineseExtractor) -> None:
    result = extract(zh, "据新华社报道，北辰控股集团与长江银行签署战略合作协议。")
    assert triples(result) == {("北辰控股集团", "cooperateWith", "长江银行")}


# The words the first trial on company reports typed as entities (智能化 Person, 荣获 Person, 名片 Medicine,
# 上云 City...), and other common words of reports and news.
COMMON = ("智能化 数字化 荣获 名片 上云 上市 发展 创新 客户 市场 产品 业务 技术 研发 管理 服务 转型 战略 公司 集团 子公司 "
          "上市公司 总部 员工 报告期 同比 营业收入 净利润 全球 国际 国内 海外").split()


@pytest.mark.parametrize("word", COMMON)
def test_a_common_word_is_never_an_entity(zh: ChineseExtractor, word: str) -> None:
    for text in (f"{word}是公司今年的重点工作。", f"公司持续推进{word}，取得良好成效。", f"董事长表示，{word}将带来新的机遇。"):
        assert word not in entities(extract(zh, text)), text


def test_common_words_of_a_report_paragraph_stay_out(zh: ChineseExtractor) -> None:
    result = extract(zh, "报告期内，公司持续推进智能化、数字化转型，荣获多项荣誉，并将名片业务全面上云。英国市场增长迅速，"
                         "华为手机销量大增。")
    found = entities(result)
    assert not {"智能化", "数字化", "荣获", "名片", "上云"} & found.keys()
    assert found.get("英国") == "Country"
    assert "Person" not in found.values()  # jieba tags 华为, 智能化 and 荣获 as person names: a tag alone is not enough


def test_foreign_names_a_latin_name_with_its_gloss_and_a_city_jieba_calls_a_person(zh: ChineseExtractor) -> None:
    # from samples/corpus_zh: names transliterated with ·, a short form later in the chunk, 布达佩斯 (jieba: nr)
    result = extract(zh, "EDSAC（电子延迟存储自动计算器）由莫里斯·威尔克斯及其团队在剑桥大学数学实验室建造。"
                         "威尔克斯根据约翰·冯·诺依曼的《关于EDVAC的报告书的第一份草案》设计了EDSAC。"
                         "约翰·冯·诺依曼是匈牙利裔美国数学家，1903年12月28日出生于布达佩斯。"
                         "1945年，冯·诺依曼撰写了《关于EDVAC的报告书的第一份草案》。")
    found = entities(result)
    assert found["EDSAC"] == "ArtificialObject" and found["莫里斯·威尔克斯"] == "Person"
    assert found["约翰·冯·诺依曼"] == "Person" and found["布达佩斯"] == "City"
    assert "冯·诺依曼" not in found and "威尔克斯" not in found  # short forms of names the chunk gave in full
    report = "关于EDVAC的报告书的第一份草案"
    assert {("EDSAC", "createdBy", "莫里斯·威尔克斯"), ("EDSAC", "designBasedOn", report),
            (report, "createdBy", "约翰·冯·诺依曼"), ("约翰·冯·诺依曼", "bornIn", "布达佩斯")} <= triples(result)


def test_a_medicine_is_manufactured_not_authored(zh: ChineseExtractor) -> None:
    result = extract(zh, "蓝湾医药股份有限公司自主研发的抗肿瘤药物“蓝替尼”获得国家药品监督管理局批准上市。")
    assert {("蓝替尼", "manufacturedBy", "蓝湾医药股份有限公司"),
            ("蓝替尼", "approvedBy", "国家药品监督管理局")} <= triples(result)


def test_a_relation_keeps_the_words_the_text_stated_it_with(zh: ChineseExtractor) -> None:
    """The clause's own verb is the relation's "said" property; the graph embeds it beside the English
    predicate name, so a Chinese question's 出生 / 作者 / 依据 meet the facts (tests/test_frag_said_words.py)."""
    result = extract(zh, "EDSAC（电子延迟存储自动计算器）由莫里斯·威尔克斯在剑桥大学数学实验室建造。"
                         "威尔克斯根据约翰·冯·诺依曼的《关于EDVAC的报告书的第一份草案》设计了EDSAC。"
                         "约翰·冯·诺依曼是匈牙利裔美国数学家，1903年12月28日出生于布达佩斯。"
                         "1945年，冯·诺依曼撰写了《关于EDVAC的报告书的第一份草案》。")
    said = {(r.subject.name, r.predicate, r.object.name): r.properties.get("said") for r in result.relations}
    report = "关于EDVAC的报告书的第一份草案"
    assert said[("约翰·冯·诺依曼", "bornIn", "布达佩斯")] == "出生于"
    assert said[(report, "createdBy", "约翰·冯·诺依曼")] == "撰写"
    assert said[("EDSAC", "designBasedOn", report)] == "根据"


# ---------------------------------------------------------------- company reports (issue 25, second session)
# Sentences written for these tests in the style of annual-report sections; the bench's report paragraphs
# (bench/data/zh_report_gold.json) are not used here.


def test_a_short_name_opening_a_clause_is_the_company(zh: ChineseExtractor) -> None:
    """A report declares a short name once, often in another chunk, then writes only it."""
    result = extract(zh, "2023年，青松医疗实现营业收入12.4亿元，同比增长5.1%。截至报告期末，青松医疗共有在职员工1,860人。")
    assert entities(result).get("青松医疗") == "Company"
    assert {("青松医疗", "营业收入", "12.4亿元"), ("青松医疗", "在职员工", "1,860人")} <= triples(result)
    assert ("青松医疗", "营业收入", "12.4亿元", "同比增长", "5.1%") in qualifiers(result)
    # what opens report clauses without naming a company is no name
    plain = extract(zh, "2023年，公司实现营业收入12.4亿元。全年实现净利润1.1亿元，上半年营业收入下降。")
    assert not {"公司", "全年", "上半年", "营业收入"} & entities(plain).keys()


def test_shareholders_and_the_share_they_hold(zh: ChineseExtractor) -> None:
    result = extract(zh, "截至2022年末，蓝海物流的控股股东为华东交通投资集团有限公司，持股比例为38.6%，实际控制人为王志强。")
    assert entities(result).get("王志强") == "Person"
    assert {("蓝海物流", "ownedBy", "华东交通投资集团有限公司"), ("蓝海物流", "ownedBy", "王志强")} <= triples(result)
    assert ("蓝海物流", "ownedBy", "华东交通投资集团有限公司", "比例", "38.6%") in qualifiers(result)
    # the shareholder named first is not itself owned by the controller named next
    said_of_us = extract(zh, "本公司控股股东为东方能源集团，实际控制人为国务院国有资产监督管理委员会。")
    assert not {t for t in triples(said_of_us) if t[1] == "ownedBy"}


def test_a_couple_in_control_are_spouses(zh: ChineseExtractor) -> None:
    result = extract(zh, "公司实际控制人为林国栋、林美华夫妇。")
    assert {"林国栋", "林美华"} <= {n for n, c in entities(result).items() if c == "Person"}
    assert ("林国栋", "spouse", "林美华") in triples(result)


def test_appointments_and_the_legal_representative_work_for_the_company(zh: ChineseExtractor) -> None:
    result = extract(zh, "2022年5月，远景新材董事会聘任周立新为公司总经理，聘任许丽为财务总监。")
    assert {("周立新", "worksFor", "远景新材"), ("许丽", "worksFor", "远景新材")} <= triples(result)
    assert ("周立新", "worksFor", "远景新材", "时间", "2022年5月") in qualifiers(result)
    seat = extract(zh, "华宇电气股份有限公司于2005年在安徽省合肥市注册成立，2012年在深圳证券交易所中小板上市，"
                       "法定代表人为吴海涛。")
    assert {("华宇电气股份有限公司", "foundedOn", "2005年"), ("华宇电气股份有限公司", "locatedIn", "合肥市"),
            ("华宇电气股份有限公司", "listedIn", "深圳证券交易所"),
            ("吴海涛", "worksFor", "华宇电气股份有限公司")} <= triples(seat)
    assert ("华宇电气股份有限公司", "listedIn", "深圳证券交易所", "时间", "2012年") in qualifiers(seat)


def test_listed_subsidiaries_with_verbs_and_a_bracketed_place_in_their_names(zh: ChineseExtractor) -> None:
    result = extract(zh, "华宇电气的主要子公司包括合肥华宇变压器制造有限公司和华宇电气（香港）有限公司。")
    found = entities(result)
    assert found.get("合肥华宇变压器制造有限公司") == "Company" and found.get("华宇电气（香港）有限公司") == "Company"
    assert "主要子公司" not in found
    assert {("合肥华宇变压器制造有限公司", "partOf", "华宇电气"),
            ("华宇电气（香港）有限公司", "partOf", "华宇电气")} <= triples(result)


def test_a_quoted_product_typed_by_the_noun_after_it_holds_its_award(zh: ChineseExtractor) -> None:
    result = extract(zh, "公司“天工T3”工业机器人荣获中国工业大奖，董事长郑明荣获“全国劳动模范”称号。")
    found = entities(result)
    assert found.get("天工T3") == "ArtificialObject" and found.get("全国劳动模范") == "Award"
    assert {("天工T3", "awardReceived", "中国工业大奖"), ("郑明", "awardReceived", "全国劳动模范")} <= triples(result)
    assert all(t[0] != "郑明" or t[2] != "中国工业大奖" for t in triples(result))


def test_a_country_right_before_a_company_is_where_it_is(zh: ChineseExtractor) -> None:
    result = extract(zh, "2023年3月，星光电子与日本索尼公司签署战略合作协议。")
    assert {("索尼公司", "locatedIn", "日本"), ("星光电子", "cooperateWith", "索尼公司")} <= triples(result)


def test_a_short_name_jieba_cuts_apart_and_a_subsidiary_after_its_kind(zh: ChineseExtractor) -> None:
    """Short names jieba cuts into a place and single characters (黄河 | 新 | 能) still open a clause as the
    company, also before 在 PLACE 发布; 全资子公司 before a name is what it is, not part of it; a quoted
    name conferred (获评“…”) is an award."""
    result = extract(zh, "2023年，黄河新能实现营业收入20.1亿元。5月20日，天目科技在杭州发布新一代智能手机“天目G2”。")
    found = entities(result)
    assert found.get("黄河新能") == "Company" and found.get("天目科技") == "Company"
    assert {("黄河新能", "营业收入", "20.1亿元"), ("天目科技", "release", "天目G2")} <= triples(result)
    sub = extract(zh, "报告期内，公司新设全资子公司宁波天目电子有限公司。董事长郑明获评“浙江省劳动模范”。")
    found = entities(sub)
    assert found.get("宁波天目电子有限公司") == "Company" and not any(n.startswith("全资") or n.startswith("子公司")
                                                                     for n in found)
    assert found.get("浙江省劳动模范") == "Award" and ("郑明", "awardReceived", "浙江省劳动模范") in triples(sub)


def test_names_jieba_cuts_at_a_direction_word_and_a_bank_inside_a_product(zh: ChineseExtractor) -> None:
    """西部 | 启航 stops the walk back from …有限公司: the declared short name shows where the name starts,
    also for another company named with it; 董事长为 P names a person; 核心银行系统 is no bank and
    销售子公司 no company's name; 经营 is part of a company's name."""
    result = extract(zh, "西部启航软件股份有限公司（以下简称“西部启航”）的控股股东为西部启航控股有限公司。"
                         "公司董事长为钟浩然。西部启航推出新一代核心银行系统“启航云”，并设立销售子公司。")
    found = entities(result)
    assert found.get("西部启航软件股份有限公司") == "Company" and found.get("西部启航控股有限公司") == "Company"
    assert found.get("钟浩然") == "Person" and not {"核心银行", "销售子公司"} & found.keys()
    assert {("西部启航软件股份有限公司", "ownedBy", "西部启航控股有限公司"),
            ("钟浩然", "worksFor", "西部启航软件股份有限公司")} <= triples(result)
    state = extract(zh, "公司控股股东为常州市国有资产投资经营有限公司。")
    assert entities(state).get("常州市国有资产投资经营有限公司") in ("Company", "GovernmentAgency")


def test_a_short_name_found_once_wins_over_the_place_jieba_cuts_from_it_later(zh: ChineseExtractor) -> None:
    """The second 云岭新能 of a chunk is cut 云岭 (a place) | 新能: the company's name found at the clause start
    wins there too, so 该公司成为…的控股子公司 holds between the two companies (该公司: the one bought)."""
    result = extract(zh, "2024年3月，云岭新能以2.6亿元收购贵州黔丰锂业有限公司70%的股权，收购完成后该公司成为云岭新能的"
                         "控股子公司。")
    assert "云岭" not in entities(result)
    assert {("云岭新能", "acquire", "贵州黔丰锂业有限公司"), ("贵州黔丰锂业有限公司", "partOf", "云岭新能")} <= triples(result)


def test_the_employer_between_an_appointment_and_its_title(zh: ChineseExtractor) -> None:
    """聘任 P 为 X 总经理: X is the employer, whatever jieba cut it into; a department before a title is none."""
    result = extract(zh, "2024年1月，公司董事会审议通过，聘任韩志勇为云岭新能副总经理，聘任赵婷为财务部经理。")
    found = entities(result)
    assert found.get("云岭新能") == "Company" and "财务部" not in found and "云岭" not in found
    assert ("韩志勇", "worksFor", "云岭新能") in triples(result)
    units = extract(zh, "董事会同意任命赵立为华东区域总经理，任命钱多多为电商业务负责人。")
    assert not {"华东区域", "电商业务"} & entities(units).keys()  # a region, a line of business: no employers


def test_titles_that_open_a_clause_or_are_joined_by_jian(zh: ChineseExtractor) -> None:
    """公司董事长兼总经理为 P; a clause that opens with a title (…，总经理为 P / 董事长 P 获评…) speaks of the
    organisation the sentence is about; a former holder (原总经理) worked there too (30 of the 34 former holders in
    the labelled sets are labelled so)."""
    joined = extract(zh, "江海化工总部位于江苏省南通市。公司董事长兼总经理为罗振宇。")
    assert ("罗振宇", "worksFor", "江海化工") in triples(joined)
    opened = extract(zh, "报告期内，北辰精密荣获“国家级专精特新小巨人企业”称号，董事长陆文杰获评“江苏省优秀企业家”。")
    assert {("陆文杰", "worksFor", "北辰精密"), ("陆文杰", "awardReceived", "江苏省优秀企业家")} <= triples(opened)
    former = extract(zh, "2023年5月，江海化工董事会聘任孟凡军为总经理。原总经理吴德胜因退休辞去职务。")
    assert ("孟凡军", "worksFor", "江海化工") in triples(former)
    assert ("吴德胜", "worksFor", "江海化工") in triples(former)


def test_products_listed_new_subsidiaries_and_their_registered_seat(zh: ChineseExtractor) -> None:
    """主要产品包括“A”…和“B”…: the company's products; 新设全资子公司 X，注册地为 COUNTRY CITY: X is part of
    the company and seated in the city (jieba tags 汉堡 a common word, 慕尼黑 a person's name)."""
    products = extract(zh, "海川环境主要从事水处理设备的研发和制造，主要产品包括“清流”系列膜过滤设备和“净源”系列污水处理设备。")
    assert {("清流", "createdBy", "海川环境"), ("净源", "createdBy", "海川环境")} <= triples(products)
    seat = extract(zh, "报告期内，北辰精密新设全资子公司北辰精密欧洲有限公司，注册地为德国慕尼黑；控股子公司常州北辰传动"
                       "有限公司完成增资。")
    found = triples(seat)
    assert {("北辰精密欧洲有限公司", "partOf", "北辰精密"), ("北辰精密欧洲有限公司", "headquarteredIn", "慕尼黑"),
            ("慕尼黑", "locatedIn", "德国"), ("常州北辰传动有限公司", "partOf", "北辰精密")} <= found


def test_a_kind_before_a_quoted_name_and_the_approval_of_the_work_it_names(zh: ChineseExtractor) -> None:
    """抗肿瘤新药“X”: the phrase before the quote says what X is and names nothing; 该药…获得 AGENCY 批准: the
    drug was approved, not the company that released it."""
    result = extract(zh, "6月18日，蓝湾医药在北京发布自主研发的降血糖新药“蓝格列汀”，该药已于2024年5月获得国家药品监督管理局"
                         "批准上市。")
    found = entities(result)
    assert "降血糖新药" not in found and found.get("蓝格列汀") == "Medicine"
    assert ("蓝格列汀", "approvedBy", "国家药品监督管理局") in triples(result)
    assert ("蓝湾医药", "approvedBy", "国家药品监督管理局") not in triples(result)


def test_a_founder_named_after_a_company_acts_in_the_clauses_after(zh: ChineseExtractor) -> None:
    """蔚来创始人李斌毕业于北京大学，…创办易车网: the person before 毕业于 is the one educated and, in a clause
    without a subject of its own, the founder; a founder is not thereby said to work there."""
    result = extract(zh, "星火教育集团创始人沈立群毕业于复旦大学，2003年在上海创办星火培训学校。")
    found = triples(result)
    assert {("星火教育集团", "foundedBy", "沈立群"), ("沈立群", "educatedAt", "复旦大学"),
            ("星火培训学校", "foundedBy", "沈立群")} <= found
    assert ("沈立群", "worksFor", "星火教育集团") not in found


def test_a_name_jieba_cuts_oddly_between_a_title_and_a_verb(zh: ChineseExtractor) -> None:
    """首席技术官周靖人出席: jieba cuts 周靖 | 人; between a title and what people do the surname and one or two
    characters are the name."""
    result = extract(zh, "9月3日，华云智能集团发布了新一代云计算平台“华云天工”，华云智能集团首席技术官周靖人出席发布会。")
    assert entities(result).get("周靖人") == "Person"
    assert ("周靖人", "worksFor", "华云智能集团") in triples(result)


def test_names_of_ministries_groups_and_schools_jieba_cuts_short_or_long(zh: ChineseExtractor) -> None:
    """国家发展和改革委员会 / 工业和信息化部 join two fields with 和; 吉利控股集团有限公司 ends at its legal form,
    not at 集团; 清华大学电子工程系 (one token to jieba) is the university and a department; 香港联合交易所
    keeps 联合 after the place (固态电池联合实验室 stays no name)."""
    bodies = extract(zh, "国家发展和改革委员会日前批复了该项目，工业和信息化部同时发布了配套政策。")
    found = entities(bodies)
    assert found.get("国家发展和改革委员会") == "GovernmentAgency" and found.get("工业和信息化部") == "GovernmentAgency"
    deal = extract(zh, "浙江吉利控股集团有限公司于2010年以18亿美元收购瑞典沃尔沃轿车公司100%的股权。")
    assert ("浙江吉利控股集团有限公司", "acquire", "沃尔沃轿车公司") in triples(deal)
    school = extract(zh, "周明毕业于清华大学电子工程系，现任华宇电子董事长。")
    assert ("周明", "educatedAt", "清华大学") in triples(school)
    listed = extract(zh, "腾讯控股有限公司于2004年在香港联合交易所上市。双方将共建固态电池联合实验室。")
    assert ("腾讯控股有限公司", "listedIn", "香港联合交易所") in triples(listed)
    assert "固态电池联合实验室" not in entities(listed)


def test_the_person_of_a_clause_is_the_one_before_its_verb_or_carried_on(zh: ChineseExtractor) -> None:
    """美团创始人王兴毕业于…，后赴美国特拉华大学攻读…: a clause without a subject goes on with the person the
    sentence had act; 创始人马化腾现任腾讯董事会主席: the person right before 现任 holds the post."""
    abroad = extract(zh, "美团创始人王兴毕业于清华大学，后赴美国特拉华大学攻读博士学位。")
    assert {("王兴", "educatedAt", "清华大学"), ("王兴", "educatedAt", "特拉华大学")} <= triples(abroad)
    post = extract(zh, "腾讯控股有限公司（以下简称“腾讯”）成立于1998年，创始人马化腾现任腾讯董事会主席。")
    assert ("马化腾", "worksFor", "腾讯控股有限公司") in triples(post)
    term = extract(zh, "公司聘任李明为副总经理，任期自本次董事会审议通过之日起计算。")
    assert not triples(term)  # no company named: nobody's employer


def test_report_verbs_and_things_are_no_places_or_medicines(zh: ChineseExtractor) -> None:
    """新建 is a verb of reports though jieba lists it as a place (新建县); 集成电路芯片 is no -片 medicine; a writer
    before 创作 is a person; the companies listed before 等合资企业 are part of the owner (旗下拥有…)."""
    built = extract(zh, "苹果公司计划于明年在印度新建两座工厂。中芯国际是中国大陆规模最大的集成电路芯片制造企业。")
    found = entities(built)
    assert "新建" not in found and not any(n.endswith("芯片") for n in found)
    novel = extract(zh, "《三体》是刘慈欣创作的长篇科幻小说。")
    assert ("三体", "createdBy", "刘慈欣") in triples(novel)
    group = extract(zh, "上海汽车集团股份有限公司旗下拥有上汽大众、上汽通用等合资企业。")
    assert {("上汽大众", "partOf", "上海汽车集团股份有限公司"),
            ("上汽通用", "partOf", "上海汽车集团股份有限公司")} <= triples(group)


def test_a_fragment_of_a_company_name_is_none_and_an_announcing_company_opens_its_clause(zh: ChineseExtractor) -> None:
    """深圳市大疆创新科技有限公司: 创新 is a word of company names, and a walk cut short (科技有限公司) is a
    fragment, never a name; 理想汽车宣布任命 P 为公司总裁: the announcing company is the employer."""
    made = extract(zh, "深圳市大疆创新科技有限公司成立于2006年，总部位于深圳。")
    found = entities(made)
    assert found.get("深圳市大疆创新科技有限公司") == "Company" and "科技有限公司" not in found
    assert ("深圳市大疆创新科技有限公司", "foundedOn", "2006年") in triples(made)
    named = extract(zh, "2024年2月，理想汽车宣布任命马东辉为公司总裁。")
    assert ("马东辉", "worksFor", "理想汽车") in triples(named)


# Rules written after held-out-3 (bench/data/zh_heldout3_gold.json) was scored once with the rules frozen: its
# misses showed these general defects; the sentences here are written for the tests, not taken from that set.

def test_short_names_of_three_characters_and_names_jieba_stops_short(zh: ChineseExtractor) -> None:
    """A three-character short name opens a report clause (蓝鲸 | 湾实现营业收入); a company name whose walk back
    stopped at an ordinary word (新锐, 市场) runs back to the verb or the clause start before it; an ordinary
    word before a word of company names (宏达电子) starts a short name; 总局 ends a government body's name."""
    three = extract(zh, "2024年，蓝鲸湾实现营业收入12.3亿元，同比增长5.1%。")
    assert ("蓝鲸湾", "营业收入", "12.3亿元") in triples(three)
    founded = extract(zh, "1998年在苏州创办新锐电子有限公司，现任该公司董事长。")
    assert entities(founded).get("新锐电子有限公司") == "Company"
    listed = extract(zh, "3月2日，上海新锐微电子股份有限公司在上海证券交易所上市。")
    assert ("上海新锐微电子股份有限公司", "listedIn", "上海证券交易所") in triples(listed)
    owned = extract(zh, "截至2023年末，宏达电子的控股股东为张强，持股比例为35.2%。")
    assert ("宏达电子", "ownedBy", "张强") in triples(owned)
    body = extract(zh, "国家市场监督管理总局近日发布了新版标准。")
    assert entities(body).get("国家市场监督管理总局") == "GovernmentAgency"


def test_who_acts_a_place_a_work_and_a_post_taken_over(zh: ChineseExtractor) -> None:
    """在苏州创办: the place is where, not who; a country before a company buys nothing (the company does);
    作家 P 的长篇小说《W》…出版: W is what the sentence is about, and P's; an agency 批准了 a quoted drug, and
    该药由 X 研发 speaks of the drug; 原副总经理 P 接任集团总经理: P now works there."""
    founded = extract(zh, "刘长河，1960年出生于江苏省无锡市，1995年在苏州创办长河精工有限公司。")
    assert ("长河精工有限公司", "foundedBy", "刘长河") in triples(founded)
    bought = extract(zh, "当地时间5月8日，法国能源企业博越集团宣布，将以8亿欧元收购美国德州的光伏企业阳光谷公司。")
    assert ("博越集团", "acquire", "阳光谷公司") in triples(bought)
    assert not any(p == "acquire" and s == "法国" for s, p, _ in triples(bought))
    novel = extract(zh, "作家苏青禾的长篇小说《远山》于2022年由作家出版社出版。")
    assert {("远山", "createdBy", "苏青禾"), ("远山", "publishedBy", "作家出版社")} <= triples(novel)
    drug = extract(zh, "国家药品监督管理局日前批准了华康制药的创新药“康瑞宁”上市，该药由华康制药股份有限公司自主研发。")
    found = {(s, "createdBy" if p == "manufacturedBy" else p, o) for s, p, o in triples(drug)}
    assert {("康瑞宁", "approvedBy", "国家药品监督管理局"), ("康瑞宁", "createdBy", "华康制药股份有限公司")} <= found
    post = extract(zh, "4月2日，东海港务集团宣布，原副总经理孙立民接任集团总经理。")
    assert ("孙立民", "worksFor", "东海港务集团") in triples(post)


def test_figures_of_regions_staff_and_patents_and_a_car_in_quotes(zh: ChineseExtractor) -> None:
    """广东省地区生产总值…: a region's own figure right after its name (not 北京市海淀区的…园区 新增…); 在职员工总数
    is 员工总数; 累计获得发明专利 is 发明专利; “星驰S7” after 纯电动轿车 is a car."""
    region = extract(zh, "2023年，江苏省地区生产总值达到12.8万亿元，同比增长5.8%。")
    assert ("江苏省", "地区生产总值", "12.8万亿元") in triples(region)
    park = extract(zh, "北京市海淀区的中关村科技园区2023年新增高新技术企业2,300家。")
    assert not any(s == "北京市" for s, _, _ in triples(park))
    staff = extract(zh, "截至2023年末，蓝海精工在职员工总数为3,210人。2023年，蓝海精工研发投入2.1亿元，累计获得发明专利120项。")
    assert {("蓝海精工", "员工总数", "3,210人"), ("蓝海精工", "发明专利", "120项")} <= triples(staff)
    car = extract(zh, "9月5日，星驰汽车在上海发布了首款纯电动轿车“星驰S7”。")
    assert ("星驰汽车", "release", "星驰S7") in triples(car)
