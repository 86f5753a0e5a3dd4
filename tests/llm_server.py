"""A scripted OpenAI-compatible chat server for tests (stdlib only).

    with ScriptedLLM() as llm:
        llm.fail(429, retry_after=0.05)
        llm.reply("Alice", '{"entities": []}')
        ... LLMConfig(base_url=llm.base_url, model="m") ...
        assert llm.calls("Alice") == 2

Faults (`fail`, `stall`, `truncate`) are consumed first: each request takes the first matching one
in the order they were added (a stall then answers from the reply rules). Reply rules are tried
newest first. A request no rule matches gets a 400 naming it, so a test notices.
Token usage in replies is a whitespace word count (not tiktoken), so tests can tell the server's
numbers from kgbuild's own estimates. The server binds 127.0.0.1 on a port the OS picks and is
stopped with `shutdown()` (or by leaving the `with` block).
"""

from __future__ import annotations

import json
import re
import sys
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Content = str | Callable[[dict[str, Any]], str]


@dataclass
class _Rule:
    kind: str  # "reply", "fail", "stall", "truncate"
    match: str
    times: int | None  # None: unlimited
    content: Content = ""
    finish_reason: str = "stop"
    usage: bool = True
    delay: float = 0.0
    status: int = 200
    retry_after: float | None = None
    body: str | None = None
    headers: dict[str, str] = field(default_factory=dict)

    def take(self, text: str) -> bool:
        if self.match not in text or self.times == 0:
            return False
        if self.times is not None:
            self.times -= 1
        return True


def _words(text: str) -> int:
    return len(text.split())


def extraction_passages(body: dict[str, Any]) -> list[tuple[str | None, str]]:
    """The passages of an extraction request, as (id, text): one (None, text) for a one-chunk prompt,
    ("1", text), ("2", text), ... for a packed one (passages headed "[id] ", text in triple quotes)."""
    users = [str(m.get("content", "")) for m in body.get("messages") or [] if m.get("role") == "user"]
    user = users[-1] if users else ""
    packed = re.findall(r'^\[(\w+)\] [^\n]*\n(?:[^\n]*\n)?"""\n(.*?)\n"""', user, flags=re.S | re.M)
    if packed:
        return [(pid, text) for pid, text in packed]
    single = re.findall(r'"""\n(.*?)\n"""', user, flags=re.S)
    return [(None, single[-1] if single else user)]


def _prompt_text(body: dict[str, Any]) -> str:
    messages = body.get("messages") or []
    return "\n".join(str(m.get("content", "")) for m in messages if isinstance(m, dict))


class _Server(ThreadingHTTPServer):
    daemon_threads = True  # a stalled handler must not hold up shutdown
    # The listen backlog: socketserver's default of 5 resets connections when a client opens more at
    # once (llm.concurrency 16 in bench/llm_extract.py), which the client then retries unlogged.
    request_queue_size = 128

    def handle_error(self, request: Any, client_address: Any) -> None:
        # Clients that time out drop their connection; that is the point of some tests, not an error.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


# How each server kind lists its models (GET /models) and which structured-output forms it takes;
# a refused form is answered with the status and words that server uses.
_LISTING: dict[str, dict[str, Any]] = {
    "openai": {"owned_by": "system"},
    "vllm": {"owned_by": "vllm", "max_model_len": 8192},
    "sglang": {"owned_by": "sglang"},
    "llamacpp": {"owned_by": "me"},  # llama-cpp-python
    "ollama": {"owned_by": "library"},
}
_REFUSES: dict[str, dict[str, tuple[int, str]]] = {
    "generic": {},
    "openai": {"json_object_schema": (400, "Unrecognized request argument supplied: response_format.schema")},
    "vllm": {},
    "sglang": {},
    # llama-cpp-python: its pydantic model has no json_schema type and the handler fails with a 500.
    "llamacpp": {"json_schema": (500, "1 validation error for ResponseFormat: type: Input should be "
                                      "'text' or 'json_object' (input: 'json_schema')")},
    "ollama": {},
}
# Kinds whose chat template reads chat_template_kwargs.enable_thinking.
_TEMPLATE_SWITCH = {"vllm", "sglang", "llamacpp"}


def response_form(body: dict[str, Any]) -> str:
    """The structured-output form a request used: json_schema, json_object_schema, json_object or none."""
    fmt = body.get("response_format")
    if not isinstance(fmt, dict):
        return "none"
    if fmt.get("type") == "json_schema":
        return "json_schema"
    return "json_object_schema" if "schema" in fmt else "json_object"


