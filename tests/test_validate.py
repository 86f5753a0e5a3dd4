from __future__ import annotations

import pytest

from kgbuild.extract.validate import validate_extraction
from kgbuild.model import (
    ChunkExtraction,
    ChunkFailure,
    Concept,
    Drop,
    DropReason,
    Entity,
    Event,
    HyperNode,
    Ref,
    Relation,
    RepairNote,
    RepairReason,
    RetypeReason,
)
from kgbuild.schema import Schema

CHUNK = "doc#p00000#0"


@pytest.fixture(scope="module")
def schema() -> Schema:
    return Schema.model_validate({
        "name": "test",
        "fallback_class": "Thing",
        "entity_types": {
            "Thing": {},
            "Person": {"parent": "Thing", "properties": {"birthDate": "date"}},
            "Organization": {"parent": "Thing"},
            "Company": {"parent": "Organization"},
            "GeographicLocation": {"parent": "Thing"},
            "City": {"parent": "GeographicLocation"},
            "Date": {"parent": "Thing"},
        },
        "event_types": {
            "Founding": {
                "aliases": ["Establishment"],
                "roles": {
                    "founder": {"range": ["Person", "Organization"]},
                    "organization": {"range": ["Organization"], "required": True},
                },
            },
        },
        "concept_types": {"Occupation": {"children": {"Scientist": {"children": ["Physicist"]}}}},
        "relation_types": {
            "bornIn": {"domain": ["Person"], "range": ["GeographicLocation"], "inverse": "birthPlaceOf"},
            "worksFor": {"domain": ["Person"], "range": ["Organization"]},
            "occupation": {"domain": ["Person"], "range": ["Occupation"]},
            "partOf": {},
        },
    })


def ent(name: str, cls: str, **kw: object) -> Entity:
    return Entity(id=Entity.make_id(name, cls), name=name, spg_class=cls, chunk_ids=[CHUNK], **kw)


def rel(s: Entity | Relation | Event, p: str, o: Entity | Relation | Event | Ref) -> Relation:
    oref = o if isinstance(o, Ref) else o.ref()
    return Relation(id=Relation.make_id(s.id, p, oref.id), subject=s.ref(), predicate=p, object=oref,
                    chunk_ids=[CHUNK])


def evt(type_: str, trigger: str, args: dict[str, list[Ref]], **kw: object) -> Event:
    return Event(id=Event.make_id(type_, trigger, args), type=type_, trigger=trigger, arguments=args,
                 chunk_ids=[CHUNK], **kw)


def chunk(**kw: object) -> ChunkExtraction:
    return ChunkExtraction(chunk_id=CHUNK, extractor="test", **kw)


def reasons(ex: ChunkExtraction) -> list[str]:
    return [d.reason for d in ex.drops]


ALICE = ent("Alice", "Person")
PARIS = ent("Paris", "City")
ACME = ent("Acme", "Company")


# ---------------------------------------------------------------- clean input


def test_valid_extraction_is_unchanged_and_idempotent(schema: Schema) -> None:
    ex = chunk(entities=[ALICE, PARIS, ACME],
               relations=[rel(ALICE, "bornIn", PARIS), rel(ALICE, "worksFor", ACME)])
    out = validate_extraction(ex, schema)
    assert out == ex
    assert validate_extraction(out, schema) == out


def test_input_notes_are_kept(schema: Schema) -> None:
    earlier = Drop(stage="extract", reason=DropReason.NEGATED, kind="relation", chunk_id=CHUNK)
    failure = ChunkFailure(detail="boom", chunk_id=CHUNK)
    repair = RepairNote(reason=RepairReason.TRUNCATED_REPAIRED, chunk_id=CHUNK)
    ex = chunk(entities=[ent("", "Person"), ent("Titanic", "Spaceship")], drops=[earlier], failure=failure,
               repairs=[repair])
    out = validate_extraction(ex, schema)
    assert out.drops[0] == earlier
    assert reasons(out) == [DropReason.NEGATED, DropReason.EMPTY_NAME]
    assert out.failure == failure and out.repairs == [repair]
    assert [r.reason for r in out.retypes] == [RetypeReason.UNKNOWN_CLASS_TO_FALLBACK]


