from __future__ import annotations

import asyncio

import pytest
from llm_fakes import ScriptedGateway
from shared_data import shared_data_dir

from kgbuild.align.concepts import concept_key, link_concepts
from kgbuild.align.semantic import BELONG_TO, IS_A, SEMANTIC_RELATIONS, semantic_relation
from kgbuild.align.taxonomy import LLMHypernyms, acomplete_isa, complete_isa
from kgbuild.extract.domain_concepts import DomainConcept, DomainConcepts, load_domain_concepts
from kgbuild.model import SEMANTIC_TYPES, Concept, Entity, Ref
from kgbuild.schema import Schema

CHUNK = "doc#p00000#0"
MEDICINE = shared_data_dir() / "medicine"


@pytest.fixture(scope="module")
def schema() -> Schema:
    return Schema.model_validate({
        "name": "test",
        "fallback_class": "Thing",
        "entity_types": {
            "Thing": {},
            "Person": {"parent": "Thing", "description": "A human being."},
            "Organization": {"parent": "Thing"},
            "Company": {"parent": "Organization"},
            "Disease": {"parent": "Thing"},
        },
        "concept_types": {"Occupation": {"description": "What a person does for a living.", "children": {
            "Scientist": {"description": "A person doing science.", "aliases": ["researcher"],
                          "children": ["Physicist"]}}}},
    })


def ent(name: str, cls: str, semantic_type: str | None = None, chunk: str = CHUNK, **kw: object) -> Entity:
    return Entity(id=Entity.make_id(name, cls), name=name, spg_class=cls, semantic_type=semantic_type,
                  chunk_ids=[chunk], **kw)


def by_name(concepts: list[Concept]) -> dict[str, Concept]:
    return {c.name: c for c in concepts}


def chain(concepts: list[Concept], start: str) -> list[str]:
    """Names along the first parents from `start` up."""
    ids = {c.id: c for c in concepts}
    node, out = by_name(concepts)[start], [start]
    while node.parents:
        node = ids[node.parents[0]]
        out.append(node.name)
    return out


# ---------------------------------------------------------------- semantic relations


def test_semantic_relation_vocabulary() -> None:
    assert SEMANTIC_RELATIONS == ("synonym", "isA", "isPartOf", "contains", "belongTo", "causes")
    s, o = Ref(kind="entity", id="e1", name="X"), Ref(kind="concept", id="c1", name="Y")
    r = semantic_relation(s, "belongTo", o, ["a#p00000#0", "a#p00000#0"])
    assert r.predicate == BELONG_TO and r.object.kind == "concept" and r.chunk_ids == ["a#p00000#0"]
    with pytest.raises(ValueError):
        semantic_relation(s, "likes", o, [])


# ---------------------------------------------------------------- concept linking


def test_concept_key() -> None:
    assert concept_key("Film directors") == concept_key("film director") == concept_key("film-director")
    assert concept_key("The companies") == concept_key("company")
    assert concept_key("Classes") == concept_key("class") and concept_key("diseases") == concept_key("disease")
    assert concept_key("virus") == "virus" and concept_key("analysis") == "analysis"
    assert concept_key("内科") == "内科"


def test_belong_to_and_dedup() -> None:
    entities = [
        ent("Steven Spielberg", "Person", "film director", "d#p00000#0"),
        ent("Martin Scorsese", "Person", "Film directors", "d#p00001#0"),
        ent("Sofia Coppola", "Person", "film director", "d#p00002#0"),
        ent("Acme", "Company", None),
        ent("Frida Kahlo", "Person", "artist", "d#p00005#0"),  # makes "artist" the most frequent spelling
    ]
    extracted = [Concept(id=Concept.make_id("Film-Director"), name="Film-Director", description="directs films",
                         parents=[Concept.make_id("Artists")], chunk_ids=["d#p00009#0"]),
                 Concept(id=Concept.make_id("Artists"), name="Artists"),
                 Concept(id=Concept.make_id("artist"), name="artist")]
    res = link_concepts(entities, extracted)
    names = by_name(res.concepts)
    assert set(names) == {"film director", "artist"}
    fd = names["film director"]
    assert fd.id == Concept.make_id("film director")
    assert fd.description == "directs films"
    assert fd.parents == [names["artist"].id]  # "Artists" re-pointed to the merged "artist"
    assert fd.chunk_ids == ["d#p00009#0", "d#p00000#0", "d#p00001#0", "d#p00002#0"]
    assert res.links == 4 and len(res.relations) == 4 and res.domain_links == 0
    assert all(r.predicate == BELONG_TO and r.object.kind == "concept" for r in res.relations)
    assert [r.object.id for r in res.relations] == [fd.id, fd.id, fd.id, names["artist"].id]
    assert res.relations[1].chunk_ids == ["d#p00001#0"]
    # ids folded into another: "Film-Director", "Film directors", "Artists"
    assert res.merged_concepts == 3
    assert res.id_map[Concept.make_id("Film directors")] == fd.id


