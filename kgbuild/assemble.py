"""Corpus-level assembly: per-chunk extractions merged into one graph by stable id.

This is exact-id merging only (same name and class give the same entity id); synonym fusion,
concept linking and isA completion are the alignment stage's job. Inputs are visited in reading
order, so the result (first description, first semantic type, order of provenance) is the same
for every build of the same input.
"""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import BaseModel, Field

from kgbuild.merge import MergeTable
from kgbuild.model import (
    ChunkExtraction,
    ChunkFailure,
    Concept,
    Drop,
    Entity,
    Event,
    HyperNode,
    Note,
    Relation,
    RepairNote,
    Retype,
)


class Graph(BaseModel):
    entities: list[Entity] = Field(default_factory=list)
    relations: list[Relation] = Field(default_factory=list)
    events: list[Event] = Field(default_factory=list)
    hypernodes: list[HyperNode] = Field(default_factory=list)
    concepts: list[Concept] = Field(default_factory=list)
    drops: list[Drop] = Field(default_factory=list)
    retypes: list[Retype] = Field(default_factory=list)
    repairs: list[RepairNote] = Field(default_factory=list)
    failures: list[ChunkFailure] = Field(default_factory=list)

    def notes(self) -> list[Note]:
        """Everything the report counts and the `drops` table lists: removals, retypes, repairs, failures."""
        return [*self.drops, *self.retypes, *self.repairs, *self.failures]

    def node_classes(self) -> dict[str, str]:
        classes = {e.id: e.spg_class for e in self.entities}
        classes.update({ev.id: ev.type for ev in self.events})
        classes.update({c.id: "Concept" for c in self.concepts})
        return classes


def assemble(extractions: Iterable[ChunkExtraction]) -> Graph:
    """Records with the same id merged by `kgbuild.merge` (so what only a later chunk knows is kept)."""
    entities: MergeTable[Entity] = MergeTable()
    relations: MergeTable[Relation] = MergeTable()
    events: MergeTable[Event] = MergeTable()
    hypernodes: MergeTable[HyperNode] = MergeTable()
    concepts: MergeTable[Concept] = MergeTable()
    drops: list[Drop] = []
    retypes: list[Retype] = []
    repairs: list[RepairNote] = []
    failures: list[ChunkFailure] = []
    for ex in extractions:
        for e in ex.entities:
            entities.add(e)
        for r in ex.relations:
            relations.add(r)
        for ev in ex.events:
            events.add(ev)
        for h in ex.hypernodes:
            hypernodes.add(h)
        for c in ex.concepts:
            concepts.add(c)
        drops.extend(ex.drops)
        retypes.extend(ex.retypes)
        repairs.extend(ex.repairs)
        if ex.failure is not None:
            failures.append(ex.failure)
    return Graph(
        entities=entities.values(),
        relations=relations.values(),
        events=events.values(),
        hypernodes=hypernodes.values(),
        concepts=concepts.values(),
        drops=drops,
        retypes=retypes,
        repairs=repairs,
        failures=failures,
    )
