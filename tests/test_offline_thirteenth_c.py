"""Rules of issue 23's thirteenth session, third round: a cause that is large for every writer's set (lists), not
one set's sentences (docs/offline_extraction.md, "Thirteenth session ... third round"). Each test is on a real
HotpotQA or 2Wiki passage whose title is in no bench/data/en_extract_*.jsonl set and no 2wiki_heldout*_qa.json supporting
fact (checked by script); each positive assertion fails on main before the rule (9f05d00).
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


def test_a_starring_fragment_lists_the_topic_films_cast(extractor: OfflineExtractor) -> None:
    # HotpotQA "Jayammu Nischayammu Raa (1989 film)": the sentence is only the participle and its list, so no clause
    # rule has a subject; main read no cast (the NER knows "Rajendra Prasad" as no name at all).
    result = run(extractor, "Jayammu Nischayammu Raa (English: Victory is Certain) is 1989 Telugu comedy film produced "
                            "by G. V. H. Prasad on Sudarshana Pictures banner, presented by Satyanarayana, Kota "
                            "Srinivasa Rao and directed by Jandhyala. Starring Rajendra Prasad, Sumalatha, Chandra "
                            "Mohan in the lead roles and music composed by Raj-Koti.", "Jayammu Nischayammu Raa")
    for person in ("Rajendra Prasad", "Sumalatha", "Chandra Mohan"):
        assert ("Jayammu Nischayammu Raa", "star", person) in triples(result)


def test_a_starring_fragment_names_no_starring_person(extractor: OfflineExtractor) -> None:
    # HotpotQA "Navvulata": two members; the participle is never part of a name.
    result = run(extractor, "Navvulata (English: Joke) is a 1998 Telugu comedy film, produced by D. P. Varma on Surya "
                            "Vamsi Films Pvt Ltd banner and directed by Gopi Chand. Starring Rajendra Prasad, Maheswari "
                            "in the lead roles and music composed by M. M. Srilekha.", "Navvulata")
    stars = {o for s, p, o in triples(result) if p == "star"}
    assert "Maheswari" in stars
    assert not any(o.startswith("Starring") for o in stars)


def test_a_starring_fragment_in_a_biography_stars_in_nothing_said(extractor: OfflineExtractor) -> None:
    # Guard: the topic is a person, so what the list stars in is not stated.
    result = run(extractor, "Jandhyala was an Indian film director and writer. Starring Rajendra Prasad, Sumalatha, "
                            "Chandra Mohan in the lead roles.", "Jandhyala")
    assert not any(p == "star" for _, p, _ in triples(result))


def test_a_list_goes_on_past_an_adverb_after_its_and(extractor: OfflineExtractor) -> None:
    # HotpotQA "Bible translations into Tibetan": "..., and Heinrich August Jäschke, and later Dr. August Francke":
    # main ended the list of translators at "later".
    result = run(extractor, "The first portion of the Bible, the Gospel of John, in Tibetan language was translated by "
                            "Moravian Church missionaries William Heyde, Edward Pagel, and Heinrich August Jäschke, and "
                            "later Dr. August Francke. It was printed in 1862 at Kyelang capital of Lahul in Kashmir.",
                 "Bible translations into Tibetan")
    translated = {o for s, p, o in triples(result) if s == "William Heyde" and p == "translate"}
    assert translated
    assert {o for s, p, o in triples(result) if s == "Dr. August Francke" and p == "translate"} == translated


def test_a_list_goes_on_through_a_name_the_ner_left_unlabelled(extractor: OfflineExtractor) -> None:
    # 2Wiki "The Biggest Show on Earth": main's cast stopped at the first unlabelled name ("Bliss Chevalier").
    result = run(extractor, "The Biggest Show on Earth is a surviving 1918 American silent drama film directed by "
                            "Jerome Storm and written by Julien Josephson and Florence Vincent. The film stars Enid "
                            "Bennett, Bliss Chevalier, Ethel Lynne, Melbourne MacDowell, Jack Nelson, and Earle Rodney.",
                 "The Biggest Show on Earth")
    stars = {o for s, p, o in triples(result) if p == "star"}
    assert {"Enid Bennett", "Bliss Chevalier", "Ethel Lynne", "Melbourne MacDowell", "Jack Nelson",
            "Earle Rodney"} <= stars


def test_a_list_goes_on_through_a_quoted_title_the_ner_left_unlabelled(extractor: OfflineExtractor) -> None:
    # 2Wiki "Mercedes Quintana" (2Wiki's glued quotes): main's "such as" list stopped before the second title.
    result = run(extractor, "She had a prominent stage career in Argentina in the 1930s. She appeared in films such "
                            'as" Yo quiero ser bataclana"( 1941)," Ven ... mi corazón te llama"( 1942) and" Mujeres '
                            'que bailan"( 1949).', "Mercedes Quintana")
    films = {o for s, p, o in triples(result) if p == "appear in"}
    assert {"Ven ... mi corazón te llama", "Mujeres que bailan"} <= films
