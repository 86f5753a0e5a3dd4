from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from llm_fakes import ScriptedGateway

from kgbuild.extract.llm import LLMExtractor, one_line
from kgbuild.extract.llm_output import EntitiesReply, FactsReply, JointReply, SplitReply
from kgbuild.extract.llm_records import looks_like_date
from kgbuild.extract.validate import validate_extraction
from kgbuild.ingest.llm_split import split_section
from kgbuild.llm.prompts import PromptLibrary
from kgbuild.llm.reply import parse_reply
from kgbuild.llm.types import ChatResult, LLMCallError
from kgbuild.model import Chunk, Concept, Entity, HyperNode, Relation
from kgbuild.schema import Schema

TEXT = ("Marie Curie was born in Warsaw in 1867. In 1914 she founded the Radium Institute in Paris, "
        "where Irène Joliot-Curie later worked.")
CHUNK = Chunk(id="doc#p00000#0", doc_id="doc", text=TEXT, section=["Marie Curie", "Life"], order=0,
              paragraph_start=0, paragraph_end=0, token_count=30, content_hash="h")


@pytest.fixture(scope="module")
def schema() -> Schema:
    return Schema.model_validate({
        "name": "test",
        "fallback_class": "Thing",
        "entity_types": {
            "Thing": {},
            "Person": {"parent": "Thing", "description": "A human being.", "properties": {"birthDate": "date"}},
            "Organization": {"parent": "Thing"},
            "GeographicLocation": {"parent": "Thing"},
            "Date": {"parent": "Thing"},
        },
        "event_types": {"Founding": {"roles": {"founder": ["Person"],
                                               "organization": {"range": ["Organization"], "required": True}}}},
        "relation_types": {
            "bornIn": {"domain": ["Person"], "range": ["GeographicLocation"]},
            "foundedBy": {"domain": ["Organization"], "range": ["Person"]},
            "locatedIn": {},
            "worksFor": {"domain": ["Person"], "range": ["Organization"]},
        },
    })


@pytest.fixture(scope="module")
def prompts() -> PromptLibrary:
    return PromptLibrary("en")


def ent(name: str, type_: str, **kw: Any) -> dict[str, Any]:
    return {"name": name, "type": type_, **kw}


ENTITIES = [
    ent("Marie Curie", "Person", semantic_type="physicist", description="Marie Curie was a physicist.",
        aliases=["Curie"], properties={"birthDate": 1867}),
    ent("Warsaw", "GeographicLocation", semantic_type="city"),
    ent("Radium Institute", "Organization", semantic_type="research institute"),
    ent("Paris", "GeographicLocation", semantic_type="city"),
    ent("1914", "Date"),
]
JOINT = {
    "entities": ENTITIES,
    "events": [{"type": "Founding", "trigger": "founded",
                "arguments": {"founder": ["Marie Curie"], "organization": "Radium Institute"},
                "time": "1914", "place": "Paris"}],
    "relations": [
        {"subject": "Marie Curie", "predicate": "bornIn", "object": "Warsaw"},
        {"subject": "Radium Institute", "predicate": "foundedBy", "object": "curie"},  # alias, other case
        ["Radium Institute", "locatedIn", "Paris"],
    ],
    "hypernodes": [{"triple": ["radium institute", "FoundedBy", "Marie Curie"], "qualifier": "in", "value": "1914"}],
}


def run(extractor: LLMExtractor, chunk: Chunk = CHUNK, **kw: Any) -> tuple[Any, bool]:
    return asyncio.run(extractor.aextract(chunk, **kw))


def make(gateway: ScriptedGateway, schema: Schema, prompts: PromptLibrary, **kw: Any) -> LLMExtractor:
    return LLMExtractor(gateway, schema, prompts, **kw)


# ---------------------------------------------------------------- joint extraction


