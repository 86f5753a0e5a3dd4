"""Plans back to text in the canonical layout, so `parse_plan(format_plan(plan)) == plan`.

The planner's reply, the trace and the answer all show logical forms printed from the tree, so
every place that displays a plan shows it the same way.
"""

from __future__ import annotations

from kgbuild.query.solver.logic.lexer import is_name_char, is_name_start
from kgbuild.query.solver.logic.nodes import (
    Action,
    ArgValue,
    Constraint,
    Deduce,
    Math,
    NodePattern,
    Output,
    Plan,
    PredicatePattern,
    Retrieval,
    Scalar,
    Sort,
    Step,
    VarRef,
)


def _is_name(text: str) -> bool:
    return bool(text) and is_name_start(text[0]) and all(is_name_char(c) for c in text)


def quote(text: str) -> str:
    body = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return f'"{body}"'


def _label(text: str) -> str:
    return text if _is_name(text) else quote(text)


def _number(value: int | float) -> str:
    if isinstance(value, int):
        return str(value)
    text = repr(value)
    # The lexer reads digits[.digits] only: no exponent form.
    return format(value, "f") if "e" in text or "E" in text else text


def _scalar(value: Scalar) -> str:
    if isinstance(value, VarRef):
        return value.name
    if isinstance(value, str):
        return quote(value)
    return _number(value)


def _arg(value: ArgValue) -> str:
    if isinstance(value, tuple):
        return "[" + ", ".join(_scalar(v) for v in value) + "]"
    return _scalar(value)


def _node(node: NodePattern) -> str:
    text = node.var
    if node.type:
        text += ":" + _label(node.type)
    if node.mention:
        text += "[" + node.mention.replace("\\", "\\\\").replace("]", "\\]").replace("\n", " ") + "]"
    return text


def _predicate(p: PredicatePattern) -> str:
    return p.var + (":" + _label(p.name) if p.name else "")


def format_constraint(c: Constraint) -> str:
    return f"{c.target}.{c.prop} {c.op} {_scalar(c.value)}"


def format_action(action: Action) -> str:
    if isinstance(action, Retrieval):
        parts = [f"s={_node(action.s)}", f"p={_predicate(action.p)}", f"o={_node(action.o)}"]
        parts += [format_constraint(c) for c in action.constraints]
        return f"Retrieval({', '.join(parts)})"
    if isinstance(action, Sort):
        parts = [f"set={action.set.name}"]
        if action.by is not None:
            parts.append(f"by={action.by.name}")
        parts.append(f"direction={action.direction}")
        if action.limit is not None:
            parts.append(f"limit={action.limit}")
        return f"Sort({', '.join(parts)})" + (f" -> {action.target}" if action.target else "")
    if isinstance(action, Math):
        return f"Math({action.expr}) -> {action.target}"
    if isinstance(action, Deduce):
        parts = [f"op={action.op}"] + [f"{k}={_arg(v)}" for k, v in action.args]
        return f"Deduce({', '.join(parts)})" + (f" -> {action.target}" if action.target else "")
    if isinstance(action, Output):
        return f"Output({', '.join(v.name for v in action.vars)})"
    raise TypeError(f"not an action: {action!r}")


def format_step(step: Step, number: int) -> str:
    question = " ".join(step.question.split())
    lines = [f"Step {number}: {question}".rstrip()]
    lines += [f"  {format_action(a)}" for a in step.actions]
    return "\n".join(lines)


def format_plan(plan: Plan) -> str:
    return "\n".join(format_step(step, i + 1) for i, step in enumerate(plan.steps)) + "\n"
