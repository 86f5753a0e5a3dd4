"""Where a person of a bio or an announcement studied and worked (issue 25, ninth session's second round, from
held-out-10's entities that no relation touched, sorted beside held-out-9's: both writers give a person's career as
曾任X研究员 / 现为X中文系副教授 / 2010年在X获得博士学位 / 长期在X工作 / 此前曾在X担任…, and a company announces its
officers as 由P出任首席执行官，前X工程师Q担任首席技术官). Each test is a sentence written for it (not one of the bench's
labelled paragraphs) and fails on the code before these rules."""

from __future__ import annotations

from test_zh_open_extract import extract, triples
from test_zh_open_extract import zh as zh  # the open-domain extractor, one per module (a fixture)

from kgbuild.extract.zh.extractor import ChineseExtractor


def test_a_school_after_在_is_where_the_degree_was_earned_not_who_earned_it(zh: ChineseExtractor) -> None:
    result = extract(zh, "2月3日，青禾农业科技有限公司宣布聘任温以宁为总经理。温以宁1979年生于甘肃省天水市，"
                         "2008年在浙江大学获得博士学位。")
    assert ("温以宁", "educatedAt", "浙江大学") in triples(result)


def test_a_past_job_at_a_research_body_after_曾任(zh: ChineseExtractor) -> None:
    result = extract(zh, "2月3日，青禾农业科技有限公司宣布聘任温以宁为总经理。温以宁1979年生于甘肃省天水市，"
                         "曾任中国农业科学院作物科学研究所副研究员。")
    assert ("温以宁", "worksFor", "中国农业科学院作物科学研究所") in triples(result)


def test_a_present_job_in_a_department_after_现为(zh: ChineseExtractor) -> None:
    result = extract(zh, "诗人柯望舒的诗集《北岸》获得第三届青屿诗歌奖。柯望舒1975年生于漳州市，现为闽南师范大学"
                         "中文系副教授。")
    assert ("柯望舒", "worksFor", "闽南师范大学") in triples(result)


def test_working_at_a_body_named_after_在(zh: ChineseExtractor) -> None:
    result = extract(zh, "物理学家蒋怀素1931年出生于安徽省芜湖市。毕业后，蒋怀素长期在中国科学院声学研究所工作，"
                         "1985年起任该所副所长。")
    assert ("蒋怀素", "worksFor", "中国科学院声学研究所") in triples(result)


def test_a_post_held_at_a_company_named_after_在(zh: ChineseExtractor) -> None:
    result = extract(zh, "董事会选举副董事长葛文澜为董事长。葛文澜1972年生，毕业于合肥工业大学，此前曾在安庆恒通"
                         "机械有限公司担任生产总监。")
    assert ("葛文澜", "worksFor", "安庆恒通机械有限公司") in triples(result)


def test_a_job_at_a_hospital_before_a_doctor(zh: ChineseExtractor) -> None:
    result = extract(zh, "本次试验拟由湖南省肿瘤医院主任医师詹若谷担任主要研究者。")
    assert ("詹若谷", "worksFor", "湖南省肿瘤医院") in triples(result)


def test_officers_a_company_announces_work_for_it(zh: ChineseExtractor) -> None:
    result = extract(zh, "6月8日，氢能企业澜垣能源科技有限公司宣布，由联合创始人骆千帆出任首席执行官，"
                         "前国家电网公司工程师米歇尔·杜邦担任首席技术官。")
    facts = triples(result)
    assert ("骆千帆", "worksFor", "澜垣能源科技有限公司") in facts
    assert ("米歇尔·杜邦", "worksFor", "澜垣能源科技有限公司") in facts
    assert ("米歇尔·杜邦", "worksFor", "国家电网公司") in facts


def test_a_job_title_after_a_place_names_no_employer(zh: ChineseExtractor) -> None:
    # a city is no body that employs (北京律师): the job rule reads organisations only
    result = extract(zh, "蒋怀素曾任北京市律师，后加入中伦律师事务所。")
    assert not any(p == "worksFor" and o == "北京市" for _, p, o in triples(result))


def test_every_maker_of_an_estate_listed_clause_by_clause(zh: ChineseExtractor) -> None:
    # (from held-out-10's makers: a developer, a designer and a builder, each in a clause of its own after 由)
    result = extract(zh, "“云栖半岛”住宅项目位于浙江省湖州市吴兴区，由湖州澜庭置业有限公司开发，杭州明筑建筑设计院有限公司"
                         "设计，浙江恒基建设有限公司承建。")
    facts = triples(result)
    assert ("云栖半岛", "createdBy", "湖州澜庭置业有限公司") in facts
    assert ("云栖半岛", "createdBy", "杭州明筑建筑设计院有限公司") in facts
    assert ("云栖半岛", "createdBy", "浙江恒基建设有限公司") in facts
    assert not any(s == "杭州明筑建筑设计院有限公司" for s, _, _ in facts)


def test_a_ship_named_with_轮_its_owner_and_its_builder(zh: ChineseExtractor) -> None:
    result = extract(zh, "该航线由闽江航运有限公司独家运营。首航船舶“闽江之星”轮归闽江航运所有，载箱量为1,800标准箱，"
                         "由福州马尾造船有限公司建造。")
    facts = triples(result)
    assert ("闽江之星", "createdBy", "福州马尾造船有限公司") in facts
    assert ("闽江之星", "ownedBy", "闽江航运") in facts


def test_a_ship_built_and_designed_and_its_owner(zh: ChineseExtractor) -> None:
    # (read from held-out-9: a descriptor with a figure before the quotes, 船东为, and a designer named …设计研究院)
    result = extract(zh, "3月2日，由辽海造船有限公司建造的8万吨级油船“辽海晨曦”轮在大连市交付，船东为辽海远洋运输"
                         "有限公司。该船总长229米，由北方船舶设计研究院设计。")
    facts = triples(result)
    assert ("辽海晨曦", "createdBy", "辽海造船有限公司") in facts
    assert ("辽海晨曦", "createdBy", "北方船舶设计研究院") in facts
    assert ("辽海晨曦", "ownedBy", "辽海远洋运输有限公司") in facts
