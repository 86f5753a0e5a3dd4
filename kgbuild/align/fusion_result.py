"""What synonym fusion returns (`Merge`, `FusionResult`) and how the final clusters become it:
one canonical entity per cluster, relations re-pointed onto the canonical ids."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kgbuild.align import blocking
from kgbuild.align.clusters import Clusters
from kgbuild.align.normalize import name_parts
from kgbuild.ids import normalize_name
from kgbuild.lists import union_into
from kgbuild.merge import absorb, merge, own
from kgbuild.model import Entity, Ref, Relation

STEPS = ("exact", "variant", "lsh", "embedding", "llm", "rule")


@dataclass(frozen=True)
class Merge:
    canonical_id: str
    merged_ids: tuple[str, ...]  # the entity ids this decision joined (the canonical may be among them)
    step: str  # one of STEPS
    reason: str


@dataclass
class FusionResult:
    entities: list[Entity]
    relations: list[Relation]
    merges: list[Merge]
    id_map: dict[str, str]  # every input entity id -> its canonical id
    ambiguous: list[list[str]] = field(default_factory=list)  # clusters left apart for want of a judge


def finish(fuser: Clusters, relations: list[Relation]) -> FusionResult:
    """The clusters as the result; clusters still ambiguous are taken off `fuser.pending` and reported."""
    clusters: dict[int, list[int]] = {}
    for i in range(len(fuser.ents)):
        r = fuser.find(i)
        if len(fuser.members[r]) > 1:
            clusters.setdefault(r, fuser.members[r])
    canonical_of: dict[int, int] = {}
    new_entities: dict[str, Entity] = {}
    for members in clusters.values():
        members = sorted(set(members), key=lambda m: (fuser.input_pos[fuser.ents[m].id], fuser.ents[m].id))
        canon = _canonical(fuser, members)
        for m in members:
            canonical_of[m] = canon
        new_entities[fuser.ents[canon].id] = _merged(fuser, canon, members)
    id_map = {e.id: e.id for e in fuser.ents}
    for m, c in canonical_of.items():
        id_map[fuser.ents[m].id] = fuser.ents[c].id
    merges = [Merge(id_map[fuser.ents[i].id], tuple(sorted({fuser.ents[i].id, fuser.ents[j].id})), step, reason)
              for i, j, step, reason in fuser.decisions]
    entities: list[Entity] = []
    emitted: set[str] = set()
    for e in sorted(fuser.ents, key=lambda e: fuser.input_pos[e.id]):
        cid = id_map[e.id]
        if cid in emitted:
            continue
        emitted.add(cid)
        entities.append(new_entities.get(cid, e))
    names = {cid: ent.name for cid, ent in new_entities.items()}
    left = [[fuser.ents[i].id for i in c] for c in fuser.take_ambiguous()]
    return FusionResult(entities, _repoint(relations, id_map, names), merges, id_map, left)


def _canonical(fuser: Clusters, members: list[int]) -> int:
    freq: dict[str, int] = {}
    for m in members:
        key = fuser.parts[m].key
        freq[key] = freq.get(key, 0) + max(1, len(fuser.ents[m].chunk_ids))
    # A name some member lists as an alias is not the name (a table's alias column says which is).
    aliased = {name_parts(a, fuser.kind[m]).key for m in members for a in fuser.ents[m].aliases}

    def score(m: int) -> tuple[Any, ...]:
        e, p = fuser.ents[m], fuser.parts[m]
        full = True
        if fuser.kind[m] == "person":
            pn = blocking.parse_person(p.tokens)
            full = pn is None or (bool(pn.given) and len(pn.given[0]) > 1)
        # the most frequent full name (frequency = mentions of its key), then the longest;
        # among spellings of that key the plainest ("Alan Turing", not "Turing, Alan")
        return (e.spg_class != fuser.fallback, full, p.key not in aliased, freq[p.key], len(p.tokens), len(p.key),
                "," not in e.name, not e.name.isupper(), e.name.istitle(), len(e.name))

    best = max(score(m) for m in members)
    return min((m for m in members if score(m) == best), key=lambda m: fuser.ents[m].id)


def _merged(fuser: Clusters, canon: int, members: list[int]) -> Entity:
    """The cluster as one entity: the canonical one merged with the others (`kgbuild.merge` rules),
    so its name, description and property values come first; provenance stays in reading order."""
    merged = own(fuser.ents[canon])
    for m in members:
        if m != canon:
            absorb(merged, fuser.ents[m])
    chunk_ids: list[str] = []
    for m in members:  # input order: provenance order is reading order
        union_into(chunk_ids, fuser.ents[m].chunk_ids)
    merged.chunk_ids = chunk_ids
    if fuser.schema is not None:  # members' classes form one isA chain: keep its most specific
        schema, fallback = fuser.schema, fuser.fallback
        merged.spg_class = max((fuser.ents[m].spg_class for m in [canon, *members]),
                               key=lambda c: -1 if c == fallback else len(schema.ancestors(c)))
    return merged


def _repoint(relations: list[Relation], id_map: dict[str, str], names: dict[str, str]) -> list[Relation]:
    """Relations onto canonical ids; merge-made self-loops dropped, duplicates merged."""
    out: dict[tuple[str, str, str], Relation] = {}
    for r in relations:
        s, o = r.subject, r.object
        s2 = _ref(s, id_map, names)
        o2 = _ref(o, id_map, names)
        changed = s2 is not s or o2 is not o
        if changed and s2.id == o2.id and s.id != o.id:
            continue
        key = (s2.id, normalize_name(r.predicate), o2.id)
        prev = out.get(key)
        if prev is None:
            moved = {"subject": s2, "object": o2, "id": Relation.make_id(s2.id, r.predicate, o2.id)}
            out[key] = r.model_copy(update=moved) if changed else r
            continue
        both = merge(prev, r)
        both.id = Relation.make_id(key[0], prev.predicate, key[2])
        out[key] = both
    return list(out.values())


def _ref(ref: Ref, id_map: dict[str, str], names: dict[str, str]) -> Ref:
    if ref.kind != "entity":
        return ref
    cid = id_map.get(ref.id, ref.id)
    name = names.get(cid, ref.name)
    if cid == ref.id and name == ref.name:
        return ref
    return Ref(kind="entity", id=cid, name=name)
