"""The steps of the fusion cascade, cheapest first: each proposes candidate pairs from `blocking`,
and the guarded union-find of `Clusters` accepts or rejects them (see `kgbuild.align.fusion`).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

import numpy as np

from kgbuild.align import blocking
from kgbuild.align.clusters import ApartPair, Clusters
from kgbuild.align.normalize import ACRONYM_STOPWORDS, CORPORATE_SUFFIXES, name_parts, osa_distance, trigram_jaccard
from kgbuild.embed.models import embed_matrix
from kgbuild.embed.types import Embedder
from kgbuild.model import Entity, Relation
from kgbuild.schema import Schema
from kgbuild.text_language import CJK

LSH_MIN_JACCARD = 0.5
_CJK = re.compile(f"[{CJK}]")
EMBED_MIN_JACCARD = 0.35
MAX_EXACT_REPS = 16  # distinct incompatible clusters kept per exact key before giving up on the rest


class Cascade(Clusters):
    """The clusters, grown by the cascade's steps; ambiguous short forms wait in `pending` for the judge.

    `settled`: ids of entities whose identity is given, not read (the records of mapped files, each
    cited only by records): two of them are one node by an equal name or an alias, as any two
    entities are, but never by a similarity step (typo, embedding) between them: the rows of a
    table are distinct records ("disease 12" is not a typo of "disease 13"), and proposing those
    pairs is what made fusion grow with the square of a large table. A text entity is still
    matched to a record by every step."""

    def __init__(self, entities: list[Entity], schema: Schema | None, apart: Sequence[ApartPair] = (),
                 settled: Collection[str] = ()) -> None:
        super().__init__(entities, schema, apart)
        given = set(settled)
        self.settled = np.array([e.id in given for e in self.ents], dtype=bool)

    def _unsettled(self, pairs: np.ndarray, units: list[int]) -> np.ndarray:
        """The candidate pairs (indexes into `units`) that do not join two settled entities."""
        if not len(pairs) or not self.settled.any():
            return pairs
        flags = self.settled[np.asarray(units, dtype=np.int64)]
        return pairs[~(flags[pairs[:, 0]] & flags[pairs[:, 1]])]

    def run(self, relations: Sequence[Relation], embedder: Embedder | None, embed_threshold: float) -> None:
        self._adjacency(relations)
        self._exact()
        self._aliases()
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

    def _aliases(self) -> None:
        """A name another node lists as an alias is that node (a table's alias column, a text's "also
        called"): the same guarded union as an exact name (classes, years, numbers must agree)."""
        if not any(e.aliases for e in self.ents):
            return
        by_key: dict[str, list[int]] = {}
        for i, p in enumerate(self.parts):
            by_key.setdefault(p.key, []).append(i)
        for i, e in enumerate(self.ents):
            for alias in e.aliases:
                for j in by_key.get(name_parts(alias, self.kind[i]).key, [])[:MAX_EXACT_REPS]:
                    if self.find(i) != self.find(j):
                        self.union(i, j, "alias", f"{e.name!r} is also called {alias!r}")

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
        for x, cands in [*blocking.person_candidates(parsed), *self._bare_surnames(units, parsed)]:
            maximal = [c for c in cands if not any(
                d != c and parsed[d].specificity > parsed[c].specificity  # type: ignore[union-attr]
                and blocking.person_compatible(parsed[c], parsed[d]) for d in cands)]  # type: ignore[arg-type]
            u = units[x]
            self._resolve(u, [units[c] for c in maximal], "variant",
                          f"{self.parts[u].key!r} is a short form of the only compatible full name")

    def _bare_surnames(self, units: list[int], parsed: list[blocking.PersonName | None]) -> list[tuple[int, list[int]]]:
        """A lone capitalised word of the fallback class ("Turing", Thing: the extractor could not
        tell it was a person) with the person full names ending in it. Only full names are
        candidates, so "Sherlock" (Thing) is not read as a first name; a second person with that
        surname makes it ambiguous in `_resolve`, and the class/year/number guards still apply.

        The class says nothing here, so the word must also appear where the person does: in a
        document naming a candidate, or in one that names something a candidate's document names
        too ("Turing" in enigma.txt beside Bletchley Park, where "Alan Turing" worked). "Nobel"
        (the prize) beside nothing of Alfred Nobel's stays apart."""
        if self.fallback is None:
            return []
        context: _DocumentContext | None = None
        by_surname: dict[str, list[int]] = {}
        for x, p in enumerate(parsed):
            if p is not None and p.given and len(by_surname.setdefault(p.surname, [])) <= blocking.CANDIDATE_CAP:
                by_surname[p.surname].append(x)
        out: list[tuple[int, list[int]]] = []
        for x, u in enumerate(units):
            tokens, name = self.parts[u].tokens, self.ents[u].name.strip()
            if (self.ents[u].spg_class != self.fallback or len(tokens) != 1 or len(tokens[0]) < 3
                    or not name[:1].isupper() or not name.isalpha()):
                continue
            found = by_surname.get(tokens[0], [])
            if 0 < len(found) <= blocking.CANDIDATE_CAP:
                context = context or _DocumentContext(self)
                if not any(context.shared(u, units[c]) for c in found):
                    continue
                parsed[x] = blocking.PersonName((), tokens[0])  # read as a surname for the `maximal` check
                out.append((x, found))
        return out

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
        docs = self._documents(ru)
        in_doc = [c for c in roots.values() if docs & self._documents(self.find(c))]
        if len(in_doc) == 1:
            self.union(u, in_doc[0], "rule", f"{self.parts[u].key!r} ambiguous among {len(roots)} names; "
                                             f"only {self.parts[in_doc[0]].key!r} is named in the same document")
            return
        self.pending.append((u, candidates, step, reason))

    def _documents(self, root: int) -> set[str]:
        """The documents a cluster was read from (a chunk id starts with its document id)."""
        return {cid.split("#", 1)[0] for m in self.members[root][:200] for cid in self.ents[m].chunk_ids}

    def _lsh(self, units: list[int]) -> None:
        keys = [self.parts[u].key for u in units]
        pairs = blocking.lsh_pairs(keys, min_estimate=LSH_MIN_JACCARD - 0.1)  # estimate noise ~ +-0.06
        ntok = np.array([len(self.parts[u].tokens) for u in units])
        pairs = pairs[ntok[pairs[:, 0]] == ntok[pairs[:, 1]]]  # a typo variant has the same word count
        pairs = self._unsettled(pairs, units)
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
        if _CJK.search(a) or _CJK.search(b):
            # a Chinese character is a word, not a letter: 杭州/泸州市中级人民法院, 中国/中信银行, 2025年6月/9月30日
            # differ by one character and are different things
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
        for x, y in self._unsettled(blocking.embedding_pairs(vectors, threshold), units).tolist():
            u, v = units[x], units[y]
            if self.find(u) == self.find(v):
                continue
            ka, kb = self.parts[u], self.parts[v]
            jac = trigram_jaccard(ka.key, kb.key)
            contained = set(ka.tokens) <= set(kb.tokens) or set(kb.tokens) <= set(ka.tokens)
            if jac >= EMBED_MIN_JACCARD or contained:
                cos = float(vectors[x] @ vectors[y] / (norms[x] * norms[y]))
                self.union(u, v, "embedding", f"cosine {cos:.2f}, 3-gram jaccard {jac:.2f}")


class _DocumentContext:
    """Which named things each document mentions, to tell whether two clusters appear in related
    documents. Dates and numbers ("1939") say nothing of a person, so names with digits are left out."""

    def __init__(self, clusters: Clusters) -> None:
        self.clusters = clusters
        self.by_doc: dict[str, list[int]] = {}
        for i, e in enumerate(clusters.ents):
            if not any(ch.isdigit() for ch in e.name):
                for doc in {cid.split("#", 1)[0] for cid in e.chunk_ids}:
                    self.by_doc.setdefault(doc, []).append(i)

    def _docs(self, root: int) -> set[str]:
        c = self.clusters
        return {cid.split("#", 1)[0] for m in c.members[root][:200] for cid in c.ents[m].chunk_ids}

    def _named(self, docs: set[str], skip: set[int]) -> set[int]:
        find = self.clusters.find
        return {r for d in docs for i in self.by_doc.get(d, ())[:500] if (r := find(i)) not in skip}

    def shared(self, u: int, c: int) -> bool:
        ru, rc = self.clusters.find(u), self.clusters.find(c)
        du, dc = self._docs(ru), self._docs(rc)
        if du & dc:
            return True
        skip = {ru, rc}
        return bool(self._named(du, skip) & self._named(dc, skip))
