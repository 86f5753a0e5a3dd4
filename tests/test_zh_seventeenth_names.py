"""Issue 25, seventeenth session: the names a new writer writes that the rules missed, cut or made up (held-out-23
and the third set of report documents, missed and false entities by cause: the table is in docs/chinese.md). Each
test is a sentence written for it (not one of the bench's labelled paragraphs) and fails on the code before its
change, unless marked a guard."""

from __future__ import annotations

from test_zh_open_extract import entities, extract
from test_zh_open_extract import zh as zh  # the open-domain extractor, one per module (a fixture)

from kgbuild.extract.zh.extractor import ChineseExtractor

# People


def test_the_controller_named_right_after_the_role(zh: ChineseExtractor) -> None:
    # 实际控制人 with no 为 before the name: the person the report says controls the company
    result = entities(extract(zh, "该供应商系公司实际控制人柯望川控制的企业，相关交易已经董事会审议。"))
    assert result.get("柯望川") == "Person"


def test_a_name_closed_by_an_adverb_or_a_reason(zh: ChineseExtractor) -> None:
    # jieba reads 立新 as an adverb and 已于 as one word: the clause after the name (因 / 未 / 已) closes it
    result = entities(extract(zh, "原财务总监彭立新因个人原因辞职，董事长戚远舟未减持公司股份，副总裁贾珩已于近日离任。"))
    assert {"彭立新", "戚远舟", "贾珩"} <= set(result)
    assert "贾珩已" not in result


def test_a_name_before_a_courtesy_title_or_a_degree(zh: ChineseExtractor) -> None:
    # jieba: 邬 | 远航 (a verb)
    result = entities(extract(zh, "公司首席科学家邬远航博士，1978年出生，毕业于吉林大学。"))
    assert result.get("邬远航") == "Person"


def test_posts_held_at_the_time_listed_with_their_holders(zh: ChineseExtractor) -> None:
    # 房 | 子越 (jieba: 房子 a noun | 越): each name closes at 、 and the next 时任 post
    result = entities(extract(zh, "交易所对时任董事长房承礼、时任总经理房子越、时任董事会秘书黎初晴予以通报批评。"))
    assert {"房承礼", "房子越", "黎初晴"} <= set(result)


def test_a_rarer_compound_surname(zh: ChineseExtractor) -> None:
    result = entities(extract(zh, "证监局对时任财务总监钟离雪给予警告。"))
    assert result.get("钟离雪") == "Person"


def test_the_person_after_a_bracketed_post_and_after_appointing(zh: ChineseExtractor) -> None:
    # every report's statement: 会计机构负责人（会计主管人员）P保证…; Hong Kong's 委任 P 为
    result = entities(extract(zh, "公司负责人邵明川、主管会计工作负责人邵明川及会计机构负责人（会计主管人员）田雨菲保证"
                                  "季度报告中财务信息的真实、准确、完整。董事会委任杭以安为公司首席执行官。"))
    assert {"田雨菲", "杭以安"} <= set(result)


def test_no_person_after_the_role_where_no_name_follows(zh: ChineseExtractor) -> None:  # a guard
    result = entities(extract(zh, "公司实际控制人及其一致行动人未减持公司股份，实际控制人和控股股东均作出承诺。"))
    assert not [n for n, c in result.items() if c == "Person"]


# Organisations


def test_a_registered_name_after_a_word_of_deals(zh: ChineseExtractor) -> None:
    # 收获 (a verb), 宏毅 / 精密 (adjectives), 通用 (a verb): the walk back from the legal form stopped there
    result = entities(extract(zh, "报告期内，公司收购黑龙江垦丰收获机械有限公司60%的股权，并向关联方珠海宏毅精密材料"
                                  "有限公司采购原材料；本公司持有黔穹通用航空有限公司70%的股权。"))
    assert {"黑龙江垦丰收获机械有限公司", "珠海宏毅精密材料有限公司", "黔穹通用航空有限公司"} <= set(result)
    assert not {"黑龙江", "珠海"} & set(result)


def test_no_registered_name_made_of_a_clause(zh: ChineseExtractor) -> None:  # a guard
    result = entities(extract(zh, "公司于2019年在上海注册成立有限公司，并在杭州设立研发中心。"))
    assert not [n for n in result if n.endswith("有限公司")]


def test_a_partnership_holder_and_an_auditor_with_their_kind_in_brackets(zh: ChineseExtractor) -> None:
    result = entities(extract(zh, "持股5%以上股东宁波梅山保税港区启明投资合伙企业（有限合伙）拟减持。本公司聘请"
                                  "鸿泽会计师事务所（特殊普通合伙）为2025年度审计机构。"))
    assert {"宁波梅山保税港区启明投资合伙企业（有限合伙）", "鸿泽会计师事务所（特殊普通合伙）"} <= set(result)
    assert not [n for n in result if n.startswith("聘请")]


def test_a_bank_branch_after_the_banks_legal_form(zh: ChineseExtractor) -> None:
    result = entities(extract(zh, "子公司向中国工商银行股份有限公司赣州分行申请了2亿元贷款。"))
    assert "中国工商银行股份有限公司赣州分行" in result
    assert "赣州" not in result


