"""The explorer's API (`kgbuild serve`) under many clients at once, over loopback HTTP.

Run from the repo root: `python bench/serve_load.py [--project DIR] [--clients 32] [--seconds 60]`.

1. serves the built project given by --project (a directory with kgbuild.yaml, or the file), or builds
   samples/corpus offline into a temp dir first (spaCy extraction, no LLM, the default stores);
2. starts the server as its own process (`python -m kgbuild.serve`, 127.0.0.1, a free port), waits
   until it answers and warms it up (the embedding model, the graph matrices);
3. baseline: one client alone for --baseline-seconds, the same mix of calls;
4. load: --clients clients at once for --seconds, each on its own keep-alive connection, each call
   drawn from the mix (search 30 %, node 20 %, neighbourhood 20 %, triples 20 %, hybrid query 10 %)
   over entities and questions drawn from the build; every client waits for its answer before the next
   call (a closed loop: the load is bounded by the clients, never an unbounded queue);
5. reads the server's resident memory (the process and its children: Milvus Lite's engine) after the
   warm-up and after the load; `rss_growth` is end / start - 1 of the server process.

An error is any answer but 200 or a transport failure (refused, reset, timed out after --timeout s).
The last line is JSON: errors, calls, calls_per_s, <kind>_p50_ms / <kind>_p99_ms under load (kinds:
search, node, neighbourhood, triples, query), baseline_<kind>_p50_ms alone, rss_start_mb, rss_end_mb,
rss_growth (the issue asks for zero errors and rss_growth within 0.10).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from process_stats import descendants, memory_mb, percentile

REPO = Path(__file__).resolve().parents[1]
KINDS = ("search", "node", "neighbourhood", "triples", "query")
MIX = {"search": 30, "node": 20, "neighbourhood": 20, "triples": 20, "query": 10}


def build_samples(root: Path) -> Path:
    import shutil

    from kgbuild.build import Builder
    from kgbuild.config import load_config
    from kgbuild.progress import QuietProgress

    shutil.copytree(REPO / "samples" / "corpus", root / "corpus")
    config_path = root / "kgbuild.yaml"
    config_path.write_text("workspace: ws\nbuild:\n  workers: 1\n", encoding="utf-8")
    t = time.perf_counter()
    report = asyncio.run(Builder(load_config(config_path), QuietProgress()).arun([root / "corpus"]))
    if report.store_error:
        sys.exit(f"build: the stores were not written: {report.store_error}")
    print(f"build: samples -> {report.graph.entities} entities in {time.perf_counter() - t:.0f} s", flush=True)
    return config_path


class Load:
    """The calls one run makes, drawn from the build's entities and document titles."""

    def __init__(self, entities: list[dict[str, Any]], titles: list[str], seed: int) -> None:
        self.entities = entities
        self.titles = titles
        self.rng = random.Random(seed)
        self.kinds = [k for k in KINDS for _ in range(MIX[k])]

    def call(self) -> tuple[str, str, str, dict[str, Any]]:
        """(kind, method, path, params or body) of the next call."""
        kind = self.rng.choice(self.kinds)
        entity = self.rng.choice(self.entities)
        if kind == "search":
            name = entity["name"]
            q = name if self.rng.random() < 0.7 else name[:3]  # whole names and 3-letter prefixes (many hits)
            return kind, "GET", "/api/search", {"q": q, "limit": 20}
        if kind == "node":
            return kind, "GET", "/api/node", {"id": entity["id"]}
        if kind == "neighbourhood":
            return kind, "GET", "/api/neighbourhood", {"id": entity["id"], "hops": self.rng.choice((1, 2))}
        if kind == "triples":
            return kind, "GET", "/api/triples", {"id": entity["id"], "limit": 20}
        question = f"Who or what is {self.rng.choice(self.titles)}? ({self.rng.randrange(10**9)})"
        return kind, "POST", "/api/query", {"question": question, "strategy": "hybrid", "k": 5}


async def run_clients(url: str, load: Load, clients: int, seconds: float, timeout: float,
                      ) -> tuple[dict[str, list[float]], Counter[str], int]:
    """`clients` closed-loop clients for `seconds`: latencies by kind, errors by what went wrong, calls."""
    import httpx

    times: dict[str, list[float]] = defaultdict(list)
    errors: Counter[str] = Counter()
    calls = 0
    stop = time.perf_counter() + seconds

    async def client() -> None:
        nonlocal calls
        limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)
        async with httpx.AsyncClient(base_url=url, timeout=timeout, limits=limits) as http:
            while time.perf_counter() < stop:
                kind, method, path, args = load.call()
                t = time.perf_counter()
                try:
                    if method == "GET":
                        response = await http.get(path, params=args)
                    else:
                        response = await http.post(path, json=args)
                    if response.status_code != 200:
                        errors[f"{kind} HTTP {response.status_code}"] += 1
                    else:
                        times[kind].append((time.perf_counter() - t) * 1000)
                except httpx.HTTPError as exc:
                    errors[f"{kind} {type(exc).__name__}"] += 1
                calls += 1

    await asyncio.gather(*(client() for _ in range(clients)))
    return times, errors, calls


