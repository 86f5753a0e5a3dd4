"""Runs a plan: each operator in order, every one recorded as a TraceStep.

Retrieval goes to the graph (kgbuild.query.solver.spo), Sort and Math are computed here (Math through
the safe evaluator), Deduce is decided here for greater/less/equal and by the model for
entailment, judgement and choice, Output collects the answer. A step's failure (a Math error, a
variable that came back empty) is recorded in its trace and the plan goes on: the solver's judge
decides whether what was found suffices.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from kgbuild.errors import KgbuildError
from kgbuild.llm.prompts import PromptLibrary
from kgbuild.llm.types import Gateway, LLMCallError
from kgbuild.query.llm_ask import DeduceReply, ask_step
from kgbuild.query.solver.graph_view import GraphView
from kgbuild.query.solver.logic import (
    Action,
    Deduce,
    Math,
    Output,
    Plan,
    Retrieval,
    Sort,
    VarRef,
    bound_by,
    format_action,
)
from kgbuild.query.solver.math import parse_expression
from kgbuild.query.solver.spo import Outcome, RetrievalOp, compare
from kgbuild.query.solver.state import ExecState, StepAnswer, Value, texts
from kgbuild.query.types import Number, Retriever, StepResult, TraceStep

_COMPARISONS = {"greater": ">", "less": "<", "equal": "="}


class Executor:
    def __init__(self, gateway: Gateway, retriever: Retriever | None, graph: GraphView | None,
                 prompts: PromptLibrary, *, k: int = 5, clock: Callable[[], float] = time.perf_counter) -> None:
        self.gateway = gateway
        self.graph = graph
        self.prompts = prompts
        self.clock = clock
        self.retrieval = RetrievalOp(gateway, retriever, graph, prompts, k)

    def calls(self) -> int:
        """Calls the gateway has sent so far: a step's cost is the difference around it."""
        return self.gateway.usage.total.calls

    async def run(self, plan: Plan, question: str, state: ExecState | None = None, *, first_step: int = 1) -> ExecState:
        """Execute `plan` (for `question`) into `state`; trace steps are numbered from `first_step`."""
        state = state or ExecState()
        # Variables are local to a plan: a supplementary question's plan may reuse s1 and o1.
        # What earlier plans found stays in the memory (answers, triples, chunks, outputs): the
        # solver's fallback answer is what all of its plans output, not just the last one.
        state.bindings, state.pairs = {}, {}
        number = first_step
        for index, step in enumerate(plan.steps):
            before_triples, before_chunks = len(state.triples), len(state.chunks)
            last: list[str] = []
            for action in step.actions:
                before = set(state.bindings)
                record = await self.execute(action, step.question or question, state, number)
                state.trace.append(record)
                number += 1
                last = _answer_vars(action, before) or last
            answer = "; ".join(t for name in last for t in texts(state.bindings.get(name, [])))
            state.answers.append(StepAnswer(step.question or f"step {index + 1} of: {question}", answer,
                                            state.triples[before_triples:], state.chunks[before_chunks:]))
        return state

    async def read(self, question: str, state: ExecState, number: int) -> None:
        """No plan: answer the question from retrieved chunks alone, as one traced step."""
        started, calls = self.clock(), self.calls()
        out = Outcome()
        before = len(state.chunks)
        answers = await self.retrieval.read(question, [], state, out)
        state.trace.append(TraceStep(step=number, question=question, logical_form="",
                                     result=StepResult(how=out.how or "nothing", answers=answers, notes=out.notes,
                                                       chunks=[c.id for c in out.chunks]),
                                     seconds=round(self.clock() - started, 6), llm_calls=self.calls() - calls))
        state.answers.append(StepAnswer(question, "; ".join(answers), [], state.chunks[before:]))

    async def execute(self, action: Action, question: str, state: ExecState, number: int) -> TraceStep:
        started, calls = self.clock(), self.calls()
        try:
            result = await self.dispatch(action, question, state)
        except KgbuildError as exc:  # a Math error, a model call that failed for good
            result = StepResult(error=exc.line())
            if isinstance(exc, LLMCallError):
                state.model_errors.append(exc.line())
            for name in bound_by(action):
                state.bindings.setdefault(name, [])
        return TraceStep(step=number, question=question, logical_form=format_action(action), result=result,
                         seconds=round(self.clock() - started, 6), llm_calls=self.calls() - calls)

    async def dispatch(self, action: Action, question: str, state: ExecState) -> StepResult:
        if isinstance(action, Retrieval):
            out = await self.retrieval.run(action, question, state)
            bound = {n: texts(state.bindings.get(n, [])) for n in (action.s.var, action.p.var, action.o.var)}
            quals = {e.id: state.qualifiers[e.id] for e in out.edges if state.qualifiers.get(e.id)}
            return StepResult(how=out.how, bound=bound, triples=[e.id for e in out.edges],
                              chunks=[c.id for c in out.chunks], notes=out.notes or None, qualifiers=quals or None)
        if isinstance(action, Sort):
            return self.sort(action, state)
        if isinstance(action, Math):
            return self.math(action, state)
        if isinstance(action, Deduce):
            return await self.deduce(action, question, state)
        if isinstance(action, Output):
            for ref in action.vars:
                state.add_output(ref.name, state.bindings.get(ref.name, []))
            return StepResult(output={ref.name: texts(state.bindings.get(ref.name, [])) for ref in action.vars})
        raise TypeError(f"unknown action {action!r}")

    # ------------------------------------------------------------ Sort and Math

    def sort(self, action: Sort, state: ExecState) -> StepResult:
        values = state.bindings.get(action.set.name, [])
        keyed: list[tuple[Value, Value | None]] = []
        for v in values:
            if action.by is None:
                keyed.append((v, v))
                continue
            linked = [w for k, w in state.pairs.get((action.set.name, action.by.name), []) if k == v.key]
            keyed.append((v, linked[0] if linked else None))
        # Values without a key go last whatever the direction; numbers before text.
        with_key = [(v, k) for v, k in keyed if k is not None]
        numeric = all(k.number() is not None for _, k in with_key)
        with_key.sort(key=lambda t: t[1].number() if numeric else t[1].text.lower(),  # type: ignore[arg-type,return-value]
                      reverse=action.direction == "desc")
        ordered = [v for v, _ in with_key] + [v for v, k in keyed if k is None]
        if action.limit is not None:
            ordered = ordered[: action.limit]
        target = action.target or action.set.name
        state.bind(target, ordered)
        if action.target:  # the sorted values keep their links to other variables
            for (a, b), pairs in list(state.pairs.items()):
                if a == action.set.name:
                    state.pairs[(target, b)] = pairs
        return StepResult(bound={target: texts(ordered)})

    def math(self, action: Math, state: ExecState) -> StepResult:
        env: dict[str, int | float | list[Number]] = {}
        for name in action.variables:
            numbers = [v.number() for v in state.bindings.get(name, [])]
            env[name] = numbers[0] if len(numbers) == 1 and numbers[0] is not None else numbers
        value = parse_expression(action.expr).evaluate(env)
        if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
            value = int(value)
        elif isinstance(value, float):
            value = round(value, 6)
        state.bind(action.target, [Value(text=str(value))])
        return StepResult(bound={action.target: [str(value)]}, inputs=env)

    # ------------------------------------------------------------ Deduce

    def arg_values(self, value: Any, state: ExecState) -> list[Value]:
        items = value if isinstance(value, tuple) else (value,)
        out: list[Value] = []
        for item in items:
            out.extend(state.bindings.get(item.name, []) if isinstance(item, VarRef) else [Value(text=str(item))])
        return out

    async def deduce(self, action: Deduce, question: str, state: ExecState) -> StepResult:
        if action.op in _COMPARISONS:
            left = self.arg_values(action.arg("left"), state)
            right = self.arg_values(action.arg("right"), state)
            if not left or not right:
                verdict = "unknown"
            elif action.op == "equal":
                same_keys = {v.key for v in left} == {v.key for v in right}
                pairwise = len(left) == len(right) and all(compare(a, "=", b) for a, b in zip(left, right, strict=True))
                verdict = str(same_keys or pairwise).lower()
            else:
                verdict = str(compare(left[0], _COMPARISONS[action.op], right[0])).lower()
            result = StepResult(verdict=verdict, decided_by="kgbuild")
        else:
            args = {name: texts(self.arg_values(value, state)) for name, value in action.args}
            evidence = [state.triple_text(t) for t in state.triples[-20:]]
            evidence += [c.text[:400] for c in state.chunks[-5:]]
            reply = await ask_step(self.gateway, self.prompts, "solve_deduce", "solve.deduce", DeduceReply,
                                   unknown=DeduceReply(result="unknown"), op=action.op, question=question,
                                   arguments=json.dumps(args, ensure_ascii=False),
                                   evidence="\n".join(evidence) or "(none)")
            verdict = reply.result.strip() or "unknown"
            result = StepResult(verdict=verdict, decided_by="model", reason=reply.reason[:300])
        if action.target:
            state.bind(action.target, [Value(text=verdict)])
            result.bound = {action.target: [verdict]}
        return result


def _answer_vars(action: Action, before: set[str]) -> list[str]:
    """The variables that answer a step: what an Output names, else the unknown a Retrieval filled
    (o, else s, else the predicate), else what the operator bound."""
    if isinstance(action, Output):
        return [v.name for v in action.vars]
    if isinstance(action, Retrieval):
        fresh = [v for v in (action.o.var, action.s.var, action.p.var) if v not in before]
        return fresh[:1]
    return bound_by(action)
