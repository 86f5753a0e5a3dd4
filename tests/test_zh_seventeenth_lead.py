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


# ---- the review's findings on this session's readers and rules (each fails on the merged rounds before the mend)

def test_an_html_header_over_a_first_row_of_data_keeps_the_data() -> None:
    # 任职情况 spans two columns, but no cell spans both rows: the second row is an officer, not a header
    from kgbuild.ingest.readers.converter_markup import html_table_parts

    captions, rows = html_table_parts("<table><caption>表1 董事会成员</caption><tr><th>姓名</th><th colspan=2>任职情况</th>"
                                      "</tr><tr><td>岑柏舟</td><td>董事长</td><td>现任</td></tr><tr><td>韩立</td>"
                                      "<td>董事</td><td>现任</td></tr></table>")
    assert rows[1] == ["岑柏舟", "董事长", "现任"] and captions == ["表1 董事会成员"]
    _, periods = html_table_parts("<table><tr><td rowspan=2>项目</td><td colspan=2>本报告期</td></tr><tr><td>金额</td>"
                                  "<td>比上年同期增减(%)</td></tr><tr><td>营业收入</td><td>1,000</td><td>5.2</td></tr>"
                                  "</table>")
    assert periods[0] == ["项目", "本报告期金额", "本报告期比上年同期增减(%)"]


def test_a_page_break_joins_only_a_sentence_it_cut() -> None:
    from kgbuild.ingest.readers.converter_markup import strip_converter_markup

    header = "浙江某某科技股份有限公司2024年年度报告全文"
    cut, _ = strip_converter_markup(f"报告期内公司与多家高校开展合作，其中最重要的一项合作与浙江大\n\n<PAGE_DIV>\n\n{header}\n\n"
                                    f"学签署了战略合作协议。\n\n<PAGE_DIV>\n\n{header}\n")
    assert "与浙江大学签署了战略合作协议" in cut  # the running header between is a page's mark
    heading, _ = strip_converter_markup("一、报告期内公司所处行业情况及公司从事的主要业务情况\n\n- 12 -\n\n公司主要从事燃气业务。")
    assert "情况公司主要" not in heading
    english, _ = strip_converter_markup("The company grew strongly in the year to reach 2023\n\n<PAGE_DIV>\n\n"
                                        "2024 results were weaker.")
    assert "20232024" not in english
    year, _ = strip_converter_markup("报告期内公司的营业收入和净利润均保持稳定增长，下半年销量增加\n\n第 3 页 共 120 页\n\n"
                                     "2025年公司将继续推进。")
    assert "增加2025年" not in year


def test_numbered_short_lines_after_a_colon_are_the_paragraphs_list() -> None:
    from kgbuild.ingest.readers.markdown import parse_markdown

    parsed = parse_markdown("公司的主要措施如下：\n一、加强研发投入\n二、拓展海外市场\n三、降低成本。\n\n一、主要财务数据\n\n"
                            "公司营业收入增长。")
    assert parsed.paragraphs[0].text.endswith("三、降低成本。")
    assert parsed.paragraphs[1].section == ["一、主要财务数据"]


def test_a_kin_cue_and_ren_gongsi_make_no_company(zh: ChineseExtractor) -> None:
    # jieba: 王立 | 新任: 子张明任公司, 妻弟王立新任公司 were companies
    for text, person in (("张伟之子张明任公司总经理。", "张明"), ("其妻弟王立新任公司副总经理，分管海外销售业务。", "王立新")):
        found = entities(extract(zh, text))
        assert person in found and not any(n.endswith("任公司") for n in found)
    assert "云杉纺织有限责任公司" in entities(extract(zh, "云杉纺织有限责任公司董事长为王明。"))


def test_a_firms_own_text_is_about_the_firm(zh: ChineseExtractor) -> None:
    # a law firm's profile: its 公司 is no report's; only an auditor framing the report (经X审计) is set aside
    facts = triples(extract(zh, "北京市金杜律师事务所成立于1993年，公司总部位于北京。"))
    assert ("北京市金杜律师事务所", "headquarteredIn", "北京") in facts


def test_an_officers_table_with_another_bodys_column_and_a_group_row(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from test_zh_report_tables import _build

    _, facts, _ = _build(tmp_path, "# 浙江蔚川物流股份有限公司2024年年度报告\n\n浙江蔚川物流股份有限公司（以下简称“蔚川物流”或“公司”）"
                                   "主营物流。\n\n| 姓名 | 职务 | 任职状态 | 任期起始日期 |\n| --- | --- | --- | --- |\n"
                                   "| 独立董事 | | | |\n| 岑柏舟 | 董事长 | 现任 | 2021年5月18日 |\n\n"
                                   "| 姓名 | 其他单位名称 | 职务 | 任期起始日期 |\n| --- | --- | --- | --- |\n"
                                   "| 韩立春 | 浙江海潮集团有限公司 | 董事 | 2020年3月1日 |\n")
    assert ("岑柏舟", "worksFor", "浙江蔚川物流股份有限公司") in facts
    assert ("独立董事", "worksFor", "浙江蔚川物流股份有限公司") not in facts
    assert ("韩立春", "worksFor", "浙江蔚川物流股份有限公司") not in facts


def test_a_counterparty_written_before_yu_gongsi_is_not_the_reports_company(zh: ChineseExtractor) -> None:
    # X与公司签订…: X deals with the report's company; the 公司 after is the document's, not X (the review's last case)
    result = extract(zh, "杭州云帆科技有限公司与公司签订采购合同，公司2024年实现营业收入12.5亿元。")
    assert ("杭州云帆科技有限公司", "营业收入", "12.5亿元") not in triples(result)
