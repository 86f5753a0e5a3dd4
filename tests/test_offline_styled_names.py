"""Noble styles in English names (issue 23, thirteenth session): "Prince Philip, Duke of Edinburgh" is one
person, a duke, and duke of Edinburgh. Each test is on a real 2Wiki passage outside every gold set in bench/data.

The positive assertions failed on main before these rules (main f986b58); the guard passes on both.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from test_offline_extractor import FakeSchema
from test_offline_rules import names, run, triples

from kgbuild.extract.offline import OfflineExtractor
from kgbuild.extract.styled_names import style_of
from kgbuild.model import ChunkExtraction


@pytest.fixture(scope="module")
def extractor() -> Iterator[OfflineExtractor]:
    yield OfflineExtractor(FakeSchema())


def all_types(result: ChunkExtraction, name: str) -> list[str]:
    [entity] = [e for e in result.entities if e.name == name]
    return list(entity.semantic_types())


def test_a_style_after_a_royal_name_that_opens_with_a_title_is_part_of_it(extractor: OfflineExtractor) -> None:
    # 2Wiki "Princess Theodora of Greece and Denmark (1906-1969)": main kept "Prince Philip" and dropped the style.
    result = run(extractor, "Princess Theodora of Greece and Denmark (30 May 1906 – 16 October 1969) was the second "
                            "child and daughter of Prince Andrew of Greece and Denmark and Princess Alice of "
                            "Battenberg, and the second eldest sister of Prince Philip, Duke of Edinburgh.",
                 "Princess Theodora of Greece and Denmark")
    assert "Prince Philip, Duke of Edinburgh" in names(result)
    assert "Prince Philip" not in names(result)
    assert ("Prince Philip, Duke of Edinburgh", "duke of", "Edinburgh") in triples(result)
    assert "duke" in all_types(result, "Prince Philip, Duke of Edinburgh")


def test_a_numbered_peerage_named_after_a_family_is_part_of_the_name(extractor: OfflineExtractor) -> None:
    # 2Wiki "Hildebrand Alington, 5th Baron Alington": a numbered "Baron <family>" after the comma.
    result = run(extractor, "He married Elizabeth Tollemache, daughter of Sir Lionel Tollemache, 2nd Baronet. Their "
                            "son was Giles Alington, 2nd Baron Alington, who died young.", "William Alington")
    assert "Giles Alington, 2nd Baron Alington" in names(result)
    assert "baron" in all_types(result, "Giles Alington, 2nd Baron Alington")
    assert not any(o == "Alington" for _, _, o in triples(result))  # a family name, not a territory


def test_each_territory_of_a_style_is_related(extractor: OfflineExtractor) -> None:
    # 2Wiki "Isabella of Bourbon": the father's style names his duchy.
    result = run(extractor, "Isabella of Bourbon, Countess of Charolais (1434 – 25 September 1465) was the second wife "
                            "of Charles the Bold. She was a daughter of Charles I, Duke of Bourbon and Agnes of "
                            "Burgundy.", "Isabella of Bourbon")
    assert ("Charles I, Duke of Bourbon", "duke of", "Bourbon") in triples(result)
    assert "duke" in all_types(result, "Charles I, Duke of Bourbon")


def test_a_long_full_name_keeps_its_style(extractor: OfflineExtractor) -> None:
    # 2Wiki "Gordon Howard, 5th Earl of Effingham": five words of name before the style (main allowed three).
    result = run(extractor, "Gordon Frederick Henry Charles Howard, 5th Earl of Effingham (18 May 1873 – 7 July 1946) "
                            "was an English peer and member of the House of Lords.",
                 "Gordon Howard, 5th Earl of Effingham")
    name = "Gordon Frederick Henry Charles Howard, 5th Earl of Effingham"
    assert (name, "earl of", "Effingham") in triples(result)
    assert "earl" in all_types(result, name)


def test_style_of_reads_the_comma_form_only() -> None:
    assert style_of("Richilde, Countess of Mons and Hainaut") == ("countess", ["Mons", "Hainaut"])
    assert style_of("Charles Stourton, 8th Baron Stourton") == ("baron", [])
    assert style_of("Frederick I, Count Palatine of Simmern") == ("count palatine", ["Simmern"])
    assert style_of("Duke of Kent") is None  # a title alone: held_titles reads it
    assert style_of("Huntington Bancshares, Inc.") is None
