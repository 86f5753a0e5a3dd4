"""The OpenAI-compatible endpoint, behind a small interface: the only `openai` import in kgbuild.

`openai` is imported on first use, not at module import, so building a gateway (or running the
offline extractor) never pays for it. The SDK's own retries are off (`max_retries=0`): retries,
limits and backoff live in our layers, which see every attempt and count it.

Every SDK failure becomes an `EndpointError`: retryable or not, the HTTP status, the server's
Retry-After, and a message that names the setting to fix. The API key never appears in one:
messages from the server are scrubbed of it, and the 401 message ignores the server's text.
"""

from __future__ import annotations

import email.utils
import logging
import math
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kgbuild.config import LLMConfig
from kgbuild.llm.server import ServerProfile, is_form_refusal, strip_thinking
from kgbuild.llm.types import ChatRequest, LLMCallError

if TYPE_CHECKING:
    import openai

log = logging.getLogger(__name__)

DEFAULT_BASE_URL = "https://api.openai.com/v1"
# OpenAI-compatible local servers (vLLM, Ollama, llama.cpp) accept any key; the SDK insists on one.
PLACEHOLDER_API_KEY = "not-needed"
# Statuses worth another attempt, as the SDK's own retry policy has them.
RETRYABLE_STATUSES = frozenset({408, 409, 429})


@dataclass(frozen=True)
class Reply:
    """One completion as the endpoint sent it; usage is None when the server did not report it."""

    text: str
    model: str
    finish_reason: str | None
    prompt_tokens: int | None
    completion_tokens: int | None
    # A reasoning model's thoughts (reasoning_content, <think> blocks), kept out of `text`, and the
    # tokens the server says they took (None: not reported, the gateway counts `reasoning`).
    reasoning: str = ""
    reasoning_tokens: int | None = None


class EndpointError(Exception):
    """One failed attempt, classified for the retry layer."""

    def __init__(self, where: str, problem: str, hint: str = "", *, retryable: bool,
                 status: int | None = None, retry_after: float | None = None, refused_form: str | None = None) -> None:
        super().__init__(f"{where}: {problem}")
        self.where = where
        self.problem = problem
        self.hint = hint
        self.retryable = retryable
        self.status = status
        self.retry_after = retry_after
        # The structured-output form the server refused (kgbuild.llm.server): a weaker one may pass.
        self.refused_form = refused_form

    def to_call_error(self) -> LLMCallError:
        return LLMCallError(self.where, self.problem, self.hint, status=self.status, retryable=self.retryable)


def one_line(text: str, limit: int = 300) -> str:
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def parse_retry_after(headers: Any) -> float | None:
    """Seconds the server asked us to wait: `retry-after-ms`, else `retry-after` (seconds or HTTP date)."""
    if headers is None:
        return None
    raw_ms = headers.get("retry-after-ms")
    if raw_ms:
        try:
            value = float(raw_ms) / 1000.0
            if math.isfinite(value) and value >= 0:
                return value
        except ValueError:
            pass
    raw = headers.get("retry-after")
    if not raw:
        return None
    try:
        value = float(raw)
        return value if math.isfinite(value) and value >= 0 else None
    except ValueError:
        pass
    parsed = email.utils.parsedate_tz(raw)
    if parsed is None:
        return None
    return max(0.0, email.utils.mktime_tz(parsed) - time.time())


