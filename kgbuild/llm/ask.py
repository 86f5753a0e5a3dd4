"""`ask`: one request, its reply as a typed record, bounded re-asks with the error fed back.

    ask(request, ReplyModel)
      -> chat(request)                       the gateway: cache -> limits -> retries -> client -> accounting
      -> parse_reply(text, ReplyModel)       safe repair: fences, prose, trailing commas, a cut-off tail
      -> check(reply)                        what only the caller can judge (optional)
      usable:   the record
      unusable: forget(request)              the bad reply leaves the cache: no later run replays it
                re-ask: the conversation + the bad reply + "could not be used: <error>", while
                `Reask.max_reasks` allows; each re-ask and each unusable reply is counted
      -> UnusableReply                       after the last attempt (a call that fails for good
                                             raises LLMCallError at once, as `chat` does)

`AskMixin` gives any class with `chat`, `forget` and `usage` the `ask` of the `Gateway`
protocol, so the real gateway and the test fakes run exactly this loop.
"""

from __future__ import annotations

import functools
import logging
from typing import Any

from pydantic import BaseModel

from kgbuild.llm.reply import parse_reply
from kgbuild.llm.types import AskTrail, ChatMessage, ChatRequest, Check, Gateway, R, Reask, UnusableReply

log = logging.getLogger(__name__)


@functools.cache
def reply_schema(reply_model: type[BaseModel]) -> dict[str, Any]:
    """The JSON schema of a reply model, as structured-output forms send it (made once per model)."""
    return reply_model.model_json_schema()


def reask_request(original: ChatRequest, last: ChatRequest, reply_text: str, error: str, reask: Reask) -> ChatRequest:
    """The next attempt: the last conversation, the unusable reply as the assistant's turn (so the
    model sees what the error is about), then the re-ask message with the error."""
    template = f"{original.template}+{reask.template}" if reask.template else original.template
    return last.model_copy(update={
        "stage": reask.stage or original.stage,
        "template": template,
        "messages": [*last.messages, ChatMessage(role="assistant", content=reply_text), reask.user_turn(error)],
    })


async def ask_typed(gateway: Gateway, request: ChatRequest, reply_model: type[R], *, reask: Reask | None = None,
                    check: Check[R] | None = None, trail: AskTrail | None = None) -> R:
    """`Gateway.ask`, written once over `chat` and `forget` (see the module doc)."""
    policy = reask if reask is not None else Reask()
    trail = trail if trail is not None else AskTrail()
    # re-asks and bad replies are counted against the step that needed them
    stage, doc = request.stage, request.accounted_to
    if request.json_mode and request.reply_schema is None:
        # The reply model's schema is what a structured-output server holds the reply to.
        request = request.model_copy(update={"reply_schema": reply_schema(reply_model)})
    current = request
    error = ""
    for attempt in range(policy.max_reasks + 1):
        if attempt:
            gateway.usage.add(stage, doc, reasks=1)
        result = await gateway.chat(current)
        trail.attempts += 1
        reply, problem, repaired = parse_reply(result.text, reply_model)
        if reply is not None and check is not None:
            problem = check(reply)
            if problem is not None:
                reply = None
        if reply is not None:
            trail.repaired, trail.finish_reason = repaired, result.finish_reason
            return reply
        gateway.forget(current)
        gateway.usage.add(stage, doc, unusable=1)
        error = problem or "unusable reply"
        if result.finish_reason == "length":
            error = f"the reply was cut off at the length limit ({error})"
        trail.errors.append(error)
        log.debug("%s: unusable reply (attempt %d): %s", stage, attempt + 1, error)
        if attempt < policy.max_reasks:
            current = reask_request(request, current, result.text, error, policy)
    attempts = policy.max_reasks + 1
    first_line = error.strip().splitlines()[0] if error.strip() else error
    raise UnusableReply(stage, f"no usable reply after {attempts} attempt(s): {first_line}",
                        errors=list(trail.errors), attempts=attempts)


class AskMixin:
    """`ask` for a class that has `chat`, `forget` and `usage` (the `Gateway` protocol's parts)."""

    async def ask(self: Gateway, request: ChatRequest, reply_model: type[R], *, reask: Reask | None = None,
                  check: Check[R] | None = None, trail: AskTrail | None = None) -> R:
        return await ask_typed(self, request, reply_model, reask=reask, check=check, trail=trail)
