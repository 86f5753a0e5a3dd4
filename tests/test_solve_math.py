"""The safe evaluator behind Math: arithmetic works, nothing else does."""

from __future__ import annotations

import time

import pytest

from kgbuild.query.solver.math import MathError, evaluate, parse_expression


@pytest.mark.parametrize(("expr", "env", "expected"), [
    ("1 + 2 * 3", {}, 7),
    ("(1 + 2) * 3", {}, 9),
    ("7 / 2", {}, 3.5),
    ("7 // 2", {}, 3),
    ("7 % 4", {}, 3),
    ("-2 ** 2", {}, -4),
    ("2 ** -1", {}, 0.5),
    ("+3 - -3", {}, 6),
    ("o2 - o1", {"o1": 1942, "o2": 1954}, 12),
    ("max(o1) - min(o1)", {"o1": [1938, 1942, 1954]}, 16),
    ("sum(o1) / len(o1)", {"o1": [1, 2, 3, 4]}, 2.5),
    ("abs(a - b)", {"a": 3, "b": 10}, 7),
    ("round(2 / 3, 2)", {}, 0.67),
    ("round(2.5)", {}, 2),
    ("max(a, b, 4)", {"a": 1, "b": [9, 2]}, 9),
    ("x", {"x": [5]}, 5),  # a one-value list is that value
    ("len(o1)", {"o1": []}, 0),
    ("len(films) * 2", {"films": [None, None, 3]}, 6),  # len counts values that are not numbers
])
def test_arithmetic(expr: str, env: dict, expected: float) -> None:
    assert evaluate(expr, env) == pytest.approx(expected)


def test_variables_are_listed_in_order() -> None:
    assert parse_expression("max(o2) - o1 + o2").variables == ("o2", "o1")


HOSTILE = [
    ("__import__('os')", "may be called"),
    ("__import__('os').system('true')", "may be called"),
    ("().__class__.__bases__[0].__subclasses__()", "may be called"),
    ("(1).__class__", "Attribute is not allowed"),
    ("o1.__class__", "Attribute is not allowed"),
    ("open('/etc/passwd')", "may be called"),
    ("eval('1')", "may be called"),
    ("[x for x in range(10**9)]", "ListComp is not allowed"),
    ("lambda: 1", "Lambda is not allowed"),
    ("'a' * 10**9", "only numbers"),
    ("True + 1", "only numbers"),
    ("1 if 1 else 2", "IfExp is not allowed"),
    ("1 < 2", "Compare is not allowed"),
    ("1 << 1000000", "LShift is not allowed"),
    ("~1", "Invert is not allowed"),
    ("max(*o1)", "not allowed"),
    ("round(1, ndigits=2)", "keyword arguments"),
    ("_secret + 1", "not allowed"),
    ("x := 1", "not an arithmetic expression"),
    ("import os", "not an arithmetic expression"),
    ("1; 2", "not an arithmetic expression"),
    ("1 +\n2", "one line"),
    ("(" * 240 + "1" + ")" * 240, "nested|not an arithmetic"),
    ("1+" * 300 + "1", "longer than"),
]


@pytest.mark.parametrize(("expr", "words"), HOSTILE)
def test_hostile_input_is_rejected_before_running(expr: str, words: str) -> None:
    with pytest.raises(MathError, match=words):
        evaluate(expr, {"o1": [1, 2]})


@pytest.mark.parametrize(("expr", "words"), [
    ("10 ** 1000", "exponent larger than 100"),
    ("9 ** 99 ** 99", "exponent larger than 100"),
    ("(10 ** 100) ** 100", "result too large"),
    ("2 ** 100 * 2 ** 100 * 2 ** 100 * 2 ** 100 * 2 ** 100 * 2 ** 100 * 2 ** 100 * 2 ** 100 * 2 ** 100 * 2 ** 100",
     "result too large"),
    ("99999999.0 ** 99", "result too large"),
    ("(-8) ** 0.5", "no real value"),
    ("0 ** -1", "division by zero"),
    ("1 / (a - a)", "division by zero"),
    ("5 % 0", "division by zero"),
    ("o1 + 1", "use sum, min, max or len"),
    ("nope * 2", "unknown variable nope"),
    ("max", "must be called"),
    ("s * 2", "non-number"),
    ("flag + 1", "true/false"),
    ("min(empty)", "min of no values"),
    ("round(1.5, 99)", "digits"),
    ("sum(films)", "not numbers"),
    ("films + 1", "use sum, min, max or len"),
    ("one + 1", "not numbers"),
])
def test_bounds_and_runtime_errors(expr: str, words: str) -> None:
    env = {"o1": [1, 2], "a": 3, "s": "text", "flag": True, "empty": [], "films": [None, 2], "one": [None]}
    started = time.monotonic()
    with pytest.raises(MathError, match=words):
        evaluate(expr, env)
    assert time.monotonic() - started < 1.0


def test_error_points_at_the_column() -> None:
    with pytest.raises(MathError) as info:
        parse_expression("1 + o1.x")
    assert info.value.offset == 4
    with pytest.raises(MathError) as info:
        parse_expression("  2 * open(1)")
    assert info.value.offset == 6
    assert info.value.line().startswith("Math(  2 * open(1)) at column 7")


# ---------------------------------------------------------------- values read as numbers


@pytest.mark.parametrize(("text", "expected"), [
    ("747", 747),
    ("1,200", 1200),
    ("-3.5", -3.5),
    ("1944-01-18", 1944 + 17 / 366),  # a full ISO date: a fractional year
    ("1944-12-31T10:00:00Z", 1944 + 11 / 12 + 30 / 366),
    ("1939-45", 1939),  # a year range: its first year, not month 45
    ("2023-45", 2023),
    ("1939-1945", 1939),
    ("1939\u201345", 1939),
    ("2023-05", 2023),  # a year-month reads like a range start: only the month is lost
    ("2023-13-01", None),  # no month 13
    ("2023-02-32", None),  # no day 32
    ("in January 1944", 1944),
    ("18th of May, 1944", 1944),
    ("c. 1939", 1939),
    ("Boeing 747", None),  # a number among other words is not a year
    ("Route 66", None),
    ("1944 and 1945", None),
    ("May", None),
])
def test_value_number(text: str, expected: float | None) -> None:
    from kgbuild.query.solver.state import Value

    got = Value(text=text).number()
    assert got == (pytest.approx(expected) if expected is not None else None)


def test_compare_does_not_read_a_model_number_as_a_year() -> None:
    from kgbuild.query.solver.spo import compare
    from kgbuild.query.solver.state import Value

    assert not compare(Value(text="Boeing 747"), "=", Value(text="747"))
    assert compare(Value(text="in January 1944"), "=", Value(text="1944"))
    assert compare(Value(text="1939-45"), "<", Value(text="1940"))
