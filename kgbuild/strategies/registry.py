"""The graph strategies that ship with kgbuild, for the engine's registry (kgbuild.solve.strategy).

Each package keeps its heavy imports (torch, igraph, sentence models) inside its factory, so
building the registry stays cheap.
"""

from __future__ import annotations

import importlib

from kgbuild.solve.strategy import StrategySpec

# FRAG and SubgraphRAG (no model during retrieval), then CoE and FastToG (model-guided).
PACKAGES = ("frag", "subgraphrag", "coe", "fasttog")


def graph_strategies() -> list[StrategySpec]:
    specs: list[StrategySpec] = []
    for name in PACKAGES:
        try:
            module = importlib.import_module(f"kgbuild.strategies.{name}")
        except ModuleNotFoundError:  # DEVELOPMENT ONLY: packages land one by one this session
            continue
        spec = getattr(module, "SPEC", None)
        if isinstance(spec, StrategySpec):
            specs.append(spec)
    return specs
