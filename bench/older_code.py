"""Running a bench script over kgbuild/ as of an older commit, for a baseline in the same run.

The commit's kgbuild/ is unpacked into a temporary folder and the script runs there in a child process with that
folder first on its path, so the labels and the scoring stay this run's and only the code under test is the old one.
The child prints its figures as one JSON object on its last line.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent


def figures_at(ref: str, script: Path, args: Sequence[str]) -> dict | None:
    """`script`'s last-line JSON, run with `args` over kgbuild/ as of `ref`; None (with a line on stderr) if the
    commit or the run fails."""
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", str(HERE.parent), "archive", ref, "kgbuild"], capture_output=True,
                                 check=False)
        if archive.returncode != 0:
            print(f"baseline {ref}: git archive failed ({archive.stderr.decode().strip()}); skipped", file=sys.stderr)
            return None
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([tmp, str(HERE)])}
        child = subprocess.run([sys.executable, str(script), *args], env=env, cwd=tmp, capture_output=True,
                               text=True, check=False)
        if child.returncode != 0:
            print(f"baseline {ref} failed: {child.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
            return None
        return json.loads(child.stdout.strip().splitlines()[-1])
