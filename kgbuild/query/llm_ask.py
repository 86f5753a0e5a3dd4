"""The solver's questions to the model: one reply model per step, asked through `Gateway.ask`; the
tolerant field types (`Text`, `Texts`, `Numbers`) every strategy's replies use.

Every step (plan, judge, reflect, answer from passages, deduce) names the JSON it wants as a
pydantic model. A reply is repaired where that is safe (a ```json fence, prose around it, trailing
commas) and re-asked with what was wrong; a step that still has no usable reply takes its
"don't know" record, so one odd reply never fails the whole question. A call that fails for good
(the endpoint is down) still does.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from kgbuild.llm.prompts import PromptLibrary, PromptTemplate
from kgbuild.llm.types import ChatMessage, ChatRequest, Gateway, R, UnusableReply

MAX_REASKS = 1  # re-asks per step: a model that fails twice at a small JSON object rarely gets it on a third try


def _text(value: Any) -> Any:
    """A number or a truth value where text is asked for ("answer": 1944) is that text."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (int, float)):
        return str(value)
    return "" if value is None else value


def _texts(value: Any) -> Any:
    """One item where a list is asked for is a list of one; empty items are left out."""
    if value is None:
        return []
    items = [_text(v) for v in (value if isinstance(value, list) else [value])]
    return [v.strip() for v in items if isinstance(v, str) and v.strip()]


def _numbers(value: Any) -> Any:
    """[1, "3"], "1, 3", 2 -> [1, 3] / [2]; "none", null, [] -> []."""
    if value is None:
        return []
    items = value if isinstance(value, list) else [value]
    out: list[int] = []
    for item in items:
        if isinstance(item, bool):
            continue
        if isinstance(item, int):
            out.append(item)
        elif isinstance(item, float) and item.is_integer():
            out.append(int(item))
        elif isinstance(item, str):
            out.extend(int(n) for n in re.findall(r"\d+", item))
    return out


Text = Annotated[str, BeforeValidator(_text)]
Texts = Annotated[list[str], BeforeValidator(_texts)]
Numbers = Annotated[list[int], BeforeValidator(_numbers)]


class _Reply(BaseModel):
    # A model adding a key of its own ("confidence") should not cost a re-ask.
    model_config = ConfigDict(extra="ignore")


class PlanReply(_Reply):
    plan: str = Field(min_length=1)  # the logical-form text; parsed by the planner's check


class JudgeReply(_Reply):
    resolved: bool
    answer: Text = ""
    missing: Text = ""


class ReflectReply(_Reply):
    questions: Texts


class AnswerReply(_Reply):
    found: bool
    answers: Texts = Field(default_factory=list)
    chunk_ids: Texts = Field(default_factory=list)


class DeduceReply(_Reply):
    result: Text
    reason: Text = ""


def request_for(template: PromptTemplate, stage: str, messages: list[ChatMessage],
                max_tokens: int | None = 1024) -> ChatRequest:
    return ChatRequest(stage=stage, template=template.key, messages=messages, json_mode=True,
                       temperature=0.0, max_tokens=max_tokens)


async def ask_step(gateway: Gateway, prompts: PromptLibrary, name: str, stage: str, reply_model: type[R], *,
                   unknown: R, max_reasks: int = MAX_REASKS, **values: object) -> R:
    """Render the prompt `name` with `values` and ask for a `reply_model` (accounted under `stage`);
    `unknown` when no reply was usable."""
    template = prompts.get(name)
    request = request_for(template, stage, template.render(**values))
    try:
        return await gateway.ask(request, reply_model, reask=prompts.get("reask").reask(max_reasks))
    except UnusableReply:
        return unknown
