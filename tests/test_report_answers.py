"""Model-free answers to questions over Chinese reports (issue 25): the extractive answer reads Chinese
words, never answers with the question's own company, and a graph fact whose words match the question
answers before any span is cut."""

from __future__ import annotations

from kgbuild.graph.projection import GraphProjection
from kgbuild.merge import merge
from kgbuild.model import Ref, Relation
from kgbuild.query.retrieval.answer import extract_ranked
from kgbuild.query.retrieval.fact_answer import fact_answer
from kgbuild.query.retrieval.index import MutualIndex
from kgbuild.query.retrieval.text import content_words, spans, word_spans
from kgbuild.text import fold


def test_chinese_runs_are_cut_into_words_with_their_offsets() -> None:
    text = "燕翎风电的总部位于北京市海淀区，2015年在上海证券交易所上市。"
    cut = word_spans(text)
    assert all(text[s:e] == w for w, s, e in cut)
    assert {"总部", "位于"} <= {w for w, _, _ in cut}
    assert "哪里" not in content_words("燕翎风电的总部位于哪里？") and "总部" in content_words("燕翎风电的总部位于哪里？")
    english = "Maurice Wilkes built EDSAC at Cambridge in 1949."
    assert word_spans(english) == spans(english)  # English is cut exactly as before


def _index(text: str, entities: list[tuple[str, str]], relations: list[dict] | None = None) -> MutualIndex:
    chunks = [{"id": "r#p1#0", "doc_id": "r", "text": text}]
    rows = [{"id": f"e{i}", "name": name, "spg_class": cls, "chunk_ids": ["r#p1#0"]}
            for i, (name, cls) in enumerate(entities)]
    return MutualIndex.from_rows(chunks, rows, relations or [])


def test_the_extractive_answer_weighs_the_chinese_words_a_question_shares() -> None:
    # Before: the whole question was one token, so no sentence shared a word with it and the first
    # place in the passage (another company's partner country) was the answer.
    text = ("2024年4月，本公司与乌兹别克斯坦企业撒马尔罕能源集团共同出资设立燕翎中亚风电有限公司。"
            "燕翎风电装备股份有限公司总部位于北京市海淀区。")
    index = _index(text, [("乌兹别克斯坦", "Country"), ("北京市", "City"), ("撒马尔罕能源集团", "Company")])
    answer, _, sentence, _ = extract_ranked("燕翎风电的总部位于哪里？", [("r#p1#0", "年报", text)], index)
    assert answer == "北京市" and "总部" in sentence


def test_the_question_s_own_company_is_never_its_answer() -> None:
    text = "黔穹航空股份有限公司的控股股东为贵州筑穹投资控股有限公司。"
    index = _index(text, [("黔穹航空股份有限公司", "Company"), ("贵州筑穹投资控股有限公司", "Company")])
    chunks = [("r#p1#0", "年报", text)]
    own = frozenset({fold("黔穹航空股份有限公司")})  # linked by its short name 黔穹航空, an alias
    answer, _, _, _ = extract_ranked("黔穹航空的控股股东是哪家公司？", chunks, index, own=own)
    assert answer == "贵州筑穹投资控股有限公司"


REPORT = "黔穹航空股份有限公司2025年第一季度报告。"
COMPANY = ("黔穹航空股份有限公司", "Company")
NAMES = [COMPANY, ("贵州筑穹投资控股有限公司", "Company"), ("香港中央结算有限公司", "Company"),
         ("龙启帆", "Person"), ("韦晓澜", "Person"), ("观山湖区", "AdministrativeRegion"),
         ("3,846,205,117.43元", "Thing"), ("3,310,472,650.08元", "Thing")]


def _relation(s: int, p: str, o: int, said: str = "", qualifiers: tuple[str, ...] = ()) -> dict:
    return {"id": f"r{s}-{o}", "subject_id": f"e{s}", "predicate": p, "object_id": f"e{o}",
            "chunk_ids": ["r#p1#0"], "said": said, "qualifiers": list(qualifiers)}