def test_reasons_are_short_and_stable() -> None:
    values = [r.value for r in DropReason]
    assert len(set(values)) == len(values)
    assert all(len(r) <= 40 and r == r.strip() for r in values)
    assert f"{DropReason.SELF_LOOP}" == str(DropReason.SELF_LOOP) == "self loop"  # readable as report keys


# ---------------------------------------------------------------- entities


def test_class_spelling_is_resolved_and_references_follow(schema: Schema) -> None:
    paris = ent("Paris", "geographic location")
    ex = chunk(entities=[ALICE, paris], relations=[rel(ALICE, "bornIn", paris)])
    out = validate_extraction(ex, schema)
    assert out.drops == []  # a spelling is not worth a report line
    (_, place) = out.entities
    assert place.spg_class == "GeographicLocation"
    assert place.id == Entity.make_id("Paris", "GeographicLocation")
    (r,) = out.relations
    assert r.object.id == place.id
    assert r.id == Relation.make_id(ALICE.id, "bornIn", place.id)


def test_unknown_class_goes_to_fallback(schema: Schema) -> None:
    ship = ent("Titanic", "Spaceship")
    ex = chunk(entities=[ALICE, ship], relations=[rel(ALICE, "bornIn", ship)])
    out = validate_extraction(ex, schema)
    (_, kept) = out.entities
    assert kept.spg_class == "Thing"
    assert kept.id == Entity.make_id("Titanic", "Thing")
    assert out.drops == []  # kept, so not a removal
    (retype,) = out.retypes
    assert retype.reason == RetypeReason.UNKNOWN_CLASS_TO_FALLBACK
    assert retype.kind == "entity" and retype.stage == "validate" and retype.chunk_id == CHUNK
    assert "Titanic" in retype.detail and "Spaceship" in retype.detail
    # the fallback class means "type unknown": not a domain/range violation
    (r,) = out.relations
    assert r.object.id == kept.id


def test_unknown_class_dropped_in_strict_mode(schema: Schema) -> None:
    ship = ent("Titanic", "Spaceship")
    out = validate_extraction(chunk(entities=[ALICE, ship], relations=[rel(ALICE, "bornIn", ship)]),
                              schema, strict=True)
    assert [e.name for e in out.entities] == ["Alice"]
    assert reasons(out) == [DropReason.UNKNOWN_CLASS, DropReason.DANGLING_OBJECT]
    assert out.relations == []


def test_explicit_fallback_class_is_checked_in_strict_mode(schema: Schema) -> None:
    thing = ent("Something", "Thing")
    ex = chunk(entities=[ALICE, thing], relations=[rel(ALICE, "bornIn", thing)])
    assert len(validate_extraction(ex, schema).relations) == 1
    assert reasons(validate_extraction(ex, schema, strict=True)) == [DropReason.DOMAIN_RANGE_VIOLATION]


@pytest.mark.parametrize(
    ("name", "reason"),
    [("", DropReason.EMPTY_NAME), ("   ", DropReason.EMPTY_NAME), ("x" * 201, DropReason.NAME_TOO_LONG),
     ("—!?", DropReason.NAME_WITHOUT_LETTERS)],
)
def test_bad_names_are_dropped(schema: Schema, name: str, reason: str) -> None:
    out = validate_extraction(chunk(entities=[ent(name, "Person")]), schema)
    assert out.entities == []
    assert reasons(out) == [reason]


def test_names_in_other_scripts_are_fine(schema: Schema) -> None:
    out = validate_extraction(chunk(entities=[ent("巴黎", "City"), ent("x" * 200, "City")]), schema)
    assert len(out.entities) == 2 and out.drops == []


def test_duplicates_are_merged(schema: Schema) -> None:
    a = ALICE.model_copy(update={"aliases": ["Al"], "properties": {"birthDate": ["1900"]}})
    b = ent("alice", "Person", aliases=["Ally", "Al", "ALICE"], description="A person.",
            properties={"birthDate": ["1900", "1901"]})
    b = b.model_copy(update={"chunk_ids": ["doc#p00001#0"]})
    out = validate_extraction(chunk(entities=[a, b]), schema)
    (merged,) = out.entities
    assert merged.name == "Alice"
    assert merged.aliases == ["Al", "Ally"]
    assert merged.description == "A person."
    assert merged.properties == {"birthDate": ["1900", "1901"]}
    assert merged.chunk_ids == [CHUNK, "doc#p00001#0"]


