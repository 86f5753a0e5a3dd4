"""Rare characters in names, spouses and founders of a filing, awards conferred with 被…评为, makers that cooperate,
and where a person worked (issue 25, ninth session, from held-out-9's false and missed relations sorted by cause beside
held-out-8's and held-out-7's: both later writers named companies with characters jieba's dictionary lacks (鄂凇电气,
闽泓冷链), wrote 其妻子 / 其配偶 after a chairman, 与自然人X共同发起设立, 公司被…评为“…”, 由A与B合作研发 and
此前在X从事…工作, and described a founder before 的 after 由). Each test is a sentence written for it (not one of the
bench's labelled paragraphs) and fails on the code before these rules."""

from __future__ import annotations

from test_zh_open_extract import extract, triples
from test_zh_open_extract import zh as zh  # the open-domain extractor, one per module (a fixture)

from kgbuild.extract.zh.extractor import ChineseExtractor


def test_a_short_name_with_a_rare_character_has_its_figures(zh: ChineseExtractor) -> None:
    # 潆 is in neither jieba's dictionary nor its character model: it is tagged x, like punctuation
    result = extract(zh, "2023年度，皖潆新材实现营业收入12.6亿元，同比增长9.2%。截至报告期末，合肥潆源控股有限公司持有"
                         "公司30%的股份。")
    facts = triples(result)
    assert ("皖潆新材", "营业收入", "12.6亿元") in facts
    assert "合肥潆源控股有限公司" in {e.name for e in result.entities}


def test_a_rare_character_tagged_as_a_measure_word_stays_in_a_full_name(zh: ChineseExtractor) -> None:
    result = extract(zh, "报告期内，苏州泓源控股有限公司完成对常熟纺机厂的整合。")
    assert "苏州泓源控股有限公司" in {e.name for e in result.entities}


def test_a_stake_named_by_the_company_bought_is_no_figure(zh: ChineseExtractor) -> None:
    # (the company in a place of another country, after 的: the stake was once read as a figure named by the company)
    result = extract(zh, "2024年3月，宁远电子股份有限公司以1.2亿元现金收购越南海防的安庆华宁化工有限公司60%的股权。")
    facts = triples(result)
    assert ("宁远电子股份有限公司", "acquire", "安庆华宁化工有限公司") in facts
    assert not any(p == "安庆华宁化工有限公司" for _, p, _ in facts)


def test_其妻子_after_a_chairman_is_his_spouse_and_a_natural_person_a_founder(zh: ChineseExtractor) -> None:
    result = extract(zh, "宁远电子股份有限公司成立于2005年，由华辰投资集团有限公司与自然人陈立群共同发起设立。陈立群现任"
                         "公司董事长，其妻子柳若溪任董事兼副总经理。")
    facts = triples(result)
    assert ("陈立群", "spouse", "柳若溪") in facts
    assert ("宁远电子股份有限公司", "foundedBy", "陈立群") in facts
    assert ("宁远电子股份有限公司", "foundedBy", "华辰投资集团有限公司") in facts


def test_被_a_body_评为_an_award_is_received_by_the_subject(zh: ChineseExtractor) -> None:
    result = extract(zh, "2024年11月，宁远电子股份有限公司被国家知识产权局评为“国家知识产权示范企业”。")
    assert ("宁远电子股份有限公司", "awardReceived", "国家知识产权示范企业") in triples(result)


def test_a_founder_described_before_的_after_由(zh: ChineseExtractor) -> None:
    result = extract(zh, "青石咖啡有限公司由咖啡师出身的邵望川于2016年在厦门市思明区创办。")
    facts = triples(result)
    assert ("青石咖啡有限公司", "foundedBy", "邵望川") in facts
    assert not any(o.endswith("的邵望川") for _, _, o in facts)


def test_makers_after_由_that_develop_together_cooperate(zh: ChineseExtractor) -> None:
    result = extract(zh, "8月2日，恒曜医药有限公司发布新药“恒曜宁”。该药由恒曜医药有限公司与四川大学华西药学院合作研发。")
    assert ("恒曜医药有限公司", "cooperateWith", "四川大学华西药学院") in triples(result)


def test_在_a_body_从事_work_is_working_for_it(zh: ChineseExtractor) -> None:
    result = extract(zh, "宁远电子聘任万启舟先生为财务总监。万启舟此前在天健会计师事务所从事审计工作十年。")
    assert ("万启舟", "worksFor", "天健会计师事务所") in triples(result)


