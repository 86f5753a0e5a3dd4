"""The Ray cluster a build starts for itself (`--engine ray` without an address): on loopback only,
without a dashboard unless `engine.dashboard` asks for one, and gone within seconds of the
driver's death, however the driver ends.

Ray 2.60 turns 127.0.0.1 into the machine's primary address (`resolve_ip_for_localhost`) and binds
its servers to that address or to every interface, so `--node-ip-address 127.0.0.1` alone is not
enough; its local-only mode (`RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0`, which Ray reads when it is
imported) keeps the node's address at 127.0.0.1 and every server on it. The driver needs it too, or
it looks for the cluster at the primary address.

Started inside the driver (`ray.init()`), the cluster's agents outlive a killed driver by a minute
or more, as orphans. So the cluster belongs to a small supervisor process of its own:

    driver --stdin pipe--> python -m kgbuild.build.ray_local  (child subreaper)
                               `-- ray start --head --block   (gcs_server, raylet, agents, workers)

The supervisor is a child subreaper, so every Ray process that loses its parent becomes the
supervisor's child rather than init's, and its process tree is the whole cluster. It takes the tree
down (SIGTERM to `ray start`, then SIGKILL to whatever of the tree is left) when its stdin reaches
EOF: the driver closed it, or the kernel did because the driver died. A change of parent
(the driver gone, the supervisor adopted) is the second sign, for a driver that forked without
exec and left the pipe open in a child. Linux only (prctl, /proc): elsewhere, give an address.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import os
import secrets
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

LOOPBACK = "127.0.0.1"
# Ray's local-only mode: the node's address stays 127.0.0.1 and its servers bind to it
# (ray._private.services.get_node_ip_address and the agents' bind address, Ray 2.60).
LOOPBACK_ENV = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0"}
# How long `ray start` gets to stop its processes itself before the rest of the tree is killed:
# measured, it stops a one-node cluster in under 3 s; the requirement is 10 s from the driver's death.
STOP_GRACE_S = 3.0
POLL_S = 0.1
# Starting the head takes about 5 s on a quiet machine and several times that on a loaded one.
START_TIMEOUT_S = 180.0
PR_SET_CHILD_SUBREAPER = 36


# ------------------------------------------------------------------------------------ driver side


@dataclass
class LocalRay:
    """A running local cluster: its GCS address and its supervisor (see the module doc)."""

    address: str
    dashboard_url: str | None
    supervisor: subprocess.Popen[str]

    def stop(self, timeout: float = 30.0) -> None:
        """Take the cluster down and wait for the supervisor: EOF on its stdin is its signal."""
        proc = self.supervisor
        if proc.stdin is not None:
            with contextlib.suppress(OSError):
                proc.stdin.close()
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            # Never seen: the supervisor stuck. Its tree is the cluster (it is a subreaper), so
            # the cluster goes by PID from here, then the supervisor.
            _signal(descendants(proc.pid), signal.SIGKILL)
            proc.kill()
            proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()


def cluster_env() -> dict[str, str]:
    """What the cluster's processes and its driver share: local-only mode and a token of the cluster's own.

    Loopback is still open to every local user, and a Ray cluster runs whatever code it is sent: a
    token, fresh for each cluster, keeps it to the build. (Explicit, because Ray decides by itself
    otherwise: token mode when ~/.ray/auth_token exists, which a driver joining by address does not
    follow, so the join failed with `InvalidAuthToken` on a machine with that file.)
    """
    return {**LOOPBACK_ENV, "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": secrets.token_hex(32)}


def start_local_ray(env: dict[str, str], *, dashboard: bool = False, timeout: float = START_TIMEOUT_S) -> LocalRay:
    """Start a one-node cluster on 127.0.0.1 under a supervisor, its processes with `env` added
    (`cluster_env()`); RuntimeError when it cannot start."""
    if not sys.platform.startswith("linux"):
        raise RuntimeError("its supervisor needs Linux (a child subreaper, /proc)")
    argv = [sys.executable, "-m", "kgbuild.build.ray_local", "--driver", str(os.getpid())]
    if dashboard:
        argv.append("--dashboard")
    # A session of its own: a Ctrl-C at the terminal reaches the driver, which then stops the
    # cluster in order, rather than every Ray process at once.
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                            env={**os.environ, **env}, start_new_session=True)
    assert proc.stdout is not None
    # One line comes: `ready ...` or `failed ...`; nothing (EOF) if the supervisor itself failed.
    if not select.select([proc.stdout], [], [], timeout)[0]:
        LocalRay("", None, proc).stop()
        raise RuntimeError(f"the local Ray cluster did not start within {timeout:.0f} s")
    line = proc.stdout.readline()
    words = line.split()
    if words[:1] != ["ready"]:
        LocalRay("", None, proc).stop()
        raise RuntimeError(line.strip().removeprefix("failed ") or
                           f"the Ray supervisor ended (exit {proc.returncode})")
    return LocalRay(words[1], words[2] if len(words) > 2 else None, proc)


# ------------------------------------------------------------------------------- supervisor side


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now (Ray wants fixed ports for the GCS and its client server)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((LOOPBACK, 0))
        port: int = sock.getsockname()[1]
        return port


def _children() -> dict[int, list[int]]:
    """Parent PID -> child PIDs, for every process this one can see."""
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            stat = Path(f"/proc/{name}/stat").read_text()
        except OSError:
            continue  # gone meanwhile
        # The command name (2nd field) may hold spaces and parentheses: the fields follow the last ')'.
        fields = stat[stat.rindex(")") + 2 :].split()
        if fields[0] != "Z":  # a zombie is dead already; reaping it is all that is left
            children.setdefault(int(fields[1]), []).append(int(name))
    return children


def descendants(pid: int) -> list[int]:
    """The live processes below `pid`, parents before their children."""
    children = _children()
    out: list[int] = []
    todo = list(children.get(pid, []))
    while todo:
        child = todo.pop(0)
        out.append(child)
        todo.extend(children.get(child, []))
    return out


def _reap() -> None:
    """Collect every child that has ended (adopted orphans included), so none lingers as a zombie."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _signal(pids: list[int], sig: int) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):  # ended meanwhile
            os.kill(pid, sig)