def test_duplicate_relations_are_merged(schema: Schema) -> None:
    r1 = rel(ALICE, "bornIn", PARIS)
    r2 = r1.model_copy(update={"chunk_ids": ["doc#p00001#0"], "properties": {"confidence": "0.5"}})
    (r,) = validate_extraction(chunk(entities=[ALICE, PARIS], relations=[r1, r2]), schema).relations
    assert r.chunk_ids == [CHUNK, "doc#p00001#0"]
    assert r.properties == {"confidence": "0.5"}


def test_chunk_id_is_added_when_missing(schema: Schema) -> None:
    bare = ALICE.model_copy(update={"chunk_ids": []})
    assert validate_extraction(chunk(entities=[bare]), schema).entities[0].chunk_ids == [CHUNK]


def test_properties(schema: Schema) -> None:
    alice = ALICE.model_copy(update={"properties": {"birth_date": ["1900"], "hobby": ["chess"], "empty": [" "]}})
    (lax,) = validate_extraction(chunk(entities=[alice]), schema).entities
    assert lax.properties == {"birthDate": ["1900"], "hobby": ["chess"]}
    out = validate_extraction(chunk(entities=[alice]), schema, strict=True)
    assert out.entities[0].properties == {"birthDate": ["1900"]}
    assert reasons(out) == [DropReason.UNDECLARED_PROPERTY, DropReason.UNDECLARED_PROPERTY]
    assert "hobby" in out.drops[0].detail


# ---------------------------------------------------------------- relations


def test_dangling_subject_and_object(schema: Schema) -> None:
    ghost = ent("Ghost", "Person")
    ex = chunk(entities=[ALICE, PARIS], relations=[rel(ghost, "bornIn", PARIS), rel(ALICE, "bornIn", ghost)])
    out = validate_extraction(ex, schema)
    assert out.relations == []
    assert reasons(out) == [DropReason.DANGLING_SUBJECT, DropReason.DANGLING_OBJECT]
    assert "Ghost" in out.drops[0].detail


def test_ref_kind_must_match(schema: Schema) -> None:
    wrong = Ref(kind="event", id=PARIS.id, name="Paris")
    out = validate_extraction(chunk(entities=[ALICE, PARIS], relations=[rel(ALICE, "bornIn", wrong)]), schema)
    assert reasons(out) == [DropReason.DANGLING_OBJECT]


def test_domain_range_violation(schema: Schema) -> None:
    out = validate_extraction(chunk(entities=[ACME, PARIS], relations=[rel(ACME, "bornIn", PARIS)]), schema)
    assert out.relations == []
    (drop,) = out.drops
    assert drop.reason == "domain/range violation"
    assert drop.kind == "relation"
    assert drop.detail.startswith("bornIn does not accept Company -> City")


def test_inverse_and_spelling_of_predicates(schema: Schema) -> None:
    ex = chunk(entities=[ALICE, PARIS], relations=[rel(PARIS, "birth_place_of", ALICE), rel(ALICE, "Born In", PARIS)])
    out = validate_extraction(ex, schema)
    assert out.drops == []
    assert [r.predicate for r in out.relations] == ["birthPlaceOf", "bornIn"]
    assert out.relations[1].id == Relation.make_id(ALICE.id, "bornIn", PARIS.id)


def test_undeclared_predicates(schema: Schema) -> None:
    ex = chunk(entities=[ALICE, PARIS], relations=[rel(ALICE, "visited", PARIS)])
    assert len(validate_extraction(ex, schema).relations) == 1
    out = validate_extraction(ex, schema, strict=True)
    assert out.relations == [] and reasons(out) == [DropReason.UNDECLARED_PREDICATE]


def test_empty_predicate_and_self_loop(schema: Schema) -> None:
    ex = chunk(entities=[ALICE, PARIS], relations=[rel(ALICE, "  ", PARIS), rel(ALICE, "partOf", ALICE)])
    out = validate_extraction(ex, schema)
    assert out.relations == []
    assert reasons(out) == [DropReason.EMPTY_PREDICATE, DropReason.SELF_LOOP]


