"""Cold `kgbuild query` on the samples: wall time of a fresh process, and where it goes.

Run from the repo root: `python bench/query_cold.py [--runs N] [--project DIR] [--before TREE]`.

1. builds samples/corpus with the default config (Milvus Lite and the embedded graph store) into a
   temp project, unless --project names one already built;
2. runs N fresh processes of `python -m kgbuild query QUESTION --json`, each with a question of
   samples/questions.json not asked before in this run (so the embedding cache never answers), and
   reads each one's wall time from outside and its `timings` breakdown from the JSON;
3. in the same run and interleaved with them, N processes of `python -c pass` and of
   `python -c "import kgbuild"`: the floor any command pays on this machine under this load.

With --before TREE (another source tree, e.g. /work/main), each cold query is also timed with that
tree's code, interleaved, on the same project (`query_cold_before_s`, `speedup_wall`).

Last line: one JSON object; `query_cold_s` is the median wall of the cold queries (target < 2 s).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _env(tree: Path = ROOT) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(tree)
    return env


def _wall(args: list[str], cwd: Path, tree: Path = ROOT) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds user+system, stdout) of one child process importing kgbuild from `tree`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(args, cwd=cwd, env=_env(tree), capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args[:4])}... failed ({done.returncode}): {done.stderr.strip()[-400:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


def forget_question_vectors(project: Path, questions: list[str]) -> int:
    """Delete the cached embeddings of `questions` (a project built earlier may have seen them), so
    every run embeds its question; the number of rows deleted."""
    from kgbuild.config import load_config
    from kgbuild.embed.models import ModelChoice
    from kgbuild.ids import content_hash

    config = load_config(project / "kgbuild.yaml")
    path = config.workspace_path() / "cache" / "embeddings.sqlite"
    if not path.exists():
        return 0
    name = ModelChoice(config.embedding.model, "embedding.model").cache_name
    db = sqlite3.connect(path)
    try:
        deleted = sum(db.execute("DELETE FROM vectors WHERE key=?", (content_hash(name + "\x00" + q),)).rowcount
                      for q in questions)
        db.commit()
    finally:
        db.close()
    return deleted


def build_samples(where: Path) -> Path:
    project = where / "samples_project"
    _wall([sys.executable, "-m", "kgbuild", "init", str(project)], where)
    start = time.perf_counter()
    _wall([sys.executable, "-m", "kgbuild", "build", str(ROOT / "samples" / "corpus"), "--quiet"], project)
    print(f"built samples in {time.perf_counter() - start:.1f} s at {project}")
    return project


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=7, help="cold processes of each kind (median reported)")
    parser.add_argument("--project", type=Path, default=None, help="an already built samples project")
    parser.add_argument("--before", type=Path, default=None,
                        help="another kgbuild source tree (e.g. the main branch) whose cold query is timed on the "
                             "same project, interleaved, as the before figure")
    args = parser.parse_args()
    questions = [q["question"] for q in json.loads((ROOT / "samples" / "questions.json").read_text())]
    # Never the same question twice: a repeat would be answered from the embedding cache.
    questions += [f"What is known about {w}?" for w in ("Colossus", "Bletchley Park", "Enigma", "EDSAC", "ENIAC",
                                                        "Alan Turing", "Tommy Flowers", "Manchester", "Cambridge")]
    if args.runs > len(questions):
        raise SystemExit(f"--runs {args.runs}: at most {len(questions)} distinct questions are available")
    with tempfile.TemporaryDirectory(prefix="kgbuild-cold-") as tmp:
        project = (args.project or build_samples(Path(tmp))).resolve()
        sys.path.insert(0, str(ROOT))
        forgotten = forget_question_vectors(project, questions[:args.runs])
        if forgotten:
            print(f"  {forgotten} cached question vector(s) of an earlier run deleted, so each run embeds")
        before_walls: list[float] = []
        before_cpus: list[float] = []
        load_before = os.getloadavg()[0]
        python = [sys.executable]
        walls: dict[str, list[float]] = {"pass": [], "import_kgbuild": [], "query": []}
        cpus: list[float] = []
        breakdowns: list[dict[str, float]] = []
        for i in range(args.runs):
            walls["pass"].append(_wall([*python, "-c", "pass"], project)[0])
            walls["import_kgbuild"].append(_wall([*python, "-c", "import kgbuild"], project)[0])
            wall, cpu, out = _wall([*python, "-m", "kgbuild", "query", questions[i], "--json"], project)
            walls["query"].append(wall)
            cpus.append(cpu)
            answer = json.loads(out)
            breakdowns.append(answer.get("timings", {}))
            print(f"  query {i + 1}: {wall:.2f} s wall, {cpu:.2f} s CPU {breakdowns[-1]}  -> {answer['answer'][:40]!r}")
            if args.before is not None:
                forget_question_vectors(project, [questions[i]])  # the before tree embeds it too
                wall, cpu, _ = _wall([*python, "-m", "kgbuild", "query", questions[i], "--json"], project,
                                     args.before.resolve())
                before_walls.append(wall)
                before_cpus.append(cpu)
                print(f"  before {i + 1}: {wall:.2f} s wall, {cpu:.2f} s CPU ({args.before})")
        load_after = os.getloadavg()[0]
    median = {name: statistics.median(values) for name, values in walls.items()}
    parts = sorted({k for b in breakdowns for k in b})
    breakdown = {k: round(statistics.median(b.get(k, 0.0) for b in breakdowns), 3) for k in parts}
    print(f"python -c pass        median {median['pass']:.2f} s")
    print(f"python -c 'import kgbuild' median {median['import_kgbuild']:.2f} s")
    print(f"kgbuild query (cold)  median {median['query']:.2f} s  (min {min(walls['query']):.2f}, "
          f"max {max(walls['query']):.2f}; target < 2 s); CPU median {statistics.median(cpus):.2f} s")
    print(f"  breakdown (median of runs): {breakdown}")
    before: dict[str, float] = {}
    if before_walls:
        before = {"query_cold_before_s": round(statistics.median(before_walls), 3),
                  "query_cold_before_cpu_s": round(statistics.median(before_cpus), 3),
                  "speedup_wall": round(statistics.median(before_walls) / median["query"], 2)}
        print(f"before ({args.before}): median {before['query_cold_before_s']:.2f} s wall, "
              f"{before['query_cold_before_cpu_s']:.2f} s CPU; now {before['speedup_wall']:.2f}x faster")
    print(f"  load average (1 min) before {load_before:.2f}, after {load_after:.2f}, on {os.cpu_count()} cores")
    print(json.dumps({
        "query_cold_s": round(median["query"], 3),
        "query_cold_min_s": round(min(walls["query"]), 3),
        "query_cold_max_s": round(max(walls["query"]), 3),
        "query_cold_cpu_s": round(statistics.median(cpus), 3),
        **before,
        "python_pass_s": round(median["pass"], 3),
        "import_kgbuild_s": round(median["import_kgbuild"], 3),
        "breakdown_s": breakdown,
        "runs": args.runs,
        "load_avg_1min_before": round(load_before, 2),
        "load_avg_1min_after": round(load_after, 2),
        "cores": os.cpu_count(),
    }))


if __name__ == "__main__":
    main()
