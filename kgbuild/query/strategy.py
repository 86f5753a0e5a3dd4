"""The one interface every query strategy implements.

A strategy turns a question and a budget into an `Answer` (text, evidence with chunk provenance,
trace, model calls, tokens, time). It is created by a factory from a `QueryResources` (what an
opened project offers: config, workspace, stores, retriever) and closed by whoever created it.
Each strategy's package exports a `StrategySpec`; `kgbuild.query.registry` lists the built-in ones
and an engine registers more; nothing here is global.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from pydantic import BaseModel, ConfigDict, Field

if TYPE_CHECKING:
    from kgbuild.config import Config
    from kgbuild.embed.types import Embedder
    from kgbuild.graph.projection import GraphProjection
    from kgbuild.graph.vectors import GraphVectors
    from kgbuild.query.graph_linking import QuestionLinker
    from kgbuild.query.types import Answer, Retriever
    from kgbuild.store.types import GraphStore
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
