"""Applying the corrections file to an aligned graph (after fusion, before the tables are written).

`apply_corrections(graph, merges, corrections, schema)` applies merge, reject, retype, rename and
add in the file's order (a later fix sees what an earlier one did); never_merge is a constraint of
fusion itself (`apart_constraints`, used by the align stage) and is checked here only (still two
entities, or stale). A correction whose target is not in the graph is *stale*: it is reported with
its number and what is missing, and kept in the file, so a later build where the target is back
applies it again.

Ids stay content-derived: a merged entity keeps the id of the one it was folded into, a renamed or
retyped entity keeps its id (as fusion's canonical entities keep theirs), and a relation re-pointed
by a merge gets the id of its new ends (`Relation.make_id`), exactly as fusion re-keys them.

Every target is looked up in indexes built once (names, relations by end, events and hypernodes by
what they point at), so 1,000 corrections over a corpus-sized graph cost one pass over the graph
plus the few records each fix touches.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from kgbuild.align.fusion import Merge
from kgbuild.assemble import Graph
from kgbuild.curate.file import Correction, Entry
from kgbuild.ids import normalize_name
from kgbuild.merge import absorb, merge, own
from kgbuild.model import Entity, Event, HyperNode, Ref, Relation
from kgbuild.schema import Schema

MANUAL_STEP = "manual"  # the step a hand merge has in the merges table (fusion's are in fusion.STEPS)
PROVENANCE = "provenance"  # the property of an added triple that says it came from a correction


@dataclass(frozen=True)
class Stale:
    """A correction that could not be applied to this build's graph, and why."""

    number: int
    correction_id: str
    kind: str
    line: str  # "correction 3 (merge 'A' <- 'B'): no entity named 'B'"


@dataclass
class Applied:
    graph: Graph
    merges: list[Merge]
    applied: dict[str, int] = field(default_factory=dict)  # kind -> corrections applied
    stale: list[Stale] = field(default_factory=list)


def apply_corrections(graph: Graph, merges: Sequence[Merge], entries: Sequence[Entry],
                      schema: Schema | None) -> Applied:
    """`graph` with the corrections of `entries` applied (neither input is changed)."""
    if not entries:
        return Applied(graph, list(merges))
    editor = _Editor(graph, merges, schema)
    out = Applied(graph, [])
    for entry in entries:
        c = entry.correction
        problem = editor.apply(c)
        if problem is None:
            out.applied[c.kind] = out.applied.get(c.kind, 0) + 1
        else:
            out.stale.append(Stale(entry.number, c.id, c.kind,
                                   f"correction {entry.number} ({c.describe()}): {problem}"))
    out.graph, out.merges = editor.result(graph)
    return out


class _Missing(Exception):
    """A target that is not in the graph (or names several things): the correction is stale."""