class ChatClient:
    """Sends one chat completion; knows nothing about retries, limits or caching."""

    def __init__(self, config: LLMConfig) -> None:
        self._config = config
        self.base_url = (config.base_url or DEFAULT_BASE_URL).rstrip("/")
        self._sdk: openai.AsyncOpenAI | None = None  # created on first call: no endpoint needed before

    def _client(self) -> openai.AsyncOpenAI:
        if self._sdk is None:
            import openai

            self._sdk = openai.AsyncOpenAI(
                base_url=self.base_url,
                api_key=self._config.api_key or PLACEHOLDER_API_KEY,
                timeout=self._config.timeout_s,
                max_retries=0,
            )
        return self._sdk

    async def complete(self, model: str, request: ChatRequest, profile: ServerProfile | None = None) -> Reply:
        """One completion; `profile` says which structured-output form and thinking switch to send
        (None: plain JSON mode, as a server of unknown kind takes it)."""
        client = self._client()
        profile = profile or ServerProfile(kind="openai", form="json_object")
        form = profile.form
        kwargs: dict[str, Any] = {
            "model": model,
            "messages": [{"role": m.role, "content": m.content} for m in request.messages],
            "temperature": request.temperature,
        }
        if request.max_tokens is not None:
            # `max_tokens`, not `max_completion_tokens`: the name every compatible server understands.
            kwargs["max_tokens"] = request.max_tokens
        fields, extra = profile.request_fields(form, request.reply_schema, request.template.split("@")[0],
                                               request.json_mode)
        # The body goes out as built, through the SDK's documented way of sending a request it does
        # not type (`client.post`), not through `chat.completions.create`: `create` walks every
        # argument recursively against its typed parameters before sending (1.2-1.6 ms of CPU for an
        # extraction request here). At concurrency 16 the replies of a wave come back together and
        # are handled one after another, so every millisecond per call delays the wave's last
        # request by ~16 (bench/llm_extract.py's concurrency efficiency). The JSON sent is the same.
        kwargs.update(fields)
        kwargs.update(extra)
        from openai.types.chat import ChatCompletion

        try:
            completion = await client.post("/chat/completions", body=kwargs, cast_to=ChatCompletion)
        except Exception as exc:  # noqa: BLE001 - classified below; anything unknown is a non-retryable failure
            error = self._classify(exc, model, request)
            if "response_format" in fields and is_form_refusal(error.status, error.problem):
                error.refused_form, error.retryable = form, False
            raise error from None
        if not completion.choices:
            raise EndpointError(f"llm.base_url {self.base_url}", f"model '{model}' returned no choices",
                                retryable=False)
        choice = completion.choices[0]
        usage = completion.usage
        # Reasoning servers put the thoughts in `reasoning_content` (vLLM, SGLang, llama.cpp) or
        # `reasoning` (Ollama), or inline as <think>...</think> before the answer.
        text, inline = strip_thinking(choice.message.content or "")
        separate = getattr(choice.message, "reasoning_content", None) or getattr(choice.message, "reasoning", None)
        reasoning = "\n".join(part for part in (str(separate or ""), inline) if part)
        details = getattr(usage, "completion_tokens_details", None) if usage is not None else None
        reported = getattr(details, "reasoning_tokens", None) if details is not None else None
        return Reply(
            text=text,
            model=completion.model or model,
            finish_reason=choice.finish_reason,
            prompt_tokens=usage.prompt_tokens if usage is not None else None,
            completion_tokens=usage.completion_tokens if usage is not None else None,
            reasoning=reasoning,
            reasoning_tokens=reported if isinstance(reported, int) and reported > 0 else None,
        )

    async def listing(self) -> object | None:
        """The endpoint's GET /models body (what `llm.server: auto` reads), or None when it has none
        or cannot be reached now (the request itself then says why)."""
        try:
            return await self._client().get("/models", cast_to=object)
        except Exception as exc:  # noqa: BLE001 - any failure only means "unknown kind"
            log.debug("GET %s/models: %s", self.base_url, self._scrub(str(exc)))
            return None

    def _scrub(self, text: str) -> str:
        key = self._config.api_key
        if not key:
            return one_line(text)
        # The key as it may appear in a library's message: as given, trimmed, or escaped (a header error
        # prints the header's bytes: b'Bearer sk-...\n'); replaced before the text is made one line.
        for form in sorted({key, key.strip(), repr(key)[1:-1], repr(key.encode("utf-8", "replace"))[2:-1]},
                           key=len, reverse=True):
            if len(form) >= 4:
                text = text.replace(form, "***")
        return one_line(text)

    def _classify(self, exc: Exception, model: str, request: ChatRequest) -> EndpointError:
        import openai

        endpoint = f"llm.base_url {self.base_url}"
        if isinstance(exc, openai.APITimeoutError):
            return EndpointError(endpoint, f"no reply within {self._config.timeout_s:g} s",
                                 "raise llm.timeout_s for slow models", retryable=True)
        if isinstance(exc, openai.APIConnectionError):
            cause = exc.__cause__ or exc
            return EndpointError(endpoint, f"cannot connect: {self._scrub(str(cause) or type(cause).__name__)}",
                                 "check that the server is running and llm.base_url is right", retryable=True)
        if not isinstance(exc, openai.APIStatusError):
            return EndpointError(endpoint, f"unexpected reply for model '{model}': "
                                 f"{type(exc).__name__}: {self._scrub(str(exc))}", retryable=False)

        status = exc.status_code
        detail = self._scrub(exc.message)
        if isinstance(exc, openai.AuthenticationError):
            # The server's text is not shown: OpenAI echoes part of the rejected key in it.
            problem = ("the endpoint rejected the API key (401)" if self._config.api_key
                       else "the endpoint requires an API key (401)")
            return EndpointError("llm.api_key", f"{problem} at {self.base_url}",
                                 "set KGBUILD_LLM_API_KEY", retryable=False, status=status)
        if isinstance(exc, openai.PermissionDeniedError):
            return EndpointError("llm.api_key", f"permission denied for model '{model}' at {self.base_url} "
                                 f"(403): {detail}", "use a key that may call this model", retryable=False,
                                 status=status)
        if isinstance(exc, openai.NotFoundError):
            return EndpointError("llm.model", f"model '{model}' not found at {self.base_url} (404): {detail}",
                                 "check llm.model (GET <base_url>/models lists what the server has) and that "
                                 "llm.base_url includes the API prefix, e.g. /v1", retryable=False, status=status)
        if status in RETRYABLE_STATUSES or status >= 500:
            response = getattr(exc, "response", None)
            return EndpointError(endpoint, f"HTTP {status} from model '{model}': {detail}", retryable=True,
                                 status=status, retry_after=parse_retry_after(getattr(response, "headers", None)))
        # 400, 422 and other client errors: this request is wrong and will stay wrong.
        return EndpointError(endpoint, f"request '{request.template}' (stage {request.stage}) rejected by "
                             f"model '{model}' (HTTP {status}): {detail}", retryable=False, status=status)

    async def aclose(self) -> None:
        if self._sdk is not None:
            sdk, self._sdk = self._sdk, None
            await sdk.close()
