"""Structured records into the graph (issue 28): generated rows of three classes, two relation columns.

Run from the repo root: `python bench/structured.py [--rows 1000000] [--build-rows 20000,100000]`.

Three files are generated (HospitalDepartment paths with a hierarchy column, Drug records, Disease
records with a `drugs` relation column by name, two per cell, and a `department` relation column
by id), the Disease file holding most of the rows. Each measurement runs in its own subprocess,
so wall time and peak RSS (getrusage of the child) belong to it alone:

- baseline: `csv.reader` over the same files, nothing else (the floor any CSV import pays);
- map: `kgbuild.records` reading and mapping every record onto the schema, as a build's reading
  does (each record parsed and mapped once into Arrow columns), at `--rows`;
- build: `kgbuild build --no-sync` of the same mapping (read, one chunk per record, the records'
  graph rows built with Arrow, alignment, the workspace tables), stores off, at each `--build-rows`,
  then the same build again on unchanged files (`reimport_s`: the files are hashed, not parsed,
  and the last build's tables are kept);
- with `--baseline-tree DIR`: the smallest build, and its re-import, by the code checked out in
  DIR (e.g. `git worktree add --detach /tmp/base main`), in the same run (`old_build_*` keys).

The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

MAPPING = """records:
  files:
    - path: departments.csv
      class: HospitalDepartment
      id: code
      hierarchy: {column: path, separator: "-"}
    - path: drugs.csv
      class: Drug
      id: id
      name: name
      aliases: [alias]
      properties:
        - {column: form, property: dosageForm, parse: list}
    - path: diseases.csv
      class: Disease
      id: id
      name: name
      aliases: [alias]
      properties:
        - {column: incidence, parse: number}
      relations:
        - {column: drugs, predicate: treatedWith, target: Drug, separator: ";"}
        - {column: department, predicate: belongsToDepartment, target: HospitalDepartment, by: id}
"""

_BASELINE = r"""
import csv, json, resource, sys, time
from pathlib import Path
t, c = time.perf_counter(), time.process_time()
rows = 0
for path in sorted((Path(sys.argv[1]) / "data").glob("*.csv")):
    with path.open(encoding="utf-8", newline="") as fh:
        for _ in csv.reader(fh):
            rows += 1
