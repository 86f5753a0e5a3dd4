"""`kgbuild build` checks its inputs before any work: a typo'd path stops it with one line, and
nothing is created (before, the workspace and the stores were written for an empty build and the
typo came out last, as "skipped")."""

from __future__ import annotations

from pathlib import Path

from arcade_server import free_port
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


def _build(tmp_path: Path, config: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "kgbuild.yaml").write_text("workspace: ws\n" + config, encoding="utf-8")
    (tmp_path / "real.md").write_text("# Real\n\nAda Lovelace wrote the first program.\n", encoding="utf-8")
    result = CliRunner(env={"KGBUILD_NEO4J_PASSWORD": None, **(env or {})}).invoke(
        main, ["-c", str(tmp_path / "kgbuild.yaml"), "build", str(tmp_path / "real.md")])
    return result.exit_code, result.stderr


def test_an_unreachable_graph_server_stops_the_build_before_anything_is_written(tmp_path: Path) -> None:
    port = free_port()  # bound, then released: nothing listens
    code, err = _build(tmp_path, f"graph_store:\n  backend: neo4j\n  uri: bolt://127.0.0.1:{port}\n  password: x\n")
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert err.startswith(f"error: graph_store.uri: cannot reach bolt://127.0.0.1:{port}")
    assert not (tmp_path / "ws").exists()


def test_an_unreachable_milvus_server_stops_the_build_before_anything_is_written(tmp_path: Path) -> None:
    port = free_port()  # bound, then released: nothing listens
    code, err = _build(tmp_path, f"graph_store:\n  backend: none\nvector_store:\n  uri: http://127.0.0.1:{port}\n")
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert err.startswith(f"error: vector_store.uri: cannot reach Milvus at http://127.0.0.1:{port}")
    assert not (tmp_path / "ws").exists()
