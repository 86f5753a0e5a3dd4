"""`LLMGateway`: every model call of kgbuild goes through here.

Middleware order, outermost first:

1. cache    -- a hit returns at once (cached=True), counts as a cache hit and bills no tokens;
               a request identical to one already in flight waits for that one's reply (also a
               cache hit); a miss goes on. Keyed by model, template@version, messages and
               sampling settings. With the cache off, every request goes to the endpoint.
2. limits   -- a concurrency slot (held across retries, so an overloaded server sees fewer
               requests in flight), then one request and the estimated tokens (prompt +
               max_tokens) from the per-minute buckets; reconciled with the real usage after.
3. retries  -- retryable failures (429, 5xx, timeouts, lost connections) are retried with jittered
               exponential backoff, honouring Retry-After; each retry takes one more request
               from the requests-per-minute bucket. Failures end as `LLMCallError`.
4. client   -- one HTTP call to the OpenAI-compatible endpoint (`kgbuild.llm.client`).
5. accounting -- calls, retries, failures, tokens (from the reply's usage, else estimated with
               tiktoken), cost and time spent, per stage and per document.
6. cache store -- every successful reply is stored, including those cut off by max_tokens
               (finish_reason "length" is kept, the caller decides); failures never are.

`ask` (from `AskMixin`, see kgbuild.llm.ask) sits on top: it reads the reply as a typed record,
forgets an unusable one from the cache and re-asks with the error, a bounded number of times.

Async all the way: the caller owns the event loop. Nothing connects before the first call.
"""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path
from typing import TYPE_CHECKING

from kgbuild.config import LLMConfig
from kgbuild.llm.accounting import Accounting
from kgbuild.llm.ask import AskMixin
from kgbuild.llm.cache import ResponseCache, cache_key
from kgbuild.llm.client import ChatClient, EndpointError, Reply
from kgbuild.llm.limits import Clock, Limits, Sleep
from kgbuild.llm.retry import RetryPolicy, call_with_retries
from kgbuild.llm.types import ChatRequest, ChatResult, EndpointRefused, LLMCallError

if TYPE_CHECKING:
    from kgbuild.tokens import TokenCounter

log = logging.getLogger(__name__)

# Completion tokens reserved against tokens_per_minute when a request sets no max_tokens;
# corrected with the real usage after the call.
DEFAULT_COMPLETION_RESERVE = 512

# Statuses that reject the configuration (key, model), not one request: no later call can succeed.
_REFUSED_STATUSES = frozenset({401, 403})


def _refusal(exc: LLMCallError) -> EndpointRefused | None:
    """`exc` as an `EndpointRefused` when it condemns every later call, else None."""
    # A 404 is only fatal when it names the model; a 404 for one request's path is not.
    if exc.status in _REFUSED_STATUSES or (exc.status == 404 and exc.where == "llm.model"):
        return EndpointRefused(exc.where, exc.problem, exc.hint, status=exc.status, retryable=False)
    return None


# What a request in flight ends with, for identical requests waiting on it (None: cancelled).
Outcome = ChatResult | LLMCallError | None


