"""Recursive-descent parser of the logical-form language (grammar: docs/logical_forms.md).

`parse_plan(text)` returns a `Plan` or raises `LogicFormError` at the first problem, with line,
column and a caret. After the syntax, one pass checks the variables: every reference is bound
by an earlier operator, and no operator binds a name twice.
"""

from __future__ import annotations

from collections.abc import Iterator

from kgbuild.query.solver.logic.errors import LogicFormError, position
from kgbuild.query.solver.logic.lexer import Lexer, Token
from kgbuild.query.solver.logic.nodes import (
    COMPARATORS,
    DEDUCE_ARGS,
    DEDUCE_OPS,
    Action,
    ArgValue,
    Constraint,
    Deduce,
    Math,
    NodePattern,
    Output,
    Plan,
    Pos,
    PredicatePattern,
    Retrieval,
    Scalar,
    Sort,
    Step,
    VarRef,
)
from kgbuild.query.solver.math import MathError, parse_expression

OPERATORS = ("Retrieval", "Sort", "Math", "Deduce", "Output")
_DIRECTIONS = {"asc": "asc", "desc": "desc", "min": "asc", "max": "desc"}


def parse_plan(text: str) -> Plan:
    plan = _Parser(text).plan()
    _check_bindings(plan, text)
    return plan


def parse_action(text: str) -> Action:
    """One operator on its own (no step header): for tests and the trace."""
    plan = parse_plan(text)
    actions = [a for _, a in plan.actions()]
    if len(actions) != 1:
        raise LogicFormError(text, 0, f"expected one operator, found {len(actions)}")
    return actions[0]


