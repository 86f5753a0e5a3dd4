"""A question -> the projection's nodes it names (the seeds of every graph strategy), and its vector.

Mentions are found as the hybrid retriever finds them (kgbuild/query/retrieval/linking.py: the name
dictionary, then capitalised spans linked densely against the entity collection), in one embedding
call for the question and its unmatched spans. A document title the question names ("EDSAC")
seeds the first passage of that document when no entity of that name exists. Dates, concepts and
languages seed only a question that names nothing more specific (`specific_seeds`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from kgbuild.embed.types import Embedder
from kgbuild.graph.projection import GraphProjection
from kgbuild.graph.vectors import unit_rows
from kgbuild.query.retrieval.index import TITLE, MutualIndex
from kgbuild.query.retrieval.linking import EntityLinker
from kgbuild.query.types import LinkedEntity


@dataclass
class LinkedQuestion:
    question: str
    vector: np.ndarray  # the question's unit vector
    seeds: dict[int, float] = field(default_factory=dict)  # projection node -> link score (0..1]
    entities: list[LinkedEntity] = field(default_factory=list)  # what the seeds are, best first
    seconds: float = 0.0
    # the mutual index's entity nodes the question names by their name or an alias (no dense guess): the
    # entities a graph fact may answer of (kgbuild/query/retrieval/fact_answer.py)
    named: tuple[int, ...] = ()


class QuestionLinker:
    def __init__(self, projection: GraphProjection, index: MutualIndex, linker: EntityLinker, embedder: Embedder,
                 *, dense_min: float = 0.7) -> None:
        self.projection = projection
        self.index = index
        self.linker = linker
        self.embedder = embedder
        self.dense_min = dense_min  # the cosine a capitalised span needs to seed through a dense link
        first_chunk: dict[str, int] = {}
        for node, doc in projection.chunk_doc.items():
            first_chunk.setdefault(doc, node)
        self._first_chunk = first_chunk

    def link(self, question: str) -> LinkedQuestion:
        start = time.perf_counter()
        mentions, unmatched = self.linker.mentions(question)
        vectors = unit_rows(np.asarray(self.embedder.embed([question, *unmatched]), dtype=np.float32))
        found: dict[int, float] = {}

        def add(node: int, score: float) -> None:
            """`node` is an index of the mutual index; only nodes the projection has become seeds."""
            nid = self.index.node_ids[node]
            if self.index.node_kind[node] == TITLE:
                doc = nid.removeprefix("doc:")
                same = self.projection.node_pos.get(self.index.node_ids[node])
                target = same if same is not None else self._first_chunk.get(doc)
            else:
                target = self.projection.node_pos.get(nid)
            if target is not None:
                found[target] = max(found.get(target, 0.0), score)

        named = tuple(dict.fromkeys(node for mention in mentions for node, _, how in mention.nodes
                                    if how in ("exact", "alias") and self.index.node_kind[node] != TITLE))
        for mention in mentions:
            nodes = [n for n, _, _ in mention.nodes]
            has_entity = any(self.index.node_kind[n] != TITLE for n in nodes)
            for node, score, _ in mention.nodes:
                if self.index.node_kind[node] == TITLE and has_entity:
                    continue  # "EDSAC" the entity, rather than the first passage of "EDSAC"
                add(node, score)
        for vector in vectors[1:]:
            for hit in self.linker.dense(vector.tolist(), 1):
                if hit.score >= self.dense_min and hit.id in self.index.node_pos:
                    add(self.index.node_pos[hit.id], hit.score)
        found = specific_seeds(self.projection, found)
        p = self.projection
        entities = [LinkedEntity(id=p.node_ids[n], name=p.node_names[n], type=p.node_class[n], score=min(s, 1.0))
                    for n, s in sorted(found.items(), key=lambda kv: -kv[1])]
        return LinkedQuestion(question, vectors[0], found, entities, time.perf_counter() - start, named)


# Seeds that name a kind or a point in time rather than a thing: a walk from "1986", "English" or
# "studio album" spreads over everything of that year or kind.
_UNSPECIFIC_CLASSES = frozenset({"date", "time", "concept", "language"})


def specific_seeds(projection: GraphProjection, seeds: dict[int, float]) -> dict[int, float]:
    """The seeds without dates, concepts and languages when some other seed is left; all of them
    when they are all such (a question about a year or a concept still walks from it)."""
    kept = {n: s for n, s in seeds.items()
            if projection.node_kind[n] != "concept" and (projection.node_class[n] or "").casefold()
            not in _UNSPECIFIC_CLASSES}
    return kept or seeds
