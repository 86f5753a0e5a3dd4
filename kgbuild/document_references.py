"""A document's own company, for the chunks that call it only "the company".

A company report names itself once, near its start ("青澜航运股份有限公司（以下简称“青澜航运”或“公司”）"), and
every later section says 公司 / 本公司 / 本集团 for it, often before naming any other company there ("报告期内，公司
实现营业收入…。公司全资子公司X…"). An extractor sees one chunk at a time (chunks are cached, and extracted in
parallel), so it cannot know what such a chunk's 公司 is. It gives the reference a stand-in node instead, marked with
`STANDS_FOR`, and `FALLBACK` names what the chunk alone would have taken (its first company, or nothing).

`resolve` replaces each stand-in after extraction, once the document's chunks are seen in reading order: by the
company the document's title names (岭南纸业股份有限公司 2024 年年度报告: `TITLED`), else the one an earlier chunk
of the same document declared (with a short name of its own, 以下简称), else the first company an earlier chunk
named, else the chunk's own fallback. A stand-in nothing resolves is dropped with what hangs on it, as an
unresolved pronoun is: nothing is guessed.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from kgbuild.model import (
    ChunkExtraction,
    Drop,
    DropReason,
    Entity,
    Event,
    HyperNode,
    ItemKind,
    Ref,
    Relation,
)

# Entity properties of a stand-in (values are lists, as every entity property is).
STANDS_FOR = "stands_for"  # the words it was written as: ["公司"]
FALLBACK = "fallback"  # the entity id the chunk alone would have taken, if any
DEPENDENTS = "dependents"  # ids of the amounts and dates that are entities only through the stand-in's facts
DECLARED = "declared"  # an entity the text declared its 公司 (以下简称“公司”): the document's company
TITLED = "titled"  # the company the document's title names (岭南纸业股份有限公司 2024 年年度报告), if it names one


def is_stand_in(entity: Entity) -> bool:
    return STANDS_FOR in entity.properties


def document_of(chunk_id: str) -> str:
    return chunk_id.split("#", 1)[0]


def resolve(extractions: Iterable[ChunkExtraction]) -> Iterator[ChunkExtraction]:
    """`extractions` with every stand-in replaced by the company it stands for (or dropped).

    Extractions come in reading order, a document's chunks one after another (as the build gives them); the current
    document's are held until it ends, so memory stays one document's worth. A document whose chunks came apart
    would be resolved run by run: a later run does not see the companies of an earlier one."""
    held: list[ChunkExtraction] = []
    for ex in extractions:
        if held and document_of(ex.chunk_id) != document_of(held[0].chunk_id):
            yield from _resolve_document(held)
            held = []
        held.append(ex)
    if held:
        yield from _resolve_document(held)


def _resolve_document(chunks: list[ChunkExtraction]) -> Iterator[ChunkExtraction]:
    """One document's chunks, in reading order, with their stand-ins resolved."""
    declared: dict[str, Entity] = {}  # class -> the first entity of it the text declared its 公司 (以下简称“公司”)
    aliased: dict[str, Entity] = {}  # class -> the first entity of it with a short name of its own (以下简称)
    first: dict[str, Entity] = {}  # class -> the first entity of that class
    # A report whose first pages come before its declaration (the auditor's opinion, a contacts table, then
    # 二、公司基本情况: X股份有限公司（以下简称“公司”）…) says 公司 for the company it declares later, not for the
    # auditor it named first: the company a later chunk declares comes before the first company an earlier one named.
    later: dict[str, Entity] = {}
    for ex in chunks:
        for e in ex.entities:
            if DECLARED in e.properties and not is_stand_in(e):
                later.setdefault(e.spg_class, e)
    for ex in chunks:
        stand_ins = [e for e in ex.entities if is_stand_in(e)]
        # the report's company's shareholders, subsidiaries and partners are not it, in this chunk or a later one
        partners = _related(ex, {s.id for s in stand_ins}) if stand_ins else set()
        if stand_ins:
            ex = _replaced(ex, stand_ins, declared, aliased, first, later)
        for e in ex.entities:  # what this chunk names, for the chunks after it
            if is_stand_in(e) or e.id in partners:
                continue
            first.setdefault(e.spg_class, e)
            if DECLARED in e.properties:
                declared.setdefault(e.spg_class, e)
            if e.aliases:
                aliased.setdefault(e.spg_class, e)
        yield ex


def _related(ex: ChunkExtraction, ids: set[str]) -> set[str]:
    """The other ends of the chunk's relations with any of `ids`."""
    return {r.object.id if r.subject.id in ids else r.subject.id
            for r in ex.relations if r.subject.id in ids or r.object.id in ids}


def _named(name: str, cls: str, chunk_id: str, own: dict[str, Entity]) -> Entity:
    """The entity of that name and class (a title's company: merged by id with any chunk's node of it)."""
    ident = Entity.make_id(name, cls)
    return own.get(ident) or Entity(id=ident, name=name, spg_class=cls, chunk_ids=[chunk_id])