def _report_index() -> MutualIndex:
    return _index(REPORT, NAMES, [
        _relation(0, "ownedBy", 2, "持股"),
        _relation(0, "ownedBy", 1, "持股 / 控股股东", ("比例: 46.20%",)),
        _relation(4, "worksFor", 0, "董事会秘书"),
        _relation(3, "worksFor", 0, "董事长", ("时间: 2025年3月18日",)),
        _relation(0, "headquarteredIn", 5, "总部设在"),
        _relation(0, "营业收入", 7, "", ("时间: 2024年第一季度",)),
        _relation(0, "营业收入", 6, "", ("时间: 2025年第一季度", "同比增长: 16.18%")),
    ])


def _fact(question: str) -> str:
    index = _report_index()
    found = fact_answer(question, index, [index.node_pos["e0"]])
    return found.answer if found is not None else ""


def test_a_fact_of_the_named_company_answers_what_its_words_ask() -> None:
    assert _fact("黔穹航空的控股股东是哪家公司？") == "贵州筑穹投资控股有限公司"
    assert _fact("黔穹航空的董事长是谁？") == "龙启帆"
    assert _fact("黔穹航空的董事会秘书是谁？") == "韦晓澜"
    assert _fact("黔穹航空的总部在哪里？") == "观山湖区"
    # the period in the question chooses between the two quarters' figures
    assert _fact("黔穹航空2025年第一季度的营业收入是多少？") == "3,846,205,117.43元"
    assert _fact("黔穹航空2024年第一季度的营业收入是多少？") == "3,310,472,650.08元"


def test_of_two_holders_of_a_post_the_later_answers_and_a_place_reads_as_the_text_writes_it() -> None:
    text = "原董事长石鹏飞辞职。2025年3月18日，董事会选举龙启帆为董事长。公司总部位于贵州省贵阳市观山湖区。"
    index = _index(text, [COMPANY, ("石鹏飞", "Person"), ("龙启帆", "Person"), ("观山湖区", "AdministrativeRegion"),
                          ("贵阳市", "City"), ("贵州省", "Province")], [
        _relation(1, "worksFor", 0, "董事长", ("时间: 2019年6月",)),
        _relation(2, "worksFor", 0, "董事长", ("时间: 2025年3月18日",)),
        _relation(0, "headquarteredIn", 3, "总部位于"),
        _relation(3, "locatedIn", 4), _relation(4, "locatedIn", 5)])

    def ask(question: str) -> str:
        found = fact_answer(question, index, [index.node_pos["e0"]])
        return found.answer if found is not None else ""

    assert ask("黔穹航空的董事长是谁？") == "龙启帆"
    assert ask("黔穹航空现任董事长是谁？") == "龙启帆"  # 现任 is no word of the link
    assert ask("黔穹航空的总部位于哪里？") == "贵州省贵阳市观山湖区"


def test_a_fact_answers_only_a_question_that_asks_it_the_way_it_reads() -> None:
    # the review's cases: the named entity holding the role asked, a chain through an unnamed entity, a year
    # no fact of the entity has, a qualifier asked for, a "what" question the type gate cannot check
    assert _fact("黔穹航空是哪家公司的控股股东？") == ""
    assert _fact("黔穹航空的控股股东的董事长是谁？") == ""
    assert _fact("黔穹航空2023年的营业收入是多少？") == ""
    assert _fact("黔穹航空2025年第一季度的营业收入同比增长多少？") == "16.18%"
    assert _fact("黔穹航空的控股股东是什么？") == ""


def test_an_english_fact_answers_from_the_end_the_question_names() -> None:
    text = "Lord Byron was the father of Ada Lovelace. Charmed aired on The WB."
    index = _index(text, [("Lord Byron", "Person"), ("Ada Lovelace", "Person"), ("Charmed", "Work"),
                          ("The WB", "Organization")],
                   [_relation(0, "father of", 1), _relation(2, "airedOn", 3)])

    def ask(question: str, entity: str) -> str:
        found = fact_answer(question, index, [index.node_pos[entity]])
        return found.answer if found is not None else ""

    assert ask("Who was the father of Ada Lovelace?", "e1") == "Lord Byron"
    assert ask("Who was the father of Lord Byron?", "e0") == ""  # Ada Lovelace is his daughter, not his father
    assert ask("Which network aired Charmed?", "e2") == "The WB"
    assert ask("Who was the father of the woman who translated the memoir?", "e1") == ""  # a chain: not one fact


