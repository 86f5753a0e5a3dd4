"""Corpus-level assembly: per-chunk extractions merged into one graph by stable id.

This is exact-id merging only (same name and class give the same entity id); synonym fusion,
concept linking and isA completion are the alignment stage's job. Inputs are visited in reading
order, so the result (first description, first semantic type, order of provenance) is the same
for every build of the same input.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

from pydantic import BaseModel, Field

from kgbuild.model import ChunkExtraction, Concept, Drop, Entity, Event, HyperNode, Relation
from kgbuild.lists import union_into


T = TypeVar("T", Entity, Event, Relation, HyperNode, Concept)


class Graph(BaseModel):
    entities: list[Entity] = Field(default_factory=list)
    relations: list[Relation] = Field(default_factory=list)
    events: list[Event] = Field(default_factory=list)
    hypernodes: list[HyperNode] = Field(default_factory=list)
    concepts: list[Concept] = Field(default_factory=list)
    drops: list[Drop] = Field(default_factory=list)

    def node_classes(self) -> dict[str, str]:
        classes = {e.id: e.spg_class for e in self.entities}
        classes.update({ev.id: ev.type for ev in self.events})
        classes.update({c.id: "Concept" for c in self.concepts})
        return classes


def _merge_entity(a: Entity, b: Entity) -> None:
    union_into(a.chunk_ids, b.chunk_ids)
    union_into(a.aliases, [x for x in [b.name, *b.aliases] if x != a.name])
    a.semantic_type = a.semantic_type or b.semantic_type
    a.description = a.description or b.description
    a.summary = a.summary or b.summary
    for key, values in b.properties.items():
        union_into(a.properties.setdefault(key, []), values)


def _own(item: T) -> T:
    """A copy whose lists can be extended without touching the input (which may share them).

    Shallow plus fresh lists: deep-copying every record cost more than the rest of the stage.
    """
    update: dict[str, object] = {"chunk_ids": list(item.chunk_ids)}
    if isinstance(item, Entity):
        update["aliases"] = list(item.aliases)
        update["properties"] = {k: list(v) for k, v in item.properties.items()}
    if isinstance(item, Concept):
        update["parents"] = list(item.parents)
    return item.model_copy(update=update)


def assemble(extractions: Iterable[ChunkExtraction]) -> Graph:
    entities: dict[str, Entity] = {}
    relations: dict[str, Relation] = {}
    events: dict[str, Event] = {}
    hypernodes: dict[str, HyperNode] = {}
    concepts: dict[str, Concept] = {}
    drops: list[Drop] = []
    for ex in extractions:
        for e in ex.entities:
            if e.id in entities:
                _merge_entity(entities[e.id], e)
            else:
                entities[e.id] = _own(e)
        for table, items in ((relations, ex.relations), (events, ex.events), (hypernodes, ex.hypernodes)):
            for item in items:
                if item.id in table:
                    union_into(table[item.id].chunk_ids, item.chunk_ids)
                else:
                    table[item.id] = _own(item)
        for c in ex.concepts:
            if c.id in concepts:
                union_into(concepts[c.id].chunk_ids, c.chunk_ids)
                union_into(concepts[c.id].parents, c.parents)
                concepts[c.id].description = concepts[c.id].description or c.description
            else:
                concepts[c.id] = _own(c)
        drops.extend(ex.drops)
    return Graph(
        entities=list(entities.values()),
        relations=list(relations.values()),
        events=list(events.values()),
        hypernodes=list(hypernodes.values()),
        concepts=list(concepts.values()),
        drops=drops,
    )
