"""A deterministic stand-in for a language model, for benchmarking Chain of Explorations and FastToG.

NOT A LANGUAGE MODEL. It is a local OpenAI-compatible chat server (stdlib `http.server` on
127.0.0.1, a port the OS picks) that answers the strategies' prompts mechanically, so that the
graph side of CoE and FastToG (linking, vector lookups, relation ranking, sampling, community
detection, pruning, verbalisation) can be measured without a model's cost or randomness:

    coe_plan               lookup of the first entity the question was linked to (the question
                           itself when none), then two relation hops with the question as text
    coe_select_*           the candidate ranked first ([] when there is none)
    coe_evaluate           continue
    coe_answer             found, answering with the first node the exploration ended at
    fasttog_prune          the first `count` candidates (the ones modularity ranked highest)
    fasttog_reason         "Unknown" until the chains are `answer_depth` communities deep (or the
                           last depth), then the top entity of chain 1's deepest community
    fasttog_fallback       the top entity of chain 1's deepest community

A prompt is recognised by its system message (the shipped en and zh templates); anything else gets
a 400 naming it. Replies carry usage as whitespace word counts.

    with FirstChoiceModel() as model:
        ... config.llm.base_url = model.base_url, model name anything ...
        print(model.calls)

Non-model time of one answer: `answer.seconds - answer.model_seconds` (`nonmodel_ms` below); the
strategies fill `model_seconds` from the gateway's accounting of time spent waiting on the endpoint.
"""

from __future__ import annotations

import json
import re
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from kgbuild.llm.prompts import PromptLibrary
from kgbuild.query.types import Answer

PROMPTS = ("coe_plan", "coe_select_nodes", "coe_select_relations", "coe_evaluate", "coe_answer",
           "fasttog_prune", "fasttog_reason", "fasttog_fallback")
_COLON = re.compile(r"[:：]")
_NUMBERED = re.compile(r"^\s*(\d+)\.\s", re.MULTILINE)
_MEMBERS = re.compile(r"^\s*\d+\.\s*\[([^\]]*)\]")


def nonmodel_ms(answer: Answer) -> float:
    """Milliseconds of an answer not spent waiting on the model."""
    return max(answer.seconds - answer.model_seconds, 0.0) * 1000.0


def coe_nonmodel_ms_per_step(answer: Answer) -> float:
    """CoE's non-model time divided by its exploration steps (lookups and hops; at least 1)."""
    steps = sum(1 for t in answer.trace if t.question in ("lookup", "hop"))
    return nonmodel_ms(answer) / max(steps, 1)


def _value(line: str) -> str:
    """`Label: value` -> value (an ASCII or a full-width colon)."""
    parts = _COLON.split(line, maxsplit=1)
    return parts[1].strip() if len(parts) == 2 else ""


def _lines(text: str) -> list[str]:
    return text.splitlines()


def _top_entity(chains: str) -> str:
    """The first member of chain 1's deepest community that is not a passage ("Title §2")."""
    block: list[str] = []
    started = False
    for line in _lines(chains):
        if re.match(r"^\s*\S.*\s1\s*[:：]\s*$", line) and not started:  # "Chain 1:"
            started = True
            continue
        if started and re.match(r"^\s*\S.*\s\d+\s*[:：]\s*$", line):  # the next chain
            break
        if started:
            block.append(line)
    for line in reversed(block):
        found = _MEMBERS.match(line)
        if found:
            members = [m.strip() for m in found.group(1).split(";")]
            named = [m for m in members if m and " §" not in m]
            return (named or members or [""])[0]
    return ""