def test_joint_extraction_to_records(schema: Schema, prompts: PromptLibrary) -> None:
    gw = ScriptedGateway(JOINT)
    ex, failed = run(make(gw, schema, prompts))
    assert not failed and ex.extractor == "llm" and ex.chunk_id == CHUNK.id
    (request,) = gw.requests
    assert (request.stage, request.template, request.json_mode, request.doc_id) == (
        "extract", "extract.joint@2", True, "doc")
    assert TEXT in request.messages[-1].content and "Marie Curie > Life" in request.messages[-1].content

    by_name = {e.name: e for e in ex.entities}
    curie = by_name["Marie Curie"]
    assert curie.id == Entity.make_id("Marie Curie", "Person")
    assert (curie.spg_class, curie.semantic_type, curie.aliases) == ("Person", "physicist", ["Curie"])
    assert curie.properties == {"birthDate": ["1867"]}
    assert all(e.chunk_ids == [CHUNK.id] for e in ex.entities)
    assert {c.id for c in ex.concepts} == {Concept.make_id(n) for n in ("physicist", "city", "research institute")}

    rels = {(r.subject.name, r.predicate, r.object.name): r for r in ex.relations}
    assert set(rels) == {("Marie Curie", "bornIn", "Warsaw"), ("Radium Institute", "foundedBy", "Marie Curie"),
                         ("Radium Institute", "locatedIn", "Paris")}
    founded = rels[("Radium Institute", "foundedBy", "Marie Curie")]
    assert founded.subject.id == by_name["Radium Institute"].id and founded.object.id == curie.id
    assert founded.id == Relation.make_id(founded.subject.id, "foundedBy", curie.id)

    (event,) = ex.events
    assert event.arguments["founder"][0].id == curie.id
    assert event.arguments["organization"][0].id == by_name["Radium Institute"].id
    assert event.time and event.time.id == by_name["1914"].id and event.place and event.place.id == by_name["Paris"].id

    (hyper,) = ex.hypernodes  # matched to the existing relation despite different case
    assert hyper.subject.kind == "relation" and hyper.subject.id == founded.id
    assert (hyper.predicate, hyper.object.id) == ("in", by_name["1914"].id)
    assert hyper.id == HyperNode.make_id(founded.id, "in", by_name["1914"].id)
    assert ex.drops == []

    clean = validate_extraction(ex, schema)  # nothing for validation to remove
    assert [d.reason for d in clean.drops] == []
    assert len(clean.relations) == 3 and len(clean.hypernodes) == 1 and len(clean.events) == 1


def test_unknown_entity_in_relation(schema: Schema, prompts: PromptLibrary) -> None:
    reply = {"entities": ENTITIES, "relations": [
        {"subject": "Marie Curie", "predicate": "spouse", "object": "Pierre Curie"},  # not in the text
        {"subject": "Irène Joliot-Curie", "predicate": "worksFor", "object": "Radium Institute"},  # in the text
    ]}
    ex, failed = run(make(ScriptedGateway(reply), schema, prompts))
    assert not failed
    (drop,) = ex.drops
    assert (drop.stage, drop.reason, drop.kind) == ("extract", "relation names unknown entity", "relation")
    assert "Pierre Curie" in drop.detail and drop.chunk_id == CHUNK.id
    irene = next(e for e in ex.entities if e.name == "Irène Joliot-Curie")
    assert irene.spg_class == "Thing" and irene.id == Entity.make_id("Irène Joliot-Curie", "Thing")
    (rel,) = ex.relations
    assert rel.subject.id == irene.id


def test_unknown_event_argument_dropped_and_slots_created(schema: Schema, prompts: PromptLibrary) -> None:
    reply = {"entities": [ent("Marie Curie", "Person"), ent("Radium Institute", "Organization")],
             "events": [{"type": "Founding", "trigger": "founded",
                         "arguments": {"founder": ["Marie Curie", "Albert Einstein"],
                                       "organization": ["Radium Institute"],
                                       "time": ["1914"]},
                         "place": "Paris"},
                        {"type": " ", "trigger": "founded", "arguments": {}}]}
    ex, _ = run(make(ScriptedGateway(reply), schema, prompts))
    assert [d.reason for d in ex.drops] == ["event names unknown entity", "event without type"]
    (event,) = ex.events
    assert [r.name for r in event.arguments["founder"]] == ["Marie Curie"]
    assert "time" not in event.arguments
    by_name = {e.name: e for e in ex.entities}
    assert by_name["1914"].spg_class == "Date" and event.time and event.time.id == by_name["1914"].id
    assert by_name["Paris"].spg_class == "GeographicLocation" and event.place and event.place.id == by_name["Paris"].id


