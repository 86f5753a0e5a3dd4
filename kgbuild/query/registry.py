"""The strategies that ship with kgbuild, side by side, for the engine's registry.

Each package keeps its heavy imports (torch, igraph, sentence models, the solver) inside its
factory, and this module imports the packages only when asked, so building the registry stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kgbuild.query.strategy import StrategySpec


def builtin_strategies() -> dict[str, StrategySpec]:
    """A fresh registry of the built-in strategies, simplest first (the order of eval tables):
    retrieval only (bm25, dense, hybrid), the graph strategies without a model during retrieval
    (FRAG, SubgraphRAG), then the ones a model drives (the solver, CoE, FastToG)."""
    from kgbuild.query.coe import SPEC as COE
    from kgbuild.query.extractive import BM25, DENSE, HYBRID
    from kgbuild.query.fasttog import SPEC as FASTTOG
    from kgbuild.query.frag import SPEC as FRAG
    from kgbuild.query.solver import SPEC as SOLVER
    from kgbuild.query.subgraphrag import SPEC as SUBGRAPHRAG

    specs = [BM25, DENSE, HYBRID, FRAG, SUBGRAPHRAG, SOLVER, COE, FASTTOG]
    return {spec.name: spec for spec in specs}
