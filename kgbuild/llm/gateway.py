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
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from kgbuild.config import LLMConfig
from kgbuild.llm.accounting import Accounting
from kgbuild.llm.ask import AskMixin
from kgbuild.llm.cache import ResponseCache, cache_key
from kgbuild.llm.client import ChatClient, EndpointError, Reply
from kgbuild.llm.heartbeat import Heartbeat
from kgbuild.llm.limits import Clock, Limits, Sleep
from kgbuild.llm.retry import RetryPolicy, call_with_retries
from kgbuild.llm.server import DEFAULT_FORM, ServerProfile, kind_from_listing
from kgbuild.llm.server_memory import SERVERS_FILE, ServerMemory
from kgbuild.llm.types import ChatRequest, ChatResult, EndpointRefused, LLMCallError

if TYPE_CHECKING:
    from kgbuild.tokens import TokenCounter

log = logging.getLogger(__name__)

# Completion tokens reserved against tokens_per_minute when a request sets no max_tokens;
# corrected with the real usage after the call.
DEFAULT_COMPLETION_RESERVE = 512
# Distinct system prompts and few-shot turns whose token counts are kept (a handful per template).
_FIXED_COUNTS_KEPT = 256

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


@dataclass
class _Route:
    """One endpoint as a role sees it (`llm.roles`): its settings, client, limits and server profile.
    Roles whose endpoint settings are the same share one route, so one server gets one set of limits."""

    config: LLMConfig
    client: ChatClient
    limits: Limits | None  # None: the gateway's own (`_limits`, which a subclass may replace)
    policy: RetryPolicy
    client_loop: asyncio.AbstractEventLoop | None = None
    profile: ServerProfile | None = None  # decided on the first call
    # The first refusal (bad key, unknown model), replayed to every later call without a request.
    refused: EndpointRefused | None = None
    _lock: tuple[asyncio.AbstractEventLoop, asyncio.Lock] | None = None

    def deciding(self) -> asyncio.Lock:
        """A lock of the running event loop, held while the server profile is decided."""
        loop = asyncio.get_running_loop()
        if self._lock is None or self._lock[0] is not loop:
            self._lock = (loop, asyncio.Lock())
        return self._lock[1]


# The settings that make two roles one endpoint (the model is per request, not per endpoint).
_ENDPOINT_FIELDS = ("base_url", "api_key", "server", "structured_output", "thinking", "timeout_s", "concurrency",
                    "requests_per_minute", "tokens_per_minute", "max_retries", "backoff_initial_s", "backoff_max_s")


