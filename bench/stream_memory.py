"""Peak memory of the offline build on a corpus and on the same corpus doubled, streamed vs one batch.

Run from the repo root: `python bench/stream_memory.py [CORPUS]` (default: 2Wiki). The "single"
corpus is the first half of CORPUS, the "double" one all of it. Each build is its own `kgbuild build`
process (stores off, one worker per core) on a fresh workspace; peak memory is the largest total RSS
of the process tree (driver + extraction workers), sampled every 100 ms, and the driver's own peak
from the build report. "before" is `build.batch_documents: 0` (the whole corpus in one batch, as
before streaming), "after" the streamed default. The streamed and one-batch builds of the double
corpus are compared table by table. Last line: one JSON object with the figures.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

from build_offline import compare_workspaces, run_sampled
from shared_data import shared_data

STREAMED_BATCH = 500  # the default of build.batch_documents


def run_build(corpus: Path, root: Path, batch: int) -> dict[str, float]:
    root.mkdir(parents=True)
    config = root / "kgbuild.yaml"
    config.write_text("workspace: ws\ngraph_store: {backend: none}\nvector_store: {backend: none}\n"
                      f"build: {{batch_documents: {batch}}}\n", encoding="utf-8")
    cmd = [sys.executable, "-m", "kgbuild", "-c", str(config), "build", str(corpus), "--json", "--keep-going"]
    out, wall, peak = run_sampled(cmd)
    report = json.loads(out)
    return {"wall_s": wall, "tree_mb": peak, "driver_mb": report["peak_rss_mb"],
            "worker_mb": report["peak_worker_rss_mb"], "passages": report["read"]["documents_read"],
            "chunks": report["extract"]["chunks_total"]}


def main() -> None:
    corpus = Path(sys.argv[1]) if len(sys.argv) > 1 else shared_data("2wiki/corpus.json") / "2wiki" / "corpus.json"
    if not corpus.exists():
        sys.exit(f"{corpus}: corpus not found; pass its path as the first argument")
    records = json.loads(corpus.read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory(prefix="kgbench-stream-") as tmp:
        half = Path(tmp) / "half.json"
        half.write_text(json.dumps(records[: len(records) // 2]), encoding="utf-8")
        runs: dict[str, dict[str, float]] = {}
        for label, batch in (("before", 0), ("after", STREAMED_BATCH)):
            for size, path in (("single", half), ("double", corpus)):
                runs[f"{size}_{label}"] = run_build(path, Path(tmp) / f"{size}_{label}", batch)
                r = runs[f"{size}_{label}"]
                print(f"{label:>6} {size:>6}: {r['passages']:5.0f} passages, {r['chunks']:5.0f} chunks, "
                      f"{r['wall_s']:6.1f} s, peak RSS tree {r['tree_mb']:6.0f} MB (driver {r['driver_mb']:6.0f} MB, "
                      f"largest worker {r['worker_mb']:5.0f} MB)", flush=True)
        identical, _ = compare_workspaces(Path(tmp) / "double_after" / "ws", Path(tmp) / "double_before" / "ws")
    figures: dict[str, float | int | bool | str] = {"corpus": corpus.name, "cores": os.cpu_count() or 1,
                                                    "batch_documents_after": STREAMED_BATCH}
    for label in ("before", "after"):
        single, double = runs[f"single_{label}"], runs[f"double_{label}"]
        figures[f"peak_rss_single_mb_{label}"] = round(single["tree_mb"])
        figures[f"peak_rss_double_mb_{label}"] = round(double["tree_mb"])
        figures[f"growth_ratio_{label}"] = round(double["tree_mb"] / single["tree_mb"], 3)
        figures[f"driver_peak_single_mb_{label}"] = round(single["driver_mb"])
        figures[f"driver_peak_double_mb_{label}"] = round(double["driver_mb"])
        figures[f"driver_growth_ratio_{label}"] = round(double["driver_mb"] / single["driver_mb"], 3)
        figures[f"wall_single_s_{label}"] = round(single["wall_s"], 1)
        figures[f"wall_double_s_{label}"] = round(double["wall_s"], 1)
    figures["identical_tables"] = identical
    print(f"growth of peak memory from single to double corpus: {figures['growth_ratio_before']}x in one batch, "
          f"{figures['growth_ratio_after']}x streamed; driver alone {figures['driver_growth_ratio_before']}x vs "
          f"{figures['driver_growth_ratio_after']}x; streamed tables identical to one batch: {identical}")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
