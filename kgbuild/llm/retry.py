"""Retries of retryable endpoint failures (429, 5xx, timeouts, lost connections), with tenacity.

Backoff is exponential with full jitter: the n-th wait is uniform in
[0, min(backoff_max_s, backoff_initial_s * 2**(n-1))], so many workers hit by the same overload do
not come back in lockstep. When the server sent Retry-After, we wait at least that long (but never
more than backoff_max_s: a server asking for minutes is better reported than waited on).
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from tenacity import AsyncRetrying, RetryCallState, retry_if_exception, stop_after_attempt

from kgbuild.llm.client import EndpointError, one_line
from kgbuild.llm.types import LLMCallError

T = TypeVar("T")
Sleep = Callable[[float], Awaitable[None]]


@dataclass(frozen=True)
class RetryPolicy:
    max_retries: int
    backoff_initial_s: float
    backoff_max_s: float

    def wait_for(self, retry_number: int, retry_after: float | None, rng: random.Random) -> float:
        """Seconds to wait before retry number `retry_number` (1-based)."""
        ceiling = min(self.backoff_max_s, self.backoff_initial_s * 2 ** (retry_number - 1))
        wait = rng.uniform(0.0, ceiling)
        if retry_after is not None:
            wait = max(wait, min(retry_after, self.backoff_max_s))
        return wait


def _retryable(exc: BaseException) -> bool:
    return isinstance(exc, EndpointError) and exc.retryable


async def call_with_retries(
    attempt: Callable[[int], Awaitable[T]],
    *,
    policy: RetryPolicy,
    endpoint: str,
    sleep: Sleep,
    on_retry: Callable[[EndpointError, float], None] | None = None,
    rng: random.Random | None = None,
) -> tuple[T, int]:
    """Run `attempt(n)` (n = 1, 2, ...) until it succeeds; return its value and the retries made.

    `attempt` must raise `EndpointError` on failure. Non-retryable failures are raised at once as
    `LLMCallError`; retryable ones after `policy.max_retries` retries, naming `endpoint`.
    """
    rng = rng or random.Random()

    def wait(state: RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome else None
        retry_after = exc.retry_after if isinstance(exc, EndpointError) else None
        return policy.wait_for(state.attempt_number, retry_after, rng)

    def before_sleep(state: RetryCallState) -> None:
        exc = state.outcome.exception() if state.outcome else None
        if on_retry is not None and isinstance(exc, EndpointError):
            on_retry(exc, state.upcoming_sleep)

    retrying = AsyncRetrying(
        sleep=sleep,
        stop=stop_after_attempt(policy.max_retries + 1),
        wait=wait,
        retry=retry_if_exception(_retryable),
        before_sleep=before_sleep,
        reraise=True,
    )
    attempts = 0
    try:
        async for round_ in retrying:
            with round_:
                attempts = round_.retry_state.attempt_number
                value = await attempt(attempts)
    except EndpointError as exc:
        if not exc.retryable:
            raise exc.to_call_error() from None
        raise LLMCallError(
            endpoint,
            f"failed after {attempts} attempt{'s' if attempts != 1 else ''}: {one_line(exc.problem)}",
            exc.hint or "the endpoint is overloaded or down; raise llm.max_retries or lower llm.concurrency",
            status=exc.status,
            retryable=True,
        ) from None
    return value, attempts - 1
