"""A first full build of 2Wiki with the stores off and with the default stores, and the retrieval
check of the embedding backend the default build uses.

Run from the repo root: `python bench/build_offline.py [CORPUS] [--parallel-check] [--static]`. Each build runs
as its own `kgbuild build` process on a fresh workspace, so the figures include start-up and model
loading; peak memory is the largest total RSS of the whole process tree (main + workers), sampled
every 100 ms.

1. stores off: read -> chunk -> extract -> align -> persist (graph_store and vector_store `none`);
2. default stores: the same plus the embedded graph store and Milvus Lite (the vector stage with the
   default `embedding.backend`); target: at most 1.5x the stores-off wall;
3. HotpotQA hybrid Recall@5 with the vectors of the PyTorch backend (what every build used before)
   and of the default backend, on one offline build, same questions, same run (bench/retrieval.py
   computes R@5 the same way); the default must stay within 0.01. The vectors of the opt-in
   `static` backend (a distilled token table) are checked too, for what it costs in recall.
`--static` adds a third 2Wiki build with `embedding.backend: static` (stores on); its ratio to the
stores-off build is what a user who opts in gets.
`--parallel-check` adds what this bench measured before: a single-process build, a cached re-run,
and whether the parallel and single-process tables are identical. The ONNX graph is exported once
per machine into the user cache (~15 s); a first-ever run pays that inside the default-stores build,
and the static table's distillation (15 s idle, up to 2 min on a busy machine) inside the static build
(or, without --static, inside the recall check's static sync).
Last line: one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from shared_data import shared_data


def default_corpus() -> Path:
    return shared_data("2wiki/corpus.json") / "2wiki" / "corpus.json"


def _children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
            if int(fields[1]) == pid:
                out.append(int(entry))
        except (OSError, IndexError, ValueError):
            continue
    return out


def _rss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def _tree_rss_mb(root: int) -> float:
    total, stack = 0, [root]
    while stack:
        pid = stack.pop()
        total += _rss_kb(pid)
        stack.extend(_children(pid))
    return total / 1024


def run_sampled(cmd: list[str]) -> tuple[str, float, float]:
    """Run a build command; its stdout, wall seconds and the peak RSS (MB) of its whole process tree,
    sampled every 0.1 s (a failed build ends the benchmark with its last error line)."""
    peak = 0.0
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    stop = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not stop.is_set():
            peak = max(peak, _tree_rss_mb(proc.pid))
            stop.wait(0.1)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    out, err = proc.communicate()
    wall = time.perf_counter() - start
    stop.set()
    sampler.join()
    if proc.returncode != 0:
        sys.exit(f"build failed ({proc.returncode}): {err.strip().splitlines()[-1:] if err else ''}")
    return out, wall, peak


STORES_OFF = "graph_store:\n  backend: none\nvector_store:\n  backend: none\n"


def run_build(kgbuild: Path, corpus: Path, workspace: Path, workers: int, extra_config: str = "") -> dict:
    workspace.mkdir(parents=True, exist_ok=True)
    config = workspace / "kgbuild.yaml"
    config.write_text("workspace: ws\n" + extra_config, encoding="utf-8")
    cmd = [str(kgbuild), "-c", str(config), "build", str(corpus), "--workers", str(workers), "--json", "--keep-going"]
    out, wall, peak = run_sampled(cmd)
    raw = json.loads(out)
    stores = (raw.get("write") or {}).get("stores") or {}
    return {"wall_s": wall, "peak_rss_mb": peak, "report": flat_report(raw), "stores": stores}


def recall_check(workers: int) -> dict[str, dict[str, float]]:
    """Hybrid (and dense) Recall@5 on HotpotQA: one offline build, its vectors made once per backend."""
    from kgbuild.build import Builder
    from kgbuild.config import load_config
    from kgbuild.engine import Engine
    from kgbuild.progress import QuietProgress
    from kgbuild.query.evaluate import read_qa
    from kgbuild.store.sync import sync_stores

    data = shared_data()
    corpus, qa_path = data / "hotpotqa" / "train_corpus.json", data / "hotpotqa" / "qa_train.json"
    out: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory(prefix="kgbench-recall-") as tmp:
        base = "workspace: ws\ngraph_store:\n  backend: none\n"
        path = Path(tmp) / "kgbuild.yaml"
        path.write_text(base, encoding="utf-8")
        asyncio.run(Builder(load_config(path), QuietProgress()).arun([corpus], workers=workers, sync=False))
        qa = read_qa(qa_path)
        for backend in ("torch", "auto", "static"):
            path.write_text(base + f"vector_store:\n  uri: vectors-{backend}.db\nembedding:\n  backend: {backend}\n",
                            encoding="utf-8")
            config = load_config(path)
            t = time.perf_counter()
            sync = sync_stores(config, QuietProgress())
            seconds = time.perf_counter() - t
            with Engine.open(config) as engine:
                result = engine.eval(qa, ["dense", "hybrid"])
            out[backend] = {"backend": sync.embedding_backend, "recall_at_5": result.mode("hybrid").recall_at(5),
                            "dense_recall_at_5": result.mode("dense").recall_at(5), "vectors": sync.vectors_written,
                            "sync_s": seconds, "truncated": sync.embeddings_truncated}
            print(f"HotpotQA, vectors from {sync.embedding_backend}: {sync.vectors_written} vectors "
                  f"in {seconds:.1f} s, "
                  f"hybrid Recall@5 {out[backend]['recall_at_5']:.3f}, dense {out[backend]['dense_recall_at_5']:.3f}")
    return out


def flat_report(report: dict) -> dict:
    """The figures this bench reads, from a report with one section per stage (kgbuild >= the stage
    pipeline) or from the older flat report, so old and new commits can be measured side by side."""
    if "read" not in report:
        return report
    # the graph as written: after the literals step (values only a hypernode names are no entities), else alignment
    graph = (report.get("literals") or report.get("align") or report.get("assemble") or {}).get("graph", {})
    return {**report, **report["read"], **report["extract"], **graph}


def compare_workspaces(a: Path, b: Path) -> tuple[bool, int]:
    """Are the two builds' tables identical, and how many chunk-id or provenance rules does `a` break?"""
    import pyarrow.parquet as pq

    from kgbuild.ids import CHUNK_ID_RE

    names = ("documents", "chunks", "entities", "relations", "events", "hypernodes", "concepts")
    identical = all(pq.read_table(a / "tables" / f"{n}.parquet").equals(pq.read_table(b / "tables" / f"{n}.parquet"))
                    for n in names)
    ids = pq.read_table(a / "tables" / "chunks.parquet", columns=["id"])["id"].to_pylist()
    problems = sum(not CHUNK_ID_RE.match(i) for i in ids) + (len(ids) - len(set(ids)))
    known = set(ids)
    for n in names[2:]:
        rows = pq.read_table(a / "tables" / f"{n}.parquet").to_pylist()
        for row in rows:
            # Taxonomy from the schema (concepts, isA between concepts) has no chunk behind it.
            from_schema = n == "concepts" or (n == "relations" and row["predicate"] == "isA"
                                              and row["subject_kind"] == row["object_kind"] == "concept")
            problems += (not row["chunk_ids"] and not from_schema) or not set(row["chunk_ids"]) <= known
    return identical, problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=default_corpus())
    parser.add_argument("--parallel-check", action="store_true",
                        help="also a single-process build and a cached re-run (two more builds)")
    parser.add_argument("--static", action="store_true",
                        help="also a build with the default stores and embedding.backend: static")
    args = parser.parse_args()
    corpus: Path = args.corpus
    if not corpus.exists():
        sys.exit(f"{corpus}: corpus not found; pass its path as the first argument or set KGBUILD_SHARED_DATA")
    kgbuild = Path(sys.executable).parent / "kgbuild"
    cores = os.cpu_count() or 1
    figures: dict[str, object] = {"cores": cores}
    with tempfile.TemporaryDirectory(prefix="kgbench-") as tmp:
        off = run_build(kgbuild, corpus, Path(tmp) / "off", cores, STORES_OFF)
        on = run_build(kgbuild, corpus, Path(tmp) / "on", cores)
        if args.static:
            static = run_build(kgbuild, corpus, Path(tmp) / "static", cores, "embedding:\n  backend: static\n")
        if args.parallel_check:
            rerun = run_build(kgbuild, corpus, Path(tmp) / "off", cores, STORES_OFF)
            single = run_build(kgbuild, corpus, Path(tmp) / "single", 1, STORES_OFF)
            identical, id_problems = compare_workspaces(Path(tmp) / "off" / "ws", Path(tmp) / "single" / "ws")
    rep = off["report"]
    passages, words = rep["documents_read"], rep["words"]
    print(f"corpus: {corpus.name}, {passages} passages, {words} words, {rep['chunks_total']} chunks -> "
          f"{rep['entities']} entities, {rep['relations']} relations, {rep['events']} events, "
          f"{rep['hypernodes']} hypernodes, {rep['concepts']} concepts")
    for label, run in (("stores off", off), ("default stores", on)):
        r = run["report"]
        print(f"{label:>14}: {run['wall_s']:6.1f} s wall, {passages / run['wall_s']:6.1f} passages/s, "
              f"peak RSS {run['peak_rss_mb']:6.0f} MB, workers {r['workers']}, stages {r['stage_seconds']}")
    stores = on["stores"]
    seconds = stores.get("seconds", {})
    vectors, vector_s = stores.get("vectors_written", 0), seconds.get("vectors", 0.0)
    ratio = on["wall_s"] / off["wall_s"]
    print(f"stores: graph {stores.get('graph_store')} {seconds.get('graph', 0):.1f} s, "
          f"vectors {stores.get('vector_store')} "
          f"{vector_s:.1f} s for {vectors} vectors ({vectors / max(vector_s, 1e-9):.0f}/s), embedding backend "
          f"{stores.get('embedding_backend') or '?'}, {stores.get('embeddings_truncated', 0)} text(s) cut at the "
          f"{stores.get('embedding_window', 0)}-token window")
    print(f"default stores / stores off: {ratio:.2f}x (target <= 1.5)")
    figures.update({
        "passages": passages, "words": words, "chunks": rep["chunks_total"],
        "stores_off_wall_s": round(off["wall_s"], 1), "stores_on_wall_s": round(on["wall_s"], 1),
        "stores_ratio": round(ratio, 2), "vectors": vectors, "vector_stage_s": round(vector_s, 1),
        "vectors_per_s": round(vectors / max(vector_s, 1e-9)), "graph_stage_s": round(seconds.get("graph", 0.0), 1),
        "embedding_backend": stores.get("embedding_backend", ""),
        "embeddings_truncated": stores.get("embeddings_truncated", 0),
        "peak_rss_mb": round(max(on["peak_rss_mb"], off["peak_rss_mb"])),
        "stores_off_peak_rss_mb": round(off["peak_rss_mb"]), "stores_on_peak_rss_mb": round(on["peak_rss_mb"]),
    })
    if args.static:
        s_stores = static["stores"]
        s_vectors, s_vector_s = s_stores.get("vectors_written", 0), s_stores.get("seconds", {}).get("vectors", 0.0)
        s_ratio = static["wall_s"] / off["wall_s"]
        print(f"static stores: {static['wall_s']:.1f} s wall, peak RSS {static['peak_rss_mb']:.0f} MB, vectors "
              f"{s_vector_s:.1f} s for {s_vectors} vectors ({s_vectors / max(s_vector_s, 1e-9):.0f}/s), backend "
              f"{s_stores.get('embedding_backend') or '?'}; static stores / stores off: {s_ratio:.2f}x")
        figures.update({"stores_on_static_wall_s": round(static["wall_s"], 1), "stores_ratio_static": round(s_ratio, 2),
                        "vectors_per_s_static": round(s_vectors / max(s_vector_s, 1e-9)),
                        "vector_stage_s_static": round(s_vector_s, 1),
                        "stores_on_static_peak_rss_mb": round(static["peak_rss_mb"])})
    if args.parallel_check:
        print(f"single process: {single['wall_s']:.1f} s; cached re-run {rerun['wall_s']:.1f} s; "
              f"identical tables: {identical}; chunk id / provenance problems: {id_problems}")
        figures.update({"single_wall_s": round(single["wall_s"], 1),
                        "speedup_x": round(single["wall_s"] / off["wall_s"], 2),
                        "cached_rerun_wall_s": round(rerun["wall_s"], 1), "identical_tables": identical,
                        "id_problems": id_problems})
    recall = recall_check(cores)
    before, after = recall["torch"]["recall_at_5"], recall["auto"]["recall_at_5"]
    print(f"hybrid Recall@5 on HotpotQA: {before:.3f} (torch) -> {after:.3f} ({recall['auto']['backend']}); "
          f"within 0.01: {after >= before - 0.01}")
    figures.update({
        "hybrid_recall_at_5_torch": round(before, 3), "hybrid_recall_at_5_default": round(after, 3),
        "dense_recall_at_5_torch": round(recall["torch"]["dense_recall_at_5"], 3),
        "dense_recall_at_5_default": round(recall["auto"]["dense_recall_at_5"], 3),
        "recall_delta": round(after - before, 3),
        "hotpotqa_vector_sync_s_torch": round(recall["torch"]["sync_s"], 1),
        "hotpotqa_vector_sync_s_default": round(recall["auto"]["sync_s"], 1),
        "hybrid_recall_at_5_static": round(recall["static"]["recall_at_5"], 3),
        "dense_recall_at_5_static": round(recall["static"]["dense_recall_at_5"], 3),
        "hotpotqa_vector_sync_s_static": round(recall["static"]["sync_s"], 1),
        "load_avg_1min": round(os.getloadavg()[0], 2),
    })
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
