"""What another writer's formal prose (announcements, encyclopedia entries) says with references and declarations
the rules did not read (issue 25, seventh session, from held-out-6's misses sorted by cause): a full name declared
after the short name (X，全称Y), a period before a report's 公司 (本季度公司…), a period between a short name and
its figures, a predecessor reorganised into the subject (由X改制设立), a founder said with 为, a sentence opening
with 该公司. Each test is a sentence written for it (not one of the bench's labelled paragraphs) and fails on the
code before these rules."""

from __future__ import annotations

import pytest
from test_zh_open_extract import entities, extract, triples

from kgbuild.extract.zh.extractor import ChineseExtractor
from kgbuild.schema import resolve_schema


@pytest.fixture(scope="module")
def zh() -> ChineseExtractor:
    return ChineseExtractor(resolve_schema("open_domain"))


def test_a_full_name_declared_after_the_short_name(zh: ChineseExtractor) -> None:
    result = extract(zh, "松涛药业，全称湖南松涛药业股份有限公司，是一家以中成药为主业的制药企业，总部位于湖南省株洲市。")
    assert entities(result).get("湖南松涛药业股份有限公司") == "Company"
    assert "全称湖南松涛药业股份有限公司" not in entities(result)
    assert "松涛药业" in next(e.aliases for e in result.entities if e.name == "湖南松涛药业股份有限公司")
    assert ("湖南松涛药业股份有限公司", "headquarteredIn", "株洲市") in triples(result)


def test_a_period_opens_no_company_name(zh: ChineseExtractor) -> None:
    result = extract(zh, "本季度公司共交付新能源客车1,260辆，较上年同期增加210辆。")
    assert not any(name.endswith("公司") and name != "公司" for name in entities(result))


def test_a_period_between_a_short_name_and_its_figures(zh: ChineseExtractor) -> None:
    result = extract(zh, "松涛药业2024年上半年实现营业收入8.6亿元，同比增长5.2%。")
    assert entities(result).get("松涛药业") == "Company"
    assert ("松涛药业", "营业收入", "8.6亿元") in triples(result)


def test_what_a_company_sold_in_things_is_its_sales_volume(zh: ChineseExtractor) -> None:
    result = extract(zh, "2024年，湖南松涛药业股份有限公司共销售中药饮片2.1万吨，净利润为1.1亿元。")
    assert ("湖南松涛药业股份有限公司", "销量", "2.1万吨") in triples(result)


def test_a_predecessor_reorganised_into_the_company_and_a_founder_said_with_wei(zh: ChineseExtractor) -> None:
    result = extract(zh, "湖南松涛药业股份有限公司的创始人为邓秋林。该公司于1998年由株洲市中药厂改制设立，"
                         "2010年在上海证券交易所上市，目前员工总数约2,300人。")
    got = triples(result)
    assert {("湖南松涛药业股份有限公司", "foundedBy", "邓秋林"), ("湖南松涛药业股份有限公司", "predecessor", "株洲市中药厂"),
            ("湖南松涛药业股份有限公司", "listedIn", "上海证券交易所"),
            ("湖南松涛药业股份有限公司", "员工总数", "2,300人")} <= got
    assert ("湖南松涛药业股份有限公司", "foundedBy", "株洲市中药厂") not in got
    assert ("株洲市中药厂", "listedIn", "上海证券交易所") not in got


def test_a_couple_named_before_fuqi_are_people_whatever_jieba_cut(zh: ChineseExtractor) -> None:
    result = extract(zh, "苏州澄湖智能装备股份有限公司由贺启东、任晓岚夫妇于2012年在江苏省苏州市创办。")
    assert entities(result).get("贺启东") == "Person" and entities(result).get("任晓岚") == "Person"
    assert {("苏州澄湖智能装备股份有限公司", "foundedBy", "贺启东"), ("苏州澄湖智能装备股份有限公司", "foundedBy", "任晓岚"),
            ("贺启东", "spouse", "任晓岚")} <= triples(result)


