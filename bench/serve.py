"""Latency of the explorer's API (`kgbuild serve`) over HTTP on an offline build of the 2Wiki corpus.

Run from the repo root: `python bench/serve.py [--corpus C] [--project DIR] [--n 100]`.

1. builds the corpus offline (spaCy extraction, no LLM, the default stores: embedded ArcadeDB and
   Milvus Lite) into a temp dir, or reuses the built project given by --project;
2. starts the server as its own process (`python -m kgbuild.serve`, 127.0.0.1, a free port) and waits
   until it answers;
3. times, one request at a time over one keep-alive connection, after a short warm-up:
   - entity search: /api/search?q=<an entity's name> (names drawn at random from the entities table),
   - neighbourhood: /api/neighbourhood?hops=2 with the API's default caps (60 nodes, 150 edges),
   - the same for the 20 best connected entities, and searches for 3-letter prefixes (extra keys),
   - a retrieval-only query: POST /api/query with the hybrid strategy, k=5, a distinct question each
     time ("Who or what is <document title>?"), so each is embedded afresh (no embedding cache hit);
   The server's torch uses --torch-threads threads (default 1) for the question embedding;
4. reads the server's resident memory from /proc: server_rss_mb counts its child processes too (Milvus
   Lite's engine), server_process_rss_mb (and its peak) the server process alone.

The last line is JSON: search/neighbourhood/query p50 and p90 in ms, server_rss_mb (targets: 50, 100
and 150 ms p50 on 2 cores).
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
from pathlib import Path
from typing import Any

from process_stats import descendants, memory_mb, percentile
from shared_data import shared_data


def build(corpus: Path, root: Path, workers: int) -> Path:
    from kgbuild.build import Builder
    from kgbuild.config import load_config
    from kgbuild.progress import QuietProgress

    config_path = root / "kgbuild.yaml"
    config_path.write_text("workspace: ws\n", encoding="utf-8")
    t = time.perf_counter()
    report = asyncio.run(Builder(load_config(config_path), QuietProgress()).arun([corpus], workers=workers))
    if report.store_error:
        sys.exit(f"build: the stores were not written: {report.store_error}")
    graph = report.graph
    print(f"build: {corpus.name} -> {graph.entities} entities, {graph.relations} relations in "
          f"{time.perf_counter() - t:.0f} s (offline, {workers} workers, default stores)", flush=True)
    return config_path


def timed(fn: Any, items: list[Any]) -> list[float]:
    out = []
    for item in items:
        t = time.perf_counter()
        fn(item)
        out.append((time.perf_counter() - t) * 1000)
    return out


def main() -> None:
    data = shared_data("2wiki/corpus.json")
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=data / "2wiki" / "corpus.json")
    parser.add_argument("--project", type=Path, default=None,
                        help="a built project (directory with kgbuild.yaml, or the file) to serve instead of building")
    parser.add_argument("--n", type=int, default=100, help="timed requests of each kind")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--torch-threads", type=int, default=1,
                        help="threads of the server's question embedding (OMP_NUM_THREADS; 1: least hurt by other "
                             "processes on a shared box, as in bench/retrieval.py; 0: torch's default)")
    args = parser.parse_args()

    import httpx

    from kgbuild.config import load_config
    from kgbuild.workspace import Workspace

    with tempfile.TemporaryDirectory(prefix="kgbench-serve-") as tmp:
        if args.project is not None:
            config_path = args.project / "kgbuild.yaml" if args.project.is_dir() else args.project
            print(f"project: {config_path} (reused)", flush=True)
        else:
            if not args.corpus.exists():
                sys.exit(f"{args.corpus}: not found; pass --corpus or --project, or set KGBUILD_SHARED_DATA")
            config_path = build(args.corpus, Path(tmp), args.workers)

        workspace = Workspace(load_config(config_path).workspace_path())
        rng = random.Random(args.seed)
        entities = workspace.read_table("entities", ["id", "name"]).to_pylist()
        titles = [d["title"] for d in workspace.read_table("documents", ["title"]).to_pylist() if d["title"]]
        picked = rng.sample(entities, min(len(entities), 2 * args.n + 10))
        questions = [f"Who or what is {t}?" for t in rng.sample(titles, min(len(titles), args.n + 5))]

        from kgbuild.serve.server import free_port

        port = free_port()
        log = Path(tmp) / "server.log"
        env = {k: v for k, v in os.environ.items()
               if not k.startswith("KGBUILD_LLM") and k not in ("OPENAI_BASE_URL", "OPENAI_API_KEY")}
        if args.torch_threads > 0:
            env["OMP_NUM_THREADS"] = env["MKL_NUM_THREADS"] = str(args.torch_threads)
        t = time.perf_counter()
        with log.open("w") as out:
            server = subprocess.Popen([sys.executable, "-m", "kgbuild.serve", "-c", str(config_path), "--port",
                                       str(port)], stdout=out, stderr=subprocess.STDOUT, env=env)
        url = f"http://127.0.0.1:{port}"
        try:
            with httpx.Client(base_url=url, timeout=120) as client:
                while True:
                    if server.poll() is not None:
                        sys.exit(f"the server exited ({server.returncode}):\n{log.read_text()[-2000:]}")
                    try:
                        stats = client.get("/api/stats").json()
                        break
                    except httpx.TransportError:
                        time.sleep(0.2)
                print(f"server: pid {server.pid}, up in {time.perf_counter() - t:.1f} s; graph {stats['nodes']} "
                      f"nodes, {stats['edges']} edges", flush=True)

                def search(entity: dict[str, Any]) -> None:
                    r = client.get("/api/search", params={"q": entity["name"], "limit": 20})
                    r.raise_for_status()

                truncated = 0

                def neighbourhood(entity: dict[str, Any]) -> None:
                    nonlocal truncated
                    r = client.get("/api/neighbourhood", params={"id": entity["id"], "hops": 2})
                    r.raise_for_status()
                    truncated += bool(r.json()["truncated"])

                answered = 0

                def query(question: str) -> None:
                    nonlocal answered
                    r = client.post("/api/query", json={"question": question, "strategy": "hybrid", "k": 5})
                    r.raise_for_status()
                    answered += bool(r.json()["answer"])

                # Warm-up: loads the embedding model, the mutual index and the graph matrices.
                timed(search, picked[:5])
                timed(neighbourhood, picked[:5])
                timed(query, questions[:5])
                truncated = answered = 0
                search_ms = timed(search, picked[10:10 + args.n])
                hood_ms = timed(neighbourhood, picked[10 + args.n:10 + 2 * args.n])
                # The harder cases: the best connected entities (capped walks) and 3-letter searches (many hits).
                hubs = client.get("/api/search", params={"q": "", "kind": "entity", "limit": 20}).json()["items"]
                hub_truncated = truncated
                hub_ms = timed(neighbourhood, hubs)
                hub_truncated = truncated - hub_truncated
                prefix_ms = timed(search, [{"name": e["name"][:3]} for e in picked[10:10 + args.n]])
                query_ms = timed(query, questions[5:5 + args.n])
            rss, peak = memory_mb(server.pid)
            children = descendants(server.pid)
            tree_rss = rss + sum(memory_mb(c)[0] for c in children)
        finally:
            server.terminate()
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()

    result = {
        "search_p50_ms": round(percentile(search_ms, 50), 2), "search_p90_ms": round(percentile(search_ms, 90), 2),
        "neighbourhood_p50_ms": round(percentile(hood_ms, 50), 2),
        "neighbourhood_p90_ms": round(percentile(hood_ms, 90), 2),
        "query_p50_ms": round(percentile(query_ms, 50), 2), "query_p90_ms": round(percentile(query_ms, 90), 2),
        "server_rss_mb": round(tree_rss, 1), "server_process_rss_mb": round(rss, 1),
        "server_process_peak_rss_mb": round(peak, 1), "server_child_processes": len(children),
        "requests_each": args.n, "neighbourhoods_capped": truncated - hub_truncated, "queries_answered": answered,
        "search_3letters_p50_ms": round(percentile(prefix_ms, 50), 2),
        "search_3letters_p90_ms": round(percentile(prefix_ms, 90), 2),
        "neighbourhood_hubs_p50_ms": round(percentile(hub_ms, 50), 2),
        "neighbourhood_hubs_p90_ms": round(percentile(hub_ms, 90), 2), "hubs_capped": hub_truncated,
    }
    print(f"search        p50 {result['search_p50_ms']:7.1f} ms   p90 {result['search_p90_ms']:7.1f} ms   (target 50)")
    print(f"neighbourhood p50 {result['neighbourhood_p50_ms']:7.1f} ms   p90 {result['neighbourhood_p90_ms']:7.1f} ms"
          f"   (target 100; {result['neighbourhoods_capped']} of {args.n} capped)")
    print(f"  3-letter search p50 {result['search_3letters_p50_ms']:.1f} ms, "
          f"p90 {result['search_3letters_p90_ms']:.1f} ms;"
          f" the 20 best connected entities' neighbourhoods p50 {result['neighbourhood_hubs_p50_ms']:.1f} ms, "
          f"p90 {result['neighbourhood_hubs_p90_ms']:.1f} ms ({hub_truncated} capped)")
    print(f"query hybrid  p50 {result['query_p50_ms']:7.1f} ms   p90 {result['query_p90_ms']:7.1f} ms   (target 150)")
    print(f"server memory {tree_rss:.0f} MB resident with its {len(children)} child process(es); the server process "
          f"{rss:.0f} MB ({peak:.0f} MB peak)")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