def test_hypernode_creates_its_relation_and_types_values(schema: Schema, prompts: PromptLibrary) -> None:
    reply = {"entities": ENTITIES, "relations": [],
             "hypernodes": [
                 {"triple": ["Marie Curie", "bornIn", "Warsaw"], "qualifier": "in", "value": "1867"},
                 {"triple": ["Marie Curie", "worksFor", "Radium Institute"], "qualifier": "when",
                  "value": "she was director"},
                 {"triple": ["Nobody", "bornIn", "Warsaw"], "qualifier": "in", "value": "1900"},
             ]}
    ex, _ = run(make(ScriptedGateway(reply), schema, prompts))
    rels = {(r.subject.name, r.predicate, r.object.name): r for r in ex.relations}
    assert set(rels) == {("Marie Curie", "bornIn", "Warsaw"), ("Marie Curie", "worksFor", "Radium Institute")}
    by_name = {e.name: e for e in ex.entities}
    assert by_name["1867"].spg_class == "Date" and by_name["she was director"].spg_class == "Thing"
    subjects = {h.object.name: h.subject.id for h in ex.hypernodes}
    assert subjects == {"1867": rels[("Marie Curie", "bornIn", "Warsaw")].id,
                        "she was director": rels[("Marie Curie", "worksFor", "Radium Institute")].id}
    assert [(d.reason, d.kind) for d in ex.drops] == [("hypernode names unknown entity", "hypernode")]


# ---------------------------------------------------------------- multistep, schema modes


def test_multistep_makes_two_calls_with_entities_in_second(schema: Schema, prompts: PromptLibrary) -> None:
    facts = {"relations": [["Marie Curie", "bornIn", "Warsaw"]], "events": [],
             "hypernodes": [{"triple": ["Marie Curie", "bornIn", "Warsaw"], "qualifier": "in", "value": "1867"}],
             "entities": [ent("1867", "Date")]}
    gw = ScriptedGateway({"entities": ENTITIES}, facts)
    ex, failed = run(make(gw, schema, prompts, mode="multistep"))
    assert not failed
    assert [r.stage for r in gw.requests] == ["extract.entities", "extract.facts"]
    assert [r.template for r in gw.requests] == ["extract.entities@1", "extract.facts@1"]
    second = gw.requests[1].messages[-1].content
    for e in ENTITIES:
        assert json.dumps(e["name"]) in second
    assert TEXT in second
    assert {e.name for e in ex.entities} == {*(e["name"] for e in ENTITIES), "1867"}
    (rel,) = ex.relations
    assert rel.subject.id == Entity.make_id("Marie Curie", "Person")
    assert ex.hypernodes[0].subject.id == rel.id


def test_multistep_failure_in_second_step_keeps_entities(schema: Schema, prompts: PromptLibrary) -> None:
    gw = ScriptedGateway({"entities": ENTITIES}, "nope", "nope")
    ex, failed = run(make(gw, schema, prompts, mode="multistep", max_reasks=1))
    assert failed and len(ex.entities) == len(ENTITIES)
    assert ex.failure is not None and ex.failure.reason == "extractor error"
    assert ex.failure.detail.startswith("extract.facts:")