def stop_tree(head: int, grace: float = STOP_GRACE_S) -> None:
    """SIGTERM `head` (`ray start --block` stops its processes on it), then SIGKILL every process
    still below this one after `grace` seconds, until none is left. By PID only: the tree is this
    supervisor's own (it is a subreaper), nothing else on the machine is touched."""
    _signal([head], signal.SIGTERM)
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline and descendants(os.getpid()):
        _reap()
        time.sleep(POLL_S)
    for _ in range(50):  # a process may fork while it is being killed: repeat until the tree is empty
        left = descendants(os.getpid())
        if not left:
            break
        _signal(left, signal.SIGKILL)
        time.sleep(POLL_S)
        _reap()
    _reap()


def _become_subreaper() -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER)")


def _ray_start_argv(temp: str, gcs_port: int, dashboard_port: int | None) -> list[str]:
    argv = [str(Path(sys.executable).with_name("ray")), "start", "--head", "--block",
            f"--node-ip-address={LOOPBACK}", f"--port={gcs_port}", f"--temp-dir={temp}",
            # Ray's client server always starts with a head; on a port of its own, not the fixed 10001.
            f"--ray-client-server-port={free_port()}", "--disable-usage-stats"]
    if dashboard_port is None:
        return [*argv, "--include-dashboard=false"]
    return [*argv, "--include-dashboard=true", f"--dashboard-host={LOOPBACK}", f"--dashboard-port={dashboard_port}"]


def _tail(path: Path, lines: int = 5) -> str:
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return ""
    return " | ".join(line.strip() for line in text.splitlines()[-lines:] if line.strip())


def supervise(driver: int, dashboard: bool) -> int:
    """Start `ray start --head --block`, say `ready ADDRESS [DASHBOARD_URL]` on stdout, and take the
    cluster down when stdin ends or the driver is gone."""
    _become_subreaper()
    temp = tempfile.mkdtemp(prefix="kgbuild-ray-")
    log = Path(temp) / "ray-start.log"
    address = f"{LOOPBACK}:{free_port()}"
    dashboard_port = free_port() if dashboard else None
    with log.open("wb") as out:
        head = subprocess.Popen(_ray_start_argv(temp, int(address.rsplit(":", 1)[1]), dashboard_port),
                                stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT)
    ended = threading.Event()

    def watch_stdin() -> None:
        while sys.stdin.readline():
            pass
        ended.set()

    threading.Thread(target=watch_stdin, daemon=True).start()

    def driver_gone() -> bool:
        return ended.is_set() or os.getppid() != driver

    try:
        # `ray start` writes the cluster's address file once the head node is up.
        ready = Path(temp) / "ray_current_cluster"
        while not ready.exists():
            if head.poll() is not None:
                print(f"failed `ray start` ended (exit {head.returncode}): {_tail(log, 1)}", flush=True)
                return 1
            if driver_gone():
                return 0
            time.sleep(POLL_S)
        url = f"http://{LOOPBACK}:{dashboard_port}" if dashboard_port else ""
        print(f"ready {address} {url}".strip(), flush=True)
        while not driver_gone() and head.poll() is None:
            time.sleep(POLL_S)
        return 0
    finally:
        stop_tree(head.pid)
        shutil.rmtree(temp, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="the supervisor of a build's local Ray cluster (see the module doc)")
    parser.add_argument("--driver", type=int, required=True, help="the driver's PID: its death ends the cluster")
    parser.add_argument("--dashboard", action="store_true", help="start Ray's dashboard on 127.0.0.1")
    args = parser.parse_args(argv)
    # SIGTERM (from the driver's process group being stopped, or an operator) takes the cluster down
    # the same way as the driver's death; the finally clause of `supervise` does the work.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    return supervise(args.driver, args.dashboard)


if __name__ == "__main__":
    sys.exit(main())