print(json.dumps({"rows": rows, "s": time.perf_counter() - t, "cpu_s": time.process_time() - c,
                  "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

_MAP = r"""
import json, resource, sys, time
from pathlib import Path
t0 = time.perf_counter()
from kgbuild.config import load_config
from kgbuild.ingest.readers.problems import ReadProblem
from kgbuild.records import MappedFiles
from kgbuild.schema import resolve_schema
config = load_config(Path(sys.argv[1]) / "kgbuild.yaml", env={})
schema = resolve_schema(config.schema_location())
data = Path(sys.argv[1]) / "data"
t, c = time.perf_counter(), time.process_time()
# What a build's reading does with a mapped file: every record read, parsed, mapped once into
# columns (records, relation cells, concepts) and its chunk text; the columns handed over.
files = MappedFiles(config.records, schema)
rows = links = concepts = problems = 0
for mapping in config.records.files:
    path = data / mapping.path
    for item in files.read(path, mapping.path, path.stem) or ():
        if isinstance(item, ReadProblem):
            problems += 1
        elif item.format == "records":
            mapped = files.take(item)
            rows += mapped.rows.num_rows
            links += mapped.links.num_rows
            concepts += mapped.concepts.num_rows
print(json.dumps({"rows": rows, "s": time.perf_counter() - t, "cpu_s": time.process_time() - c,
                  "links": links, "concepts": concepts, "problems": problems,
                  "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

_BUILD = r"""
import asyncio, json, resource, sys, time
from pathlib import Path
from kgbuild.build import Builder
from kgbuild.config import load_config
config = load_config(Path(sys.argv[1]) / "kgbuild.yaml", env={})
t, c = time.perf_counter(), time.process_time()
report = asyncio.run(Builder(config).arun([Path(sys.argv[1]) / "data"], sync=False))
g = report.align.graph if report.align is not None else report.assemble.graph
print(json.dumps({"s": time.perf_counter() - t, "cpu_s": time.process_time() - c,
                  "entities": g.entities, "relations": g.relations,
                  "concepts": g.concepts, "chunks_unchanged": report.chunk.documents_unchanged,
                  "stages": report.stage_seconds,
                  "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def generate(root: Path, rows: int, seed: int = 7) -> None:
    """`rows` records over three files: 1% departments, 19% drugs, 80% diseases."""
    rng = random.Random(seed)
    data = root / "data"
    data.mkdir(parents=True)
    n_dept = max(10, rows // 100)
    n_drug = max(10, rows * 19 // 100)
    n_dis = max(10, rows - n_dept - n_drug)
    tops = [f"科{i}" for i in range(max(1, n_dept // 10))]
    with (data / "departments.csv").open("w", encoding="utf-8") as fh:
        fh.write("code,path\n")
        for i in range(n_dept):
            fh.write(f"D{i},{tops[i % len(tops)]}-分科{i}\n")
    with (data / "drugs.csv").open("w", encoding="utf-8") as fh:
        fh.write("id,name,alias,form\n")
        for i in range(n_drug):
            fh.write(f"{i},drug {i},DR-{i},tablet;injection\n")
    with (data / "diseases.csv").open("w", encoding="utf-8") as fh:
        fh.write("id,name,alias,incidence,drugs,department\n")
        for i in range(n_dis):
            drugs = f"drug {rng.randrange(n_drug)};drug {rng.randrange(n_drug)}"
            fh.write(f"{i},disease {i},illness {i},{rng.randrange(1, 99999)},{drugs},D{rng.randrange(n_dept)}\n")
    (root / "kgbuild.yaml").write_text(
        f"version: 1\nschema: medicine\nworkspace: .kgbuild\nalign: {{llm_judge: false, llm_hypernyms: false}}\n"
        f"{MAPPING}", encoding="utf-8")


def child(code: str, root: Path, tree: str | None = None) -> dict[str, object]:
    """`code` in a child process over `root`; `tree`: a checkout whose kgbuild it imports (the baseline)."""
    env = dict(os.environ)
    # This checkout's kgbuild, or the baseline's: first on the path either way.
    env["PYTHONPATH"] = os.pathsep.join(p for p in (tree or str(Path(__file__).resolve().parents[1]),
                                                    env.get("PYTHONPATH", "") if tree is None else "") if p)
    # Run from `root`: `python -c` puts the working directory first on sys.path, so a child started
    # from a checkout would import that checkout's kgbuild whatever PYTHONPATH says.
    out = subprocess.run([sys.executable, "-c", code, str(root)], capture_output=True, text=True, check=False,
                         env=env, cwd=root)
    if out.returncode != 0:
        raise SystemExit(f"child failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def build_twice(root: Path, size: int, prefix: str, tree: str | None = None) -> dict[str, object]:
    """A whole build of `size` generated rows, then the same build on the unchanged files; `tree`:
    a checkout of other code to build with (the baseline)."""
    generate(root, size)
    first = child(_BUILD, root, tree)
    again = child(_BUILD, root, tree)
    print(f"{prefix} {size} rows{f' ({tree})' if tree else ''}: {first['s']:.1f} s ({first['cpu_s']:.1f} s CPU; "
          f"{first['stages']}), {first['entities']} entities, {first['relations']} relations, "
          f"peak {first['peak_rss_mb']:.0f} MB; unchanged re-import {again['s']:.1f} s "
          f"({again['cpu_s']:.1f} s CPU, {again['chunks_unchanged']} files unchanged)")
    return {
        f"{prefix}_{size}_rows_per_s": round(size / float(first["s"])),
        f"{prefix}_{size}_cpu_rows_per_s": round(size / float(first["cpu_s"])),
        f"{prefix}_{size}_peak_rss_mb": round(float(first["peak_rss_mb"])),
        f"{prefix}_{size}_reimport_s": round(float(again["s"]), 1),
        f"{prefix}_{size}_reimport_cpu_s": round(float(again["cpu_s"]), 1),
        f"{prefix}_{size}_s": round(float(first["s"]), 1),
        f"{prefix}_{size}_cpu_s": round(float(first["cpu_s"]), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000, help="rows for the baseline and the mapping")
    parser.add_argument("--build-rows", default="20000,100000", help="comma-separated sizes of whole builds")
    parser.add_argument("--baseline-tree", default=None,
                        help="a checkout of earlier code (e.g. a `git worktree` of main): its whole builds run "
                             "at the smallest --build-rows size beside this code's, in the same run")
    args = parser.parse_args()
    figures: dict[str, object] = {"rows": args.rows, "load_avg_1m_start": round(os.getloadavg()[0], 2)}
    with tempfile.TemporaryDirectory(prefix="kgbuild-structured-") as tmp:
        root = Path(tmp) / f"r{args.rows}"
        generate(root, args.rows)
        base = child(_BASELINE, root)
        print(f"baseline csv.reader: {base['rows']} rows in {base['s']:.2f} s, peak {base['peak_rss_mb']:.0f} MB")
        mapped = child(_MAP, root)
        print(f"map: {mapped['rows']} records in {mapped['s']:.2f} s ({mapped['cpu_s']:.2f} s CPU) -> "
              f"{mapped['links']} relation cells, {mapped['concepts']} concept mentions, as columns; "
              f"peak {mapped['peak_rss_mb']:.0f} MB")
        figures.update({
            "baseline_rows_per_s": round(float(base["rows"]) / float(base["s"])),
            "map_rows_per_s": round(float(mapped["rows"]) / float(mapped["s"])),
            "map_cpu_rows_per_s": round(float(mapped["rows"]) / float(mapped["cpu_s"])),
            "map_s": round(float(mapped["s"]), 2),
            "map_cpu_s": round(float(mapped["cpu_s"]), 2),
            "map_peak_rss_mb": round(float(mapped["peak_rss_mb"])),
            "map_vs_baseline_cpu_x": round(float(mapped["cpu_s"]) / float(base["cpu_s"]), 1),
        })
        sizes = [int(s) for s in args.build_rows.split(",") if s]
        if args.baseline_tree and sizes:
            figures.update(build_twice(Path(tmp) / f"old{min(sizes)}", min(sizes), "old_build",
                                       args.baseline_tree))
        for size in sizes:
            figures.update(build_twice(Path(tmp) / f"b{size}", size, "build"))
            # The headline keys are the largest whole build's: the import path a user runs.
            figures["rows_per_s"] = figures[f"build_{size}_rows_per_s"]
            figures["peak_rss_mb"] = figures[f"build_{size}_peak_rss_mb"]
            figures["reimport_s"] = figures[f"build_{size}_reimport_s"]
            figures["build_s"] = figures[f"build_{size}_s"]
            figures["build_cpu_s"] = figures[f"build_{size}_cpu_s"]
    # The machine is shared: the load while it ran says how far wall time is from CPU time.
    figures["load_avg_1m_end"] = round(os.getloadavg()[0], 2)
    figures["cpus"] = os.cpu_count()
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
