"""Chain of Explorations (KG-RAG): the model plans node lookups and relation hops, selects among the
candidates each step ranks, and an evaluator decides after every step to continue, re-plan or answer."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kgbuild.query.strategy import StrategySpec

if TYPE_CHECKING:
    from kgbuild.query.strategy import Budget, QueryResources, Strategy


def _factory(resources: QueryResources, budget: Budget) -> Strategy:
    from kgbuild.query.coe.strategy import CoEStrategy  # numpy, the gateway: only when used

    return CoEStrategy.create(resources, budget)


SPEC = StrategySpec("coe", "Chain of Explorations (KG-RAG): model-planned lookups and relation hops, "
                    "evaluated after each step, answered from the explored path", needs_model=True, factory=_factory)
