"""The trace, timing and model usage of one answer, as the graph strategies record them.

A strategy opens a `Trace` when a question comes in, with its model session if it has one. Each
step starts a `timer()` and ends with `add`, which numbers the step after the ones before and gives
it the seconds and the model calls since its timer started. `finish` puts the steps on the Answer
with the time since the trace was opened and the model's share of it (calls, tokens, seconds spent
waiting on the endpoint). Without a session every usage is zero.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Protocol

from kgbuild.query.types import Answer, StepResult, TraceStep


@dataclass(frozen=True)
class Usage:
    """Counters of the gateway at one moment; subtract two to get what happened in between."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    model_seconds: float = 0.0  # wall time spent waiting on the endpoint

    def __sub__(self, other: Usage) -> Usage:
        return Usage(self.calls - other.calls, self.prompt_tokens - other.prompt_tokens,
                     self.completion_tokens - other.completion_tokens, self.model_seconds - other.model_seconds)


@dataclass(frozen=True)
class Timer:
    """When a step (or the whole answer) started, and the session's counters at that moment."""

    started: float
    mark: Usage


class Session(Protocol):
    """What a trace reads from a model session (kgbuild/query/model_session.py)."""

    def usage(self) -> Usage: ...


class Trace:
    def __init__(self, session: Session | None = None) -> None:
        self.session = session
        self.steps: list[TraceStep] = []
        self.start = self.timer()

    def timer(self) -> Timer:
        return Timer(time.perf_counter(), self._usage())

    def seconds(self, since: Timer | None = None) -> float:
        """Seconds since `since` (default: since the trace was opened)."""
        return time.perf_counter() - (since or self.start).started

    def used(self, since: Timer | None = None) -> Usage:
        """What the model cost since `since` (default: since the trace was opened)."""
        return self._usage() - (since or self.start).mark

    def add(self, question: str, logical_form: str, result: StepResult, since: Timer, *,
            seconds: float | None = None) -> TraceStep:
        """Record the next step, timed since `since` (or the `seconds` measured where the work was
        done), with the model calls made since `since`."""
        step = TraceStep(step=len(self.steps) + 1, question=question, logical_form=logical_form, result=result,
                         seconds=self.seconds(since) if seconds is None else seconds,
                         llm_calls=self.used(since).calls)
        self.steps.append(step)
        return step

    def finish(self, answer: Answer) -> Answer:
        """`answer` with the steps, the time since the trace was opened and the model's share."""
        used = self.used()
        answer.trace = self.steps
        answer.llm_calls = used.calls
        answer.prompt_tokens = used.prompt_tokens
        answer.completion_tokens = used.completion_tokens
        answer.model_seconds = used.model_seconds
        answer.seconds = self.seconds()
        return answer

    def _usage(self) -> Usage:
        return self.session.usage() if self.session is not None else Usage()
