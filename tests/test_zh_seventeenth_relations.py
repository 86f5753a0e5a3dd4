"""Issue 25, seventeenth session: relations a new writer's report text states that no rule read (held-out-23 and
the third report-documents set; the table is in docs/chinese.md, "Seventeenth session: relations"). Each test is a
sentence written for it (not one of the bench's labelled paragraphs) and fails on the code before its change."""

from __future__ import annotations

from test_zh_open_extract import extract, triples
from test_zh_open_extract import zh as zh  # the open-domain extractor, one per module (a fixture)

from kgbuild.document_references import resolve
from kgbuild.extract.zh.extractor import ChineseExtractor
from kgbuild.model import Chunk


def _document(zh: ChineseExtractor, *sections: str) -> set[tuple[str, str, str]]:
    """Each section a chunk of one document, resolved as a build resolves a report's 公司 across its chunks."""
    chunks = [Chunk(id=f"r#p{i:05d}#0", doc_id="r", text=t, order=i, paragraph_start=i, paragraph_end=i,
                    token_count=len(t), content_hash=str(i)) for i, t in enumerate(sections)]
    out: set[tuple[str, str, str]] = set()
    for ex in resolve(zh.extract(chunks)):
        out |= {(r.subject.name, r.predicate, r.object.name) for r in ex.relations}
    return out


DECLARED = "青岚机械股份有限公司（以下简称“青岚机械”或“公司”）成立于2001年，总部位于湖北省襄阳市。"


def test_consolidated_from_a_month_is_a_subsidiary(zh: ChineseExtractor) -> None:
    # 纳入公司合并报表范围 after the purchase: the company bought is now the report company's subsidiary
    facts = triples(extract(zh, DECLARED + "2024年7月，公司以3.2亿元收购湖北澄泰液压有限公司60%的股权。该公司位于襄阳市，"
                                           "已于2024年9月纳入公司合并报表范围。"))
    assert ("湖北澄泰液压有限公司", "partOf", "青岚机械股份有限公司") in facts
    assert ("青岚机械股份有限公司", "acquire", "湖北澄泰液压有限公司") in facts


def test_a_country_and_its_kind_word_before_a_partner(zh: ChineseExtractor) -> None:
    # 与德国企业X共同出资设立Y: the country and 企业 say what X is; X still founded Y
    facts = triples(extract(zh, DECLARED + "2024年3月，公司与德国企业韦伯液压公司共同出资设立青岚韦伯液压有限公司，"
                                           "注册资本1亿元。"))
    assert ("青岚韦伯液压有限公司", "foundedBy", "韦伯液压公司") in facts
    assert ("青岚韦伯液压有限公司", "foundedBy", "青岚机械股份有限公司") in facts


def test_a_joint_venture_after_you_is_founded_not_a_partner(zh: ChineseExtractor) -> None:
    # 由公司与法国企业X合资设立的Y: 公司 and X founded Y; Y works with no one
    facts = triples(extract(zh, DECLARED + "此外，由公司与法国企业杜瓦尔农机公司合资设立的青岚杜瓦尔（无锡）农机有限公司"
                                           "于2024年5月投产。"))
    assert ("青岚杜瓦尔（无锡）农机有限公司", "foundedBy", "青岚机械股份有限公司") in facts
    assert ("青岚杜瓦尔（无锡）农机有限公司", "foundedBy", "杜瓦尔农机公司") in facts
    assert not any(p == "cooperateWith" and s.startswith("青岚杜瓦尔") for s, p, _ in facts)


def test_a_bio_names_where_the_person_comes_from(zh: ChineseExtractor) -> None:
    # 1975年出生，湖北宜昌人: the most specific place of the run
    facts = triples(extract(zh, "罗启航，1975年出生，湖北宜昌人，毕业于武汉大学，现任青岚机械股份有限公司总经理。"))
    assert ("罗启航", "bornIn", "宜昌") in facts


def test_resigning_in_other_words(zh: ChineseExtractor) -> None:
    # 因个人原因辞职 / 不再担任总经理: a former holder worked there, as 辞去…职务 says
    facts = triples(extract(zh, DECLARED + "2024年3月，公司召开董事会，聘任罗启航为总经理，原董事会秘书贺兰因个人原因辞职。"))
    assert ("贺兰", "worksFor", "青岚机械股份有限公司") in facts


def test_a_post_glossed_in_brackets_before_the_holder(zh: ChineseExtractor) -> None:
    # 董事会秘书（代行）P: the bracket names the post again; the person after it holds it
    facts = triples(extract(zh, "青岚机械股份有限公司董事会秘书（代行）刘志强表示，公司经营正常。"))
    assert ("刘志强", "worksFor", "青岚机械股份有限公司") in facts


