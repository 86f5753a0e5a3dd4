"""A Solver ready to answer questions one after another from synchronous code (the CLI, eval).

The model gateway keeps its HTTP client on the event loop it was first used on, so a session owns
one loop for all of its questions (a ModelSession, as the graph strategies use) instead of an
`asyncio.run` per question.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kgbuild.solve.graph_view import GraphView
from kgbuild.solve.model_session import ModelSession
from kgbuild.solve.solver import Solver
from kgbuild.solve.types import Answer, Retriever

if TYPE_CHECKING:
    from kgbuild.config import Config
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
