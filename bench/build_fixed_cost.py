"""The fixed cost of `kgbuild build`: a one-sentence file built with the default stores (embedded ArcadeDB,
Milvus Lite), then the same build again with nothing changed; the code of a base commit vs this checkout.

Run from the repo root: `python bench/build_fixed_cost.py [BASE]` (BASE: a commit, default the merge-base
with `main`). The base commit's tree is exported with `git archive` into a temporary directory and run
from there (PYTHONPATH), so before and after are measured in the same run on the same machine. Each
build is its own process; wall time includes interpreter start and imports. CPU seconds (user +
system) are reported beside wall time: on a shared machine they move far less with other load. Best
of ROUNDS, before and after interleaved. The breakdown of the current code is its report's
`fixed_seconds`. Last line: one JSON object with the figures.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TEXT = "Alan Turing was born in London in 1912.\n"
ROUNDS = 2  # best of two: the machine is shared, so keep it short


def build(code: Path, project: Path) -> tuple[float, float, dict]:
    """Wall seconds, CPU seconds (user + system of the build process and what it waited for) and the report."""
    env = {**os.environ, "PYTHONPATH": str(code)}
    cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "kgbuild", "-c", str(project / "kgbuild.yaml"), "build",
                           str(project / "turing.txt"), "--json"], env=env, capture_output=True, text=True,
                          check=False)
    wall = time.perf_counter() - start
    cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)
    if done.returncode != 0:
        sys.exit(f"build failed ({done.returncode}) with {code}: {done.stderr.strip().splitlines()[-1:]}")
    return wall, cpu, json.loads(done.stdout)


@dataclass
class Figures:
    new_wall_s: list[float] = field(default_factory=list)
    new_cpu_s: list[float] = field(default_factory=list)
    unchanged_wall_s: list[float] = field(default_factory=list)
    unchanged_cpu_s: list[float] = field(default_factory=list)
    fixed: dict[str, float] = field(default_factory=dict)
    stages: dict[str, float] = field(default_factory=dict)


def measure_once(code: Path, project: Path, into: Figures) -> None:
    """A fresh one-file build, then the same build unchanged."""
    project.mkdir(parents=True)
    (project / "kgbuild.yaml").write_text("workspace: ws\nbuild: {workers: 1}\n", encoding="utf-8")
    (project / "turing.txt").write_text(TEXT, encoding="utf-8")
    wall, cpu, _ = build(code, project)
    into.new_wall_s.append(wall)
    into.new_cpu_s.append(cpu)
    wall, cpu, report = build(code, project)
    into.unchanged_wall_s.append(wall)
    into.unchanged_cpu_s.append(cpu)
    into.fixed, into.stages = report.get("fixed_seconds", {}), report.get("stage_seconds", {})


def main() -> None:
    base = sys.argv[1] if len(sys.argv) > 1 else subprocess.run(
        ["git", "-C", str(REPO), "merge-base", "HEAD", "main"], capture_output=True, text=True,
        check=True).stdout.strip()
    with tempfile.TemporaryDirectory(prefix="kgbench-fixed-") as tmp:
        old = Path(tmp) / "base"
        old.mkdir()
        archive = subprocess.run(["git", "-C", str(REPO), "archive", base, "kgbuild"], capture_output=True,
                                 check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(old)], input=archive, check=True)
        before, after = Figures(), Figures()
        for n in range(ROUNDS):  # interleaved, so both see the same load from other processes
            measure_once(old, Path(tmp) / f"before{n}", before)
            measure_once(REPO, Path(tmp) / f"after{n}", after)
    for label, run in (("before", before), ("after", after)):
        print(f"{label:>6} ({base[:8] if label == 'before' else 'this checkout'}): new one-file build "
              f"{min(run.new_wall_s):5.1f} s wall / {min(run.new_cpu_s):5.1f} s CPU, unchanged re-run "
              f"{min(run.unchanged_wall_s):5.1f} s wall / {min(run.unchanged_cpu_s):5.1f} s CPU; stages {run.stages}")
    print(f"where the fixed time of the unchanged re-run goes now (report fixed_seconds): {after.fixed}")
    figures: dict[str, object] = {"base_commit": base[:12], "rounds": ROUNDS}
    for label, run in (("before", before), ("after", after)):
        figures[f"new_build_wall_s_{label}"] = round(min(run.new_wall_s), 2)
        figures[f"new_build_cpu_s_{label}"] = round(min(run.new_cpu_s), 2)
        figures[f"unchanged_build_wall_s_{label}"] = round(min(run.unchanged_wall_s), 2)
        figures[f"unchanged_build_cpu_s_{label}"] = round(min(run.unchanged_cpu_s), 2)
    figures.update({f"fixed_{key}_s_after": value for key, value in after.fixed.items()})
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
