"""Extraction workers die with their build: `kill -9` of `kgbuild build` leaves no process behind (issue 16, item 2)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from shared_data import shared_data_dir

CORPUS = shared_data_dir() / "hotpotqa" / "train_corpus.json"

pytestmark = [
    pytest.mark.slow,  # a build of the shared corpus in a child process, killed with -9
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="walks /proc"),
    pytest.mark.skipif(not CORPUS.exists(), reason="shared data not present"),
]


def _stat(pid: int) -> tuple[str, int, int] | None:
    """(state, ppid, pgid) of a live process, None if it is gone (a zombie counts as gone: it runs nothing)."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    fields = raw[raw.rindex(")") + 2 :].split()  # after "pid (comm) "; comm may hold spaces
    state, ppid, pgid = fields[0], int(fields[1]), int(fields[2])
    return None if state in ("Z", "X") else (state, ppid, pgid)


def _processes() -> dict[int, tuple[str, int, int]]:
    out = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (info := _stat(int(entry))) is not None:
            out[int(entry)] = info
    return out


def _descendants(root: int) -> set[int]:
    procs = _processes()
    found: set[int] = set()
    frontier = {root}
    while frontier:
        frontier = {pid for pid, (_, ppid, _) in procs.items() if ppid in frontier} - found
        found |= frontier
    return found


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def test_kill_9_of_a_build_leaves_no_worker_behind(tmp_path: Path) -> None:
    corpus = json.loads(CORPUS.read_text(encoding="utf-8"))
    subset = tmp_path / "subset.json"
    subset.write_text(json.dumps(dict(list(corpus.items())[:300])), encoding="utf-8")
    config = tmp_path / "kgbuild.yaml"
    config.write_text(
        "workspace: ws\nbuild:\n  workers: 2\nextract:\n  batch_size: 4\n"
        "graph_store:\n  backend: none\nvector_store:\n  backend: none\n",
        encoding="utf-8",
    )
    kgbuild = Path(sys.executable).parent / "kgbuild"
    # Its own session: the build's process group is then findable, and nothing reaches this test's group.
    proc = subprocess.Popen(
        [str(kgbuild), "-c", str(config), "build", str(subset), "--quiet"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    seen: set[int] = set()
    try:
        cache_dir = tmp_path / "ws" / "cache" / "extract"
        deadline = time.monotonic() + 60
        workers: set[int] = set()
        while time.monotonic() < deadline and proc.poll() is None:
            seen |= _descendants(proc.pid)
            workers = {pid for pid in seen if "multiprocessing" in _cmdline(pid) and "resource_tracker" not in _cmdline(pid)}
            # Workers exist and have produced results: they are past start-up and busy extracting.
            cached = sum(f.read_bytes().count(b"\n") for f in cache_dir.glob("*.jsonl")) if cache_dir.exists() else 0
            if len(workers) >= 2 and cached >= 8:
                break
            time.sleep(0.05)
        assert proc.poll() is None, "the build finished before it could be killed"
        assert len(workers) >= 2, f"no extraction workers seen: {sorted(seen)}"
        seen |= _descendants(proc.pid)

        os.kill(proc.pid, signal.SIGKILL)  # our own child, by its PID
        proc.wait()

        deadline = time.monotonic() + 10
        left: dict[int, str] = {}
        while time.monotonic() < deadline:
            procs = _processes()
            # The recorded PIDs, and anything else in the build's process group started after the last look.
            left = {pid: _cmdline(pid) for pid, (_, _, pgid) in procs.items() if pid in seen or pgid == proc.pid}
            if not left:
                break
            time.sleep(0.1)
        assert not left, f"processes of the killed build still alive: {left}"
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
        for pid in seen:
            info = _stat(pid)
            # Only a survivor that is still in the build's group: a recycled PID belongs to someone else.
            if info is not None and info[2] == proc.pid:
                os.kill(pid, signal.SIGKILL)
