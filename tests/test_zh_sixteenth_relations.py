"""Issue 25, sixteenth session: relations a new writer states that no rule read (held-out-15, -17 and -19; the table
is in docs/chinese.md, "Sixteenth session"). Each test is a sentence written for it (not one of the bench's labelled
paragraphs) and fails on the code before its change."""

from __future__ import annotations

from test_zh_open_extract import extract, qualifiers, triples
from test_zh_open_extract import zh as zh  # the open-domain extractor, one per module (a fixture)

from kgbuild.extract.zh.extractor import ChineseExtractor


def test_an_adverb_of_now_between_a_person_and_the_post(zh: ChineseExtractor) -> None:
    # 目前 between the founder and 担任 hid who holds the post
    facts = triples(extract(zh, "海川物流成立于2009年，总部位于宁波市北仑区，其创始人韩启东目前担任该公司董事长。"))
    assert ("韩启东", "worksFor", "海川物流") in facts


def test_gai_and_a_kind_word_written_with_the_work_points_at_it(zh: ChineseExtractor) -> None:
    # 该大模型: no fixed list of pointers holds it; the work whose kind was written 大模型“…” is meant
    facts = triples(extract(zh, "7月，云岫科技有限公司发布了大模型“岫言”，该大模型由公司与四川大学联合研发。"))
    assert ("岫言", "createdBy", "四川大学") in facts
    assert ("岫言", "createdBy", "云岫科技有限公司") in facts


def test_a_standard_drafted_by_every_listed_party(zh: ChineseExtractor) -> None:
    # 起草 (drafting) makes a standard as 研制 makes a machine; 该标准 points at the 团体标准《…》
    facts = triples(extract(zh, "2023年，中国焊接协会发布团体标准《激光焊接机器人通用技术条件》，该标准由沈阳焊研科技有限公司、"
                                "大连理工大学和哈尔滨焊接研究院有限公司共同起草。"))
    for drafter in ("沈阳焊研科技有限公司", "大连理工大学", "哈尔滨焊接研究院有限公司"):
        assert ("激光焊接机器人通用技术条件", "createdBy", drafter) in facts


def test_a_city_and_de_before_the_company_that_acts(zh: ChineseExtractor) -> None:
    # 杭州的X: the company releases, not the city
    facts = triples(extract(zh, "杭州的澄岭科技有限公司近日发布了新款手机“澄岭Q5”，售价为2999元。"))
    assert ("澄岭科技有限公司", "release", "澄岭Q5") in facts


def test_subsidiaries_announced_then_listed_after_fenbie_wei(zh: ChineseExtractor) -> None:
    facts = triples(extract(zh, "衡岳电气股份有限公司主营变压器和开关柜。公司另有两家控股子公司，分别为株洲衡岳开关有限公司和"
                                "湘潭衡岳线缆有限公司。"))
    assert ("株洲衡岳开关有限公司", "partOf", "衡岳电气股份有限公司") in facts
    assert ("湘潭衡岳线缆有限公司", "partOf", "衡岳电气股份有限公司") in facts


def test_subsidiaries_listed_after_a_colon_are_not_each_others(zh: ChineseExtractor) -> None:
    # a guard: with no other company named, 公司 is none of the listed ones
    facts = triples(extract(zh, "公司另有两家全资子公司：益阳湘禾食品有限公司和岳阳湘禾冷链物流有限公司。"))
    assert not [t for t in facts if t[1] == "partOf"]


def test_the_latter_turns_the_sentence_to_it(zh: ChineseExtractor) -> None:
    # 注册资本 in the clause after 后者's is the latter's, not the former's (the sentence's first subject)
    result = extract(zh, "湘禾食品另有两家全资子公司：益阳湘禾食品有限公司和岳阳湘禾冷链物流有限公司。前者于2015年在"
                         "益阳市成立；后者的总部位于岳阳市岳阳楼区，注册资本为5000万元。")
    facts = triples(result)
    assert ("岳阳湘禾冷链物流有限公司", "注册资本", "5000万元") in facts
    assert ("益阳湘禾食品有限公司", "注册资本", "5000万元") not in facts
    # nor is the former's founding year the latter's capital's date
    assert not [q for q in qualifiers(result) if q[1] == "注册资本" and q[3] == "时间"]


