"""SubgraphRAG (Li et al., "Simple is Effective: The Roles of Graphs and Large Language Models in
Knowledge-Graph-Based Retrieval-Augmented Generation"): a small trained MLP scores the triples
around the question's entities, with a directional distance encoding of where each triple sits
relative to them; the top K triples go to one answer prompt.

    candidates.py   the triples within h hops of the topic entities, capped
    dde.py          directional distance encoding
    scorer.py       the numpy scorer, its per-graph tables, save/load with the graph's fingerprint
    train.py        weak labels from shortest paths, per-triple BCE in torch (`kgbuild train retriever`)
    strategy.py     the query strategy (no model during retrieval)

Importing this package imports neither torch nor a sentence model.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kgbuild.query.strategy import StrategySpec
from kgbuild.query.subgraphrag.scorer import RETRAIN, model_path
from kgbuild.query.subgraphrag.strategy import SubgraphRAGStrategy, unavailable

if TYPE_CHECKING:
    from kgbuild.query.strategy import Budget, QueryResources, Strategy


def _factory(resources: QueryResources, budget: Budget) -> Strategy:
    return SubgraphRAGStrategy(resources, budget)


SPEC = StrategySpec(
    "subgraphrag",
    "SubgraphRAG: a trained MLP with directional distance encoding scores the triples around the question's "
    "entities (no model during retrieval); one answer call over the top triples, or the best-ranked node",
    needs_model=False, factory=_factory, unavailable=unavailable,
    training=f"a retriever trained on this graph ({RETRAIN})", trained=lambda ws: model_path(ws).exists())

__all__ = ["SPEC", "SubgraphRAGStrategy"]
