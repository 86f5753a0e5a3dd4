"""Synonym fusion (KAG §2.4): resolve duplicate entities with a cascade, never all pairs.

Steps, cheapest first; each proposes pairs from `blocking` and a union-find accepts them
only when the two clusters do not conflict (checked before every union, so transitive
chains cannot glue incompatible entities together):

- exact: equal normalised keys (case, punctuation, accents, articles, titles, suffixes);
- variant: person-name variants ("Turing" / "A. M. Turing" -> "Alan Mathison Turing") only
  when the short form has exactly one compatible most-specific name in its block, and
  acronyms ("NASA") spelled by exactly one organisation's initials;
- lsh: MinHash 3-gram neighbours that are the same words up to one small typo: one token
  differs with OSA distance <= 1 (both >= 5 chars) or <= 2 (>= 9 chars) -- for one-word names
  >= 8 and >= 10 chars -- and the padded key 3-gram Jaccard is >= 0.5; shorter typos
  ("Jon"/"John") need a shared 1-hop neighbour;
- embedding (optional): cosine >= embed_threshold on "name: description", plus 3-gram
  Jaccard >= 0.35 or word containment, so the vector alone never merges;
- rule: an ambiguous variant resolved because exactly one candidate shares a neighbour;
- llm: the judge's groups for the remaining ambiguous clusters (else they stay apart).

Conflicts that keep clusters apart: incompatible classes (compatible = equal, one isA the
other, or one is the schema's fallback class); disjoint year sets from names and
descriptions ("born 1950" vs "born 1980"); different numbers in the names ("Henry VII" vs
"Henry VIII", "Apollo 11" vs "Apollo 13"); different parenthesised qualifiers; and, when a
fallback class is involved (so the class says nothing), semantic types without a common word.
"""

from __future__ import annotations

import gc
import json
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
from pydantic import BaseModel, ConfigDict, field_validator

from kgbuild.align import blocking
from kgbuild.align.normalize import (
    ACRONYM_STOPWORDS,
    CORPORATE_SUFFIXES,
    SOFT_GENERATIONS,
    Kind,
    NameParts,
    name_parts,
    osa_distance,
    trigram_jaccard,
    years_in,
)
from kgbuild.ids import normalize_name
from kgbuild.ingest.embedding_model import embed_matrix
from kgbuild.lists import union_into
from kgbuild.llm.prompts import PromptLibrary, PromptTemplate
from kgbuild.llm.types import ChatRequest, Gateway, LLMCallError
from kgbuild.merge import absorb, merge, own
from kgbuild.model import Entity, Ref, Relation
from kgbuild.schema import Schema
from kgbuild.store.types import Embedder

STEPS = ("exact", "variant", "lsh", "embedding", "llm", "rule")
LSH_MIN_JACCARD = 0.5
EMBED_MIN_JACCARD = 0.35
MAX_EXACT_REPS = 16  # distinct incompatible clusters kept per exact key before giving up on the rest

_PERSON = {"person", "people", "human", "character", "individual", "author", "writer", "scientist", "politician",
           "actor", "artist", "athlete", "musician", "doctor", "patient", "player", "ruler", "monarch"}
_ORG = {"organization", "organisation", "company", "corporation", "institution", "university", "agency",
        "hospital", "business", "team", "band", "party", "school", "government", "publisher"}
_PLACE = {"place", "location", "geographiclocation", "city", "country", "region", "state", "gpe", "landmark",
          "geopoliticalentity", "site", "area"}


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


class AmbiguityJudge(Protocol):
    async def same(self, cluster: list[Entity]) -> list[list[str]] | None:
        """Groups of ids of `cluster` that are the same thing; None when it cannot tell."""
        ...




