"""Latency and memory of `kgbuild mcp` (the MCP server) through the official SDK's client, against the
same calls through the library API in this process, on a built project (the 2Wiki corpus, say).

Run from the repo root: `python bench/mcp.py --project DIR [--n 60] [--clients 10 --load-seconds 30]`.

1. baseline: opens the project with `kgbuild.open`-style `Engine.open` here and times the explorer's
   search and 2-hop neighbourhood and the engine's hybrid retrieve (what the tools call), then closes it
   (the embedded stores admit one process at a time);
2. MCP over stdio: the SDK's client starts `python -m kgbuild -c CONFIG mcp` as a subprocess and times
   `search_entities`, `neighbourhood` (hops 2, the tool's default caps) and `retrieve` (k 5), one call at a
   time after a warm-up; entity names and ids are drawn at random from the entities table, and each
   retrieve asks a distinct question ("Who or what is <document title>?"), so no embedding cache hit;
   then reads the server's resident memory from /proc (its own process: mcp_rss_mb; with Milvus Lite's
   engine process: mcp_rss_total_mb);
3. load (when --clients > 0): `kgbuild mcp --http` on a free loopback port, --clients SDK clients each
   looping over search, neighbourhood, triples and retrieve: --warmup-seconds unmeasured, then
   --load-seconds (a bounded loop) with the errors counted and the server's RSS read before, every 5 s
   and after.

The last line is JSON: mcp_search_p50_ms, mcp_neighbourhood_p50_ms, mcp_retrieve_p50_ms, mcp_rss_mb, the
library baseline (lib_*_p50_ms) and the load figures (issue 26 targets: 20, 20 and 150 ms p50; no load
error; RSS growth under 10 %).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from process_stats import descendants, memory_mb, percentile  # before the folder leaves the path below

REPO = Path(__file__).resolve().parents[1]
# Run as `python bench/mcp.py`, this file's folder comes first on the import path, and its name would hide
# the SDK's `mcp` package from the imports below.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]


def server_pid(parent: int) -> int:
    """The `kgbuild ... mcp` process among this process's children (the SDK started it)."""
    for pid in descendants(parent):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"kgbuild" in cmdline and b"mcp" in cmdline:
            return pid
    raise RuntimeError("the MCP server process was not found among this process's children")


def summary(name: str, ms: list[float]) -> str:
    return f"{name:<28} p50 {percentile(ms, 50):7.1f} ms   p90 {percentile(ms, 90):7.1f} ms   (n={len(ms)})"


def server_env() -> dict[str, str]:
    from kgbuild.config import ENV_OVERRIDES

    env = {k: v for k, v in os.environ.items() if k not in ENV_OVERRIDES}
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), *filter(None, [os.environ.get("PYTHONPATH")])])
    return env


def workload(config_path: Path, n: int, seed: int) -> tuple[list[str], list[str], list[str]]:
    """Names to search, ids to expand, and distinct questions."""
    from kgbuild.config import load_config
    from kgbuild.workspace import Workspace

    workspace = Workspace(load_config(config_path).workspace_path())
    rng = random.Random(seed)
    entities = workspace.read_table("entities", ["id", "name"]).to_pylist()
    titles = [d["title"] for d in workspace.read_table("documents", ["title"]).to_pylist() if d["title"]]
    picked = rng.sample(entities, min(len(entities), n + 5))
    questions = [f"Who or what is {t}?" for t in rng.sample(titles, min(len(titles), 2 * n + 10))]
    return [e["name"] for e in picked], [e["id"] for e in picked], questions


