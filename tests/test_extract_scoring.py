"""bench/extract_quality.py's scoring rules added in the eleventh session of issue 23 (docs/extract_gold.md,
"Scoring"): cast predicates match from either side, and 2Wiki's "O' Hara" is O'Hara. On held-out set 4's own
labels, which write the performer's side ("starred in") where the other sets write the work's ("stars")."""

from __future__ import annotations

from typing import Any

import pytest
from test_coe import bench_module


@pytest.fixture(scope="module")
def eq() -> Any:
    return bench_module("extract_quality")


def fact(eq: Any, raw: dict[str, Any]) -> Any:
    passage = eq.Passage({"id": "p", "source": "2wiki", "title": "t", "text": "", "facts": [raw], "aliases": {},
                          "names": []}, 0)
    return eq.Fact(passage, raw)


STARRED_IN = {"s": "Hoot Gibson", "p": "starred in", "o": "The Ridin' Kid from Powder River",
              "alt_p": ["appeared in", "acted in", "cast in", "starring"], "q": {}, "kind": "relation", "sym": False}
STARS = {"s": "Robin Hood of the Range", "p": "stars", "o": "Charles Starrett",
         "alt_p": ["starring", "features", "cast member"], "q": {}, "kind": "relation", "sym": False}


def test_the_works_side_matches_a_gold_fact_written_from_the_performers(eq: Any) -> None:
    scorer, gold = eq.Scorer(), fact(eq, STARRED_IN)
    extracted = {"id": "r", "s": "Ridin' Kid from Powder River", "p": "star", "o": "Hoot Gibson"}
    assert eq.triple_correct(scorer, extracted, [gold])
    assert eq.judge_fact(scorer, gold, {"relations": [extracted], "entities": [], "hypernodes": [],
                                        "events": []}).recalled


def test_the_performers_side_matches_a_gold_fact_written_from_the_works(eq: Any) -> None:
    scorer, gold = eq.Scorer(), fact(eq, STARS)
    assert eq.triple_correct(scorer, {"id": "r", "s": "Charles Starrett", "p": "appear in",
                                      "o": "Robin Hood of the Range"}, [gold])


def test_the_same_side_keeps_its_direction(eq: Any) -> None:
    # Guard: (Actor, star, Film) from the work's side is the wrong way round, as before the rule.
    scorer, gold = eq.Scorer(), fact(eq, STARS)
    assert not eq.triple_correct(scorer, {"id": "r", "s": "Charles Starrett", "p": "star",
                                          "o": "Robin Hood of the Range"}, [gold])
    assert not scorer.converse("direct", "directed by")  # only the cast group has two sides


def test_a_one_letter_prefix_apostrophe_gap_is_closed(eq: Any) -> None:
    assert eq.norm_name("General Charles O' Hara") == eq.norm_name("General Charles O'Hara")
