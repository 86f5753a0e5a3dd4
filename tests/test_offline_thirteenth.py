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


def test_a_second_parent_hung_on_a_styled_fathers_title_is_a_parent(extractor: OfflineExtractor) -> None:
    # 2Wiki "Nicolas, Duke of Mercœur" and HotpotQA "Henry Stafford, 1st Baron Stafford": the mother was coordinated
    # with a word of the father's styled name ("Antoine, Duke of Lorraine and Renée de Bourbon"); main read one parent.
    result = run(extractor, "Nicolas of Lorraine, Duke of Mercœur (16 October 1524 – 23 January 1577) was the second "
                            "son of Antoine, Duke of Lorraine and Renée de Bourbon.", "Nicolas, Duke of Mercœur")
    assert ("Nicolas of Lorraine, Duke of Mercœur", "son of", "Renée de Bourbon") in triples(result)
    result = run(extractor, "Eleanor (or Alianore) was the daughter of Henry Percy, 4th Earl of Northumberland and Maud "
                            "Herbert, Countess of Northumberland.", "Henry Stafford, 1st Baron Stafford")
    assert ("Eleanor", "daughter of", "Maud Herbert, Countess of Northumberland") in triples(result)


def test_a_place_after_the_place_of_a_title_stays_the_territory(extractor: OfflineExtractor) -> None:
    # Guard, 2Wiki "Charles Stewart, 3rd Duke of Richmond": "Baron Stuart of Newbury, Berkshire, and Earl of
    # Lichfield" coordinates titles and places; nothing is re-attached to the person and the name stays whole.
    result = run(extractor, "Charles Stewart, 3rd Duke of Richmond, 6th Duke of Lennox KG (7 March 1639December 1672) "
                            "was the only son of George Stewart, 9th Seigneur d'Aubigny and Katherine Howard. On 10 "
                            "December 1645 he was created Baron Stuart of Newbury, Berkshire, and Earl of Lichfield.",
                 "Charles Stewart, 3rd Duke of Richmond")
    assert ("Charles Stewart, 3rd Duke of Richmond", "created", "Baron Stuart of Newbury") in triples(result)
    assert not any(o == "Berkshire" for _, _, o in triples(result))