def test_every_semantic_type_of_an_entity_is_linked() -> None:
    # "Charles Babbage was an English mathematician, inventor and engineer": three types, three belongTo links.
    babbage = ent("Charles Babbage", "Person", "mathematician",
                  properties={SEMANTIC_TYPES: ["mathematician", "inventor", "engineer"]})
    res = link_concepts([babbage], [])
    assert {r.object.name for r in res.relations if r.subject.id == babbage.id} == {"mathematician", "inventor",
                                                                                    "engineer"}
    assert babbage.semantic_types() == ["mathematician", "inventor", "engineer"]
    assert ent("Ada Lovelace", "Person", "writer").semantic_types() == ["writer"]


def test_schema_descriptions_and_aliases(schema: Schema) -> None:
    res = link_concepts([ent("Marie Curie", "Person", "physicist"), ent("Lise Meitner", "Person", "researcher")],
                        [], schema)
    names = by_name(res.concepts)
    assert names["Scientist"].description == "A person doing science."  # alias "researcher" -> schema node
    assert "researcher" not in names
    assert names["Physicist"].id == Concept.make_id("Physicist")  # the schema's spelling wins


def tiny_domain() -> DomainConcepts:
    nodes = [
        DomainConcept("Myocardial infarction", "Death of heart muscle.", ["MI", "heart attack"], ["Cardiovascular disease"]),
        DomainConcept("Cardiovascular disease", "Disorders of the heart and vessels."),
        DomainConcept("Asthma", "Chronic airway inflammation."),
    ]
    return DomainConcepts(nodes={c.name: c for c in nodes})


def test_domain_concepts_linked() -> None:
    domain = tiny_domain()
    entities = [
        ent("Heart attack", "Disease", None, "a#p00000#0"),  # alias of a domain concept
        ent("asthma", "Disease", "chronic disease", "a#p00001#0"),  # name of one; its own type too
        ent("John", "Person", "MI", "a#p00002#0"),  # semantic type = a domain alias
        ent("Bronchitis", "Disease", None, "a#p00003#0", aliases=["Asthmas"]),  # an alias, plural
    ]
    res = link_concepts(entities, [], domain=domain)
    names = by_name(res.concepts)
    assert list(names)[:3] == ["Myocardial infarction", "Cardiovascular disease", "Asthma"]
    mi, cvd, asthma = names["Myocardial infarction"], names["Cardiovascular disease"], names["Asthma"]
    assert mi.parents == [cvd.id] and mi.description == "Death of heart muscle."
    assert mi.chunk_ids == ["a#p00002#0"]  # named as John's type there
    assert cvd.chunk_ids == [] and asthma.chunk_ids == []  # pure domain concepts: no provenance
    pairs = {(r.subject.name, r.object.name) for r in res.relations}
    assert pairs == {("Heart attack", "Myocardial infarction"), ("asthma", "chronic disease"),
                     ("asthma", "Asthma"), ("John", "Myocardial infarction"), ("Bronchitis", "Asthma")}
    assert res.links == 5 and res.domain_links == 4
    assert "MI" not in names


@pytest.mark.skipif(not (MEDICINE / "HospitalDepartment.csv").is_file(), reason="shared medicine data absent")
def test_medicine_domain() -> None:
    domain = load_domain_concepts(MEDICINE)
    dept = next(c for c in domain if c.parents)
    child_name, parent_name = dept.name, dept.parents[0]
    entities = [ent(child_name, "Thing", None), ent("某医生", "Person", parent_name)]
    res = link_concepts(entities, [], domain=domain)
    assert len(res.concepts) == len(domain)
    ids = {c.id: c for c in res.concepts}
    child = next(c for c in res.concepts if c.name == child_name)
    assert ids[child.parents[0]].name == parent_name
    assert {(r.subject.name, r.object.name) for r in res.relations} == {(child_name, child_name),
                                                                         ("某医生", parent_name)}
    assert res.domain_links == 2


