"""Records exchanged with the model gateway, and its errors."""

from __future__ import annotations

from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

from kgbuild.errors import KgbuildError


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
    max_tokens: int | None = None
    doc_id: str | None = None  # accounting per document


class ChatResult(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: str
    model: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    finish_reason: str | None = None  # "length" means the reply was cut off
    cached: bool = False
    retries: int = 0


class Gateway(Protocol):
    async def chat(self, request: ChatRequest) -> ChatResult: ...

    def forget(self, request: ChatRequest) -> None:
        """Drop a cached reply the caller could not use, so it is asked again next time."""
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


class UsageTotals(BaseModel):
    """Counters of one accounting bucket (a stage, a document, or everything)."""

    calls: int = 0  # requests sent over the network (retries included)
    requests: int = 0  # logical requests asked of the gateway
    cache_hits: int = 0
    retries: int = 0
    failures: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    seconds: float = Field(0.0, description="wall time spent waiting on the endpoint")
