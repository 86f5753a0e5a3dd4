"""The words a text used for a relation ("said": 出生于 for bornIn) reach the predicate vectors FRAG ranks
paths with, so a Chinese question's relation words meet the stated path rather than a passage's
co-mention (issue 25: the Chinese samples' demo question answered 费城 over 布达佩斯)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from graph_fakes import GraphResources, HashEmbedder

from kgbuild.graph.projection import GraphProjection, said_words
from kgbuild.graph.vectors import predicate_texts
from kgbuild.query.frag.strategy import FragStrategy
from kgbuild.query.retrieval.index import MutualIndex
from kgbuild.query.retrieval.text import full_text_terms
from kgbuild.query.strategy import Budget
from kgbuild.workspace import Workspace

QUESTION = "EDSAC的设计者所依据的报告的作者出生在哪个城市？"
# The Chinese samples' wording (samples/corpus_zh), cut to what the question needs.
TEXTS = {
    "edsac": ("EDSAC", "威尔克斯根据《第一份草案》设计了EDSAC。"),
    "draft": ("约翰·冯·诺依曼", "1944年，冯·诺依曼访问了费城。1945年，冯·诺依曼撰写了《第一份草案》。"),
    "born": ("约翰·冯·诺依曼", "1903年12月28日，冯·诺依曼出生于布达佩斯。"),
}


def cid(doc: str) -> str:
    return f"{doc}#p00000#0"


ENTITIES: list[dict[str, Any]] = [
    {"id": "e_edsac", "name": "EDSAC", "spg_class": "ArtificialObject", "chunk_ids": [cid("edsac")]},
    {"id": "e_draft", "name": "第一份草案", "spg_class": "Work", "chunk_ids": [cid("edsac"), cid("draft")]},
    {"id": "e_jvn", "name": "约翰·冯·诺依曼", "spg_class": "Person", "chunk_ids": [cid("draft"), cid("born")]},
    {"id": "e_phila", "name": "费城", "spg_class": "City", "chunk_ids": [cid("draft")]},
    {"id": "e_budapest", "name": "布达佩斯", "spg_class": "City", "chunk_ids": [cid("born")]},
]


def relations(said: bool) -> list[dict[str, Any]]:
    rows = [("r_based", "e_edsac", "designBasedOn", "e_draft", "edsac", "根据"),
            ("r_wrote", "e_draft", "createdBy", "e_jvn", "draft", "撰写"),
            ("r_born", "e_jvn", "bornIn", "e_budapest", "born", "出生于")]
    return [{"id": rid, "subject_id": s, "predicate": p, "object_id": o, "chunk_ids": [cid(doc)],
             "properties": json.dumps({"said": words} if said else {}, ensure_ascii=False)}
            for rid, s, p, o, doc, words in rows]


def resources(tmp_path: Path, said: bool) -> GraphResources:
    chunks = [{"id": cid(k), "doc_id": k, "text": text} for k, (_, text) in TEXTS.items()]
    docs = [{"id": k, "title": title} for k, (title, _) in TEXTS.items()]
    rels = relations(said)
    projection = GraphProjection.from_rows(chunks=chunks, entities=ENTITIES, relations=rels, documents=docs)
    index = MutualIndex.from_rows(chunks, [{**e, "aliases": []} for e in ENTITIES], rels, (), docs)
    return GraphResources(projection, index, HashEmbedder(64, "hash64cjk", full_text_terms), Workspace(tmp_path / "ws"))


def test_said_words_are_read_from_the_table_and_embedded_beside_the_name(tmp_path: Path) -> None:
    assert said_words('{"said": "出生于"}') == "出生于" and said_words({"said": "撰写"}) == "撰写"
    assert said_words("{}") == "" and said_words(None) == "" and said_words("not json") == ""
    p = resources(tmp_path, said=True).projection()
    texts = dict(zip(p.predicates, predicate_texts(p), strict=True))
    assert texts["bornIn"] == "born in 出生于" and texts["createdBy"] == "created by 撰写"
    assert texts["mentions"] == "mentions"  # a passage's mention states nothing in words
    plain = resources(tmp_path, said=False).projection()
    assert dict(zip(plain.predicates, predicate_texts(plain), strict=True))["bornIn"] == "born in"


def test_frag_answers_the_chinese_demo_question_over_the_stated_path(tmp_path: Path) -> None:
    """Both 费城 (EDSAC -> 草案 <- passage -> 费城) and 布达佩斯 (EDSAC -> 草案 -> createdBy -> 冯·诺依曼 ->
    bornIn -> 布达佩斯) are three hops away; with the text's words on the predicates the question's
    出生 and 依据 meet the stated path."""
    answer = FragStrategy(resources(tmp_path, said=True), Budget()).answer(QUESTION, Budget())
    assert answer.answer == "布达佩斯"
    reached = next(n for n in answer.trace[-1].result.notes or [] if n.startswith("reached by"))
    assert reached.endswith("-> bornIn -> 布达佩斯") and "mentions" not in reached
    # without the words, nothing in a path but its passage meets the question: the co-mention won
    assert FragStrategy(resources(tmp_path, said=False), Budget()).answer(QUESTION, Budget()).answer == "费城"
