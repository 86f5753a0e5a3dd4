"""The JSON the explorer's API returns: one pydantic record per shape, so the OpenAPI document names them.

Ids are the workspace's own (content-derived) node, edge and chunk ids: the same build gives the
same ids, and a link to `/#/node/<id>` keeps working across restarts of the server.
"""

from __future__ import annotations

from typing import Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, field_validator

from kgbuild.query.types import Answer

T = TypeVar("T")

NodeKindName = Literal["entity", "concept", "event", "chunk"]
MAX_PAGE = 200  # the largest page any list endpoint returns


class Page(BaseModel, Generic[T]):
    """One page of a list: `items[offset : offset + limit]` of `total`; next_offset is None on the last page."""

    items: list[T]
    total: int
    offset: int
    limit: int
    next_offset: int | None = None


class NodeRef(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    id: str
    name: str
    kind: NodeKindName
    node_class: str | None = Field(None, serialization_alias="class",
                                   description="spg class of an entity, 'Concept', the event type, 'Chunk'")


class SearchHit(NodeRef):
    matched: str = Field(description="the name or alias the query matched")
    degree: int = Field(description="relations and event roles touching the node")
    context: str = Field("", description="what tells it from others of its name: an event's arguments "
                                         "(role name · ...), else the start of its description")


class ClassCount(BaseModel):
    kind: NodeKindName
    node_class: str | None = Field(None, serialization_alias="class")
    count: int


class ChainLink(BaseModel):
    """One belongTo or isA step of a node's concept chain: `child -predicate-> parent`."""

    child_id: str
    predicate: str
    parent: NodeRef
    depth: int = Field(description="1 for the node's own concepts, 2 for their isA parents, ...")


class NodeDetail(NodeRef):
    semantic_type: str | None = None
    description: str = ""
    summary: str = ""
    aliases: list[str] = Field(default_factory=list)
    properties: dict[str, list[str]] = Field(default_factory=dict)
    degree: int = 0
    chunk_ids: list[str] = Field(default_factory=list, description="supporting chunks (first 50)")
    chunk_count: int = 0
    text: str | None = Field(None, description="a chunk node's passage")
    doc_id: str | None = None
    title: str | None = None
    source: str | None = Field(None, description="a chunk node that is a row of a mapped records file (or the "
                                                 "text of one): the row's `file:line`")
    concept_chain: list[ChainLink] = Field(default_factory=list)


class QualifierView(BaseModel):
    predicate: str
    value: str
    value_id: str
    literal: bool = False  # a value kept as text on the fact (no node to open)


class GraphNode(NodeRef):
    hop: int
    degree: int


class GraphEdge(BaseModel):
    id: str
    source: str
    target: str
    predicate: str
    kind: Literal["relation", "role", "mention"]
    qualifiers: list[QualifierView] = Field(default_factory=list)


class Neighbourhood(BaseModel):
    center: str
    hops: int
    nodes: list[GraphNode]
    edges: list[GraphEdge]
    truncated: bool = Field(description="the caps stopped the expansion: more nodes or edges exist")
    max_nodes: int
    max_edges: int


class SpanView(BaseModel):
    start: int
    end: int


class Support(BaseModel):
    """A chunk supporting a triple, with the sentence stating it (offsets into `text`)."""

    chunk_id: str
    doc_id: str
    title: str
    source: str | None = Field(None, description="a row of a mapped records file (or the text of one): the "
                                                 "row's `file:line`, as `kgbuild inspect support` shows it")
    text: str
    sentence: SpanView | None = None
    mentions: list[SpanView] = Field(default_factory=list, description="the triple's ends named in the sentence")
    how: str = Field("", description="both / one: ends named in the sentence; words: only words of them")


class TripleView(BaseModel):
    id: str
    kind: Literal["relation", "role"]
    subject: NodeRef
    predicate: str
    object: NodeRef
    qualifiers: list[QualifierView] = Field(default_factory=list)
    support: list[Support] = Field(default_factory=list)
    support_total: int = 0


class MergeView(BaseModel):
    canonical_id: str
    canonical_name: str | None = None
    merged_ids: list[str]
    step: str
    reason: str


class StrategyView(BaseModel):
    name: str
    description: str
    needs_model: bool
    training: str | None = Field(None, description="a part to train on this project first, and the command")
    available: bool
    reason: str | None = None


MAX_QUESTION = 2000
MAX_STRATEGY_NAME = 64


class QueryRequest(BaseModel):
    # Strict: a JSON NaN, Infinity or 3.0 for k is refused (422), never coerced.
    question: str = Field(min_length=1, max_length=MAX_QUESTION)
    strategy: str = Field("auto", min_length=1, max_length=MAX_STRATEGY_NAME)
    k: int | None = Field(None, ge=1, le=20, strict=True)

    @field_validator("question", "strategy")
    @classmethod
    def _encodable(cls, value: str) -> str:
        # A lone surrogate ("\ud800" in the JSON) decodes to a str that cannot be written back as UTF-8:
        # the answer echoing the question would fail while being sent.
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError("must be valid Unicode text (it holds a lone surrogate)") from None
        return value


class QueryResult(Answer):
    """An answer as the explorer returns it: the engine's Answer, plus the ids named in its trace in words."""

    labels: dict[str, str] = Field(default_factory=dict,
                                   description="node id -> name, edge id -> 'head —predicate→ tail', for the "
                                               "ids in the trace's results")


class Stats(BaseModel):
    nodes: dict[str, int]
    edges: dict[str, int]
    fingerprint: str
    query_model: bool = Field(description="a model is configured: strategies that need one can run")