def fuse_entities(entities: list[Entity], relations: list[Relation], schema: Schema | None = None, *,
                  embedder: Embedder | None = None, judge: AmbiguityJudge | None = None,
                  embed_threshold: float = 0.85) -> FusionResult:
    """Offline fusion; a judge is asynchronous, so with one use `afuse_entities`."""
    if judge is not None:
        raise TypeError("fuse_entities cannot await a judge: use `await afuse_entities(..., judge=judge)`")
    with _gc_paused():
        fuser = _Fuser(entities, schema)
        fuser.run(relations, embedder, embed_threshold)
        return fuser.finish(relations)


async def afuse_entities(entities: list[Entity], relations: list[Relation], schema: Schema | None = None, *,
                         embedder: Embedder | None = None, judge: AmbiguityJudge | None = None,
                         embed_threshold: float = 0.85) -> FusionResult:
    """`fuse_entities`, then one judge call per ambiguous cluster."""
    with _gc_paused():
        fuser = _Fuser(entities, schema)
        fuser.run(relations, embedder, embed_threshold)
    if judge is not None:
        for cluster in fuser.take_ambiguous():
            groups = await judge.same([fuser.ents[i] for i in cluster])
            if groups:
                fuser.apply_groups(cluster, groups)
    with _gc_paused():
        return fuser.finish(relations)


