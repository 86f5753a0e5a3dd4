"""The logical-form language: valid plans, malformed ones with their positions, round-trips."""

from __future__ import annotations

import pytest

from kgbuild.errors import KgbuildError
from kgbuild.query.solver.logic import (
    Constraint,
    Deduce,
    LogicFormError,
    Math,
    NodePattern,
    Output,
    Plan,
    PredicatePattern,
    Retrieval,
    Sort,
    Step,
    VarRef,
    format_action,
    format_plan,
    parse_action,
    parse_plan,
)

CURTIZ = """\
Step 1: Which films did Michael Curtiz direct?
  Retrieval(s=s1:Person[Michael Curtiz], p=p1:directed, o=o1:Film)
Step 2: Which of them came out first?
  Retrieval(s=o1, p=p2:releaseYear, o=o2:Year)
  Sort(set=o1, by=o2, direction=asc, limit=1) -> o3
Step 3: How many years separate the first and the last?
  Math(max(o2) - min(o2)) -> m1
  Output(o3, m1)
"""

VALID = [
    CURTIZ,
    'Retrieval(s=s1:Person[Ada Lovelace], p=p1:"born in", o=o1)\nOutput(o1)',
    # wrapped arguments, comments, blank lines, lower-case operator names, trailing comma
    "# a comment\n\nstep 1: q?   # not a comment: part of the question\n  retrieval(\n    s=s1:Person[Ada],\n"
    "    p=p1,\n    o=o1:Place,\n  )\n\n  output(o1)\n",
    'Retrieval(s=s1[X \\] Y], p=p1:rel, o=o1, o.year >= 1900, s.name ~ "x", p.since != "2001")\nOutput(s1)',
    "Retrieval(s=a:Film[Casablanca], p=b:directedBy, o=c:Person)\n"
    "Retrieval(s=d:Film[Gilda], p=e:directedBy, o=f:Person)\n"
    "Deduce(op=equal, left=c, right=f) -> same\nOutput(same)",
    'Retrieval(s=s1:Film[Casablanca], p=p1:releaseYear, o=o1)\n'
    'Deduce(op=entailment, premise=o1, hypothesis="it is old")',
    'Retrieval(s=s1:Film[A], p=p1:x, o=o1)\n'
    'Deduce(op=judgement, statement="A is a comedy", on=[s1, o1]) -> j\nOutput(j)',
    'Retrieval(s=s1:Film[A], p=p1:x, o=o1)\nDeduce(op=choice, options=[s1, "none", 3, -2.5], question="which?")',
    "Retrieval(s=s1:人物[鲁迅], p=p1:出生地, o=o1:地点)\nOutput(o1)",
    "Retrieval(s=s1:Person[A], p=p1:x, o=o1)\nSort(set=o1, direction=max)\n"
    "Math(len(o1) * 2 ** 3 // 5 % 4) -> n\nOutput(o1, n)",
]


@pytest.mark.parametrize("text", VALID)
def test_valid_plans_round_trip(text: str) -> None:
    plan = parse_plan(text)
    printed = format_plan(plan)
    assert parse_plan(printed) == plan
    assert format_plan(parse_plan(printed)) == printed  # the canonical form is a fixed point


def test_tree_of_a_plan() -> None:
    plan = parse_plan(CURTIZ)
    assert [s.question for s in plan.steps] == ["Which films did Michael Curtiz direct?",
                                                "Which of them came out first?",
                                                "How many years separate the first and the last?"]
    first = plan.steps[0].actions[0]
    assert first == Retrieval(NodePattern("s1", "Person", "Michael Curtiz"), PredicatePattern("p1", "directed"),
                              NodePattern("o1", "Film"))
    assert plan.steps[1].actions[1] == Sort(VarRef("o1"), "asc", 1, VarRef("o2"), "o3")
    assert plan.steps[2].actions == (Math("max(o2) - min(o2)", "m1", ("o2",)), Output((VarRef("o3"), VarRef("m1"))))
    assert first.s.pos is not None and (first.s.pos.line, first.s.pos.col) == (2, 15)


def test_details_of_arguments() -> None:
    r = parse_action('Retrieval(s=s1[X \\] Y], p=p1:"born in", o=o1, o.year >= 1900, s.name ~ "x")')
    assert isinstance(r, Retrieval)
    assert r.s.mention == "X ] Y" and r.p.name == "born in"
    assert r.constraints == (Constraint("o", "year", ">=", 1900), Constraint("s", "name", "~", "x"))
    plan = parse_plan('Retrieval(s=s1:F[A], p=p1, o=o1)\nDeduce(op=choice, options=[s1, "none", -2.5], question="q")')
    d = plan.steps[0].actions[1]
    assert isinstance(d, Deduce) and d.op == "choice" and d.target is None
    assert d.arg("options") == (VarRef("s1"), "none", -2.5) and d.arg("question") == "q"
    sort = parse_plan("Retrieval(s=s1:F[A], p=p1, o=o1)\nSort(set=o1, direction=max)").steps[0].actions[1]
    assert sort == Sort(VarRef("o1"), "desc")
    # a bare `time = 1939` constrains the triple (a property or a HyperNode qualifier): p.time
    q = parse_action('Retrieval(s=s1:Person, p=p1:joined, o=o1[Warner Bros.], time = 1939, in < "1940")')
    assert isinstance(q, Retrieval)
    assert q.constraints == (Constraint("p", "time", "=", 1939), Constraint("p", "in", "<", "1940"))
    assert format_action(q).endswith('p.time = 1939, p.in < "1940")') and parse_action(format_action(q)) == q


