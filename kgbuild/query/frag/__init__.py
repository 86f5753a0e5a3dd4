"""FRAG (Gao et al., "FRAG: A Flexible Modular Framework for RAG based on Knowledge Graphs").

A router reads the question and says simple (answer within 2 hops of its entities) or complex
(3+); the graph around the linked entities is cut to a k-hop union (k = 2 or 4), pruned by
Personalized PageRank and by question-relation similarity; paths are enumerated (simple) or found
as shortest paths (complex), ranked against the question without a model, and the top u are the
facts of one answer call. Modules, in that order: router, preprocess, paths, rank, strategy
(train: the router's training command).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kgbuild.query.strategy import StrategySpec

if TYPE_CHECKING:
    from kgbuild.query.strategy import Budget, QueryResources, Strategy


def _factory(resources: QueryResources, budget: Budget) -> Strategy:
    from kgbuild.query.frag.strategy import FragStrategy

    return FragStrategy(resources, budget)


def _unavailable(resources: QueryResources) -> str | None:
    """A stale or unreadable trained router; a missing one is fine (the heuristic routes)."""
    from kgbuild.errors import ConfigError
    from kgbuild.query.frag.router import load_router

    try:
        load_router(resources.workspace, resources.projection().fingerprint, resources.embedder().name)
    except ConfigError as exc:
        return exc.line()
    return None


SPEC = StrategySpec("frag", "FRAG: route simple/complex, prune the k-hop graph (PPR, relations), rank paths; "
                    "one answer call with a model, else the best path's tail (unverified)",
                    needs_model=False, factory=_factory, unavailable=_unavailable)