def baseline(config_path: Path, names: list[str], ids: list[str], questions: list[str], n: int) -> dict[str, float]:
    """The same work through the library API in this process: explorer search / neighbourhood, engine retrieve."""
    from kgbuild.config import load_config
    from kgbuild.engine import Engine
    from kgbuild.serve.data import Explorer

    with Engine.open(load_config(config_path)) as engine:
        explorer = Explorer(engine)
        index = explorer.index()
        explorer.retrieve(questions[-1], 5, "hybrid")  # loads the retriever and the question encoder
        search = timed_sync(lambda name: index.search(name, None, None, 0, 20), names[:n])
        hood = timed_sync(lambda i: index.neighbourhood(i, 2, 30, 60, False), ids[:n])
        retrieve = timed_sync(lambda q: explorer.retrieve(q, 5, "hybrid"), questions[n:2 * n])
    print(summary("library search", search))
    print(summary("library neighbourhood (2)", hood))
    print(summary("library retrieve (k=5)", retrieve), flush=True)
    return {"lib_search_p50_ms": percentile(search, 50), "lib_neighbourhood_p50_ms": percentile(hood, 50),
            "lib_retrieve_p50_ms": percentile(retrieve, 50)}


def timed_sync(fn: Callable[[Any], Any], items: list[Any]) -> list[float]:
    out = []
    for item in items:
        t = time.perf_counter()
        fn(item)
        out.append((time.perf_counter() - t) * 1000)
    return out


async def timed_calls(call: Callable[[Any], Awaitable[Any]], items: list[Any]) -> list[float]:
    out = []
    for item in items:
        t = time.perf_counter()
        result = await call(item)
        out.append((time.perf_counter() - t) * 1000)
        if result.is_error:
            raise RuntimeError(f"tool error: {result.content}")
    return out


async def over_stdio(config_path: Path, names: list[str], ids: list[str], questions: list[str],
                     n: int) -> dict[str, float]:
    from mcp import Client, StdioServerParameters

    env = server_env()
    params = StdioServerParameters(command=sys.executable, args=["-m", "kgbuild", "-c", str(config_path), "mcp"],
                                   env={k: env[k] for k in ("PYTHONPATH", "HOME", "PATH", "OMP_NUM_THREADS")
                                        if k in env})
    t = time.perf_counter()
    async with Client(params, cache=None) as client:
        print(f"stdio server up in {time.perf_counter() - t:.1f} s", flush=True)
        for name, arguments in (("search_entities", {"query": names[0]}), ("neighbourhood", {"id": ids[0], "hops": 2}),
                                ("retrieve", {"question": questions[-1], "k": 5})):
            await client.call_tool(name, arguments)  # warm-up
        search = await timed_calls(lambda name: client.call_tool("search_entities", {"query": name}), names[:n])
        hood = await timed_calls(lambda i: client.call_tool("neighbourhood", {"id": i, "hops": 2}), ids[:n])
        retrieve = await timed_calls(lambda q: client.call_tool("retrieve", {"question": q, "k": 5}),
                                     questions[:n])
        pid = server_pid(os.getpid())
        own = memory_mb(pid)[0]
        total = own + sum(memory_mb(c)[0] for c in descendants(pid))
    print(summary("mcp search_entities", search))
    print(summary("mcp neighbourhood (2)", hood))
    print(summary("mcp retrieve (k=5)", retrieve))
    print(f"mcp server RSS {own:.0f} MB (with Milvus Lite's process: {total:.0f} MB)", flush=True)
    return {"mcp_search_p50_ms": percentile(search, 50), "mcp_neighbourhood_p50_ms": percentile(hood, 50),
            "mcp_retrieve_p50_ms": percentile(retrieve, 50), "mcp_search_p90_ms": percentile(search, 90),
            "mcp_neighbourhood_p90_ms": percentile(hood, 90), "mcp_retrieve_p90_ms": percentile(retrieve, 90),
            "mcp_rss_mb": own, "mcp_rss_total_mb": total}