def test_constrained_prompt_carries_the_schema(schema: Schema, prompts: PromptLibrary) -> None:
    gw = ScriptedGateway(JOINT)
    constrained = make(gw, schema, prompts, constrained=True)
    run(constrained)
    # the schema goes once into the system message (not again with the example)
    user = gw.requests[0].messages[0].content
    assert "Use only this schema's types" in user
    for cls in ("Person", "Organization", "GeographicLocation", "Date"):
        assert f"  {cls}:" in user
    assert "bornIn: Person -> GeographicLocation" in user and "locatedIn: any -> any" in user
    assert "founder: Person" in user and "organization: Organization (required)" in user
    assert "birthDate: date" in user and "A human being." in user

    gw_free = ScriptedGateway(JOINT)
    free = make(gw_free, schema, prompts)
    run(free, concepts=["physicist", "chemist"])
    system, user = gw_free.requests[0].messages[0].content, gw_free.requests[0].messages[-1].content
    assert "free-form" in system and "Thing, Person, Organization" in system and "bornIn, foundedBy" in system
    assert "physicist, chemist" in user
    assert len({constrained.fingerprint(), free.fingerprint(),
                make(gw, schema, prompts, mode="multistep").fingerprint(),
                make(gw, schema, prompts, model_label="m2").fingerprint()}) == 4
    assert free.fingerprint() == make(gw, schema, prompts).fingerprint()


def test_constrained_zh_prompt(schema: Schema) -> None:
    gw = ScriptedGateway(JOINT)
    run(make(gw, schema, PromptLibrary("zh"), constrained=True))
    system = gw.requests[0].messages[0].content
    assert "只使用下面 schema 中的类型" in system and "bornIn: Person -> GeographicLocation" in system
    assert gw.requests[0].template == "extract.joint.zh@2"


# ---------------------------------------------------------------- bad replies


BAD_JSON = '{"entities": [{"name": "Marie Curie" "type": "Person"}]}'


def test_invalid_json_then_valid_after_reask(schema: Schema, prompts: PromptLibrary) -> None:
    gw = ScriptedGateway(BAD_JSON, JOINT)
    ex, failed = run(make(gw, schema, prompts))
    assert not failed and len(ex.relations) == 3
    first, second = gw.requests
    assert second.stage == "extract.reask" and second.template == "extract.joint@2+reask@1"
    assert second.messages[:-2] == first.messages
    assert second.messages[-2].role == "assistant" and second.messages[-2].content == BAD_JSON
    assert second.messages[-1].role == "user" and "invalid JSON at line 1" in second.messages[-1].content
    assert gw.forgotten == [first]  # the bad reply leaves the reply cache
    usage = gw.usage.by_stage["extract"]
    assert (usage.reasks, usage.unusable) == (1, 1) and gw.usage.total.requests == 2


def test_schema_error_is_sent_back(schema: Schema, prompts: PromptLibrary) -> None:
    gw = ScriptedGateway({"entities": [{"type": "Person"}]}, JOINT)
    _, failed = run(make(gw, schema, prompts))
    assert not failed
    assert "entities[0].name: missing" in gw.requests[1].messages[-1].content


def test_empty_reply_is_invalid(schema: Schema, prompts: PromptLibrary) -> None:
    gw = ScriptedGateway("", JOINT)
    _, failed = run(make(gw, schema, prompts))
    assert not failed and "empty reply" in gw.requests[1].messages[-1].content


def test_truncated_reply_repaired(schema: Schema, prompts: PromptLibrary) -> None:
    full = json.dumps(JOINT)
    cut = full[: full.index('"Paris"') + 3]  # inside the 4th entity
    gw = ScriptedGateway(ChatResult(text=cut, model="fake", finish_reason="length"))
    ex, failed = run(make(gw, schema, prompts))
    assert not failed and len(gw.requests) == 1
    assert [e.name for e in ex.entities] == ["Marie Curie", "Warsaw", "Radium Institute"]
    assert [(r.reason, r.kind) for r in ex.repairs] == [("truncated reply repaired", "chunk")]
    assert ex.drops == [] and ex.failure is None


def test_truncated_reply_without_records_is_reasked(schema: Schema, prompts: PromptLibrary) -> None:
    gw = ScriptedGateway(ChatResult(text='{"entities": [{"name": "Mar', model="fake", finish_reason="length"), JOINT)
    ex, failed = run(make(gw, schema, prompts))
    assert not failed and len(gw.requests) == 2 and ex.drops == [] and ex.repairs == []
    assert "cut off at the length limit" in gw.requests[1].messages[-1].content


