"""bm25, dense and hybrid: one retrieval mode's top chunks and the extractive answer, no model.

The retriever is the engine's hybrid retriever (kgbuild/query/retrieval); importing this module
imports neither it nor a sentence model.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kgbuild.query.strategy import StrategySpec

if TYPE_CHECKING:
    from kgbuild.query.strategy import Budget, QueryResources, Strategy, StrategyFactory
    from kgbuild.query.types import Answer, RetrievalMode, Retriever


class RetrievalStrategy:
    """Retrieval only, no model: the extractive answer from the top chunks of one retrieval mode."""

    def __init__(self, retriever: Retriever, mode: RetrievalMode) -> None:
        self.retriever = retriever
        self.mode: RetrievalMode = mode

    def answer(self, question: str, budget: Budget) -> Answer:
        from kgbuild.query.retrieval.answer import answer_offline

        return answer_offline(question, self.retriever, budget.k, mode=self.mode)

    def close(self) -> None:
        return None


def _retrieval(mode: RetrievalMode) -> StrategyFactory:
    def factory(resources: QueryResources, budget: Budget) -> Strategy:
        return RetrievalStrategy(resources.retriever(cached_embeddings=budget.use_cache), mode)

    return factory


BM25 = StrategySpec("bm25", "BM25 full-text chunk search; extractive answer", False, _retrieval("bm25"))
DENSE = StrategySpec("dense", "dense chunk search; extractive answer", False, _retrieval("dense"))
HYBRID = StrategySpec("hybrid", "BM25 + dense + Personalized PageRank over the mutual index; extractive answer",
                      False, _retrieval("hybrid"))