async def load(config_path: Path, names: list[str], ids: list[str], questions: list[str], clients: int,
               seconds: float, warmup: float) -> dict[str, float]:
    """`clients` SDK clients over streamable HTTP, each calling tools in a loop until the deadline: `warmup`
    seconds unmeasured, then `seconds` with the server's RSS read before, every 5 s, and after."""
    from mcp import Client

    from kgbuild.serve.server import free_port

    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    with tempfile.TemporaryFile("w+") as log:
        server = subprocess.Popen([sys.executable, "-m", "kgbuild", "-c", str(config_path), "mcp", "--http",
                                   "--port", str(port)], env=server_env(), stdout=subprocess.DEVNULL, stderr=log)
        try:
            deadline = time.monotonic() + 300
            while True:
                if server.poll() is not None:
                    log.seek(0)
                    sys.exit(f"the HTTP server exited ({server.returncode}):\n{log.read()[-2000:]}")
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=1):
                        break
                except OSError:
                    if time.monotonic() > deadline:
                        sys.exit("the HTTP server did not listen within 300 s")
                    await asyncio.sleep(0.2)
            counts = {"calls": 0, "errors": 0}

            async def one(c: int, stop: float) -> None:
                rng = random.Random(c)
                async with Client(url, cache=None) as client:
                    while time.monotonic() < stop:
                        name, arguments = rng.choice([
                            ("search_entities", {"query": rng.choice(names)}),
                            ("neighbourhood", {"id": rng.choice(ids), "hops": 2}),
                            ("triples", {"subject": rng.choice(ids)}),
                            ("retrieve", {"question": rng.choice(questions), "k": 5})])
                        try:
                            result = await client.call_tool(name, arguments)
                            counts["errors"] += int(result.is_error)
                        except Exception:  # noqa: BLE001 - counted: the check is that there are none
                            counts["errors"] += 1
                        counts["calls"] += 1

            async def run_clients(duration: float) -> float:
                stop = time.monotonic() + duration
                t = time.perf_counter()
                await asyncio.gather(*(one(c, stop) for c in range(clients)))
                return time.perf_counter() - t

            # The same load first, unmeasured: what the first calls load (the retriever, caches, the
            # question encoder's buffers) is not growth.
            await run_clients(warmup)
            counts.update(calls=0, errors=0)
            before = memory_mb(server.pid)[0]
            samples: list[float] = []

            async def sample() -> None:
                while True:
                    await asyncio.sleep(5)
                    samples.append(memory_mb(server.pid)[0])

            sampler = asyncio.ensure_future(sample())
            wall = await run_clients(seconds)
            sampler.cancel()
            after = memory_mb(server.pid)[0]
            calls, errors = counts["calls"], counts["errors"]
        finally:
            server.terminate()
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(timeout=30)
    growth = 100 * (after - before) / before if before else float("nan")
    print(f"load: {clients} clients x {seconds:.0f} s over HTTP: {calls} calls ({calls / wall:.0f}/s), {errors} errors;"
          f" server RSS {before:.0f} -> {after:.0f} MB ({growth:+.1f} %) after a {warmup:.0f} s warm-up; every 5 s: "
          f"{', '.join(f'{m:.0f}' for m in samples)} MB", flush=True)
    return {"load_clients": clients, "load_seconds": seconds, "load_warmup_seconds": warmup,
            "load_calls": calls, "load_errors": errors,
            "load_calls_per_s": calls / wall, "load_rss_before_mb": before, "load_rss_after_mb": after,
            "load_rss_growth_pct": growth}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--project", type=Path, required=True, help="a built project (directory or kgbuild.yaml)")
    parser.add_argument("--n", type=int, default=60, help="timed calls per tool")
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--clients", type=int, default=10, help="concurrent HTTP clients of the load check (0: none)")
    parser.add_argument("--load-seconds", type=float, default=30.0)
    parser.add_argument("--load-only", action="store_true", help="only the load check (no baseline, no stdio)")
    parser.add_argument("--warmup-seconds", type=float, default=10.0, help="the same load first, unmeasured")
    args = parser.parse_args()
    sys.path.insert(0, str(REPO))
    config_path = args.project / "kgbuild.yaml" if args.project.is_dir() else args.project
    names, ids, questions = workload(config_path, args.n, args.seed)
    figures: dict[str, float] = {}
    if not args.load_only:
        figures.update(baseline(config_path, names, ids, questions, args.n))
        figures.update(asyncio.run(over_stdio(config_path, names, ids, questions, args.n)))
    if args.clients > 0:
        figures.update(asyncio.run(load(config_path, names, ids, questions, args.clients, args.load_seconds,
                                          args.warmup_seconds)))
    print(json.dumps({k: round(v, 2) if isinstance(v, float) else v for k, v in figures.items()}))


if __name__ == "__main__":
    main()