class _Parser:
    def __init__(self, text: str) -> None:
        self.src = text
        self.lex = Lexer(text)

    # ------------------------------------------------------------ helpers

    def error(self, offset: int, problem: str, hint: str = "") -> LogicFormError:
        return LogicFormError(self.src, offset, problem, hint)

    def pos(self, offset: int) -> Pos:
        return position(self.src, offset)

    @staticmethod
    def describe(tok: Token) -> str:
        if tok.kind == "eof":
            return "the end of the plan"
        if tok.kind == "newline":
            return "the end of the line"
        return f"{tok.text!r}"

    def expect(self, punct: str, context: str = "") -> Token:
        tok = self.lex.next()
        if tok.kind != "punct" or tok.text != punct:
            where = f" {context}" if context else ""
            raise self.error(tok.offset, f"expected {punct!r}{where}, found {self.describe(tok)}")
        return tok

    def accept(self, punct: str) -> Token | None:
        tok = self.lex.peek()
        if tok.kind == "punct" and tok.text == punct:
            return self.lex.next()
        return None

    def name(self, what: str) -> Token:
        tok = self.lex.next()
        if tok.kind != "ident":
            raise self.error(tok.offset, f"expected {what}, found {self.describe(tok)}")
        return tok

    def label(self, what: str) -> str:
        tok = self.lex.next()
        if tok.kind not in ("ident", "string") or not str(tok.value).strip():
            raise self.error(tok.offset, f"expected {what} (a name or a \"quoted text\"), found {self.describe(tok)}")
        return str(tok.value).strip()

    def scalar(self) -> Scalar:
        tok = self.lex.next()
        if tok.kind == "ident":
            return VarRef(str(tok.value), self.pos(tok.offset))
        if tok.kind in ("string", "number"):
            return tok.value
        raise self.error(tok.offset, f"expected a variable, a \"text\" or a number, found {self.describe(tok)}")

    def arguments(self, operator: str) -> Iterator[Token]:
        """Iterate over `name=` of a parenthesised argument list (yields the name, not yet consumed);
        the caller parses each name and value."""
        self.expect("(", f"after {operator}")
        if self.accept(")"):
            return
        while True:
            tok = self.lex.peek()
            if tok.kind != "ident":
                raise self.error(tok.offset,
                                 f"expected an argument name in {operator}(...), found {self.describe(tok)}")
            yield tok
            if self.accept(")"):
                return
            sep = self.lex.next()
            if sep.kind != "punct" or sep.text != ",":
                raise self.error(sep.offset, f"expected ',' or ')' in {operator}(...), found {self.describe(sep)}")
            if self.accept(")"):  # a trailing comma
                return

    def target(self, required: bool, operator: str) -> str | None:
        if self.accept("->"):
            return str(self.name("a variable name after ->").value)
        if required:
            tok = self.lex.peek()
            raise self.error(tok.offset, f"{operator} must bind its result: expected '->', found {self.describe(tok)}",
                             f"e.g. {operator}(...) -> m1")
        return None

    # ------------------------------------------------------------ plan and steps

    def plan(self) -> Plan:
        steps: list[Step] = []
        question: str | None = None  # None: actions before any header
        qpos: Pos | None = None
        actions: list[Action] = []
        while True:
            tok = self.lex.peek()
            if tok.kind == "newline":
                self.lex.next()
                continue
            if tok.kind == "eof":
                break
            if tok.kind == "ident" and str(tok.value).lower() == "step":
                if question is not None or actions:
                    steps.append(self.close_step(question, qpos, actions))
                question, qpos = self.header()
                actions = []
                continue
            actions.append(self.action())
            end = self.lex.peek()
            if end.kind not in ("newline", "eof"):
                raise self.error(end.offset,
                                 f"expected the end of the line after the operator, found {self.describe(end)}",
                                 "one operator per line")
        if question is not None or actions:
            steps.append(self.close_step(question, qpos, actions))
        if not steps:
            raise self.error(len(self.src), "empty plan", "write at least one operator, e.g. Output(o1)")
        return Plan(tuple(steps))

    def close_step(self, question: str | None, qpos: Pos | None, actions: list[Action]) -> Step:
        if not actions:
            assert qpos is not None
            raise self.error(qpos.offset, "this step has no operator", "put e.g. Retrieval(...) on the next line")
        return Step(question or "", tuple(actions), qpos)

    def header(self) -> tuple[str, Pos]:
        start = self.lex.next()
        if self.lex.peek().kind == "number":
            self.lex.next()
        self.expect(":", "after Step")
        text, _ = self.lex.raw_line()
        return " ".join(text.split()), self.pos(start.offset)  # runs of spaces are not meaningful

    def action(self) -> Action:
        tok = self.lex.next()
        word = str(tok.value).lower() if tok.kind == "ident" else ""
        at = self.pos(tok.offset)
        if word == "retrieval":
            return self.retrieval(at)
        if word == "sort":
            return self.sort(at)
        if word == "math":
            return self.math(at)
        if word == "deduce":
            return self.deduce(at)
        if word == "output":
            return self.output(at)
        raise self.error(tok.offset,
                         f"expected an operator ({', '.join(OPERATORS)}) or 'Step N:', found {self.describe(tok)}")

    # ------------------------------------------------------------ operators

    def retrieval(self, at: Pos) -> Retrieval:
        slots: dict[str, NodePattern | PredicatePattern] = {}
        constraints: list[Constraint] = []
        for _name in self.arguments("Retrieval"):
            key = self.lex.next()
            name = str(key.value)
            if name not in ("s", "p", "o"):
                after = self.lex.peek()
                if after.kind == "punct" and after.text in COMPARATORS:
                    # `time = 1939`: shorthand for p.time, a property or qualifier of the triple
                    constraints.append(self.comparison("p", key, key))
                    continue
                raise self.error(key.offset, f"unknown Retrieval argument {name!r}",
                                 "use s=, p=, o= or a constraint like o.year > 1940 or time = 1939")
            if self.accept("."):
                constraints.append(self.constraint(name, key))
                continue
            self.expect("=", f"after {name}")
            if name in slots:
                raise self.error(key.offset, f"{name}= given twice")
            slots[name] = self.predicate() if name == "p" else self.node()
        missing = [n for n in ("s", "p", "o") if n not in slots]
        if missing:
            raise self.error(at.offset, f"Retrieval needs s=, p= and o=; {missing[0]}= is missing",
                             "e.g. Retrieval(s=s1:Person[Ada], p=p1:bornIn, o=o1:Place)")
        s, p, o = slots["s"], slots["p"], slots["o"]
        assert isinstance(s, NodePattern) and isinstance(p, PredicatePattern) and isinstance(o, NodePattern)
        return Retrieval(s, p, o, tuple(constraints), at)

    def node(self) -> NodePattern:
        var = self.name("a variable like s1 or o1")
        type_ = self.label("a type after ':'") if self.accept(":") else None
        mention = None
        bracket = self.accept("[")
        if bracket:
            mention, _ = self.lex.raw_mention(bracket.offset)
            if not mention:
                raise self.error(bracket.offset, "empty mention []", "write the name, e.g. s1:Person[Michael Curtiz]")
        return NodePattern(str(var.value), type_, mention, self.pos(var.offset))

    def predicate(self) -> PredicatePattern:
        var = self.name("a predicate variable like p1:directed")
        name = self.label("a predicate after ':'") if self.accept(":") else None
        if self.lex.peek().kind == "punct" and self.lex.peek().text == "[":
            raise self.error(self.lex.peek().offset, "a predicate has no [mention]", "write p1:directed")
        return PredicatePattern(str(var.value), name, self.pos(var.offset))

    def constraint(self, target: str, key: Token) -> Constraint:
        return self.comparison(target, self.name(f"a property name after {target}."), key)

    def comparison(self, target: str, prop: Token, key: Token) -> Constraint:
        op = self.lex.next()
        if op.kind != "punct" or op.text not in COMPARATORS:
            raise self.error(op.offset, f"expected a comparison ({' '.join(COMPARATORS)}), found {self.describe(op)}")
        return Constraint(target, str(prop.value), op.text, self.scalar(), self.pos(key.offset))  # type: ignore[arg-type]

    def sort(self, at: Pos) -> Sort:
        values: dict[str, object] = {}
        for _name in self.arguments("Sort"):
            key = self.lex.next()
            name = str(key.value)
            self.expect("=", f"after {name}")
            if name in values:
                raise self.error(key.offset, f"{name}= given twice")
            if name in ("set", "by"):
                ref = self.name("a variable")
                values[name] = VarRef(str(ref.value), self.pos(ref.offset))
            elif name == "direction":
                d = self.lex.next()
                if str(d.value).lower() not in _DIRECTIONS:
                    raise self.error(d.offset, f"direction must be asc or desc (or min/max), found {self.describe(d)}")
                values[name] = _DIRECTIONS[str(d.value).lower()]
            elif name == "limit":
                n = self.lex.next()
                if n.kind != "number" or not isinstance(n.value, int) or n.value < 1:
                    raise self.error(n.offset, f"limit must be a whole number of at least 1, found {self.describe(n)}")
                values[name] = n.value
            else:
                raise self.error(key.offset, f"unknown Sort argument {name!r}", "use set=, by=, direction=, limit=")
        if "set" not in values:
            raise self.error(at.offset, "Sort needs set=", "e.g. Sort(set=o1, direction=desc, limit=1)")
        target = self.target(False, "Sort")
        return Sort(values["set"], values.get("direction", "asc"), values.get("limit"),  # type: ignore[arg-type]
                    values.get("by"), target, at)  # type: ignore[arg-type]

    def math(self, at: Pos) -> Math:
        open_ = self.expect("(", "after Math")
        raw, start = self.lex.raw_expression(open_.offset)
        try:
            expr = parse_expression(raw)
        except MathError as exc:
            raise self.error(start + exc.offset, exc.problem) from None
        self.expect(")", "after the Math expression")
        target = self.target(True, "Math")
        assert target is not None
        return Math(raw.strip(), target, expr.variables, at)

    def deduce(self, at: Pos) -> Deduce:
        op: str | None = None
        args: list[tuple[str, ArgValue]] = []
        seen: set[str] = set()
        for _name in self.arguments("Deduce"):
            key = self.lex.next()
            name = str(key.value)
            self.expect("=", f"after {name}")
            if name in seen or (name == "op" and op is not None):
                raise self.error(key.offset, f"{name}= given twice")
            if name == "op":
                value = self.lex.next()
                op = str(value.value).lower()
                if op not in DEDUCE_OPS:
                    raise self.error(value.offset, f"unknown Deduce op {self.describe(value)}",
                                     f"one of {', '.join(DEDUCE_OPS)}")
                continue
            seen.add(name)
            args.append((name, self.arg_value()))
            if op is not None:
                self.check_deduce_arg(op, name, key)
        if op is None:
            raise self.error(at.offset, "Deduce needs op=", f"one of {', '.join(DEDUCE_OPS)}")
        required, optional = DEDUCE_ARGS[op]
        for name, _ in args:  # arguments written before op=
            if name not in required + optional:
                raise self.error(at.offset, f"Deduce op={op} takes no argument {name!r}",
                                 f"it takes {', '.join(required + optional)}")
        missing = [n for n in required if n not in seen]
        if missing:
            raise self.error(at.offset, f"Deduce op={op} needs {missing[0]}=",
                             f"it takes {', '.join(required + optional)}")
        target = self.target(False, "Deduce")
        return Deduce(op, tuple(args), target, at)  # type: ignore[arg-type]

    def check_deduce_arg(self, op: str, name: str, key: Token) -> None:
        required, optional = DEDUCE_ARGS[op]
        if name not in required + optional:
            raise self.error(key.offset, f"Deduce op={op} takes no argument {name!r}",
                             f"it takes {', '.join(required + optional)}")

    def arg_value(self) -> ArgValue:
        if self.accept("["):
            items: list[Scalar] = []
            if self.accept("]"):
                return ()
            while True:
                items.append(self.scalar())
                if self.accept("]"):
                    return tuple(items)
                self.expect(",", "between list items")

        return self.scalar()

    def output(self, at: Pos) -> Output:
        self.expect("(", "after Output")
        refs: list[VarRef] = []
        while True:
            tok = self.name("a variable to output")
            refs.append(VarRef(str(tok.value), self.pos(tok.offset)))
            if self.accept(")"):
                return Output(tuple(refs), at)
            self.expect(",", "between Output variables")