def test_posts_in_a_report_sentence_with_no_body_named(zh: ChineseExtractor) -> None:
    # 任 opens 任晓岚 (a surname) and is the verb after it: only the second is one
    result = extract(zh, "苏州澄湖智能装备股份有限公司由贺启东、任晓岚夫妇创办。贺启东现任公司董事长，任晓岚任副董事长。")
    assert {("贺启东", "worksFor", "苏州澄湖智能装备股份有限公司"),
            ("任晓岚", "worksFor", "苏州澄湖智能装备股份有限公司")} <= triples(result)


def test_an_adverb_between_a_cue_and_its_verb(zh: ChineseExtractor) -> None:
    result = extract(zh, "湖南松涛药业股份有限公司注册地及总部均位于湖南省株洲市，控股股东为株洲国投集团有限公司，"
                         "实际控制人则为株洲市人民政府国有资产监督管理委员会。")
    got = triples(result)
    assert {("湖南松涛药业股份有限公司", "headquarteredIn", "株洲市"),
            ("湖南松涛药业股份有限公司", "ownedBy", "株洲市人民政府国有资产监督管理委员会")} <= got
    result = extract(zh, "董事会同意聘任邓秋林为公司总经理。邓秋林此前任湖南湘江医药集团有限公司副总经理。")
    assert ("邓秋林", "worksFor", "湖南湘江医药集团有限公司") in triples(result)


def test_the_date_and_place_inside_a_passive_founding(zh: ChineseExtractor) -> None:
    result = extract(zh, "苏州澄湖智能装备股份有限公司由邵明川于2012年在江苏省苏州市创办，主要生产工业机器人。")
    assert {("苏州澄湖智能装备股份有限公司", "foundedBy", "邵明川"), ("苏州澄湖智能装备股份有限公司", "foundedOn", "2012年"),
            ("苏州澄湖智能装备股份有限公司", "locatedIn", "苏州市")} <= triples(result)


def test_the_former_and_the_latter_and_the_said_subsidiary(zh: ChineseExtractor) -> None:
    result = extract(zh, "松涛药业的全资子公司则有株洲松涛医药物流有限公司和长沙松涛生物科技有限公司两家。"
                         "前者负责药品配送；后者由公司于2022年5月在长沙市新设，主要从事原料药研发。")
    got = triples(result)
    assert {("株洲松涛医药物流有限公司", "partOf", "松涛药业"), ("长沙松涛生物科技有限公司", "partOf", "松涛药业"),
            ("长沙松涛生物科技有限公司", "foundedOn", "2022年5月"),
            ("长沙松涛生物科技有限公司", "locatedIn", "长沙市")} <= got
    assert not any(p == "foundedBy" for _, p, _ in got)  # the report's company set it up: a subsidiary, no founder
    result = extract(zh, "湖南松涛药业股份有限公司已在泰国曼谷设立全资子公司松涛药业（泰国）有限公司，"
                         "该子公司注册资本为3,000万泰铢。")
    assert ("松涛药业（泰国）有限公司", "注册资本", "3,000万泰铢") in triples(result)


def test_a_degree_earned_at_a_school_and_a_school_joined(zh: ChineseExtractor) -> None:
    result = extract(zh, "邓秋林，1975年出生于湖南省长沙市，2004年在美国斯坦福大学获得博士学位，2009年加入浙江大学。")
    assert {("邓秋林", "educatedAt", "斯坦福大学"), ("邓秋林", "worksFor", "浙江大学")} <= triples(result)


def test_listed_on_the_board_of_an_exchange_with_denglu(zh: ChineseExtractor) -> None:
    result = extract(zh, "苏州澄湖智能装备股份有限公司成立于2012年，2021年6月登陆上海证券交易所科创板。")
    assert ("苏州澄湖智能装备股份有限公司", "listedIn", "上海证券交易所") in triples(result)


def test_a_descriptor_ends_what_comes_before_a_name(zh: ChineseExtractor) -> None:
    # jieba: 企业 | 莱茵 (a place) | 精密 (an adjective) | 技术 | 有限公司
    result = extract(zh, "德国汽车零部件企业莱茵精密技术有限公司宣布完成对一家传感器企业的收购。")
    assert entities(result).get("莱茵精密技术有限公司") == "Company"
    assert "莱茵" not in entities(result)


