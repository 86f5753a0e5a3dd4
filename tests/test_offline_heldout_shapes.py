"""Rules of the ninth session (issue 23), from the sentence shapes held-out set 2 showed missed or misread.

Every sentence but one marked guard is real: from the HotpotQA and 2Wiki corpora in ../shared/data, from passages that are in no gold
set (bench/data/en_extract_gold.jsonl, en_extract_heldout2.jsonl). Each assertion failed on the extractor before
its rule; the guards beside them state what must not change.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from test_offline_extractor import FakeSchema
from test_offline_rules import names, run, triples, types

from kgbuild.extract.offline import OfflineExtractor
from kgbuild.model import ChunkExtraction


@pytest.fixture(scope="module")
def extractor() -> Iterator[OfflineExtractor]:
    yield OfflineExtractor(FakeSchema())


# ---------------------------------------------------------------------------- names


def test_and_after_a_rulers_of_place_starts_another_name(extractor: OfflineExtractor) -> None:
    # 2Wiki, Joan III, Countess of Burgundy: a king "of France", then his wife; the NER joined nothing, the
    # through-"of" rule joined both into one name.
    result = run(extractor, "She was the eldest daughter of King Philip V of France and Countess Joan II of "
                            "Burgundy.", "Joan III, Countess of Burgundy")
    assert {"King Philip V of France", "Countess Joan II of Burgundy"} <= names(result)


def test_and_inside_a_title_run_through_of_still_joins(extractor: OfflineExtractor) -> None:
    # guard: a work's or body's name with "of ... and" is still one name
    result = run(extractor, 'In 1944 he published "Theory of Games and Economic Behavior" with Oskar Morgenstern.',
                 "John von Neumann")
    assert "Theory of Games and Economic Behavior" in names(result)


# ---------------------------------------------------------------------------- pronouns


def test_a_coordinated_pair_of_subjects_is_no_antecedent_of_he(extractor: OfflineExtractor) -> None:
    # 2Wiki, Michael Curtiz: "He" is Curtiz, not James Cagney, the first of the pair before it.
    result = run(extractor, "Michael Curtiz was a Hungarian-born American film director. James Cagney and Joan "
                            "Crawford won their only Academy Awards under Curtiz's direction. He put Doris Day and "
                            "John Garfield on screen for the first time, and he made stars of Errol Flynn, Olivia "
                            "de Havilland, and Bette Davis.", "Michael Curtiz")
    found = triples(result)
    assert ("Michael Curtiz", "put", "Doris Day") in found
    assert not {t for t in found if t[0] == "James Cagney" and t[2] == "Doris Day"}
    assert ("James Cagney", "win", "Academy Awards") in found  # guard: the pair's own clause is kept


def test_life_dates_of_an_object_do_not_make_it_the_next_he(extractor: OfflineExtractor) -> None:
    # 2Wiki, Christopher Addison, 2nd Viscount Addison: the wife's "(d. 1980)" made her the latest person subject.
    result = run(extractor, "Lord Addison married Brigit Helen Christine Williams (d. 1980), on 10 September 1928, "
                            "with whom he had the following children: As he left no male heir, he was succeeded by "
                            "his brother Michael.", "Christopher Addison, 2nd Viscount Addison")
    found = triples(result)
    assert ("Brigit Helen Christine Williams", "die in", "1980") in found  # guard: her dates are kept
    assert not {t for t in found if t[0] == "Michael" and t[2] == "Brigit Helen Christine Williams"}


def aliases(result: ChunkExtraction) -> dict[str, list[str]]:
    return {e.name: list(e.aliases) for e in result.entities}


def test_another_name_in_the_parenthesis_is_an_alias(extractor: OfflineExtractor) -> None:
    # 2Wiki, Senet: "(or Senat)" is the game's other name, not a second game.
    result = run(extractor, "Senet (or Senat) is a board game from ancient Egypt.", "Senet")
    assert "Senat" in aliases(result)["Senet"]
    assert "Senat" not in names(result)
    assert ("Senet", "from", "Egypt") in triples(result)


def test_a_name_after_a_language_label_is_an_alias(extractor: OfflineExtractor) -> None:
    # 2Wiki, Being Human (2005 film): the French title names the same film.
    result = run(extractor, 'Being Human (French: "Histoire d\'être humain") is a 2005 documentary by Quebec film '
                            "director Denys Desjardins.", "Being Human (2005 film)")
    assert "Histoire d'être humain" in aliases(result)["Being Human"]


def test_life_dates_in_a_parenthesis_are_still_read(extractor: OfflineExtractor) -> None:
    # guard: a parenthesis that opens with a date is a life, not another name
    result = run(extractor, "Jack Shea (August 1, 1928 – April 28, 2013) was an American film and television "
                            "director.", "Jack Shea (director)")
    assert ("Jack Shea", "born on", "August 1, 1928") in triples(result)


# ---------------------------------------------------------------------------- offices


def test_the_office_a_copula_relates_is_also_a_type(extractor: OfflineExtractor) -> None:
    # 2Wiki, Edsel Ford: "He was the president of Ford Motor Company" states what he was, too (labelling rule 9).
    result = run(extractor, "Edsel Bryant Ford (November 6, 1893 – May 26, 1943) was the son of Clara Jane Bryant "
                            "Ford and the only child of Henry Ford. He was the president of Ford Motor Company from "
                            "1919 until his death in 1943.", "Edsel Ford")
    assert ("Edsel Bryant Ford", "president of", "Ford Motor Company") in triples(result)
    assert types(result)["Edsel Bryant Ford"] == "president"  # not "son": a kin noun is no type


# ---------------------------------------------------------------------------- lists and roles


def test_appeared_in_named_works_is_a_relation(extractor: OfflineExtractor) -> None:
    # 2Wiki, Sid Haig: "appear" was skipped as a verb of seeming.
    result = run(extractor, 'Sid Haig is an American actor. He has appeared in many television programs including '
                            '"Batman", "Gunsmoke", "The Rockford Files" and "MacGyver".', "Sid Haig")
    found = triples(result)
    assert {("Sid Haig", "appear in", "Gunsmoke"), ("Sid Haig", "appear in", "MacGyver")} <= found


def test_appear_as_seeming_states_nothing(extractor: OfflineExtractor) -> None:
    # guard (a constructed sentence): "appeared to be" is seeming, with a complement
    result = run(extractor, "Sid Haig is an American actor. He appeared to be in Rome.", "Sid Haig")
    assert not {t for t in triples(result) if t[1].startswith("appear")}


def test_a_list_hung_on_a_noun_inside_the_plurals_modifier_is_the_plurals(extractor: OfflineExtractor) -> None:
    # 2Wiki, Julio Saraceni: "including" hangs on "genre", inside "figures in the genre"
    result = run(extractor, "Julio Saraceni was an Argentine film director. Saraceni was best known for directing "
                            "comedies, and worked with many of the best known local figures in the genre, including "
                            "Parravicini, Fidel Pintos, Niní Marshall, José Marrone.", "Julio Saraceni")
    found = triples(result)
    assert {("Julio Saraceni", "work with", "Fidel Pintos"), ("Julio Saraceni", "work with", "Niní Marshall")} <= found


def test_coordinated_roles_before_a_name_are_all_types(extractor: OfflineExtractor) -> None:
    # HotpotQA, By the Grace of God (song): "comedian" tagged NNP, and "actor" before the "and"
    result = run(extractor, "It was conceived following Perry's divorce from English actor and comedian Russell "
                            "Brand.", "By the Grace of God (song)")
    [brand] = [e for e in result.entities if e.name == "Russell Brand"]
    assert brand.semantic_type == "actor"
    assert "comedian" in brand.properties.get("semantic_types", [])


def test_a_co_verb_is_one_word(extractor: OfflineExtractor) -> None:
    # 2Wiki, Lino Brocka: the tokenizer split "co-founded" and the parser read "co" as the verb.
    result = run(extractor, "Lino Brocka was a Filipino film director. He co-founded the organization Concerned "
                            "Artists of the Philippines( CAP), dedicated to helping artists address issues "
                            "confronting the country.", "Lino Brocka")
    assert ("Lino Brocka", "co-found", "Concerned Artists of the Philippines") in triples(result)


# ---------------------------------------------------------------------------- dates


def test_a_year_opening_a_works_kind_is_its_release(extractor: OfflineExtractor) -> None:
    # 2Wiki, Corina (singer): "the 1999 film "Cradle Will Rock"" says when the film came out.
    result = run(extractor, 'Corina portrayed Frida Kahlo in the 1999 film "Cradle Will Rock".', "Corina (singer)")
    assert ("Cradle Will Rock", "released in", "1999") in triples(result)


def test_a_year_in_a_persons_role_phrase_is_no_release(extractor: OfflineExtractor) -> None:
    # guard (2Wiki, Saif Ali Khan): the year dates the film only, and "his portrayal" stays no work
    result = run(extractor, 'He earned wide critical praise for his portrayal of a manipulative businessman in the '
                            '2004 thriller "Ek Hasina Thi".', "Saif Ali Khan")
    found = triples(result)
    assert ("Ek Hasina Thi", "released in", "2004") in found
    assert not {t for t in found if t[1] == "released in" and t[0] != "Ek Hasina Thi"}


# ---------------------------------------------------------------------------- places and sources


def test_a_place_chain_before_and_a_verb_is_still_a_chain(extractor: OfflineExtractor) -> None:
    # 2Wiki, Jerome Storm: the "and" before "died" joins clauses, not places
    result = run(extractor, "Jerome Storm was an American film director. He was born in Denver, Colorado, and died "
                            "in Desert Hot Springs, California.", "Jerome Storm")
    found = triples(result)
    assert ("Denver", "located in", "Colorado") in found
    assert ("Jerome Storm", "born in", "Denver") in found
    assert ("Jerome Storm", "born in", "Colorado") not in found


def test_a_name_after_a_place_and_its_comma_is_where_it_lies(extractor: OfflineExtractor) -> None:
    # 2Wiki, Wallace Fox: "Purcell, Oklahoma" is one place and where it lies, not two birthplaces
    result = run(extractor, "Wallace Fox was an American film director. He was born in Purcell, Oklahoma, and died "
                            "in Hollywood, California.", "Wallace Fox")
    found = triples(result)
    assert ("Purcell", "located in", "Oklahoma") in found
    assert ("Wallace Fox", "born in", "Oklahoma") not in found


def test_by_after_a_based_on_source_names_its_author(extractor: OfflineExtractor) -> None:
    # 2Wiki, Dancing in the Rain (film): Smole wrote the novel; he "based" nothing
    result = run(extractor, 'Dancing in the Rain is a 1961 Yugoslav film. It is a love drama based on the novel "Črni '
                            'dnevi in beli dan " by Dominik Smole.', "Dancing in the Rain (film)")
    found = triples(result)
    assert not {t for t in found if t[0] == "Dominik Smole" and t[1] == "base"}


def test_by_on_a_based_on_source_names_its_author(extractor: OfflineExtractor) -> None:
    # guard (2Wiki, Through Fire and Water): the "by" on the novel's title keeps "write", and no "create" beside it
    result = run(extractor, 'Through Fire and Water is a 1923 British silent drama film. It was based on the novel" '
                            'Greensea Island" by Victor Bridges.', "Through Fire and Water")
    found = triples(result)
    assert ("Victor Bridges", "write", "Greensea Island") in found
    assert ("Through Fire and Water", "based on", "Greensea Island") in found
    assert not {t for t in found if t[0] == "Victor Bridges" and t[1] != "write"}


def test_a_source_verb_shares_no_agent_with_its_conjunct(extractor: OfflineExtractor) -> None:
    # 2Wiki, Princ Bajaja: "based on ... and directed by Antonín Kachlík": Kachlík directed, based nothing
    result = run(extractor, 'Princ Bajaja is a 1971 Czechoslovak fantasy film based on the fairy tale" Prince Bajaja" '
                            "by Božena Němcová and directed by Antonín Kachlík.", "Princ Bajaja")
    found = triples(result)
    assert ("Antonín Kachlík", "direct", "Princ Bajaja") in found
    assert not {t for t in found if t[0] == "Antonín Kachlík" and t[1] == "base"}


# ---------------------------------------------------------------------------- kin


def test_a_kin_noun_and_its_name_after_a_comma(extractor: OfflineExtractor) -> None:
    # 2Wiki, Oswiu and Dinu Cocea: "his son, Ecgfrith" states the kinship as "his son Ecgfrith" does
    result = run(extractor, "Oswiu died in 670 and was succeeded by his son, Ecgfrith.", "Oswiu")
    found = triples(result)
    assert ("Ecgfrith", "son of", "Oswiu") in found
    assert ("Ecgfrith", "succeed", "Oswiu") in found  # guard: the clause keeps its agent
    result = run(extractor, "He was survived by his daughter, Oana.", "Dinu Cocea")
    assert ("Oana", "daughter of", "Dinu Cocea") in triples(result)


def test_his_after_a_person_and_is_that_persons(extractor: OfflineExtractor) -> None:
    # 2Wiki, Beatrice of Navarre, Countess of La Marche: "his wife" is Charles III's, not Beatrice's
    result = run(extractor, "Beatrice of Navarre( 1392-1412/1415) was a daughter of Charles III of Navarre and his "
                            "wife, Eleanor of Castile.", "Beatrice of Navarre, Countess of La Marche")
    found = triples(result)
    assert ("Eleanor of Castile", "wife of", "Charles III of Navarre") in found
    assert not {t for t in found if t[1] == "wife of" and t[2] == "Beatrice of Navarre"}
    # guard (2Wiki, Princess Marie of Hanover): an unsettled name before "and of his": no guess
    result = run(extractor, "Princess Marie of Hanover (2 December 1849 – 4 June 1904) was the younger daughter of "
                            "King George V of Hanover and of his wife, Princess Marie of Saxe-Altenburg.",
                 "Princess Marie of Hanover")
    assert not {t for t in triples(result) if t[1] == "wife of" and t[2] == "Princess Marie of Hanover"}


def test_a_possessed_office_a_copula_names_is_also_a_type(extractor: OfflineExtractor) -> None:
    # 2Wiki, Michał Przysiężny: "His current coach is X" relates X and says what X is
    result = run(extractor, "Michał Przysiężny is a Polish tennis player. His current coach is Aleksander "
                            "Charpantidis.", "Michał Przysiężny")
    assert ("Aleksander Charpantidis", "coach of", "Michał Przysiężny") in triples(result)
    assert types(result)["Aleksander Charpantidis"] == "coach"
