"""The graph strategies that ship with kgbuild, for the engine's registry (kgbuild.solve.strategy).

Each package keeps its heavy imports (torch, igraph, sentence models) inside its factory, so
building the registry stays cheap.
"""

from __future__ import annotations

from kgbuild.solve.strategy import StrategySpec


def graph_strategies() -> list[StrategySpec]:
    """FRAG and SubgraphRAG (no model during retrieval), then CoE and FastToG (model-guided)."""
    from kgbuild.strategies.coe import SPEC as COE
    from kgbuild.strategies.fasttog import SPEC as FASTTOG
    from kgbuild.strategies.frag import SPEC as FRAG
    from kgbuild.strategies.subgraphrag import SPEC as SUBGRAPHRAG

    return [FRAG, SUBGRAPHRAG, COE, FASTTOG]
