"""An LLM build whose vector stage costs (almost) nothing: the default build against a stores-off one.

Run from the repo root: `python bench/llm_overlap.py [N_PASSAGES] [LATENCY_S] [PACK_TOKENS]` (default
300 HotpotQA passages, 1 s per reply, extract.pack_tokens as configured by default; 0 = one chunk
per call, many more calls to wait on). The endpoint is the tests' scripted OpenAI-compatible server (real HTTP on
127.0.0.1) answering after a fixed delay that stands in for model latency, with a reply valid for
the prompt it got; llm.concurrency 8. Builds, in this one run, each in a fresh workspace:

- nostores: `graph_store` and `vector_store` off: extraction, assembly, alignment, tables only;
- default: the default stores (embedded ArcadeDB, Milvus Lite, the default embedding backend),
  with the vector stage's embedding done while the extraction waits on the model
  (kgbuild/build/vector_prefetch.py);
- noprefetch: the default stores with `build.overlap_vectors: false`, the figure before the overlap
  (the embedding then runs in the write stage, after extraction).

Concurrency efficiency: the calls' pure latency divided by the concurrency (what a perfect client
would take), over the extract stage's wall time in the stores-off build.

After the last reply: the seconds each build ran after the scripted server sent its last reply (what
no overlap with the waiting can hide), and the process's CPU seconds per build (user + system, this
process only: the figure a loaded machine stretches least). The warm-up build reads the three
longest passages, with the stores and without, so the sentence splitter a long paragraph needs is
loaded before the first measured build (it was not, and the stores-off build, run first, paid 1-6 s
for it under load).

Fresh processes: the stores-off and the default build once more, each as `kgbuild build` in a process
of its own (a user's build): it pays what the warm-up hides from the builds above (imports, the
embedding model, the embedded graph store's JVM, Milvus Lite's start). CPU seconds there are the
child's and what it started.

Last line: one JSON object: `llm_build_wall_s` (default), `llm_build_nostores_wall_s`,
`overlap_ratio` (default / nostores; the target is <= 1.15), `llm_build_noprefetch_wall_s`,
`concurrency_efficiency` (target >= 0.8), `*_after_last_reply_s`, `*_cpu_s` (this process) and
`*_children_cpu_s` (Milvus Lite's server), `cli_build_wall_s`, `cli_build_nostores_wall_s`,
`cli_overlap_ratio`, `cli_*_cpu_s` (the fresh processes), the write stage's embeddings computed, and
the load average at the end of the run.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "bench"))

from llm_server import ScriptedLLM, extraction_passages  # noqa: E402  (the tests' scripted endpoint)
from shared_data import shared_data  # noqa: E402

import kgbuild  # noqa: E402
from kgbuild.build import Builder  # noqa: E402
from kgbuild.config import parse_config  # noqa: E402

CONCURRENCY = 8


def one_extraction(text: str) -> dict[str, Any]:
    names = list(dict.fromkeys(re.findall(r"\b[A-Z][a-z]+(?: [A-Z][a-z]+)+", text)))[:4]
    entities = [{"name": n, "type": "Person", "description": f"{n}, named in the passage."} for n in names]
    relations = [{"subject": names[0], "predicate": "relatedTo", "object": names[1]}] if len(names) > 1 else []
    return {"entities": entities, "events": [], "relations": relations, "hypernodes": []}


REPLIES: list[float] = []  # time.perf_counter() of each reply (the server computes it after the delay)
_REPLIES_LOCK = threading.Lock()


def reply(body: dict[str, Any]) -> str:
    with _REPLIES_LOCK:
        REPLIES.append(time.perf_counter())
    passages = extraction_passages(body)
    if passages[0][0] is None:
        return json.dumps(one_extraction(passages[0][1]))
    return json.dumps({pid: one_extraction(text) for pid, text in passages})


def cpu_seconds(who: int = resource.RUSAGE_SELF) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def config_text(base_url: str, *, stores: bool) -> str:
    """The in-process builds' settings as a project's kgbuild.yaml, for the fresh-process builds."""
    text = ("workspace: ws\nextract:\n  extractor: llm\nalign:\n  llm_judge: false\n  llm_hypernyms: false\n"
            f"llm:\n  base_url: {base_url}\n  model: bench-model\n  concurrency: {CONCURRENCY}\n  max_retries: 2\n")
    return text if stores else text + "graph_store:\n  backend: none\nvector_store:\n  backend: none\n"


def cli_build(base_url: str, src: Path, project: Path, *, stores: bool) -> tuple[float, float, dict]:
    """`kgbuild build` in a process of its own, as a user runs it: wall and CPU seconds (the child and
    what it started: Milvus Lite), and its report. Imports, model and store start-up are paid here."""
    project.mkdir(parents=True)
    (project / "kgbuild.yaml").write_text(config_text(base_url, stores=stores), encoding="utf-8")
    # the kgbuild this bench imported (PYTHONPATH may point at another tree: a baseline's)
    tree = Path(kgbuild.__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tree), os.environ.get("PYTHONPATH", "")])}
    cpu = cpu_seconds(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "kgbuild", "-c", str(project / "kgbuild.yaml"), "build", str(src),
                           "--json"], env=env, cwd=project, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"kgbuild build failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
    return wall, cpu_seconds(resource.RUSAGE_CHILDREN) - cpu, json.loads(done.stdout)


def build(base_url: str, src: Path, workspace: Path, *, stores: bool, prefetch: bool = True,
          pack_tokens: int | None = None) -> tuple[float, dict]:
    extract: dict[str, Any] = {"extractor": "llm"}
    if pack_tokens is not None:
        extract["pack_tokens"] = pack_tokens
    raw: dict[str, Any] = {
        "workspace": str(workspace),
        "align": {"llm_judge": False, "llm_hypernyms": False},  # extraction calls only
        "extract": extract,
        "llm": {"base_url": base_url, "model": "bench-model", "concurrency": CONCURRENCY, "max_retries": 2},
    }
    if not stores:
        raw.update({"graph_store": {"backend": "none"}, "vector_store": {"backend": "none"}})
    if not prefetch:
        raw["build"] = {"overlap_vectors": False}
    config = parse_config(raw, file=None, env={})
    start = time.perf_counter()
    report = asyncio.run(Builder(config).arun([src], workers=1))
    return time.perf_counter() - start, report.model_dump()


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    latency = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
    # extract.pack_tokens: the default packs short chunks (few, long calls); 0 = one chunk per call
    pack = int(sys.argv[3]) if len(sys.argv) > 3 else None
    corpus = json.loads((shared_data() / "hotpotqa" / "train_corpus.json").read_text(encoding="utf-8"))
    subset = dict(list(corpus.items())[:n])
    runs: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="kgbench-overlap-") as tmp, ScriptedLLM() as llm:
        llm.reply("", reply, delay=latency, usage=False)
        src = Path(tmp) / "subset.json"
        src.write_text(json.dumps(subset), encoding="utf-8")
        # A warm-up build (imports, the sentence model's first load, the sentence splitter that long
        # paragraphs need) so no variant pays it alone.
        warm = dict(sorted(subset.items(), key=lambda kv: -len("".join(kv[1]) if isinstance(kv[1], list)
                                                                 else str(kv[1])))[:3])
        (Path(tmp) / "warm.json").write_text(json.dumps(warm), encoding="utf-8")
        build(llm.base_url, Path(tmp) / "warm.json", Path(tmp) / "warm", stores=True)
        # and a stores-off one: what a build imports once the embedded graph store's JVM is up costs
        # more (its import hook), and the stores-off build, measured first, must not pay that alone.
        build(llm.base_url, Path(tmp) / "warm.json", Path(tmp) / "warm-nostores", stores=False)
        for name, stores, prefetch in (("nostores", False, True), ("default", True, True),
                                       ("noprefetch", True, False)):
            before = len(llm.chat_log())
            REPLIES.clear()
            cpu, children = cpu_seconds(), cpu_seconds(resource.RUSAGE_CHILDREN)
            wall, report = build(llm.base_url, src, Path(tmp) / name, stores=stores, prefetch=prefetch,
                                 pack_tokens=pack)
            end = time.perf_counter()
            after = end - max(REPLIES) if REPLIES else None
            runs[name] = {"wall": wall, "report": report, "calls": len(llm.chat_log()) - before,
                          "after": after, "cpu": cpu_seconds() - cpu,
                          "children_cpu": cpu_seconds(resource.RUSAGE_CHILDREN) - children}
            stages = ", ".join(f"{k} {v:.1f} s" for k, v in report["stage_seconds"].items())
            stores_report = (report.get("write") or {}).get("stores") or {}
            print(f"{name:>10}: {wall:6.1f} s wall, {runs[name]['cpu']:.1f} s CPU (+{runs[name]['children_cpu']:.1f} s "
                  f"Milvus Lite), {runs[name]['calls']} calls, "
                  f"{after or 0:.1f} s after the last reply; {stages}; stores {stores_report.get('seconds')}; "
                  f"embeddings computed in the write stage {stores_report.get('embeddings_computed', 0)}, found "
                  f"cached {stores_report.get('embeddings_cached', 0)}; fixed costs {report.get('fixed_seconds')}; "
                  f"load {os.getloadavg()[0]:.1f}", flush=True)

        # The same two builds as a user runs them: `kgbuild build` in a fresh process each, which pays
        # what the warm-up hid above (imports, the embedding model, the JVM, Milvus Lite's start).
        fresh: dict[str, tuple[float, float, dict]] = {}
        for name, stores in (("nostores", False), ("default", True)):
            fresh[name] = cli_build(llm.base_url, src, Path(tmp) / f"cli-{name}", stores=stores)
            wall, cpu, report = fresh[name]
            print(f"{'cli ' + name:>14}: {wall:6.1f} s wall, {cpu:.1f} s CPU (process and children); stages "
                  + ", ".join(f"{k} {v:.1f} s" for k, v in report["stage_seconds"].items())
                  + f"; fixed costs {report.get('fixed_seconds')}; load {os.getloadavg()[0]:.1f}", flush=True)

    base = runs["nostores"]
    calls = base["calls"]
    ideal = calls * latency / CONCURRENCY
    extract_s = base["report"]["stage_seconds"].get("extract", base["wall"])
    figures = {
        "passages": len(subset),
        "pack_tokens": "default" if pack is None else pack,
        "latency_s": latency,
        "concurrency": CONCURRENCY,
        "calls": calls,
        "llm_build_wall_s": round(runs["default"]["wall"], 2),
        "llm_build_nostores_wall_s": round(base["wall"], 2),
        "llm_build_noprefetch_wall_s": round(runs["noprefetch"]["wall"], 2),
        "overlap_ratio": round(runs["default"]["wall"] / base["wall"], 3),
        "noprefetch_ratio": round(runs["noprefetch"]["wall"] / base["wall"], 3),
        "extract_stage_s": round(extract_s, 2),
        "ideal_extract_s": round(ideal, 2),
        "concurrency_efficiency": round(ideal / extract_s, 3) if extract_s else None,
        **{f"{key}_after_last_reply_s": round(runs[name]["after"] or 0.0, 2)
           for key, name in (("llm_build", "default"), ("llm_build_nostores", "nostores"),
                             ("llm_build_noprefetch", "noprefetch"))},
        **{f"{key}_cpu_s": round(runs[name]["cpu"], 2)
           for key, name in (("llm_build", "default"), ("llm_build_nostores", "nostores"),
                             ("llm_build_noprefetch", "noprefetch"))},
        **{f"{key}_children_cpu_s": round(runs[name]["children_cpu"], 2)
           for key, name in (("llm_build", "default"), ("llm_build_nostores", "nostores"),
                             ("llm_build_noprefetch", "noprefetch"))},
        "cli_build_wall_s": round(fresh["default"][0], 2),
        "cli_build_nostores_wall_s": round(fresh["nostores"][0], 2),
        "cli_overlap_ratio": round(fresh["default"][0] / fresh["nostores"][0], 3),
        "cli_build_cpu_s": round(fresh["default"][1], 2),
        "cli_build_nostores_cpu_s": round(fresh["nostores"][1], 2),
        **{f"{name}_write_embeddings_computed": ((runs[name]["report"].get("write") or {}).get("stores") or {})
           .get("embeddings_computed", 0) for name in ("default", "noprefetch")},
        "load_average_1min": round(os.getloadavg()[0], 1),
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
