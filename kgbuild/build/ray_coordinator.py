"""`EndpointCoordinator`: the one place a build on Ray keeps what must be global for a model endpoint.

It runs as an async Ray actor on the driver's node (so it opens the driver's workspace) and holds:
- the model response cache (the workspace's `cache/llm.sqlite`, the same file local builds use);
- the endpoint's limits (`kgbuild.llm.limits`: requests in flight, requests and tokens per minute),
  handed out as leases so a worker that dies holding a slot cannot shrink the budget for good;
- claims on cache keys in flight, so two workers never pay for the same request at once;
- the ledger of paid requests: each worker's gateway reports a request the moment its reply is in,
  before its task returns, so the calls of a worker that dies mid-task are still counted; a request
  that took a slot and was never reported (its worker died during the call) is counted as unknown.

Plain class, no Ray import: the runner wraps it with `ray.remote` when a build asks for Ray.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from pathlib import Path

from kgbuild.config import LLMConfig
from kgbuild.llm.cache import ResponseCache
from kgbuild.llm.limits import Limits, Reservation


class EndpointCoordinator:
    def __init__(self, config: LLMConfig, cache_path: Path | None) -> None:
        self._cache = ResponseCache(cache_path) if cache_path is not None else None
        self._limits = Limits(config.concurrency, requests_per_minute=config.requests_per_minute,
                              tokens_per_minute=config.tokens_per_minute, clock=time.monotonic, sleep=asyncio.sleep)
        self._concurrency = config.concurrency
        # A lease outlives its holder at most this long: the longest a request may legitimately take
        # (every attempt timing out, every back-off at its maximum).
        self._lease_s = config.timeout_s * (config.max_retries + 1) + config.backoff_max_s * config.max_retries
        self._leases: dict[int, float] = {}  # lease id -> deadline
        self._claims: dict[str, tuple[int, float]] = {}  # cache key -> (claim id, deadline)
        self._ids = itertools.count(1)
        self._changed = asyncio.Condition()
        self._paid: dict[str, dict[str, float]] = {}  # stage -> counters of the requests reported
        # Requests about to go out: counted at `reserve`, which the worker calls once it holds a slot. Not at
        # `enter`: the queued `enter` calls of a worker that died still complete, for nobody.
        self._started = 0
        self._reported = 0  # requests reported into the ledger

    # ------------------------------------------------------------------ response cache

    def cache_get(self, key: str) -> str | None:
        if self._cache is None:
            return None
        hit = self._cache.get(key)
        return None if hit is None else hit.model_dump_json(exclude={"cached", "retries"})

    def cache_put(self, key: str, value: str) -> None:
        if self._cache is not None:
            from kgbuild.llm.types import ChatResult

            self._cache.put(key, ChatResult.model_validate_json(value))

    def cache_delete(self, key: str) -> None:
        if self._cache is not None:
            self._cache.delete(key)

    def cache_count(self) -> int:
        return self._cache.count() if self._cache is not None else 0

    def cache_clear(self) -> int:
        return self._cache.clear() if self._cache is not None else 0

    # ------------------------------------------------------------------ requests in flight

    def _expire(self) -> None:
        now = time.monotonic()
        for lease, deadline in list(self._leases.items()):
            if deadline < now:
                del self._leases[lease]
        for key, (_, deadline) in list(self._claims.items()):
            if deadline < now:
                del self._claims[key]

    async def _wait_change(self) -> None:
        async with self._changed:
            # Woken by a release; the timeout lets expired leases of dead workers go.
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._changed.wait(), timeout=1.0)

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def enter(self) -> int:
        """One of the endpoint's `llm.concurrency` slots, as a lease id."""
        while True:
            self._expire()
            if len(self._leases) < self._concurrency:
                lease = next(self._ids)
                self._leases[lease] = time.monotonic() + self._lease_s
                return lease
            await self._wait_change()

    async def leave(self, lease: int) -> None:
        self._leases.pop(lease, None)
        await self._notify()

    async def claim(self, key: str) -> int:
        """Wait while another worker has the request with this cache key in flight, then take it."""
        while True:
            self._expire()
            if key not in self._claims:
                claim = next(self._ids)
                self._claims[key] = (claim, time.monotonic() + self._lease_s)
                return claim
            await self._wait_change()

    async def release(self, key: str, claim: int) -> None:
        if self._claims.get(key, (None, 0.0))[0] == claim:
            del self._claims[key]
        await self._notify()

    # ------------------------------------------------------------------ per-minute budgets

    async def reserve(self, tokens: int) -> float:
        self._started += 1
        reservation = await self._limits.reserve(tokens)
        return reservation.waited_s

    async def another_request(self) -> float:
        return await self._limits.another_request()

    def settle(self, difference: int) -> None:
        self._limits.settle(Reservation(tokens=difference, waited_s=0.0), 0)

    # ------------------------------------------------------------------ the ledger of paid requests

    def tally(self, stage: str, amounts: dict[str, float]) -> None:
        """One request a worker sent: its calls (attempts), retries, failures, tokens and cost."""
        counters = self._paid.setdefault(stage, {})
        for name, amount in amounts.items():
            counters[name] = counters.get(name, 0) + amount
        self._reported += 1

    def ledger(self) -> dict[str, object]:
        """{"by_stage": {stage: counters}, "unreported": requests that were about to go out and were never
        reported}.
        Read at the end of the build, when no request is in flight: an unreported one died with its worker."""
        return {"by_stage": {k: dict(v) for k, v in self._paid.items()},
                "unreported": max(0, self._started - self._reported)}

    def in_flight(self) -> int:
        self._expire()
        return len(self._leases)

    def close(self) -> None:
        if self._cache is not None:
            self._cache.close()
            self._cache = None