def test_repeated_garbage_fails_the_chunk(schema: Schema, prompts: PromptLibrary) -> None:
    gw = ScriptedGateway("I cannot help", "still\nnot json", '{"foo": 1}')
    ex, failed = run(make(gw, schema, prompts, max_reasks=2))
    assert failed and len(gw.requests) == 3
    drop = ex.failure
    assert drop is not None and ex.drops == []
    assert (drop.stage, drop.reason, drop.kind, drop.chunk_id) == ("extract", "extractor error", "chunk", CHUNK.id)
    assert "\n" not in drop.detail and "none of the keys" in drop.detail and "3 attempt(s)" in drop.detail
    assert ex.entities == []


def test_llm_call_error_fails_the_chunk(schema: Schema, prompts: PromptLibrary) -> None:
    error = LLMCallError("llm", "401 Unauthorized: invalid key sk-abcdef1234567890\nmore lines", status=401)
    ex, failed = run(make(ScriptedGateway(error), schema, prompts))
    assert failed
    drop = ex.failure
    assert drop is not None and drop.reason == "extractor error" and "401 Unauthorized" in drop.detail
    assert "sk-abcdef" not in drop.detail and "more lines" not in drop.detail


def test_one_line_masks_secrets() -> None:
    masked = one_line("bad Authorization: Bearer abc.def api_key=xyz0123456789abc")
    assert masked == "bad Authorization: [redacted] [redacted]"
    # A setting's name followed by our own message is not a secret.
    ours = "llm.api_key: endpoint rejected the API key (401)"
    assert one_line(ours) == ours


def test_bad_mode_is_a_config_error(schema: Schema, prompts: PromptLibrary) -> None:
    from kgbuild.errors import ConfigError

    with pytest.raises(ConfigError, match=r"extract\.mode"):
        make(ScriptedGateway(), schema, prompts, mode="parallel")


# ---------------------------------------------------------------- parse_reply


def test_parse_fences_and_prose() -> None:
    text = 'Here you go [as asked]:\n```json\n{"entities": [{"name": "A", "spgClass": "Person"}]}\n```\nAnything else?'
    reply, error, repaired = parse_reply(text, EntitiesReply)
    assert error is None and not repaired and reply is not None
    assert reply.entities[0].type == "Person"
    reply, error, _ = parse_reply('Sure! {"entities": []} Hope this helps {', JointReply)
    assert error is None and reply is not None and reply.entities == []


def test_parse_trailing_commas_and_variations() -> None:
    text = '{"entities": [{"name": 1914, "type": "Date", "aliases": "the year", "properties": {"k": null, "n": 3},},],}'
    reply, error, repaired = parse_reply(text, JointReply)
    assert error is None and not repaired and reply is not None
    e = reply.entities[0]
    assert (e.name, e.aliases, e.properties) == ("1914", ["the year"], {"n": ["3"]})
    reply, error, _ = parse_reply('{"relations": [["A", "p", "B"]], "hypernodes": '
                                  '[{"triple": {"subject": "A", "predicate": "p", "object": "B"}, '
                                  '"qualifier": "in", "value": 2001}]}',
                                  FactsReply)
    assert error is None and reply is not None
    hyper = reply.hypernodes[0]
    assert (reply.relations[0].object, hyper.triple, hyper.value) == ("B", ["A", "p", "B"], "2001")
    reply, _, _ = parse_reply('[{"name": "A"}]', EntitiesReply)  # a bare list of entities
    assert reply is not None and reply.entities[0].name == "A"