def test_no_fact_answers_when_none_says_what_is_asked_or_its_end_is_of_another_kind() -> None:
    assert _fact("黔穹航空的注册资本是多少？") == ""  # no relation says 注册资本
    assert _fact("黔穹航空的控股股东出生在哪里？") == ""  # a company is no place


def test_the_projection_carries_each_relation_s_own_words_and_qualifiers_to_the_index() -> None:
    projection = GraphProjection.from_rows(
        chunks=[{"id": "r#p1#0", "doc_id": "r", "text": REPORT}],
        entities=[{"id": f"e{i}", "name": n, "spg_class": c, "chunk_ids": ["r#p1#0"]} for i, (n, c) in
                  enumerate(NAMES[:3])],
        relations=[{"id": "a", "subject_id": "e0", "predicate": "ownedBy", "object_id": "e1",
                    "chunk_ids": ["r#p1#0"], "properties": '{"said": "控股股东"}'},
                   {"id": "b", "subject_id": "e0", "predicate": "ownedBy", "object_id": "e2",
                    "chunk_ids": ["r#p1#0"], "properties": '{"said": "持股"}'}],
        hypernodes=[{"id": "h", "subject_id": "a", "subject_kind": "relation", "predicate": "比例",
                     "object_id": "v", "object_name": "46.20%"}])
    index = MutualIndex.from_projection(projection)
    rows = {r.id: r for r in index.relations}
    assert (rows["a"].said, rows["a"].qualifiers) == ("控股股东", ("比例: 46.20%",))
    assert rows["b"].said == "持股"


def test_merging_one_relation_keeps_every_wording_of_it() -> None:
    def rel(said: str) -> Relation:
        return Relation(id="r", subject=Ref(kind="entity", id="a", name="A"), predicate="ownedBy",
                        object=Ref(kind="entity", id="b", name="B"), properties={"said": said})

    assert merge(rel("持股"), rel("控股股东")).properties["said"] == "持股 / 控股股东"
    assert merge(merge(rel("持股"), rel("控股股东")), rel("持股")).properties["said"] == "持股 / 控股股东"


def test_a_worksfor_keeps_the_post_as_the_words_of_its_link() -> None:
    from test_zh_open_extract import chunk

    from kgbuild.extract.zh.extractor import ChineseExtractor
    from kgbuild.schema import resolve_schema

    text = ("2021年5月起，阎振川任本公司董事长。霍景澄，1972年出生，此前任山西瑭通路桥建设有限公司总经理。"
            "2025年3月18日，本公司召开第五届董事会第九次会议，选举龙启帆为本公司董事长。")
    got = {(r.subject.name, r.properties.get("said", "")) for r in
           ChineseExtractor(resolve_schema("open_domain")).extract_one(chunk(text)).relations if r.predicate == "worksFor"}
    assert got == {("阎振川", "董事长"), ("霍景澄", "总经理"), ("龙启帆", "董事长")}  # before: 任, 任, ""


def test_a_code_is_no_name() -> None:
    from kgbuild.query.retrieval.answer_check import check_type

    assert check_type("岱升电梯的实际控制人是谁？", "2026-021").fits is False  # a notice number, not a person
    assert check_type("Who designed EDSAC?", "Maurice Wilkes").fits is not False


def test_the_cli_says_when_the_answer_is_a_graph_fact() -> None:
    import io

    from rich.console import Console

    from kgbuild.cli.query import print_answer
    from kgbuild.query.types import FACT_NOTE, Answer

    out = io.StringIO()
    answer = Answer(question="燕翎风电的总部位于哪里？", answer="北京市海淀区", resolved=False, mode="retrieval",
                    strategy="hybrid", notes=[f"{FACT_NOTE}: (燕翎风电装备股份有限公司, headquarteredIn, 海淀区)"])
    print_answer(answer, Console(file=out, width=100))
    assert "hybrid: from a graph fact of the entity the question names" in out.getvalue()
    assert "extractive answer" not in out.getvalue()