def test_a_post_between_a_body_and_the_writer_names_the_person(zh: ChineseExtractor) -> None:
    # a guard (passes before the change too): with 编写 now a maker's verb after 由, the company named before the
    # co-founder's post must not become the writer
    facts = triples(extract(zh, "澜舟数据发布了分布式数据库“云栖DB”。云栖DB最初由澜舟数据联合创始人顾明川于2019年编写。"))
    assert ("云栖DB", "createdBy", "顾明川") in facts
    assert ("云栖DB", "createdBy", "澜舟数据") not in facts


def test_a_merger_names_the_merged_as_predecessors(zh: ChineseExtractor) -> None:
    facts = triples(extract(zh, "6月18日，经浙江省人民政府批准，丽水瓯江物流有限公司与衢州衢江物流有限公司合并组建浙西南物流集团"
                                "有限公司，新集团总部设在丽水市莲都区。"))
    assert ("浙西南物流集团有限公司", "predecessor", "丽水瓯江物流有限公司") in facts
    assert ("浙西南物流集团有限公司", "predecessor", "衢州衢江物流有限公司") in facts
    assert ("浙西南物流集团有限公司", "foundedOn", "6月18日") in facts


def test_xin_and_a_kind_is_the_body_just_formed(zh: ChineseExtractor) -> None:
    # 新集团 ("the new group") is the group the merger formed, not a name of its own
    facts = triples(extract(zh, "丽水瓯江物流有限公司与衢州衢江物流有限公司合并组建浙西南物流集团有限公司，新集团总部设在丽水市"
                                "莲都区。"))
    assert ("浙西南物流集团有限公司", "headquarteredIn", "莲都区") in facts
    assert not [t for t in facts if "新集团" in (t[0], t[2])]


def test_a_heads_post_names_the_kind_of_body_it_heads(zh: ChineseExtractor) -> None:
    # 行长 is a bank's head: not the regulator the sentence opened with
    facts = triples(extract(zh, "国家金融监督管理总局日前批复同意筹建赣北农村商业银行股份有限公司，行长由葛慧琳担任。"))
    assert ("葛慧琳", "worksFor", "赣北农村商业银行股份有限公司") in facts
    assert ("葛慧琳", "worksFor", "国家金融监督管理总局") not in facts


def test_a_subsidiary_named_beside_its_parent(zh: ChineseExtractor) -> None:
    facts = triples(extract(zh, "粤海机械股份有限公司发布公告，募集资金将用于本公司及全资子公司江门粤海精工有限公司的技术改造。"))
    assert ("江门粤海精工有限公司", "partOf", "粤海机械股份有限公司") in facts


def test_qi_qianzuo_is_the_persons_earlier_work(zh: ChineseExtractor) -> None:
    facts = triples(extract(zh, "青年作家岑暮雪的长篇小说《北岭》近日出版。岑暮雪生于1985年，其前作《雪线》曾获第三届长白山"
                                "文学奖。"))
    assert ("雪线", "createdBy", "岑暮雪") in facts


def test_the_next_maker_after_a_pointer_and_you(zh: ChineseExtractor) -> None:
    # 该船由A建造，B负责总体设计: the designer of the part named between 负责 and the verb is a maker too
    facts = triples(extract(zh, "“海鹭二号”科考船近日在厦门交付。该船由厦门船舶重工有限公司建造，上海船舶研究设计院负责总体"
                                "设计。"))
    assert ("海鹭二号", "createdBy", "上海船舶研究设计院") in facts



def test_the_company_after_its_seat_and_de_opens_the_clause(zh: ChineseExtractor) -> None:
    # 总部位于P的X成立于…: the founding date is X's (the name declared here, not the company of an earlier sentence)
    facts = triples(extract(zh, "3月5日，鹿鸣物流科技有限公司与荷兰企业范登堡冷链集团签署合作协议。总部位于杭州市滨江区的鹿鸣物流"
                                "成立于2016年，现有员工800人。"))
    assert ("鹿鸣物流", "foundedOn", "2016年") in facts
    assert ("鹿鸣物流科技有限公司", "foundedOn", "2016年") not in facts


