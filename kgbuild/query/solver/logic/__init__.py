"""The logical-form language of the solver (KAG §2.3): a plan is a list of steps, each a
sub-question with the operators that answer it, over variables bound across steps.

    Step 1: Which films did Michael Curtiz direct?
      Retrieval(s=s1:Person[Michael Curtiz], p=p1:directed, o=o1:Film)
    Step 2: When was each released?
      Retrieval(s=o1, p=p2:releaseYear, o=o2:Year)
      Sort(set=o1, by=o2, direction=asc, limit=1) -> o3
      Output(o3)

The grammar is in docs/logical_forms.md; `parse_plan` and `format_plan` are inverses.
"""

from kgbuild.query.solver.logic.errors import LogicFormError
from kgbuild.query.solver.logic.nodes import (
    DEDUCE_ARGS,
    DEDUCE_OPS,
    Action,
    Constraint,
    Deduce,
    Math,
    NodePattern,
    Output,
    Plan,
    Pos,
    PredicatePattern,
    Retrieval,
    Sort,
    Step,
    VarRef,
    bound_by,
)
from kgbuild.query.solver.logic.parser import parse_action, parse_plan
from kgbuild.query.solver.logic.printer import format_action, format_constraint, format_plan

__all__ = [
    "DEDUCE_ARGS", "DEDUCE_OPS", "Action", "Constraint", "Deduce", "LogicFormError", "Math", "NodePattern",
    "Output", "Plan", "Pos", "PredicatePattern", "Retrieval", "Sort", "Step", "VarRef", "bound_by",
    "format_action", "format_constraint", "format_plan", "parse_action", "parse_plan",
]
