"""Chinese questions get an expected answer type (issue 25, item 2), so the model-free answers pass the
same type check as English ones: 谁 a person, 哪里 a place, 多少 a number, 哪一年 a year..."""

from __future__ import annotations

import pytest

from kgbuild.query.retrieval import answer_types as at
from kgbuild.query.retrieval import answer_types_zh as zh
from kgbuild.query.retrieval.answer import extract_ranked
from kgbuild.query.retrieval.answer_check import check_type


@pytest.mark.parametrize(("question", "kind"), [
    ("星河智能的董事长是谁？", at.PERSON),
    ("《长河落日》是哪位作家写的？", at.PERSON),
    ("星河智能的总部位于哪里？", at.PLACE),
    ("钱学森出生在哪个城市？", at.PLACE),
    ("哪家公司收购了莱茵特种材料公司？", at.ORG),
    ("李明远毕业于哪所大学？", at.ORG),
    ("周慕白写了什么小说？", at.WORK),
    ("2022年星河智能的营业收入是多少？", at.NUMBER),
    ("远帆物流旗下有几家子公司？", at.NUMBER),
    ("清源大学创建于哪一年？", at.YEAR),
    ("青禾银行何时与星展银行签署合作协议？", at.DATE),
    ("星河智能是否收购了云帆软件？", at.YESNO),
    ("李明远毕业于浙江大学吗？", at.YESNO),
    ("天枢是什么？", at.ANY),
])
def test_chinese_question_words_give_the_kind(question: str, kind: str) -> None:
    assert at.expected(question).kind == kind


def test_a_comparison_names_its_two_options_and_its_order() -> None:
    want = at.expected("格蕾丝·霍珀和艾伦·图灵谁先出生？")
    assert (want.kind, want.options, want.order) == (at.CHOICE, ("格蕾丝·霍珀", "艾伦·图灵"), "earlier")
    want = at.expected("EDSAC还是ENIAC？")
    assert (want.kind, want.options) == (at.CHOICE, ("EDSAC", "ENIAC"))


def test_kind_names_are_the_english_ones() -> None:
    assert (zh.YESNO, zh.CHOICE, zh.DATE, zh.YEAR, zh.NUMBER, zh.PLACE, zh.PERSON, zh.ORG, zh.WORK, zh.ANY) == (
        at.YESNO, at.CHOICE, at.DATE, at.YEAR, at.NUMBER, at.PLACE, at.PERSON, at.ORG, at.WORK, at.ANY)


def test_english_questions_are_typed_as_before() -> None:
    assert at.expected("Who designed the Colossus?").kind == at.PERSON
    assert at.expected("In what year did Turing join Bletchley Park?").kind == at.YEAR


def test_chinese_amounts_and_dates_are_spans_of_their_kind() -> None:
    text = "2022年，星河智能实现营业收入128.6亿元，同比增长12.4%；截至2022年12月31日，员工18,562人。"
    assert [s for s, _, _ in at.pattern_spans(text, at.NUMBER)] == ["128.6亿元", "12.4%", "18,562人"]
    assert [s for s, _, _ in at.pattern_spans(text, at.DATE)] == ["2022年", "2022年12月31日"]
    assert [s for s, _, _ in at.pattern_spans("星河智能2023年上半年营收", at.DATE)] == ["2023年上半年"]


def test_the_type_check_runs_on_chinese_questions() -> None:
    # The nonsense answers of the trial: a year for a person, a page marker, a bare count.
    who = check_type("星河智能的董事长是谁？", "2022")
    assert who.expected == at.PERSON and who.fits is False
    assert check_type("星河智能的营业收入是多少？", "128.6亿元").fits is True
    assert check_type("星河智能的营业收入是多少？", "杭州").fits is False
    assert check_type("星河智能成立于哪一年？", "2009年").fits is True
    assert check_type("星河智能何时成立？", "2009年3月1日").fits is True
    assert check_type("星河智能何时成立？", "星河智能").fits is False


def test_the_extractive_answer_picks_a_span_of_the_kind_asked() -> None:
    chunks = [("r#0#0", "年报", "星河智能科技股份有限公司成立于2009年，总部位于杭州。"
                                 "2022年，星河智能实现营业收入128.6亿元，同比增长12.4%。")]
    answer, _, sentence, _ = extract_ranked("星河智能2022年的营业收入是多少？", chunks)
    assert answer == "128.6亿元" and "营业收入" in sentence
    answer, _, _, _ = extract_ranked("星河智能成立于哪一年？", chunks)
    assert answer == "2009年"


def test_a_chinese_question_links_the_graph_names_it_contains() -> None:
    from kgbuild.query.retrieval.index import MutualIndex
    from kgbuild.query.retrieval.linking import EntityLinker

    chunks = [{"id": "c1", "doc_id": "EDSAC", "text": "EDSAC由莫里斯·威尔克斯建造。"},
              {"id": "c2", "doc_id": "冯诺依曼", "text": "约翰·冯·诺依曼出生于布达佩斯。"}]
    entities = [{"id": "e1", "name": "EDSAC", "spg_class": "ArtificialObject", "chunk_ids": ["c1"]},
                {"id": "e2", "name": "约翰·冯·诺依曼", "spg_class": "Person", "chunk_ids": ["c2"]},
                {"id": "e3", "name": "布达佩斯", "spg_class": "City", "chunk_ids": ["c2"]}]
    index = MutualIndex.from_rows(chunks, entities, [])
    linker = EntityLinker(index, None, None, "x")
    found, unmatched = linker.mentions("EDSAC的设计者所依据的报告的作者出生在哪个城市？")
    assert [m.text for m in found] == ["EDSAC"] and unmatched == []
    found, _ = linker.mentions("约翰·冯·诺依曼出生在哪里？")
    assert [m.text for m in found] == ["约翰·冯·诺依曼"]


def test_frag_counts_the_unnamed_links_of_a_chinese_question() -> None:
    from kgbuild.query.frag.router import chain_markers

    assert chain_markers("星河智能的董事长是谁？") == 0  # the chairman of a named company: no hop in between
    assert chain_markers("EDSAC的设计者所依据的报告的作者出生在哪个城市？") == 2  # the designer, the report
