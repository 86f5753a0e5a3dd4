"""Chunking throughput and memory on single large text files (issue 16: a 50 MB .txt took ~5 min, 1.7 GB).

Run from the repo root: `python bench/chunking.py [--sizes 1,5,20,50] [--keep DIR]`.

Builds .txt files of growing size from real passages (2WikiMultihop, else HotpotQA), shuffled
sentences, in two layouts: paragraphs separated by blank lines, and the nasty case with NO
blank line at all (the whole file is one paragraph). Each size is read and chunked
(kgbuild.ingest.readers + Chunker, default ChunkingConfig: rules splitter, lexical topic split)
in its own subprocess, so wall time and peak RSS (getrusage of the child) belong to that size
alone. Linear means s/MB stays roughly constant as the size grows. The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DATA = [Path("/work/shared/data/2wiki/corpus.json"), Path("/work/shared/data/hotpotqa/train_corpus.json")]
MB = 1_000_000

_CHILD = r"""
import json, resource, sys, time
t0 = time.perf_counter()
from kgbuild.config import ChunkingConfig
from kgbuild.ingest.chunking import Chunker
from kgbuild.ingest.readers.files import read_sources
from kgbuild.model import Document
chunker = Chunker(ChunkingConfig())
t1 = time.perf_counter()
setup_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
chunks = tokens = paragraphs = 0
for doc in read_sources([sys.argv[1]]):
    assert isinstance(doc, Document), doc
    paragraphs += len(doc.paragraphs)
    t2 = time.perf_counter()
    result = chunker.chunk(doc)
    chunks += len(result.chunks)
    tokens += sum(c.token_count for c in result.chunks)
t3 = time.perf_counter()
print(json.dumps({"setup_s": t1 - t0, "read_s": t2 - t1, "chunk_s": t3 - t2, "work_s": t3 - t1,
                  "chunks": chunks, "tokens": tokens, "paragraphs": paragraphs, "setup_rss_kib": setup_kib}))
"""


def _sentences() -> list[str]:
    for path in DATA:
        if path.exists():
            data = json.loads(path.read_text(encoding="utf-8"))
            if isinstance(data, dict):  # {title: [sentences]}
                records = list(data.values())
            else:  # [{"title", "text" | "sentences" | "paragraph_text"}]
                records = [r.get("text") or r.get("sentences") or r.get("paragraph_text") for r in data]
            out: list[str] = []
            for text in records:
                parts = text if isinstance(text, list) else [text]
                out.extend(" ".join(str(p).split()) for p in parts if p and str(p).strip())
            return out
    sys.exit(f"no corpus found at {', '.join(map(str, DATA))}")


def make_text(sentences: list[str], size: int, blank_lines: bool, seed: int) -> str:
    """About `size` characters of shuffled real sentences; paragraphs of 3-8 sentences, one per line."""
    rng = random.Random(seed)
    parts: list[str] = []
    total = 0
    while total < size:
        para = " ".join(rng.choice(sentences) for _ in range(rng.randint(3, 8)))
        parts.append(para)
        total += len(para) + 2
    return ("\n\n" if blank_lines else "\n").join(parts) + "\n"


def run_one(path: Path) -> dict[str, float]:
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-c", _CHILD, str(path)], stdout=out, stderr=err)
        # os.wait4 reaps the child and returns its own rusage (RUSAGE_CHILDREN would be the max
        # over every child so far); Popen never waited on it, so the pid is still ours to reap.
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        if proc.returncode != 0:
            sys.exit(f"child failed on {path}:\n{err.read()[-2000:]}")
        result: dict[str, float] = json.loads(out.read().strip().splitlines()[-1])
    result["wall_s"] = wall
    result["peak_rss_mb"] = usage.ru_maxrss * 1024 / MB  # KiB on Linux
    result["setup_rss_mb"] = result.pop("setup_rss_kib") * 1024 / MB  # imports + models, before any input
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1,5,20,50", help="file sizes in MB, comma-separated")
    parser.add_argument("--layouts", default="blank,noblank",
                        help="blank (paragraphs) and/or noblank (one line per paragraph, no blank line)")
    parser.add_argument("--keep", type=Path, help="write the generated files here and keep them")
    args = parser.parse_args()
    sizes = [float(s) for s in args.sizes.split(",")]
    sentences = _sentences()
    print(f"{len(sentences)} source passages; sizes {sizes} MB; python {sys.version.split()[0]}")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        for layout in args.layouts.split(","):
            for size in sizes:
                path = folder / f"{layout}_{size:g}mb.txt"
                text = make_text(sentences, int(size * MB), layout == "blank", seed=int(size * 1000))
                path.write_text(text, encoding="utf-8")
                del text
                mb = path.stat().st_size / MB
                r = run_one(path)
                row = {
                    "layout": layout, "input_mb": round(mb, 2),
                    "wall_s": round(r["wall_s"], 2),
                    "read_s": round(r["read_s"], 2), "chunk_s": round(r["chunk_s"], 2),
                    "work_s_per_mb": round(r["work_s"] / mb, 3),
                    "peak_rss_mb": round(r["peak_rss_mb"], 1),
                    "setup_rss_mb": round(r["setup_rss_mb"], 1),
                    # what the input itself costs: peak above the loaded program, per MB of input
                    "extra_rss_mb_per_input_mb": round((r["peak_rss_mb"] - r["setup_rss_mb"]) / mb, 2),
                    "chunks": int(r["chunks"]),
                    "paragraphs": int(r["paragraphs"]),
                }
                rows.append(row)
                print(f"{layout:8s} {mb:7.2f} MB  wall {r['wall_s']:7.2f} s  read {r['read_s']:6.2f} s  "
                      f"chunk {r['chunk_s']:7.2f} s  {row['work_s_per_mb']:6.3f} s/MB  "
                      f"peak RSS {r['peak_rss_mb']:7.1f} MB (+{row['extra_rss_mb_per_input_mb']:.2f} MB per input MB "
                      f"over {row['setup_rss_mb']:.0f} MB loaded)  {row['chunks']} chunks", flush=True)
    print(json.dumps({"runs": rows}))


if __name__ == "__main__":
    main()
