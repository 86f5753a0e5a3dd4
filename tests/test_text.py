"""kgbuild.text: each key does its own job, and the build and the query side share one plural rule."""

from __future__ import annotations

from pathlib import Path

import pytest

from kgbuild.align.concepts import link_concepts
from kgbuild.align.normalize import resolution_key
from kgbuild.model import Concept, Entity
from kgbuild.schema import Schema, load_schema
from kgbuild.text import (
    concept_key,
    fold,
    identifier_key,
    mention_key,
    name_tokens,
    same_type,
    search_fold,
    singular,
    type_key,
)


@pytest.mark.parametrize(("word", "key"), [
    ("addresses", "address"), ("address", "address"),
    ("companies", "company"), ("company", "company"),
    ("cities", "city"), ("films", "film"),
    ("boxes", "box"), ("churches", "church"), ("dishes", "dish"),
    ("buses", "bus"), ("bus", "bus"), ("viruses", "virus"),
    ("houses", "hous"), ("house", "hous"),  # a key, not a spelling: both sides cut alike
    ("movies", "movy"), ("movie", "movy"),
    ("class", "class"), ("status", "status"), ("analysis", "analysis"), ("gas", "gas"),
    ("城市", "城市"),  # non-ASCII words are left alone
])
def test_singular(word: str, key: str) -> None:
    assert singular(word) == key
    assert singular(key) == key  # idempotent: a key singularised again stays the key


def test_the_beatles_under_each_key() -> None:
    # One name, four jobs, four documented answers (the table in kgbuild/text.py's docstring).
    assert identifier_key("The Beatles") == "thebeatles"
    assert type_key("The Beatles") == "the beatle"
    assert concept_key("The Beatles") == "beatle"
    assert mention_key("The  Beatles.") == "the beatles"
    assert resolution_key("The Beatles", "org") == "beatles"


def test_identifier_key_ignores_case_spacing_and_punctuation() -> None:
    assert identifier_key("Geographic_Location") == identifier_key("geographic location") == "geographiclocation"
    assert identifier_key("GeographicLocation") == "geographiclocation"


def test_type_key() -> None:
    assert type_key("Film Directors") == type_key("filmDirector") == type_key("FilmDirector") == "film director"
    assert type_key("Geographic_Locations") == "geographic location"
    assert type_key("Addresses") == type_key("Address") == "address"  # was "addresse" on the query side
    assert type_key("Class") == "class" and type_key("Bus") == "bus"
    assert type_key("") == ""
    assert same_type("Organization", "organizations") and not same_type("Organization", None)


def test_concept_key_and_mentions() -> None:
    assert concept_key("The film-directors") == concept_key("film director") == "film director"
    assert concept_key("Companies") == concept_key("company")
    assert concept_key("  Scientists. ") == "scientist"
    assert mention_key("Alû  O'Neil") == "alu o'neil" and name_tokens("U.S. Army") == ["u.s", "army"]
    assert fold("ÉCOLE") == "ecole"


def test_search_fold_keeps_characters_so_names_are_found_in_text() -> None:
    assert search_fold("Heart\n  ATTACK") == "heart attack"
    assert search_fold("École") == "école"  # accents kept: only case and spacing go
    assert search_fold("서울") == "서울"  # Hangul stays composed (fold's NFKD would split it)
    assert search_fold("ｆｕｌｌ") == "full"  # NFKC: full-width letters are letters


SCHEMA = """\
name: plurals
version: 1
fallback_class: Thing
entity_types:
  Thing: {}
  Address: {parent: Thing}
  Company: {parent: Thing}
  Bus: {parent: Thing}
  Class: {parent: Thing}
  Movie: {parent: Thing}
  City: {parent: Thing}
  Box: {parent: Thing}
  Church: {parent: Thing}
  Status: {parent: Thing}
  House: {parent: Thing}
  Virus: {parent: Thing}
  FilmDirector: {parent: Thing}
"""

WORDS = [
    "Addresses", "address", "Companies", "company", "Buses", "Bus", "Classes", "class", "Movies", "movie",
    "Cities", "Boxes", "Churches", "Statuses", "Status", "Houses", "Viruses", "Film Directors",
    "film_director", "filmDirectors", "People", "Things", "Addresse", "Busses", "Clas",
]


@pytest.fixture
def plural_schema(tmp_path: Path) -> Schema:
    path = tmp_path / "schema.yaml"
    path.write_text(SCHEMA, encoding="utf-8")
    return load_schema(path)


def test_build_class_mapping_and_query_type_matching_agree(plural_schema: Schema) -> None:
    declared = list(plural_schema.entity_types)
    for word in WORDS:
        built = plural_schema.resolve_class(word)
        queried = [c for c in declared if same_type(word, c)]
        assert queried == ([built] if built else []), word
    assert plural_schema.resolve_class("Addresses") == "Address"
    assert plural_schema.resolve_class("Companies") == "Company"
    assert plural_schema.resolve_class("Bus") == "Bus" and plural_schema.resolve_class("Class") == "Class"
    assert plural_schema.resolve_class("Classes") == "Class" and plural_schema.resolve_class("Buses") == "Bus"
    assert plural_schema.resolve_class("People") is None  # irregular plurals are not guessed, on either side


def test_concept_linking_merges_plural_spellings() -> None:
    def person(name: str, semantic_type: str) -> Entity:
        return Entity(id=Entity.make_id(name, "Person"), name=name, spg_class="Person",
                      semantic_type=semantic_type, chunk_ids=["d#1#0"])

    result = link_concepts([person("Ann", "Addresses"), person("Bob", "address"), person("Cy", "Companies")],
                           [Concept(id=Concept.make_id("company"), name="company")])
    assert sorted(concept_key(c.name) for c in result.concepts) == ["address", "company"]
