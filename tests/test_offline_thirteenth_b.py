"""Rules of issue 23's thirteenth session, second round, written from held-out set 7's misses (docs/
offline_extraction.md, "Thirteenth session ... second round"). Each test is on a real 2Wiki or HotpotQA passage
whose title is in no scored gold set in bench/data (en_extract_gold, held-out sets 2-7) and no 2wiki_heldout*_qa.json
supporting fact; each positive assertion fails on main before the rules (ac68f37).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from test_offline_extractor import FakeSchema
from test_offline_rules import run, triples, types

from kgbuild.extract.offline import OfflineExtractor


@pytest.fixture(scope="module")
def extractor() -> Iterator[OfflineExtractor]:
    yield OfflineExtractor(FakeSchema())


def test_a_possessed_work_takes_its_quoted_title_after_a_comma(extractor: OfflineExtractor) -> None:
    # 2Wiki "Make the World Move": the album's title is an apposition after a comma, and "her" has no person
    # subject to stand for in a passage about a song; the one person named before it in its sentence is meant.
    result = run(extractor, '"Make the World Move" is a song recorded by American singer Christina Aguilera for her '
                            'seventh studio album, "Lotus" (2012). It features guest vocals from Cee Lo Green.',
                 "Make the World Move")
    assert ("Christina Aguilera", "record", "Lotus") in triples(result)
    assert types(result).get("Lotus") == "studio album"


def test_a_cast_named_as_the_subject_of_also_star_stars_in_the_topic(extractor: OfflineExtractor) -> None:
    # 2Wiki "Harry & Son": the tagger takes "star" for a noun; main read no cast from the last sentence.
    result = run(extractor, "Harry& Son is a 1984 American drama film directed by Paul Newman. Joanne Woodward, Ellen "
                            "Barkin, Ossie Davis, Wilford Brimley and Judith Ivey also star.", "Harry & Son")
    for person in ("Joanne Woodward", "Ellen Barkin", "Ossie Davis", "Wilford Brimley", "Judith Ivey"):
        assert ("Harry & Son", "star", person) in triples(result)


def test_a_cast_in_a_biography_stars_in_nothing_said(extractor: OfflineExtractor) -> None:
    # Guard: the topic is a person, so what the others star in is not stated.
    result = run(extractor, "Paul Newman was an American actor. Joanne Woodward and Ellen Barkin also star.",
                 "Paul Newman")
    assert not any(p == "star" for _, p, _ in triples(result))


def test_two_people_of_a_list_that_the_ner_took_for_places_are_no_chain(extractor: OfflineExtractor) -> None:
    # HotpotQA "Zeitgeist Films": "Guy Maddin, Atom Egoyan" between other directors; main read (Guy Maddin,
    # located in, Atom Egoyan).
    result = run(extractor, "Films distributed by Zeitgeist are strongly auteur-driven by directors such as "
                            "Christopher Nolan, Guy Maddin, Atom Egoyan, Todd Haynes, Nuri Bilge Ceylan, Olivier "
                            "Assayas, Abbas Kiarostami, Deepa Mehta, Jan Švankmajer and the Brothers Quay.",
                 "Zeitgeist Films")
    assert not any(p == "located in" for _, p, _ in triples(result))


def test_a_chain_of_places_after_a_person_stays_a_chain(extractor: OfflineExtractor) -> None:
    # Guard, HotpotQA "Trevor Jacques"-like shape from 2Wiki "Jim Wynorski": places after "in" still chain.
    result = run(extractor, "Jim Wynorski (born August 14, 1950 in Glen Cove, Long Island, New York) is an American "
                            "screenwriter, director, and producer.", "Jim Wynorski")
    assert ("Glen Cove", "located in", "Long Island") in triples(result) or (
        "Long Island", "located in", "New York") in triples(result)




def test_a_kind_noun_before_a_quoted_title_types_it_when_the_parse_lost_the_tie(extractor: OfflineExtractor) -> None:
    # HotpotQA "Helen Hunt" and "Paul Gross": the parse hangs the quoted title elsewhere; main gave it no type.
    result = run(extractor, 'She starred in the sitcom "Mad About You" for seven years.', "Helen Hunt")
    assert types(result).get("Mad About You") == "sitcom"
    result = run(extractor, "He is known for his lead role as Constable Benton Fraser in the television series \"Due "
                            'South" as well as his 2008 war film "Passchendaele".', "Paul Gross")
    assert types(result).get("Due South") == "television series"


def test_a_self_titled_work_does_not_retype_its_maker(extractor: OfflineExtractor) -> None:
    # Guard, HotpotQA "Ryan Adams": 'his fourteenth album, "Ryan Adams"' is one mention for both.
    result = run(extractor, 'In September 2014, Adams released his fourteenth album, "Ryan Adams", on his own PAX AM '
                            "label.", "Ryan Adams")
    assert types(result).get("Ryan Adams") != "album"
