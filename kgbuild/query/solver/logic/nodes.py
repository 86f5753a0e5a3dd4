"""The syntax tree of a plan in the logical-form language (grammar: docs/logical_forms.md).

Frozen dataclasses, so two trees compare by value. Source positions are carried for error
messages but excluded from comparison: `parse(format_plan(tree)) == tree` for any tree the parser
produced, whatever the spacing of the original text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

DeduceOp = Literal["entailment", "judgement", "greater", "less", "equal", "choice"]
DEDUCE_OPS: tuple[str, ...] = ("entailment", "judgement", "greater", "less", "equal", "choice")
Direction = Literal["asc", "desc"]
Comparator = Literal["=", "!=", "<", "<=", ">", ">=", "~"]
COMPARATORS: tuple[str, ...] = ("=", "!=", "<", "<=", ">", ">=", "~")

# Arguments each Deduce operator takes: (required, optional).
DEDUCE_ARGS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "greater": (("left", "right"), ()),
    "less": (("left", "right"), ()),
    "equal": (("left", "right"), ()),
    "entailment": (("premise", "hypothesis"), ()),
    "judgement": (("statement",), ("on",)),
    "choice": (("options",), ("question",)),
}


@dataclass(frozen=True)
class Pos:
    line: int  # 1-based
    col: int  # 1-based
    offset: int  # 0-based index into the plan text


@dataclass(frozen=True)
class VarRef:
    """A variable bound by an earlier operator."""

    name: str
    pos: Pos | None = field(default=None, compare=False, repr=False)  # where it was written; not its identity


Scalar = str | int | float | VarRef
ArgValue = Scalar | tuple[Scalar, ...]  # a tuple is a [list]


@dataclass(frozen=True)
class NodePattern:
    """The s or o slot: `o1`, `o1:Film`, `s1:Person[Michael Curtiz]`.

    Without type and mention, an already-bound name refers to its values; an unbound one is a
    new variable matching anything."""

    var: str
    type: str | None = None
    mention: str | None = None
    pos: Pos | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class PredicatePattern:
    """The p slot: `p1:directed` (predicate text) or `p1` (any predicate, or a bound one)."""

    var: str
    name: str | None = None
    pos: Pos | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Constraint:
    """`o.releaseYear > 1940`: a property of a slot compared with a value, applied to the matches."""

    target: Literal["s", "p", "o"]
    prop: str
    op: Comparator
    value: Scalar
    pos: Pos | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Retrieval:
    s: NodePattern
    p: PredicatePattern
    o: NodePattern
    constraints: tuple[Constraint, ...] = ()
    pos: Pos | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Sort:
    """Order the values of `set` (by the values of `by`, bound from them) and keep `limit`."""

    set: VarRef
    direction: Direction = "asc"
    limit: int | None = None
    by: VarRef | None = None
    target: str | None = None  # None: the sorted values replace `set`
    pos: Pos | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Math:
    expr: str  # checked by kgbuild.query.solver.math; names in it are plan variables
    target: str
    variables: tuple[str, ...] = ()
    pos: Pos | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Deduce:
    op: DeduceOp
    args: tuple[tuple[str, ArgValue], ...]  # in written order
    target: str | None = None
    pos: Pos | None = field(default=None, compare=False, repr=False)

    def arg(self, name: str) -> ArgValue | None:
        return next((v for k, v in self.args if k == name), None)


@dataclass(frozen=True)
class Output:
    vars: tuple[VarRef, ...]
    pos: Pos | None = field(default=None, compare=False, repr=False)


Action = Retrieval | Sort | Math | Deduce | Output


@dataclass(frozen=True)
class Step:
    question: str
    actions: tuple[Action, ...]
    pos: Pos | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Plan:
    steps: tuple[Step, ...]

    def actions(self) -> list[tuple[int, Action]]:
        """(step index, action) in execution order."""
        return [(i, a) for i, step in enumerate(self.steps) for a in step.actions]


def bound_by(action: Action) -> list[str]:
    """Names an action binds (new or rebound)."""
    if isinstance(action, Retrieval):
        return [action.s.var, action.p.var, action.o.var]
    if isinstance(action, Sort):
        return [action.target or action.set.name]
    if isinstance(action, Math):
        return [action.target]
    if isinstance(action, Deduce):
        return [action.target] if action.target else []
    return []
