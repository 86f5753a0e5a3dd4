"""Issue 25, thirteenth session, second round: causes of held-out-12's false and missed relations (the table is in
docs/chinese.md) and the post rule's narrowing of the chunk's organisations. Each test is a sentence written for it
(not one of the bench's labelled paragraphs) and fails on the code before its change."""

from __future__ import annotations

import pytest
from test_zh_open_extract import extract, triples
from test_zh_open_extract import zh as zh  # the open-domain extractor, one per module (a fixture)

from kgbuild.extract.zh.clause_rules import ClauseScope
from kgbuild.extract.zh.extractor import ChineseExtractor
from kgbuild.extract.zh.open_relations import OpenRelationRules


def test_a_post_in_a_clause_leaves_the_chunks_organisations_to_the_later_rules(
        zh: ChineseExtractor, monkeypatch: pytest.MonkeyPatch) -> None:
    # The post rule once rebound the scope's organisations to the bodies between its verb and the title, so every
    # rule after it in the same clause (subsidiaries, listings, cooperation) saw only those.
    seen: list[list[str]] = []
    cooperation = OpenRelationRules._cooperation

    def spy(self: OpenRelationRules, scope: ClauseScope) -> None:
        seen.append([m.name for m in scope.orgs])
        cooperation(self, scope)

    monkeypatch.setattr(OpenRelationRules, "_cooperation", spy)
    extract(zh, "南湖精工股份有限公司收购了嘉禾模具有限公司，王建国现任嘉禾模具有限公司董事长。")
    assert seen and all("南湖精工股份有限公司" in names for names in seen)
