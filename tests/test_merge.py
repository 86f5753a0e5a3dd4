"""One set of merge rules per record type, and every stage that merges records uses them."""

from __future__ import annotations

import asyncio
from pathlib import Path

from kgbuild.align.fusion import fuse_entities
from kgbuild.align.pipeline import align_graph
from kgbuild.assemble import Graph, assemble
from kgbuild.extract.validate import validate_extraction
from kgbuild.merge import MergeTable, merge, merge_by_id, own
from kgbuild.model import ChunkExtraction, Concept, Entity, Event, HyperNode, Ref, Relation
from kgbuild.schema import load_schema

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = load_schema(ROOT / "schemas" / "open_domain.yaml")
A, B = "doc#p00000#0", "doc#p00001#0"


def ent(name: str, cls: str = "Person", chunk: str = A, **kw: object) -> Entity:
    return Entity(id=Entity.make_id(name, cls), name=name, spg_class=cls, chunk_ids=[chunk], **kw)  # type: ignore[arg-type]


def rel(s: Entity, p: str, o: Entity, chunk: str = A, **props: str) -> Relation:
    return Relation(id=Relation.make_id(s.id, p, o.id), subject=s.ref(), predicate=p, object=o.ref(),
                    properties=props, chunk_ids=[chunk])


def evt(trigger: str, agent: Entity, chunk: str = A, time: Ref | None = None, place: Ref | None = None) -> Event:
    args = {"founder": [agent.ref()], "organization": [APPLE.ref()]}
    return Event(id=Event.make_id("Founding", trigger, args), type="Founding", trigger=trigger, arguments=args,
                 time=time, place=place, chunk_ids=[chunk])


JOBS = ent("Steve Jobs")
APPLE = ent("Apple", "Organization")
YEAR = ent("1976", "Date", chunk=B)
CUPERTINO = ent("Cupertino", "City", chunk=B)


# ---------------------------------------------------------------- the regression of issue 10


def _two_chunks() -> list[ChunkExtraction]:
    """The same relation and event from two chunks; only the second knows the properties and the time."""
    first = ChunkExtraction(chunk_id=A, extractor="t", entities=[JOBS, APPLE],
                            relations=[rel(JOBS, "founded", APPLE)], events=[evt("founded", JOBS)])
    jobs_again = JOBS.model_copy(update={"chunk_ids": [B]})
    second = ChunkExtraction(chunk_id=B, extractor="t", entities=[jobs_again, APPLE, YEAR],
                             relations=[rel(JOBS, "founded", APPLE, B, since="1976")],
                             events=[evt("founded", JOBS, B, time=YEAR.ref())])
    return [first, second]


def test_assembly_keeps_properties_and_event_time_from_a_later_chunk() -> None:
    graph = assemble(_two_chunks())
    (relation,) = graph.relations
    assert relation.properties == {"since": "1976"}
    assert relation.chunk_ids == [A, B]
    (event,) = graph.events
    assert event.time == YEAR.ref()
    assert event.chunk_ids == [A, B]


def test_assembly_after_validation_keeps_them_too() -> None:
    graph = assemble(validate_extraction(ex, SCHEMA) for ex in _two_chunks())
    (relation,) = graph.relations
    assert relation.properties == {"since": "1976"}
    (event,) = [e for e in graph.events if e.trigger == "founded"]
    assert event.time is not None and event.time.id == YEAR.id


def test_alignment_keeps_event_time_and_place_when_fusion_joins_two_events() -> None:
    # Two spellings of one person: fusion merges them, the two events then have the same id.
    steve, jobs = ent("Steven Jobs", chunk=A), ent("Steven P. Jobs", chunk=B)
    early, late = evt("founded", steve, A), evt("founded", jobs, B, time=YEAR.ref(), place=CUPERTINO.ref())
    graph = Graph(entities=[steve, jobs, APPLE, YEAR, CUPERTINO], events=[early, late])
    aligned = asyncio.run(align_graph(graph, SCHEMA)).graph
    assert len(aligned.events) == 1
    (event,) = aligned.events
    assert event.time is not None and event.time.id == YEAR.id
    assert event.place is not None and event.place.id == CUPERTINO.id
    assert event.chunk_ids == [A, B]


def test_fusion_keeps_properties_of_relations_that_become_duplicates() -> None:
    steve, jobs = ent("Steven Jobs", chunk=A), ent("Steven P. Jobs", chunk=B)
    rels = [rel(steve, "founded", APPLE, A, role=""), rel(jobs, "founded", APPLE, B, since="1976", role="CEO")]
    result = fuse_entities([steve, jobs, APPLE], rels, SCHEMA)
    (relation,) = result.relations
    assert relation.properties == {"since": "1976", "role": "CEO"}  # an empty value is no value
    assert relation.chunk_ids == [A, B]


