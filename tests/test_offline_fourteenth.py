"""Rules of issue 23's fourteenth session: the entities of a HotpotQA build that no relation touches
(docs/offline_extraction.md, "Fourteenth session"). Each test is on a real HotpotQA or 2Wiki passage whose title is in
no bench/data/en_extract_*.jsonl set and no 2wiki_heldout*_qa.json supporting fact (checked by script); each positive
assertion fails on main before the rule (f449d22), the guards pass on both.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from test_offline_extractor import FakeSchema
from test_offline_rules import names, run

from kgbuild.extract.offline import OfflineExtractor

GLIDER = ("Glider is a 4 piece jazz-rock combo created by Jim Bogios and David Immergluck - both members of Counting "
          "Crows. Between 2003 and 2009, Glider played shows in San Francisco, Oakland, Berkeley and Sacramento between "
          "Counting Crows tours. Glider has been inactive since their last show on December 26, 2009 at Cafe Du Nord in "
          "San Francisco.")


@pytest.fixture(scope="module")
def extractor() -> Iterator[OfflineExtractor]:
    yield OfflineExtractor(FakeSchema())


# ---------------------------------------------------------------------------- dates no fact uses


def test_a_date_no_fact_uses_is_no_node(extractor: OfflineExtractor) -> None:
    # HotpotQA "Glider (band)": "inactive since their last show on December 26, 2009" makes no fact, and main kept
    # the date as an entity with no edge (one of 406 such dates in the HotpotQA build).
    result = run(extractor, GLIDER, "Glider (band)")
    assert "December 26, 2009" not in names(result)
    assert "Glider" in names(result)  # the names stay


def test_a_date_a_fact_uses_stays(extractor: OfflineExtractor) -> None:
    # Guard, HotpotQA "Christmas with The Brady Bunch": the years qualify the release and the re-issue.
    result = run(extractor, "Christmas with The Brady Bunch (also known as Merry Christmas from The Brady Bunch) is an "
                            "album released by Paramount Records in 1970.", "Christmas with The Brady Bunch")
    assert "1970" in names(result)
    assert {h.object.name for h in result.hypernodes} == {"1970"}