class _Editor:
    def __init__(self, graph: Graph, merges: Sequence[Merge], schema: Schema | None) -> None:
        self.schema = schema
        self.ents: dict[str, Entity] = {e.id: e for e in graph.entities}
        self.owned: set[str] = set()  # records copied before their first change (inputs stay untouched)
        self.names: dict[str, list[str]] = defaultdict(list)
        for e in graph.entities:
            self._index_names(e)
        self.concepts = {normalize_name(c.name): c.id for c in graph.concepts}
        self.concept_names = {c.id: c.name for c in graph.concepts}
        self.merges = list(merges)
        self.folded: dict[str, str] = {}  # an id fusion (or a hand merge) folded away -> the id it lives on in
        for m in merges:
            for mid in m.merged_ids:
                if mid != m.canonical_id:
                    self.folded[mid] = m.canonical_id
        self.rels: dict[str, Relation] = {r.id: r for r in graph.relations}
        self.rels_of: dict[str, set[str]] = defaultdict(set)
        for r in graph.relations:
            self.rels_of[r.subject.id].add(r.id)
            self.rels_of[r.object.id].add(r.id)
        self.hyps: dict[str, HyperNode] = {h.id: h for h in graph.hypernodes}
        self.hyps_of: dict[str, set[str]] = defaultdict(set)
        # Values kept as literals on their facts (graph/literals.py): named by a correction, they get a
        # message that says so rather than "no entity".
        self.literals: dict[str, str] = {}
        for h in graph.hypernodes:
            self.hyps_of[h.subject.id].add(h.id)
            self.hyps_of[h.object.id].add(h.id)
            for end in (h.subject, h.object):
                if end.kind == "value":
                    self.literals[normalize_name(end.name)] = end.name
                    self.literals[end.id] = end.name
        self.events: dict[str, Event] = {ev.id: ev for ev in graph.events}
        self.events_of: dict[str, set[str]] = defaultdict(set)
        for ev in graph.events:
            for ref in _event_refs(ev):
                self.events_of[ref.id].add(ev.id)

    # ------------------------------------------------ lookups

    def _index_names(self, e: Entity) -> None:
        for name in {normalize_name(n) for n in (e.name, *e.aliases)}:
            if e.id not in self.names[name]:
                self.names[name].append(e.id)

    def entity(self, target: str) -> str:
        """The id of the one entity `target` names (id, folded id, name or alias)."""
        if target in self.ents:
            return target
        seen: set[str] = set()
        while target in self.folded and target not in seen:  # a merge of a merge
            seen.add(target)
            target = self.folded[target]
        if target in self.ents:
            return target
        found = [i for i in self.names.get(normalize_name(target), ()) if i in self.ents]
        if not found:
            literal = self.literals.get(target) or self.literals.get(normalize_name(target))
            if literal is not None:
                raise _Missing(f"{literal!r} is a value kept as a literal on the facts it qualifies, not an entity")
            raise _Missing(f"no entity named {target!r}")
        if len(found) > 1:
            shown = ", ".join(f"{i} ({self.ents[i].spg_class})" for i in found[:4])
            raise _Missing(f"{len(found)} entities are named {target!r} ({shown}): name one by its id")
        return found[0]

    def node(self, target: str) -> Ref:
        """An entity, or else a concept (relations may end at concepts: belongTo, isA)."""
        try:
            eid = self.entity(target)
        except _Missing:
            cid = target if target in self.concept_names else self.concepts.get(normalize_name(target))
            if cid is None:
                raise
            return Ref(kind="concept", id=cid, name=self.concept_names[cid])
        return self.ents[eid].ref()

    def _own_entity(self, eid: str) -> Entity:
        if eid not in self.owned:
            self.ents[eid] = own(self.ents[eid])
            self.owned.add(eid)
        return self.ents[eid]

    # ------------------------------------------------ the kinds

    def apply(self, c: Correction) -> str | None:
        try:
            getattr(self, f"_{c.kind}")(c)
        except _Missing as exc:
            return str(exc)
        return None

    def _merge(self, c: Correction) -> None:
        keep, fold = self.entity(c.target["a"]), self.entity(c.target["b"])
        if keep == fold:
            return  # already one entity: the fix holds
        into = self._own_entity(keep)
        gone = self.ents.pop(fold)
        absorb(into, gone)
        if normalize_name(gone.name) != normalize_name(into.name) and gone.name not in into.aliases:
            into.aliases.append(gone.name)
        self._index_names(into)
        self.folded[fold] = keep
        self._repoint({fold: keep})
        self.merges = [Merge(keep, m.merged_ids, m.step, m.reason) if m.canonical_id == fold else m
                       for m in self.merges]
        self.merges.append(Merge(keep, tuple(sorted((keep, fold))), MANUAL_STEP,
                                 f"by hand ({c.author or 'unknown'}): {c.reason}".rstrip(": ")))

    def _never_merge(self, c: Correction) -> None:
        # Fusion kept the two apart (apart_constraints); here only whether they are still two things.
        a, b = self.entity(c.target["a"]), self.entity(c.target["b"])
        if a == b:
            raise _Missing(f"{c.target['a']!r} and {c.target['b']!r} are one entity "
                           "(same name and class from extraction, which fusion cannot split)")

    def _retype(self, c: Correction) -> None:
        cls = c.target["class"]
        if self.schema is not None:
            known = self.schema.resolve_class(cls)
            if known is None:
                raise _Missing(f"class {cls!r} is not in schema {self.schema.name}")
            cls = known
        self._own_entity(self.entity(c.target["entity"])).spg_class = cls

    def _rename(self, c: Correction) -> None:
        eid = self.entity(c.target["entity"])
        e = self._own_entity(eid)
        old, new = e.name, c.target["name"]
        if old == new:
            return
        e.name = new
        e.aliases = [a for a in e.aliases if a != new]
        if normalize_name(old) != normalize_name(new) and old not in e.aliases:
            e.aliases.append(old)
        self._index_names(e)
        ref = e.ref()
        for rid in list(self.rels_of.get(eid, ())):
            r = self.rels[rid]
            self.rels[rid] = r.model_copy(update={"subject": ref if r.subject.id == eid else r.subject,
                                                  "object": ref if r.object.id == eid else r.object})
            self._rename_relation_refs(rid)
        for evid in list(self.events_of.get(eid, ())):
            self._replace_event(self.events[evid], {eid: eid}, {eid: ref})
        for hid in list(self.hyps_of.get(eid, ())):
            h = self.hyps[hid]
            self.hyps[hid] = h.model_copy(update={"subject": ref if h.subject.id == eid else h.subject,
                                                  "object": ref if h.object.id == eid else h.object})

    def _rename_relation_refs(self, rid: str) -> None:
        ref = self.rels[rid].ref()
        for hid in self.hyps_of.get(rid, ()):
            h = self.hyps[hid]
            self.hyps[hid] = h.model_copy(update={"subject": ref if h.subject.id == rid else h.subject,
                                                  "object": ref if h.object.id == rid else h.object})

    def _reject(self, c: Correction) -> None:
        t = c.target
        if "id" in t:
            if t["id"] in self.rels:
                self._drop_relation(t["id"])
            elif t["id"] in self.hyps:
                self._drop_hypernode(t["id"])
            else:
                raise _Missing(f"no triple {t['id']}")
            return
        subject, obj = self.node(t["subject"]).id, self.node(t["object"]).id
        predicate = normalize_name(t["predicate"])
        hits = [rid for rid in self.rels_of.get(subject, ())
                if self.rels[rid].object.id == obj and normalize_name(self.rels[rid].predicate) == predicate]
        if not hits:
            raise _Missing(f"no triple ({t['subject']}, {t['predicate']}, {t['object']})")
        for rid in hits:
            self._drop_relation(rid)

    def _add(self, c: Correction) -> None:
        t = c.target
        ends = [self._end(t[k], t.get(f"{k}_class", "")) for k in ("subject", "object")]
        rid = Relation.make_id(ends[0].id, t["predicate"], ends[1].id)
        props = {PROVENANCE: f"correction {c.id}", **({"note": t["note"]} if t.get("note") else {})}
        if rid in self.rels:  # extracted too: the correction adds its note, the text keeps its chunks
            self.rels[rid] = merge(self.rels[rid], self.rels[rid].model_copy(update={"properties": props}))
            return
        self._put_relation(Relation(id=rid, subject=ends[0], predicate=t["predicate"], object=ends[1],
                                    properties=props))

    def _end(self, name: str, cls: str) -> Ref:
        try:
            return self.node(name)
        except _Missing as exc:
            if not cls:
                if "entities are named" in str(exc):
                    raise
                raise _Missing(f"{exc}; give its class (subject_class / object_class) to create it") from None
        if self.schema is not None:
            known = self.schema.resolve_class(cls)
            if known is None:
                raise _Missing(f"class {cls!r} is not in schema {self.schema.name}")
            cls = known
        e = Entity(id=Entity.make_id(name, cls), name=name, spg_class=cls)
        self.ents[e.id] = e
        self.owned.add(e.id)
        self._index_names(e)
        return e.ref()

    # ------------------------------------------------ records

    def _put_relation(self, r: Relation) -> None:
        self.rels[r.id] = r
        self.rels_of[r.subject.id].add(r.id)
        self.rels_of[r.object.id].add(r.id)

    def _drop_relation(self, rid: str) -> None:
        r = self.rels.pop(rid)
        self.rels_of[r.subject.id].discard(rid)
        self.rels_of[r.object.id].discard(rid)
        for hid in list(self.hyps_of.get(rid, ())):  # a qualifier of a rejected triple goes with it
            self._drop_hypernode(hid)

    def _drop_hypernode(self, hid: str) -> None:
        h = self.hyps.pop(hid, None)
        if h is not None:
            self.hyps_of[h.subject.id].discard(hid)
            self.hyps_of[h.object.id].discard(hid)

    def _repoint(self, id_map: dict[str, str]) -> None:
        """Everything that pointed at a folded entity now points at the one it was folded into."""
        (old, new), = id_map.items()
        ref = self.ents[new].ref()
        rel_map: dict[str, str] = {}
        for rid in list(self.rels_of.pop(old, ())):
            r = self.rels.get(rid)
            if r is None:
                continue
            self.rels_of[r.subject.id].discard(rid)
            self.rels_of[r.object.id].discard(rid)
            del self.rels[rid]
            s = ref if r.subject.id == old else r.subject
            o = ref if r.object.id == old else r.object
            if s.id == o.id:
                for hid in list(self.hyps_of.get(rid, ())):
                    self._drop_hypernode(hid)
                continue  # a merge-made self-loop goes, as fusion drops them
            moved = r.model_copy(update={"subject": s, "object": o, "id": Relation.make_id(s.id, r.predicate, o.id)})
            prev = self.rels.get(moved.id)
            if prev is not None:
                self.rels_of[prev.subject.id].discard(prev.id)
                self.rels_of[prev.object.id].discard(prev.id)
                moved = merge(prev, moved)
                moved.id = prev.id
            self._put_relation(moved)
            rel_map[rid] = moved.id
        for evid in list(self.events_of.pop(old, ())):
            if evid in self.events:
                self._replace_event(self.events[evid], id_map, {new: ref})
        touched = {hid for key in (old, *rel_map) for hid in self.hyps_of.pop(key, set())}
        for hid in touched:
            h = self.hyps.pop(hid, None)
            if h is None:
                continue
            self.hyps_of[h.subject.id].discard(hid)
            self.hyps_of[h.object.id].discard(hid)
            s, o = (self._moved_ref(x, old, ref, rel_map) for x in (h.subject, h.object))
            moved_h = h.model_copy(update={"subject": s, "object": o, "id": HyperNode.make_id(s.id, h.predicate, o.id)})
            if moved_h.id in self.hyps:
                moved_h = merge(self.hyps[moved_h.id], moved_h)
            self.hyps[moved_h.id] = moved_h
            self.hyps_of[s.id].add(moved_h.id)
            self.hyps_of[o.id].add(moved_h.id)

    def _moved_ref(self, ref: Ref, old: str, new: Ref, rel_map: dict[str, str]) -> Ref:
        if ref.kind == "entity" and ref.id == old:
            return new
        if ref.kind == "relation" and ref.id in rel_map:
            return self.rels[rel_map[ref.id]].ref()
        return ref

    def _replace_event(self, ev: Event, id_map: dict[str, str], refs: dict[str, Ref]) -> None:
        def move(r: Ref | None) -> Ref | None:
            if r is None or r.kind != "entity" or r.id not in id_map:
                return r
            return refs[id_map[r.id]]

        args = {role: [m for m in (move(r) for r in items) if m is not None] for role, items in ev.arguments.items()}
        new = ev.model_copy(update={"arguments": args, "time": move(ev.time), "place": move(ev.place)})
        new.id = Event.make_id(new.type, new.trigger, new.arguments)
        del self.events[ev.id]
        for ref in _event_refs(ev):
            self.events_of[ref.id].discard(ev.id)
        if new.id in self.events:
            new = merge(self.events[new.id], new)
        self.events[new.id] = new
        for ref in _event_refs(new):
            self.events_of[ref.id].add(new.id)
        if new.id != ev.id:  # relations and hypernodes that end at the event follow its new id
            ev_ref = new.ref()
            for rid in list(self.rels_of.pop(ev.id, ())):
                r = self.rels.pop(rid)
                self.rels_of[r.subject.id].discard(rid)
                self.rels_of[r.object.id].discard(rid)
                s = ev_ref if r.subject.id == ev.id else r.subject
                o = ev_ref if r.object.id == ev.id else r.object
                self._put_relation(r.model_copy(update={"subject": s, "object": o,
                                                        "id": Relation.make_id(s.id, r.predicate, o.id)}))

    # ------------------------------------------------ out

    def result(self, graph: Graph) -> tuple[Graph, list[Merge]]:
        return graph.model_copy(update={
            "entities": list(self.ents.values()),
            "relations": list(self.rels.values()),
            "events": list(self.events.values()),
            "hypernodes": list(self.hyps.values()),
        }), self.merges


def _event_refs(ev: Event) -> Iterable[Ref]:
    for refs in ev.arguments.values():
        yield from refs
    for ref in (ev.time, ev.place):
        if ref is not None:
            yield ref
