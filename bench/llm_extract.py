"""LLM extraction throughput through the model gateway, against a local scripted endpoint.

Run from the repo root: `python bench/llm_extract.py [N_PASSAGES]`. The endpoint (the tests'
OpenAI-compatible scripted server, real HTTP on 127.0.0.1) answers every chunk after a fixed
delay that stands in for model latency, so the figures show what the gateway's concurrency buys
and what it costs per call: the same build at concurrency 1 (baseline) and 16, then a re-run on
the finished workspace (zero calls expected). Last line: one JSON object with the figures.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from llm_server import ScriptedLLM  # noqa: E402  (the tests' scripted endpoint)

from kgbuild.build import Builder  # noqa: E402
from kgbuild.config import parse_config  # noqa: E402

LATENCY_S = 0.2  # per reply, a fast hosted model's time to first and last token for a short JSON


def corpus_path() -> Path:
    for base in (os.environ.get("KGBUILD_SHARED_DATA"), REPO.parent / "shared" / "data", "/work/shared/data"):
        if base and (Path(base) / "hotpotqa" / "train_corpus.json").exists():
            return Path(base) / "hotpotqa" / "train_corpus.json"
    sys.exit("HotpotQA corpus not found; set KGBUILD_SHARED_DATA")


def reply(body: dict) -> str:
    user = [m["content"] for m in body["messages"] if m["role"] == "user"][-1]
    names = list(dict.fromkeys(re.findall(r"\b[A-Z][a-z]+(?: [A-Z][a-z]+)+", user)))[:3]
    entities = [{"name": n, "type": "Person", "description": ""} for n in names]
    relations = [{"subject": names[0], "predicate": "relatedTo", "object": names[1]}] if len(names) > 1 else []
    return json.dumps({"entities": entities, "events": [], "relations": relations, "hypernodes": []})


def build(base_url: str, src: Path, workspace: Path, concurrency: int) -> tuple[float, dict]:
    config = parse_config({
        "workspace": str(workspace),
        "extract": {"extractor": "llm"},
        "llm": {"base_url": base_url, "model": "bench-model", "concurrency": concurrency, "max_retries": 2,
                "prices": {"bench-model": {"prompt_per_1m": 0.15, "completion_per_1m": 0.6}}},
    }, file=None, env={})
    start = time.perf_counter()
    report = asyncio.run(Builder(config).arun([src], workers=1))
    return time.perf_counter() - start, report.model_dump()


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    corpus = json.loads(corpus_path().read_text(encoding="utf-8"))
    subset = dict(list(corpus.items())[:n])
    with tempfile.TemporaryDirectory(prefix="kgbench-llm-") as tmp, ScriptedLLM() as llm:
        llm.reply("", reply, delay=LATENCY_S)
        src = Path(tmp) / "subset.json"
        src.write_text(json.dumps(subset), encoding="utf-8")
        runs = {}
        for concurrency in (1, 16):
            before = len(llm.chat_log())
            wall, report = build(llm.base_url, src, Path(tmp) / f"ws{concurrency}", concurrency)
            runs[concurrency] = (wall, report, len(llm.chat_log()) - before)
        before = len(llm.chat_log())
        rerun_wall, rerun, _ = (*build(llm.base_url, src, Path(tmp) / "ws16", 16), None)
        rerun_calls = len(llm.chat_log()) - before
    chunks = runs[16][1]["extract"]["chunks_total"]
    for c, (wall, report, calls) in runs.items():
        total = report["llm"]["total"]
        print(f"concurrency {c:>2}: {wall:6.1f} s wall, {chunks / wall:6.1f} chunks/s, {calls} HTTP calls, "
              f"{total['prompt_tokens']} prompt + {total['completion_tokens']} completion tokens, "
              f"~${total['cost_usd']:.4f}, extract stage {report['stage_seconds']['extract']:.1f} s")
    ideal = chunks * LATENCY_S / 16
    print(f"re-run with nothing changed: {rerun_wall:.1f} s, {rerun_calls} HTTP calls, "
          f"{rerun['extract']['chunks_cached']} chunks from cache")
    print(f"speed-up 16 vs 1: {runs[1][0] / runs[16][0]:.1f}x; "
          f"ideal extract time at 16 with {LATENCY_S}s latency: {ideal:.1f} s")
    figures = {
        "passages": len(subset),
        "chunks": chunks,
        "latency_s": LATENCY_S,
        "c1_wall_s": round(runs[1][0], 2),
        "c16_wall_s": round(runs[16][0], 2),
        "c16_chunks_per_s": round(chunks / runs[16][0], 1),
        "speedup_x": round(runs[1][0] / runs[16][0], 1),
        "c16_extract_s": runs[16][1]["stage_seconds"]["extract"],
        "ideal_c16_extract_s": round(ideal, 2),
        "rerun_wall_s": round(rerun_wall, 2),
        "rerun_http_calls": rerun_calls,
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