@contextmanager
def _gc_paused() -> Iterator[None]:
    """Pause the cyclic collector while fusion allocates: it creates no cycles, and with a few
    hundred thousand live records each generation-2 pass rescans them all (half the run time
    at 50k entities). The previous state is restored, also on errors; awaits stay outside."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


# ---------------------------------------------------------------- the union-find with guards


@dataclass(slots=True)
class _State:
    """What a cluster asserts; two clusters merge only if these agree."""

    classes: frozenset[str]
    years: frozenset[str]
    numbers: frozenset[str]
    qualifiers: frozenset[str]
    sems: frozenset[str]


def _sem_conflict(a: str, b: str) -> bool:
    wa, wb = a.split(), b.split()
    return wa[-1] != wb[-1] and not set(wa) & set(wb)


class _Fuser:
    def __init__(self, entities: list[Entity], schema: Schema | None) -> None:
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
                                     frozenset((sem,)) if sem else frozenset()))
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
                                a.qualifiers | b.qualifiers, a.sems | b.sems)
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

    # ------------------------------------------------ the cascade

    def run(self, relations: Sequence[Relation], embedder: Embedder | None, embed_threshold: float) -> None:
        self._adjacency(relations)
        self._exact()
        # One unit per exact cluster, represented by its longest name ("J. K. Rowling", not "JK Rowling").
        units = [max(self.members[r], key=lambda m: (len(self.parts[m].tokens), len(self.parts[m].key), -m))
                 for r in range(len(self.ents)) if self.find(r) == r]
        # Typos first, so "Mr. Holmes" sees "Sherlock Holmes" and "Sherlok Holmes" as one candidate.
        self._lsh(units)
        self._variants(units)
        self._acronyms(units)
        if embedder is not None:
            self._embedding(units, embedder, embed_threshold)
        pending, self.pending = self.pending, []
        for u, candidates, step, reason in pending:  # later steps may have made a candidate set one cluster
            self._resolve(u, candidates, step, reason)

    def _exact(self) -> None:
        by_id: dict[str, int] = {}
        for i, e in enumerate(self.ents):  # duplicate ids are one entity by construction
            if e.id in by_id:
                self.union(by_id[e.id], i, "exact", "same id")
            else:
                by_id[e.id] = i
        for group in blocking.exact_blocks([p.key for p in self.parts]):
            reps: list[int] = []
            for i in group:
                joined = any(self.union(r, i, "exact", f"same normalised name {self.parts[i].key!r}") for r in reps)
                if not joined and len(reps) < MAX_EXACT_REPS:
                    reps.append(i)

    def _variants(self, units: list[int]) -> None:
        parsed = [blocking.parse_person(self.parts[u].tokens) if self.kind[u] == "person" else None for u in units]
        same: dict[blocking.PersonName, int] = {}
        for x, p in enumerate(parsed):  # "Ludwig van Beethoven" = "Ludwig Beethoven": equal but for particles
            if p is not None:
                if p in same:
                    name = " ".join((*p.given, p.surname))
                    self.union(units[same[p]], units[x], "variant", f"same person name {name!r}")
                else:
                    same[p] = x
        for x, cands in blocking.person_candidates(parsed):
            maximal = [c for c in cands if not any(
                d != c and parsed[d].specificity > parsed[c].specificity  # type: ignore[union-attr]
                and blocking.person_compatible(parsed[c], parsed[d]) for d in cands)]  # type: ignore[arg-type]
            u = units[x]
            self._resolve(u, [units[c] for c in maximal], "variant",
                          f"{self.parts[u].key!r} is a short form of the only compatible full name")

    def _acronyms(self, units: list[int]) -> None:
        acronyms: dict[int, str] = {}
        spelled: dict[int, set[str]] = {}
        for x, u in enumerate(units):
            kind = self.kind[u]
            if kind not in ("org", "place", "other"):
                continue
            for m in self.members[self.find(u)][:50]:  # any exact-equal surface form may be the acronym
                name = self.ents[m].name.replace(".", "").replace(" ", "")
                if name[:3] in ("the", "The"):
                    name = name[3:]
                if 2 <= len(name) <= 6 and name.isalpha() and name.isupper():
                    acronyms[x] = name.casefold()
                    break
            else:
                words = self.parts[u].tokens
                if len(words) >= 2 and kind in ("org", "place"):
                    content = [w for w in words if w not in ACRONYM_STOPWORDS] or list(words)
                    ini = "".join(w[0] for w in content)
                    spelled[x] = {ini}
                    last = self.ents[u].name.rsplit(None, 1)[-1].strip(".,").casefold()
                    if last in CORPORATE_SUFFIXES:  # "British Broadcasting Corporation" is BBC
                        spelled[x].add(ini + last[0])
        for x, cands in blocking.acronym_candidates(acronyms, spelled):
            u = units[x]
            self._resolve(u, [units[c] for c in cands], "variant", f"acronym {acronyms[x]!r} of the only matching name")

    def _resolve(self, u: int, candidates: list[int], step: str, reason: str) -> None:
        """Join u to its candidates if they are one cluster and agree; several: try the
        neighbours, then leave the cluster to the judge."""
        ru = self.find(u)
        roots: dict[int, int] = {}
        for c in candidates:
            rc = self.find(c)
            if rc != ru and rc not in roots and self.conflict(ru, rc) is None:
                roots[rc] = c
        if not roots:
            return
        if len(roots) == 1:
            c = next(iter(roots.values()))
            self.union(u, c, step, f"{reason} {self.parts[c].key!r}")
            return
        sharing = [c for c in roots.values() if self.shares_neighbour(u, c)]
        if len(sharing) == 1:
            self.union(u, sharing[0], "rule", f"{self.parts[u].key!r} ambiguous among {len(roots)} names; "
                                              f"only {self.parts[sharing[0]].key!r} shares a neighbour")
            return
        self.pending.append((u, candidates, step, reason))

    def _lsh(self, units: list[int]) -> None:
        keys = [self.parts[u].key for u in units]
        pairs = blocking.lsh_pairs(keys, min_estimate=LSH_MIN_JACCARD - 0.1)  # estimate noise ~ +-0.06
        ntok = np.array([len(self.parts[u].tokens) for u in units])
        pairs = pairs[ntok[pairs[:, 0]] == ntok[pairs[:, 1]]]  # a typo variant has the same word count
        for x, y in pairs.tolist():
            u, v = units[x], units[y]
            if self.find(u) == self.find(v):
                continue
            reason = self._typo(u, v)
            if reason is not None:
                self.union(u, v, "lsh", reason)

    def _typo(self, u: int, v: int) -> str | None:
        ta, tb = self.parts[u].tokens, self.parts[v].tokens
        if len(ta) != len(tb):
            return None
        diff = [(a, b) for a, b in zip(ta, tb, strict=True) if a != b]  # lengths checked equal above
        if len(diff) != 1:
            if len(ta) >= 2 and sorted(ta) == sorted(tb):
                return "same words in another order"
            return None
        a, b = diff[0]
        if a.isdigit() or b.isdigit():
            return None
        shortest = min(len(a), len(b))
        if len(ta) == 1:  # the one word is the whole identity: "Hamburg"/"Homburg", "Austria"/"Australia"
            limit = 2 if shortest >= 10 else 1 if shortest >= 8 else 0
        else:
            limit = 2 if shortest >= 9 else 1 if shortest >= 5 else 0
        if shortest < 3:
            return None  # cheap exits first: many LSH pairs are "J. Smith" / "K. Smith"
        d = osa_distance(a, b, 2)
        if d > max(limit, 1):
            return None
        jac = trigram_jaccard(self.parts[u].key, self.parts[v].key)
        if jac < LSH_MIN_JACCARD:
            return None
        if d <= limit:
            return f"3-gram jaccard {jac:.2f}, {a!r}~{b!r} at edit distance {d}"
        if self.shares_neighbour(u, v):
            return f"3-gram jaccard {jac:.2f}, {a!r}~{b!r} at edit distance 1, shared neighbour"
        return None

    def _embedding(self, units: list[int], embedder: Embedder, threshold: float) -> None:
        texts = [f"{self.ents[u].name}: {self.ents[u].description}".strip(": ") for u in units]
        vectors = embed_matrix(embedder, texts)
        norms = np.maximum(np.linalg.norm(vectors, axis=1), 1e-12)
        for x, y in blocking.embedding_pairs(vectors, threshold).tolist():
            u, v = units[x], units[y]
            if self.find(u) == self.find(v):
                continue
            ka, kb = self.parts[u], self.parts[v]
            jac = trigram_jaccard(ka.key, kb.key)
            contained = set(ka.tokens) <= set(kb.tokens) or set(kb.tokens) <= set(ka.tokens)
            if jac >= EMBED_MIN_JACCARD or contained:
                cos = float(vectors[x] @ vectors[y] / (norms[x] * norms[y]))
                self.union(u, v, "embedding", f"cosine {cos:.2f}, 3-gram jaccard {jac:.2f}")

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

    # ------------------------------------------------ output

    def finish(self, relations: list[Relation]) -> FusionResult:
        clusters: dict[int, list[int]] = {}
        for i in range(len(self.ents)):
            r = self.find(i)
            if len(self.members[r]) > 1:
                clusters.setdefault(r, self.members[r])
        canonical_of: dict[int, int] = {}
        new_entities: dict[str, Entity] = {}
        for members in clusters.values():
            members = sorted(set(members), key=lambda m: (self.input_pos[self.ents[m].id], self.ents[m].id))
            canon = self._canonical(members)
            for m in members:
                canonical_of[m] = canon
            new_entities[self.ents[canon].id] = self._merged(canon, members)
        id_map = {e.id: e.id for e in self.ents}
        for m, c in canonical_of.items():
            id_map[self.ents[m].id] = self.ents[c].id
        merges = [Merge(id_map[self.ents[i].id], tuple(sorted({self.ents[i].id, self.ents[j].id})), step, reason)
                  for i, j, step, reason in self.decisions]
        entities: list[Entity] = []
        emitted: set[str] = set()
        for e in sorted(self.ents, key=lambda e: self.input_pos[e.id]):
            cid = id_map[e.id]
            if cid in emitted:
                continue
            emitted.add(cid)
            entities.append(new_entities.get(cid, e))
        names = {cid: ent.name for cid, ent in new_entities.items()}
        left = [[self.ents[i].id for i in c] for c in self.take_ambiguous()]
        return FusionResult(entities, _repoint(relations, id_map, names), merges, id_map, left)

    def _canonical(self, members: list[int]) -> int:
        freq: dict[str, int] = {}
        for m in members:
            key = self.parts[m].key
            freq[key] = freq.get(key, 0) + max(1, len(self.ents[m].chunk_ids))

        def score(m: int) -> tuple[Any, ...]:
            e, p = self.ents[m], self.parts[m]
            full = True
            if self.kind[m] == "person":
                pn = blocking.parse_person(p.tokens)
                full = pn is None or (bool(pn.given) and len(pn.given[0]) > 1)
            # the most frequent full name (frequency = mentions of its key), then the longest;
            # among spellings of that key the plainest ("Alan Turing", not "Turing, Alan")
            return (e.spg_class != self.fallback, full, freq[p.key], len(p.tokens), len(p.key),
                    "," not in e.name, not e.name.isupper(), e.name.istitle(), len(e.name))

        best = max(score(m) for m in members)
        return min((m for m in members if score(m) == best), key=lambda m: self.ents[m].id)

    def _merged(self, canon: int, members: list[int]) -> Entity:
        """The cluster as one entity: the canonical one merged with the others (`kgbuild.merge` rules),
        so its name, description and property values come first; provenance stays in reading order."""
        merged = own(self.ents[canon])
        for m in members:
            if m != canon:
                absorb(merged, self.ents[m])
        chunk_ids: list[str] = []
        for m in members:  # input order: provenance order is reading order
            union_into(chunk_ids, self.ents[m].chunk_ids)
        merged.chunk_ids = chunk_ids
        if self.schema is not None:  # members' classes form one isA chain: keep its most specific
            schema, fallback = self.schema, self.fallback
            merged.spg_class = max((self.ents[m].spg_class for m in [canon, *members]),
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


# ---------------------------------------------------------------- LLM judge

class JudgeGroups(BaseModel):
    """The judge's reply, {"groups": [[id, ...], ...]}: each group is one real-world entity."""

    model_config = ConfigDict(extra="ignore")

    groups: list[list[str]]

    @field_validator("groups", mode="before")
    @classmethod
    def _ids_only(cls, value: Any) -> Any:
        # Ids are strings; a stray number or null in a group is left out, not worth a re-ask.
        if isinstance(value, list):
            return [[x for x in g if isinstance(x, str)] if isinstance(g, list) else g for g in value]
        return value

    def known(self, ids: set[str]) -> list[list[str]]:
        """The groups restricted to `ids`, each id in the first group that names it; empty ones left out."""
        seen: set[str] = set()
        out: list[list[str]] = []
        for group in self.groups:
            members = [x for x in dict.fromkeys(group) if x in ids and x not in seen]
            seen.update(members)
            if members:
                out.append(members)
        return out