def server_memory(pid: int) -> tuple[float, float]:
    """(the server process's RSS, the RSS of it and its children) in MB."""
    own = memory_mb(pid)[0]
    return own, own + sum(memory_mb(c)[0] for c in descendants(pid))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--project", type=Path, default=None,
                        help="a built project (directory with kgbuild.yaml, or the file); default: build the samples")
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=60.0, help="length of the load")
    parser.add_argument("--baseline-seconds", type=float, default=10.0, help="length of the one-client baseline")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds before a call counts as an error")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--torch-threads", type=int, default=1,
                        help="threads of the server's question embedding (as in bench/serve.py)")
    args = parser.parse_args()

    import httpx

    from kgbuild.config import load_config
    from kgbuild.serve.server import free_port
    from kgbuild.workspace import Workspace

    with tempfile.TemporaryDirectory(prefix="kgbench-serve-load-") as tmp:
        if args.project is not None:
            config_path = args.project / "kgbuild.yaml" if args.project.is_dir() else args.project
            print(f"project: {config_path} (reused)", flush=True)
        else:
            config_path = build_samples(Path(tmp))
        workspace = Workspace(load_config(config_path).workspace_path())
        entities = workspace.read_table("entities", ["id", "name"]).to_pylist()
        titles = [d["title"] for d in workspace.read_table("documents", ["title"]).to_pylist() if d["title"]]

        port = free_port()
        log = Path(tmp) / "server.log"
        env = {k: v for k, v in os.environ.items()
               if not k.startswith("KGBUILD_LLM") and k not in ("OPENAI_BASE_URL", "OPENAI_API_KEY")}
        if args.torch_threads > 0:
            env["OMP_NUM_THREADS"] = env["MKL_NUM_THREADS"] = str(args.torch_threads)
        with log.open("w") as out:
            server = subprocess.Popen([sys.executable, "-m", "kgbuild.serve", "-c", str(config_path), "--port",
                                       str(port)], stdout=out, stderr=subprocess.STDOUT, env=env)
        url = f"http://127.0.0.1:{port}"
        try:
            with httpx.Client(base_url=url, timeout=120) as http:
                while True:
                    if server.poll() is not None:
                        sys.exit(f"the server exited ({server.returncode}):\n{log.read_text()[-2000:]}")
                    try:
                        http.get("/api/stats").raise_for_status()
                        break
                    except httpx.TransportError:
                        time.sleep(0.2)
            # Warm-up (one client, a few seconds): the first query loads the embedding model and the index.
            asyncio.run(run_clients(url, Load(entities, titles, args.seed + 1), 1, 3.0, args.timeout))
            rss_start, tree_start = server_memory(server.pid)
            print(f"server: pid {server.pid}, {rss_start:.0f} MB resident after warm-up ({tree_start:.0f} MB with "
                  f"its children); {len(entities)} entities", flush=True)
            base_times, base_errors, base_calls = asyncio.run(
                run_clients(url, Load(entities, titles, args.seed + 2), 1, args.baseline_seconds, args.timeout))
            print(f"baseline: 1 client, {base_calls} calls in {args.baseline_seconds:.0f} s, "
                  f"{sum(base_errors.values())} errors", flush=True)
            t = time.perf_counter()
            times, errors, calls = asyncio.run(
                run_clients(url, Load(entities, titles, args.seed), args.clients, args.seconds, args.timeout))
            wall = time.perf_counter() - t
            rss_end, tree_end = server_memory(server.pid)
            alive = server.poll() is None
        finally:
            server.terminate()
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()

    result: dict[str, Any] = {"errors": sum(errors.values()) + (0 if alive else 1), "calls": calls,
                              "calls_per_s": round(calls / wall, 1), "clients": args.clients,
                              "seconds": round(wall, 1)}
    for kind in KINDS:
        result[f"{kind}_p50_ms"] = round(percentile(times[kind], 50), 1)
        result[f"{kind}_p99_ms"] = round(percentile(times[kind], 99), 1)
        result[f"{kind}_calls"] = len(times[kind])
    for kind in KINDS:
        result[f"baseline_{kind}_p50_ms"] = round(percentile(base_times[kind], 50), 1)
    result |= {"baseline_errors": sum(base_errors.values()), "rss_start_mb": round(rss_start, 1),
               "rss_end_mb": round(rss_end, 1), "rss_growth": round(rss_end / rss_start - 1, 4),
               "tree_rss_start_mb": round(tree_start, 1), "tree_rss_end_mb": round(tree_end, 1)}
    print(f"load: {args.clients} clients for {wall:.0f} s: {calls} calls ({result['calls_per_s']}/s), "
          f"{result['errors']} errors{': ' + dict(errors).__repr__() if errors else ''}"
          f"{'' if alive else ' (the server died)'}")
    for kind in KINDS:
        print(f"  {kind:13s} p50 {result[f'{kind}_p50_ms']:8.1f} ms   p99 {result[f'{kind}_p99_ms']:8.1f} ms   "
              f"({result[f'{kind}_calls']} calls; alone p50 {result[f'baseline_{kind}_p50_ms']:.1f} ms)")
    print(f"server memory: {rss_start:.0f} MB -> {rss_end:.0f} MB ({100 * result['rss_growth']:+.1f} %); with its "
          f"children {tree_start:.0f} -> {tree_end:.0f} MB")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