def test_ast_built_in_code_round_trips() -> None:
    plan = Plan((Step("Who?", (
        Retrieval(NodePattern("s1", "natural science", 'Name with "quotes"'), PredicatePattern("p1", "part of"),
                  NodePattern("o1"), (Constraint("o", "since", "<", 1.5),)),
        Deduce("judgement", (("statement", 'say "hi"\tthere'),), "j"),
        Output((VarRef("o1"), VarRef("j"))),
    )),))
    assert parse_plan(format_plan(plan)) == plan


# (plan, line, col, words in the message)
MALFORMED = [
    ("Retrieval(s=s1:Person[Michael Curtiz, p=p1:x, o=o1)", 1, 22, "unclosed ["),
    ("Step 1: q\n  Retrieval(s=s1, p=p1:x o=o1)", 2, 26, "expected ',' or ')'"),
    ("Retrieval(s=s1, p=p1:x)", 1, 1, "o= is missing"),
    ("Retrieval(s=s1, p=p1, o=o1, q: o2)", 1, 29, "unknown Retrieval argument"),
    ("Retrieval(s=s1, p=p1, o=o1, time=o2)", 1, 34, "variable o2 is not bound"),
    ("Retrieval(s=s1, p=p1, o=o1, o.year in 3)", 1, 36, "expected a comparison"),
    ("Retrieval(s=s1, p=p1:x[y], o=o1)", 1, 23, "no [mention]"),
    ("Retrieval(s=s1, p=p1, o=o1)\n  Output(o9)", 2, 10, "o9 is not bound"),
    ("Retrieval(s=s1, p=p1, o=o1)\nRetrieval(s=s1:Film, p=p2, o=o2)", 2, 13, "already bound"),
    ("Retrieval(s=s1, p=p1, o=s1)", 1, 1, "different variables"),
    ("Retrieval(s=s1, p=p1, o=o1)\nMath(o1 + __import__('os')) -> m", 2, 11, "may be called"),
    ("Retrieval(s=s1, p=p1, o=o1)\nMath(o1 + zz) -> m", 2, 11, "zz in Math is not bound"),
    ("Retrieval(s=s1, p=p1, o=o1)\nMath(o1 + 1)", 2, 13, "must bind its result"),
    ("Retrieval(s=s1, p=p1, o=o1)\nMath(o1 + (1 -> m", 2, 5, "unclosed ( in Math"),
    ("Retrieval(s=s1, p=p1, o=o1)\nSort(set=o1, direction=up)", 2, 24, "direction must be"),
    ("Retrieval(s=s1, p=p1, o=o1)\nSort(set=o1, limit=0)", 2, 20, "limit must be"),
    ("Retrieval(s=s1, p=p1, o=o1)\nSort(direction=asc)", 2, 1, "needs set="),
    ("Retrieval(s=s1, p=p1, o=o1)\nDeduce(op=guess, left=o1)", 2, 11, "unknown Deduce op"),
    ("Retrieval(s=s1, p=p1, o=o1)\nDeduce(op=greater, left=o1)", 2, 1, "needs right="),
    ("Retrieval(s=s1, p=p1, o=o1)\nDeduce(op=greater, left=o1, right=2, premise=o1)", 2, 38,
     "takes no argument 'premise'"),
    ("Retrieval(s=s1, p=p1, o=o1)\nDeduce(left=o1, right=2)", 2, 1, "needs op="),
    ('Retrieval(s=s1, p=p1, o=o1)\nDeduce(op=judgement, statement="open)', 2, 32, "unterminated string"),
    ("Retrieval(s=s1, p=p1, o=o1) Output(o1)", 1, 29, "end of the line"),
    ("Step 1: first\nStep 2: second\n  Output(x)", 1, 1, "no operator"),
    ("Find(s=s1)", 1, 1, "expected an operator"),
    ("Retrieval(s=s1, p=p1, o=o1)\nOutput(o1) $", 2, 12, "unexpected character"),
    ("Retrieval(s=1abc, p=p1, o=o1)", 1, 14, "after the number"),
    ("", 1, 1, "empty plan"),
    ("  # only a comment\n", 2, 1, "empty plan"),
    ("Retrieval(s=s1, p=p1, o=o1", 1, 27, "expected ',' or ')'"),
    ("Step 1 Retrieval(s=s1, p=p1, o=o1)", 1, 8, "expected ':'"),
]


@pytest.mark.parametrize(("text", "line", "col", "words"), MALFORMED)
def test_malformed_plans_point_at_the_problem(text: str, line: int, col: int, words: str) -> None:
    with pytest.raises(LogicFormError) as info:
        parse_plan(text)
    err = info.value
    assert words in err.problem, err.pretty()
    assert (err.pos.line, err.pos.col) == (line, col), err.pretty()
    assert isinstance(err, KgbuildError) and err.line().startswith(f"logical form {line}:{col}: ")
    src_line, caret = err.pretty().split("\n")[1:]
    assert src_line == text.split("\n")[line - 1] if text else src_line == ""
    assert caret == " " * (col - 1) + "^"


def test_format_action_is_one_line() -> None:
    action = parse_action("Retrieval(s=s1:Person[Ada], p=p1:bornIn, o=o1:Place, o.name != \"x\")")
    assert format_action(action) == 'Retrieval(s=s1:Person[Ada], p=p1:bornIn, o=o1:Place, o.name != "x")'
    with pytest.raises(LogicFormError, match="expected one operator"):
        parse_action("Retrieval(s=s1, p=p1, o=o1)\nOutput(o1)")
