"""The records passed between build stages.

Each stage takes and returns these pydantic models; ids are derived from content (see
`kgbuild.ids`), and every extracted item carries the ids of the chunks that support it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from kgbuild.ids import normalize_name, stable_id


class Record(BaseModel):
    model_config = ConfigDict(extra="forbid")


# ---------------------------------------------------------------- documents and chunks


class Paragraph(Record):
    """One paragraph of a document, with the heading path it sits under."""

    section: list[str] = Field(default_factory=list)
    text: str


class Document(Record):
    id: str  # escaped article id: never contains '#'
    source: str  # file path relative to the input root, plus '::record' for corpus records
    title: str
    format: str  # txt, md, html, pdf, json, jsonl
    paragraphs: list[Paragraph]
    content_hash: str
    metadata: dict[str, str] = Field(default_factory=dict)
    chunk_ids: list[str] = Field(default_factory=list)  # document -> chunks, in reading order

    @property
    def text(self) -> str:
        return "\n\n".join(p.text for p in self.paragraphs)

    def word_count(self) -> int:
        return sum(len(p.text.split()) for p in self.paragraphs)


class Chunk(Record):
    id: str  # {articleID}#{paraCode}#{idInPara}
    doc_id: str  # chunk -> document
    text: str
    section: list[str] = Field(default_factory=list)
    order: int  # position in the document, 0-based
    paragraph_start: int
    paragraph_end: int  # inclusive: a chunk may hold several merged short paragraphs
    token_count: int
    content_hash: str
    prev_id: str | None = None
    next_id: str | None = None
    summary: str | None = None  # filled when a model is configured
    oversize_split: bool = False  # a single sentence exceeded the budget and was cut


# ---------------------------------------------------------------- extracted knowledge

NodeKind = Literal["entity", "event", "relation", "concept"]


class Ref(Record):
    """A pointer to another node; `relation` refs make a triple the end of another triple."""

    kind: NodeKind
    id: str
    name: str


class Entity(Record):
    id: str
    name: str
    spg_class: str  # a class of the domain schema
    semantic_type: str | None = None  # fine-grained type, e.g. "film director"
    description: str = ""
    summary: str = ""
    aliases: list[str] = Field(default_factory=list)
    properties: dict[str, list[str]] = Field(default_factory=dict)
    chunk_ids: list[str] = Field(default_factory=list)

    @staticmethod
    def make_id(name: str, spg_class: str) -> str:
        return stable_id("ent", spg_class, normalize_name(name))

    def ref(self) -> Ref:
        return Ref(kind="entity", id=self.id, name=self.name)


class Event(Record):
    id: str
    type: str
    trigger: str
    arguments: dict[str, list[Ref]] = Field(default_factory=dict)  # role -> arguments
    time: Ref | None = None
    place: Ref | None = None
    chunk_ids: list[str] = Field(default_factory=list)

    @staticmethod
    def make_id(type_: str, trigger: str, arguments: dict[str, list[Ref]]) -> str:
        args = [f"{role}={ref.id}" for role in sorted(arguments) for ref in arguments[role]]
        return stable_id("evt", type_, normalize_name(trigger), *sorted(args))

    def ref(self) -> Ref:
        return Ref(kind="event", id=self.id, name=f"{self.type}:{self.trigger}")


class Relation(Record):
    id: str
    subject: Ref
    predicate: str
    object: Ref
    properties: dict[str, str] = Field(default_factory=dict)
    chunk_ids: list[str] = Field(default_factory=list)

    @staticmethod
    def make_id(subject_id: str, predicate: str, object_id: str) -> str:
        return stable_id("rel", subject_id, normalize_name(predicate), object_id)

    def ref(self) -> Ref:
        return Ref(kind="relation", id=self.id, name=f"({self.subject.name}, {self.predicate}, {self.object.name})")


class HyperNode(Record):
    """A triple whose subject or object is itself a triple: ((X, founded, Y), in, 1999)."""

    id: str
    subject: Ref
    predicate: str
    object: Ref
    chunk_ids: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _nested(self) -> HyperNode:
        if self.subject.kind != "relation" and self.object.kind != "relation":
            raise ValueError("a hypernode needs a relation as its subject or object")
        return self

    @staticmethod
    def make_id(subject_id: str, predicate: str, object_id: str) -> str:
        return stable_id("hyp", subject_id, normalize_name(predicate), object_id)


class Concept(Record):
    """A node of a concept taxonomy; instances point at it with belongTo (semanticType)."""

    id: str
    name: str
    description: str = ""
    parents: list[str] = Field(default_factory=list)  # isA parents, as concept ids
    chunk_ids: list[str] = Field(default_factory=list)

    @staticmethod
    def make_id(name: str) -> str:
        return stable_id("con", normalize_name(name))


class Drop(Record):
    """An item removed by validation, counted in the build report with its reason."""

    stage: str
    reason: str
    kind: str  # entity, relation, event, hypernode, concept, document, chunk
    detail: str = ""
    chunk_id: str | None = None


class ChunkExtraction(Record):
    """Everything one extractor produced from one chunk."""

    chunk_id: str
    extractor: str
    entities: list[Entity] = Field(default_factory=list)
    events: list[Event] = Field(default_factory=list)
    relations: list[Relation] = Field(default_factory=list)
    hypernodes: list[HyperNode] = Field(default_factory=list)
    concepts: list[Concept] = Field(default_factory=list)
    drops: list[Drop] = Field(default_factory=list)
