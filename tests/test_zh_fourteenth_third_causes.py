"""Issue 25, fourteenth session, third round: causes of missed relations on held-out-16 (the table is in
docs/chinese.md). Each test is a sentence written for it (not one of the bench's labelled paragraphs) and fails on
the code before its change."""

from __future__ import annotations

from test_zh_open_extract import extract, triples
from test_zh_open_extract import zh as zh  # the open-domain extractor, one per module (a fixture)

from kgbuild.extract.zh.extractor import ChineseExtractor


def test_a_body_named_after_its_country_and_kind_employed_the_person(zh: ChineseExtractor) -> None:
    # 在德国企业X工作: the words for the body's country and kind stand between 在 and its name
    facts = triples(extract(zh, "阚明哲，1979年出生，此前曾在瑞士企业阿尔卑斯精工有限公司工作八年。"))
    assert ("阚明哲", "worksFor", "阿尔卑斯精工有限公司") in facts
