"""A scripted model gateway for unit tests: the `Gateway` protocol without a network.

Replies are given in order: text, a JSON-able value (sent as its JSON), a ChatResult, or an
exception to raise. `ask` is the real one (`AskMixin`), so repair, re-asks and cache eviction
behave exactly as with `LLMGateway`; what was forgotten and counted can be checked afterwards.
"""

from __future__ import annotations

import json
from typing import Any

from kgbuild.llm.accounting import Accounting
from kgbuild.llm.ask import AskMixin
from kgbuild.llm.types import ChatRequest, ChatResult


class ScriptedGateway(AskMixin):
    def __init__(self, *replies: Any) -> None:
        self.replies = list(replies)
        self.requests: list[ChatRequest] = []
        self.forgotten: list[ChatRequest] = []
        self.usage = Accounting()

    async def chat(self, request: ChatRequest) -> ChatResult:
        self.requests.append(request)
        self.usage.add(request.stage, request.doc_id, requests=1, calls=1)
        item = self.replies.pop(0)
        if isinstance(item, BaseException):
            raise item
        if isinstance(item, ChatResult):
            return item
        text = item if isinstance(item, str) else json.dumps(item, ensure_ascii=False)
        return ChatResult(text=text, model="fake", finish_reason="stop")

    def forget(self, request: ChatRequest) -> None:
        self.forgotten.append(request)
