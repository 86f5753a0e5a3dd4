"""Turning a model's reply into the records of one chunk.

The model names things; records point at ids. Names (and aliases) are resolved to the
chunk's entities ignoring case. A relation or event naming something the model did not
list as an entity gets a fallback-class entity when the name occurs in the chunk (the
model just forgot to list it), and is dropped otherwise (it is probably invented). Schema
checks (classes, predicates, roles) are left to `validate_extraction`, which runs next.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from kgbuild.extract.llm_output import LLMEntity, LLMEvent, LLMHyperNode, LLMRelation
from kgbuild.ids import normalize_name
from kgbuild.merge import merge
from kgbuild.model import (
    Chunk,
    ChunkExtraction,
    Concept,
    Drop,
    DropReason,
    Entity,
    Event,
    HyperNode,
    ItemKind,
    Ref,
    Relation,
)
from kgbuild.schema import Schema
from kgbuild.text import search_fold

STAGE = "extract"
UNKNOWN_IN_RELATION = DropReason.UNKNOWN_IN_RELATION
UNKNOWN_IN_EVENT = DropReason.UNKNOWN_IN_EVENT
UNKNOWN_IN_HYPERNODE = DropReason.UNKNOWN_IN_HYPERNODE
EMPTY_HYPERNODE_VALUE = DropReason.EMPTY_HYPERNODE_VALUE
UNTYPED_EVENT = DropReason.UNTYPED_EVENT

_MONTHS = ("january|february|march|april|may|june|july|august|september|october|november|december|"
           "jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec")
# Years, month names, ISO dates, centuries, and Chinese 年/月/日 dates: enough to type a
# hypernode value as a Date; anything else gets the fallback class.
_DATE_RE = re.compile(
    rf"(?<![\d])(1\d{{3}}|20\d{{2}})s?(?![\d])|\b({_MONTHS})\b|\d{{4}}-\d{{1,2}}|\bcentury\b|\bBC\b|\bAD\b"
    r"|[0-9０-９一二三四五六七八九十〇零]+\s*[年月日]|世纪",
    re.IGNORECASE,
)
_SLOT_ROLES = ("time", "place")


def looks_like_date(text: str) -> bool:
    return bool(_DATE_RE.search(text))


class RecordBuilder:
    """Accumulates one chunk's records from reply items, resolving names to entity ids."""

    def __init__(self, chunk: Chunk, schema: Schema, extractor: str) -> None:
        self.chunk = chunk
        self.schema = schema
        self.extractor = extractor
        self.fallback = schema.fallback_class
        self.date_class = schema.resolve_class("Date") or self.fallback
        self.place_class = schema.resolve_class("GeographicLocation") or self.fallback
        self.chunk_ids = [chunk.id]
        self._text = search_fold(chunk.text)
        self.entities: dict[str, Entity] = {}
        self._names: dict[str, str] = {}  # normalised name or alias -> entity id (first wins)
        self.relations: dict[str, Relation] = {}
        self._triples: dict[tuple[str, str, str], str] = {}  # (subject id, predicate key, object id) -> relation id
        self.events: dict[str, Event] = {}
        self.hypernodes: dict[str, HyperNode] = {}
        self.concepts: dict[str, Concept] = {}
        self.drops: list[Drop] = []

    def drop(self, reason: DropReason, kind: ItemKind, detail: str) -> None:
        self.drops.append(Drop(stage=STAGE, reason=reason, kind=kind, detail=detail[:300], chunk_id=self.chunk.id))

    # ------------------------------------------------ entities

    def add_entities(self, items: Iterable[LLMEntity]) -> None:
        for item in items:
            self.add_entity(item)

    def add_entity(self, item: LLMEntity) -> Entity:
        name = item.name.strip()
        spg_class = (item.type or "").strip() or self.fallback
        semantic = (item.semantic_type or "").strip() or None
        entity = Entity(
            id=Entity.make_id(name, spg_class), name=name, spg_class=spg_class, semantic_type=semantic,
            description=item.description.strip(), summary=item.summary.strip(),
            aliases=[a.strip() for a in item.aliases if a.strip() and normalize_name(a) != normalize_name(name)],
            properties={k.strip(): [v.strip() for v in vals if v.strip()]
                        for k, vals in item.properties.items() if k.strip()},
            chunk_ids=list(self.chunk_ids),
        )
        entity = self._store(entity)
        if semantic:
            cid = Concept.make_id(semantic)
            self.concepts.setdefault(cid, Concept(id=cid, name=semantic, chunk_ids=list(self.chunk_ids)))
        return entity

    def _store(self, entity: Entity) -> Entity:
        old = self.entities.get(entity.id)
        if old is not None:  # the same name and class listed twice: keep one, pool the details
            entity = merge(old, entity)
        self.entities[entity.id] = entity
        for label in [entity.name, *entity.aliases]:
            key = normalize_name(label)
            if key:
                self._names.setdefault(key, entity.id)
        return entity

    def find(self, name: str) -> Entity | None:
        eid = self._names.get(normalize_name(name))
        return self.entities.get(eid) if eid else None

    def _new(self, name: str, spg_class: str) -> Entity:
        name = name.strip()
        return self._store(Entity(id=Entity.make_id(name, spg_class), name=name, spg_class=spg_class,
                                  chunk_ids=list(self.chunk_ids)))

    def _in_text(self, name: str) -> bool:
        key = normalize_name(name)
        return bool(key) and key in self._text

    def _mentioned(self, name: str) -> Entity | None:
        """The entity for a name a fact uses: listed, else created if the chunk mentions it."""
        found = self.find(name)
        if found is None and self._in_text(name):
            found = self._new(name, self.fallback)
        return found

    def _slot(self, name: str | None, spg_class: str) -> Ref | None:
        """Time or place of an event, or a hypernode value: an entity, created if needed."""
        if name is None or not name.strip():
            return None
        return (self.find(name) or self._new(name, spg_class)).ref()

    # ------------------------------------------------ facts

    def add_relation(self, item: LLMRelation, *, reason: DropReason = UNKNOWN_IN_RELATION,
                     kind: ItemKind = "relation") -> Relation | None:
        triple = f"({item.subject}, {item.predicate}, {item.object})"
        ends = []
        for name in (item.subject, item.object):
            entity = self._mentioned(name)
            if entity is None:
                self.drop(reason, kind, f"{triple}: '{name}' was not extracted")
                return None
            ends.append(entity)
        subject, obj = ends
        predicate = item.predicate.strip()
        key = (subject.id, normalize_name(predicate), obj.id)
        rid = self._triples.get(key)
        if rid is not None:
            old = self.relations[rid]
            self.relations[rid] = merge(old, old.model_copy(update={"properties": dict(item.properties)}))
            return self.relations[rid]
        rid = Relation.make_id(subject.id, predicate, obj.id)
        relation = Relation(id=rid, subject=subject.ref(), predicate=predicate, object=obj.ref(),
                            properties=dict(item.properties), chunk_ids=list(self.chunk_ids))
        self.relations[rid] = relation
        self._triples[key] = rid
        return relation

    def add_event(self, item: LLMEvent) -> Event | None:
        label = f"{item.type}:{item.trigger}"
        if not item.type.strip():  # an event type is part of the id and of every query on events
            self.drop(UNTYPED_EVENT, "event", label)
            return None
        slots = {"time": item.time, "place": item.place}
        arguments: dict[str, list[Ref]] = {}
        for role, names in item.arguments.items():
            if role.strip().casefold() in _SLOT_ROLES and names and not slots[role.strip().casefold()]:
                slots[role.strip().casefold()] = names[0]  # time/place given as a role
                continue
            for name in names:
                entity = self._mentioned(name)
                if entity is None:
                    self.drop(UNKNOWN_IN_EVENT, "event", f"{label} {role} -> '{name}' was not extracted")
                    continue
                refs = arguments.setdefault(role.strip(), [])
                if all(r.id != entity.id for r in refs):
                    refs.append(entity.ref())
        event = Event(
            id=Event.make_id(item.type.strip(), item.trigger.strip(), arguments),
            type=item.type.strip(), trigger=item.trigger.strip(), arguments=arguments,
            time=self._slot(slots["time"], self.date_class), place=self._slot(slots["place"], self.place_class),
            chunk_ids=list(self.chunk_ids),
        )
        if event.id in self.events:
            old = self.events[event.id]
            event = old.model_copy(update={"time": old.time or event.time, "place": old.place or event.place})
        self.events[event.id] = event
        return event

    def add_hypernode(self, item: LLMHyperNode) -> HyperNode | None:
        s, p, o = item.triple
        if not item.value.strip():
            self.drop(EMPTY_HYPERNODE_VALUE, "hypernode", f"(({s}, {p}, {o}), {item.qualifier}, ?)")
            return None
        # The inner triple is one of the relations, matched by names; a new one is added.
        relation = self.add_relation(LLMRelation(subject=s, predicate=p, object=o),
                                     reason=UNKNOWN_IN_HYPERNODE, kind="hypernode")
        if relation is None:
            return None
        value = self.find(item.value) or self._new(
            item.value, self.date_class if looks_like_date(item.value) else self.fallback)
        qualifier = item.qualifier.strip()
        hid = HyperNode.make_id(relation.id, qualifier, value.id)
        node = HyperNode(id=hid, subject=relation.ref(), predicate=qualifier, object=value.ref(),
                         chunk_ids=list(self.chunk_ids))
        self.hypernodes.setdefault(hid, node)
        return node

    def result(self, extra_drops: Iterable[Drop] = ()) -> ChunkExtraction:
        return ChunkExtraction(
            chunk_id=self.chunk.id, extractor=self.extractor,
            entities=list(self.entities.values()), events=list(self.events.values()),
            relations=list(self.relations.values()), hypernodes=list(self.hypernodes.values()),
            concepts=list(self.concepts.values()), drops=[*extra_drops, *self.drops],
        )
