"""The build lock with real processes (issue 16, items 3 and 4).

The lock is an OS lock (`flock`) on `build.lock`: the kernel decides who holds it and releases it
when the holder dies, so a racing takeover, a recycled PID or a `kill -9` cannot leave two builds
inside at once nor block every later build. The file's text only names the holder in the message.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kgbuild.errors import WorkspaceError
from kgbuild.workspace import Workspace

# A contender: on "go <t>" it waits for the shared start time t, tries the lock once and, if it got
# it, appends enter/exit markers around a short stay inside; then it answers "done".
_CONTENDER = r"""
import os, sys, time
from pathlib import Path
from kgbuild.errors import WorkspaceError
from kgbuild.workspace import Workspace

ws, markers, name = Workspace(Path(sys.argv[1])), sys.argv[2], sys.argv[3]
fd = os.open(markers, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
for line in sys.stdin:
    if line.startswith("quit"):
        break
    start = float(line.split()[1])
    while time.time() < start:
        pass  # spin: both contenders leave this loop within microseconds of each other
    try:
        with ws.lock():
            os.write(fd, f"enter {name}\n".encode())
            time.sleep(0.02)
            os.write(fd, f"exit {name}\n".encode())
    except WorkspaceError:
        pass
    print("done", flush=True)
"""

# A holder: takes the lock, says so, and stays inside until killed.
_HOLDER = r"""
import sys, time
from pathlib import Path
from kgbuild.workspace import Workspace

with Workspace(Path(sys.argv[1])).lock():
    print("held", flush=True)
    time.sleep(60)
"""


def _workspace(tmp_path: Path) -> Workspace:
    ws = Workspace(tmp_path / "ws")
    ws.ensure()
    return ws


def _dead_pid() -> int:
    """The PID of a process that has exited (what a killed build leaves in an old PID-file lock)."""
    proc = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    return int(proc.stdout)


def _start_holder(ws: Workspace) -> subprocess.Popen[str]:
    holder = subprocess.Popen([sys.executable, "-c", _HOLDER, str(ws.path)], stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    return holder


@pytest.mark.slow
def test_two_processes_racing_for_a_stale_lock_are_never_inside_together(tmp_path: Path) -> None:
    """40 synchronised rounds, each over a lock file left by a dead build: at most one inside at a time."""
    ws = _workspace(tmp_path)
    markers = tmp_path / "markers.txt"
    contenders = [subprocess.Popen([sys.executable, "-c", _CONTENDER, str(ws.path), str(markers), name],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
                  for name in ("a", "b")]
    stale = str(_dead_pid())
    try:
        for _ in range(40):
            # What the previous version left when a build died: the file with a dead PID.
            (ws.path / "build.lock").write_text(stale)
            start = time.time() + 0.05  # both are reading stdin by then, so neither starts early
            for proc in contenders:
                assert proc.stdin is not None
                proc.stdin.write(f"go {start}\n")
                proc.stdin.flush()
            for proc in contenders:
                assert proc.stdout is not None and proc.stdout.readline().strip() == "done"
    finally:
        for proc in contenders:
            assert proc.stdin is not None
            proc.stdin.write("quit\n")
            proc.stdin.close()
            proc.wait(10)
    lines = markers.read_text().splitlines()
    inside: str | None = None
    for line in lines:
        event, name = line.split()
        if event == "enter":
            assert inside is None, f"{name} entered while {inside} held the lock"
            inside = name
        else:
            assert inside == name
            inside = None
    # Every round someone got in: a stale lock never blocks.
    assert lines.count("enter a") + lines.count("enter b") >= 40


@pytest.mark.parametrize("pid", [os.getpid(), 1], ids=["this-process", "pid-1"])
def test_a_lock_file_naming_a_live_unrelated_process_does_not_block(tmp_path: Path, pid: int) -> None:
    """In a container the dead build's PID is soon some other live process: that must not block."""
    ws = _workspace(tmp_path)
    (ws.path / "build.lock").write_text(str(pid))
    with ws.lock():
        pass
    with ws.lock():  # and it is released again
        pass


def test_a_holder_killed_with_sigkill_releases_the_lock(tmp_path: Path) -> None:
    ws = _workspace(tmp_path)
    holder = _start_holder(ws)
    try:
        with pytest.raises(WorkspaceError), ws.lock():
            pass
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait(10)
    assert (ws.path / "build.lock").exists()  # the file stays: the kernel released the lock, not an unlink
    with ws.lock():
        pass


def test_the_held_lock_message_names_the_file_the_holder_and_what_to_do(tmp_path: Path) -> None:
    ws = _workspace(tmp_path)
    holder = _start_holder(ws)
    try:
        with pytest.raises(WorkspaceError) as refused, ws.lock():
            pass
    finally:
        holder.kill()
        holder.wait(10)
    line = refused.value.line()
    assert "\n" not in line
    assert line.startswith(f"{ws.path / 'build.lock'}: another build is running")
    assert f"pid {holder.pid}" in line and "since " in line
    assert "wait for it to finish" in line


def test_status_names_the_running_build_and_forgets_a_killed_one(tmp_path: Path) -> None:
    """`kgbuild status` during a first build said "nothing built yet"; the lock knows who is building."""
    from click.testing import CliRunner

    from kgbuild.cli import main

    ws = _workspace(tmp_path)
    config = tmp_path / "kgbuild.yaml"
    config.write_text("workspace: ws\n", encoding="utf-8")
    assert ws.running_build() is None  # no lock file yet
    holder = _start_holder(ws)
    try:
        running = ws.running_build()
        assert running is not None and running.pid == holder.pid and running.since
        result = CliRunner().invoke(main, ["-c", str(config), "status"])
        assert result.exit_code == 0, result.output
        assert f"a build is running: pid {holder.pid}" in result.output and "first build" in result.output
        as_json = CliRunner().invoke(main, ["-c", str(config), "status", "--json"])
        assert json.loads(as_json.output)["running_build"]["pid"] == holder.pid
        # status took nothing the build needs: the build still holds the lock
        with pytest.raises(WorkspaceError, match="another build is running"), ws.lock():
            pass
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait(10)
    # killed: its name is still in the file, but no build runs
    assert str(holder.pid) in (ws.path / "build.lock").read_text()
    assert ws.running_build() is None
    result = CliRunner().invoke(main, ["-c", str(config), "status"])
    assert result.exit_code != 0 and "no build found" in result.output
