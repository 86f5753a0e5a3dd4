"""Fast Think-on-Graph: W reasoning chains grown community by community (local community search with
seeded neighbour sampling, size-capped Louvain, modularity then model pruning), reasoned over as
text after each depth, with a marked fallback when depth D is exhausted."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kgbuild.query.strategy import StrategySpec

if TYPE_CHECKING:
    from kgbuild.query.strategy import Budget, QueryResources, Strategy


def _factory(resources: QueryResources, budget: Budget) -> Strategy:
    from kgbuild.query.fasttog.strategy import FastToGStrategy  # igraph, the gateway: only when used

    return FastToGStrategy.create(resources, budget)


SPEC = StrategySpec("fasttog", "FastToG: reasoning chains grown community by community (Louvain communities "
                    "of at most 4 nodes, modularity and model pruning), answered when the chains suffice",
                    needs_model=True, factory=_factory)
