"""Synonym fusion (KAG §2.4): resolve duplicate entities with a cascade, never all pairs.

Steps, cheapest first; each proposes pairs from `blocking` and a union-find accepts them
only when the two clusters do not conflict (checked before every union, so transitive
chains cannot glue incompatible entities together):

- exact: equal normalised keys (case, punctuation, accents, articles, titles, suffixes);
- variant: person-name variants ("Turing" / "A. M. Turing" -> "Alan Mathison Turing") only
  when the short form has exactly one compatible most-specific name in its block (a lone
  capitalised word of the fallback class, "Turing" typed Thing, counts as a surname, with only
  person full names as candidates), and acronyms ("NASA") spelled by exactly one organisation's
  initials;
- lsh: MinHash 3-gram neighbours that are the same words up to one small typo: one token
  differs with OSA distance <= 1 (both >= 5 chars) or <= 2 (>= 9 chars) -- for one-word names
  >= 8 and >= 10 chars -- and the padded key 3-gram Jaccard is >= 0.5; shorter typos
  ("Jon"/"John") need a shared 1-hop neighbour;
- embedding (optional): cosine >= embed_threshold on "name: description", plus 3-gram
  Jaccard >= 0.35 or word containment, so the vector alone never merges;
- rule: an ambiguous variant resolved because exactly one candidate shares a neighbour, or
  else because exactly one candidate is named in the same document;
- llm: the judge's groups for the remaining ambiguous clusters (else they stay apart).

Conflicts that keep clusters apart: incompatible classes (compatible = equal, one isA the
other, or one is the schema's fallback class); disjoint year sets from names and
descriptions ("born 1950" vs "born 1980"); different numbers in the names ("Henry VII" vs
"Henry VIII", "Apollo 11" vs "Apollo 13"); different parenthesised qualifiers; and, when a
fallback class is involved (so the class says nothing), semantic types without a common word.

Where it lives: `clusters` (the union-find and its conflict rules), `cascade` (the steps),
`judge` (`LLMJudge`), `fusion_result` (`Merge`, `FusionResult`, canonical entities, re-pointed
relations); this module is the entry point and re-exports those public names.
"""

from __future__ import annotations

import gc
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from typing import Protocol

from kgbuild.align.cascade import EMBED_MIN_JACCARD, LSH_MIN_JACCARD, MAX_EXACT_REPS, Cascade
from kgbuild.align.clusters import ApartPair
from kgbuild.align.fusion_result import STEPS, FusionResult, Merge, finish
from kgbuild.align.judge import JudgeGroups, LLMJudge
from kgbuild.embed.types import Embedder
from kgbuild.model import Entity, Relation
from kgbuild.schema import Schema

__all__ = [
    "EMBED_MIN_JACCARD", "LSH_MIN_JACCARD", "MAX_EXACT_REPS", "STEPS", "AmbiguityJudge", "ApartPair", "FusionResult",
    "JudgeGroups", "LLMJudge", "Merge", "afuse_entities", "fuse_entities",
]


class AmbiguityJudge(Protocol):
    async def same(self, cluster: list[Entity]) -> list[list[str]] | None:
        """Groups of ids of `cluster` that are the same thing; None when it cannot tell."""
        ...


def fuse_entities(entities: list[Entity], relations: list[Relation], schema: Schema | None = None, *,
                  embedder: Embedder | None = None, judge: AmbiguityJudge | None = None,
                  embed_threshold: float = 0.85, apart: Sequence[ApartPair] = (),
                  settled: Collection[str] = ()) -> FusionResult:
    """Offline fusion; a judge is asynchronous, so with one use `afuse_entities`. `apart`: sets of
    ids that must end in different clusters (never_merge corrections); `settled`: ids of records
    no similarity step pairs with each other (`Cascade`)."""
    if judge is not None:
        raise TypeError("fuse_entities cannot await a judge: use `await afuse_entities(..., judge=judge)`")
    with _gc_paused():
        fuser = Cascade(entities, schema, apart, settled)
        fuser.run(relations, embedder, embed_threshold)
        return finish(fuser, relations)


async def afuse_entities(entities: list[Entity], relations: list[Relation], schema: Schema | None = None, *,
                         embedder: Embedder | None = None, judge: AmbiguityJudge | None = None,
                         embed_threshold: float = 0.85, apart: Sequence[ApartPair] = (),
                         settled: Collection[str] = ()) -> FusionResult:
    """`fuse_entities`, then one judge call per ambiguous cluster."""
    with _gc_paused():
        fuser = Cascade(entities, schema, apart, settled)
        fuser.run(relations, embedder, embed_threshold)
    if judge is not None:
        for cluster in fuser.take_ambiguous():
            groups = await judge.same([fuser.ents[i] for i in cluster])
            if groups:
                fuser.apply_groups(cluster, groups)
    with _gc_paused():
        return finish(fuser, relations)


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
