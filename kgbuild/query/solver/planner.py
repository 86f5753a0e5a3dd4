"""Question -> plan: the model decomposes the question into sub-questions with logical forms.

The reply is JSON {"plan": "<text>"} (`PlanReply`); the text is parsed with the logical-form
parser. `Gateway.ask` repairs what is safe (a ```json fence, prose, trailing commas); a reply that
is still not that object, or whose plan does not parse, is asked again (`max_reasks` times) with
the problem appended to the conversation -- for a plan, the parser's message with line, column and
caret, in the plan template's own `reask` words -- and the bad reply is dropped from the response
cache so a later run does not replay it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kgbuild.errors import KgbuildError
from kgbuild.llm.prompts import PromptLibrary
from kgbuild.llm.types import AskTrail, Gateway, UnusableReply
from kgbuild.query.llm_ask import MAX_REASKS, PlanReply, request_for
from kgbuild.query.solver.logic import LogicFormError, Plan, parse_plan

STAGE = "solve.plan"


class PlanError(KgbuildError):
    """The model gave no usable plan, even after being shown its mistake."""


@dataclass
class PlanResult:
    plan: Plan
    attempts: int
    errors: list[str] = field(default_factory=list)  # why earlier attempts were rejected


def plan_problem(reply: PlanReply) -> str | None:
    """Why the plan in a reply does not parse (the parser's message with its caret), or None."""
    try:
        parse_plan(reply.plan)
    except LogicFormError as exc:
        return exc.pretty()
    return None


class Planner:
    def __init__(self, gateway: Gateway, prompts: PromptLibrary, *, max_reasks: int = MAX_REASKS) -> None:
        self.gateway = gateway
        self.template = prompts.get("solve_plan")
        self.reask = self.template.reask(max_reasks, fragment="reask")
        self.max_reasks = max_reasks

    async def plan(self, question: str, memory: str) -> PlanResult:
        request = request_for(self.template, STAGE, self.template.render(question=question, memory=memory, error=""))
        trail = AskTrail()
        try:
            reply = await self.gateway.ask(request, PlanReply, reask=self.reask, check=plan_problem, trail=trail)
        except UnusableReply as exc:
            raise PlanError(STAGE, f"no usable plan after {exc.attempts} attempt(s)",
                            exc.errors[-1].split("\n")[0]) from None
        # Parsed again rather than carried out of the check: parsing is pure and takes microseconds.
        return PlanResult(parse_plan(reply.plan), trail.attempts, trail.errors)
