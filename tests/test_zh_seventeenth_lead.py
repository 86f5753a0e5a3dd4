"""Issue 25, seventeenth session (the lead's round, from held-out-20, -21 and -22 read after scoring): names a rare
character opens, a report's own shareholders written before their names, former office holders. Each test is a
sentence written for it (not one of the bench's labelled paragraphs) and fails on the code before its change."""

from __future__ import annotations

from test_zh_open_extract import entities, extract, triples
from test_zh_open_extract import zh as zh  # the open-domain extractor, one per module (a fixture)

from kgbuild.extract.zh.extractor import ChineseExtractor


def test_a_rare_character_and_the_one_glued_to_it_open_a_company_name(zh: ChineseExtractor) -> None:
    # jieba: 嵘 (x) | 拓 (v) | 智慧 | 物流 ; 宜 (vg) | 芃 (zg) | 磷化: the brand's two characters were left outside
    found = entities(extract(zh, "嵘拓智慧物流股份有限公司成立于2008年4月，总部位于重庆市沙坪坝区。"))
    assert "嵘拓智慧物流股份有限公司" in found and "智慧物流股份有限公司" not in found
    found = entities(extract(zh, "2024年度，宜芃磷化集团股份有限公司生产磷酸一铵86.4万吨。"))
    assert "宜芃磷化集团股份有限公司" in found


def test_jing_and_the_reports_company_is_no_name(zh: ChineseExtractor) -> None:
    # jieba tags 经 a noun before 公司: 经公司董事会审议 is "passed by the company's board"
    found = entities(extract(zh, "经公司第四届董事会第二十一次会议审议通过，公司拟向全体股东每10股派发现金红利3元。"))
    assert "经公司" not in found


def test_the_owners_role_written_right_before_the_owner(zh: ChineseExtractor) -> None:
    facts = triples(extract(zh, "桐川纸业股份有限公司主营文化纸。报告期内，公司控股股东广西桐川林业集团有限公司通过集中竞价"
                                "交易方式增持公司股份1,230万股。"))
    assert ("桐川纸业股份有限公司", "ownedBy", "广西桐川林业集团有限公司") in facts
    news = triples(extract(zh, "12月3日，闽澜食品股份有限公司公告称，控股股东厦门澜丰实业集团有限公司计划增持公司股份。"))
    assert ("闽澜食品股份有限公司", "ownedBy", "厦门澜丰实业集团有限公司") in news
    top = triples(extract(zh, "鹤川殡葬服务股份有限公司主营殡葬服务。截至2024年末，公司前两大股东分别为无锡鹤川投资控股有限公司"
                              "和香港中央结算有限公司。"))
    assert {("鹤川殡葬服务股份有限公司", "ownedBy", "无锡鹤川投资控股有限公司"),
            ("鹤川殡葬服务股份有限公司", "ownedBy", "香港中央结算有限公司")} <= top


def test_a_post_after_the_holder_of_the_reports_company_is_the_companys(zh: ChineseExtractor) -> None:
    # the sentence opens with the holder; 董事长P after the semicolon heads the report's company, not the holder
    facts = triples(extract(zh, "琅川特种纸业股份有限公司（以下简称“琅川纸业”或“公司”）主营特种纸。截至2024年末，衢州琅川投资"
                                "有限公司持有公司38.6%的股份，为公司控股股东；董事长詹觉民及其配偶蒯书宁合计持有公司9.2%的股份，"
                                "二人为公司的共同实际控制人。"))
    assert ("詹觉民", "worksFor", "琅川特种纸业股份有限公司") in facts
    assert ("詹觉民", "worksFor", "衢州琅川投资有限公司") not in facts
    assert ("琅川特种纸业股份有限公司", "ownedBy", "詹觉民") in facts


def test_a_former_holder_named_with_the_bodys_pointer(zh: ChineseExtractor) -> None:
    # 该行原行长P…辞去: the bank's former president worked there (the labelled sets say so)
    facts = triples(extract(zh, "泸溪农村商业银行股份有限公司公告，该行董事会已聘任郜宇为行长。该行原行长柴立因工作调动，"
                                "已于今年10月辞去行长职务。"))
    assert ("柴立", "worksFor", "泸溪农村商业银行股份有限公司") in facts
