"""The graph query strategies of the papers kgbuild is built from: FRAG, SubgraphRAG (no model during
retrieval) and Chain of Explorations, FastToG (the model walks the graph). Each package exports a
`SPEC` (kgbuild.solve.strategy.StrategySpec) that the engine registers; all of them run on the
engine's in-memory projection of the graph (kgbuild/graph)."""
