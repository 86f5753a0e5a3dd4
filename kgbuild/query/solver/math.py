"""Safe arithmetic for the `Math` operator of logical forms.

An expression comes from a model, so it is treated as hostile: it is parsed by Python's parser
(which only builds a tree, it never runs anything) and then walked over a whitelist of node types:

    numbers, + - * / // % **, unary + and -, parentheses,
    calls of min, max, abs, round, sum, len, and names of plan variables.

Everything else (attributes, subscripts, strings, lambdas, comprehensions, keyword arguments,
any other function) is a `MathError` pointing at the offending column. Sizes are bounded so an
expression cannot exhaust memory or time: the text length, the exponent, and every intermediate
result's magnitude.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from kgbuild.errors import KgbuildError

Number = int | float
# A variable with several values is a list; None stands for a value that is not a number (a film
# title), so len() still counts it while arithmetic on it is an error.
Value = Number | list[Number | None]

MAX_LENGTH = 500  # characters of one expression
MAX_EXPONENT = 100  # |b| in a ** b
MAX_MAGNITUDE = 10**300  # any intermediate result; beyond it floats lose meaning anyway
MAX_NODES = 200  # nodes in the tree: deep nesting is rejected before the walk recurses

_FUNCTIONS: dict[str, Callable[..., Value]] = {
    "min": min, "max": max, "abs": abs, "round": round, "sum": sum, "len": len,
}
_BINARY: dict[type[ast.operator], Callable[[Number, Number], Number]] = {
    ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b, ast.FloorDiv: lambda a, b: a // b, ast.Mod: lambda a, b: a % b,
}


class MathError(KgbuildError):
    """An expression that is not allowed or cannot be evaluated; `offset` is 0-based in its text."""

    def __init__(self, expression: str, problem: str, offset: int = 0) -> None:
        self.expression = expression
        self.offset = max(0, min(offset, len(expression)))
        super().__init__(f"Math({expression}) at column {self.offset + 1}", problem)


@dataclass(frozen=True)
class Expression:
    """A checked expression: evaluate it any number of times with different variable values."""

    text: str
    tree: ast.expr
    variables: tuple[str, ...]  # names it reads, in order of first use

    def evaluate(self, env: Mapping[str, Value]) -> Number:
        result = _Evaluator(self.text, env).eval(self.tree)
        if isinstance(result, list) and len(result) == 1 and result[0] is not None:
            return result[0]
        if isinstance(result, list):
            raise MathError(self.text, "the result is a list of values; reduce it with sum, min, max or len")
        return result


def parse_expression(text: str) -> Expression:
    """Check `text` against the whitelist; MathError with the column of the first problem."""
    if len(text) > MAX_LENGTH:
        raise MathError(text[:40] + "...", f"expression longer than {MAX_LENGTH} characters")
    if not text.strip():
        raise MathError(text, "empty expression")
    if "\n" in text or "\r" in text:
        raise MathError(text, "an expression must fit on one line",
                        text.find("\n") if "\n" in text else text.find("\r"))
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as exc:
        lead = len(text) - len(text.lstrip())
        raise MathError(text, f"not an arithmetic expression: {exc.msg}",
                        lead + max(0, (exc.offset or 1) - 1)) from None
    except (RecursionError, MemoryError, ValueError):
        raise MathError(text, "expression too deeply nested") from None
    lead = len(text) - len(text.lstrip())
    names: list[str] = []
    for count, node in enumerate(ast.walk(tree.body), 1):
        if count > MAX_NODES:
            raise MathError(text, f"expression has more than {MAX_NODES} parts")
        _check_node(text, node, lead, names)
    return Expression(text, tree.body, tuple(dict.fromkeys(names)))


def _col(node: ast.AST, lead: int) -> int:
    return lead + getattr(node, "col_offset", 0)


def _check_node(text: str, node: ast.AST, lead: int, names: list[str]) -> None:
    if isinstance(node, ast.Constant):
        if isinstance(node.value, bool) or not isinstance(node.value, (int, float)):
            raise MathError(text, f"only numbers are allowed, not {type(node.value).__name__} {node.value!r:.20}",
                            _col(node, lead))
        if isinstance(node.value, int) and abs(node.value) > MAX_MAGNITUDE:
            raise MathError(text, "number too large", _col(node, lead))
    elif isinstance(node, ast.BinOp):
        if type(node.op) not in _BINARY and not isinstance(node.op, ast.Pow):
            raise MathError(text, f"operator {type(node.op).__name__} is not allowed", _col(node.right, lead) - 1)
    elif isinstance(node, ast.UnaryOp):
        if not isinstance(node.op, (ast.UAdd, ast.USub)):
            raise MathError(text, f"operator {type(node.op).__name__} is not allowed", _col(node, lead))
    elif isinstance(node, ast.Call):
        if not isinstance(node.func, ast.Name) or node.func.id not in _FUNCTIONS:
            raise MathError(text, f"only {', '.join(_FUNCTIONS)} may be called", _col(node, lead))
        if node.keywords:
            raise MathError(text, "keyword arguments are not allowed", _col(node.keywords[0], lead))
        if not node.args or (node.func.id == "round" and len(node.args) > 2):
            raise MathError(text, f"wrong number of arguments to {node.func.id}", _col(node, lead))
        if any(isinstance(a, ast.Starred) for a in node.args):
            raise MathError(text, "starred arguments are not allowed", _col(node, lead))
    elif isinstance(node, ast.Name):
        if node.id in _FUNCTIONS:
            return  # the callee of a Call (a bare function name is rejected at evaluation)
        if node.id.startswith("_"):
            raise MathError(text, f"name {node.id} is not allowed", _col(node, lead))
        names.append(node.id)
    elif isinstance(node, (ast.operator, ast.unaryop, ast.expr_context)):
        return  # operator and context markers: checked with their parent node
    else:
        raise MathError(text, f"{type(node).__name__} is not allowed in arithmetic", _col(node, lead))


class _Evaluator:
    def __init__(self, text: str, env: Mapping[str, Value]) -> None:
        self.text = text
        self.env = env

    def fail(self, problem: str, node: ast.AST) -> MathError:
        return MathError(self.text, problem, getattr(node, "col_offset", 0))

    def bounded(self, value: Value, node: ast.AST) -> Value:
        items = value if isinstance(value, list) else [value]
        for item in items:
            if item is None:
                continue
            if isinstance(item, float) and not math.isfinite(item):
                raise self.fail("result is not a finite number", node)
            if abs(item) > MAX_MAGNITUDE:
                raise self.fail("result too large", node)
        return value

    def numbers(self, values: list[Number | None], node: ast.AST) -> list[Number]:
        if any(v is None for v in values):
            raise self.fail("a variable holds values that are not numbers; only len() can use it", node)
        return values  # type: ignore[return-value]

    def scalar(self, value: Value, node: ast.AST) -> Number:
        if isinstance(value, list):
            if len(value) == 1:
                return self.numbers(value, node)[0]
            raise self.fail(f"{len(value)} values where one number is needed; use sum, min, max or len", node)
        return value

    def eval(self, node: ast.expr) -> Value:
        if isinstance(node, ast.Constant):
            if not isinstance(node.value, (int, float)):  # parse_expression admits numbers only
                raise self.fail("not a number", node)
            return node.value
        if isinstance(node, ast.Name):
            if node.id in _FUNCTIONS:
                raise self.fail(f"{node.id} must be called", node)
            if node.id not in self.env:
                raise self.fail(f"unknown variable {node.id}", node)
            return self.bounded(_as_value(self.env[node.id], self, node), node)
        if isinstance(node, ast.UnaryOp):
            operand = self.scalar(self.eval(node.operand), node)
            return -operand if isinstance(node.op, ast.USub) else +operand
        if isinstance(node, ast.BinOp):
            left = self.scalar(self.eval(node.left), node.left)
            right = self.scalar(self.eval(node.right), node.right)
            if isinstance(node.op, ast.Pow):
                return self.bounded(self.power(left, right, node), node)
            if isinstance(node.op, (ast.Div, ast.FloorDiv, ast.Mod)) and right == 0:
                raise self.fail("division by zero", node.right)
            return self.bounded(_BINARY[type(node.op)](left, right), node)
        if isinstance(node, ast.Call):
            assert isinstance(node.func, ast.Name)  # checked when parsed
            return self.call(node.func.id, [self.eval(a) for a in node.args], node)
        raise self.fail(f"{type(node).__name__} is not allowed in arithmetic", node)

    def power(self, base: Number, exponent: Number, node: ast.AST) -> Number:
        if abs(exponent) > MAX_EXPONENT:
            raise self.fail(f"exponent larger than {MAX_EXPONENT}", node)
        if base == 0 and exponent < 0:
            raise self.fail("division by zero", node)
        # Estimate the size before computing it: 999**100 is fine, (10**200)**100 is not.
        if abs(base) > 1 and exponent > 0 and exponent * math.log10(abs(base)) > 300:
            raise self.fail("result too large", node)
        result = base**exponent
        if isinstance(result, complex):
            raise self.fail("a negative number to a fractional power has no real value", node)
        return result

    def call(self, name: str, args: list[Value], node: ast.AST) -> Value:
        if name in ("sum", "len", "min", "max"):
            flat: list[Number | None] = []
            for arg in args:
                flat.extend(arg if isinstance(arg, list) else [arg])
            if name == "len":
                return len(flat)
            flat = self.numbers(flat, node)  # type: ignore[assignment]
            if not flat:
                raise self.fail(f"{name} of no values", node)
            return self.bounded(_FUNCTIONS[name](flat), node)
        if name == "abs":
            if len(args) != 1:
                raise self.fail("abs takes one argument", node)
            return abs(self.scalar(args[0], node))
        # round(x) or round(x, digits)
        value = self.scalar(args[0], node)
        if len(args) == 1:
            return round(value)
        digits = self.scalar(args[1], node)
        if not isinstance(digits, int) or abs(digits) > 15:
            raise self.fail("round's digits must be an integer between -15 and 15", node)
        return round(value, digits)


def _as_value(raw: object, ev: _Evaluator, node: ast.AST) -> Value:
    """A variable's value as a number or a list of numbers (bool is not a number here)."""
    if isinstance(raw, bool):
        raise ev.fail("a true/false value is not a number", node)
    if isinstance(raw, (int, float)):
        return raw
    if isinstance(raw, Sequence) and not isinstance(raw, str):
        out: list[Number | None] = []
        for item in raw:
            if item is None:
                out.append(None)
                continue
            if isinstance(item, bool) or not isinstance(item, (int, float)):
                raise ev.fail(f"variable holds a non-number {item!r:.30}", node)
            out.append(item)
        return out
    raise ev.fail(f"variable holds a non-number {raw!r:.30}", node)


def evaluate(text: str, env: Mapping[str, Value] | None = None) -> Number:
    """Parse and evaluate in one go."""
    return parse_expression(text).evaluate(env or {})
