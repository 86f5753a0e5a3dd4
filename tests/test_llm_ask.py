"""`Gateway.ask` over the real `openai` client and HTTP, against the scripted server.

A reply is read as a typed record (fences, prose and trailing commas repaired), an unusable one is
re-asked with the error in the next prompt, the number of re-asks is bounded, every bad reply
leaves the reply cache, and the accounting counts each re-ask.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest
from llm_server import ScriptedLLM
from pydantic import BaseModel

from kgbuild.config import LLMConfig
from kgbuild.llm.cache import ResponseCache
from kgbuild.llm.gateway import LLMGateway
from kgbuild.llm.types import AskTrail, ChatMessage, ChatRequest, LLMCallError, Reask, UnusableReply

T = TypeVar("T")
GOOD = '{"people": ["Alice", "Bob"]}'
REASK_MARK = "could not be used"  # in the default re-ask message


class People(BaseModel):
    people: list[str]


@pytest.fixture
def llm() -> Iterator[ScriptedLLM]:
    with ScriptedLLM() as server:
        yield server


def gateway(llm: ScriptedLLM, cache_path: Path | None = None) -> LLMGateway:
    config = LLMConfig(base_url=llm.base_url, model="m", timeout_s=2.0, max_retries=0)
    return LLMGateway(config, cache_path=cache_path)


def request(text: str = "Who is in: Alice met Bob.") -> ChatRequest:
    return ChatRequest(stage="extract", template="people@1", doc_id="d1",
                       messages=[ChatMessage(role="system", content="List the people as JSON."),
                                 ChatMessage(role="user", content=text)])


def run(gw: LLMGateway, body: Callable[[LLMGateway], Awaitable[T]]) -> T:
    async def main() -> T:
        async with gw:
            return await body(gw)

    return asyncio.run(main())


def ask(gw: LLMGateway, req: ChatRequest, reask: Reask | None = None, trail: AskTrail | None = None) -> People:
    return run(gw, lambda g: g.ask(req, People, reask=reask, trail=trail))


def test_a_fenced_reply_with_prose_and_trailing_commas_is_read(llm: ScriptedLLM) -> None:
    llm.reply("Alice", 'Sure! Here it is:\n```json\n{"people": ["Alice", "Bob",],}\n```\nAnything else?')
    gw = gateway(llm)
    trail = AskTrail()
    assert ask(gw, request(), trail=trail).people == ["Alice", "Bob"]
    assert llm.calls() == 1 and trail.attempts == 1 and trail.errors == [] and not trail.repaired
    assert gw.usage.total.reasks == 0 and gw.usage.total.unusable == 0


def test_an_invalid_reply_is_reasked_with_the_error_and_the_bad_reply_in_the_conversation(llm: ScriptedLLM) -> None:
    llm.reply("Alice", '{"persons": ["Alice"]}')  # valid JSON, wrong record
    llm.reply(REASK_MARK, GOOD)  # newer rules win: the re-ask matches this one
    gw = gateway(llm)
    trail = AskTrail()
    assert ask(gw, request(), trail=trail).people == ["Alice", "Bob"]
    first, second = (r["json"]["messages"] for r in llm.chat_log())
    assert second[: len(first)] == first
    assert second[-2] == {"role": "assistant", "content": '{"persons": ["Alice"]}'}
    assert second[-1]["role"] == "user" and "people: missing" in second[-1]["content"]
    assert trail.attempts == 2 and trail.errors == ["people: missing"]
    usage = gw.usage.snapshot()
    assert usage["total"]["calls"] == 2 and usage["total"]["requests"] == 2
    assert usage["by_stage"]["extract"]["reasks"] == 1 and usage["by_stage"]["extract"]["unusable"] == 1
    assert usage["by_doc"]["d1"]["reasks"] == 1


def test_reasks_are_bounded_and_end_in_a_typed_error(llm: ScriptedLLM) -> None:
    llm.reply("Alice", "I cannot help with that.")
    gw = gateway(llm)
    reask = Reask(max_reasks=2, message="Wrong: {error}. Again, as JSON.", template="again@1", stage="extract.reask")
    with pytest.raises(UnusableReply) as err:
        ask(gw, request(), reask=reask)
    assert llm.calls() == 3 and err.value.attempts == 3
    assert err.value.errors == ["no JSON object in the reply"] * 3
    assert "no usable reply after 3 attempt(s): no JSON object in the reply" in err.value.line()
    assert isinstance(err.value, LLMCallError)  # callers that fall back on a failed call also cover it
    log = llm.chat_log()
    assert log[2]["json"]["messages"][-1]["content"] == "Wrong: no JSON object in the reply. Again, as JSON."
    assert len(log[2]["json"]["messages"]) == len(log[0]["json"]["messages"]) + 4  # the whole conversation
    usage = gw.usage.snapshot()["by_stage"]
    assert usage["extract"]["reasks"] == 2 and usage["extract"]["unusable"] == 3
    assert usage["extract.reask"]["calls"] == 2  # re-asks are accounted under the stage the policy names


def test_no_reask_when_the_bound_is_zero_and_a_failed_call_is_not_reasked(llm: ScriptedLLM) -> None:
    llm.reply("Alice", "[]")
    with pytest.raises(UnusableReply):
        ask(gateway(llm), request(), reask=Reask(max_reasks=0))
    assert llm.calls() == 1
    llm.fail(400, match="Carol")
    with pytest.raises(LLMCallError) as err:
        ask(gateway(llm), request("Who is in: Carol left."))
    assert not isinstance(err.value, UnusableReply) and llm.calls("Carol") == 1


def test_the_callers_check_rejects_a_reply_and_its_problem_is_fed_back(llm: ScriptedLLM) -> None:
    llm.reply("Alice", '{"people": ["Alice"]}')
    llm.reply(REASK_MARK, GOOD)

    def everyone(reply: People) -> str | None:
        return None if "Bob" in reply.people else "people: Bob is missing"

    gw = gateway(llm)
    reply = run(gw, lambda g: g.ask(request(), People, check=everyone))
    assert reply.people == ["Alice", "Bob"]
    assert "people: Bob is missing" in llm.chat_log()[1]["json"]["messages"][-1]["content"]


def test_a_cut_off_reply_is_repaired_or_reasked_saying_so(llm: ScriptedLLM) -> None:
    llm.reply("Alice", '{"people": ["Alice", "Bob", "Carol"], "places": ["Paris", "Rome"]}', finish_reason="length")
    trail = AskTrail()
    assert ask(gateway(llm), request(), trail=trail).people == ["Alice", "Bob", "Carol"]
    assert trail.repaired is False and trail.finish_reason == "length"  # whole: nothing was lost

    llm.truncate("Dave", '{"people": ["Dave", "Erin"]}')  # cut inside the first list: no complete record
    llm.reply(REASK_MARK, GOOD)
    gw = gateway(llm)
    trail = AskTrail()
    ask(gw, request("Who is in: Dave met Erin."), trail=trail)
    assert trail.errors[0].startswith("the reply was cut off at the length limit")
    assert "cut off at the length limit" in llm.chat_log()[-1]["json"]["messages"][-1]["content"]


def test_a_bad_reply_is_evicted_from_the_cache_and_a_good_one_is_kept(llm: ScriptedLLM, tmp_path: Path) -> None:
    path = tmp_path / "llm.sqlite"
    llm.reply("Alice", GOOD)
    llm.reply("Alice", "not json", times=1)  # newest first: the first request gets this once
    assert ask(gateway(llm, path), request()).people == ["Alice", "Bob"]
    assert llm.calls() == 2
    cache = ResponseCache(path)
    assert cache.count() == 1  # the re-ask's good reply; the bad one was removed
    cache.close()

    # A new run asks the first request again over HTTP (its bad reply is not replayed) ...
    gw = gateway(llm, path)
    assert ask(gw, request()).people == ["Alice", "Bob"] and llm.calls() == 3
    assert gw.usage.total.cache_hits == 0 and gw.usage.total.reasks == 0
    # ... and the run after that is served from the cache.
    gw = gateway(llm, path)
    assert ask(gw, request()).people == ["Alice", "Bob"] and llm.calls() == 3
    assert gw.usage.total.cache_hits == 1


def test_a_cached_bad_reply_is_forgotten_too(llm: ScriptedLLM, tmp_path: Path) -> None:
    # A reply cached by a caller that did not validate it (a plain chat) is unusable for `ask`:
    # the hit is forgotten and re-asked, and the cache no longer holds it afterwards.
    path = tmp_path / "llm.sqlite"
    llm.reply("Alice", "not json", times=1)
    llm.reply(REASK_MARK, GOOD)
    run(gateway(llm, path), lambda g: g.chat(request()))
    gw = gateway(llm, path)
    assert ask(gw, request()).people == ["Alice", "Bob"]
    assert gw.usage.total.cache_hits == 1 and gw.usage.total.reasks == 1 and llm.calls() == 2
    with sqlite3.connect(path) as db:
        values = [json.loads(row[0])["text"] for row in db.execute("SELECT value FROM replies")]
    assert values == [GOOD]  # only the re-ask's good reply is left
