"""KAG's logical-form solver: plan a question into logical forms, execute them over the graph store
and hybrid retrieval, judge the answer, reflect with supplementary questions.

    logic/        the logical-form grammar: lexer, parser with positioned errors, nodes, printer
    math.py       the safe arithmetic evaluator behind Math
    graph_view.py parameterised graph reads
    spo.py, executor.py, state.py   the operators (Retrieval, Sort, Math, Deduce, Output) and their variables
    planner.py    planning with re-ask
    solver.py     the reflection loop
    session.py    a solver for synchronous callers, and the strategy over it

Importing this package imports none of them: the spec's factory does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kgbuild.query.strategy import StrategySpec

if TYPE_CHECKING:
    from kgbuild.query.strategy import Budget, QueryResources, Strategy


def _factory(resources: QueryResources, budget: Budget) -> Strategy:
    from kgbuild.query.solver.session import SolverStrategy

    return SolverStrategy(resources, budget)


SPEC = StrategySpec("solver", "KAG logical-form solver: plan, execute over graph and chunks, judge, reflect",
                    True, _factory)
