"""Records exchanged with the model gateway, the one gateway protocol, and its errors."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from kgbuild.errors import KgbuildError

if TYPE_CHECKING:
    from kgbuild.llm.accounting import Accounting  # imports this module: only for type checking


class ChatMessage(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    role: Literal["system", "user", "assistant"]
    content: str


class ChatRequest(BaseModel):
    """One chat completion, as a stage asks for it; the gateway picks the model for the stage."""

    model_config = ConfigDict(extra="forbid")

    stage: str  # "extract", "extract.entities", "split", ... : selects the model and the accounting bucket
    template: str  # prompt template id and version, e.g. "extract.joint@1": part of the cache key
    messages: list[ChatMessage]
    json_mode: bool = True
    temperature: float = 0.0
    max_tokens: int | None = None  # None: llm.max_output_tokens (the gateway sends a cap on every request)
    # The JSON schema of the record the reply must be (`ask` sets its reply model's), sent as the
    # server's structured-output form (kgbuild.llm.server). Not part of the cache key: the template
    # version already names the reply's shape.
    reply_schema: dict[str, Any] | None = None
    # Passages the reply covers (an extraction, a pack of them): max_tokens is then
    # passages x llm.passage_output_tokens, capped by llm.max_output_tokens. Not in the cache key.
    passages: int = Field(default=0, ge=0)
    doc_id: str | None = None  # accounting per document
    # A call made for several documents at once (a pack of short chunks): document -> weight, by
    # which its usage is split between them in the per-document accounting. Not part of the cache key.
    doc_shares: dict[str, float] = Field(default_factory=dict)

    @property
    def accounted_to(self) -> str | dict[str, float] | None:
        """Whom the accounting charges: the weighted documents of a packed call, else `doc_id`."""
        return self.doc_shares or self.doc_id


class ChatResult(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: str
    model: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    reasoning_tokens: int = 0  # of completion_tokens, spent thinking (reasoning_content, <think>)
    finish_reason: str | None = None  # "length" means the reply was cut off
    cached: bool = False
    retries: int = 0


R = TypeVar("R", bound=BaseModel)

# What a caller checks beyond the reply model's own validation (say, that chunk spans cover every
# sentence): the problem, to be sent back to the model, or None when the reply is usable.
Check = Callable[[R], str | None]

# The re-ask turn when the caller names no prompt for it; `{error}` is what was wrong.
DEFAULT_REASK_MESSAGE = ("Your previous reply could not be used: {error}\n"
                         "Reply again with the complete JSON object only, in exactly the format asked for.")


class Reask(BaseModel):
    """How `Gateway.ask` asks again after a reply it cannot use: how often, and in which words.

    The re-ask is the conversation so far, the unusable reply as the assistant turn, and `message`
    (a str.format text with `{error}`) as the next user turn, so the model sees what it got wrong.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    max_reasks: int = Field(default=1, ge=0)  # re-asks after the first request; 0 asks once
    message: str = DEFAULT_REASK_MESSAGE
    # id@version of the prompt `message` comes from, joined to the request's template
    # ("extract.joint@1+reask@1") so a reworded re-ask prompt is a new cache key and a new
    # accounting name; None when the words belong to the request's own template.
    template: str | None = None
    stage: str | None = None  # accounting bucket of the re-asks; None: the request's own stage

    def user_turn(self, error: str) -> ChatMessage:
        return ChatMessage(role="user", content=self.message.format_map({"error": error}))


class AskTrail(BaseModel):
    """What one `Gateway.ask` went through, for callers that report it (a trace, a repair note)."""

    attempts: int = 0  # requests sent, the first one included
    errors: list[str] = Field(default_factory=list)  # why each rejected reply was rejected, in order
    repaired: bool = False  # the reply used was cut off and closed after its last complete record
    finish_reason: str | None = None  # of the reply used


class Gateway(Protocol):
    """The one interface to language models: the real `LLMGateway` and every test fake.

    `ask` is the way stages talk to a model; `chat` and `forget` are its parts (one exchange,
    and dropping a cached reply the caller could not use). `kgbuild.llm.ask.AskMixin` implements
    `ask` on top of them, so an implementation writes only `chat`, `forget` and `usage`.
    """

    @property
    def usage(self) -> Accounting: ...

    async def chat(self, request: ChatRequest) -> ChatResult: ...

    def forget(self, request: ChatRequest) -> None:
        """Drop a cached reply the caller could not use, so it is asked again next time."""
        ...

    async def ask(self, request: ChatRequest, reply_model: type[R], *, reask: Reask | None = None,
                  check: Check[R] | None = None, trail: AskTrail | None = None) -> R:
        """The reply as a `reply_model`, repaired where that is safe, re-asked with the error while
        `reask` allows; `UnusableReply` when no reply could be used, `LLMCallError` when a call failed."""
        ...


@runtime_checkable
class ReplyStore(Protocol):
    """A gateway whose reply cache can be asked and filled per request, without a call: packed
    extraction stores each chunk's part of a packed reply under the request that chunk would make
    alone, so the cache stays per chunk (a re-run, or a changed neighbour, re-pays nothing)."""

    def peek(self, request: ChatRequest) -> bool:
        """Whether a reply to `request` is cached (nothing counted)."""
        ...

    def remember(self, request: ChatRequest, result: ChatResult) -> None:
        """Cache `result` as the reply to `request` (no call made, nothing counted)."""
        ...


class LLMCallError(KgbuildError):
    """A model call failed for good: not retryable (auth, bad request) or retries exhausted.

    Extraction records it as a per-chunk failure (not cached, retried on the next build).
    """

    def __init__(self, where: str, problem: str, hint: str = "", *, status: int | None = None,
                 retryable: bool = False) -> None:
        super().__init__(where, problem, hint)
        self.status = status
        self.retryable = retryable


class EndpointRefused(LLMCallError):
    """The endpoint refused the configuration itself (401/403: the API key; 404: the model), so
    no later call can succeed either: the gateway sends no more requests, and a caller working
    through many items stops at the first one instead of failing each."""


class UnusableReply(LLMCallError):
    """Every reply to one `ask` (the first and each re-ask) was unusable: not JSON, or not the
    record asked for. Each was dropped from the reply cache, so the next run asks afresh."""

    def __init__(self, where: str, problem: str, hint: str = "", *, errors: list[str], attempts: int) -> None:
        super().__init__(where, problem, hint)
        self.errors = errors
        self.attempts = attempts


class UsageTotals(BaseModel):
    """Counters of one accounting bucket (a stage, a document, or everything)."""

    calls: int = 0  # requests sent over the network (retries included)
    requests: int = 0  # logical requests asked of the gateway
    cache_hits: int = 0
    retries: int = 0
    failures: int = 0
    reasks: int = 0  # requests sent again because the reply before could not be used
    unusable: int = 0  # replies that could not be read as the record asked for
    prompt_tokens: int = 0
    completion_tokens: int = 0
    reasoning_tokens: int = 0  # of completion_tokens, a reasoning model's thinking (never parsed as the reply)
    cut_off: int = 0  # replies that stopped at max_tokens (finish_reason "length"): repaired or re-asked
    form_fallbacks: int = 0  # requests sent again in a weaker structured-output form after a refusal
    cost_usd: float = 0.0
    seconds: float = Field(default=0.0, description="wall time spent waiting on the endpoint")
