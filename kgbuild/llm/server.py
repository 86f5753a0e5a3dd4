"""What serves the endpoint, and the request forms it takes.

OpenAI-compatible servers agree on chat completions but not on how a reply is held to a JSON schema:

    kind       structured output it honours                     thinking switch (llm.thinking: off)
    openai     response_format {type: json_schema, ...}         (none sent: hosted models take no switch)
    vllm       response_format {type: json_schema, ...}         chat_template_kwargs {enable_thinking: false}
    sglang     response_format {type: json_schema, ...}         chat_template_kwargs {enable_thinking: false}
    llamacpp   response_format {type: json_object, schema: ...} chat_template_kwargs {enable_thinking: false}
               (llama-cpp-python answers json_schema with HTTP 500)
    ollama     response_format {type: json_schema, ...}         reasoning_effort: none
               (its /v1 endpoint turns the schema into Ollama's `format`)

`auto` (llm.server) is decided from the endpoint's GET /models listing (`owned_by`, llama.cpp's
`meta`, the host), and `auto` (llm.structured_output) is then the kind's form. Whatever was chosen,
a server that refuses the form (a 400/422/500 whose message names response_format or the schema)
is asked again with the next, weaker form: json_schema -> json_object_schema -> json_object -> none.
The forms learned are kept per endpoint (`ServerProfile`), so only the first request pays.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

KINDS = ("openai", "vllm", "sglang", "llamacpp", "ollama")
FORMS = ("json_schema", "json_object_schema", "json_object", "none")
DEFAULT_FORM = {"openai": "json_schema", "vllm": "json_schema", "sglang": "json_schema",
                "llamacpp": "json_object_schema", "ollama": "json_schema"}
# Kinds whose chat template takes the thinking switch in chat_template_kwargs.
_TEMPLATE_SWITCH = frozenset({"vllm", "sglang", "llamacpp"})
# A refusal of the structured-output form names it (vLLM: "response_format", llama-cpp-python:
# "json_schema", others: "schema", "grammar", "guided_json"); any other 400/500 is a real failure.
_FORM_WORDS = re.compile(r"response_format|json_schema|json_object|\bschema\b|grammar|guided_json",
                         re.IGNORECASE)
_FORM_STATUSES = frozenset({400, 415, 422, 500, 501})
# A reasoning model's thoughts, before (or instead of) the answer; an unclosed one was cut off.
_THINK = re.compile(r"<(think|thinking|reasoning)>.*?(</\1>|\Z)", re.DOTALL | re.IGNORECASE)


def is_form_refusal(status: int | None, message: str) -> bool:
    """Whether an HTTP error refuses the structured-output form (so a weaker one may be accepted)."""
    return status in _FORM_STATUSES and bool(_FORM_WORDS.search(message or ""))


def next_form(form: str) -> str | None:
    """The next weaker form after `form`, or None after `none`."""
    i = FORMS.index(form)
    return FORMS[i + 1] if i + 1 < len(FORMS) else None


def strip_thinking(text: str) -> tuple[str, str]:
    """(the reply without its <think> blocks, the thoughts): thoughts are never parsed as the answer."""
    thoughts = [m.group(0) for m in _THINK.finditer(text)]
    if not thoughts:
        return text, ""
    return _THINK.sub("", text).strip(), "\n".join(thoughts)


def kind_from_listing(base_url: str, listing: Any) -> str:
    """The server kind from a GET /models body (and the host); `openai` when nothing tells."""
    host = (urlsplit(base_url).hostname or "").lower()
    if host.endswith("openai.com"):
        return "openai"
    data = listing.get("data") if isinstance(listing, dict) else None
    models = [m for m in data if isinstance(m, dict)] if isinstance(data, list) else []
    owners = {str(m.get("owned_by", "")).lower() for m in models}
    if "vllm" in owners or any("max_model_len" in m for m in models):
        return "vllm"
    if "sglang" in owners:
        return "sglang"
    # llama.cpp's llama-server says owned_by "llamacpp" with a `meta` block; llama-cpp-python says "me".
    if "llamacpp" in owners or "me" in owners or any("meta" in m for m in models):
        return "llamacpp"
    if "library" in owners or "ollama" in owners or urlsplit(base_url).port == 11434:
        return "ollama"
    return "openai"


def model_names(listing: Any) -> list[str] | None:
    """The model ids a GET /models body lists, or None when it lists none (nothing to check against)."""
    data = listing.get("data") if isinstance(listing, dict) else None
    if not isinstance(data, list):
        return None
    names = [str(m.get("id")) for m in data if isinstance(m, dict) and m.get("id")]
    return names or None


@dataclass
class ServerProfile:
    """One endpoint's kind and the structured-output form it currently gets (lowered on refusals)."""

    kind: str
    form: str
    thinking: str = "auto"
    adaptive: bool = True  # llm.structured_output auto: a refused form steps down; else the refusal stands
    fallbacks: list[str] = field(default_factory=list)  # "json_schema -> json_object_schema: <why>"

    def describe(self) -> str:
        """One line for the report: "llamacpp, json_object_schema (json_schema -> ...: why)"."""
        line = f"{self.kind}, {self.form}" + (", thinking off" if self.thinking == "off" else "")
        return line + (f" ({'; '.join(self.fallbacks)})" if self.fallbacks else "")

    def lower(self, refused: str, why: str) -> bool:
        """After the server refused `refused`: step to the next form (False when none is left).
        Requests in flight with the old form may report the same refusal; counted once."""
        if refused != self.form:
            return True
        weaker = next_form(self.form)
        if weaker is None:
            return False
        self.fallbacks.append(f"{self.form} -> {weaker}: {why}")
        self.form = weaker
        return True

    def request_fields(self, form: str, schema: dict[str, Any] | None, name: str,
                       json_mode: bool) -> tuple[dict[str, Any], dict[str, Any]]:
        """(the structured-output fields, the server-specific fields) of one request body."""
        kwargs: dict[str, Any] = {}
        extra: dict[str, Any] = {}
        if json_mode and form != "none":
            if form == "json_schema" and schema is not None:
                kwargs["response_format"] = {"type": "json_schema",
                                             "json_schema": {"name": _schema_name(name), "schema": schema,
                                                             "strict": False}}
            elif form == "json_object_schema" and schema is not None:
                kwargs["response_format"] = {"type": "json_object", "schema": schema}
            else:
                kwargs["response_format"] = {"type": "json_object"}
        if self.thinking == "off":
            if self.kind in _TEMPLATE_SWITCH:
                extra["chat_template_kwargs"] = {"enable_thinking": False}
            elif self.kind == "ollama":
                extra["reasoning_effort"] = "none"
        return kwargs, extra


def _schema_name(name: str) -> str:
    # OpenAI allows [a-zA-Z0-9_-]{1,64} here.
    return re.sub(r"[^A-Za-z0-9_-]", "_", name)[:64] or "reply"
