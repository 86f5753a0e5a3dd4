"""The 2Wiki offline build three ways in one run: the local process pool, a 1-node Ray cluster and a
2-node Ray cluster (two `ray start` nodes on this machine), with the stores off (the write stage
is the same code on the driver in all three; this measures the stages Ray spreads).

    python bench/ray_build.py [--corpus PATH] [--limit N]

The local build runs first and last (its mean is the baseline: the machine's load drifts). The
clusters run inside network + PID namespaces kept on loopback (tests/ray_netns.py; needs root),
each started before its build: the walls compare builds on a running cluster, and the start-up
is reported apart. The local pool and the 1-node cluster get the machine's cores; the two nodes
one core each. Peak memory: the driver (its own ru_maxrss), the largest worker process (pool
worker or Ray worker), and every process of the cluster together (Ray's daemons included).
Last line: one JSON object of figures.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from shared_data import shared_data

ROOT = Path(__file__).resolve().parent.parent
ADDRESS = "127.0.0.1:6390"
CONFIG = "workspace: ws\ngraph_store:\n  backend: none\nvector_store:\n  backend: none\n"


def _netns() -> Any:
    """tests/ray_netns.py, loaded by path (the agent runs it as a script too)."""
    spec = importlib.util.spec_from_file_location("ray_netns", ROOT / "tests" / "ray_netns.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def tables(workspace: Path) -> dict[str, list[str]]:
    from kgbuild.build.persist import WRITE_ORDER
    from kgbuild.workspace import Workspace

    ws = Workspace(workspace)
    return {name: sorted(json.dumps(row, sort_keys=True, default=str) for row in ws.rows(name))
            for name in WRITE_ORDER}


def project(base: Path, name: str) -> Path:
    path = base / name
    path.mkdir(parents=True)
    (path / "kgbuild.yaml").write_text(CONFIG, encoding="utf-8")
    return path / "kgbuild.yaml"


def argv(config: Path, corpus: Path, *more: str) -> list[str]:
    return [sys.executable, "-m", "kgbuild", "-c", str(config), "build", str(corpus), "--json", "--keep-going", *more]


def local_build(config: Path, corpus: Path) -> dict[str, Any]:
    start = time.perf_counter()
    done = subprocess.run(argv(config, corpus), capture_output=True, text=True, cwd=config.parent)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"local build failed: {done.stderr.strip().splitlines()[-1:]}")
    report = json.loads(done.stdout)
    return {"wall_s": wall, "report": report, "driver_mb": report["peak_rss_mb"],
            "worker_mb": report["peak_worker_rss_mb"]}


def ray_build(netns: Any, config: Path, corpus: Path, nodes: int, cores: int) -> dict[str, Any]:
    env = {"PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)}
    with netns.RayNamespace(env) as ns:
        start = time.perf_counter()
        ns.call("head", cpus=cores if nodes == 1 else 1)
        for n in range(2, nodes + 1):
            ns.call("worker", cpus=1, nodes=n)
        cluster_start = time.perf_counter() - start
        result = ns.call("run", argv=argv(config, corpus, "--engine", "ray", "--ray-address", ADDRESS),
                         cwd=str(config.parent), timeout=3600, sample_memory=True)
    if result["rc"] != 0:
        sys.exit(f"ray build ({nodes} node(s)) failed: {result['stderr'].strip().splitlines()[-3:]}")
    report = json.loads(result["stdout"])
    return {"wall_s": result["seconds"], "report": report, "cluster_start_s": cluster_start,
            "driver_mb": report["peak_rss_mb"], "worker_mb": result["peaks"]["worker_mb"],
            "cluster_mb": result["peaks"]["cluster_mb"]}


def line(name: str, run: dict[str, Any]) -> None:
    r = run["report"]
    stages = ", ".join(f"{k} {v:.1f}s" for k, v in r["stage_seconds"].items())
    print(f"{name:>10}: {run['wall_s']:6.1f} s wall ({stages}); driver {run['driver_mb']:.0f} MB, "
          f"largest worker {run['worker_mb']:.0f} MB; {r.get('engine', 'local')}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=shared_data("2wiki/corpus.json") / "2wiki" / "corpus.json")
    parser.add_argument("--limit", type=int, default=0, help="first N passages only (a quick look)")
    args = parser.parse_args()
    netns = _netns()
    reason = netns.namespaces_available()
    if reason:
        sys.exit(f"bench/ray_build.py: {reason}")
    cores = os.cpu_count() or 1
    with tempfile.TemporaryDirectory(prefix="kg-raybench-") as tmp:
        base = Path(tmp)
        corpus = args.corpus
        if args.limit:
            corpus = base / "corpus.json"
            corpus.write_text(json.dumps(json.loads(args.corpus.read_text(encoding="utf-8"))[: args.limit]),
                              encoding="utf-8")
        print(f"corpus {args.corpus}{f' (first {args.limit})' if args.limit else ''}; {cores} core(s); stores off")
        local = local_build(project(base, "local"), corpus)
        line("local", local)
        one = ray_build(netns, project(base, "ray1"), corpus, 1, cores)
        line("ray 1 node", one)
        two = ray_build(netns, project(base, "ray2"), corpus, 2, cores)
        line("ray 2 node", two)
        # The local build once more, last: the machine's load drifts (other jobs), and the mean of
        # a first and a last run is a fairer baseline for the two in between.
        again = local_build(project(base, "local2"), corpus)
        line("local", again)
        reference = tables(base / "local" / "ws")
        identical = all(tables(base / name / "ws") == reference for name in ("ray1", "ray2", "local2"))
    local_runs = [round(local["wall_s"], 2), round(again["wall_s"], 2)]
    local = {**local, "wall_s": sum(local_runs) / 2}
    ex = local["report"]["extract"]
    chunks = ex["chunks_total"]
    figures = {
        "chunks": chunks,
        "local_wall_s": round(local["wall_s"], 2),  # mean of the first and the last run
        "local_runs_wall_s": local_runs,
        "ray_1node_wall_s": round(one["wall_s"], 2),
        "ray_2node_wall_s": round(two["wall_s"], 2),
        "ray_1node_overhead_x": round(one["wall_s"] / local["wall_s"], 3),
        "ray_2node_overhead_x": round(two["wall_s"] / local["wall_s"], 3),
        "identical_tables": identical,
        "ray_1node_cluster_start_s": round(one["cluster_start_s"], 2),
        "ray_2node_cluster_start_s": round(two["cluster_start_s"], 2),
        "peak_local_driver_mb": local["driver_mb"],
        "peak_local_worker_mb": local["worker_mb"],
        "peak_ray_1node_driver_mb": one["driver_mb"],
        "peak_ray_1node_worker_mb": round(one["worker_mb"], 1),
        "peak_ray_1node_cluster_total_mb": round(one["cluster_mb"], 1),
        "peak_ray_2node_driver_mb": two["driver_mb"],
        "peak_ray_2node_worker_mb": round(two["worker_mb"], 1),
        "peak_ray_2node_cluster_total_mb": round(two["cluster_mb"], 1),
        # Per-stage throughput of this machine, for docs/scale.md's arithmetic.
        "local_extract_chunks_per_s": round(chunks / max(local["report"]["stage_seconds"]["extract"], 1e-9), 1),
        "ray_2node_extract_chunks_per_s": round(chunks / max(two["report"]["stage_seconds"]["extract"], 1e-9), 1),
        "local_chunk_docs_per_s": round(local["report"]["read"]["documents_read"]
                                        / max(local["report"]["stage_seconds"]["chunk"], 1e-9), 1),
        "local_align_s": local["report"]["stage_seconds"].get("align", 0.0),
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
