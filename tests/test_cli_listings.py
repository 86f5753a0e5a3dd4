"""What `kgbuild init --help` and `kgbuild strategies` tell a new user, against what the commands do."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from kgbuild.cli import main
from kgbuild.config import load_config


def test_init_help_says_what_init_writes_and_who_creates_the_workspace(tmp_path: Path) -> None:
    help_text = " ".join(CliRunner().invoke(main, ["init", "--help"]).output.split())
    assert "(and the workspace)" not in help_text
    assert "kgbuild.yaml" in help_text and "the first `kgbuild build` creates the workspace" in help_text
    result = CliRunner().invoke(main, ["init", str(tmp_path / "proj")])
    assert result.exit_code == 0, result.output
    # what the help says: the config is written, the workspace is not there yet
    config = load_config(tmp_path / "proj" / "kgbuild.yaml", env={})
    assert (tmp_path / "proj" / "kgbuild.yaml").exists() and not config.workspace_path().exists()


def test_strategies_say_subgraphrag_needs_training_and_how(tmp_path: Path) -> None:
    config = tmp_path / "kgbuild.yaml"
    config.write_text("workspace: ws\n", encoding="utf-8")

    def row(name: str) -> str:
        out = CliRunner().invoke(main, ["-c", str(config), "strategies"], env={"COLUMNS": "200"},
                                 terminal_width=200)
        assert out.exit_code == 0, out.output
        return next(line for line in out.output.splitlines() if line.startswith(f"│ {name} "))

    # listed as needing nothing, its first query exited 2 with "no trained SubgraphRAG retriever"
    line = row("subgraphrag")
    assert "training first" in line and "kgbuild train retriever QA_FILE" in line, line
    assert "nothing" in row("hybrid") and "training" not in row("frag")  # FRAG's router is optional
    assert "a model (none configured)" in row("solver")
    # once the retriever is in the workspace, the listing says so
    (tmp_path / "ws" / "tables").mkdir(parents=True)
    (tmp_path / "ws" / "models").mkdir()
    (tmp_path / "ws" / "models" / "subgraphrag.npz").write_bytes(b"")
    line = row("subgraphrag")
    assert "trained" in line and "training first" not in line, line
