"""Model calls from synchronous code (the solver session, the graph strategies): one event loop, one gateway.

Every call goes through the one gateway (reply cache, rate limits, retries, accounting) and asks for
a typed reply (`Gateway.ask`): a malformed reply is re-asked once with what was wrong, and a step
with no usable reply gets its `unknown` record instead of an exception, so a strategy's `answer`
never fails on an odd reply. A call that fails for good (the endpoint is down) still raises.
`usage()` marks (kgbuild/query/trace.py) let a strategy report the calls, tokens and model time of one question.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any, TypeVar

from kgbuild.llm.gateway import LLMGateway
from kgbuild.llm.prompts import prompt_library
from kgbuild.llm.types import R
from kgbuild.query.llm_ask import MAX_REASKS, ask_step
from kgbuild.query.trace import Usage

T = TypeVar("T")

if TYPE_CHECKING:
    from kgbuild.config import Config
    from kgbuild.workspace import Workspace


class ModelSession:
    """Owns the event loop the gateway's HTTP client lives on, for all of a strategy's questions."""

    def __init__(self, config: Config, workspace: Workspace, *, use_cache: bool = True) -> None:
        self.prompts = prompt_library(config)
        self.gateway = LLMGateway(config.llm, cache_path=workspace.cache_dir / "llm.sqlite", use_cache=use_cache)
        self._loop = asyncio.new_event_loop()

    def run(self, work: Coroutine[Any, Any, T]) -> T:
        """Run one coroutine of this session's (its gateway's client lives on this loop)."""
        return self._loop.run_until_complete(work)

    def usage(self) -> Usage:
        total = self.gateway.usage.total
        return Usage(total.calls, total.prompt_tokens, total.completion_tokens, total.seconds)

    def ask(self, prompt: str, stage: str, reply_model: type[R], *, unknown: R, max_reasks: int = MAX_REASKS,
            **values: object) -> R:
        """Render `prompt` with `values`, ask for a `reply_model` (accounted under `stage`); `unknown`
        when no reply was usable after the re-ask."""
        return self.run(ask_step(self.gateway, self.prompts, prompt, stage, reply_model,
                                                      unknown=unknown, max_reasks=max_reasks, **values))

    def close(self) -> None:
        if self._loop.is_closed():
            return
        try:
            self._loop.run_until_complete(self.gateway.aclose())
        finally:
            self._loop.close()