def test_a_numbered_item_opening_with_gongsi_in_a_later_chunk(zh: ChineseExtractor) -> None:
    # 3、公司全资子公司X…；控股子公司Y…: 公司 is the document's company, not X, the chunk's first company
    facts = _document(zh, DECLARED,
                      "3、公司全资子公司青岚液压（越南）有限公司于2024年9月在越南同奈省投产；控股子公司襄阳青岚铸造有限公司"
                      "（公司持股60%）2024年实现营业收入6.2亿元。")
    assert ("青岚液压（越南）有限公司", "partOf", "青岚机械股份有限公司") in facts
    assert ("襄阳青岚铸造有限公司", "营业收入", "6.2亿元") in facts
    assert not any(s == "青岚液压（越南）有限公司" and p == "营业收入" for s, p, _ in facts)


def test_a_chunk_that_names_only_the_company_holders(zh: ChineseExtractor) -> None:
    # X为本公司控股股东: X is the holder, so 本公司 is the document's company, not X
    facts = _document(zh, DECLARED,
                      "湖北青岚投资集团有限公司为本公司控股股东，襄阳市人民政府国有资产监督管理委员会为本公司实际控制人。")
    assert ("青岚机械股份有限公司", "ownedBy", "湖北青岚投资集团有限公司") in facts
    assert ("青岚机械股份有限公司", "ownedBy", "襄阳市人民政府国有资产监督管理委员会") in facts
    assert ("湖北青岚投资集团有限公司", "ownedBy", "襄阳市人民政府国有资产监督管理委员会") not in facts


def test_posts_held_then_after_gongsi(zh: ChineseExtractor) -> None:
    # 对公司时任董事长P、时任总经理Q给予通报批评: 时任 between 公司 and each post of the list
    facts = triples(extract(zh, "经查，青岚机械股份有限公司在2022年虚增收入。该所对公司时任董事长王建国、时任总经理张伟、"
                                "时任财务总监李秀英给予通报批评。"))
    for person in ("王建国", "张伟", "李秀英"):
        assert (person, "worksFor", "青岚机械股份有限公司") in facts


def test_a_controller_through_a_named_holder(zh: ChineseExtractor) -> None:
    # P持有X 65%的股权，为本公司实际控制人: P owns X and, through it, the report's company
    facts = triples(extract(zh, DECLARED + "湖北青岚投资集团有限公司为本公司控股股东。王建国持有湖北青岚投资集团有限公司65%的"
                                           "股权，为本公司实际控制人。"))
    assert ("湖北青岚投资集团有限公司", "ownedBy", "王建国") in facts
    assert ("青岚机械股份有限公司", "ownedBy", "王建国") in facts


def test_a_subsidiary_after_the_parent_s_short_name(zh: ChineseExtractor) -> None:
    # X（以下简称“Y”）全资子公司Z: the short name said between the parent and 全资子公司
    facts = triples(extract(zh, "2025年3月，青岚机械股份有限公司（以下简称“青岚机械”）全资子公司青岚液压有限公司中标襄阳东津"
                                "新区管廊工程。"))
    assert ("青岚液压有限公司", "partOf", "青岚机械股份有限公司") in facts


def test_benggongsi_after_a_holder_is_the_report_company(zh: ChineseExtractor) -> None:
    # X为本公司战略投资者，其委派的董事P现任本公司副董事长: 本公司 is the report's own company, not X
    facts = _document(zh, "青岚机械股份有限公司（以下简称“本公司”）成立于2001年。",
                      "武汉江城投资控股有限公司为本公司战略投资者，其委派的董事王建国现任本公司副董事长。")
    assert ("王建国", "worksFor", "青岚机械股份有限公司") in facts
    assert ("王建国", "worksFor", "武汉江城投资控股有限公司") not in facts


def test_benggongsi_in_a_later_bio_chunk(zh: ChineseExtractor) -> None:
    # a bio chunk that names a former employer first: 本公司 is still the document's company
    facts = _document(zh, DECLARED,
                      "罗启航，1968年出生，毕业于武汉理工大学。曾任湖北汉江重工集团有限公司副总经理，2021年5月起任本公司董事长。")
    assert ("罗启航", "worksFor", "青岚机械股份有限公司") in facts


def test_gai_gongsi_turns_the_sentence_to_the_company_bought(zh: ChineseExtractor) -> None:
    # 收购X，该公司成立于…，总部位于…: the clauses after 该公司 speak of X, not of the buyer
    facts = triples(extract(zh, "2025年2月，青岚机械股份有限公司以现金3.6亿元收购四川蜀途供应链有限公司100%股权，该公司成立于"
                                "2014年，总部位于成都市郫都区，主要从事冷链仓储业务。"))
    assert ("四川蜀途供应链有限公司", "headquarteredIn", "郫都区") in facts
    assert ("青岚机械股份有限公司", "headquarteredIn", "郫都区") not in facts


def test_the_auditor_framing_a_sentence_has_no_figures(zh: ChineseExtractor) -> None:
    # 经X会计师事务所审计，…公司实现净利润…: the auditor framed the sentence; the figure is the report company's
    facts = _document(zh, DECLARED, "经华信会计师事务所（特殊普通合伙）审计，2024年度，公司实现净利润4.6亿元，同比增长8.2%。")
    assert ("青岚机械股份有限公司", "净利润", "4.6亿元") in facts
    assert not any(s.startswith("华信") for s, _, _ in facts)