class FirstChoiceModel:
    def __init__(self, *, answer_depth: int = 2, languages: tuple[str, ...] = ("en", "zh")) -> None:
        self.answer_depth = answer_depth
        self.calls = 0
        self._lock = threading.Lock()
        self._systems: dict[str, str] = {}
        for lang in languages:
            library = PromptLibrary(lang)
            for name in PROMPTS:
                template = library.get(name)
                system = template.render(**{k: "" for k in template.placeholders})[0].content
                self._systems[system] = name
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="FirstChoiceModel", daemon=True)
        self._thread.start()
        self.base_url = f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def shutdown(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> FirstChoiceModel:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.shutdown()

    # ---------------------------------------------------------------- the replies

    def reply(self, messages: list[dict[str, Any]]) -> dict[str, Any] | None:
        """The JSON reply to a chat, or None for a prompt this stand-in does not know."""
        if not messages or messages[0].get("role") != "system":
            return None
        name = self._systems.get(str(messages[0].get("content", "")))
        if name is None:
            return None
        user = str(messages[-1].get("content", ""))
        lines = _lines(user)
        if name == "coe_plan":
            question = _value(lines[0])
            entities = _value(lines[1]) if len(lines) > 1 else ""
            first = entities.split(", ")[0].strip() if entities and entities != "(none)" else question
            return {"steps": [{"kind": "node", "text": first}, {"kind": "relation", "text": question},
                              {"kind": "relation", "text": question}]}
        if name in ("coe_select_nodes", "coe_select_relations"):
            return {"selected": [1] if _NUMBERED.search(user) else []}
        if name == "coe_evaluate":
            return {"decision": "continue"}
        if name == "coe_answer":
            # Question, "Facts:", the numbered facts (or "(none)"), then "... ended at: <nodes>".
            ended = next((line for line in lines[2:] if not _NUMBERED.match(line) and line.strip() != "(none)"), "")
            answer = _value(ended).split(", ")[0].strip()
            return {"found": bool(answer), "answer": answer, "facts": [], "chunk_ids": []}
        if name == "fasttog_prune":
            # The candidates ("1. [members] ...") follow the header that names how many to choose.
            start = next((i for i, line in enumerate(lines) if re.match(r"^1\.\s*\[", line)), None)
            if start is None or start == 0:
                return {"selected": []}
            count = int((re.findall(r"\d+", lines[start - 1]) or ["1"])[-1])
            shown = sum(1 for line in lines[start:] if _NUMBERED.match(line))
            return {"selected": list(range(1, min(count, shown) + 1))}
        depth = re.search(r"(\d+) of (\d+)", user)
        top = _top_entity(user)
        if name == "fasttog_reason" and depth is not None:
            d, deepest = int(depth.group(1)), int(depth.group(2))
            if d < min(self.answer_depth, deepest) or not top:
                return {"answer": "Unknown", "reason": "the stand-in waits for a deeper chain"}
        return {"answer": top or "Unknown", "reason": "the top entity of chain 1's deepest community"}

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        model = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True  # headers and body are two writes: no delayed-ACK wait between

            def log_message(self, format: str, *args: Any) -> None:  # http.server naming
                pass

            def _send(self, status: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:  # http.server naming
                # It answers to any model name (callers name one per cache), so it lists none: the
                # endpoint probe then checks only that it answers (kgbuild/llm/probe.py).
                self._send(200, {"object": "list", "data": []})

            def do_POST(self) -> None:  # http.server naming
                length = int(self.headers.get("Content-Length") or 0)
                try:
                    body = json.loads(self.rfile.read(length) or b"{}")
                except json.JSONDecodeError:
                    body = {}
                messages = body.get("messages") or []
                reply = model.reply(messages) if self.path.rstrip("/").endswith("/chat/completions") else None
                if reply is None:
                    first = str(messages[0].get("content", ""))[:80] if messages else ""
                    self._send(400, {"error": {"message": f"first-choice stand-in: unknown prompt {first!r}",
                                               "type": "invalid_request_error", "param": None, "code": None}})
                    return
                with model._lock:
                    model.calls += 1
                content = json.dumps(reply, ensure_ascii=False)
                prompt = sum(len(str(m.get("content", "")).split()) for m in messages)
                self._send(200, {
                    "id": f"chatcmpl-{uuid.uuid4().hex[:12]}", "object": "chat.completion", "created": int(time.time()),
                    "model": body.get("model", "first-choice"),
                    "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                                 "finish_reason": "stop", "logprobs": None}],
                    "usage": {"prompt_tokens": prompt, "completion_tokens": len(content.split()),
                              "total_tokens": prompt + len(content.split())}})

        return Handler