# ---------------------------------------------------------------- isA completion


def test_schema_tree_chain(schema: Schema) -> None:
    entities = [ent("Marie Curie", "Person", "Physicist")]
    linked = link_concepts(entities, [], schema)
    res = complete_isa(linked.concepts, entities, schema, belong_to=linked.relations)
    assert chain(res.concepts, "Physicist") == ["Physicist", "Scientist", "Occupation"]
    assert res.by_step["schema_tree"] == 2
    assert res.by_step["schema_class"] == 0  # Occupation is a class: the chain is complete
    names = by_name(res.concepts)
    assert names["Occupation"].description == "What a person does for a living."
    isa = {(r.subject.name, r.object.name) for r in res.relations}
    assert isa == {("Physicist", "Scientist"), ("Scientist", "Occupation")}
    assert all(r.predicate == IS_A and r.chunk_ids == [] for r in res.relations)


def test_head_word_and_class_chain(schema: Schema) -> None:
    entities = [
        ent("Spielberg", "Person", "Hungarian-American film director", "d#p00000#0"),
        ent("Ford", "Person", "film director", "d#p00001#0"),
        ent("Hitchcock", "Person", "director", "d#p00002#0"),
        ent("Acme", "Company", "software company", "d#p00003#0"),
        ent("Parliament", "Organization", "Legislative Body", "d#p00004#0"),
    ]
    linked = link_concepts(entities, [], schema)
    res = complete_isa(linked.concepts, entities, schema)  # without belong_to: matched by semantic type
    assert chain(res.concepts, "Hungarian-American film director") == [
        "Hungarian-American film director", "film director", "director", "Person", "Thing"]
    # "company" is a schema class: the head word links to it, and Company's parents follow the schema
    assert chain(res.concepts, "software company") == ["software company", "Company", "Organization", "Thing"]
    # "body" is no concept: no head-word edge, the class of the instances is the parent
    assert chain(res.concepts, "Legislative Body") == ["Legislative Body", "Organization", "Thing"]
    assert res.by_step["head_word"] == 3 and res.by_step["schema_class"] == 2
    assert res.by_step["class_chain"] == 3  # Person->Thing, Company->Organization->Thing
    assert res.completions == sum(res.by_step.values()) == 8
    rel = {(r.subject.name, r.object.name): r for r in res.relations}
    assert ("director", "Person") in rel
    assert rel[("film director", "director")].chunk_ids == ["d#p00001#0"]  # from the extracted name
    assert rel[("director", "Person")].chunk_ids == []  # from the schema


def test_head_word_cjk(schema: Schema) -> None:
    entities = [ent("张医生", "Person", "消化内科"), ent("李医生", "Person", "内科")]
    linked = link_concepts(entities, [], schema)
    res = complete_isa(linked.concepts, entities, schema, belong_to=linked.relations)
    assert chain(res.concepts, "消化内科") == ["消化内科", "内科", "Person", "Thing"]


class FakeHypernyms:
    def __init__(self, table: dict[str, list[str]]) -> None:
        self.table = table
        self.asked: list[list[str]] = []

    def hypernyms(self, names: list[str], classes: list[str]) -> dict[str, list[str]]:
        assert "Organization" in classes
        self.asked.append(names)
        return {n: self.table[n] for n in names if n in self.table}


class AsyncFakeHypernyms(FakeHypernyms):
    async def hypernyms(self, names: list[str], classes: list[str]) -> dict[str, list[str]]:  # type: ignore[override]
        return FakeHypernyms.hypernyms(self, names, classes)


