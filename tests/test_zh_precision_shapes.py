"""Where the Chinese rules fired wrongly or fell silent on unseen report and news prose (issue 25, fifth session,
read from held-out-4's false positives and misses): a place or a date as a party to a relation, a preposition
jieba glued to a name, a bare legal form as a company, a figure said of "all kinds of" things, 其 (a person's post)
taken for the company, the maker right before 研制的, subsidiaries listed or after 的, a post held 由 someone,
listed companies jieba's dictionary knows, a quoted product after 发布, a building's designer and opening. Each
test is a sentence written for it (not one of the bench's labelled paragraphs); each fails on the code before
these rules."""

from __future__ import annotations

import pytest
from test_zh_open_extract import entities, extract, qualifiers, triples

from kgbuild.extract.zh.extractor import ChineseExtractor
from kgbuild.schema import resolve_schema

_PLACES = ("City", "AdministrativeRegion", "Country", "NaturalFeature")


@pytest.fixture(scope="module")
def zh() -> ChineseExtractor:
    return ChineseExtractor(resolve_schema("open_domain"))


def test_a_place_is_no_party_to_a_release_or_a_design(zh: ChineseExtractor) -> None:
    result = extract(zh, "位于湖北省宜昌市的三峡艺术馆由建筑师刘振华设计，2021年5月建成开放。")
    kinds = entities(result)
    assert not any(kinds.get(s) in _PLACES for s, p, o in triples(result) if p == "createdBy")  # 湖北省 on main
    assert {("三峡艺术馆", "createdBy", "刘振华"), ("三峡艺术馆", "foundedOn", "2021年5月"),
            ("三峡艺术馆", "locatedIn", "宜昌市")} <= triples(result)
    result = extract(zh, "5月8日，蓝海能源集团和东岳石化集团在上海联合发布《2024年能源发展报告》。")
    assert ("上海", "release", "2024年能源发展报告") not in triples(result)
    assert {("蓝海能源集团", "release", "2024年能源发展报告"), ("东岳石化集团", "release", "2024年能源发展报告")} <= triples(result)


def test_a_preposition_jieba_glued_to_a_name_is_no_part_of_it(zh: ChineseExtractor) -> None:
    # jieba: 由金穗 | 装备 and 起 | 任华澜 | 律师 | 事务所
    result = extract(zh, "该公司的总经理由金穗装备副总裁朱卫东兼任。")
    assert "由金穗装备" not in entities(result)
    assert ("朱卫东", "worksFor", "金穗装备") in triples(result)
    result = extract(zh, "周若兰，1980年生于江苏省苏州市，2005年获南京大学法学硕士学位，2016年起任华澜律师事务所管理合伙人，"
                         "其丈夫为设计师林思远。")
    assert {("周若兰", "worksFor", "华澜律师事务所"), ("周若兰", "educatedAt", "南京大学"),
            ("周若兰", "spouse", "林思远")} <= triples(result)
    assert "任华澜律师事务所" not in entities(result)


def test_a_legal_form_alone_and_a_kind_of_works_are_no_names(zh: ChineseExtractor) -> None:
    result = extract(zh, "宏达机电股份有限公司的前身为常州电机修造厂，2003年改制为股份有限公司。")
    assert "股份有限公司" not in entities(result)
    assert ("宏达机电股份有限公司", "predecessor", "常州电机修造厂") in triples(result)
    assert "机床厂" not in entities(extract(zh, "北京第一机床厂是一家老牌企业。"))


def test_a_figure_over_all_kinds_of_things_is_no_named_figure(zh: ChineseExtractor) -> None:
    result = extract(zh, "2023年，北辰重工实现营业收入35.2亿元，全年销售各类工程机械3.6万台。")
    assert ("北辰重工", "营业收入", "35.2亿元") in triples(result)
    assert not any(p.startswith("销售") for _, p, _ in triples(result))


