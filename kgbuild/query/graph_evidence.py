"""What a graph strategy shows for its answer: paths and triples as text, the passages behind them.

Verbalisation follows FRAG's `s -> r -> m -> r -> e`; a step taken against the edge's direction is
written `<-r-`, a passage is named by its document title and position ("EDSAC §2"), and the
hypernode qualifiers of a triple (dates, places) follow its predicate in brackets. Evidence
passages are the chunk nodes on a path plus the chunks that support its edges, in the order the
strategy ranked its paths or triples (the mutual index turns graph evidence back into text).
With text fusion on, those passages are fused with the hybrid retriever's ranking of the whole
corpus (`with_text_ranking`), as KAG's mutual index pairs graph and text retrieval.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from kgbuild.graph.projection import CHUNK, GraphProjection
from kgbuild.graph.walks import Path
from kgbuild.query.retrieval import answer_types
from kgbuild.query.retrieval.fusion import fuse
from kgbuild.query.types import ScoredChunk, Triple


def _predicate(projection: GraphProjection, edge: int) -> str:
    pred = projection.predicate(edge)
    quals = projection.qualifiers.get(edge)
    if quals:
        pred += " [" + "; ".join(f"{q.predicate}: {q.value}" for q in quals) + "]"
    return pred


def triple_text(projection: GraphProjection, edge: int) -> str:
    """`(head, predicate [qualifiers], tail)`."""
    head, tail = int(projection.edge_head[edge]), int(projection.edge_tail[edge])
    return f"({projection.node_names[head]}, {_predicate(projection, edge)}, {projection.node_names[tail]})"


def path_text(projection: GraphProjection, path: Path) -> str:
    """`s -> r -> m -> r -> e`; a step against the edge's direction reads `m <- r <- s` locally."""
    parts = [projection.node_names[path.start]]
    for edge, (here, there) in zip(path.edges, zip(path.nodes, path.nodes[1:], strict=False), strict=True):
        pred = _predicate(projection, edge)
        forward = int(projection.edge_head[edge]) == here and int(projection.edge_tail[edge]) == there
        parts.append(f"-> {pred} ->" if forward else f"<- {pred} <-")
        parts.append(projection.node_names[there])
    return " ".join(parts)


def supporting_chunks(projection: GraphProjection, edges: Iterable[int], nodes: Iterable[int] = ()) -> list[int]:
    """Chunk nodes behind a path or a set of triples: passages on it first, then edge provenance."""
    out = [n for n in nodes if projection.node_kind[n] == CHUNK]
    for e in edges:
        out.extend(projection.edge_chunks[e])
    return list(dict.fromkeys(out))


def evidence_chunks(projection: GraphProjection, units: Iterable[tuple[Iterable[int], Iterable[int]]],
                    limit: int = 5, *, reached: bool = False, reached_last: bool = False,
                    home: bool = False) -> list[int]:
    """At most `limit` distinct chunk nodes, taken in rank order from ranked (edges, nodes) units.

    `reached`: a unit also brings the passages behind the node it reached (its last node), after its
    own: a walk that ends at "Sulli" reached Sulli's own article through the mutual index, which
    may say what the passages on the way did not. `reached_last`: those come after every unit's own
    passages (for many short units, such as SubgraphRAG's 100 triples, whose own passages state
    them; a reached hub such as a country would otherwise fill the list with its mentions).
    `home`: the reached node brings only its own article (`GraphProjection.home_chunks`), not every
    passage that names it: a walk ending at "Film" would otherwise fill the list with film articles."""
    out: dict[int, None] = {}
    later: list[int] = []
    for edges, nodes in units:
        nodes = list(nodes)
        found = supporting_chunks(projection, edges, nodes)
        if reached and nodes and projection.node_kind[nodes[-1]] != CHUNK:
            own = projection.home_chunks(nodes[-1]) if home else projection.node_chunks[nodes[-1]]
            if reached_last:
                later.extend(own)
            else:
                found = [*found, *own]
        for c in found:
            out.setdefault(c)
            if len(out) >= limit:
                return list(out)
    for c in later:
        out.setdefault(c)
        if len(out) >= limit:
            break
    return list(out)


