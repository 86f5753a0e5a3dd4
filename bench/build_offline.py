"""Offline build of the 2Wiki corpus (read, chunk, extract, persist): parallel vs single process.

Run from the repo root: `python bench/build_offline.py [CORPUS]`. Each build runs as its own
`kgbuild build` process on a fresh workspace, so the figures include start-up and model
loading; peak memory is the largest total RSS of the whole process tree (main + workers),
sampled every 100 ms. A third run repeats the parallel build on its finished workspace to show
what the extraction cache saves. Last line: one JSON object with the figures.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path


def default_corpus() -> Path:
    """KGBUILD_SHARED_DATA, else shared/data beside the checkout, else the machines' standard place."""
    for base in (os.environ.get("KGBUILD_SHARED_DATA"), Path(__file__).resolve().parents[2] / "shared" / "data",
                 "/work/shared/data"):
        if base and (Path(base) / "2wiki" / "corpus.json").exists():
            return Path(base) / "2wiki" / "corpus.json"
    return Path("/work/shared/data/2wiki/corpus.json")


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


def run_build(kgbuild: Path, corpus: Path, workspace: Path, workers: int) -> dict:
    workspace.mkdir(parents=True, exist_ok=True)
    config = workspace / "kgbuild.yaml"
    config.write_text("workspace: ws\n", encoding="utf-8")
    cmd = [str(kgbuild), "-c", str(config), "build", str(corpus), "--workers", str(workers), "--json", "--keep-going"]
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
    report = flat_report(json.loads(out))
    return {"wall_s": wall, "peak_rss_mb": peak, "report": report}


def flat_report(report: dict) -> dict:
    """The figures this bench reads, from a report with one section per stage (kgbuild >= the stage
    pipeline) or from the older flat report, so old and new commits can be measured side by side."""
    if "read" not in report:
        return report
    graph = (report.get("align") or report.get("assemble") or {}).get("graph", {})
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
    corpus = Path(sys.argv[1]) if len(sys.argv) > 1 else default_corpus()
    if not corpus.exists():
        sys.exit(f"{corpus}: corpus not found; pass its path as the first argument")
    kgbuild = Path(sys.executable).parent / "kgbuild"
    cores = os.cpu_count() or 1
    with tempfile.TemporaryDirectory(prefix="kgbench-") as tmp:
        par = run_build(kgbuild, corpus, Path(tmp) / "parallel", cores)
        rerun = run_build(kgbuild, corpus, Path(tmp) / "parallel", cores)
        single = run_build(kgbuild, corpus, Path(tmp) / "single", 1)
        identical, id_problems = compare_workspaces(Path(tmp) / "parallel" / "ws", Path(tmp) / "single" / "ws")
    rep = par["report"]
    passages, words = rep["documents_read"], rep["words"]
    for label, run in (("parallel", par), ("single", single), ("cached re-run", rerun)):
        r = run["report"]
        print(f"{label:>13}: {run['wall_s']:6.1f} s wall, {passages / run['wall_s']:7.1f} passages/s, "
              f"{words / run['wall_s']:8.0f} words/s, peak RSS {run['peak_rss_mb']:6.0f} MB, "
              f"workers {r['workers']}, stages {r['stage_seconds']}")
    print(f"corpus: {corpus.name}, {passages} passages, {words} words, {rep['chunks_total']} chunks -> "
          f"{rep['entities']} entities, {rep['relations']} relations, {rep['events']} events, "
          f"{rep['hypernodes']} hypernodes, {rep['concepts']} concepts")
    print(f"parallel and single-process builds give identical tables: {identical}; "
          f"chunk id / provenance problems: {id_problems}")
    print(f"parallel speed-up over single process: {single['wall_s'] / par['wall_s']:.2f}x on {cores} cores")
    figures = {
        "passages": passages,
        "words": words,
        "chunks": rep["chunks_total"],
        "cores": cores,
        "parallel_wall_s": round(par["wall_s"], 1),
        "parallel_passages_per_s": round(passages / par["wall_s"], 1),
        "parallel_words_per_s": round(words / par["wall_s"]),
        "parallel_peak_rss_mb": round(par["peak_rss_mb"]),
        "single_wall_s": round(single["wall_s"], 1),
        "single_passages_per_s": round(passages / single["wall_s"], 1),
        "single_words_per_s": round(words / single["wall_s"]),
        "single_peak_rss_mb": round(single["peak_rss_mb"]),
        "speedup_x": round(single["wall_s"] / par["wall_s"], 2),
        "cached_rerun_wall_s": round(rerun["wall_s"], 1),
        "identical_tables": identical,
        "id_problems": id_problems,
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
