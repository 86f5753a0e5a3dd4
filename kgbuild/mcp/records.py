"""The records the MCP tools return that the explorer's API has no shape for.

Everything else the tools return is the explorer's own record (kgbuild/serve/records.py: search hits,
node details, neighbourhoods, triples with their supporting sentences, strategies) or the engine's
(kgbuild/query/types.py: RetrievalResult, Answer; kgbuild/report.py: BuildReport), so an agent and
the web explorer see the same fields for the same thing.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from kgbuild.serve.records import ClassCount, NodeRef, QualifierView, Stats


class TripleRow(BaseModel):
    """A relation or event role with the ids of its supporting chunks (`supporting_passages` gives the
    passages themselves and the span of the sentence stating it)."""

    id: str = Field(description="the triple's id: pass it to supporting_passages")
    kind: Literal["relation", "role"]
    subject: NodeRef
    predicate: str
    object: NodeRef
    qualifiers: list[QualifierView] = Field(default_factory=list,
                                            description="hypernode qualifiers, e.g. a date or place of the fact")
    chunk_ids: list[str] = Field(default_factory=list, description="supporting chunks (the first 20)")
    chunk_total: int = Field(0, description="how many chunks support the triple")


class SchemaClass(BaseModel):
    """An entity, event or concept type of the project's schema."""

    name: str
    kind: Literal["entity", "event", "concept"]
    description: str = ""
    parent: str | None = None
    aliases: list[str] = Field(default_factory=list)
    properties: dict[str, str] = Field(default_factory=dict, description="property name -> its type")
    roles: dict[str, list[str]] = Field(default_factory=dict, description="an event's roles -> the types they take")


class SchemaRelation(BaseModel):
    name: str
    description: str = ""
    domain: list[str] = Field(default_factory=list)
    range: list[str] = Field(default_factory=list)
    inverse: str | None = None
    aliases: list[str] = Field(default_factory=list)


class SchemaView(BaseModel):
    """The domain schema the project was built against (the full YAML is the `kgbuild://schema` resource)."""

    name: str
    description: str = ""
    language: str = "en"
    fallback_class: str
    classes: list[SchemaClass]
    relations: list[SchemaRelation]


class GraphStats(Stats):
    """The explorer's graph statistics plus the searchable kinds and classes with their counts."""

    classes: list[ClassCount] = Field(default_factory=list)
