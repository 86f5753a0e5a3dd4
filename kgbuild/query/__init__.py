"""The query side: the strategy contract, the answer types, and every strategy side by side.

    strategy.py       the contract: `Strategy`, `Budget`, `StrategySpec`, `QueryResources`
    types.py          the records between retrieval, strategies and surfaces (`Answer`, `TraceStep`, ...)
    registry.py       the built-in strategies, in the order of eval tables
    extractive.py     bm25, dense, hybrid: retrieval only, the extractive answer
    solver/           KAG's logical-form solver (solver)
    frag/, subgraphrag/, coe/, fasttog/   the graph strategies of the papers
    retrieval/        hybrid retrieval over the mutual index (BM25 + dense + PPR), the extractive answer
                      and the type gate every model-free answer passes (answer_check.py)
    model_session.py, llm_ask.py    model calls from synchronous code, typed steps
    trace.py          the trace, timing and model usage of one answer (the graph strategies)
    graph_linking.py, graph_evidence.py, graph_answer.py, graph_labels.py
                      what the graph strategies share: question -> seed nodes, paths and triples as
                      text and passages, the answer step, weak labels for the trained parts
    evaluate.py       QA files, EM/F1/Recall@k, evaluation runs

Importing this package imports none of them.
"""
