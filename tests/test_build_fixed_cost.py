"""The fixed cost of a build (issue 17, item 9): a build with nothing to chunk or extract does not
import spaCy, thinc or torch (seconds of start-up each), and the report says where the fixed time went."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # builds in a child process

REPO = Path(__file__).resolve().parents[1]

# Runs `kgbuild build` in this fresh interpreter, then prints the report and the heavy modules it imported.
SCRIPT = """
import contextlib, io, json, sys
from kgbuild.cli import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    try:
        main([*sys.argv[1:], "--json"], standalone_mode=True)
    except SystemExit as exc:
        code = exc.code
heavy = sorted(m for m in ("spacy", "thinc", "torch", "sentence_transformers", "pypdf") if m in sys.modules)
print(json.dumps({"code": code, "report": json.loads(out.getvalue()), "heavy": heavy}))
"""


def kgbuild(config: Path, *args: str) -> dict:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", SCRIPT, "-c", str(config), "build", *args],
                          env=env, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_an_unchanged_build_imports_no_model_library_and_reports_its_fixed_costs(tmp_path: Path) -> None:
    (tmp_path / "turing.txt").write_text("Alan Turing was born in London in 1912.\n", encoding="utf-8")
    config = tmp_path / "kgbuild.yaml"
    config.write_text("workspace: ws\ngraph_store: {backend: none}\nvector_store: {backend: none}\n"
                      "build: {workers: 1}\n", encoding="utf-8")
    first = kgbuild(config, str(tmp_path / "turing.txt"))
    assert first["code"] == 0 and {"spacy", "thinc"} <= set(first["heavy"])  # the first build extracts: spaCy runs
    second = kgbuild(config, str(tmp_path / "turing.txt"))
    assert second["code"] == 0 and second["report"]["chunk"]["documents_unchanged"] == 1
    assert second["heavy"] == []
    fixed = second["report"]["fixed_seconds"]
    assert {"startup", "settings", "sentence_models"} <= set(fixed)
    assert 0 < fixed["startup"] < second["report"]["wall_seconds"] + fixed["startup"]
    assert fixed["sentence_models"] == 0  # nothing to embed, no model loaded