def test_a_founder_with_titles_before_wei(zh: ChineseExtractor) -> None:
    facts = triples(extract(zh, "鹿鸣物流科技有限公司成立于2016年，创始人兼首席执行官为蒋牧之。"))
    assert ("鹿鸣物流科技有限公司", "foundedBy", "蒋牧之") in facts


def test_a_company_releases_what_it_developed_with_a_partner(zh: ChineseExtractor) -> None:
    # A与B联合研发的“X”…在广州发布: A releases it; B only made it
    facts = triples(extract(zh, "2024年9月，广东澄海电器股份有限公司与华南理工大学联合研发的“澄风X3”空气净化器在广州发布。"))
    assert ("广东澄海电器股份有限公司", "release", "澄风X3") in facts
    assert ("华南理工大学", "release", "澄风X3") not in facts


def test_the_place_of_an_unnamed_plant_is_not_the_companys(zh: ChineseExtractor) -> None:
    # X位于P的储能电池工厂: the plant is in P; X may be seated elsewhere
    facts = triples(extract(zh, "泉州闽澜新能源有限公司位于福建省泉州市晋江市的储能电池工厂正式投产。"))
    assert not [t for t in facts if t[0] == "泉州闽澜新能源有限公司" and t[1] == "locatedIn"]


def test_a_body_described_as_one_in_a_place_is_there(zh: ChineseExtractor) -> None:
    # a guard: X是一所位于P的大学 describes X itself
    facts = triples(extract(zh, "岷江大学是一所位于乐山的综合性大学，创建于1958年。"))
    assert ("岷江大学", "locatedIn", "乐山") in facts


def test_a_compiler_named_after_his_post_at_a_body(zh: ChineseExtractor) -> None:
    # 编修 (compiling a genealogy) is a maker's verb; 会长 between the body and the person is no name cut in two
    facts = triples(extract(zh, "《岭南陈氏族谱》日前在佛山举行颁谱仪式。该谱由陈氏宗亲会会长陈启鸿主持编修。"))
    assert ("岭南陈氏族谱", "createdBy", "陈启鸿") in facts


def test_quanshu_is_the_work_itself(zh: ChineseExtractor) -> None:
    # 全书 ("the whole book") is published, not the office named in the clause before
    facts = triples(extract(zh, "《岭南陈氏族谱》日前在佛山举行颁谱仪式。新谱共八卷，佛山市地方志办公室主任梁志远担任顾问，"
                                "全书由羊城古籍出版社出版。"))
    assert ("岭南陈氏族谱", "publishedBy", "羊城古籍出版社") in facts
    assert ("佛山市地方志办公室", "publishedBy", "羊城古籍出版社") not in facts


def test_a_founder_described_before_the_name(zh: ChineseExtractor) -> None:
    # 创始人为旅美学者P: what the founder is stands between 为 and the name
    facts = triples(extract(zh, "岭川医药科技有限公司成立于2016年，总部位于杭州市余杭区，创始人为旅美学者段慕白。"))
    assert ("岭川医药科技有限公司", "foundedBy", "段慕白") in facts


def test_founded_in_a_place_on_the_sentences_date(zh: ChineseExtractor) -> None:
    # X在P成立 with the date opening the sentence: where it was founded stands between X and the verb
    facts = triples(extract(zh, "6月2日，浙江大学上海校友会在上海成立。"))
    assert ("浙江大学上海校友会", "foundedOn", "6月2日") in facts


def test_the_first_term_holder_of_a_post_with_no_body(zh: ChineseExtractor) -> None:
    # 首届会长由P担任 after the body's founding: the post is at that body, not the holder's company
    facts = triples(extract(zh, "6月2日，浙江大学上海校友会在上海成立。首届会长由1995届校友、沪杭建设集团有限公司董事长季明川"
                                "担任。"))
    assert ("季明川", "worksFor", "浙江大学上海校友会") in facts
