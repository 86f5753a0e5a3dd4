"""The records passed between build stages.

Each stage takes and returns these pydantic models; ids are derived from content (see
`kgbuild.ids`), and every extracted item carries the ids of the chunks that support it.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, Literal

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
    format: str  # txt, md, html, pdf, docx, json, jsonl
    paragraphs: list[Paragraph]
    content_hash: str
    metadata: dict[str, str] = Field(default_factory=dict)
    chunk_ids: list[str] = Field(default_factory=list)  # document -> chunks, in reading order
    markup_dropped: int = 0  # tags, image placeholders and page markers the reader left out (build report)

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

NodeKind = Literal["entity", "event", "relation", "concept", "value"]


class Ref(Record):
    """A pointer to another node; `relation` refs make a triple the end of another triple.

    A `value` ref points at no node: it is a literal, a date or quantity (1946, 18.42%, 3,549亿元) that only a
    hypernode names, kept as text on that hypernode's end instead of as an entity (kgbuild/graph/literals.py,
    docs/graph_model.md). It keeps the id the entity had (so hypernode ids do not change) and its text as `name`.
    """

    kind: NodeKind
    id: str
    name: str


# Entity property listing every semantic type when a text gives more than one (the first is `semantic_type`).
SEMANTIC_TYPES = "semantic_types"


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
        return Entity.id_of_key(spg_class, normalize_name(name))

    @staticmethod
    def id_of_key(spg_class: str, key: str) -> str:
        """`make_id` of a name already normalised (`normalize_name`): the columnar records path
        computes each key once."""
        return stable_id("ent", spg_class, key)

    def ref(self) -> Ref:
        return Ref(kind="entity", id=self.id, name=self.name)

    def semantic_types(self) -> list[str]:
        """Every semantic type: `semantic_type`, and the further ones a coordinated definition gave
        ("a film director, producer and screenwriter"), kept in the SEMANTIC_TYPES property."""
        listed = [t for t in self.properties.get(SEMANTIC_TYPES, []) if t]
        return listed or ([self.semantic_type] if self.semantic_type else [])


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
        return Relation.id_of_key(subject_id, normalize_name(predicate), object_id)

    @staticmethod
    def id_of_key(subject_id: str, predicate_key: str, object_id: str) -> str:
        """`make_id` of a predicate already normalised (`normalize_name`)."""
        return stable_id("rel", subject_id, predicate_key, object_id)

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


class Reason(str, Enum):
    """A closed set of reasons; the value is the short readable text used as a report counter key."""

    def __str__(self) -> str:
        return str(self.value)

    def __format__(self, spec: str) -> str:
        return format(str(self.value), spec)


class DropReason(Reason):
    """Why an item was removed. Stable: the values are counter keys in build reports and rows of
    the `drops` table."""

    # extraction, offline rules
    PRONOUN_UNRESOLVED = "pronoun unresolved"
    NEGATED = "negated"
    HEDGED = "hedged"
    # extraction, model replies that name what they did not extract
    UNKNOWN_IN_RELATION = "relation names unknown entity"
    UNKNOWN_IN_EVENT = "event names unknown entity"
    UNKNOWN_IN_HYPERNODE = "hypernode names unknown entity"
    EMPTY_HYPERNODE_VALUE = "hypernode without value"
    UNTYPED_EVENT = "event without type"
    # validation against the schema
    EMPTY_NAME = "empty name"
    NAME_TOO_LONG = "name too long"
    NAME_WITHOUT_LETTERS = "name has no letter or digit"
    UNKNOWN_CLASS = "unknown class"  # strict mode only
    UNDECLARED_PROPERTY = "undeclared property"  # strict mode only
    UNKNOWN_EVENT_TYPE = "unknown event type"  # strict mode only
    EMPTY_TRIGGER = "empty trigger"
    UNDECLARED_ROLE = "undeclared role"
    ROLE_RANGE_VIOLATION = "role range violation"
    DANGLING_ARGUMENT = "dangling argument"
    MISSING_REQUIRED_ROLE = "missing required role"
    EMPTY_PREDICATE = "empty predicate"
    UNDECLARED_PREDICATE = "undeclared predicate"  # strict mode only
    DANGLING_SUBJECT = "dangling subject"
    DANGLING_OBJECT = "dangling object"
    SELF_LOOP = "self loop"
    DOMAIN_RANGE_VIOLATION = "domain/range violation"


class RetypeReason(Reason):
    UNKNOWN_CLASS_TO_FALLBACK = "unknown class to fallback"
    # records: a relation's target no mapped record holds, kept as a node named by the value
    # (`records.missing_targets: stub`; the `drop` setting makes it a `dangling object` drop instead)
    MISSING_TARGET_TO_STUB = "missing target to named stub"


class FailureReason(Reason):
    EXTRACTOR_ERROR = "extractor error"  # the extractor raised, or the model gave no usable reply


class RepairReason(Reason):
    TRUNCATED_REPAIRED = "truncated reply repaired"  # a reply cut off at the length limit, incomplete records left out


ItemKind = Literal["entity", "relation", "event", "hypernode", "concept", "document", "chunk"]


class Drop(Record):
    """An item removed by extraction or validation, counted in the build report with its reason."""

    record: Literal["drop"] = "drop"
    stage: str
    reason: DropReason
    kind: ItemKind
    detail: str = ""  # what was removed, for people: names, classes, the triple
    chunk_id: str | None = None


class Retype(Record):
    """An item kept, but not as the extractor gave it: under another type (the schema's fallback
    class), or a relation target no mapped record holds kept as a named stub node."""

    record: Literal["retype"] = "retype"
    stage: str
    reason: RetypeReason
    kind: ItemKind
    detail: str = ""  # "'name': 'FromClass' -> ToClass"
    chunk_id: str | None = None


class ChunkFailure(Record):
    """A chunk the extractor could not process; it is not cached, so the next build retries it."""

    record: Literal["failure"] = "failure"
    stage: str = "extract"
    reason: FailureReason = FailureReason.EXTRACTOR_ERROR
    kind: Literal["chunk"] = "chunk"
    detail: str = ""  # the error, one line
    chunk_id: str


class RepairNote(Record):
    """A reply that was used after a repair; what the repair left out is said in `detail`."""

    record: Literal["repair"] = "repair"
    stage: str = "extract"
    reason: RepairReason
    kind: Literal["chunk"] = "chunk"
    detail: str = ""
    chunk_id: str


Note = Drop | Retype | ChunkFailure | RepairNote


def legacy_note(row: dict[str, Any]) -> Note:
    """A row of a `drops` table written before the four records were distinct (one `Drop` with a
    free-text reason), as the record it stands for. Extraction caches of that time are not read
    (the LLM extractor's version changed; the reply cache makes re-extraction free)."""
    reason = str(row.get("reason", ""))
    fields = {k: row.get(k) for k in ("stage", "kind", "detail", "chunk_id") if row.get(k) is not None}
    if reason == FailureReason.EXTRACTOR_ERROR.value:
        return ChunkFailure.model_validate({**fields, "reason": reason})
    if reason == RepairReason.TRUNCATED_REPAIRED.value:
        return RepairNote.model_validate({**fields, "reason": reason})
    if reason.startswith("retyped:"):
        return Retype.model_validate({**fields, "reason": reason.removeprefix("retyped:").strip()})
    return Drop.model_validate({**fields, "reason": reason})


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
    retypes: list[Retype] = Field(default_factory=list)
    repairs: list[RepairNote] = Field(default_factory=list)
    failure: ChunkFailure | None = None  # set: the extraction is partial and must not be cached

    @property
    def failed(self) -> bool:
        return self.failure is not None

    def notes(self) -> list[Note]:
        return [*self.drops, *self.retypes, *self.repairs, *([self.failure] if self.failure else [])]