def test_hosts_listed_after_you_work_together(zh: ChineseExtractor) -> None:
    result = extract(zh, "“楚风汉韵——荆州出土漆器特展”9月1日开幕，该展览由湖南省博物馆与荆州博物馆联合主办。")
    assert ("湖南省博物馆", "cooperateWith", "荆州博物馆") in triples(result)


def test_two_people_pointed_back_at_own_the_company(zh: ChineseExtractor) -> None:
    result = extract(zh, "苏州澄湖智能装备股份有限公司由贺启东、任晓岚夫妇创办。贺启东现任公司董事长，任晓岚任副董事长；"
                         "二人合计持有公司61.2%的股份，为公司的共同实际控制人。")
    assert {("苏州澄湖智能装备股份有限公司", "ownedBy", "贺启东"),
            ("苏州澄湖智能装备股份有限公司", "ownedBy", "任晓岚")} <= triples(result)


def test_a_buyer_named_by_its_short_name_after_bei(zh: ChineseExtractor) -> None:
    # jieba: 被 | 澄湖 (a place) | 智能: the short name between 被 and the price is the buyer
    result = extract(zh, "2023年5月，无锡恒泰精工有限公司80%股权被澄湖智能以1.6亿元现金收购。交易完成后，"
                         "该公司成为澄湖智能的控股子公司。")
    assert entities(result).get("澄湖智能") == "Company"
    assert {("澄湖智能", "acquire", "无锡恒泰精工有限公司"), ("无锡恒泰精工有限公司", "partOf", "澄湖智能")} <= triples(result)


def test_its_work_is_the_persons_and_the_clauses_subject(zh: ChineseExtractor) -> None:
    result = extract(zh, "邓秋林，1942年生于湖南省长沙市，植物学家。其代表著作《南岭植物志》于1990年由科学出版社出版。")
    assert {("南岭植物志", "createdBy", "邓秋林"), ("南岭植物志", "publishedBy", "科学出版社")} <= triples(result)


def test_cities_listed_after_a_provinces_first_city_are_in_it(zh: ChineseExtractor) -> None:
    result = extract(zh, "连接四川省成都市与绵阳市的成绵城际铁路于12月20日开通。")
    assert {("成都市", "locatedIn", "四川省"), ("绵阳市", "locatedIn", "四川省")} <= triples(result)
    result = extract(zh, "该公司在江苏省南京市和上海市设有研发中心。")
    assert ("上海市", "locatedIn", "江苏省") not in triples(result)  # a municipality is in no province


def test_the_maker_releases_the_work_the_clause_opens_with(zh: ChineseExtractor) -> None:
    result = extract(zh, "5月12日，由苏州澄湖智能装备股份有限公司研制的焊接机器人“澄焊H3”在上海正式发布。"
                         "据介绍，该机器人已在中国中车股份有限公司下属的6家工厂试用。")
    got = triples(result)
    assert {("澄焊H3", "createdBy", "苏州澄湖智能装备股份有限公司"),
            ("苏州澄湖智能装备股份有限公司", "release", "澄焊H3")} <= got
    # a count after 下属的 says what the company has, not what the subject is
    assert ("苏州澄湖智能装备股份有限公司", "partOf", "中国中车股份有限公司") not in got


def test_a_maker_named_in_two_pieces_makes_nothing(zh: ChineseExtractor) -> None:
    # jieba cuts 中国科学院大连化学物理研究所 at 大连 (an adverb in its dictionary): neither piece is the maker (since
    # the thirteenth session's second round the name is read whole, 大连 being a city, and the whole makes it)
    result = extract(zh, "由中国科学院大连化学物理研究所研发的储能系统“海融二号”日前通过专家验收。")
    assert {(s, o) for s, p, o in triples(result) if p == "createdBy"} <= {("海融二号", "中国科学院大连化学物理研究所")}


