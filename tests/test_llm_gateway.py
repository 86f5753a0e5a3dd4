"""The model gateway against the real `openai` client, over HTTP, talking to ScriptedLLM."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import random
import socket
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from llm_server import ScriptedLLM

from kgbuild.config import LLMConfig, LLMPrice
from kgbuild.errors import ConfigError
from kgbuild.llm.cache import ResponseCache, cache_key
from kgbuild.llm.client import parse_retry_after
from kgbuild.llm.gateway import LLMGateway
from kgbuild.llm.limits import Limits, TokenBucket
from kgbuild.llm.retry import RetryPolicy
from kgbuild.llm.types import ChatMessage, ChatRequest, ChatResult, LLMCallError
from kgbuild.tokens import TokenCounter

T = TypeVar("T")
SECRET = "sk-test-SECRET-0123456789"


@pytest.fixture
def llm() -> Iterator[ScriptedLLM]:
    with ScriptedLLM() as server:
        yield server


def config(base_url: str, **overrides: Any) -> LLMConfig:
    # Fast settings: tests wait milliseconds, not the production seconds.
    values: dict[str, Any] = {"base_url": base_url, "model": "big-model", "timeout_s": 2.0, "max_retries": 3,
                              "backoff_initial_s": 0.005, "backoff_max_s": 0.5}
    values.update(overrides)
    return LLMConfig(**values)


def request(text: str = "Alice founded Acme.", *, stage: str = "extract", template: str = "extract.joint@1",
            doc_id: str | None = None, **fields: Any) -> ChatRequest:
    return ChatRequest(stage=stage, template=template, doc_id=doc_id,
                       messages=[ChatMessage(role="system", content="Extract facts as JSON."),
                                 ChatMessage(role="user", content=text)], **fields)


def run(gateway: LLMGateway, body: Callable[[LLMGateway], Awaitable[T]]) -> T:
    async def main() -> T:
        try:
            return await body(gateway)
        finally:
            await gateway.aclose()

    return asyncio.run(main())


def ask(gateway: LLMGateway, *requests: ChatRequest) -> list[ChatResult]:
    async def body(gw: LLMGateway) -> list[ChatResult]:
        return [await gw.chat(r) for r in requests]

    return run(gateway, body)


def ask_error(gateway: LLMGateway, req: ChatRequest) -> LLMCallError:
    with pytest.raises(LLMCallError) as err:
        ask(gateway, req)
    return err.value


# -- the happy path ------------------------------------------------------------------------


def test_reply_comes_back_with_tokens_and_request_shape(llm: ScriptedLLM) -> None:
    llm.reply("Alice", '{"entities": ["Alice"]}')
    gw = LLMGateway(config(llm.base_url, api_key=SECRET), cache_path=None)
    [result] = ask(gw, request(max_tokens=300, doc_id="d1"))

    assert result.text == '{"entities": ["Alice"]}' and result.finish_reason == "stop"
    assert result.model == "big-model" and not result.cached and result.retries == 0
    [entry] = llm.chat_log()
    assert (result.prompt_tokens, result.completion_tokens) == (entry["usage"]["prompt_tokens"],
                                                                 entry["usage"]["completion_tokens"])
    body = entry["json"]
    assert body["model"] == "big-model" and body["response_format"] == {"type": "json_object"}
    assert body["max_tokens"] == 300 and body["temperature"] == 0.0
    assert [m["role"] for m in body["messages"]] == ["system", "user"]
    assert entry["authorized"] and SECRET not in json.dumps(llm.requests)
    snap = gw.usage.snapshot()
    assert snap["total"]["requests"] == snap["total"]["calls"] == 1
    assert snap["by_doc"]["d1"]["prompt_tokens"] == result.prompt_tokens


def test_json_mode_off_sends_no_response_format_and_no_key_sends_a_placeholder(llm: ScriptedLLM) -> None:
    llm.reply("", "plain text")
    ask(LLMGateway(config(llm.base_url), cache_path=None), request(json_mode=False))
    [entry] = llm.chat_log()
    assert "response_format" not in entry["json"]
    assert entry["json"]["max_tokens"] == LLMConfig().max_output_tokens  # a cap on every request
    assert entry["authorized"]  # local servers ignore it; the SDK needs some key


def test_gateway_is_built_without_an_endpoint_and_needs_a_model_only_when_called() -> None:
    gw = LLMGateway(LLMConfig(), cache_path=None)
    with pytest.raises(ConfigError, match=r"llm\.model"):
        ask(gw, request())


# The first loop's connection is dropped unclosed when that loop ends: expected, and collected here.
@pytest.mark.filterwarnings("ignore::ResourceWarning")
def test_a_gateway_survives_two_event_loops(llm: ScriptedLLM) -> None:
    llm.reply("", "{}")
    gw = LLMGateway(config(llm.base_url), cache_path=None)

    async def one() -> ChatResult:
        return await gw.chat(request())

    asyncio.run(one())
    asyncio.run(one())
    assert llm.calls() == 2
    asyncio.run(gw.aclose())
    gc.collect()


# -- retries ---------------------------------------------------------------------------------


def test_429_with_retry_after_is_retried_after_the_wait(llm: ScriptedLLM) -> None:
    llm.fail(429, retry_after=0.2)
    llm.reply("", "{}")
    gw = LLMGateway(config(llm.base_url), cache_path=None)
    [result] = ask(gw, request())

    assert result.retries == 1
    first, second = llm.chat_log()
    assert (first["status"], second["status"]) == (429, 200)
    assert second["time"] - first["time"] >= 0.2  # backoff alone would be at most 5 ms
    total = gw.usage.snapshot()["total"]
    assert (total["calls"], total["retries"], total["failures"]) == (2, 1, 0)


def test_retry_after_ms_header_is_honoured_and_capped_at_backoff_max(llm: ScriptedLLM) -> None:
    llm.fail(503, headers={"retry-after-ms": "150"})
    llm.fail(429, retry_after=3600)  # capped at backoff_max_s
    llm.reply("", "{}")
    gw = LLMGateway(config(llm.base_url, backoff_max_s=0.2), cache_path=None)
    started = time.monotonic()
    [result] = ask(gw, request())
    first, second, third = llm.chat_log()
    assert result.retries == 2
    assert second["time"] - first["time"] >= 0.15 and third["time"] - second["time"] >= 0.2
    assert time.monotonic() - started < 5


def test_500_twice_then_success(llm: ScriptedLLM) -> None:
    llm.fail(500, times=2)
    llm.reply("", '{"ok": true}')
    gw = LLMGateway(config(llm.base_url), cache_path=None)
    [result] = ask(gw, request())
    assert result.text == '{"ok": true}' and result.retries == 2
    assert [e["status"] for e in llm.chat_log()] == [500, 500, 200]
    assert gw.usage.total.calls == 3 and gw.usage.total.retries == 2


def test_a_stall_longer_than_the_timeout_is_retried(llm: ScriptedLLM) -> None:
    llm.stall(3.0)
    llm.reply("", "{}")
    gw = LLMGateway(config(llm.base_url, timeout_s=0.3), cache_path=None)
    started = time.monotonic()
    [result] = ask(gw, request())
    assert result.retries == 1 and llm.calls() == 2
    assert time.monotonic() - started < 2.5  # did not wait for the stalled answer


def test_retries_exhausted_name_the_endpoint(llm: ScriptedLLM) -> None:
    llm.fail(503, times=10)
    gw = LLMGateway(config(llm.base_url, max_retries=2), cache_path=None)
    err = ask_error(gw, request())
    assert err.retryable and err.status == 503
    assert llm.base_url in err.where and "after 3 attempts" in err.problem and "503" in err.problem
    assert llm.calls() == 3
    total = gw.usage.total
    assert (total.calls, total.retries, total.failures, total.prompt_tokens) == (3, 2, 1, 0)


def test_an_endpoint_that_is_down_fails_after_retries() -> None:
    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    gw = LLMGateway(config(f"http://127.0.0.1:{port}/v1", max_retries=1), cache_path=None)
    err = ask_error(gw, request())
    assert err.retryable and f"127.0.0.1:{port}" in err.where and "cannot connect" in err.problem


def test_401_names_the_api_key_setting_and_never_shows_the_key(llm: ScriptedLLM) -> None:
    # OpenAI echoes (part of) the rejected key in its message; it must not reach ours.
    body = json.dumps({"error": {"message": f"Incorrect API key provided: {SECRET}", "type": "invalid_request_error",
                                 "code": "invalid_api_key"}})
    llm.fail(401, body=body, times=5)
    gw = LLMGateway(config(llm.base_url, api_key=SECRET), cache_path=None)
    err = ask_error(gw, request())
    assert err.where == "llm.api_key" and err.status == 401 and not err.retryable
    assert "KGBUILD_LLM_API_KEY" in err.line()
    assert SECRET not in err.line() and SECRET not in repr(err.args) and SECRET[-8:] not in err.line()
    assert llm.calls() == 1  # not retried


def test_a_key_in_any_other_server_message_is_scrubbed(llm: ScriptedLLM) -> None:
    llm.fail(400, body=json.dumps({"error": {"message": f"bad request from key {SECRET}"}}))
    err = ask_error(LLMGateway(config(llm.base_url, api_key=SECRET), cache_path=None), request())
    assert SECRET not in err.line() and "***" in err.line() and err.status == 400 and not err.retryable


def test_404_names_the_model(llm: ScriptedLLM) -> None:
    llm.fail(404)
    err = ask_error(LLMGateway(config(llm.base_url), cache_path=None), request())
    assert err.where == "llm.model" and f"model 'big-model' not found at {llm.base_url}" in err.problem
    assert llm.calls() == 1


def test_an_unmatched_request_is_a_clear_400(llm: ScriptedLLM) -> None:
    llm.reply("Bob", "{}")
    err = ask_error(LLMGateway(config(llm.base_url), cache_path=None), request("nothing here"))
    assert err.status == 400 and "no rule matches" in err.problem and "extract.joint@1" in err.problem


def test_retry_wait_is_full_jitter_bounded_and_honours_retry_after() -> None:
    policy = RetryPolicy(max_retries=5, backoff_initial_s=1.0, backoff_max_s=8.0)
    rng = random.Random(7)
    waits = [policy.wait_for(n, None, rng) for n in range(1, 7) for _ in range(50)]
    assert all(0.0 <= w <= 8.0 for w in waits) and max(waits[:50]) <= 1.0
    assert policy.wait_for(1, 3.0, rng) >= 3.0 and policy.wait_for(1, 100.0, rng) == 8.0


def test_parse_retry_after_forms() -> None:
    assert parse_retry_after({"retry-after": "2"}) == 2.0
    assert parse_retry_after({"retry-after-ms": "250", "retry-after": "9"}) == 0.25
    assert parse_retry_after({"retry-after": "soon"}) is None and parse_retry_after({}) is None
    in_a_minute = time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime(time.time() + 60))
    assert 55 <= (parse_retry_after({"retry-after": in_a_minute}) or 0) <= 61


# -- cache -----------------------------------------------------------------------------------


def test_cache_makes_the_second_identical_request_free_and_a_new_template_version_misses(
        llm: ScriptedLLM, tmp_path: Path) -> None:
    llm.reply("", '{"n": 1}')
    path = tmp_path / "cache" / "llm.sqlite"
    [first] = ask(LLMGateway(config(llm.base_url), cache_path=path), request(doc_id="d1"))

    gw = LLMGateway(config(llm.base_url), cache_path=path)  # a new process would see the same
    again, other_version = ask(gw, request(doc_id="d1"), request(doc_id="d1", template="extract.joint@2"))
    assert llm.calls() == 2  # the repeat made no HTTP call
    assert again.cached and again.text == first.text and not other_version.cached
    stats = gw.usage.snapshot()
    assert stats["total"]["cache_hits"] == 1 and stats["total"]["requests"] == 2 and stats["total"]["calls"] == 1
    assert stats["by_doc"]["d1"]["cache_hits"] == 1
    # a hit bills nothing: only the miss's tokens are counted
    assert stats["total"]["prompt_tokens"] == other_version.prompt_tokens


def test_a_reply_is_in_the_cache_before_its_slot_is_given_back(llm: ScriptedLLM, tmp_path: Path) -> None:
    # Found by the Ray build killed mid-extraction: the reply was written to the cache after the slot
    # was free, so more than llm.concurrency requests could be paid for and not kept when the build died.
    llm.reply("", '{"n": 1}')
    path = tmp_path / "cache" / "llm.sqlite"
    gw = LLMGateway(config(llm.base_url, concurrency=1), cache_path=path)
    asked = request(doc_id="d1")
    key = cache_key("big-model", asked)
    kept_when_freed: list[bool] = []

    class Watching(Limits):
        @contextlib.asynccontextmanager
        async def slot(self) -> AsyncIterator[None]:
            async with super().slot():
                yield
                kept_when_freed.append(ResponseCache(path).get(key) is not None)

    gw._limits = Watching(1, clock=time.monotonic, sleep=asyncio.sleep)
    ask(gw, asked)
    assert kept_when_freed == [True]


def test_use_cache_false_and_config_cache_false_bypass(llm: ScriptedLLM, tmp_path: Path) -> None:
    llm.reply("", "{}")
    path = tmp_path / "llm.sqlite"
    ask(LLMGateway(config(llm.base_url), cache_path=path), request())
    ask(LLMGateway(config(llm.base_url), cache_path=path, use_cache=False), request(), request())
    ask(LLMGateway(config(llm.base_url, cache=False), cache_path=path), request())
    assert llm.calls() == 4


def test_cache_key_covers_every_reply_shaping_field() -> None:
    base = cache_key("m", request())
    assert base == cache_key("m", request())
    variants = [cache_key("other", request()), cache_key("m", request(template="extract.joint@2")),
                cache_key("m", request("Bob founded Acme.")), cache_key("m", request(temperature=0.5)),
                cache_key("m", request(max_tokens=10)), cache_key("m", request(json_mode=False))]
    assert base not in variants and len(set(variants)) == len(variants)
    assert cache_key("m", request(doc_id="elsewhere")) == base  # the same chunk text in another doc hits


def test_cache_clear_count_and_truncated_replies_are_stored_marked(llm: ScriptedLLM, tmp_path: Path) -> None:
    llm.truncate("", '{"entities": ["Alice", "Bob"]}')
    llm.reply("", "{}")
    path = tmp_path / "llm.sqlite"
    gw = LLMGateway(config(llm.base_url), cache_path=path)
    cut, _whole, again = ask(gw, request("one"), request("two"), request("one"))
    assert cut.finish_reason == "length" and not cut.text.endswith("}")
    assert again.cached and again.finish_reason == "length" and again.text == cut.text
    cache = ResponseCache(path)
    assert cache.count() == 2
    assert cache.clear() == 2 and cache.count() == 0
    cache.close()


def test_failures_are_not_cached(llm: ScriptedLLM, tmp_path: Path) -> None:
    llm.fail(400)
    llm.reply("", "{}")
    path = tmp_path / "llm.sqlite"
    gw = LLMGateway(config(llm.base_url), cache_path=path)

    async def body(gw: LLMGateway) -> ChatResult:
        with pytest.raises(LLMCallError):
            await gw.chat(request())
        return await gw.chat(request())

    assert not run(gw, body).cached and llm.calls() == 2


def test_cache_is_shared_by_concurrent_coroutines_and_in_flight_duplicates_wait(llm: ScriptedLLM,
                                                                                tmp_path: Path) -> None:
    llm.reply("", lambda body: json.dumps({"echo": body["messages"][-1]["content"]}))
    path = tmp_path / "llm.sqlite"

    async def body(gw: LLMGateway) -> list[ChatResult]:
        return await asyncio.gather(*(gw.chat(request(f"text {i % 10}")) for i in range(40)))

    gw = LLMGateway(config(llm.base_url, concurrency=4), cache_path=path)
    results = run(gw, body)
    assert all(json.loads(r.text)["echo"] == f"text {i % 10}" for i, r in enumerate(results))
    # identical requests in flight together share one call
    assert llm.calls() == 10 and gw.usage.total.cache_hits == 30 and sum(r.cached for r in results) == 30
    cache = ResponseCache(path)
    assert cache.count() == 10
    cache.close()


# -- accounting ------------------------------------------------------------------------------


def test_accounting_totals_equal_the_request_log(llm: ScriptedLLM) -> None:
    llm.fail(500, match="second")
    llm.fail(429, match="third", retry_after=0.01)
    llm.reply("", '{"facts": [1, 2, 3]}')
    gw = LLMGateway(config(llm.base_url), cache_path=None)
    ask(gw, request("first text", doc_id="a"), request("second text here", doc_id="a", stage="split"),
        request("third one", doc_id="b"))
    log = llm.chat_log()
    ok = [e for e in log if e["status"] == 200]
    total = gw.usage.total
    assert total.calls == len(log) == 5 and total.requests == 3 and total.retries == 2
    assert total.prompt_tokens == sum(e["usage"]["prompt_tokens"] for e in ok)
    assert total.completion_tokens == sum(e["usage"]["completion_tokens"] for e in ok)
    snap = gw.usage.snapshot()
    json.dumps(snap)  # JSON-able
    assert snap["by_stage"]["split"]["calls"] == 2 and snap["by_stage"]["extract"]["calls"] == 3
    assert snap["by_doc"]["a"]["requests"] == 2 and snap["by_doc"]["b"]["retries"] == 1
    assert sum(s["prompt_tokens"] for s in snap["by_stage"].values()) == total.prompt_tokens
    assert total.seconds > 0


def test_replies_without_usage_are_estimated_with_tiktoken(llm: ScriptedLLM) -> None:
    reply = '{"entities": [{"name": "Alice", "type": "Person"}]}'
    llm.reply("", reply, usage=False)
    counter = TokenCounter()
    req = request("Alice founded Acme in Paris in 1999.")
    [result] = ask(LLMGateway(config(llm.base_url), cache_path=None, counter=counter), req)
    assert result.prompt_tokens == sum(counter.count(m.content) for m in req.messages)
    assert result.completion_tokens == counter.count(reply)
    assert llm.chat_log()[0]["usage"] is None


def test_a_template_s_repeated_turns_are_counted_once_and_each_passage_every_time(llm: ScriptedLLM) -> None:
    llm.reply("", '{"entities": []}', usage=False)
    counter = TokenCounter()
    gateway = LLMGateway(config(llm.base_url), cache_path=None, counter=counter)
    shots = [ChatMessage(role="system", content="Extract facts as JSON."),
             ChatMessage(role="user", content="Bob wrote Dune."),
             ChatMessage(role="assistant", content='{"entities": [{"name": "Bob"}]}')]
    texts = ["Alice founded Acme in Paris.", "Carol joined Acme in 1999.", "Dan left Acme for Initech."]
    requests = [ChatRequest(stage="extract", template="extract.joint@1", doc_id=None,
                            messages=[*shots, ChatMessage(role="user", content=text)]) for text in texts]
    requests.append(ChatRequest(stage="extract", template="extract.joint@1", doc_id=None,
                                messages=[ChatMessage(role="system", content="Another prompt."),
                                          ChatMessage(role="user", content=texts[0])]))
    results = ask(gateway, *requests)
    recount = TokenCounter()
    for req, result in zip(requests, results, strict=True):
        assert result.prompt_tokens == sum(recount.count(m.content) for m in req.messages)
    # 3 shared turns once, then each request's passage and reply; the new system prompt once.
    assert counter.calls == 3 + 4 * 2 + 1

def test_cost_comes_from_prices(llm: ScriptedLLM) -> None:
    llm.reply("", "one two three four")
    prices = {"big-model": LLMPrice(prompt_per_1m=2.0, completion_per_1m=10.0)}
    gw = LLMGateway(config(llm.base_url, prices=prices, stage_models={"split": "free-model"}), cache_path=None)
    priced, unpriced = ask(gw, request(), request(stage="split"))
    expected = (priced.prompt_tokens * 2.0 + priced.completion_tokens * 10.0) / 1_000_000
    assert gw.usage.total.cost_usd == pytest.approx(expected) and expected > 0
    assert gw.usage.by_stage["split"].cost_usd == 0.0 and unpriced.model == "free-model"


def test_merge_adds_snapshots(llm: ScriptedLLM) -> None:
    llm.reply("", "{}")
    one = LLMGateway(config(llm.base_url), cache_path=None)
    two = LLMGateway(config(llm.base_url), cache_path=None)
    ask(one, request(doc_id="a"))
    ask(two, request(doc_id="b"), request(doc_id="b"))
    one.usage.merge(two.usage.snapshot())
    assert one.usage.total.calls == 3 and set(one.usage.by_doc) == {"a", "b"}
    one.usage.reset()
    assert one.usage.snapshot() == {"total": one.usage.total.model_dump(), "by_stage": {}, "by_doc": {}, "by_role": {}}


# -- models per stage and limits ---------------------------------------------------------------


def test_stage_models_choose_the_model_in_the_request_body(llm: ScriptedLLM) -> None:
    llm.reply("", "{}")
    gw = LLMGateway(config(llm.base_url, stage_models={"extract": "small-model"}), cache_path=None)
    ask(gw, request(stage="extract.entities"), request(stage="split"))
    assert [e["json"]["model"] for e in llm.chat_log()] == ["small-model", "big-model"]


def test_concurrency_cap_is_respected(llm: ScriptedLLM) -> None:
    llm.reply("", "{}", delay=0.1)

    async def body(gw: LLMGateway) -> list[ChatResult]:
        return await asyncio.gather(*(gw.chat(request(f"chunk {i}")) for i in range(8)))

    run(LLMGateway(config(llm.base_url, concurrency=3), cache_path=None), body)
    assert llm.calls() == 8 and llm.max_in_flight == 3


class FakeTime:
    """A clock that only moves when someone sleeps: minutes of rate limiting in no time."""

    def __init__(self) -> None:
        self.now = 0.0
        self.sleeps: list[float] = []

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds
        await asyncio.sleep(0)


def test_requests_per_minute_spaces_requests(llm: ScriptedLLM) -> None:
    llm.reply("", "{}")
    fake = FakeTime()
    gw = LLMGateway(config(llm.base_url, requests_per_minute=2), cache_path=None, clock=fake.clock, sleep=fake.sleep)

    async def body(gw: LLMGateway) -> list[float]:
        stamps = []
        for i in range(4):
            await gw.chat(request(f"chunk {i}"))
            stamps.append(fake.now)
        return stamps

    # a full bucket of 2, then one request per 30 s
    assert run(gw, body) == pytest.approx([0.0, 0.0, 30.0, 60.0])
    assert llm.calls() == 4


def test_token_bucket_reserves_estimates_and_reconciles() -> None:
    fake = FakeTime()
    limits = Limits(4, tokens_per_minute=1000, clock=fake.clock, sleep=fake.sleep)

    async def main() -> None:
        first = await limits.reserve(800)
        limits.settle(first, 200)  # the reply was short: 600 tokens come back
        assert limits.tokens is not None and limits.tokens.level == pytest.approx(800)
        await limits.reserve(800)
        assert fake.now == 0.0
        await limits.reserve(600)  # 0 left: waits for 600 tokens at 1000/min
        assert fake.now == pytest.approx(36.0)
        await limits.reserve(5000)  # larger than the bucket: let through once full, then owed
        assert fake.now == pytest.approx(96.0)
        assert limits.tokens.level < 0

    asyncio.run(main())


def test_tokens_per_minute_through_the_gateway_uses_real_usage(llm: ScriptedLLM) -> None:
    llm.reply("", "ok")
    fake = FakeTime()
    gw = LLMGateway(config(llm.base_url, tokens_per_minute=100), cache_path=None, clock=fake.clock, sleep=fake.sleep)
    ask(gw, *(request(f"chunk {i}", max_tokens=40) for i in range(3)))
    # The server reports ~7 tokens a call; reserving prompt + 40 per call would make the third wait.
    assert fake.sleeps == [] and llm.calls() == 3


def test_retry_takes_another_request_from_the_rpm_bucket() -> None:
    fake = FakeTime()
    bucket = TokenBucket(2, clock=fake.clock, sleep=fake.sleep)
    limits = Limits(1, requests_per_minute=2, clock=fake.clock, sleep=fake.sleep)
    limits.requests = bucket

    async def main() -> None:
        await limits.reserve(0)
        await limits.another_request()
        assert fake.now == 0.0
        await limits.another_request()
        assert fake.now == pytest.approx(30.0)

    asyncio.run(main())


def test_in_flight_duplicates_share_a_failure_and_use_cache_false_does_not_share(llm: ScriptedLLM,
                                                                                 tmp_path: Path) -> None:
    llm.fail(400)

    async def body(gw: LLMGateway) -> list[Any]:
        return await asyncio.gather(*(gw.chat(request()) for _ in range(3)), return_exceptions=True)

    gw = LLMGateway(config(llm.base_url), cache_path=tmp_path / "llm.sqlite")
    outcomes = run(gw, body)
    assert all(isinstance(o, LLMCallError) and o.status == 400 for o in outcomes)
    assert llm.calls() == 1 and gw.usage.total.failures == 3

    llm.reply("", "{}", delay=0.05)
    gw = LLMGateway(config(llm.base_url), cache_path=tmp_path / "llm.sqlite", use_cache=False)
    assert all(isinstance(o, ChatResult) and not o.cached for o in run(gw, body))
    assert llm.calls() == 4 and llm.max_in_flight == 3