class LLMJudge:
    """An AmbiguityJudge asking the model once per ambiguous cluster (prompt: prompts/<lang>/align_judge.yaml).

    The reply goes through `Gateway.ask`: a fenced or chatty reply is read, and one that names none of
    the cluster's ids is re-asked (`max_reasks` times) with the problem; after that, or when the call
    fails, the cluster stays undecided (None) rather than failing the build.
    """

    def __init__(self, gateway: Gateway, template: PromptTemplate | None = None, *,
                 reask: PromptTemplate | None = None, max_reasks: int = 1) -> None:
        self.gateway = gateway
        self.template = template or PromptLibrary("en").get("align_judge")
        self.reask = (reask or PromptLibrary("en").get("reask")).reask(max_reasks)

    async def same(self, cluster: list[Entity]) -> list[list[str]] | None:
        listing = [{"id": e.id, "name": e.name, "class": e.spg_class, "type": e.semantic_type,
                    "description": e.description[:300]} for e in cluster]
        messages = self.template.render(entities=json.dumps(listing, ensure_ascii=False))
        request = ChatRequest(stage="align", template=self.template.key, json_mode=True, messages=messages)
        ids = {e.id for e in cluster}

        def problem(reply: JudgeGroups) -> str | None:
            return None if reply.known(ids) else "no group names an id of the entities listed"

        try:
            reply = await self.gateway.ask(request, JudgeGroups, reask=self.reask, check=problem)
        except LLMCallError:  # the call failed, or UnusableReply: no usable reply after the re-asks
            return None
        return reply.known(ids)
