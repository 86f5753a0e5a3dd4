"""The query side: logical forms (grammar, planner, executor), hybrid retrieval over the mutual
index, answers with citations and a trace. `types` is the contract between its parts."""