def test_relation_to_a_taxonomy_node(schema: Schema) -> None:
    physicist = Ref(kind="concept", id=Concept.make_id("Physicist"), name="Physicist")
    unknown = Ref(kind="concept", id=Concept.make_id("Wizard"), name="Wizard")
    ex = chunk(entities=[ALICE, PARIS], relations=[rel(ALICE, "occupation", physicist),
                                                   rel(ALICE, "occupation", unknown),
                                                   rel(PARIS, "occupation", physicist)])
    out = validate_extraction(ex, schema)
    assert [r.object.name for r in out.relations] == ["Physicist"]
    assert reasons(out) == [DropReason.DANGLING_OBJECT, DropReason.DOMAIN_RANGE_VIOLATION]


def test_concepts_of_the_chunk(schema: Schema) -> None:
    wizard = Concept(id=Concept.make_id("Wizard"), name="Wizard", chunk_ids=[CHUNK])
    twice = wizard.model_copy(update={"parents": [Concept.make_id("Person")]})
    ex = chunk(entities=[ALICE], concepts=[wizard, twice, Concept(id="con_x", name="")],
               relations=[rel(ALICE, "partOf", Ref(kind="concept", id=wizard.id, name="Wizard"))])
    out = validate_extraction(ex, schema)
    (c,) = out.concepts
    assert c.parents == [Concept.make_id("Person")]
    assert len(out.relations) == 1
    assert reasons(out) == [DropReason.EMPTY_NAME]


def test_relation_about_a_relation(schema: Schema) -> None:
    paris = ent("Paris", "city ")  # spelling changes its id, so both relations get new ids
    born = rel(ALICE, "bornIn", paris)
    about = rel(born, "partOf", ALICE)
    out = validate_extraction(chunk(entities=[ALICE, paris], relations=[about, born]), schema)
    assert out.drops == []
    new_born = next(r for r in out.relations if r.predicate == "bornIn")
    new_about = next(r for r in out.relations if r.predicate == "partOf")
    assert new_about.subject.id == new_born.id == Relation.make_id(ALICE.id, "bornIn", PARIS.id)


def test_relation_cycle_does_not_hang(schema: Schema) -> None:
    a = Relation(id="rel_a", subject=Ref(kind="relation", id="rel_b", name="b"), predicate="partOf",
                 object=ALICE.ref())
    b = Relation(id="rel_b", subject=Ref(kind="relation", id="rel_a", name="a"), predicate="partOf",
                 object=ALICE.ref())
    out = validate_extraction(chunk(entities=[ALICE], relations=[a, b]), schema)
    assert out.relations == []
    assert reasons(out) == [DropReason.DANGLING_SUBJECT, DropReason.DANGLING_SUBJECT]


# ---------------------------------------------------------------- hypernodes


def test_hypernodes(schema: Schema) -> None:
    paris = ent("Paris", "city ")
    born = rel(ALICE, "bornIn", paris)
    year = ent("1900", "Date")
    good = HyperNode(id=HyperNode.make_id(born.id, "in", year.id), subject=born.ref(), predicate="in",
                     object=year.ref(), chunk_ids=[CHUNK])
    missing = Ref(kind="relation", id="rel_missing", name="(x, y, z)")
    bad = HyperNode(id=HyperNode.make_id(missing.id, "in", year.id), subject=missing, predicate="in",
                    object=year.ref())
    empty = good.model_copy(update={"predicate": ""})
    out = validate_extraction(chunk(entities=[ALICE, paris, year], relations=[born], hypernodes=[good, bad, empty]),
                              schema)
    (h,) = out.hypernodes
    assert h.subject.id == out.relations[0].id  # follows the relation's new id
    assert h.id == HyperNode.make_id(out.relations[0].id, "in", year.id)
    assert reasons(out) == [DropReason.DANGLING_SUBJECT, DropReason.EMPTY_PREDICATE]
    assert all(d.kind == "hypernode" for d in out.drops)


# ---------------------------------------------------------------- events


