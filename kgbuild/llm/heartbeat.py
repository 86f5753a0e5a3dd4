"""A line on stderr while an endpoint keeps failing, so a slow outage never looks like a hang.

Retries back off for up to `llm.backoff_max_s` (a minute by default) and a progress bar is not
drawn on a non-TTY stderr (CI logs, `2> build.log`), so a build meeting a flaky server used to
print nothing for minutes. Every retry wait goes through `Heartbeat.sleep`, which sleeps in
pieces of at most `STEP_S` and, while some request is failing, writes one line (through the
`kgbuild.llm` logger, whose warnings reach stderr) whenever `EVERY_S` have passed since the last:
one line for all the requests waiting at once, never one per request.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger("kgbuild.llm")

EVERY_S = 8.0  # with STEP_S, a line at least every 10 s while requests wait on a failing endpoint
STEP_S = 2.0


class Heartbeat:
    def __init__(self, *, clock: Callable[[], float], sleep: Callable[[float], Awaitable[None]],
                 write: Callable[[str], None] | None = None) -> None:
        self._clock = clock
        self._sleep = sleep
        self._write = write or log.warning
        self._last: float | None = None  # when the last line was written
        self._problem = ""
        self._failures = 0
        self._since: float | None = None  # when the current run of failures began

    def failed(self, problem: str) -> None:
        """A request failed and will be retried: the next beat reports it."""
        if self._since is None:
            self._since = self._clock()
        self._problem = problem
        self._failures += 1
        self._beat()

    def recovered(self) -> None:
        if self._since is not None:
            self._write(f"llm: the endpoint answers again after {self._failures} failed attempt(s)")
        self._since, self._failures, self._last = None, 0, None

    def _beat(self) -> None:
        now = self._clock()
        if self._since is None or (self._last is not None and now - self._last < EVERY_S):
            return
        self._last = now
        self._write(f"llm: {self._problem}; retrying ({self._failures} failed attempt(s) in "
                    f"{now - self._since:.0f} s)")

    async def sleep(self, seconds: float) -> None:
        """The retry wait, in steps, with a line every EVERY_S while failures go on."""
        left = max(0.0, seconds)
        while left > 0:
            step = min(STEP_S, left)
            await self._sleep(step)
            left -= step
            self._beat()
