"""Client-side limits: requests in flight, requests per minute, tokens per minute.

The per-minute limits are token buckets that hold one minute's allowance and refill continuously
(the convention of aiolimiter and of the providers' own limits); the concurrency cap bounds how
much of a full bucket can burst at once. Tokens are reserved before a call from an estimate
(prompt + max_tokens) and reconciled with the real usage after it, so a run of short replies
does not throttle itself on the estimates.

The clock and the sleep are injectable so tests can run minutes of rate limiting in no time.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]


class TokenBucket:
    """`capacity` units, refilled at `capacity / period_s` per second.

    The level may go below zero: a request larger than the whole bucket is let through once the
    bucket is full (it could never fit otherwise) and its excess is paid back before the next one.
    No asyncio.Lock: waiters re-check after every sleep, and the event loop runs one at a time.
    """

    def __init__(self, capacity: float, *, period_s: float = 60.0, clock: Clock, sleep: Sleep) -> None:
        if capacity <= 0:
            raise ValueError("capacity must be positive")
        self.capacity = float(capacity)
        self.rate = self.capacity / period_s
        self._clock = clock
        self._sleep = sleep
        self._level = self.capacity
        self._stamp = clock()

    def _refill(self) -> None:
        now = self._clock()
        self._level = min(self.capacity, self._level + (now - self._stamp) * self.rate)
        self._stamp = now

    @property
    def level(self) -> float:
        self._refill()
        return self._level

    async def take(self, amount: float) -> float:
        """Wait until `amount` is available, take it; return the seconds waited."""
        need = min(float(amount), self.capacity)
        waited = 0.0
        while True:
            self._refill()
            if self._level >= need:
                self._level -= amount
                return waited
            delay = (need - self._level) / self.rate
            await self._sleep(delay)
            waited += delay

    def give_back(self, amount: float) -> None:
        """Return (or, when negative, charge) units after the fact."""
        self._refill()
        self._level = min(self.capacity, self._level + amount)


@dataclass
class Reservation:
    tokens: int
    waited_s: float


class Limits:
    """The concurrency cap and the optional per-minute buckets of one gateway."""

    def __init__(self, concurrency: int, *, requests_per_minute: int | None = None,
                 tokens_per_minute: int | None = None, clock: Clock, sleep: Sleep) -> None:
        self.concurrency = concurrency
        self.requests = TokenBucket(requests_per_minute, clock=clock, sleep=sleep) if requests_per_minute else None
        self.tokens = TokenBucket(tokens_per_minute, clock=clock, sleep=sleep) if tokens_per_minute else None
        # An asyncio.Semaphore belongs to the loop it first waited in; a gateway reused by a
        # second asyncio.run() gets a fresh one instead of a "bound to a different loop" error.
        self._semaphore: asyncio.Semaphore | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def needs_token_estimate(self) -> bool:
        return self.tokens is not None

    def _slot_semaphore(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        if self._semaphore is None or self._loop is not loop:
            self._semaphore = asyncio.Semaphore(self.concurrency)
            self._loop = loop
        return self._semaphore

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        async with self._slot_semaphore():
            yield

    async def reserve(self, tokens: int) -> Reservation:
        """One request and `tokens` estimated tokens, waiting as the per-minute limits require."""
        waited = 0.0
        if self.requests is not None:
            waited += await self.requests.take(1)
        if self.tokens is not None:
            waited += await self.tokens.take(tokens)
        return Reservation(tokens=tokens, waited_s=waited)

    async def another_request(self) -> float:
        """A retry is one more request against the requests-per-minute limit."""
        return await self.requests.take(1) if self.requests is not None else 0.0

    def settle(self, reservation: Reservation, used_tokens: int) -> None:
        """Correct the token bucket by the difference between the estimate and the real usage."""
        if self.tokens is not None:
            self.tokens.give_back(reservation.tokens - used_tokens)