# ---------------------------------------------------------------- variables


def _check_bindings(plan: Plan, src: str) -> None:
    bound: dict[str, Pos | None] = {}

    def fail(pos: Pos | None, problem: str, hint: str = "") -> LogicFormError:
        return LogicFormError(src, pos.offset if pos else 0, problem, hint)

    def use(ref: VarRef) -> None:
        if ref.name not in bound:
            raise fail(ref.pos, f"variable {ref.name} is not bound by an earlier operator")

    def bind(name: str, pos: Pos | None) -> None:
        if name in bound:
            first = bound[name]
            raise fail(pos, f"variable {name} is already bound" + (f" (line {first.line})" if first else ""),
                       "choose a new name")
        bound[name] = pos

    for _, action in plan.actions():
        if isinstance(action, Retrieval):
            for c in action.constraints:
                if isinstance(c.value, VarRef):
                    use(c.value)
            names = [action.s.var, action.p.var, action.o.var]
            if len(set(names)) < 3:
                raise fail(action.pos, "s, p and o must be different variables")
            for slot in (action.s, action.o):
                if slot.var in bound and (slot.type or slot.mention):
                    raise fail(slot.pos, f"variable {slot.var} is already bound; refer to it as just {slot.var}")
                if slot.var not in bound:
                    bind(slot.var, slot.pos)
            if action.p.var in bound and action.p.name:
                raise fail(action.p.pos,
                           f"variable {action.p.var} is already bound; refer to it as just {action.p.var}")
            if action.p.var not in bound:
                bind(action.p.var, action.p.pos)
        elif isinstance(action, Sort):
            use(action.set)
            if action.by is not None:
                use(action.by)
            if action.target is not None:
                bind(action.target, action.pos)
        elif isinstance(action, Math):
            for name in action.variables:
                if name not in bound:
                    at = src.find(name, action.pos.offset) if action.pos else -1
                    raise fail(position(src, at) if at >= 0 else action.pos,
                               f"variable {name} in Math is not bound by an earlier operator")
            bind(action.target, action.pos)
        elif isinstance(action, Deduce):
            for _, value in action.args:
                for item in value if isinstance(value, tuple) else (value,):
                    if isinstance(item, VarRef):
                        use(item)
            if action.target is not None:
                bind(action.target, action.pos)
        elif isinstance(action, Output):
            for ref in action.vars:
                use(ref)
