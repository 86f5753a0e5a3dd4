"""The union-find behind synonym fusion, with the guards that keep conflicting clusters apart.

Every union is checked against what the two clusters assert (`_State`): incompatible classes
(compatible = equal, one isA the other, or one is the schema's fallback class); disjoint year
sets from names and descriptions; different numbers in the names; different parenthesised
qualifiers; and, when a fallback class is involved, semantic types without a common word.
The cascade's steps (`kgbuild.align.cascade`) only propose pairs; this decides.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from kgbuild.align.normalize import SOFT_GENERATIONS, Kind, NameParts, name_parts, years_in
from kgbuild.ids import normalize_name
from kgbuild.model import Entity, Relation
from kgbuild.schema import Schema

_PERSON = {"person", "people", "human", "character", "individual", "author", "writer", "scientist", "politician",
           "actor", "artist", "athlete", "musician", "doctor", "patient", "player", "ruler", "monarch"}
_ORG = {"organization", "organisation", "company", "corporation", "institution", "university", "agency",
        "hospital", "business", "team", "band", "party", "school", "government", "publisher"}
_PLACE = {"place", "location", "geographiclocation", "city", "country", "region", "state", "gpe", "landmark",
          "geopoliticalentity", "site", "area"}


@dataclass(slots=True)
class _State:
    """What a cluster asserts; two clusters merge only if these agree."""

    classes: frozenset[str]
    years: frozenset[str]
    numbers: frozenset[str]
    qualifiers: frozenset[str]
    sems: frozenset[str]
    # never_merge corrections this cluster takes part in: (pair index, side 0 or 1); two clusters
    # holding opposite sides of one pair may not merge, however the cascade proposes them.
    apart: frozenset[tuple[int, int]] = frozenset()


class ApartPair(NamedTuple):
    """Two sets of entity ids that fusion must keep in different clusters (a never_merge correction)."""

    a: frozenset[str]
    b: frozenset[str]


def _sem_conflict(a: str, b: str) -> bool:
    wa, wb = a.split(), b.split()
    return wa[-1] != wb[-1] and not set(wa) & set(wb)


class Clusters:
    """The entities in id order, their parsed names, and the guarded union-find over them."""

    def __init__(self, entities: list[Entity], schema: Schema | None,
                 apart: Sequence[ApartPair] = ()) -> None:
        # Work in id order, so every decision is independent of the input order.
        order = sorted(range(len(entities)), key=lambda k: entities[k].id)
        self.input_pos = {entities[k].id: k for k in reversed(range(len(entities)))}
        self.ents = [entities[k] for k in order]
        self.schema = schema
        self.fallback = schema.fallback_class if schema is not None else None
        self._kinds: dict[str, Kind] = {}
        self._compat: dict[tuple[str, str], bool] = {}
        parts_cache: dict[tuple[str, Kind], NameParts] = {}
        self.kind: list[Kind] = []
        self.parts: list[NameParts] = []
        self.parent = list(range(len(self.ents)))
        self.members: list[list[int]] = [[i] for i in range(len(self.ents))]
        self.state: list[_State] = []
        sides: dict[str, set[tuple[int, int]]] = {}
        for k, pair in enumerate(apart):
            for side, ids in enumerate(pair):
                for eid in ids:
                    sides.setdefault(eid, set()).add((k, side))
        for e in self.ents:
            kind = self._kind_of(e.spg_class)
            key = (e.name, kind)
            p = parts_cache.get(key)
            if p is None:
                p = parts_cache[key] = name_parts(e.name, kind)
            self.kind.append(kind)
            self.parts.append(p)
            sem = " ".join(normalize_name(e.semantic_type).split()) if e.semantic_type else ""
            self.state.append(_State(frozenset((e.spg_class,)), p.years | years_in(e.description), p.numbers,
                                     frozenset((p.qualifier,)) if p.qualifier else frozenset(),
                                     frozenset((sem,)) if sem else frozenset(),
                                     frozenset(sides.get(e.id, ()))))
        self.decisions: list[tuple[int, int, str, str]] = []
        self.pending: list[tuple[int, list[int], str, str]] = []  # ambiguous short forms
        self.rejected = 0
        self._adj: dict[int, list[int]] | None = None

    # ------------------------------------------------ classes

    def _kind_of(self, cls: str) -> Kind:
        kind = self._kinds.get(cls)
        if kind is None:
            chain = [cls, *(self.schema.ancestors(cls) if self.schema is not None else [])]
            keys = [re.sub(r"[\W_]+", "", c.casefold()) for c in chain]
            kind = "other"
            for k in keys:
                if k in _PERSON:
                    kind = "person"
                elif k in _ORG:
                    kind = "org"
                elif k in _PLACE:
                    kind = "place"
                else:
                    continue
                break
            self._kinds[cls] = kind
        return kind

    def compatible(self, a: str, b: str) -> bool:
        if a == b:
            return True
        ok = self._compat.get((a, b))
        if ok is None:
            s = self.schema
            ok = s is not None and (a == self.fallback or b == self.fallback or s.is_a(a, b) or s.is_a(b, a))
            self._compat[(a, b)] = self._compat[(b, a)] = ok
        return ok

    # ------------------------------------------------ union-find

    def find(self, i: int) -> int:
        parent = self.parent
        root = i
        while parent[root] != root:
            root = parent[root]
        while parent[i] != root:
            parent[i], i = root, parent[i]
        return root

    def conflict(self, ra: int, rb: int) -> str | None:
        a, b = self.state[ra], self.state[rb]
        if a.apart and b.apart and any((k, 1 - side) in b.apart for k, side in a.apart):
            return "kept apart by a never_merge correction"
        if a.classes != b.classes:
            for ca in a.classes:
                for cb in b.classes:
                    if not self.compatible(ca, cb):
                        return f"classes {ca} and {cb} are incompatible"
        if a.years and b.years and not a.years & b.years:
            return f"years {sorted(a.years)} vs {sorted(b.years)}"
        if a.numbers != b.numbers:
            hard_a, hard_b = a.numbers - SOFT_GENERATIONS, b.numbers - SOFT_GENERATIONS
            soft_a, soft_b = a.numbers & SOFT_GENERATIONS, b.numbers & SOFT_GENERATIONS
            if hard_a != hard_b or (soft_a and soft_b and soft_a != soft_b):
                return f"numbers {sorted(a.numbers)} vs {sorted(b.numbers)}"
        if a.qualifiers and b.qualifiers and not a.qualifiers & b.qualifiers:
            return f"qualifiers {sorted(a.qualifiers)} vs {sorted(b.qualifiers)}"
        if a.sems and b.sems and self.fallback is not None and self.fallback in (a.classes | b.classes):
            for sa in a.sems:
                for sb in b.sems:
                    if _sem_conflict(sa, sb):
                        return f"semantic types {sa!r} and {sb!r}"
        return None

    def union(self, i: int, j: int, step: str, reason: str) -> bool:
        ra, rb = self.find(i), self.find(j)
        if ra == rb:
            return True
        if self.conflict(ra, rb) is not None:
            self.rejected += 1
            return False
        if len(self.members[ra]) < len(self.members[rb]):
            ra, rb = rb, ra
        self.parent[rb] = ra
        self.members[ra].extend(self.members[rb])
        self.members[rb] = []
        a, b = self.state[ra], self.state[rb]
        self.state[ra] = _State(a.classes | b.classes, a.years | b.years, a.numbers | b.numbers,
                                a.qualifiers | b.qualifiers, a.sems | b.sems, a.apart | b.apart)
        self.decisions.append((i, j, step, reason))
        return True

    # ------------------------------------------------ evidence

    def _adjacency(self, relations: Sequence[Relation]) -> None:
        index = {e.id: i for i, e in enumerate(self.ents)}
        adj: dict[int, list[int]] = {}
        for r in relations:
            s, o = index.get(r.subject.id), index.get(r.object.id)
            if s is not None and o is not None and s != o:
                adj.setdefault(s, []).append(o)
                adj.setdefault(o, []).append(s)
        self._adj = adj

    def shares_neighbour(self, i: int, j: int) -> bool:
        adj = self._adj or {}
        ri, rj = self.find(i), self.find(j)

        def around(r: int) -> set[int]:
            return {self.find(n) for m in self.members[r][:200] for n in adj.get(m, ())} - {ri, rj}

        ni = around(ri)
        return bool(ni) and bool(ni & around(rj))

    # ------------------------------------------------ the judge

    def take_ambiguous(self) -> list[tuple[int, ...]]:
        """Distinct ambiguous clusters still unresolved, once each."""
        out: list[tuple[int, ...]] = []
        seen: set[tuple[int, ...]] = set()
        for u, candidates, _, _ in self.pending:
            roots = tuple(sorted({self.find(i) for i in (u, *candidates)}))
            if len(roots) > 1 and roots not in seen:
                seen.add(roots)
                out.append(roots)
        self.pending = []
        return out

    def apply_groups(self, cluster: tuple[int, ...], groups: list[list[str]]) -> None:
        index = {self.ents[i].id: i for i in cluster}
        for group in groups:
            ids = [index[g] for g in group if g in index]
            for other in ids[1:]:
                self.union(ids[0], other, "llm", "judged the same by the model")
