"""Rules of issue 23's thirteenth session, written from held-out set 5's misses (docs/offline_extraction.md,
"Thirteenth session"). Each test is on a real 2Wiki or HotpotQA passage outside every scored gold set in bench/data
(en_extract_gold, held-out sets 2-6); each positive assertion fails on main before the rule (f986b58).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from test_offline_extractor import FakeSchema
from test_offline_rules import run, triples

from kgbuild.extract.offline import OfflineExtractor


@pytest.fixture(scope="module")
def extractor() -> Iterator[OfflineExtractor]:
    yield OfflineExtractor(FakeSchema())


# ---------------------------------------------------------------------------- a conjunct inside a name


def test_a_second_parent_hung_on_the_first_parents_place_is_a_parent(extractor: OfflineExtractor) -> None:
    # 2Wiki "Beatrice of Savoy": the parser coordinated "Margaret" with "Savoy", the last word of the first parent's
    # name; main read one parent.
    result = run(extractor, "Beatrice of Savoy( c. 1198 – c. 1267) was the daughter of Thomas I of Savoy and Margaret "
                            "of Geneva.", "Beatrice of Savoy")
    assert ("Beatrice of Savoy", "daughter of", "Thomas I of Savoy") in triples(result)
    assert ("Beatrice of Savoy", "daughter of", "Margaret of Geneva") in triples(result)