def _replaced(ex: ChunkExtraction, stand_ins: list[Entity], declared: dict[str, Entity],
              aliased: dict[str, Entity], first: dict[str, Entity], later: dict[str, Entity]) -> ChunkExtraction:
    own = {e.id: e for e in ex.entities}
    # a company is not its own shareholder, subsidiary or partner (本公司控股股东为X: 公司 is not X)
    related = _related(ex, {s.id for s in stand_ins})
    target: dict[str, Entity | None] = {}
    for s in stand_ins:
        titled = next(iter(s.properties.get(TITLED, [])), None)
        fallback = next((own[i] for i in s.properties.get(FALLBACK, []) if i in own and i not in related), None)
        declared_later = later.get(s.spg_class)
        if declared_later is not None and declared_later.id in related:
            declared_later = None
        target[s.id] = (_named(titled, s.spg_class, ex.chunk_id, own) if titled else None) \
            or declared.get(s.spg_class) or declared_later or aliased.get(s.spg_class) or first.get(s.spg_class) \
            or fallback
    entities = [e for e in ex.entities if e.id not in target]
    for t in target.values():
        if t is not None and t.id not in {e.id for e in entities}:
            # provenance: this chunk supports the company too (merged with the earlier chunk's node by id)
            entities.append(Entity(id=t.id, name=t.name, spg_class=t.spg_class, chunk_ids=[ex.chunk_id]))
    # a short name the chunk gave the stand-in (证券简称：闽溪纸业 on the code line) is the company's
    for s in stand_ins:
        t = target[s.id]
        extra = [a for a in s.aliases if t is not None and a != t.name]
        if t is not None and extra:
            entities = [e.model_copy(update={"aliases": [*e.aliases, *(a for a in extra if a not in e.aliases)]})
                        if e.id == t.id else e for e in entities]

    def ref(r: Ref) -> Ref | None:
        if r.kind == "entity" and r.id in target:
            t = target[r.id]
            return t.ref() if t is not None else None
        return r

    drops: list[Drop] = []

    def drop(kind: ItemKind, detail: str) -> None:
        drops.append(Drop(stage="extract", reason=DropReason.PRONOUN_UNRESOLVED, kind=kind, detail=detail,
                          chunk_id=ex.chunk_id))

    relations: list[Relation] = []
    renamed: dict[str, str | None] = {}  # old relation id -> new (None: dropped)
    for r in ex.relations:
        subject, obj = ref(r.subject), ref(r.object)
        if subject is None or obj is None or subject.id == obj.id:
            renamed[r.id] = None
            drop("relation", f"({r.subject.name}, {r.predicate}, {r.object.name}): 公司 names no company here")
            continue
        if subject is r.subject and obj is r.object:
            relations.append(r)
            continue
        new_id = Relation.make_id(subject.id, r.predicate, obj.id)
        renamed[r.id] = new_id
        relations.append(r.model_copy(update={"id": new_id, "subject": subject, "object": obj}))
    hypernodes: list[HyperNode] = []
    for h in ex.hypernodes:
        ends = []
        for end in (h.subject, h.object):
            if end.kind == "relation" and end.id in renamed:
                new = renamed[end.id]
                ends.append(None if new is None else Ref(kind="relation", id=new, name=end.name))
            else:
                ends.append(ref(end))
        subject, obj = ends
        if subject is None or obj is None:
            continue  # the triple it qualifies was dropped, and counted
        if subject is h.subject and obj is h.object:
            hypernodes.append(h)
            continue
        hypernodes.append(h.model_copy(update={"id": HyperNode.make_id(subject.id, h.predicate, obj.id),
                                               "subject": subject, "object": obj}))
    events: list[Event] = []
    for ev in ex.events:
        refs = [*(a for args in ev.arguments.values() for a in args), *(x for x in (ev.time, ev.place) if x)]
        if any(ref(a) is None for a in refs):
            # 公司于2024年3月收购X with nothing resolving 公司: an acquisition without its buyer says nothing
            drop("event", f"{ev.type}:{ev.trigger}: 公司 names no company here")
            continue
        arguments = {role: [x for x in (ref(a) for a in args) if x is not None] for role, args in ev.arguments.items()}
        time = ref(ev.time) if ev.time is not None else None
        place = ref(ev.place) if ev.place is not None else None
        if arguments == ev.arguments and time is ev.time and place is ev.place:
            events.append(ev)
            continue
        events.append(ev.model_copy(update={"id": Event.make_id(ev.type, ev.trigger, arguments),
                                            "arguments": arguments, "time": time, "place": place}))
    # what only an unresolved stand-in's facts made entities (公司实现营业收入4.2亿元: 4.2亿元) goes with it, unless
    # something kept still points at it
    kept = {x.id for r in relations for x in (r.subject, r.object)} | {
        x.id for h in hypernodes for x in (h.subject, h.object)} | {
        x.id for ev in events for x in (*(a for args in ev.arguments.values() for a in args), ev.time, ev.place) if x}
    orphaned = {d for s in stand_ins if target[s.id] is None for d in s.properties.get(DEPENDENTS, [])} - kept
    entities = [e for e in entities if e.id not in orphaned]
    return ex.model_copy(update={"entities": entities, "relations": relations, "hypernodes": hypernodes,
                                 "events": events, "drops": [*ex.drops, *drops]})
