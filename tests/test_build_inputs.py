"""`kgbuild build` checks its inputs before any work: a typo'd path stops it with one line, and
nothing is created (before, the workspace and the stores were written for an empty build and the
typo came out last, as "skipped")."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from kgbuild.cli import main


def test_a_missing_source_stops_the_build_before_anything_is_written(tmp_path: Path) -> None:
    (tmp_path / "kgbuild.yaml").write_text("workspace: ws\n", encoding="utf-8")
    (tmp_path / "real.md").write_text("# Real\n\nAda Lovelace wrote the first program.\n", encoding="utf-8")
    runner = CliRunner()
    result = runner.invoke(main, ["-c", str(tmp_path / "kgbuild.yaml"), "build", str(tmp_path / "reall.md")])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        f"error: {tmp_path / 'reall.md'}: no such file or directory (check the path; nothing was built or written)"]
    assert not (tmp_path / "ws").exists()

    both = runner.invoke(main, ["-c", str(tmp_path / "kgbuild.yaml"), "build", str(tmp_path / "real.md"),
                                str(tmp_path / "a.md"), str(tmp_path / "b.md")])
    assert both.exit_code == 2 and "(2 more missing)" not in both.stderr and "(1 more missing)" in both.stderr
    assert not (tmp_path / "ws").exists()
