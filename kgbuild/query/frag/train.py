"""`kgbuild train router QA_FILE`: train FRAG's router on a project's graph and save it in the workspace.

The command layer (the lead's) reads the QA file and opens the project; this is the step between:
link each question, walk both routes, label it by which route's walk reached its answer (else by
hop distance to its answer in the built graph), fit, keep the fitted model or a simpler router
(whichever reached the most answers), save.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from kgbuild.query.frag.router import COMPLEX, SIMPLE, Route, RouterModel, RouterReport, router_path, train_router

__all__ = ["RouterModel", "RouterReport", "route_outcomes", "router_path", "train_and_save", "train_router"]

if TYPE_CHECKING:
    from kgbuild.query.evaluate import QAItem
    from kgbuild.query.strategy import QueryResources


def route_outcomes(resources: QueryResources, items: Sequence[QAItem]) -> dict[str, frozenset[Route]]:
    """For each question, the routes whose walk brings its answer into FRAG's evidence (the passages
    shown and the verbalised paths). Where only one of the two does, the router learns to send the
    question there, not where the hop distance guesses; over all questions, the sets score the
    candidate routers (`train_router`). Both walks run model-free."""
    from kgbuild.query.evaluate import normalize_answer
    from kgbuild.query.frag.strategy import FragStrategy
    from kgbuild.query.strategy import Budget

    budget = Budget(use_cache=True)
    dim = int(resources.question_linker().embedder.dim)
    fingerprint = resources.projection().fingerprint
    walks = {route: FragStrategy(resources, budget, model_free=True, router=RouterModel(
        [0.0] * dim, 0.0, fingerprint, resources.question_linker().embedder.name, {}, route))
        for route in (SIMPLE, COMPLEX)}
    out: dict[str, frozenset[Route]] = {}
    try:
        for item in items:
            golds = [k for k in (normalize_answer(a) for a in (item.answer, *item.aliases)) if k]
            reached = []
            for route, walk in walks.items():
                answer = walk.answer(item.question, budget)
                seen = " " + normalize_answer(" ".join([*(c.text for c in answer.chunks[:5]), *answer.facts])) + " "
                if any(f" {g} " in seen for g in golds):
                    reached.append(route)
            out[item.id] = frozenset(reached)
    finally:
        for walk in walks.values():
            walk.close()
    return out


def train_and_save(resources: QueryResources, items: Sequence[QAItem], path: Path | None = None,
                   ) -> tuple[RouterModel, RouterReport]:
    """Train on `items` over the resources' graph (labels: which route reached each answer, else the
    hop distance; the fitted model or a simpler router, whichever reached more answers) and save to
    `path` (default `<workspace>/models/frag_router.json`); the report says where, what was skipped
    and what was chosen."""
    model, report = train_router(resources.projection(), resources.question_linker(), items,
                                 outcomes=route_outcomes(resources, items))
    target = path or router_path(resources.workspace)
    model.save(target)
    report.path = str(target)
    return model, report