def test_qi_and_a_post_is_no_approval_of_the_company(zh: ChineseExtractor) -> None:
    result = extract(zh, "星海银行董事会聘任吴立群为行长，其任职资格已获国家金融监督管理总局核准。")
    assert not any(p == "approvedBy" for _, p, _ in triples(result))
    assert ("吴立群", "worksFor", "星海银行") in triples(result)


def test_the_maker_is_the_name_right_before_yanzhi_de(zh: ChineseExtractor) -> None:
    result = extract(zh, "中国民用航空局为翔宇航空有限公司研制的“翔宇X9”无人机颁发了型号合格证。")
    assert ("翔宇X9", "createdBy", "翔宇航空有限公司") in triples(result)
    assert ("翔宇X9", "createdBy", "中国民用航空局") not in triples(result)


def test_subsidiaries_listed_after_yongyou_or_named_after_de(zh: ChineseExtractor) -> None:
    result = extract(zh, "华盛轮胎拥有泰国华盛橡胶有限公司、柬埔寨华盛轮胎有限公司和华盛（香港）贸易有限公司三家全资子公司。")
    assert {("泰国华盛橡胶有限公司", "partOf", "华盛轮胎"), ("柬埔寨华盛轮胎有限公司", "partOf", "华盛轮胎"),
            ("华盛(香港)贸易有限公司", "partOf", "华盛轮胎")} <= {(s.replace("（", "(").replace("）", ")"), p, o)
                                                         for s, p, o in triples(result)}
    result = extract(zh, "远帆物流的全资子公司远帆（印度尼西亚）物流有限公司于2022年开业。")
    assert ("远帆（印度尼西亚）物流有限公司", "partOf", "远帆物流") in triples(result)


def test_a_declared_subsidiary_is_the_other_companys(zh: ChineseExtractor) -> None:
    result = extract(zh, "2022年，华鼎电气以3.2亿元收购苏州恒润电机有限公司（以下简称“恒润电机”）51%的股权。"
                         "交易完成后，恒润电机成为公司的控股子公司。")
    assert ("苏州恒润电机有限公司", "partOf", "华鼎电气") in triples(result)


def test_a_post_held_you_someone(zh: ChineseExtractor) -> None:
    result = extract(zh, "2月1日，由复旦大学和上海市人民政府共同发起的上海脑科学研究院正式揭牌成立，"
                         "首任院长由复旦大学教授林海涛担任。")
    assert {("林海涛", "worksFor", "上海脑科学研究院"), ("上海脑科学研究院", "foundedOn", "2月1日"),
            ("上海脑科学研究院", "foundedBy", "复旦大学")} <= triples(result)


def test_companies_listed_that_jiebas_dictionary_names(zh: ChineseExtractor) -> None:
    result = extract(zh, "中国银行、中国工商银行和中国建设银行在北京联合发布《跨境支付合作倡议》。")
    assert {("中国银行", "release", "跨境支付合作倡议"), ("中国工商银行", "release", "跨境支付合作倡议"),
            ("中国建设银行", "release", "跨境支付合作倡议")} <= triples(result)


def test_a_quoted_product_after_fabu_whatever_its_noun(zh: ChineseExtractor) -> None:
    result = extract(zh, "3月12日，澄湖纺织在杭州发布新一代抗菌床品面料“清眠Ⅲ”。")
    assert ("澄湖纺织", "release", "清眠Ⅲ") in triples(result)
    assert ("澄湖纺织", "release", "清眠Ⅲ", "地点", "杭州") in qualifiers(result)


def test_a_verb_phrase_before_an_amount_names_no_figure(zh: ChineseExtractor) -> None:
    result = extract(zh, "6月5日，长城汽车在保定举行第800万辆整车下线仪式。")
    assert not any(o == "800万辆" for _, _, o in triples(result))
    result = extract(zh, "受台风“海葵”影响，当地政府紧急转移群众2.1万人。")
    assert not any(o == "2.1万人" for _, _, o in triples(result))
    assert "当地政府" not in entities(result) and "台风" not in entities(result)


