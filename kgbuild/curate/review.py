"""The review queue: fusion decisions close to a threshold, for a person to approve or reject.

No model is asked. Names are compared by the measure fusion's typo step uses (the 3-gram Jaccard of
the resolution keys, `LSH_MIN_JACCARD` = 0.5 to merge), and a decision is *near* when its score
lies between two settings around it:

- `apart`: two entities of compatible classes that fusion left apart although their names score
  in [low, high): just under the Jaccard threshold ("Marie Curie" / "Pierre Curie", 0.40), or over
  it but refused by the typo rule's edit distance ("Jonathan Smithers" / "Jonathon Smithe", 0.52);
  approving writes `merge`, rejecting writes `never_merge`.
- `merged`: a merge fusion made by its typo or embedding step with a score in [LSH_MIN_JACCARD,
  high) ("Hamburg" / "Homburg" would be one); approving writes `merge` (the pair is then kept by
  hand, whatever fusion does later), rejecting writes `never_merge` (which splits it).

Pairs a correction already decides (a merge or never_merge naming the two) are left out. Candidate
pairs come from the same MinHash LSH blocking as fusion, never from all pairs.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from kgbuild.align.blocking import lsh_pairs
from kgbuild.align.cascade import LSH_MIN_JACCARD
from kgbuild.align.fusion import Merge
from kgbuild.align.normalize import resolution_key, trigram_jaccard
from kgbuild.curate.file import Correction
from kgbuild.ids import normalize_name, stable_id
from kgbuild.model import Entity
from kgbuild.schema import Schema

LOW = 0.35  # below this a name pair is not worth a person's time (fusion's embedding step needs as much)
HIGH = 0.65  # a typo merge scoring at least this is left to fusion
_DIGITS = re.compile(r"\d+")
_JACCARD = re.compile(r"3-gram jaccard ([0-9.]+)")


@dataclass(frozen=True)
class ReviewItem:
    id: str  # stable across builds: a digest of the kind and the two entity ids
    kind: Literal["apart", "merged"]
    a_id: str
    a_name: str
    a_class: str
    b_id: str
    b_name: str
    b_class: str
    score: float  # 3-gram Jaccard of the two names' resolution keys
    detail: str  # for people: which threshold it sits near, fusion's reason for a merge

    def correction(self, approve: bool) -> tuple[Literal["merge", "never_merge"], dict[str, str]]:
        """What approving (merge) or rejecting (never_merge) this item writes, by entity id."""
        return ("merge" if approve else "never_merge"), {"a": self.a_id, "b": self.b_id}


def review_queue(entities: Sequence[Entity], merges: Sequence[Merge], schema: Schema | None, *,
                 corrections: Iterable[Correction] = (), names: dict[str, str] | None = None,
                 low: float = LOW, high: float = HIGH) -> list[ReviewItem]:
    """The near decisions of a fused graph (`entities` after fusion, its `merges`), lowest margin
    first. `names`: id -> name of entities fusion folded away (for `merged` items; else the ids)."""
    by_id = {e.id: e for e in entities}
    decided = _decided(corrections)
    items: list[ReviewItem] = []
    # merged: typo/embedding merges that barely passed
    for m in merges:
        found = _JACCARD.search(m.reason) if m.step in ("lsh", "embedding") else None
        if found is None or len(m.merged_ids) != 2:
            continue
        score = float(found.group(1))
        if score >= high:
            continue
        a, b = m.merged_ids
        if _is_decided(decided, (a, b), by_id, names):
            continue
        canon = by_id.get(m.canonical_id)
        cls = canon.spg_class if canon else ""
        # A folded id's own name is not kept in the tables (it is among the canonical entity's aliases).
        folded = f"an alias of {canon.name}" if canon else "folded away"
        a_name, b_name = ((names or {}).get(x) or (by_id[x].name if x in by_id else folded) for x in (a, b))
        items.append(ReviewItem(stable_id("rev", "merged", a, b), "merged", a, a_name, cls, b, b_name, cls,
                                round(score, 3), f"merged by {m.step}: {m.reason}"))
    # apart: compatible pairs whose names fall just short of a typo merge
    keys = [resolution_key(e.name) for e in entities]
    # Two-row bands: a pair at Jaccard 0.35 shares one of 32 bands with p > 0.98 (four-row bands, as
    # fusion uses, find it one time in three); buckets over 40 names are still skipped.
    pairs: list[list[int]] = lsh_pairs(keys, bands=32, rows=2, min_estimate=max(0.0, low - 0.1)).tolist()
    for x, y in pairs:
        ea, eb = entities[x], entities[y]
        if keys[x] == keys[y] or not _compatible(ea.spg_class, eb.spg_class, schema):
            continue
        if _DIGITS.findall(ea.name) != _DIGITS.findall(eb.name):
            continue  # different dates or numbers: fusion's number rule keeps them apart, not a threshold
        score = trigram_jaccard(keys[x], keys[y])
        if not low <= score < high:
            continue
        a, b = sorted((ea.id, eb.id))
        if _is_decided(decided, (a, b), by_id, names):
            continue
        first, second = (ea, eb) if ea.id == a else (eb, ea)
        items.append(ReviewItem(stable_id("rev", "apart", a, b), "apart", a, first.name, first.spg_class, b,
                                second.name, second.spg_class, round(score, 3),
                                f"left apart: 3-gram jaccard {score:.2f}"
                                + (f" < {LSH_MIN_JACCARD}" if score < LSH_MIN_JACCARD else ", words too far apart")))
    # The closest calls first: a margin of 0 is a coin toss.
    items.sort(key=lambda it: (abs(it.score - LSH_MIN_JACCARD), it.id))
    return items


def _compatible(a: str, b: str, schema: Schema | None) -> bool:
    if a == b or schema is None:
        return a == b
    return schema.fallback_class in (a, b) or schema.is_a(a, b) or schema.is_a(b, a)


def _decided(corrections: Iterable[Correction]) -> set[frozenset[str]]:
    out: set[frozenset[str]] = set()
    for c in corrections:
        if c.kind in ("merge", "never_merge"):
            out.add(frozenset((_norm(c.target["a"]), _norm(c.target["b"]))))
    return out


def _norm(target: str) -> str:
    return target if target.startswith("ent_") else normalize_name(target)


def _is_decided(decided: set[frozenset[str]], ids: tuple[str, str], by_id: dict[str, Entity],
                names: dict[str, str] | None) -> bool:
    if not decided:
        return False

    def forms(eid: str) -> set[str]:
        name = (names or {}).get(eid) or (by_id[eid].name if eid in by_id else None)
        return {eid, normalize_name(name)} if name else {eid}

    fa, fb = forms(ids[0]), forms(ids[1])
    return any(frozenset((x, y)) in decided for x in fa for y in fb)