def test_llm_hypernyms(schema: Schema) -> None:
    entities = [ent("Parliament", "Organization", "Legislative Body"), ent("Ann", "Person", "film director"),
                ent("Bob", "Person", "director")]
    linked = link_concepts(entities, [], schema)
    fake = FakeHypernyms({"Legislative Body": ["Government Agency"], "director": ["person"]})
    res = complete_isa(linked.concepts, entities, schema, hypernym=fake, belong_to=linked.relations)
    assert fake.asked == [["Legislative Body", "director"]]  # "film director" got its head word first
    assert chain(res.concepts, "Legislative Body") == ["Legislative Body", "Government Agency", "Organization", "Thing"]
    assert chain(res.concepts, "film director") == ["film director", "director", "Person", "Thing"]
    assert res.by_step["llm"] == 2 and res.by_step["schema_class"] == 1
    gov = by_name(res.concepts)["Government Agency"]
    assert gov.chunk_ids == []
    with pytest.raises(TypeError):
        complete_isa(linked.concepts, entities, schema, hypernym=AsyncFakeHypernyms({}))  # type: ignore[arg-type]
    ares = asyncio.run(acomplete_isa(linked.concepts, entities, schema, hypernym=AsyncFakeHypernyms(fake.table)))
    assert [c.model_dump() for c in ares.concepts] == [c.model_dump() for c in res.concepts]


def test_cycles_refused(schema: Schema) -> None:
    a, b, c = (Concept(id=Concept.make_id(n), name=n) for n in ("alpha", "beta", "gamma"))
    a.parents, b.parents, c.parents = [b.id], [c.id], [a.id]  # alpha -> beta -> gamma -> alpha
    res = complete_isa([a, b, c], [], schema)
    assert res.cycles_broken == 1
    ids = {x.id: x for x in res.concepts}
    # no cycle remains
    for start in ids:
        seen, node = set(), start
        while ids[node].parents:
            assert node not in seen
            seen.add(node)
            node = ids[node].parents[0]
    # the model proposes an edge back down the chain: refused and counted
    entities = [ent("X", "Person", "film director"), ent("Y", "Person", "director")]
    linked = link_concepts(entities, [], schema)
    fake = FakeHypernyms({"director": ["film director"]})
    res = complete_isa(linked.concepts, entities, schema, hypernym=fake)
    assert res.cycles_broken == 1 and res.by_step["llm"] == 0
    assert chain(res.concepts, "film director") == ["film director", "director", "Person", "Thing"]


# ---------------------------------------------------------------- the model-backed predictor


def test_llm_hypernyms_predictor() -> None:
    gw = ScriptedGateway({"hypernyms": {"legislative bodies": ["Government Agency"], "other": ["x"]}}, "not json")
    pred = LLMHypernyms(gw, batch_size=1, max_reasks=0)
    out = asyncio.run(pred.hypernyms(["Legislative Body", "director"], ["Organization", "Person"]))
    assert out == {"Legislative Body": ["Government Agency"]}
    req = gw.requests[0]
    assert (req.stage, req.template, req.json_mode) == ("align.hypernym", "align.hypernym@1", True)
    assert "Organization, Person" in req.messages[-1].content
    assert gw.forgotten == [gw.requests[1]] and pred.failures == 1


def test_llm_hypernyms_reasks_a_reply_about_other_concepts_and_reads_a_bare_mapping() -> None:
    gw = ScriptedGateway({"hypernyms": {"something else": ["x"]}}, {"codebreaker": "cryptographer"}, {})
    pred = LLMHypernyms(gw, batch_size=1)
    out = asyncio.run(pred.hypernyms(["Codebreaker", "nothing broader"], ["Person"]))
    assert out == {"Codebreaker": ["cryptographer"]}  # a bare mapping, one hypernym as text
    assert len(gw.requests) == 3 and gw.forgotten == [gw.requests[0]] and pred.failures == 0
    assert "none of the keys is one of the concepts listed" in gw.requests[1].messages[-1].content
    assert gw.usage.total.reasks == 1


def test_llm_hypernyms_uses_a_reply_in_a_json_fence() -> None:
    # Regression: bare json.loads threw a fenced reply away (and counted the batch as failed).
    gw = ScriptedGateway('```json\n{"hypernyms": {"Legislative Body": ["Government Agency"]}}\n```')
    pred = LLMHypernyms(gw)
    out = asyncio.run(pred.hypernyms(["Legislative Body"], ["Organization"]))
    assert out == {"Legislative Body": ["Government Agency"]}
    assert pred.failures == 0 and gw.forgotten == [] and len(gw.requests) == 1
