"""A refused key or model (issue 16, item 6): the gateway remembers it and sends no more requests;
a failure of one request (400) is not a refusal. The real `openai` client against the scripted server."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from llm_server import ScriptedLLM

from kgbuild.config import LLMConfig
from kgbuild.llm.gateway import LLMGateway
from kgbuild.llm.types import ChatMessage, ChatRequest, EndpointRefused, LLMCallError


@pytest.fixture
def llm() -> Any:
    with ScriptedLLM() as server:
        server.reply("", "{}")
        yield server


def ask_each(base_url: str, texts: list[str]) -> list[Any]:
    """Asks one request per text, one after the other (no cache); each outcome or error, in order."""
    config = LLMConfig(base_url=base_url, model="m", timeout_s=2.0, max_retries=2,
                       backoff_initial_s=0.005, backoff_max_s=0.05, cache=False)
    gateway = LLMGateway(config, cache_path=None)

    async def main() -> list[Any]:
        outcomes: list[Any] = []
        try:
            for text in texts:
                request = ChatRequest(stage="extract", template="t@1",
                                      messages=[ChatMessage(role="user", content=text)])
                try:
                    outcomes.append(await gateway.chat(request))
                except LLMCallError as exc:
                    outcomes.append(exc)
        finally:
            await gateway.aclose()
        return outcomes

    return asyncio.run(main())


@pytest.mark.parametrize(("status", "where"), [(401, "llm.api_key"), (403, "llm.api_key"), (404, "llm.model")])
def test_a_refused_key_or_model_costs_one_request(llm: ScriptedLLM, status: int, where: str) -> None:
    llm.fail(status, times=100)
    outcomes = ask_each(llm.base_url, ["one", "two", "three"])
    assert all(isinstance(o, EndpointRefused) and o.where == where for o in outcomes)
    assert llm.calls() == 1  # the later two failed without a request


def test_a_rejected_request_is_not_a_refusal(llm: ScriptedLLM) -> None:
    llm.fail(400, times=1)
    outcomes = ask_each(llm.base_url, ["one", "two"])
    assert isinstance(outcomes[0], LLMCallError) and not isinstance(outcomes[0], EndpointRefused)
    assert not isinstance(outcomes[1], LLMCallError)  # the next request is sent and answered
    assert llm.calls() == 2
