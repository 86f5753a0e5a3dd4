"""One JSON question to the model through the gateway, shared by planner, executor and solver."""

from __future__ import annotations

import json
from typing import Any, Protocol

from kgbuild.llm.accounting import Accounting
from kgbuild.llm.prompts import PromptTemplate
from kgbuild.llm.types import ChatMessage, ChatRequest, ChatResult


class SolveGateway(Protocol):
    """The model gateway as the solver uses it: chat, forget a useless reply, and usage counters."""

    @property
    def usage(self) -> Accounting: ...

    async def chat(self, request: ChatRequest) -> ChatResult: ...

    def forget(self, request: ChatRequest) -> None: ...


def request_for(template: PromptTemplate, stage: str, messages: list[ChatMessage],
                max_tokens: int | None = 1024) -> ChatRequest:
    return ChatRequest(stage=stage, template=template.key, messages=messages, json_mode=True,
                       temperature=0.0, max_tokens=max_tokens)


def parse_object(text: str) -> dict[str, Any] | None:
    """The JSON object of a reply; tolerates a ```json fence around it. None if there is none."""
    body = text.strip()
    if body.startswith("```"):
        body = body.strip("`")
        body = body[4:] if body.lower().startswith("json") else body
    start, end = body.find("{"), body.rfind("}")
    if start < 0 or end < start:
        return None
    try:
        value = json.loads(body[start:end + 1])
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


async def ask_json(gateway: SolveGateway, template: PromptTemplate, stage: str, **values: object) -> dict[str, Any]:
    """Render, ask, parse. An unusable reply is forgotten by the cache and read as {} (the caller
    treats missing fields as "don't know"), so one odd reply never fails the whole question."""
    request = request_for(template, stage, template.render(**values))
    result = await gateway.chat(request)
    parsed = parse_object(result.text)
    if parsed is None:
        gateway.forget(request)
        return {}
    return parsed