def test_the_holder_before_持有公司_that_is_the_controlling_shareholder_owns_the_company(zh: ChineseExtractor) -> None:
    result = extract(zh, "宁远电子股份有限公司于2019年在上海证券交易所上市。截至2024年末，华辰投资集团有限公司持有公司38.2%"
                         "的股份，系公司控股股东；其董事长陈立群为公司实际控制人。")
    facts = triples(result)
    assert ("宁远电子股份有限公司", "ownedBy", "华辰投资集团有限公司") in facts
    assert ("宁远电子股份有限公司", "ownedBy", "陈立群") in facts
    owned = next(r for r in result.relations if r.predicate == "ownedBy" and r.object.name == "华辰投资集团有限公司")
    shares = {h.object.name for h in result.hypernodes if h.subject.id == owned.id and h.predicate == "比例"}
    assert shares == {"38.2%"}


def test_创办该公司_after_a_person_founds_the_company_named_before(zh: ChineseExtractor) -> None:
    result = extract(zh, "青石咖啡创始人邵望川毕业于厦门大学，2016年创办该公司，此前在星巴克中国从事门店管理工作。")
    founding = [r for r in result.relations if r.predicate == "foundedBy" and r.subject.name == "青石咖啡"]
    assert [r.object.name for r in founding] == ["邵望川"]
    when = {h.object.name for h in result.hypernodes if h.subject.id == founding[0].id and h.predicate == "时间"}
    assert when == {"2016年"}
    assert ("厦门大学", "foundedBy", "邵望川") not in triples(result)


def test_获奖_after_a_prize_named_before_goes_to_the_work_or_the_people(zh: ChineseExtractor) -> None:
    result = extract(zh, "10月8日，第五届“滇池文学奖”评选结果揭晓，作家苏晚亭的长篇小说《湖畔人家》获奖。这部作品由云南人民"
                         "出版社于2023年出版。")
    facts = triples(result)
    assert ("湖畔人家", "awardReceived", "滇池文学奖") in facts
    assert ("湖畔人家", "publishedBy", "云南人民出版社") in facts
    assert not any(n.endswith("获奖") for n in {e.name for e in result.entities})
    people = extract(zh, "12月2日，第三届“西湖企业家奖”评选结果揭晓，杭州云帆科技有限公司董事长王建华、宁波海程物流有限公司"
                         "总经理李晓梅等八人获奖。")
    assert {(s, o) for s, p, o in triples(people) if p == "awardReceived"} == {
        ("王建华", "西湖企业家奖"), ("李晓梅", "西湖企业家奖")}


def test_a_bio_year_with_生_a_figure_after_年末_and_曾_after_a_name(zh: ChineseExtractor) -> None:
    result = extract(zh, "宁远电子聘任韩望北先生为公司总经理。韩望北，1975年生，工学博士。宁远电子的创始人冯若川曾在华为技术"
                         "有限公司担任工程师。截至2024年末宁远电子资产总额为52.3亿元。")
    facts = triples(result)
    assert ("韩望北", "bornOn", "1975年") in facts
    assert ("宁远电子", "资产总额", "52.3亿元") in facts
    assert "冯若川" in {e.name for e in result.entities}
    assert not any(p.startswith("末") for _, p, _ in facts)


def test_a_company_listed_somewhere_is_the_subject_and_its_founders_hold_no_capital(zh: ChineseExtractor) -> None:
    result = extract(zh, "9月5日，在深圳证券交易所上市的宁远电子股份有限公司宣布，以2.1亿元收购东莞恒川模具有限公司51%的股权。"
                         "宁川航空有限公司由华辰投资集团有限公司与南岭航空股份有限公司于2022年共同出资设立，注册资本8亿元。")
    facts = triples(result)
    assert ("宁远电子股份有限公司", "acquire", "东莞恒川模具有限公司") in facts
    assert ("深圳证券交易所", "acquire", "东莞恒川模具有限公司") not in facts
    assert ("宁川航空有限公司", "注册资本", "8亿元") in facts
    assert ("南岭航空股份有限公司", "注册资本", "8亿元") not in facts


def test_a_publisher_said_with_发行商为_and_a_long_product_noun(zh: ChineseExtractor) -> None:
    result = extract(zh, "由成都青岚网络科技有限公司开发的游戏《远山行》于5月8日发售，发行商为上海云栖文化传播有限公司。"
                         "6月2日，由星翼航空工业有限公司自主研制的“星翼-5”电动垂直起降飞行器完成首飞。")
    facts = triples(result)
    assert ("远山行", "publishedBy", "上海云栖文化传播有限公司") in facts
    assert ("星翼-5", "createdBy", "星翼航空工业有限公司") in facts


def test_a_county_head_works_for_its_government(zh: ChineseExtractor) -> None:
    result = extract(zh, "3月2日，宁远电子与安溪县人民政府签署投资协议，安溪县人民政府县长周立民出席签约仪式。")
    assert ("周立民", "worksFor", "安溪县人民政府") in triples(result)