# ---------------------------------------------------------------- the rules, one record type at a time


def test_entity_rules() -> None:
    a = ent("Alan Turing", chunk=A, description="", summary="mathematician", aliases=["Turing"],
            properties={"born": ["1912"]})
    b = ent("Alan Turing", chunk=B, description="British mathematician", summary="other", semantic_type="scientist",
            aliases=["A. M. Turing", "Turing", "alan  turing"], properties={"born": ["1912", "23 June 1912"],
                                                                           "died": ["1954"]})
    b = b.model_copy(update={"name": "ALAN TURING"})
    m = merge(a, b)
    assert m.id == a.id and m.name == "Alan Turing" and m.spg_class == "Person"
    assert m.chunk_ids == [A, B]
    # the other's name and aliases, without repeats and without spellings of the kept name
    assert m.aliases == ["Turing", "A. M. Turing"]
    assert m.description == "British mathematician"  # first non-empty
    assert m.summary == "mathematician"
    assert m.semantic_type == "scientist"
    assert m.properties == {"born": ["1912", "23 June 1912"], "died": ["1954"]}
    # the inputs are untouched
    assert a.chunk_ids == [A] and a.aliases == ["Turing"] and a.properties == {"born": ["1912"]}


def test_relation_rules() -> None:
    a = rel(JOBS, "founded", APPLE, A, since="", role="founder")
    b = rel(JOBS, "founded", APPLE, B, since="1976", role="CEO", place="garage")
    m = merge(a, b)
    assert m.properties == {"since": "1976", "role": "founder", "place": "garage"}  # key-wise, first non-empty
    assert m.chunk_ids == [A, B] and m.subject == a.subject and m.object == a.object
    assert a.properties == {"since": "", "role": "founder"}


def test_event_rules() -> None:
    other = ent("Steve Wozniak")
    a = evt("founded", JOBS, A, place=CUPERTINO.ref())
    b = evt("founded", JOBS, B, time=YEAR.ref(), place=ent("Los Altos", "City").ref())
    b.arguments["founder"].append(other.ref())
    m = merge(a, b)
    assert m.time == YEAR.ref() and m.place == CUPERTINO.ref()  # first non-empty each
    assert [r.id for r in m.arguments["founder"]] == [JOBS.id, other.id]  # role-wise union by id
    assert m.chunk_ids == [A, B]
    assert [r.id for r in a.arguments["founder"]] == [JOBS.id]


def test_hypernode_and_concept_rules() -> None:
    founded = rel(JOBS, "founded", APPLE)
    h_id = HyperNode.make_id(founded.id, "in", YEAR.id)
    h1 = HyperNode(id=h_id, subject=founded.ref(), predicate="in", object=YEAR.ref(), chunk_ids=[A])
    h2 = h1.model_copy(update={"chunk_ids": [B, A]})
    assert merge(h1, h2).chunk_ids == [A, B]
    c1 = Concept(id=Concept.make_id("scientist"), name="scientist", parents=["con_person"], chunk_ids=[A])
    c2 = Concept(id=c1.id, name="Scientist", description="a person doing science", parents=["con_person", "con_x"],
                 chunk_ids=[B])
    m = merge(c1, c2)
    assert (m.name, m.description, m.parents, m.chunk_ids) == ("scientist", "a person doing science",
                                                              ["con_person", "con_x"], [A, B])


def test_merge_by_id_and_the_table_keep_first_seen_order_and_never_touch_inputs() -> None:
    x, y = rel(JOBS, "founded", APPLE, A), rel(APPLE, "based_in", CUPERTINO, A)
    x2 = rel(JOBS, "founded", APPLE, B, since="1976")
    merged = merge_by_id([x, y, x2])
    assert [r.id for r in merged] == [x.id, y.id]
    assert merged[0].properties == {"since": "1976"} and x.properties == {}
    table: MergeTable[Relation] = MergeTable()
    for r in (x, y, x2):
        table.add(r)
    assert x.id in table and len(table) == 2
    assert table.values() == merged
    assert x.chunk_ids == [A]  # the table merged into its own copy


def test_own_copies_every_mutable_field() -> None:
    e = ent("Ada Lovelace", aliases=["Ada"], properties={"born": ["1815"]})
    c = own(e)
    c.chunk_ids.append(B)
    c.aliases.append("Countess")
    c.properties["born"].append("10 December 1815")
    assert e.chunk_ids == [A] and e.aliases == ["Ada"] and e.properties == {"born": ["1815"]}
    ev = own(evt("founded", JOBS))
    ev.arguments["founder"].append(APPLE.ref())
    assert len(evt("founded", JOBS).arguments["founder"]) == 1
