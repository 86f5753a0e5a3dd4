"""The samples' graph as a golden file: every relation an offline build of samples/corpus holds.

A change to the extractor or to alignment that changes the samples' graph fails here with the
lines added and removed, so the change is reviewed line by line; when the new graph is the
intended one, rewrite the file with `KGBUILD_UPDATE_GOLDEN=1 pytest tests/test_samples_golden.py`
and commit it with the diff summary in the message.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

from click.testing import CliRunner

from kgbuild.cli import main
from kgbuild.workspace import Workspace

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "data" / "samples_relations.tsv"
CONFIG = "workspace: ws\nbuild:\n  workers: 1\ngraph_store:\n  backend: none\nvector_store:\n  backend: none\n"


def relation_lines(workspace: Path) -> list[str]:
    """One line per relation: subject, predicate, object and its qualifiers (hypernodes), sorted."""
    ws = Workspace(workspace)
    qualifiers: dict[str, list[str]] = {}
    for row in ws.rows("hypernodes"):
        qualifiers.setdefault(row["subject_id"], []).append(f"{row['predicate']}: {row['object_name']}")
    lines = []
    for row in ws.rows("relations"):
        quals = "; ".join(sorted(qualifiers.get(row["id"], [])))
        lines.append("\t".join((row["subject_name"], row["predicate"], row["object_name"], quals)))
    return sorted(lines)


def test_the_samples_graph_matches_its_golden_file(tmp_path: Path) -> None:
    config = tmp_path / "kgbuild.yaml"
    config.write_text(CONFIG, encoding="utf-8")
    result = CliRunner().invoke(main, ["-c", str(config), "build", str(ROOT / "samples" / "corpus"), "--quiet"],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    lines = relation_lines(tmp_path / "ws")
    if os.environ.get("KGBUILD_UPDATE_GOLDEN") == "1":
        GOLDEN.write_text("\n".join(lines) + "\n", encoding="utf-8")
    golden = GOLDEN.read_text(encoding="utf-8").splitlines()
    diff = list(difflib.unified_diff(golden, lines, "golden", "built", lineterm="", n=0))
    assert not diff, "the samples' graph changed (KGBUILD_UPDATE_GOLDEN=1 rewrites the file):\n" + "\n".join(diff)