def to_triples(projection: GraphProjection, edges: Iterable[int]) -> list[Triple]:
    out = []
    for e in dict.fromkeys(edges):
        head, tail = int(projection.edge_head[e]), int(projection.edge_tail[e])
        out.append(Triple(id=projection.edge_ids[e], subject_id=projection.node_ids[head],
                          subject=projection.node_names[head], predicate=projection.predicate(e),
                          object_id=projection.node_ids[tail], object=projection.node_names[tail],
                          chunk_ids=[projection.node_ids[c] for c in projection.edge_chunks[e]]))
    return out


def to_chunks(projection: GraphProjection, chunk_nodes: Sequence[int],
              scores: Sequence[float] | None = None) -> list[ScoredChunk]:
    """Chunk nodes as ScoredChunks, best first (score = rank-based when none is given)."""
    n = len(chunk_nodes)
    return [ScoredChunk(id=projection.node_ids[c], doc_id=projection.chunk_doc[c], text=projection.chunk_text[c],
                        score=float(scores[i]) if scores is not None else float(n - i) / max(n, 1))
            for i, c in enumerate(chunk_nodes)]


def fits_type(projection: GraphProjection, node: int, question: str) -> bool:
    """Whether the node can answer the question: not a passage, not an event, and of the entity
    class the question's wording asks for (a "who" wants a Person; an untyped question takes any)."""
    kind = projection.node_kind[node]
    if kind in (CHUNK, "event"):
        return False
    want = answer_types.expected(question)
    classes = want.classes
    if not classes:
        return kind != "concept" or want.kind == answer_types.ANY
    node_class = projection.node_class[node]
    return node_class is not None and node_class.casefold() in classes


def path_nodes_of(paths: Sequence[Path]) -> list[int]:
    """Every node on the paths, in order of first appearance."""
    return list(dict.fromkeys(n for p in paths for n in p.nodes))


def closest_passages(candidates: Sequence[int], node_vectors: np.ndarray, question_vector: np.ndarray,
                     limit: int) -> list[int]:
    """The `limit` candidate passages (chunk nodes, in path-rank order) closest to the question by
    cosine of their own vectors; ties keep the path-rank order."""
    if not candidates:
        return []
    sims = np.einsum("ij,j->i", node_vectors[list(candidates)], np.asarray(question_vector, dtype=np.float32))
    order = np.lexsort((np.arange(len(candidates)), -sims))[:max(limit, 0)]
    return [int(candidates[i]) for i in order.tolist()]


# Reciprocal-rank fusion's customary constant: a first rank is worth 1/61, a fifth 1/65, so two
# lists of equal weight interleave and a passage both rank rises above either list's own.
PASSAGE_RRF_K = 60.0


def with_text_ranking(graph: Sequence[ScoredChunk], text: Sequence[ScoredChunk], limit: int,
                      text_kept: int = 0) -> list[ScoredChunk]:
    """The `limit` best passages of the graph's ranking (passages behind the walk's paths or
    triples) fused with the text retriever's ranking (BM25, dense, PPR over the whole corpus),
    equal weights. Why both: a walk reaches the second hop's passage that no question word names,
    text retrieval reads the passage that says the answer in other words than the graph holds; a
    passage on the walk that text retrieval also ranked is the surest of all. `text_kept`: the
    text ranking's first passages are among the `limit` whatever the walk ranks (they keep their
    fused order), so the walk's passages take the remaining slots. Each passage keeps its text;
    its score is the fused one and `signals` says which list ranked it where."""
    by_id: dict[str, ScoredChunk] = {}
    ranks: dict[str, dict[str, float]] = {"graph": {}, "text": {}}
    for name, chunks in (("graph", graph), ("text", text)):
        for rank, c in enumerate(chunks, start=1):
            by_id.setdefault(c.id, c)
            ranks[name].setdefault(c.id, -float(rank))
    fused = fuse(ranks, {"graph": 1.0, "text": 1.0}, rrf_k=PASSAGE_RRF_K)
    # Ties (one list's first rank against the other's): the better of its two ranks, then the text's.
    order = sorted(fused, key=lambda cid: (-fused[cid], min(-r[cid] for r in ranks.values() if cid in r),
                                           -ranks["text"].get(cid, -1e9), cid))
    kept = {c.id for c in text[:min(text_kept, limit)]}
    rest = [cid for cid in order if cid not in kept][:max(limit - len(kept), 0)]
    chosen = set(rest) | kept
    order = [cid for cid in order if cid in chosen]
    return [by_id[cid].model_copy(update={"score": fused[cid], "signals": {
        f"{name}_rank": -ranks[name][cid] for name in ("graph", "text") if cid in ranks[name]}}) for cid in order]