def test_a_name_after_a_title_ends_with_the_clause(zh: ChineseExtractor) -> None:
    # jieba: 谭松 | 年 (a number word)
    result = extract(zh, "湘江重工有限公司宣布，龚明出任该公司总裁，接替已经退休的创始人谭松年。")
    assert entities(result).get("谭松年") == "Person"
    assert "谭松" not in entities(result)
    # where jieba saw no name, a title inside a place (湖南省长沙市: 省长) opens none
    result = extract(zh, "刘思远，1975年生于湖南省长沙市。")
    assert "沙市" not in entities(result)


def test_staying_at_the_school_and_posts_at_schools_and_museums(zh: ChineseExtractor) -> None:
    result = extract(zh, "邓秋林，1931年生于湖南省长沙市。她于1953年毕业于湖南师范学院，随后留校任教。")
    assert ("邓秋林", "worksFor", "湖南师范学院") in triples(result)
    result = extract(zh, "浙江大学决定任命邵明川教授为浙江大学医学院院长。")
    assert ("邵明川", "worksFor", "浙江大学医学院") in triples(result)
    result = extract(zh, "该展览的策展人为湖南省博物馆研究馆员祁文渊。")
    assert ("祁文渊", "worksFor", "湖南省博物馆") in triples(result)


def test_gai_gongsi_is_the_company_named_last_before(zh: ChineseExtractor) -> None:
    result = extract(zh, "2019年，湖南松涛药业股份有限公司收购了株洲恒康制药有限公司。该公司于2012年在深圳证券交易所上市。")
    assert ("株洲恒康制药有限公司", "listedIn", "深圳证券交易所") in triples(result)
    assert ("湖南松涛药业股份有限公司", "listedIn", "深圳证券交易所") not in triples(result)


def test_the_latter_among_people_and_membership_is_no_employment(zh: ChineseExtractor) -> None:
    result = extract(zh, "董事长邵明川与总经理任晓东均毕业于浙江大学。前者曾任杭州钢铁集团有限公司副总经理；"
                         "后者于2015年加入苏州澄湖智能装备股份有限公司。")
    got = triples(result)
    assert ("任晓东", "worksFor", "苏州澄湖智能装备股份有限公司") in got
    assert ("邵明川", "worksFor", "杭州钢铁集团有限公司") in got
    result = extract(zh, "邓秋林，1968年出生于湖南省长沙市，2015年加入中国作家协会。")
    assert ("邓秋林", "worksFor", "中国作家协会") not in triples(result)


def test_an_athlete_after_xuanshou_and_a_school_attended(zh: ChineseExtractor) -> None:
    result = extract(zh, "在昨天结束的男子跳远决赛中，四川队选手邵明川以8米21的成绩夺冠。现年23岁的邵明川就读于成都体育学院。")
    assert entities(result).get("邵明川") == "Person"
    assert ("邵明川", "educatedAt", "成都体育学院") in triples(result)
    result = extract(zh, "主教练韦德明赛后表示，这座冠军属于全体球员和球迷。")
    assert "和球迷" not in entities(result)


def test_a_named_event_and_where_it_is_held(zh: ChineseExtractor) -> None:
    result = extract(zh, "第五届西湖国际音乐节于9月12日在浙江省杭州市开幕。")
    assert entities(result).get("第五届西湖国际音乐节") == "Event"
    assert ("第五届西湖国际音乐节", "locatedIn", "杭州市") in triples(result)
    result = extract(zh, "“楚风汉韵——荆州出土漆器特展”9月1日在湖南省博物馆开幕。")
    assert ("楚风汉韵——荆州出土漆器特展", "locatedIn", "湖南省博物馆") in triples(result)
    result = extract(zh, "2024年全国游泳锦标赛在湖北省武汉市举行。")
    assert entities(result).get("2024年全国游泳锦标赛") == "Event"
    # an event's place is no body part, whatever the schema's medicine alternative
    assert all(r.predicate == "locatedIn" for r in result.relations)
    result = extract(zh, "公司代表出席了在上海举行的行业论坛。")  # a bare 论坛 names no event
    assert "行业论坛" not in entities(result)
