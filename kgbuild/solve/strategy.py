"""The one interface every query strategy implements, and the strategies that ship today.

A strategy turns a question and a budget into an `Answer` (text, evidence with chunk provenance,
trace, model calls, tokens, time). It is created by a factory from a `QueryResources` (what an
opened project offers: config, workspace, stores, retriever) and closed by whoever created it.
New strategies (FRAG, SubgraphRAG, Chain of Explorations, FastToG) register a `StrategySpec` on
an engine; nothing here is global.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from pydantic import BaseModel, ConfigDict, Field

if TYPE_CHECKING:
    from kgbuild.config import Config
    from kgbuild.graph.linking import QuestionLinker
    from kgbuild.graph.projection import GraphProjection
    from kgbuild.graph.vectors import GraphVectors
    from kgbuild.solve.types import Answer, RetrievalMode, Retriever
    from kgbuild.store.types import Embedder, GraphStore
    from kgbuild.workspace import Workspace


class Budget(BaseModel):
    """What one answer may spend. Frozen, so an engine can keep one strategy per budget."""

    model_config = ConfigDict(frozen=True)

    k: int = Field(5, ge=1, description="chunks read as evidence")
    use_cache: bool = Field(True, description="False: every model call is sent (evaluations measure calls and latency)")


class Strategy(Protocol):
    def answer(self, question: str, budget: Budget) -> Answer:
        """Answer one question; the Answer carries its evidence, trace and cost."""

    def close(self) -> None:
        """Release what the strategy opened (a model session, an event loop)."""


class QueryResources(Protocol):
    """What a strategy factory may use; the engine provides it."""

    @property
    def config(self) -> Config: ...

    @property
    def workspace(self) -> Workspace: ...

    @property
    def graph(self) -> GraphStore | None: ...

    def retriever(self, *, cached_embeddings: bool = True) -> Retriever:
        """The hybrid retriever; cached_embeddings=False embeds every question with the model itself."""

    def embedder(self, *, cached: bool = True) -> Embedder:
        """The project's embedding model; cached=False bypasses the persistent cache (timed questions)."""

    def projection(self) -> GraphProjection:
        """The built graph in memory (kgbuild/graph), loaded once and reloaded after a rebuild."""

    def graph_vectors(self) -> GraphVectors:
        """Unit vectors of the projection's nodes and predicates, computed once per projection."""

    def question_linker(self, *, cached_embeddings: bool = True) -> QuestionLinker:
        """Links a question to the projection's nodes and embeds it (one embedding call)."""


StrategyFactory = Callable[[QueryResources, Budget], Strategy]


@dataclass(frozen=True)
class StrategySpec:
    name: str
    description: str
    needs_model: bool
    factory: StrategyFactory
    # Why the strategy cannot run on these resources (a trained model is missing or stale), or None.
    # Evaluations leave such a strategy out with this line; asking for it by name is the error.
    unavailable: Callable[[QueryResources], str | None] | None = None


class RetrievalStrategy:
    """Retrieval only, no model: the extractive answer from the top chunks of one retrieval mode."""

    def __init__(self, retriever: Retriever, mode: RetrievalMode) -> None:
        self.retriever = retriever
        self.mode: RetrievalMode = mode

    def answer(self, question: str, budget: Budget) -> Answer:
        from kgbuild.solve.retrieval.answer import answer_offline

        return answer_offline(question, self.retriever, budget.k, mode=self.mode)

    def close(self) -> None:
        return None


class SolverStrategy:
    """KAG's logical-form solver (plan, execute, judge, reflect) with the configured model.

    The session owns one event loop and one gateway for all its questions; it is created for one
    budget (the engine keeps one per budget), so `k` and the cache setting are fixed at creation.
    """

    def __init__(self, resources: QueryResources, budget: Budget) -> None:
        from kgbuild.solve.session import SolverSession

        self._session = SolverSession(resources.config, resources.workspace, resources.graph,
                                      resources.retriever(cached_embeddings=budget.use_cache), budget.k,
                                      use_cache=budget.use_cache)

    def answer(self, question: str, budget: Budget) -> Answer:
        return self._session.answer(question)

    def close(self) -> None:
        self._session.close()


def _retrieval(mode: RetrievalMode) -> StrategyFactory:
    def factory(resources: QueryResources, budget: Budget) -> Strategy:
        return RetrievalStrategy(resources.retriever(cached_embeddings=budget.use_cache), mode)

    return factory


def builtin_strategies() -> dict[str, StrategySpec]:
    """A fresh registry of the strategies that ship with kgbuild, simplest first (the order of eval tables)."""
    from kgbuild.strategies.registry import graph_strategies

    retrieval_only = [
        StrategySpec("bm25", "BM25 full-text chunk search; extractive answer", False, _retrieval("bm25")),
        StrategySpec("dense", "dense chunk search; extractive answer", False, _retrieval("dense")),
        StrategySpec("hybrid", "BM25 + dense + Personalized PageRank over the mutual index; extractive answer",
                     False, _retrieval("hybrid")),
    ]
    solver = StrategySpec("solver", "KAG logical-form solver: plan, execute over graph and chunks, judge, reflect",
                          True, SolverStrategy)
    graph = graph_strategies()
    specs = [*retrieval_only, *[s for s in graph if not s.needs_model], solver, *[s for s in graph if s.needs_model]]
    return {spec.name: spec for spec in specs}