def test_a_subsidiary_named_first_is_not_the_chunk_company(zh: ChineseExtractor) -> None:
    # 由控股子公司X经营。…公司实现营业收入…: X is someone's subsidiary, so 公司 is not X
    facts = _document(zh, DECLARED, "铸件业务由控股子公司襄阳青岚铸造有限公司经营。2024年，公司实现营业收入9.8亿元，"
                                    "同比增长15.2%。")
    assert ("青岚机械股份有限公司", "营业收入", "9.8亿元") in facts
    assert not any(s == "襄阳青岚铸造有限公司" and p == "营业收入" for s, p, _ in facts)


def test_a_listing_board_word_employs_no_one(zh: ChineseExtractor) -> None:
    # a guard: 创业板公司 / 港股上市公司 says where a company is listed; 时任 / 辞任 give it no staff
    facts = triples(extract(zh, "11月27日晚，创业板公司汇川环保披露，公司收到证监局出具的《行政处罚决定书》。证监局决定对公司"
                                "时任董事长王建国给予警告。港股上市公司驰骋汽车发布公告，原首席执行官李秀英因个人原因辞任。"))
    assert not any(o.endswith(("板公司", "上市公司")) for _, p, o in facts if p == "worksFor")


def test_a_bio_after_a_title_and_an_honorific(zh: ChineseExtractor) -> None:
    # 公司首席科学家P博士，1975年出生，毕业于…: the person the first clause closed with was born and studied
    facts = triples(extract(zh, DECLARED + "公司首席科学家王建国博士，1975年出生，毕业于武汉大学，2016年加入公司。"))
    assert ("王建国", "bornOn", "1975年") in facts
    assert ("王建国", "educatedAt", "武汉大学") in facts


def test_two_companies_share_their_controller(zh: ChineseExtractor) -> None:
    # 两家公司的实际控制人均为X: both companies named before, each by its full name
    facts = triples(extract(zh, "6月3日，青岚化工股份有限公司与汇川新材料股份有限公司同时发布公告。两家公司的实际控制人均为"
                                "河南省人民政府国有资产监督管理委员会。"))
    for company in ("青岚化工股份有限公司", "汇川新材料股份有限公司"):
        assert (company, "ownedBy", "河南省人民政府国有资产监督管理委员会") in facts


def test_the_chair_is_the_founder(zh: ChineseExtractor) -> None:
    # 董事会主席为公司创始人P: the founder holds the post
    facts = triples(extract(zh, "资料显示，青岚控股集团有限公司总部位于郑州市，董事会主席为公司创始人王建国。"))
    assert ("王建国", "worksFor", "青岚控股集团有限公司") in facts


def test_who_goes_on_holding_a_post(zh: ChineseExtractor) -> None:
    # 原总经理P…不再担任总经理，继续担任公司董事长: the person named last holds the post still
    facts = triples(extract(zh, DECLARED + "2024年12月，公司聘任罗启航为总经理，原总经理韩竹因工作安排不再担任总经理，"
                                           "继续担任公司董事长。"))
    assert ("韩竹", "worksFor", "青岚机械股份有限公司") in facts


def test_the_company_bought_is_not_the_news_company(zh: ChineseExtractor) -> None:
    # a guard: X100%股权由Y…收购完成。同日，公司原财务总监P辞职: 公司 is Y, the buyer, not X
    facts = triples(extract(zh, "2025年2月26日，河北泓润乳品有限公司100%股权由青岚乳业股份有限公司以4.05亿元收购完成。同日，"
                                "公司原财务总监王建国因个人原因辞职。"))
    assert ("王建国", "worksFor", "河北泓润乳品有限公司") not in facts


def test_a_numbered_item_in_a_chunk_that_names_no_company(zh: ChineseExtractor) -> None:
    # 4、公司与X联合研发的“…”…发布 in a later chunk: the document's company made and released it, not the partner
    facts = _document(zh, DECLARED, "4、公司与武汉大学联合研发的“青岚三号”混合动力装载机于2024年11月在襄阳发布。")
    assert ("青岚机械股份有限公司", "release", "青岚三号") in facts
    assert ("青岚三号", "createdBy", "青岚机械股份有限公司") in facts
    assert ("武汉大学", "release", "青岚三号") not in facts


def test_a_board_post_with_no_body_in_a_later_chunk(zh: ChineseExtractor) -> None:
    # 本公司与德国企业X共同出资设立Y。同日，董事会秘书P因个人原因辞职: the report company's post, not X's
    facts = _document(zh, DECLARED,
                      "2024年4月，本公司与德国企业韦伯液压公司共同出资设立青岚韦伯液压有限公司。同日，董事会秘书贺兰因个人"
                      "原因辞职。")
    assert ("贺兰", "worksFor", "青岚机械股份有限公司") in facts
    assert ("贺兰", "worksFor", "韦伯液压公司") not in facts
