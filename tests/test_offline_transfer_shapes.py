"""Rules of the tenth session (issue 23): causes of missed facts that were large in both held-out set 2 and
held-out set 3 (two writers), each built as one general mechanism.

Every sentence but the guards marked "constructed" is real: from the HotpotQA and 2Wiki corpora in
../shared/data, from passages that are in no gold set (bench/data/en_extract_gold.jsonl, en_extract_heldout2.jsonl,
en_extract_heldout3.jsonl), except one marked as held-out set 3's (development data once it was scored). Each
assertion marked "main" failed on the extractor before its rule; the guards beside them state what must not change.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from test_offline_extractor import FakeSchema
from test_offline_rules import names, run, triples

from kgbuild.extract.offline import OfflineExtractor
from kgbuild.model import ChunkExtraction


@pytest.fixture(scope="module")
def extractor() -> Iterator[OfflineExtractor]:
    yield OfflineExtractor(FakeSchema())


def all_types(result: ChunkExtraction) -> dict[str, list[str]]:
    return {e.name: e.semantic_types() for e in result.entities}


# ---------------------------------------------------------------------------- names: noble styles


def test_a_regnal_one_before_a_comma_style_is_the_rulers(extractor: OfflineExtractor) -> None:
    # 2Wiki, Florine of Burgundy: "I" before ", Duke of" is the numeral, not the pronoun (main: "Eudes").
    result = run(extractor, "She was the daughter of Eudes I, Duke of Burgundy and Sybilla of Burgundy.",
                 "Florine of Burgundy")
    assert "Eudes I, Duke of Burgundy" in names(result)
    assert "Eudes" not in names(result)
    # 2Wiki, Adolf of Nassau (1540–1568): the same with a hyphenated territory (main: "William")
    result = run(extractor, "He was the fourth son and sixth child of William I, Count of Nassau-Dillenburg and "
                            "Juliana of Stolberg.", "Adolf of Nassau (1540–1568)")
    assert {"William I, Count of Nassau-Dillenburg", "Juliana of Stolberg"} <= names(result)


def test_the_pronoun_i_before_a_comma_stays_a_pronoun(extractor: OfflineExtractor) -> None:
    # guard (constructed): no style after the comma, so "I" joins nothing
    result = run(extractor, "Smith said that I, too, had seen Paris.", "x")
    assert not {n for n in names(result) if n.endswith(" I")}


def test_a_numbered_baronet_is_part_of_the_name(extractor: OfflineExtractor) -> None:
    # 2Wiki, Francis Buxton (main: "Sir Edward Buxton" and an entity "2nd Baronet")
    result = run(extractor, "Buxton was the son of Sir Edward Buxton, 2nd Baronet, and the grandson of the "
                            "anti-slavery campaigner Sir Thomas Buxton, 1st Baronet.", "Francis Buxton")
    assert {"Sir Edward Buxton, 2nd Baronet", "Sir Thomas Buxton, 1st Baronet"} <= names(result)
    assert not {n for n in names(result) if n.endswith("Baronet") and n[0].isdigit()}
    assert ("Buxton", "son of", "Sir Edward Buxton, 2nd Baronet") in triples(result)
    # 2Wiki, Alexander Baring, 1st Baron Ashburton: the relation before the comma list still holds
    result = run(extractor, "Baring was the second son of Sir Francis Baring, 1st Baronet, and of Harriet, daughter "
                            "of William Herring.", "Alexander Baring, 1st Baron Ashburton")
    assert ("Baring", "son of", "Sir Francis Baring, 1st Baronet") in triples(result)
    assert ("Harriet", "daughter of", "William Herring") in triples(result)  # guard: unchanged


def test_a_styled_title_person_keeps_the_style_when_a_namesake_has_one(extractor: OfflineExtractor) -> None:
    # guard, 2Wiki, Sir Edward Wingfield Verner, 5th Baronet (held-out set 3, development data since it was scored):
    # the father's styled name must not give the son's title name away to its shorter form
    result = run(extractor, "Sir Edward Wingfield Verner, 5th Baronet( 22 November 1865 – 1 November 1936), was a "
                            "British soldier. Verner was the son of Sir Edward Wingfield Verner, 4th Baronet, and "
                            "Selina Florence Nugent.", "Sir Edward Wingfield Verner, 5th Baronet")
    found = triples(result)
    assert ("Sir Edward Wingfield Verner, 5th Baronet", "born on", "22 November 1865") in found
    assert all(t[0] != "Sir Edward Wingfield Verner" for t in found)


# ---------------------------------------------------------------------------- names: a year's event


def test_a_year_before_proper_nouns_and_an_event_head_is_one_event(extractor: OfflineExtractor) -> None:
    # HotpotQA, 1994–95 Orlando Magic season (main: "1995" and "NBA All-Star Game")
    result = run(extractor, "Second- year star Anfernee Hardaway was selected to play in the 1995 NBA All- Star Game "
                            "along with O'Neal.", "1994–95 Orlando Magic season")
    assert "1995 NBA All-Star Game" in names(result)
    # HotpotQA, List of Houston Texans Pro Bowl selections: a lower-case head after the proper nouns
    result = run(extractor, "Cushing decided to skip the Pro Bowl due to various injuries he sustained during the "
                            "2009 NFL season.", "List of Houston Texans Pro Bowl selections")
    assert "2009 NFL season" in names(result)


def test_a_season_keeps_its_years_as_written(extractor: OfflineExtractor) -> None:
    # HotpotQA, 1991–92 Washington Bullets season: "The <season> NBA season" (main: "1991" and "NBA")
    result = run(extractor, "The 1991–92 NBA season was the Bullets' 31st season in the National Basketball "
                            "Association.", "1991–92 Washington Bullets season")
    assert "1991–92 NBA season" in names(result)


def test_a_year_and_a_subject_are_no_event(extractor: OfflineExtractor) -> None:
    # guards (constructed): no article before the year, or no event word after the proper nouns
    result = run(extractor, "In 1990 Microsoft released Windows 3.0.", "x")
    assert "Microsoft" in names(result)
    assert ("Microsoft", "release", "Windows 3.0") in triples(result)
    result = run(extractor, "The 1999 Toyota Camry was a sedan.", "x")
    assert not {n for n in names(result) if n.startswith("1999 ")}


# ---------------------------------------------------------------------------- types: a list hung as an apposition


def test_a_type_list_hung_as_an_apposition_gives_every_type(extractor: OfflineExtractor) -> None:
    # HotpotQA, Sean McNamara (director): "film producer" is the parse's apposition of "film director", and
    # the rest its conjuncts (main: film director only)
    result = run(extractor, "Sean Patrick Michael McNamara (born May 9, 1962) is an American film director, film "
                            "producer, actor, and screenwriter.", "Sean McNamara (director)")
    assert set(all_types(result)["Sean Patrick Michael McNamara"]) >= {
        "film director", "film producer", "actor", "screenwriter"}


def test_a_plain_coordinated_type_list_is_unchanged(extractor: OfflineExtractor) -> None:
    # guard: 2Wiki, Halit Refiğ, a list the parser coordinated as conjuncts
    result = run(extractor, "Halit Refiğ (5 March 1934 – 11 October 2009) was a Turkish film director, film "
                            "producer, screenwriter and writer.", "Halit Refiğ")
    assert all_types(result)["Halit Refiğ"] == ["film director", "film producer", "screenwriter", "writer"]


# ---------------------------------------------------------------------------- lists after a colon


def test_names_a_colon_lists_after_a_plural_object_are_its_objects(extractor: OfflineExtractor) -> None:
    # HotpotQA, Bob Graham (main: nothing written)
    result = run(extractor, 'He has also written three nonfiction books: " Workdays: Finding Florida on the Job,'
                            'Intelligence Matters", and "America: The Owner\'s Manual".', "Bob Graham")
    assert ("Bob Graham", "write", "America: The Owner's Manual") in triples(result)


def test_a_colon_after_had_children_is_no_have_relation(extractor: OfflineExtractor) -> None:
    # guard: 2Wiki, Edwin L. Marin: kinship, which "have" does not state
    result = run(extractor, "They had three children: Denis Anthony, Reese Andrew and Randi Alexandra.",
                 "Edwin L. Marin")
    assert not {t for t in triples(result) if t[1] == "have"}


def test_a_clause_after_the_colon_is_no_list(extractor: OfflineExtractor) -> None:
    # guard: 2Wiki, Charles Howard, 10th Earl of Carlisle: the list was cut away, a sentence follows
    result = run(extractor, "They had one son and three daughters: He died in January 1912, aged 44, and was laid "
                            "to rest in a tomb at Lanercost Priory, Cumbria.", "Charles Howard, 10th Earl of Carlisle")
    assert not {t for t in triples(result) if t[1] in ("have", "had")}


# ---------------------------------------------------------------------------- types: a noble's title before a name


def test_a_nobles_title_opening_a_name_is_a_type(extractor: OfflineExtractor) -> None:
    # 2Wiki, Louis the Junker (main: no type); a ruler's title ("King ... I of ...") already typed
    result = run(extractor, "He was the third son of Landgrave Otto I of Hesse and his wife Adelheid, a daughter of "
                            "Otto III of Ravensberg.", "Louis the Junker")
    assert all_types(result)["Landgrave Otto I of Hesse"] == ["landgrave"]
    # 2Wiki, Elisabeth of Cleves, Countess of Schwarzburg-Blankenburg (main: no type)
    result = run(extractor, "She married Count Henry XXVI of Schwarzburg- Blankenburg, on July 15, 1434.",
                 "Elisabeth of Cleves, Countess of Schwarzburg-Blankenburg")
    assert "count" in all_types(result)["Count Henry XXVI of Schwarzburg-Blankenburg"]


def test_a_stage_name_with_a_title_word_is_no_noble(extractor: OfflineExtractor) -> None:
    # guard (constructed): two words, no numeral, no "of"
    result = run(extractor, "Count Basie was an American jazz pianist.", "x")
    assert "count" not in all_types(result).get("Count Basie", [])