def test_valid_event_and_type_alias(schema: Schema) -> None:
    founding = evt("establishment", "founded", {"founder": [ALICE.ref()], "Organization": [ACME.ref()]},
                   place=PARIS.ref())
    out = validate_extraction(chunk(entities=[ALICE, ACME, PARIS], events=[founding]), schema)
    assert out.drops == []
    (e,) = out.events
    assert e.type == "Founding"
    assert set(e.arguments) == {"founder", "organization"}
    assert e.id == Event.make_id("Founding", "founded", e.arguments)
    assert e.place == PARIS.ref()


def test_unknown_event_type(schema: Schema) -> None:
    wedding = evt("Wedding", "married", {"spouse": [ALICE.ref()]})
    assert validate_extraction(chunk(entities=[ALICE], events=[wedding]), schema).events == [wedding]
    out = validate_extraction(chunk(entities=[ALICE], events=[wedding]), schema, strict=True)
    assert out.events == [] and reasons(out) == [DropReason.UNKNOWN_EVENT_TYPE]


def test_event_roles(schema: Schema) -> None:
    founding = evt("Founding", "founded", {
        "founder": [ALICE.ref(), PARIS.ref()],  # a city cannot found: role range violation
        "organization": [ACME.ref()],
        "witness": [ALICE.ref()],  # not a role of Founding
    }, time=Ref(kind="entity", id="ent_gone", name="1900"))
    out = validate_extraction(chunk(entities=[ALICE, ACME, PARIS], events=[founding]), schema)
    (e,) = out.events
    assert e.arguments == {"founder": [ALICE.ref()], "organization": [ACME.ref()]}
    assert e.time is None
    assert reasons(out) == [DropReason.ROLE_RANGE_VIOLATION, DropReason.UNDECLARED_ROLE, DropReason.DANGLING_ARGUMENT]
    assert e.id == Event.make_id("Founding", "founded", e.arguments)


def test_missing_required_role_and_empty_trigger(schema: Schema) -> None:
    no_org = evt("Founding", "founded", {"founder": [ALICE.ref()]})
    dangling_org = evt("Founding", "set up", {"organization": [ent("Gone", "Company").ref()]})
    no_trigger = evt("Founding", " ", {"organization": [ACME.ref()]})
    out = validate_extraction(chunk(entities=[ALICE, ACME], events=[no_org, dangling_org, no_trigger]), schema)
    assert out.events == []
    assert reasons(out) == [DropReason.EMPTY_TRIGGER, DropReason.MISSING_REQUIRED_ROLE, DropReason.DANGLING_ARGUMENT,
                            DropReason.MISSING_REQUIRED_ROLE]


def test_relations_follow_changed_event_ids(schema: Schema) -> None:
    founding = evt("Founding", "founded", {"organization": [ACME.ref()], "witness": [ALICE.ref()]})
    about = rel(founding, "partOf", PARIS)
    out = validate_extraction(chunk(entities=[ALICE, ACME, PARIS], events=[founding], relations=[about]), schema)
    (e,) = out.events
    assert e.id != founding.id
    (r,) = out.relations
    assert r.subject == e.ref()
    assert r.id == Relation.make_id(e.id, "partOf", PARIS.id)


def test_event_as_relation_end_is_type_checked(schema: Schema) -> None:
    founding = evt("Founding", "founded", {"organization": [ACME.ref()]})
    ex = chunk(entities=[ALICE, ACME], events=[founding], relations=[rel(ALICE, "worksFor", founding)])
    out = validate_extraction(ex, schema)
    assert reasons(out) == [DropReason.DOMAIN_RANGE_VIOLATION]
    assert "Person -> Founding" in out.drops[0].detail


def test_event_arguments_may_be_events(schema: Schema) -> None:
    inner = evt("Founding", "founded", {"organization": [ACME.ref()], "witness": [ALICE.ref()]})
    outer = evt("Wedding", "married", {"occasion": [inner.ref()]})
    out = validate_extraction(chunk(entities=[ALICE, ACME], events=[outer, inner]), schema)
    new_inner = next(e for e in out.events if e.type == "Founding")
    new_outer = next(e for e in out.events if e.type == "Wedding")
    assert new_outer.arguments["occasion"] == [new_inner.ref()]
