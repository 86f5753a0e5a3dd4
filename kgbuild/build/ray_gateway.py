"""The model gateway of a build on Ray: the local `LLMGateway`, with its cache and limits held by one
actor for the whole cluster.

Every worker (and the driver) runs the usual middleware (cache -> limits -> retries -> client ->
accounting); only two parts are swapped for proxies to the build's `EndpointCoordinator` actor
(`ray_coordinator.py`):

- the response cache: one SQLite file in the driver's workspace, read and written by the actor,
  so a reply paid for by one worker is a hit for every other worker and for every later build;
- the limits: one concurrency cap and one pair of per-minute buckets for the endpoint, however
  many workers ask.

Before a request goes out, the worker also claims its cache key at the actor: the same request on
its way from another worker is waited for instead of paid twice (the local gateway does the same
between the coroutines of one process). Accounting stays per worker and is summed by the driver;
every request paid is also reported to the actor's ledger as it completes, so the driver can add the
calls of tasks whose results never came back (a worker that died mid-task).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from kgbuild.config import LLMConfig
from kgbuild.llm.cache import ResponseCache, cache_key
from kgbuild.llm.gateway import LLMGateway
from kgbuild.llm.limits import Limits, Reservation
from kgbuild.llm.types import ChatRequest, ChatResult, LLMCallError


def _get(ref: Any) -> Any:
    import ray

    return ray.get(ref)


class RemoteCache(ResponseCache):
    """`ResponseCache` whose rows live in the coordinator actor (one file for the whole cluster)."""

    def __init__(self, coordinator: Any) -> None:  # no local file: the base __init__ is not called
        self.path = Path("<ray coordinator>")
        self._coordinator = coordinator

    def get(self, key: str) -> ChatResult | None:
        value = _get(self._coordinator.cache_get.remote(key))
        if value is None:
            return None
        return ChatResult.model_validate_json(value).model_copy(update={"cached": True, "retries": 0})

    def put(self, key: str, result: ChatResult) -> None:
        # Waited for: a worker that dies right after the call must not lose the paid reply.
        _get(self._coordinator.cache_put.remote(key, result.model_dump_json(exclude={"cached", "retries"})))

    def delete(self, key: str) -> None:
        _get(self._coordinator.cache_delete.remote(key))

    def count(self) -> int:
        return int(_get(self._coordinator.cache_count.remote()))

    def clear(self) -> int:
        return int(_get(self._coordinator.cache_clear.remote()))

    def close(self) -> None:
        pass  # the actor owns the file


class RemoteLimits(Limits):
    """`Limits` whose slots and buckets are the coordinator's: one budget for the whole cluster."""

    def __init__(self, config: LLMConfig, coordinator: Any) -> None:
        super().__init__(config.concurrency, requests_per_minute=None, tokens_per_minute=None,
                         clock=lambda: 0.0, sleep=asyncio.sleep)
        self._coordinator = coordinator
        self._tokens_limited = config.tokens_per_minute is not None

    @property
    def needs_token_estimate(self) -> bool:
        return self._tokens_limited

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        lease = await self._coordinator.enter.remote()
        try:
            yield
        finally:
            await self._coordinator.leave.remote(lease)

    async def reserve(self, tokens: int) -> Reservation:
        waited = await self._coordinator.reserve.remote(tokens)
        return Reservation(tokens=tokens, waited_s=float(waited))

    async def another_request(self) -> float:
        return float(await self._coordinator.another_request.remote())

    def settle(self, reservation: Reservation, used_tokens: int) -> None:
        self._coordinator.settle.remote(reservation.tokens - used_tokens)


class RayGateway(LLMGateway):
    def __init__(self, config: LLMConfig, coordinator: Any, *, use_cache: bool = True) -> None:
        super().__init__(config, cache_path=None, use_cache=use_cache)
        self._coordinator = coordinator
        self._remote_cache = RemoteCache(coordinator) if (use_cache and config.cache) else None
        self._limits = RemoteLimits(config, coordinator)

    @property
    def cache(self) -> ResponseCache | None:
        return self._remote_cache

    async def _call(self, model: str, request: ChatRequest,
                    keep: Callable[[ChatResult], None] | None = None) -> ChatResult:
        """The request, reported to the coordinator's ledger as soon as it is answered (or has failed):
        the task's own accounting reaches the driver only with its result, which a dying worker never sends."""
        if self._refused is not None:
            return await super()._call(model, request, keep)  # refused at once, no request sent
        try:
            result = await super()._call(model, request, keep)
        except LLMCallError:
            await self._coordinator.tally.remote(request.stage, {"calls": 1, "failures": 1})
            raise
        cost = self._usage.cost(model, result.prompt_tokens, result.completion_tokens)
        await self._coordinator.tally.remote(request.stage, {
            "calls": 1 + result.retries, "retries": result.retries, "prompt_tokens": result.prompt_tokens,
            "completion_tokens": result.completion_tokens, "cost_usd": cost})
        return result

    async def chat(self, request: ChatRequest) -> ChatResult:
        if self._remote_cache is None:
            return await super().chat(request)
        key = cache_key(self._config.model_for(request.stage), request)
        value = await self._coordinator.cache_get.remote(key)  # a hit costs one round trip, no claim
        if value is not None:
            self._usage.add(request.stage, request.doc_id, requests=1, cache_hits=1)
            return ChatResult.model_validate_json(value).model_copy(update={"cached": True, "retries": 0})
        # Waits while another worker has this very request in flight; then the cache answers.
        claim = await self._coordinator.claim.remote(key)
        try:
            return await super().chat(request)
        finally:
            await self._coordinator.release.remote(key, claim)
