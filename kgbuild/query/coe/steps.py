"""The two kinds of exploration step of Chain of Explorations, as pure functions over the projection.

Node lookup: the step's keyword against the vectors of entity, concept and event nodes and of the
hypernode values that qualify triples ("1906" in ((Hopper, born in, New York), time, 1906)); the
projection keeps hypernodes on their edges, so a hypernode hit stands for the triples it qualifies.

Relation hop: every edge incident to the current nodes, either direction, ranked by how close its
predicate and what it leads to (the node at the other end, or one of its qualifier values) are to
the step's text. Vectors are unit rows, so a dot product is a cosine.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from kgbuild.embed.types import Embedder
from kgbuild.graph.projection import CHUNK, GraphProjection
from kgbuild.graph.vectors import GraphVectors, embed_texts
from kgbuild.graph.walks import Path
from kgbuild.query.graph_evidence import path_text, triple_text

LOOKUP_KINDS = ("entity", "concept", "event")
PREDICATE_WEIGHT = 0.5  # of a hop's score; the rest is what the hop leads to


@dataclass(frozen=True)
class QualifierIndex:
    """Distinct hypernode values, the triples each qualifies, and their unit vectors."""

    values: list[str]
    edges: list[tuple[int, ...]]
    vectors: np.ndarray  # len(values) x dim
    of_edge: dict[int, tuple[int, ...]]  # edge -> indices into `values`

    @classmethod
    def build(cls, projection: GraphProjection, embedder: Embedder | None, dim: int) -> QualifierIndex:
        by_value: dict[str, list[int]] = {}
        for edge in sorted(projection.qualifiers):
            for q in projection.qualifiers[edge]:
                if q.value.strip():
                    by_value.setdefault(q.value.strip(), []).append(edge)
        values = list(by_value)
        vectors = (embed_texts(embedder, values) if values and embedder is not None
                   else np.zeros((len(values), dim), np.float32))
        of_edge: dict[int, list[int]] = {}
        for i, value in enumerate(values):
            for edge in by_value[value]:
                of_edge.setdefault(edge, []).append(i)
        return cls(values, [tuple(dict.fromkeys(by_value[v])) for v in values], vectors,
                   {e: tuple(ix) for e, ix in of_edge.items()})


@dataclass(frozen=True)
class NodeCandidate:
    """A node (`node` set) or a hypernode value (`edges`: the triples it qualifies)."""

    label: str
    score: float
    node: int | None = None
    edges: tuple[int, ...] = ()

    def reached(self, projection: GraphProjection) -> list[int]:
        """The nodes a selection of this candidate stands on: the node, or the ends of its triples."""
        if self.node is not None:
            return [self.node]
        ends = [int(x) for e in self.edges for x in (projection.edge_head[e], projection.edge_tail[e])]
        return list(dict.fromkeys(ends))


@dataclass(frozen=True)
class RelationCandidate:
    edge: int
    source: int  # the current node the hop starts from
    target: int
    score: float

    def label(self, projection: GraphProjection) -> str:
        return path_text(projection, Path(self.source, (self.edge,), (self.source, self.target)))


def lookup_mask(projection: GraphProjection) -> np.ndarray:
    """Nodes a lookup may return: entities, concepts, events (not passages)."""
    return np.fromiter((k in LOOKUP_KINDS for k in projection.node_kind), dtype=bool, count=projection.n_nodes)


def node_candidates(projection: GraphProjection, node_vectors: np.ndarray, mask: np.ndarray,
                    qualifiers: QualifierIndex, query: np.ndarray, k: int) -> list[NodeCandidate]:
    """The `k` nodes and hypernode values closest to `query`, best first (ties: lower index first)."""
    found: list[NodeCandidate] = []
    if projection.n_nodes:
        scores = np.where(mask, node_vectors @ query, -np.inf)
        for n in _top(scores, k):
            found.append(NodeCandidate(_node_label(projection, int(n)), float(scores[n]), node=int(n)))
    if qualifiers.values:
        scores = qualifiers.vectors @ query
        for i in _top(scores, k):
            found.append(NodeCandidate(_qualifier_label(projection, qualifiers, int(i)), float(scores[i]),
                                       edges=qualifiers.edges[i]))
    found.sort(key=lambda c: -c.score)  # stable: nodes before hypernodes of the same score
    return found[:k]


def incident_relations(projection: GraphProjection, current: Iterable[int],
                       edge_mask: np.ndarray | None = None) -> list[tuple[int, int, int]]:
    """(edge, source, target) for each edge touching a current node, either direction, once per
    (edge, source); an edge between two current nodes is listed from both."""
    out: list[tuple[int, int, int]] = []
    seen: set[tuple[int, int]] = set()
    for node in current:
        for edge in projection.incident[node]:
            if edge_mask is not None and not edge_mask[edge]:
                continue
            if (edge, node) not in seen:
                seen.add((edge, node))
                out.append((edge, node, projection.other_end(edge, node)))
    return out


def rank_relations(projection: GraphProjection, vectors: GraphVectors, qualifiers: QualifierIndex,
                   current: Sequence[int], query: np.ndarray, k: int, *, exclude_edges: Iterable[int] = (),
                   exclude_nodes: Iterable[int] = (), edge_mask: np.ndarray | None = None) -> list[RelationCandidate]:
    """The `k` hops from `current` closest to `query`: PREDICATE_WEIGHT * cos(predicate) + the rest
    * the best of cos(target node) and cos(a qualifier value of the edge). Edges already walked and
    hops back to nodes already reached are left out."""
    skip_edges, skip_nodes = set(exclude_edges), set(exclude_nodes)
    hops = [(e, s, t) for e, s, t in incident_relations(projection, current, edge_mask)
            if e not in skip_edges and t not in skip_nodes]
    if not hops:
        return []
    edges = np.fromiter((e for e, _, _ in hops), dtype=np.int64, count=len(hops))
    targets = np.fromiter((t for _, _, t in hops), dtype=np.int64, count=len(hops))
    pred_score = vectors.predicates[projection.edge_pred[edges]] @ query
    end_score = vectors.nodes[targets] @ query
    if qualifiers.of_edge:
        qual_score = qualifiers.vectors @ query if qualifiers.values else np.zeros(0, np.float32)
        for i, e in enumerate(edges.tolist()):
            ix = qualifiers.of_edge.get(e)
            if ix:
                end_score[i] = max(float(end_score[i]), float(qual_score[list(ix)].max()))
    scores = PREDICATE_WEIGHT * pred_score + (1.0 - PREDICATE_WEIGHT) * end_score
    order = _top(scores, k)
    return [RelationCandidate(hops[i][0], hops[i][1], hops[i][2], float(scores[i])) for i in order]


def _top(scores: np.ndarray, k: int) -> list[int]:
    """Indices of the k best finite scores, best first; ties by index (a stable sort)."""
    order = np.argsort(-scores, kind="stable")
    return [int(i) for i in order[:k] if np.isfinite(scores[i])]


def _node_label(projection: GraphProjection, node: int) -> str:
    name = projection.node_names[node]
    cls = projection.node_class[node]
    kind = projection.node_kind[node]
    if kind == CHUNK:
        return f"passage {name}"
    return f"{name} ({cls})" if cls and cls != name else name


def _qualifier_label(projection: GraphProjection, qualifiers: QualifierIndex, i: int) -> str:
    triples = "; ".join(triple_text(projection, e) for e in qualifiers.edges[i][:2])
    more = f" and {len(qualifiers.edges[i]) - 2} more" if len(qualifiers.edges[i]) > 2 else ""
    return f"{qualifiers.values[i]} (qualifies {triples}{more})"