def test_parse_truncation() -> None:
    text = '{"entities": [{"name": "A"}, {"name": "B, with a \\"quote'
    reply, error, repaired = parse_reply(text, EntitiesReply)
    assert repaired and error is None and reply is not None and [e.name for e in reply.entities] == ["A"]
    cut = '{"entities": [{"name": "A"}], "relations": [["A", "p", "A"], ["A", "q'
    reply, _, repaired = parse_reply(cut, JointReply)
    assert repaired and reply is not None and len(reply.relations) == 1
    nothing_complete = (None, "the reply was cut off before any complete record", False)
    assert parse_reply('{"entities": [{"na', EntitiesReply) == nothing_complete
    reply, _, repaired = parse_reply('[{"name": "A"}, {"name": "B", "type": "Per', EntitiesReply)  # a bare list
    assert repaired and reply is not None and [e.name for e in reply.entities] == ["A"]
    reply, error, _ = parse_reply('Note [1]: {"entities": [1 2]}', JointReply)  # the object's error is reported
    assert error is not None and "column 17" in error


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ('{"entities": [{"name": ["x"]}]}', "entities[0].name: expected text, got list"),
        ('{"entities": [{"type": "Person"}]}', "entities[0].name: missing"),
        ('{"entities": {"name": "x", "extra": 1}, "relations": "x"}', "relations[0]: expected an object"),
        ('{"result": 1}', "none of the keys entities, events, relations, hypernodes is present"),
        ('{"entities": [}', "invalid JSON: brackets do not match"),
        ('{"entities": [1 2]}', "invalid JSON at line 1 column 17"),
        ("no JSON at all", "no JSON object in the reply"),
        ("   ", "empty reply"),
    ],
)
def test_parse_errors_are_specific(text: str, error: str) -> None:
    reply, message, repaired = parse_reply(text, JointReply)
    assert reply is None and not repaired and message is not None
    assert error in message


def test_looks_like_date() -> None:
    assert all(looks_like_date(t) for t in ("1914", "the 1990s", "7 November 1867", "2015年", "19世纪", "2001-09"))
    assert not any(looks_like_date(t) for t in ("Paris", "she was director", "12345 Main St", "Mayor"))


# ---------------------------------------------------------------- LLM splitting


class WordCounter:
    def count(self, text: str) -> int:
        return len(text.split())


SENTENCES = ["One two three.", "Four five six.", "Seven eight nine.", "Ten eleven twelve."]


def test_split_section_uses_valid_spans(prompts: PromptLibrary) -> None:
    gw = ScriptedGateway({"chunks": [{"start": 1, "end": 2, "summary": "first"},
                                     {"start": 3, "end": 4, "summary": "second"}]})
    spans = asyncio.run(split_section(gw, prompts, SENTENCES, 6, WordCounter(), section=["S"], doc_id="doc"))
    assert spans == [(0, 2, "first"), (2, 4, "second")]
    (request,) = gw.requests
    assert request.stage == "split" and request.template == "split@1" and request.doc_id == "doc"
    assert "[3] (3) Seven eight nine." in request.messages[-1].content and "6" in request.messages[-1].content


def test_split_section_reasks_then_falls_back(prompts: PromptLibrary) -> None:
    gap = {"chunks": [{"start": 1, "end": 1}, {"start": 3, "end": 4}]}
    over = {"chunks": [{"start": 1, "end": 4, "summary": "all"}]}
    gw = ScriptedGateway(gap, over)
    assert asyncio.run(split_section(gw, prompts, SENTENCES, 6, WordCounter())) is None
    assert "chunks[1].start is 3, expected 2" in gw.requests[1].messages[-1].content
    assert gw.requests[1].stage == "split.reask"
    gw = ScriptedGateway(over, {"chunks": [{"start": 1, "end": 3}]})
    assert asyncio.run(split_section(gw, prompts, SENTENCES, 6, WordCounter())) is None
    assert "over the budget of 6" in gw.requests[1].messages[-1].content


def test_split_section_call_error_falls_back(prompts: PromptLibrary) -> None:
    gw = ScriptedGateway(LLMCallError("llm", "timeout", retryable=True))
    assert asyncio.run(split_section(gw, prompts, SENTENCES, 6, WordCounter())) is None
    assert asyncio.run(split_section(ScriptedGateway(), prompts, [], 6, WordCounter())) == []


def test_split_reply_model() -> None:
    reply, error, _ = parse_reply('{"chunks": [{"first": "1", "last": 2}]}', SplitReply)
    assert error is None and reply is not None and (reply.chunks[0].start, reply.chunks[0].end) == (1, 2)
