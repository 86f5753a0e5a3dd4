from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kgbuild.errors import WorkspaceError
from kgbuild.workspace import ExtractionCache, Workspace


def test_cache_round_trip_survives_a_torn_last_line(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    cache = ExtractionCache(path)
    cache.put("a" * 32, '{"chunk_id": "d#p00000#0"}')
    cache.put('odd"key', '{"x": "}\\n"}')
    cache.close()
    with path.open("a", encoding="utf-8") as fh:
        fh.write('{"key": "bbbb", "value": {"chunk')  # what kill -9 mid-write leaves
    cache = ExtractionCache(path)
    assert cache.torn_lines == 1
    assert cache.get("a" * 32) == '{"chunk_id": "d#p00000#0"}'
    assert cache.get('odd"key') == '{"x": "}\\n"}'
    cache.put("c" * 32, "{}")
    cache.close()
    again = ExtractionCache(path)
    assert again.get("c" * 32) == "{}" and len(again) == 3 and again.torn_lines == 1


def test_tables_are_replaced_atomically_and_read_back(tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "ws")
    ws.ensure()
    row = {"stage": "s", "reason": "r", "kind": "k", "detail": "d", "chunk_id": None, "record": "drop"}
    ws.write_table("drops", [row])
    ws.write_table("drops", [row, row])
    assert ws.rows("drops") == [row, row] and ws.row_count("drops") == 2
    assert [p.name for p in ws.tables_dir.iterdir()] == ["drops.parquet"]
    assert ws.rows("entities") == [] and ws.row_count("entities") == 0


def test_a_second_build_on_a_locked_workspace_is_refused(tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "ws")
    ws.ensure()
    with ws.lock(), pytest.raises(WorkspaceError, match="another build is running"), ws.lock():
        pass
    with ws.lock():  # released
        pass


def test_a_lock_left_by_a_dead_process_is_taken_over(tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "ws")
    ws.ensure()
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    (ws.path / "build.lock").write_text(dead.stdout.strip())
    with ws.lock():
        # The file now names this process (for the refusal message; the lock itself is a flock).
        assert json.loads((ws.path / "build.lock").read_text())["pid"] == os.getpid()
