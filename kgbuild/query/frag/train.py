"""`kgbuild train router QA_FILE`: train FRAG's router on a project's graph and save it in the workspace.

The command layer (the lead's) reads the QA file and opens the project; this is the step between:
link each question, label it by which route's walk reached its answer (else by hop distance to
its answer in the built graph), fit, save.
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


def route_outcomes(resources: QueryResources, items: Sequence[QAItem]) -> dict[str, Route]:
    """For each question, the route whose walk brings its answer into FRAG's evidence (the passages
    shown and the verbalised paths), when only one of the two does: the router then learns to send a
    question where its answer is reached, not where the hop distance guesses it is. Both walks run
    model-free; a question both or neither route answers gets no outcome."""
    from kgbuild.query.evaluate import normalize_answer
    from kgbuild.query.frag.strategy import FragStrategy
    from kgbuild.query.strategy import Budget

    budget = Budget(use_cache=True)
    dim = int(resources.question_linker().embedder.dim)
    fingerprint = resources.projection().fingerprint
    walks = {route: FragStrategy(resources, budget, model_free=True, router=RouterModel(
        [0.0] * dim, 0.0, fingerprint, resources.question_linker().embedder.name, {}, route))
        for route in (SIMPLE, COMPLEX)}
    out: dict[str, Route] = {}
    try:
        for item in items:
            golds = [k for k in (normalize_answer(a) for a in (item.answer, *item.aliases)) if k]
            reached = []
            for route, walk in walks.items():
                answer = walk.answer(item.question, budget)
                seen = " " + normalize_answer(" ".join([*(c.text for c in answer.chunks[:5]), *answer.facts])) + " "
                if any(f" {g} " in seen for g in golds):
                    reached.append(route)
            if len(reached) == 1:
                out[item.id] = reached[0]
    finally:
        for walk in walks.values():
            walk.close()
    return out


def train_and_save(resources: QueryResources, items: Sequence[QAItem], path: Path | None = None,
                   ) -> tuple[RouterModel, RouterReport]:
    """Train on `items` over the resources' graph (labels: which route reached each answer, else the
    hop distance) and save to `path` (default `<workspace>/models/frag_router.json`); the report says
    where and what was skipped."""
    model, report = train_router(resources.projection(), resources.question_linker(), items,
                                 outcomes=route_outcomes(resources, items))
    target = path or router_path(resources.workspace)
    model.save(target)
    report.path = str(target)
    return model, report