def test_a_verb_of_joining_is_no_part_of_the_body(zh: ChineseExtractor) -> None:
    # jieba tags 加盟 a place
    result = entities(extract(zh, "原副总裁柯澜于上月加盟远川基金管理有限公司，出任副总经理。"))
    assert "远川基金管理有限公司" in result
    assert "加盟远川基金管理有限公司" not in result


def test_where_a_company_is_listed_is_no_company(zh: ChineseExtractor) -> None:
    result = entities(extract(zh, "5月8日晚间，深交所创业板上市公司青岚环境公告称，沪市上市公司鲁川化工与港股上市公司"
                                  "驰原汽车集团有限公司同时发布公告。"))
    assert {"深交所", "青岚环境", "鲁川化工", "驰原汽车集团有限公司"} <= set(result)
    assert not [n for n in result if n.endswith("上市公司")]
    assert "深市" not in result and "沪市" not in result


def test_a_short_name_opening_a_report_clause(zh: ChineseExtractor) -> None:
    # a report section writes its company by a short name declared elsewhere or never
    text = ("岚溪旅游主要经营景区索道业务。2024年3月，幻岭网络以著作权侵权为由提起诉讼。报告期内，牧野生物共取得注册证书"
            "3项。截至本报告披露日，璇星导航控股股东未质押股份。")
    result = entities(extract(zh, text))
    assert {"岚溪旅游", "幻岭网络", "牧野生物", "璇星导航"} <= set(result)


def test_a_product_line_or_a_figure_opening_a_clause_is_no_company(zh: ChineseExtractor) -> None:
    result = entities(extract(zh, "分产品看，冷冻调理制品实现收入8.21亿元；海外业务收入占营业收入的比例升至31.5%。"
                                  "本方案尚需提交公司股东大会审议。"))
    assert not [n for n, c in result.items() if c == "Company"]


def test_papers_of_business_and_laws_followed_are_no_works(zh: ChineseExtractor) -> None:
    result = entities(extract(zh, "公司严格按照《公司法》《证券法》的规定召开会议，审议通过《关于变更募集资金用途的议案》，"
                                  "并签订《技术合作协议》。"))
    assert not [n for n, c in result.items() if c == "Work"]


def test_a_book_titled_like_a_law_is_still_a_work(zh: ChineseExtractor) -> None:  # a guard
    result = entities(extract(zh, "作家周慕川的新书《活法》由商务印书馆出版。"))
    assert result.get("活法") in ("Work", "Book")


# Places


def test_a_city_right_after_its_province(zh: ChineseExtractor) -> None:
    # jieba: 遵义 a verb, 崇左 a foreign name, 莆田人 one noun
    result = entities(extract(zh, "钟立衡，1969年出生，贵州遵义人。公司在广西崇左和福建莆田设有工厂。副总经理林远，福建莆田人。"))
    assert {"遵义", "崇左", "莆田"} <= {n for n, c in result.items() if c == "City"}


def test_foreign_cities_jieba_reads_as_names(zh: ChineseExtractor) -> None:
    result = entities(extract(zh, "公司与当地伙伴在斯图加特签署了供货协议，并新开通昆明至胡志明市的航线。"))
    assert {"斯图加特", "胡志明市"} <= {n for n, c in result.items() if c == "City"}


def test_a_province_of_a_foreign_country(zh: ChineseExtractor) -> None:
    result = entities(extract(zh, "子公司设在泰国春武里府，另一家工厂位于越南北宁省。"))
    assert {"春武里府", "北宁省"} <= {n for n, c in result.items() if c == "AdministrativeRegion"}


# People, from held-out-20..22's misses


def test_a_natural_person_and_a_relative(zh: ChineseExtractor) -> None:
    result = entities(extract(zh, "该公司由自然人卢思远创办。公司实际控制人为鄢振国；其妻弟鄢启明任公司副总经理，"
                                  "供应商系实际控制人之弟鄢启华控制的企业。"))
    assert {"卢思远", "鄢启明", "鄢启华"} <= {n for n, c in result.items() if c == "Person"}
    assert not [n for n in result if n.startswith("自然人")]


def test_a_name_before_the_post_it_is_appointed_to(zh: ChineseExtractor) -> None:
    # jieba: 庞乐 | 之; 司马 | 骁对 (an adjective)
    result = entities(extract(zh, "董事会聘任副总裁庞乐之为公司总裁。安全总监司马骁对事故负有管理责任。"))
    assert {"庞乐之", "司马骁"} <= set(result)
    assert "司马骁对" not in result


def test_a_party_s_role_and_a_copula_are_no_part_of_a_name(zh: ChineseExtractor) -> None:
    result = entities(extract(zh, "原告北京素简图书有限公司请求判令赔偿。朔原新能源有限公司系北疆能投集团有限公司的全资子公司。"))
    assert {"北京素简图书有限公司", "北疆能投集团有限公司"} <= set(result)
    assert not [n for n in result if n.startswith(("告", "原告", "投集团"))]



def test_former_glued_to_the_employers_first_character(zh: ChineseExtractor) -> None:
    # jieba: 原豫 (an adjective it made up) | 锦 | 物流; the person found after the title brings the employer
    result = entities(extract(zh, "新公司由原豫锦物流董事长栾启明继续担任董事长。"))
    assert "豫锦物流" in result
    assert "锦物流" not in result