class ScriptedLLM:
    """kind: "generic" (the default: takes every form, lists no models) or a server's emulation
    ("openai", "vllm", "sglang", "llamacpp", "ollama"): its /models listing (with `serves`), the
    response_format forms it refuses (plus `refuse`), and its thinking switch. `reasoning`:
    "inline" puts `<think>...</think>` before each reply, "field" sends the thoughts as
    `reasoning_content` with reasoning_tokens in the usage (both unless the request switched
    thinking off in a way this kind takes). `enforce_max_tokens` cuts replies longer than the
    request's max_tokens (in words) with finish_reason "length", as a server does."""

    def __init__(self, model: str = "scripted-model", *, kind: str = "generic", serves: list[str] | None = None,
                 refuse: dict[str, tuple[int, str]] | None = None, reasoning: str | None = None,
                 thoughts: str = "Let me think about which entities the passage names.",
                 enforce_max_tokens: bool = False) -> None:
        self.model = model
        self.kind = kind
        self.serves = list(serves) if serves is not None else ([model] if kind != "generic" else [])
        self.refuses = {**_REFUSES[kind], **(refuse or {})}
        self.reasoning = reasoning
        self.thoughts = thoughts
        self.enforce_max_tokens = enforce_max_tokens
        self.requests: list[dict[str, Any]] = []
        self.max_in_flight = 0
        self._in_flight = 0
        self._faults: list[_Rule] = []
        self._replies: list[_Rule] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._server = _Server(("127.0.0.1", 0), self._handler_class())
        # A short poll interval: shutdown() waits up to one interval.
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.02},
                                        name="ScriptedLLM", daemon=True)
        self._thread.start()
        self.base_url = f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    # -- script ----------------------------------------------------------------------------

    def reply(self, match: str, content: Content, *, times: int | None = None, finish_reason: str = "stop",
              usage: bool = True, delay: float = 0.0) -> None:
        with self._lock:
            self._replies.append(_Rule("reply", match, times, content, finish_reason, usage, delay))

    def fail(self, status: int, *, times: int = 1, match: str = "", retry_after: float | None = None,
             body: str | None = None, headers: dict[str, str] | None = None) -> None:
        with self._lock:
            self._faults.append(_Rule("fail", match, times, status=status, retry_after=retry_after, body=body,
                                      headers=dict(headers or {})))

    def stall(self, seconds: float, *, times: int = 1, match: str = "") -> None:
        """Sleep `seconds` before answering (normally, from the reply rules): for client timeouts."""
        with self._lock:
            self._faults.append(_Rule("stall", match, times, delay=seconds))

    def truncate(self, match: str, content: str, *, times: int = 1) -> None:
        """Answer the first half of `content` with finish_reason "length", as a cut-off model does."""
        with self._lock:
            self._faults.append(_Rule("truncate", match, times, content=content, finish_reason="length"))

    def calls(self, match: str = "") -> int:
        with self._lock:
            return sum(1 for r in self.requests if r["path"].endswith("/chat/completions") and match in r["text"])

    def chat_log(self) -> list[dict[str, Any]]:
        with self._lock:
            return [r for r in self.requests if r["path"].endswith("/chat/completions")]

    # -- lifecycle -------------------------------------------------------------------------

    def shutdown(self) -> None:
        self._stopping.set()  # wakes stalled handlers
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> ScriptedLLM:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.shutdown()

    # -- serving ---------------------------------------------------------------------------

    def _pick(self, text: str) -> tuple[_Rule | None, _Rule | None]:
        """The first matching fault in the order added (one per request), and the newest matching reply."""
        with self._lock:
            fault = next((f for f in self._faults if f.take(text)), None)
            if fault is not None and fault.kind != "stall":
                return fault, None
            return fault, next((r for r in reversed(self._replies) if r.take(text)), None)

    def _thinking(self, body: dict[str, Any]) -> bool:
        if self.reasoning is None:
            return False
        switch = body.get("chat_template_kwargs")
        if self.kind in _TEMPLATE_SWITCH and isinstance(switch, dict) and switch.get("enable_thinking") is False:
            return False
        return not (self.kind == "ollama" and body.get("reasoning_effort") == "none")

    def _answer(self, body: dict[str, Any]) -> tuple[int, dict[str, str], bytes, dict[str, int] | None]:
        text = _prompt_text(body)
        refused = self.refuses.get(response_form(body))
        if refused is not None:
            status, message = refused
            return self._error(_Rule("fail", "", 1, status=status), message)
        if self.serves and self.kind not in ("llamacpp", "generic") and body.get("model") not in self.serves:
            return self._error(_Rule("fail", "", 1, status=404), f"The model `{body.get('model')}` does not exist.")
        fault, rule = self._pick(text)
        if fault is not None and fault.kind == "stall":
            self._stopping.wait(fault.delay)  # then answer normally; the client may be gone by then
        elif fault is not None and fault.kind == "fail":
            return self._error(fault)
        elif fault is not None:  # truncate
            full = str(fault.content)
            return self._completion(body, full[: max(1, len(full) // 2)], "length", True)
        if rule is None:
            return self._error(_Rule("fail", "", 1, status=400), f"ScriptedLLM: no rule matches: {text[:200]!r}")
        if rule.delay:
            self._stopping.wait(rule.delay)
        content = rule.content(body) if callable(rule.content) else rule.content
        return self._completion(body, content, rule.finish_reason, rule.usage)

    def _completion(self, body: dict[str, Any], content: str, finish_reason: str,
                    usage: bool) -> tuple[int, dict[str, str], bytes, dict[str, int] | None]:
        limit = body.get("max_tokens")
        if self.enforce_max_tokens and isinstance(limit, int) and _words(content) > limit:
            # Cut at the limit, keeping the text's own spacing (the reply is a prefix of the full one).
            cut = [m.end() for m in re.finditer(r"\S+", content)][limit - 1]
            content, finish_reason = content[:cut], "length"
        message: dict[str, Any] = {"role": "assistant", "content": content}
        thinking = self._thinking(body)
        if thinking and self.reasoning == "inline":
            message["content"] = f"<think>\n{self.thoughts}\n</think>\n\n{content}"
        elif thinking:
            message["reasoning_content"] = self.thoughts
        reply: dict[str, Any] = {
            "id": f"chatcmpl-{uuid.uuid4().hex[:12]}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", self.model),
            "choices": [{"index": 0, "message": message, "finish_reason": finish_reason, "logprobs": None}],
        }
        counted = None
        if usage:
            thought = _words(self.thoughts) if thinking else 0
            prompt, completion = _words(_prompt_text(body)), _words(content) + thought
            counted = {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}
            reply["usage"] = dict(counted)
            if thinking and self.reasoning == "field":
                reply["usage"]["completion_tokens_details"] = {"reasoning_tokens": thought}
        return 200, {}, json.dumps(reply).encode(), counted

    def _error(self, rule: _Rule, message: str | None = None) -> tuple[int, dict[str, str], bytes, None]:
        headers = dict(rule.headers)
        if rule.retry_after is not None:
            headers["Retry-After"] = f"{rule.retry_after:g}"
        if rule.body is not None:
            return rule.status, headers, rule.body.encode(), None
        kinds = {400: "invalid_request_error", 401: "invalid_request_error", 404: "invalid_request_error",
                 429: "rate_limit_exceeded"}
        error = {"error": {"message": message or f"scripted failure {rule.status}",
                           "type": kinds.get(rule.status, "server_error"), "param": None,
                           "code": None if rule.status != 404 else "model_not_found"}}
        return rule.status, headers, json.dumps(error).encode(), None

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        llm = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive, as the openai client expects
            # Headers and body go out as two writes; with Nagle's algorithm on, the body waits for the
            # client's delayed ACK of the headers (about 40 ms a reply on Linux), which model servers
            # (uvicorn, llama.cpp's) do not add.
            disable_nagle_algorithm = True

            def log_message(self, format: str, *args: Any) -> None:  # quiet test output
                pass

            def _send(self, status: int, headers: dict[str, str], payload: bytes) -> None:
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    for name, value in headers.items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    self.close_connection = True  # the client gave up (a timeout test)

            def _record(self, body: Any) -> dict[str, Any]:
                headers = {k.lower(): v for k, v in self.headers.items()}
                authorized = "authorization" in headers
                if authorized:
                    headers["authorization"] = "<redacted>"
                entry = {"method": self.command, "path": self.path, "headers": headers, "authorized": authorized,
                         "json": body, "text": _prompt_text(body) if isinstance(body, dict) else "",
                         "status": None, "usage": None, "time": time.monotonic()}
                with llm._lock:
                    llm.requests.append(entry)
                return entry

            def do_GET(self) -> None:  # http.server naming
                entry = self._record(None)
                if self.path.rstrip("/").endswith("/models"):
                    shown = llm.serves  # generic: none listed, so any model name passes the probe
                    owner = _LISTING.get(llm.kind, {"owned_by": "scripted"})
                    payload = {"object": "list", "data": [{"id": name, "object": "model", "created": 0, **owner}
                                                          for name in shown]}
                    entry["status"] = 200
                    self._send(200, {}, json.dumps(payload).encode())
                else:
                    entry["status"] = 404
                    self._send(404, {}, b'{"error": {"message": "not found", "type": "invalid_request_error"}}')

            def do_POST(self) -> None:  # http.server naming
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw or b"{}")
                except json.JSONDecodeError:
                    body = {"_raw": raw.decode("utf-8", "replace")}
                entry = self._record(body)
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    entry["status"] = 404
                    self._send(404, {}, b'{"error": {"message": "unknown path", "type": "invalid_request_error"}}')
                    return
                with llm._lock:
                    llm._in_flight += 1
                    llm.max_in_flight = max(llm.max_in_flight, llm._in_flight)
                try:
                    status, headers, payload, usage = llm._answer(body)
                finally:
                    with llm._lock:
                        llm._in_flight -= 1
                entry["status"], entry["usage"] = status, usage
                self._send(status, headers, payload)

        return Handler