class LLMGateway(AskMixin):
    def __init__(self, config: LLMConfig, *, cache_path: Path | None, use_cache: bool = True,
                 counter: TokenCounter | None = None, clock: Clock = time.monotonic,
                 sleep: Sleep = asyncio.sleep) -> None:
        self._config = config
        self._cache_path = cache_path if (use_cache and config.cache) else None
        self._cache: ResponseCache | None = None
        self._counter = counter
        self._clock = clock
        self._sleep = sleep
        self._client = ChatClient(config)
        self._client_loop: asyncio.AbstractEventLoop | None = None
        self._limits = Limits(config.concurrency, requests_per_minute=config.requests_per_minute,
                              tokens_per_minute=config.tokens_per_minute, clock=clock, sleep=sleep)
        self._policy = RetryPolicy(config.max_retries, config.backoff_initial_s, config.backoff_max_s)
        self._usage = Accounting(config.prices)
        # cache key -> (event loop, future of the reply) for requests on their way to the endpoint
        self._pending: dict[str, tuple[asyncio.AbstractEventLoop, asyncio.Future[Outcome]]] = {}
        # The first refusal (bad key, unknown model), replayed to every later call without a request.
        self._refused: EndpointRefused | None = None

    @property
    def usage(self) -> Accounting:
        return self._usage

    @property
    def cache(self) -> ResponseCache | None:
        """The reply cache (opened on first use), or None when caching is off."""
        if self._cache is None and self._cache_path is not None:
            self._cache = ResponseCache(self._cache_path)
        return self._cache

    @property
    def base_url(self) -> str:
        return self._client.base_url

    def _tokens(self, text: str) -> int:
        if self._counter is None:
            from kgbuild.tokens import TokenCounter  # loads tiktoken only when needed

            self._counter = TokenCounter()
        return self._counter.count(text)

    def _prompt_tokens(self, request: ChatRequest) -> int:
        return sum(self._tokens(m.content) for m in request.messages)

    def _chat_client(self) -> ChatClient:
        # The SDK's connection pool belongs to one event loop; a gateway reused by a later
        # asyncio.run() starts a fresh client instead of failing on the old loop's sockets.
        loop = asyncio.get_running_loop()
        if self._client_loop is not loop:
            if self._client_loop is not None:
                self._client = ChatClient(self._config)
            self._client_loop = loop
        return self._client

    async def chat(self, request: ChatRequest) -> ChatResult:
        model = self._config.model_for(request.stage)
        stage, doc = request.stage, request.accounted_to
        self._usage.add(stage, doc, requests=1)
        cache = self.cache
        if cache is None:
            return await self._call(model, request)

        key = cache_key(model, request)
        hit = cache.get(key)
        if hit is not None:
            self._usage.add(stage, doc, cache_hits=1)
            return hit
        # The same request already on its way (say, one boilerplate chunk in many documents):
        # wait for that reply instead of paying for it twice.
        loop = asyncio.get_running_loop()
        pending = self._pending.get(key)
        if pending is not None and pending[0] is loop:
            joined = await asyncio.shield(pending[1])  # our cancellation must not cancel theirs
            if isinstance(joined, ChatResult):
                self._usage.add(stage, doc, cache_hits=1)
                return joined.model_copy(update={"cached": True, "retries": 0})
            if isinstance(joined, LLMCallError):
                self._usage.add(stage, doc, failures=1)
                kind = EndpointRefused if isinstance(joined, EndpointRefused) else LLMCallError  # keep it fatal
                raise kind(joined.where, joined.problem, joined.hint, status=joined.status,
                           retryable=joined.retryable)
            # None: the first caller was cancelled or hit a bug; make the call ourselves.
        shared: asyncio.Future[Outcome] = loop.create_future()
        self._pending[key] = (loop, shared)
        outcome: Outcome = None
        try:
            outcome = await self._call(model, request)
            cache.put(key, outcome)
            return outcome
        except LLMCallError as exc:
            outcome = exc
            raise
        finally:
            # A plain result, never an exception: nobody may be waiting to retrieve it.
            shared.set_result(outcome)
            if self._pending.get(key, (None, None))[1] is shared:
                del self._pending[key]

    def forget(self, request: ChatRequest) -> None:
        """Drop the cached reply to `request`: the caller found it unusable (invalid JSON, wrong
        shape), so the next build must ask again instead of replaying the same bad answer."""
        cache = self.cache
        if cache is not None:
            cache.delete(cache_key(self._config.model_for(request.stage), request))

    def peek(self, request: ChatRequest) -> bool:
        """Whether the cache holds a reply to `request` (nothing counted, no call)."""
        cache = self.cache
        return cache is not None and cache.get(cache_key(self._config.model_for(request.stage), request)) is not None

    def remember(self, request: ChatRequest, result: ChatResult) -> None:
        """Store `result` as the reply to `request` without calling: one chunk's part of a packed reply,
        under the request that chunk would make alone (see `kgbuild.extract.llm_pack`)."""
        cache = self.cache
        if cache is not None:
            cache.put(cache_key(self._config.model_for(request.stage), request), result)

    def _fail_fast(self, request: ChatRequest) -> None:
        """After a refusal of the key or model, fail at once without a request (counted as a failure)."""
        if self._refused is not None:
            self._usage.add(request.stage, request.accounted_to, failures=1)
            refused = self._refused
            raise EndpointRefused(refused.where, refused.problem, refused.hint, status=refused.status)

    async def _call(self, model: str, request: ChatRequest) -> ChatResult:
        """Limits, retries, the endpoint and the accounting of one request the cache did not answer."""
        self._fail_fast(request)
        stage, doc = request.stage, request.accounted_to
        client = self._chat_client()
        endpoint = f"llm.base_url {client.base_url}"

        async def attempt(number: int) -> Reply:
            if number > 1:
                await self._limits.another_request()
            self._usage.add(stage, doc, calls=1)
            return await client.complete(model, request)

        def on_retry(exc: EndpointError, wait: float) -> None:
            self._usage.add(stage, doc, retries=1)
            log.info("%s: %s; retrying in %.2f s", exc.where, exc.problem, wait)

        async with self._limits.slot():
            # Checked again: the refusal may have come while this request waited for its slot, so
            # at most the requests already in flight (llm.concurrency) meet a wrong key.
            self._fail_fast(request)
            estimate = 0
            if self._limits.needs_token_estimate:
                estimate = self._prompt_tokens(request) + (request.max_tokens or DEFAULT_COMPLETION_RESERVE)
            reservation = await self._limits.reserve(estimate)
            started = self._clock()
            try:
                reply, retries = await call_with_retries(attempt, policy=self._policy, endpoint=endpoint,
                                                         sleep=self._sleep, on_retry=on_retry)
            except LLMCallError as exc:
                # The reservation is kept: failed attempts may have used tokens, and a failing
                # endpoint is better approached slowly.
                self._usage.add(stage, doc, failures=1, seconds=self._clock() - started)
                refused = _refusal(exc)
                if refused is None:
                    raise
                self._refused = refused
                raise refused from None
            self._usage.add(stage, doc, seconds=self._clock() - started)

            prompt_tokens = reply.prompt_tokens
            if prompt_tokens is None:
                prompt_tokens = self._prompt_tokens(request)
            completion_tokens = reply.completion_tokens
            if completion_tokens is None:
                completion_tokens = self._tokens(reply.text)
            self._limits.settle(reservation, prompt_tokens + completion_tokens)

        self._usage.add_tokens(stage, doc, model, prompt_tokens, completion_tokens)
        return ChatResult(text=reply.text, model=model, prompt_tokens=prompt_tokens,
                          completion_tokens=completion_tokens, finish_reason=reply.finish_reason, retries=retries)

    async def aclose(self) -> None:
        # Sockets of a client made in an earlier (now closed) event loop cannot be closed from
        # this one; they went with that loop, so the client is just dropped.
        if self._client_loop is asyncio.get_running_loop():
            await self._client.aclose()
        self._client = ChatClient(self._config)
        self._client_loop = None
        if self._cache is not None:
            self._cache.close()
            self._cache = None

    async def __aenter__(self) -> LLMGateway:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()
