"""FRAG's preprocessing: cut the graph down to what the question can be about before any path search.

1. the union of the k-hop neighbourhoods of the seeds (k = 2 simple, 4 complex);
2. entity pruning: Personalized PageRank restarting at the seeds (damping 0.8) over that union keeps
   the top n nodes (default 2000); the seeds are always kept;
3. relation pruning: the predicates of the edges left are scored by cosine with the question and
   the top m types kept (default 64); passage edges ("mentions") are always kept.

k, n, m and the damping are settings of `query.frag` (kgbuild/query_settings.py).

The result is a node set and an edge mask over the projection; path retrieval runs inside them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from kgbuild.graph.projection import MENTIONS, GraphProjection
from kgbuild.graph.walks import allowed_edges, k_hop, personalized_pagerank, top_nodes
from kgbuild.query_settings import FragSettings

_DEFAULTS = FragSettings()


@dataclass(frozen=True)
class Preprocessed:
    nodes: np.ndarray  # kept node indices, sorted
    edge_mask: np.ndarray  # kept edges: both ends kept and a kept predicate
    predicates: tuple[int, ...]  # kept predicate indices, best first
    hop_nodes: int  # sizes before the prunes, for the trace
    hop_edges: int
    ppr_nodes: int
    ppr_edges: int
    kept_edges: int
    hop_predicates: int

    def sizes(self) -> dict[str, int]:
        return {"k_hop_nodes": self.hop_nodes, "k_hop_edges": self.hop_edges, "ppr_nodes": self.ppr_nodes,
                "ppr_edges": self.ppr_edges, "predicates_before": self.hop_predicates,
                "predicates_kept": len(self.predicates), "edges_kept": self.kept_edges}


def k_hop_union(adj: sp.csr_matrix, seeds: Mapping[int, float] | list[int], k: int) -> np.ndarray:
    """Sorted nodes within `k` hops of any seed, edges walked either way."""
    return k_hop(adj, list(seeds), k)


def prune_entities(adj: sp.csr_matrix, seeds: Mapping[int, float], nodes: np.ndarray, top_n: int,
                   damping: float = _DEFAULTS.damping) -> np.ndarray:
    """The `top_n` nodes of `nodes` by Personalized PageRank from `seeds` (weighted by link score)
    on the subgraph `nodes` induces, plus every seed. Sorted."""
    if nodes.size <= top_n:
        return np.union1d(nodes, np.fromiter(seeds, dtype=np.int64)).astype(np.int64)
    scores = personalized_pagerank(adj, seeds, nodes=nodes, damping=damping)
    return top_nodes(scores, top_n, keep=seeds)


def prune_relations(projection: GraphProjection, predicate_vectors: np.ndarray, question_vector: np.ndarray,
                    edge_mask: np.ndarray, top_m: int) -> tuple[np.ndarray, tuple[int, ...], int]:
    """Keep the edges whose predicate is among the `top_m` most similar to the question (of those
    present in `edge_mask`), plus every "mentions" edge. Returns (mask, kept predicates best first,
    predicates present before).

    Why "mentions" is always kept: it is the structural edge from a passage to what the passage
    supports, not a relation the question could name, so its similarity to the question means
    nothing; and it is how most answers are reached at all (an offline build extracts few relations
    per passage, so entity -> passage -> entity is the usual step), and the passages it reaches are
    the evidence the answer step reads.
    """
    present = np.unique(projection.edge_pred[edge_mask])
    mentions = projection.pred_pos.get(MENTIONS)
    ranked = [int(p) for p in present if int(p) != mentions]
    if ranked:
        sims = predicate_vectors[ranked] @ np.asarray(question_vector, dtype=predicate_vectors.dtype)
        order = np.argsort(-sims, kind="stable")[:max(top_m, 0)]
        kept = tuple(ranked[i] for i in order)
    else:
        kept = ()
    allowed = np.zeros(len(projection.predicates), dtype=bool)
    allowed[list(kept)] = True
    if mentions is not None:
        allowed[mentions] = True
    return edge_mask & allowed[projection.edge_pred], kept, int(present.size)


def preprocess(projection: GraphProjection, adj: sp.csr_matrix, predicate_vectors: np.ndarray,
               seeds: Mapping[int, float], question_vector: np.ndarray, k: int,
               settings: FragSettings = _DEFAULTS) -> Preprocessed:
    """The pruned k-hop graph of `seeds`; `settings.top_n`, `.top_m` and `.damping` say how far it is cut."""
    hop = k_hop_union(adj, seeds, k)
    hop_edges = allowed_edges(projection, hop)
    kept_nodes = prune_entities(adj, seeds, hop, settings.top_n, settings.damping)
    ppr_edges = allowed_edges(projection, kept_nodes)
    mask, kept_preds, before = prune_relations(projection, predicate_vectors, question_vector, ppr_edges,
                                               settings.top_m)
    return Preprocessed(nodes=kept_nodes, edge_mask=mask, predicates=kept_preds, hop_nodes=int(hop.size),
                        hop_edges=int(hop_edges.sum()), ppr_nodes=int(kept_nodes.size),
                        ppr_edges=int(ppr_edges.sum()), kept_edges=int(mask.sum()), hop_predicates=before)