class LLMGateway(AskMixin):
    def __init__(self, config: LLMConfig, *, cache_path: Path | None, use_cache: bool = True,
                 counter: TokenCounter | None = None, clock: Clock = time.monotonic,
                 sleep: Sleep = asyncio.sleep) -> None:
        self._config = config
        self._cache_path = cache_path if (use_cache and config.cache) else None
        self._cache: ResponseCache | None = None
        # What each endpoint is and the forms it took, kept per project beside the reply cache.
        self._servers = ServerMemory(cache_path.with_name(SERVERS_FILE) if cache_path is not None else None)
        self._counter = counter
        self._fixed_counts: dict[str, int] = {}  # see _prompt_tokens
        self._clock = clock
        self._sleep = sleep
        self._limits = Limits(config.concurrency, requests_per_minute=config.requests_per_minute,
                              tokens_per_minute=config.tokens_per_minute, clock=clock, sleep=sleep)
        self._usage = Accounting(config.prices)
        # A line on stderr while the endpoint keeps failing (a slow outage must not look like a hang).
        self._heartbeat = Heartbeat(clock=clock, sleep=sleep)
        # cache key -> (event loop, future of the reply) for requests on their way to the endpoint
        self._pending: dict[str, tuple[asyncio.AbstractEventLoop, asyncio.Future[Outcome]]] = {}
        base = config.for_role("")
        self._base_key = self._endpoint_key(base)
        self._routes: dict[str, _Route] = {self._base_key: self._new_route(base, own_limits=False)}
        self._role_routes: dict[str, _Route] = {}
        # Each role's own settings (model, max_tokens caps), whichever route it shares.
        self._role_configs: dict[str, LLMConfig] = {}

    @staticmethod
    def _endpoint_key(config: LLMConfig) -> str:
        return repr([getattr(config, name) for name in _ENDPOINT_FIELDS])

    def _new_route(self, config: LLMConfig, *, own_limits: bool) -> _Route:
        limits = (Limits(config.concurrency, requests_per_minute=config.requests_per_minute,
                         tokens_per_minute=config.tokens_per_minute, clock=self._clock, sleep=self._sleep)
                  if own_limits else None)
        return _Route(config, ChatClient(config), limits,
                      RetryPolicy(config.max_retries, config.backoff_initial_s, config.backoff_max_s))

    def _route(self, stage: str) -> _Route:
        """The endpoint of `stage`'s role (`llm.roles`), made on first use."""
        role = LLMConfig.role_of(stage)
        route = self._role_routes.get(role)
        if route is None:
            config = self._role_config(stage)
            key = self._endpoint_key(config)
            route = self._routes.get(key)
            if route is None:
                route = self._routes[key] = self._new_route(config, own_limits=True)
            self._role_routes[role] = route
        return route

    def _role_config(self, stage: str) -> LLMConfig:
        """The settings of `stage`'s role: `llm` with `llm.roles[role]` over it."""
        role = LLMConfig.role_of(stage)
        config = self._role_configs.get(role)
        if config is None:
            config = self._role_configs[role] = self._config.for_role(role)
        return config

    def _model(self, stage: str) -> str:
        return self._role_config(stage).model_for(stage)

    def _route_limits(self, route: _Route) -> Limits:
        return route.limits if route.limits is not None else self._limits

    @property
    def _refused(self) -> EndpointRefused | None:
        """The default endpoint's refusal (kept for callers that ask the gateway as a whole)."""
        return self._routes[self._base_key].refused

    def servers(self) -> dict[str, ServerProfile]:
        """base_url -> the profile each endpoint used so far (kind, form, the fallbacks taken)."""
        return {r.client.base_url: r.profile for r in self._routes.values() if r.profile is not None}

    def sized(self, request: ChatRequest) -> int:
        """The max_tokens sent with `request`: its own, else `passages` x llm.passage_output_tokens,
        else llm.max_output_tokens; never above llm.max_output_tokens (of the request's role)."""
        config = self._role_config(request.stage)
        cap = config.max_output_tokens
        if request.max_tokens is not None:
            return min(request.max_tokens, cap)
        if request.passages:
            return min(cap, request.passages * config.passage_output_tokens)
        return cap

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
        return self._routes[self._base_key].client.base_url

    def _tokens(self, text: str) -> int:
        if self._counter is None:
            from kgbuild.tokens import TokenCounter  # loads tiktoken only when needed

            self._counter = TokenCounter()
        return self._counter.count(text)

    def _prompt_tokens(self, request: ChatRequest) -> int:
        # Every request of a template repeats its system prompt and few-shot turns: their counts are
        # kept (bounded), so a call encodes only its own passages. Encoding the repeated turns was
        # 3 of 4 encodes per call (bench/llm_extract.py, the version-1 prompt).
        if not request.messages:
            return 0
        *fixed, last = request.messages
        counts = self._fixed_counts
        if len(counts) > _FIXED_COUNTS_KEPT:
            counts.clear()
        total = self._tokens(last.content)
        for message in fixed:
            count = counts.get(message.content)
            if count is None:
                count = counts[message.content] = self._tokens(message.content)
            total += count
        return total

    def _chat_client(self, route: _Route) -> ChatClient:
        # The SDK's connection pool belongs to one event loop; a gateway reused by a later
        # asyncio.run() starts a fresh client instead of failing on the old loop's sockets.
        loop = asyncio.get_running_loop()
        if route.client_loop is not loop:
            if route.client_loop is not None:
                route.client = ChatClient(route.config)
            route.client_loop = loop
        return route.client

    async def _profile(self, route: _Route, client: ChatClient) -> ServerProfile:
        """The route's server profile: from the settings, else remembered for this project, else
        asked of the endpoint (GET /models) once."""
        if route.profile is not None:
            return route.profile
        async with route.deciding():  # one GET /models, not one per request in flight
            if route.profile is not None:
                return route.profile
            return await self._decide_profile(route, client)

    async def _decide_profile(self, route: _Route, client: ChatClient) -> ServerProfile:
        config = route.config
        kind: str = config.server
        remembered = self._servers.get(client.base_url) if kind == "auto" else None
        known = True
        if remembered is not None:
            kind = remembered.kind
        elif kind == "auto":
            listing = await client.listing()
            known = listing is not None
            kind = kind_from_listing(client.base_url, listing) if known else "openai"
        form: str = config.structured_output
        adaptive = form == "auto"
        if adaptive:
            form = remembered.form if remembered is not None and remembered.kind == kind else DEFAULT_FORM[kind]
        route.profile = ServerProfile(kind=kind, form=form, thinking=config.thinking, adaptive=adaptive,
                                      fallbacks=list(remembered.fallbacks) if remembered is not None else [])
        if config.server == "auto" and known:
            self._servers.put(client.base_url, route.profile)
        return route.profile

    async def chat(self, request: ChatRequest) -> ChatResult:
        model = self._model(request.stage)
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
            outcome = await self._call(model, request, keep=lambda result: cache.put(key, result))
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
            cache.delete(cache_key(self._model(request.stage), request))

    def peek(self, request: ChatRequest) -> bool:
        """Whether the cache holds a reply to `request` (nothing counted, no call)."""
        cache = self.cache
        return cache is not None and cache.get(cache_key(self._model(request.stage), request)) is not None

    def remember(self, request: ChatRequest, result: ChatResult) -> None:
        """Store `result` as the reply to `request` without calling: one chunk's part of a packed reply,
        under the request that chunk would make alone (see `kgbuild.extract.llm_pack`)."""
        cache = self.cache
        if cache is not None:
            cache.put(cache_key(self._model(request.stage), request), result)

    def _fail_fast(self, route: _Route, request: ChatRequest) -> None:
        """After a refusal of the key or model, fail at once without a request (counted as a failure)."""
        if route.refused is not None:
            self._usage.add(request.stage, request.accounted_to, failures=1)
            refused = route.refused
            raise EndpointRefused(refused.where, refused.problem, refused.hint, status=refused.status)

    async def _call(self, model: str, request: ChatRequest,
                    keep: Callable[[ChatResult], None] | None = None) -> ChatResult:
        """Limits, retries, the endpoint and the accounting of one request the cache did not answer.

        `keep` (the response cache's write) runs before the request's slot is given back: only the
        requests holding a slot (llm.concurrency) can then be paid for and not kept, so a build killed
        at any moment pays again for at most those."""
        route = self._route(request.stage)
        self._fail_fast(route, request)
        stage, doc = request.stage, request.accounted_to
        client = self._chat_client(route)
        profile = await self._profile(route, client)
        endpoint = f"llm.base_url {client.base_url}"
        limits = self._route_limits(route)
        sent = request.model_copy(update={"max_tokens": self.sized(request)})

        async def attempt(number: int) -> Reply:
            if number > 1:
                await limits.another_request()
            while True:
                self._usage.add(stage, doc, calls=1)
                try:
                    return await client.complete(model, sent, profile)
                except EndpointError as exc:
                    refused = exc.refused_form
                    if refused is None or not profile.adaptive or not profile.lower(refused, exc.problem):
                        raise
                # The server refused the structured-output form: the same request in the next form.
                self._usage.add(stage, doc, form_fallbacks=1)
                log.warning("%s: the server refused response_format %s; using %s from now on",
                            endpoint, refused, profile.form)
                if route.config.server == "auto":
                    self._servers.put(client.base_url, profile)

        def on_retry(exc: EndpointError, wait: float) -> None:
            self._usage.add(stage, doc, retries=1)
            log.info("%s: %s; retrying in %.2f s", exc.where, exc.problem, wait)
            self._heartbeat.failed(f"{exc.where}: {exc.problem}")

        async with limits.slot():
            # Checked again: the refusal may have come while this request waited for its slot, so
            # at most the requests already in flight (llm.concurrency) meet a wrong key.
            self._fail_fast(route, request)
            estimate = 0
            if limits.needs_token_estimate:
                estimate = self._prompt_tokens(request) + (sent.max_tokens or DEFAULT_COMPLETION_RESERVE)
            reservation = await limits.reserve(estimate)
            started = self._clock()
            try:
                reply, retries = await call_with_retries(attempt, policy=route.policy, endpoint=endpoint,
                                                         sleep=self._heartbeat.sleep, on_retry=on_retry)
            except LLMCallError as exc:
                # The reservation is kept: failed attempts may have used tokens, and a failing
                # endpoint is better approached slowly.
                self._usage.add(stage, doc, failures=1, seconds=self._clock() - started)
                refused = _refusal(exc)
                if refused is None:
                    raise
                route.refused = refused
                raise refused from None
            self._usage.add(stage, doc, seconds=self._clock() - started)
            if retries:
                self._heartbeat.recovered()

            prompt_tokens = reply.prompt_tokens
            if prompt_tokens is None:
                prompt_tokens = self._prompt_tokens(request)
            reasoning_tokens = reply.reasoning_tokens
            if reasoning_tokens is None:
                reasoning_tokens = self._tokens(reply.reasoning) if reply.reasoning else 0
            completion_tokens = reply.completion_tokens
            if completion_tokens is None:
                completion_tokens = self._tokens(reply.text) + reasoning_tokens
            else:  # our estimate of the thoughts, within what the server says the whole reply took
                reasoning_tokens = min(reasoning_tokens, completion_tokens)
            limits.settle(reservation, prompt_tokens + completion_tokens)

            self._usage.add_tokens(stage, doc, model, prompt_tokens, completion_tokens)
            extra: dict[str, float] = {}
            if reasoning_tokens:
                extra["reasoning_tokens"] = reasoning_tokens
            if reply.finish_reason == "length":
                extra["cut_off"] = 1
            if extra:
                self._usage.add(stage, doc, **extra)
            result = ChatResult(text=reply.text, model=model, prompt_tokens=prompt_tokens,
                                completion_tokens=completion_tokens, reasoning_tokens=reasoning_tokens,
                                finish_reason=reply.finish_reason, retries=retries)
            if keep is not None:
                keep(result)
        return result

    async def aclose(self) -> None:
        # Sockets of a client made in an earlier (now closed) event loop cannot be closed from
        # this one; they went with that loop, so the client is just dropped.
        loop = asyncio.get_running_loop()
        for route in self._routes.values():
            if route.client_loop is loop:
                await route.client.aclose()
            route.client = ChatClient(route.config)
            route.client_loop = None
        if self._cache is not None:
            self._cache.close()
            self._cache = None

    async def __aenter__(self) -> LLMGateway:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()