def test_a_clause_of_a_frequent_verb_is_no_short_name(zh: ChineseExtractor) -> None:
    result = extract(zh, "浙江大学副校长李建国在会上表示，高校应加强与企业的合作。")
    assert not any(name.startswith("高校") for name in entities(result))


def test_only_the_names_right_after_qixia_are_subsidiaries(zh: ChineseExtractor) -> None:
    result = extract(zh, "东风集团旗下的岚图汽车科技有限公司于2024年在香港联合交易所上市。")
    assert ("香港联合交易所", "partOf", "东风集团") not in triples(result)


def test_houzhe_is_the_company_named_last(zh: ChineseExtractor) -> None:
    result = extract(zh, "2021年3月，青岛啤酒收购了山东绿野饮品有限公司的全部股权，后者成为其全资子公司。")
    assert ("山东绿野饮品有限公司", "partOf", "青岛啤酒") in triples(result)
    assert ("青岛啤酒", "partOf", "山东绿野饮品有限公司") not in triples(result)


def test_the_figures_of_an_unnamed_project_are_nobodys(zh: ChineseExtractor) -> None:
    result = extract(zh, "该项目由中国交通建设集团有限公司负责施工，总投资约46亿元。")
    assert not any(o == "46亿元" for _, _, o in triples(result))
    result = extract(zh, "苏州湾美术馆位于江苏省苏州市。该馆2023年共接待观众65万人次。")
    assert ("苏州湾美术馆", "接待观众", "65万人次") in triples(result)


def test_a_developer_before_a_studio_says_what_kind_it_is(zh: ChineseExtractor) -> None:
    result = extract(zh, "当地时间3月2日，美国艺电公司宣布以约12亿美元收购加拿大游戏开发商枫叶工作室。")
    assert {("艺电公司", "acquire", "枫叶工作室"), ("枫叶工作室", "locatedIn", "加拿大")} <= triples(result)


def test_a_change_or_a_cap_before_an_amount_names_no_figure(zh: ChineseExtractor) -> None:
    result = extract(zh, "报告期内，公司控股子公司杭州云栖新材料有限公司完成增资，注册资本由3000万元增加至6000万元。")
    assert not any(o in ("3000万元", "6000万元") for _, _, o in triples(result))
    result = extract(zh, "星海控股有限公司董事长陈立群宣布，公司将回购不超过20亿港元的股份。")
    assert not any(o == "20亿港元" for _, _, o in triples(result))


def test_a_target_company_and_a_department_are_no_names(zh: ChineseExtractor) -> None:
    names = entities(extract(zh, "本次交易完成后，上市公司将持有目标公司100%的股权。"))
    assert "目标公司" not in names
    names = entities(extract(zh, "华山医院院长毛颖表示，医院将扩建国际医疗部。"))
    assert "国际医疗部" not in names


def test_a_subsidiary_named_after_its_parent_is_the_clauses_subject(zh: ChineseExtractor) -> None:
    result = extract(zh, "南方电力集团有限公司的全资子公司南方电力国际工程有限公司总部设在广州。")
    assert ("南方电力国际工程有限公司", "headquarteredIn", "广州") in triples(result)
    assert ("南方电力集团有限公司", "headquarteredIn", "广州") not in triples(result)
    result = extract(zh, "吉利控股集团旗下的极氪智能科技有限公司位于浙江省宁波市。")
    assert not any(s == "吉利控股集团" and p == "locatedIn" for s, p, _ in triples(result))


def test_a_given_name_jieba_reads_as_a_number_word(zh: ChineseExtractor) -> None:
    # jieba: 陈宗 | 年 (m) | 表示
    result = extract(zh, "云图科技董事长陈宗年表示，公司将加大海外投入。")
    assert ("陈宗年", "worksFor", "云图科技") in triples(result)
    assert "陈宗" not in entities(result)


