"""A Solver ready to answer questions one after another from synchronous code (the CLI, eval), and
the `solver` strategy over it.

The model gateway keeps its HTTP client on the event loop it was first used on, so a session owns
one loop for all of its questions (a ModelSession, as the graph strategies use) instead of an
`asyncio.run` per question.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kgbuild.query.model_session import ModelSession
from kgbuild.query.solver.graph_view import GraphView
from kgbuild.query.solver.solver import Solver
from kgbuild.query.types import Answer, Retriever

if TYPE_CHECKING:
    from kgbuild.config import Config
    from kgbuild.query.strategy import Budget, QueryResources
    from kgbuild.store.types import GraphStore
    from kgbuild.workspace import Workspace


class SolverSession:
    def __init__(self, config: Config, workspace: Workspace, graph: GraphStore | None, retriever: Retriever,
                 k: int, *, use_cache: bool = True) -> None:
        """`use_cache=False` sends every model call (an evaluation measures calls and latency, not
        the reply cache of an earlier run)."""
        self._model = ModelSession(config, workspace, use_cache=use_cache)
        self.gateway = self._model.gateway
        view = GraphView(graph) if graph is not None else None
        self.solver = Solver(self.gateway, retriever, view, self._model.prompts, config.query.max_iterations, k=k)

    def answer(self, question: str) -> Answer:
        return self._model.run(self.solver.solve(question))

    def close(self) -> None:
        self._model.close()

    def __enter__(self) -> SolverSession:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class SolverStrategy:
    """KAG's logical-form solver (plan, execute, judge, reflect) with the configured model.

    The session owns one event loop and one gateway for all its questions; it is created for one
    budget (the engine keeps one per budget), so `k` and the cache setting are fixed at creation.
    """

    def __init__(self, resources: QueryResources, budget: Budget) -> None:
        self._session = SolverSession(resources.config, resources.workspace, resources.graph,
                                      resources.retriever(cached_embeddings=budget.use_cache), budget.k,
                                      use_cache=budget.use_cache)

    def answer(self, question: str, budget: Budget) -> Answer:
        return self._session.answer(question)

    def close(self) -> None:
        self._session.close()
