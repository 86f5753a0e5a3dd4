"""Checking one chunk's extraction against the domain schema.

Extractors (a model especially) produce classes the schema lacks, predicates joining the
wrong kinds of things and references to nodes they never emitted. `validate_extraction`
returns a clean copy of a ChunkExtraction: spellings are mapped to the declared names,
invalid items are removed, and every removal is recorded as a `Drop` whose `reason` is a
`DropReason` (a counter key in the build report) with the names in `detail`.

Entities of an unknown class are kept under the fallback class unless `strict`; that is
recorded too, as a `Retype` (the item is kept, so the report does not count it as lost).
Changing a class, event type, role or reference changes content-derived ids, so ids are
recomputed and every reference is rewritten.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from kgbuild.ids import normalize_name
from kgbuild.merge import merge
from kgbuild.model import (
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
    Retype,
    RetypeReason,
)
from kgbuild.schema import Schema

STAGE = "validate"
MAX_NAME_CHARS = 200

M = TypeVar("M", Entity, Event, Relation, HyperNode, Concept)


def validate_extraction(ex: ChunkExtraction, schema: Schema, *, strict: bool = False) -> ChunkExtraction:
    """A copy of `ex` holding only what the schema accepts, with the removals in `drops`."""
    return _Validator(ex, schema, strict).run()


def _name_problem(name: str) -> DropReason | None:
    if not name:
        return DropReason.EMPTY_NAME
    if len(name) > MAX_NAME_CHARS:
        return DropReason.NAME_TOO_LONG
    if not any(ch.isalnum() for ch in name):
        return DropReason.NAME_WITHOUT_LETTERS
    return None


def _unique(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _with_chunk(chunk_ids: Sequence[str], chunk_id: str) -> list[str]:
    return _unique([*chunk_ids, chunk_id])


def _by_id(items: Iterable[M]) -> list[M]:
    """Items with equal ids merged into the first (rules of `kgbuild.merge`), in first-seen order.

    Not `merge_by_id`: the records here are already this run's copies, so one that meets no
    duplicate is kept as is instead of being copied again."""
    out: dict[str, M] = {}
    for item in items:
        out[item.id] = merge(out[item.id], item) if item.id in out else item
    return list(out.values())


class _Validator:
    """One validation run; holds the id maps built while walking the records in order
    (entities, concepts, events, relations, hypernodes: each may point at the ones before)."""

    def __init__(self, ex: ChunkExtraction, schema: Schema, strict: bool) -> None:
        self.ex = ex
        self.schema = schema
        self.strict = strict
        self.drops: list[Drop] = list(ex.drops)
        self.retypes: list[Retype] = list(ex.retypes)
        # original or final id -> reference to the kept record (absent: dropped or unknown)
        self.refs: dict[str, dict[str, Ref]] = {"entity": {}, "event": {}, "relation": {}, "concept": {}}
        self.classes: dict[str, str] = {}  # final node id -> class / event type / concept type

    def drop(self, reason: DropReason, kind: ItemKind, detail: str) -> None:
        self.drops.append(Drop(stage=STAGE, reason=reason, kind=kind, detail=detail, chunk_id=self.ex.chunk_id))

    def run(self) -> ChunkExtraction:
        entities = self._entities()
        concepts = self._concepts()
        events = self._events()
        relations = self._relations()
        hypernodes = self._hypernodes()
        return self.ex.model_copy(update={
            "entities": entities, "events": events, "relations": relations,
            "hypernodes": hypernodes, "concepts": concepts, "drops": self.drops, "retypes": self.retypes,
        })

    # ------------------------------------------------ nodes

    def _entities(self) -> list[Entity]:
        kept: list[tuple[str, Entity]] = []
        for e in self.ex.entities:
            name = e.name.strip()
            problem = _name_problem(name)
            if problem:
                self.drop(problem, "entity", f"'{name[:80]}' ({e.spg_class})")
                continue
            cls = self.schema.resolve_class(e.spg_class)
            if cls is None:
                if self.strict:
                    self.drop(DropReason.UNKNOWN_CLASS, "entity", f"'{name}': {e.spg_class!r}")
                    continue
                cls = self.schema.fallback_class
                self.retypes.append(Retype(stage=STAGE, reason=RetypeReason.UNKNOWN_CLASS_TO_FALLBACK, kind="entity",
                                           detail=f"'{name}': {e.spg_class!r} -> {cls}", chunk_id=self.ex.chunk_id))
            new_id = e.id if cls == e.spg_class else Entity.make_id(name, cls)
            entity = e.model_copy(update={
                "id": new_id, "name": name, "spg_class": cls,
                "properties": self._properties(name, cls, e.properties),
                "aliases": [a for a in _unique(x.strip() for x in e.aliases)
                            if a and normalize_name(a) != normalize_name(name)],
                "chunk_ids": _with_chunk(e.chunk_ids, self.ex.chunk_id),
            })
            kept.append((e.id, entity))
        merged = _by_id(e for _, e in kept)
        final = {e.id: e for e in merged}
        for old_id, e in kept:
            self.refs["entity"][old_id] = self.refs["entity"][e.id] = final[e.id].ref()
            self.classes[e.id] = e.spg_class
        return merged

    def _properties(self, name: str, cls: str, props: dict[str, list[str]]) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for key, values in props.items():
            declared = self.schema.resolve_property(cls, key)
            if declared is None and self.strict:
                self.drop(DropReason.UNDECLARED_PROPERTY, "entity", f"'{name}' ({cls}).{key}")
                continue
            vals = [v.strip() for v in values if v.strip()]
            if vals:
                target = declared or key.strip()
                out[target] = _unique([*out.get(target, []), *vals])
        return out

    def _concepts(self) -> list[Concept]:
        kept: list[Concept] = []
        for c in self.ex.concepts:
            name = c.name.strip()
            problem = _name_problem(name)
            if problem:
                self.drop(problem, "concept", f"'{name[:80]}'")
                continue
            kept.append(c.model_copy(update={"name": name, "chunk_ids": _with_chunk(c.chunk_ids, self.ex.chunk_id)}))
        merged = _by_id(kept)
        for c in merged:
            self.refs["concept"][c.id] = Ref(kind="concept", id=c.id, name=c.name)
        return merged

    def _class_of(self, ref: Ref) -> str | None:
        """Class used for domain/range checks; None when it cannot be judged (no check)."""
        cls = self.classes.get(ref.id)
        if cls is None or (not self.strict and cls == self.schema.fallback_class):
            return None  # the fallback class means "type unknown", not "type Thing"
        return cls

    def _resolve(self, ref: Ref) -> Ref | None:
        found = self.refs[ref.kind].get(ref.id)
        if found is None and ref.kind == "concept":
            # Taxonomy nodes of the schema may be referenced without being emitted by the chunk;
            # looked up on demand, since copying the whole taxonomy per chunk dominated the stage.
            path = self.schema.concept_path_of(ref.id)
            if path is not None:
                found = self.refs["concept"][ref.id] = Ref(kind="concept", id=ref.id, name=path[-1])
                self.classes.setdefault(ref.id, path[0])
        return found

    # ------------------------------------------------ events

    def _events(self) -> list[Event]:
        pending: list[tuple[Event, Event]] = []  # (prepared, as extracted)
        for ev in self.ex.events:
            trigger = ev.trigger.strip()
            label = f"{ev.type}:{trigger[:80]}"
            if not trigger:
                self.drop(DropReason.EMPTY_TRIGGER, "event", label)
                continue
            etype = self.schema.resolve_event_type(ev.type)
            if etype is None and self.strict:
                self.drop(DropReason.UNKNOWN_EVENT_TYPE, "event", label)
                continue
            pending.append((ev.model_copy(update={"type": etype or ev.type.strip(), "trigger": trigger}), ev))
        kept = _resolve_in_order(pending, "event", self.refs["event"], self._finish_event)
        return _by_id(kept)

    def _finish_event(self, ev: Event, original: Event, unresolved: set[str]) -> Event | None:
        label = f"{ev.type}:{ev.trigger[:80]}"
        declared = self.schema.event_types.get(ev.type)
        args: dict[str, list[Ref]] = {}
        for role_name, refs in ev.arguments.items():
            role = role_name.strip()
            if declared is not None:
                canon = self.schema.resolve_role(ev.type, role)
                if canon is None:
                    self.drop(DropReason.UNDECLARED_ROLE, "event", f"{label} role {role_name!r}")
                    continue
                role = canon
            for ref in refs:
                target = None if ref.id in unresolved else self._resolve(ref)
                if target is None:
                    self.drop(DropReason.DANGLING_ARGUMENT, "event", f"{label} {role} -> {ref.name}")
                    continue
                allowed = declared.roles[role].range if declared is not None else []
                cls = self._class_of(target)
                if allowed and cls is not None and not any(self.schema.is_a(cls, a) for a in allowed):
                    self.drop(DropReason.ROLE_RANGE_VIOLATION, "event", f"{label} {role} -> {target.name} ({cls})")
                    continue
                if all(r.id != target.id for r in args.get(role, [])):
                    args.setdefault(role, []).append(target)
        slots: dict[str, Ref | None] = {}
        for slot in ("time", "place"):
            ref = getattr(ev, slot)
            slots[slot] = None if ref is None else self._resolve(ref)
            if ref is not None and slots[slot] is None:
                self.drop(DropReason.DANGLING_ARGUMENT, "event", f"{label} {slot} -> {ref.name}")
        if declared is not None:
            missing = [r for r, spec in declared.roles.items() if spec.required and not args.get(r)]
            if missing:
                self.drop(DropReason.MISSING_REQUIRED_ROLE, "event", f"{label} lacks {', '.join(missing)}")
                return None
        before = (original.type, original.trigger, _arg_ids(original.arguments))
        changed = (ev.type, ev.trigger, _arg_ids(args)) != before
        done = ev.model_copy(update={
            "id": Event.make_id(ev.type, ev.trigger, args) if changed else ev.id,
            "arguments": args, **slots,
            "chunk_ids": _with_chunk(ev.chunk_ids, self.ex.chunk_id),
        })
        if declared is not None:  # an undeclared type says nothing for domain/range checks
            self.classes[done.id] = done.type
        return done

    # ------------------------------------------------ relations and hypernodes

    def _relations(self) -> list[Relation]:
        pending: list[tuple[Relation, Relation]] = []  # (prepared, as extracted)
        for rel in self.ex.relations:
            pred = rel.predicate.strip()
            if not pred:
                self.drop(DropReason.EMPTY_PREDICATE, "relation", f"{rel.subject.name} -> {rel.object.name}")
                continue
            canon = self.schema.resolve_relation(pred)
            if canon is None and self.strict:
                triple = f"({rel.subject.name}, {pred}, {rel.object.name})"
                self.drop(DropReason.UNDECLARED_PREDICATE, "relation", triple)
                continue
            pending.append((rel.model_copy(update={"predicate": canon or pred}), rel))
        kept = _resolve_in_order(pending, "relation", self.refs["relation"], self._finish_relation)
        return _by_id(kept)

    def _ends(self, subject: Ref, obj: Ref, unresolved: set[str], kind: ItemKind,
              triple: str) -> tuple[Ref, Ref] | None:
        s = None if subject.id in unresolved else self._resolve(subject)
        o = None if obj.id in unresolved else self._resolve(obj)
        if s is None:
            self.drop(DropReason.DANGLING_SUBJECT, kind, triple)
        elif o is None:
            self.drop(DropReason.DANGLING_OBJECT, kind, triple)
        return (s, o) if s is not None and o is not None else None

    def _finish_relation(self, rel: Relation, original: Relation, unresolved: set[str]) -> Relation | None:
        triple = f"({rel.subject.name}, {rel.predicate}, {rel.object.name})"
        ends = self._ends(rel.subject, rel.object, unresolved, "relation", triple)
        if ends is None:
            return None
        s, o = ends
        if s.id == o.id:
            self.drop(DropReason.SELF_LOOP, "relation", triple)
            return None
        sc, oc = self._class_of(s), self._class_of(o)
        if sc is not None and oc is not None and not self.schema.relation_allows(rel.predicate, sc, oc):
            detail = f"{rel.predicate} does not accept {sc} -> {oc}: {triple}"
            self.drop(DropReason.DOMAIN_RANGE_VIOLATION, "relation", detail)
            return None
        changed = (s.id, rel.predicate, o.id) != (original.subject.id, original.predicate, original.object.id)
        return rel.model_copy(update={
            "id": Relation.make_id(s.id, rel.predicate, o.id) if changed else rel.id,
            "subject": s, "object": o,
            "chunk_ids": _with_chunk(rel.chunk_ids, self.ex.chunk_id),
        })

    def _hypernodes(self) -> list[HyperNode]:
        kept: list[HyperNode] = []
        for h in self.ex.hypernodes:
            pred = h.predicate.strip()
            triple = f"({h.subject.name}, {pred}, {h.object.name})"
            if not pred:
                self.drop(DropReason.EMPTY_PREDICATE, "hypernode", triple)
                continue
            ends = self._ends(h.subject, h.object, set(), "hypernode", triple)
            if ends is None:
                continue
            s, o = ends
            changed = (s.id, pred, o.id) != (h.subject.id, h.predicate, h.object.id)
            kept.append(h.model_copy(update={
                "id": HyperNode.make_id(s.id, pred, o.id) if changed else h.id,
                "subject": s, "predicate": pred, "object": o,
                "chunk_ids": _with_chunk(h.chunk_ids, self.ex.chunk_id),
            }))
        return _by_id(kept)


def _arg_ids(args: dict[str, list[Ref]]) -> dict[str, list[str]]:
    return {role: [r.id for r in refs] for role, refs in args.items()}


R = TypeVar("R", Event, Relation)


def _resolve_in_order(
    pending: list[tuple[R, R]],
    kind: str,
    refs: dict[str, Ref],
    finish: Callable[[R, R, set[str]], R | None],
) -> list[R]:
    """Finish records whose references to records of their own kind are settled first.

    An event may be an argument of another event, a relation the subject of another
    relation; their ids can change while being finished, so a record waits for the ones it
    points at. References that stay unsettled (a cycle) are treated as dangling.
    """
    waiting = {item.id for item, _ in pending}
    kept: list[R] = []
    order = list(pending)
    while order:
        rest: list[tuple[R, R]] = []
        for pair in order:
            item = pair[0]
            own = [ref.id for ref in _refs_of(item) if ref.kind == kind and ref.id != item.id]
            if any(i in waiting and i not in refs for i in own):
                rest.append(pair)
                continue
            _finish_one(pair, finish, set(), refs, kept, waiting)
        if len(rest) == len(order):  # no progress: a cycle; break it
            cycle = {item.id for item, _ in rest}
            for pair in rest:
                _finish_one(pair, finish, cycle, refs, kept, waiting)
            break
        order = rest
    return kept


def _finish_one(pair: tuple[R, R], finish: Callable[[R, R, set[str]], R | None], unresolved: set[str],
                refs: dict[str, Ref], kept: list[R], waiting: set[str]) -> None:
    item, original = pair
    done = finish(item, original, unresolved)
    waiting.discard(item.id)
    if done is not None:
        kept.append(done)
        refs[item.id] = refs[done.id] = done.ref()


def _refs_of(item: Event | Relation) -> list[Ref]:
    if isinstance(item, Relation):
        return [item.subject, item.object]
    out = [r for refs in item.arguments.values() for r in refs]
    return out + [r for r in (item.time, item.place) if r is not None]
