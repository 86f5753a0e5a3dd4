"""`kgbuild train router QA_FILE`: train FRAG's router on a project's graph and save it in the workspace.

The command layer (the lead's) reads the QA file and opens the project; this is the step between:
link each question, label it by hop distance to its answer in the built graph, fit, save.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from kgbuild.query.frag.router import RouterModel, RouterReport, router_path, train_router

__all__ = ["RouterModel", "RouterReport", "router_path", "train_and_save", "train_router"]

if TYPE_CHECKING:
    from kgbuild.query.evaluate import QAItem
    from kgbuild.query.strategy import QueryResources


def train_and_save(resources: QueryResources, items: Sequence[QAItem], path: Path | None = None,
                   ) -> tuple[RouterModel, RouterReport]:
    """Train on `items` over the resources' graph and save to `path` (default
    `<workspace>/models/frag_router.json`); the report says where and what was skipped."""
    model, report = train_router(resources.projection(), resources.question_linker(), items)
    target = path or router_path(resources.workspace)
    model.save(target)
    report.path = str(target)
    return model, report