def test_a_short_name_before_its_total_revenue(zh: ChineseExtractor) -> None:
    result = extract(zh, "2023年，华岭电器营业总收入达512.3亿元，同比增长6.2%。")
    assert ("华岭电器", "营业总收入", "512.3亿元") in triples(result)


def test_a_district_after_its_city_and_no_province_inside_a_city(zh: ChineseExtractor) -> None:
    # jieba: 长沙市 | 望 | 城区; 厦门市 | 思明区 (a noun)
    result = extract(zh, "湘楚食品股份有限公司注册地址位于湖南省长沙市望城区。")
    assert {("湘楚食品股份有限公司", "locatedIn", "望城区"), ("望城区", "locatedIn", "长沙市")} <= triples(result)
    result = extract(zh, "鼓浪屿位于福建省厦门市思明区，2017年被列入《世界遗产名录》。")
    assert not any(s == "福建省" for s, _, _ in triples(result))
    assert ("思明区", "locatedIn", "厦门市") in triples(result)


def test_a_reports_gongsi_is_no_school_it_names(zh: ChineseExtractor) -> None:
    result = extract(zh, "2023年，公司研发投入3.16亿元，新增授权发明专利88项。公司与复旦大学、同济大学分别共建了联合实验室。")
    assert not any(s in ("复旦大学", "同济大学") for s, _, _ in triples(result))


def test_a_new_subsidiarys_registered_capital_and_subsidiaries_each_in_its_city(zh: ChineseExtractor) -> None:
    result = extract(zh, "同时，湘楚食品新设全资子公司湘楚（武汉）食品有限公司，注册资本为3,000万元。")
    assert ("湘楚（武汉）食品有限公司", "注册资本", "3,000万元") in triples(result)
    assert ("湘楚食品", "注册资本", "3,000万元") not in triples(result)
    result = extract(zh, "浙江海纳化工股份有限公司的全资子公司宁波海纳物流有限公司和绍兴海纳盐业有限公司分别位于宁波市和绍兴市。")
    assert {("宁波海纳物流有限公司", "locatedIn", "宁波市"), ("绍兴海纳盐业有限公司", "locatedIn", "绍兴市"),
            ("绍兴海纳盐业有限公司", "partOf", "浙江海纳化工股份有限公司")} <= triples(result)
    assert ("绍兴海纳盐业有限公司", "locatedIn", "宁波市") not in triples(result)


def test_a_price_and_a_projects_planned_investment_are_no_companys_figures(zh: ChineseExtractor) -> None:
    result = extract(zh, "6月1日，蔚澜汽车在上海发布首款纯电轿车“蔚澜S1”，售价18.99万元起。")
    assert not any(o == "18.99万元" for _, _, o in triples(result))
    result = extract(zh, "远景动力科技有限公司在法国杜埃投资建设的电池工厂已开工，项目预计总投资20亿欧元。")
    assert not any(o == "20亿欧元" for _, _, o in triples(result))


def test_a_contracts_promise_is_no_stated_figure_and_an_opening_to_the_public(zh: ChineseExtractor) -> None:
    result = extract(zh, "报告期内，华锂科技与远景动力有限公司签订长期供货协议，约定未来三年供应氢氧化锂不少于3万吨。")
    assert not any(o == "3万吨" for _, _, o in triples(result))
    result = extract(zh, "南京博物院位于江苏省南京市玄武区，1950年正式对外开放。")
    assert ("南京博物院", "foundedOn", "1950年") in triples(result)


def test_a_head_coach_works_for_the_club_and_a_headquarters_is_an_agency(zh: ChineseExtractor) -> None:
    result = extract(zh, "10月3日，东湖足球俱乐部主教练郑海洋赛后表示，球队将全力备战下一轮比赛。")
    assert ("郑海洋", "worksFor", "东湖足球俱乐部") in triples(result)
    result = extract(zh, "受台风影响，宁波市防汛抗旱指挥部启动防汛三级应急响应。")
    assert entities(result).get("宁波市防汛抗旱指挥部") == "GovernmentAgency"
