"""The solver loop of KAG §2.3: plan, execute, judge, reflect, with a global memory.

    round 1: plan the question -> execute -> judge: resolved? -> answer
             not resolved -> reflect: supplementary questions
    round 2: plan and execute each supplementary question (memory holds every earlier finding)
             -> judge ... up to max_iterations rounds; then the best answer, resolved=False.

Each step asks the model through `Gateway.ask` for its own reply model and re-asks after a reply
it cannot use (planning, judging and reflecting at most `max_reasks` times, the executor's answer
and deduce steps `llm_ask.MAX_REASKS` times); a judgement or reflection that stays unusable reads
as "not resolved" / "no further questions".

Everything the loop did is in the Answer: the printed plans, a TraceStep per plan, operator,
judgement and reflection (with the model calls each made), the triples and chunks used, the
citations, and the calls and tokens taken from the gateway's own accounting.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from kgbuild.llm.prompts import PromptLibrary
from kgbuild.llm.types import Gateway
from kgbuild.query.llm_ask import MAX_REASKS, JudgeReply, ReflectReply, ask_step
from kgbuild.query.retrieval.text import content_tokens
from kgbuild.query.solver.executor import Executor
from kgbuild.query.solver.graph_view import GraphView
from kgbuild.query.solver.logic import format_plan
from kgbuild.query.solver.planner import PlanError, Planner
from kgbuild.query.solver.state import ExecState
from kgbuild.query.types import Answer, Citation, Retriever, StepResult, TraceStep

NOTHING_YET = "(nothing yet)"
MAX_QUESTIONS = 3  # supplementary questions taken per round


def render_memory(state: ExecState, *, triples_per_answer: int = 8, chunks_per_answer: int = 3) -> str:
    """The findings so far, numbered, for the planner, the judge and the reflection."""
    if not state.answers:
        return NOTHING_YET
    lines = []
    for i, a in enumerate(state.answers, 1):
        lines.append(f"{i}. {a.question} -> {a.answer or '(not found)'}")
        lines += [f"   {state.triple_text(t)}" for t in a.triples[:triples_per_answer]]
        lines += [f"   [{c.id}] {' '.join(c.text.split())[:300]}" for c in a.chunks[:chunks_per_answer]]
    return "\n".join(lines)


class Solver:
    def __init__(self, gateway: Gateway, retriever: Retriever | None, graph_view: GraphView | None,
                 prompts: PromptLibrary, max_iterations: int = 3, *, k: int = 5, max_reasks: int = MAX_REASKS,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        self.gateway = gateway
        self.graph = graph_view
        self.prompts = prompts
        self.max_iterations = max(1, max_iterations)
        self.clock = clock
        self.max_reasks = max_reasks
        self.planner = Planner(gateway, prompts, max_reasks=max_reasks)
        self.executor = Executor(gateway, retriever, graph_view, prompts, k=k, clock=clock)

    async def solve(self, question: str) -> Answer:
        started = self.clock()
        usage = self.gateway.usage.total
        calls0, prompt0, completion0, waited0 = usage.calls, usage.prompt_tokens, usage.completion_tokens, usage.seconds
        state = ExecState()
        plans: list[str] = []
        asked = {question.strip().lower()}
        questions = [question]
        resolved, answer, missing = False, "", ""
        for round_ in range(1, self.max_iterations + 1):
            for q in questions:
                await self.plan_and_run(q, state, plans)
            resolved, answer, missing = await self.judge(question, state)
            if resolved or round_ == self.max_iterations:
                break
            questions = [q for q in await self.reflect(question, state, missing) if q.strip().lower() not in asked]
            if not questions:
                break
            asked.update(q.strip().lower() for q in questions)
        if not answer:  # the judge gave nothing usable: say what the plans output
            answer = "; ".join(v.text for values in state.outputs.values() for v in values)
        usage = self.gateway.usage.total
        return Answer(question=question, answer=answer, resolved=resolved, mode="solver", failure=failure_of(state),
                      citations=self.citations(state, question, answer, resolved), triples=state.triples,
                      chunks=sorted(state.chunks, key=lambda c: -c.score), plan=plans, trace=state.trace,
                      llm_calls=usage.calls - calls0, prompt_tokens=usage.prompt_tokens - prompt0,
                      completion_tokens=usage.completion_tokens - completion0,
                      seconds=round(self.clock() - started, 6), model_seconds=round(usage.seconds - waited0, 6))

    # ------------------------------------------------------------ the steps of a round

    def _traced(self, state: ExecState, question: str, logical_form: str, result: StepResult, started: float,
                calls: int) -> None:
        state.trace.append(TraceStep(step=len(state.trace) + 1, question=question, logical_form=logical_form,
                                     result=result, seconds=round(self.clock() - started, 6),
                                     llm_calls=self.executor.calls() - calls))

    async def plan_and_run(self, question: str, state: ExecState, plans: list[str]) -> None:
        started, calls = self.clock(), self.executor.calls()
        try:
            planned = await self.planner.plan(question, render_memory(state))
        except PlanError as exc:
            # No plan the parser accepts: answer this question from text retrieval alone.
            state.unusable_plans.append(exc.line())
            self._traced(state, question, "", StepResult(plan="failed", error=exc.line()), started, calls)
            await self.executor.read(question, state, len(state.trace) + 1)
            return
        printed = format_plan(planned.plan)
        plans.append(printed)
        state.plans_made += 1
        self._traced(state, question, printed, StepResult(plan="ok", attempts=planned.attempts,
                                                          rejected=planned.errors), started, calls)
        await self.executor.run(planned.plan, question, state, first_step=len(state.trace) + 1)

    async def judge(self, question: str, state: ExecState) -> tuple[bool, str, str]:
        started, calls = self.clock(), self.executor.calls()
        reply = await ask_step(self.gateway, self.prompts, "solve_judge", "solve.judge", JudgeReply,
                               unknown=JudgeReply(resolved=False), max_reasks=self.max_reasks,
                               question=question, memory=render_memory(state))
        resolved, answer, missing = reply.resolved, reply.answer.strip(), reply.missing.strip()
        self._traced(state, question, "", StepResult(judge="resolved" if resolved else "unresolved",
                                                     answer=answer, missing=missing), started, calls)
        return resolved, answer, missing

    async def reflect(self, question: str, state: ExecState, missing: str) -> list[str]:
        started, calls = self.clock(), self.executor.calls()
        reply = await ask_step(self.gateway, self.prompts, "solve_reflect", "solve.reflect", ReflectReply,
                               unknown=ReflectReply(questions=[]), max_reasks=self.max_reasks,
                               question=question, memory=render_memory(state), missing=missing or "(not said)")
        questions = reply.questions[:MAX_QUESTIONS]
        self._traced(state, question, "", StepResult(reflect=questions), started, calls)
        return questions

    # ------------------------------------------------------------ evidence

    def citations(self, state: ExecState, question: str, answer: str, resolved: bool) -> list[Citation]:
        """Only evidence that supports the answer given. An empty answer cites nothing. A resolved one
        cites the chunks behind the triples used (SUPPORTED_BY) and those the model answered from;
        an unresolved one (the judge did not accept it) only those of them, and of the retrieved
        chunks, that state it (`supports`): a best guess does not borrow the authority of passages
        that say nothing of it."""
        if not answer.strip():
            return []
        ids = list(dict.fromkeys([c for t in state.triples for c in t.chunk_ids] + state.cited_chunks))
        ranked = [c.id for c in sorted(state.chunks, key=lambda c: -c.score)]
        known = {c.id: (c.doc_id, c.text) for c in state.chunks}
        if not resolved or not ids:
            ids = list(dict.fromkeys(ids + ranked))
        missing = [i for i in ids if i not in known]
        if missing and self.graph is not None:
            known.update({c.id: (c.doc_id, c.text) for c in self.graph.chunks(missing)})
        if not resolved or (not state.triples and not state.cited_chunks):
            ids = [i for i in ids if supports(known.get(i, ("", ""))[1], question, answer)]
        return [Citation(chunk_id=i, doc_id=known.get(i, ("", ""))[0] or i.split("#")[0],
                         text=" ".join(known.get(i, ("", ""))[1].split())[:500]) for i in ids]


def failure_of(state: ExecState) -> str:
    """Why the solver could not do its work, in one line ("" when it could): no question of any
    round got a usable plan, or model calls inside steps failed for good."""
    problems = []
    if state.unusable_plans and not state.plans_made:
        problems.append(f"no usable plan for any of {len(state.unusable_plans)} question(s) "
                        f"(answered from retrieved text alone): {state.unusable_plans[0]}")
    if state.model_errors:
        problems.append(f"{len(state.model_errors)} model call(s) failed for good: {state.model_errors[0]}")
    return "; ".join(problems)


def supports(text: str, question: str, answer: str) -> bool:
    """Whether a passage states (a part of) the answer: for some `;`-separated part, at least half of
    the part's content words that the question does not already contain occur in the passage."""
    have = set(content_tokens(text))
    asked = set(content_tokens(question))
    for part in answer.split(";"):
        words = set(content_tokens(part))
        new = words - asked or words
        if new and len(new & have) * 2 >= len(new):
            return True
    return False
