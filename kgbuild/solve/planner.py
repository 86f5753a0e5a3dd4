"""Question -> plan: the model decomposes the question into sub-questions with logical forms.

The reply is JSON {"plan": "<text>"}; the text is parsed with the logical-form parser. A reply
that is not JSON or does not parse is asked again once, with the parser's message (line, column
and caret) appended to the conversation, and the bad reply is dropped from the response cache so
a later run does not replay it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kgbuild.errors import KgbuildError
from kgbuild.llm.prompts import PromptLibrary
from kgbuild.llm.types import ChatMessage
from kgbuild.solve.llm_ask import SolveGateway, parse_object, request_for
from kgbuild.solve.logic import LogicFormError, Plan, parse_plan

STAGE = "solve.plan"


class PlanError(KgbuildError):
    """The model gave no usable plan, even after being shown its mistake."""


@dataclass
class PlanResult:
    plan: Plan
    attempts: int
    errors: list[str] = field(default_factory=list)  # why earlier attempts were rejected


def read_plan(reply_text: str) -> Plan:
    """The plan in a reply; LogicFormError (or PlanError for a reply that is not the JSON asked for)."""
    data = parse_object(reply_text)
    if data is None or not isinstance(data.get("plan"), str):
        raise PlanError(STAGE, 'the reply is not the JSON object {"plan": "..."}',
                        f"got {reply_text.strip()[:80]!r}")
    return parse_plan(data["plan"])


class Planner:
    def __init__(self, gateway: SolveGateway, prompts: PromptLibrary, *, max_reasks: int = 1) -> None:
        self.gateway = gateway
        self.template = prompts.get("solve_plan")
        self.max_reasks = max_reasks

    async def plan(self, question: str, memory: str) -> PlanResult:
        messages = self.template.render(question=question, memory=memory, error="")
        errors: list[str] = []
        for attempt in range(1, self.max_reasks + 2):
            request = request_for(self.template, STAGE, messages)
            result = await self.gateway.chat(request)
            try:
                return PlanResult(read_plan(result.text), attempt, errors)
            except (LogicFormError, PlanError) as exc:
                self.gateway.forget(request)
                message = exc.pretty() if isinstance(exc, LogicFormError) else exc.line()
                errors.append(message)
                messages = messages + [
                    ChatMessage(role="assistant", content=result.text),
                    ChatMessage(role="user", content=self.template.fragment("reask", error=message)),
                ]
        raise PlanError(STAGE, f"no usable plan after {len(errors)} attempt(s)", errors[-1].split("\n")[0])
