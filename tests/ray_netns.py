"""A real multi-node Ray cluster on this machine, kept on loopback, for the Ray build tests and bench.

Ray replaces 127.0.0.1 with the machine's primary address (../shared/INFRA.md), so everything runs
inside new network + PID namespaces where loopback is the only interface: an agent process
(`python tests/ray_netns.py agent`, PID 1 of its namespace) starts the head and worker nodes, the
builds and the scripted model server there, on commands read as JSON lines from stdin; it answers
one JSON line each. Files are shared with the caller (only the network and the PIDs are private).
When the agent ends, for any reason, the kernel kills every process of its PID namespace: no Ray
process outlives a test, and `ray stop` inside the namespace sees only the cluster it started.

    with RayNamespace() as ns:          # skips the test when namespaces cannot be made
        ns.call("head"); ns.call("worker")
        ns.call("run", argv=[...], kill_worker_on="ray::extract_batch")
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
PORT = 6390


# ----------------------------------------------------------------------------------- caller side


def namespaces_available() -> str:
    """'' when this process may create network + PID namespaces, else why not (the skip reason)."""
    if not sys.platform.startswith("linux") or shutil.which("unshare") is None or shutil.which("ip") is None:
        return "needs Linux with unshare(1) and ip(8) to keep the Ray cluster on loopback"
    probe = subprocess.run(["unshare", "-n", "-p", "-f", "--mount-proc", "sh", "-c", "ip link set lo up"],
                           capture_output=True, text=True, timeout=30)
    if probe.returncode != 0:
        return f"cannot create network/PID namespaces (root needed): {probe.stderr.strip()[:200]}"
    return ""


class RayNamespace:
    def __init__(self, env: dict[str, str] | None = None) -> None:
        # A token of the cluster's own, for every process of the namespace: left to itself, Ray 2.60
        # turns token mode on for `ray start --head` when ~/.ray/auth_token exists, but not for a
        # driver joining by address, which then fails with InvalidAuthToken.
        auth = {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": secrets.token_hex(32)}
        self.env = {**os.environ, **auth, **(env or {})}
        self.proc: subprocess.Popen[str] | None = None

    def __enter__(self) -> RayNamespace:
        self.proc = subprocess.Popen(
            ["unshare", "-n", "-p", "-f", "--kill-child", "--mount-proc", sys.executable, str(Path(__file__).resolve()),
             "agent"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=self.env)
        self.call("ping")
        return self

    def call(self, op: str, **args: Any) -> dict[str, Any]:
        assert self.proc is not None and self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps({"op": op, **args}) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the namespace agent ended during {op!r} (exit {self.proc.wait()})")
        answer: dict[str, Any] = json.loads(line)
        if "error" in answer:
            raise RuntimeError(f"{op}: {answer['error']}")
        return answer

    def __exit__(self, *exc_info: object) -> None:
        if self.proc is None:
            return
        with contextlib.suppress(RuntimeError, OSError, ValueError):
            self.call("stop")
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()  # --kill-child: the namespace's processes die with it
            self.proc.wait()


# ----------------------------------------------------------------------------------- agent side


def _ray_bin() -> str:
    return str(Path(sys.executable).with_name("ray"))


def _pids() -> list[int]:
    # /proc of this PID namespace (unshare --mount-proc): only the processes the agent started.
    return [int(name) for name in os.listdir("/proc") if name.isdigit()]


def _read(pid: int, name: str) -> str:
    try:
        return Path(f"/proc/{pid}/{name}").read_text(errors="replace")
    except OSError:
        return ""


def _cmdline(pid: int) -> str:
    return _read(pid, "cmdline").replace("\0", " ").strip()


def _rss_mb(pid: int) -> float:
    for line in _read(pid, "status").splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _tree(pid: int) -> list[int]:
    """`pid` and all its descendants."""
    children: dict[int, list[int]] = {}
    for p in _pids():
        stat = _read(p, "stat")
        if stat:
            ppid = int(stat[stat.rindex(")") + 2 :].split()[1])
            children.setdefault(ppid, []).append(p)
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(children.get(p, []))
    return out


class Agent:
    def __init__(self) -> None:
        self.temp = tempfile.mkdtemp(prefix="kgray", dir="/tmp")
        self.address = f"127.0.0.1:{PORT}"
        self.workers: list[subprocess.Popen[bytes]] = []
        self.killed = 0  # worker nodes killed so far
        self.llm: Any = None
        self.samples: list[dict[str, float]] = []

    def ping(self) -> dict[str, Any]:
        subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
        return {"pid": os.getpid()}

    def head(self, cpus: int = 1) -> dict[str, Any]:
        subprocess.run([_ray_bin(), "start", "--head", f"--port={PORT}", f"--num-cpus={cpus}",
                        "--include-dashboard=false", "--disable-usage-stats", f"--temp-dir={self.temp}"],
                       check=True, capture_output=True)
        return {"address": self.address}

    def wait_nodes(self, nodes: int) -> dict[str, Any]:
        self._wait_nodes(nodes)
        return {}

    def worker(self, cpus: int = 1, nodes: int = 2) -> dict[str, Any]:
        """Another node, as its own process tree (`ray start --block`), so it can be killed whole."""
        proc = subprocess.Popen([_ray_bin(), "start", f"--address={self.address}", f"--num-cpus={cpus}",
                                 "--disable-usage-stats", "--block"], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        self.workers.append(proc)
        self._wait_nodes(nodes)
        return {"pid": proc.pid}

    def _wait_nodes(self, nodes: int) -> None:
        """Until `nodes` are alive and every node killed so far is known dead (Ray's own view)."""
        script = ("import ray, time, sys\nray.init(address=sys.argv[1], log_to_driver=False)\n"
                  "want, dead = int(sys.argv[2]), int(sys.argv[3])\n"
                  "for _ in range(1200):\n    a = [x['Alive'] for x in ray.nodes()]\n"
                  "    if sum(a) == want and len(a) - sum(a) >= dead: break\n    time.sleep(0.1)\n"
                  "print(sum(a), len(a) - sum(a))\n")
        out = subprocess.run([sys.executable, "-c", script, self.address, str(nodes), str(self.killed)],
                             check=True, capture_output=True, text=True)
        alive, dead = (int(x) for x in out.stdout.split()[-2:])
        if alive != nodes or dead < self.killed:
            raise RuntimeError(f"{alive} node(s) alive, {dead} dead; wanted {nodes} alive, {self.killed} dead")

    def run(self, argv: list[str], cwd: str | None = None, env: dict[str, str] | None = None,
            kill_worker_on: str | None = None, timeout: float = 300, sample_memory: bool = False,
            after_calls: int = 0, kill_driver_after_calls: int | None = None) -> dict[str, Any]:
        """Run a command (a build); with `kill_worker_on`, SIGKILL the newest worker node's whole
        process tree as soon as one of its processes shows that title (a Ray task in progress) and the
        scripted model has answered `after_calls` requests; with `kill_driver_after_calls`, SIGKILL the
        command itself (the Ray driver) once the model has answered that many."""
        started = time.monotonic()
        proc = subprocess.Popen(argv, cwd=cwd, env={**os.environ, **(env or {})}, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        out: dict[str, str] = {}
        readers = [threading.Thread(target=lambda k=k, s=s: out.__setitem__(k, s.read()), daemon=True)
                   for k, s in (("stdout", proc.stdout), ("stderr", proc.stderr))]
        for t in readers:
            t.start()
        killed = False
        driver_killed = False
        calls_at_kill = -1
        peaks = {"driver_mb": 0.0, "worker_mb": 0.0, "cluster_mb": 0.0}
        while proc.poll() is None:
            if time.monotonic() - started > timeout:
                proc.kill()
                break
            answered = len(self.llm.chat_log()) if self.llm is not None and (after_calls or kill_driver_after_calls) \
                else 0
            if kill_driver_after_calls is not None and not driver_killed and answered >= kill_driver_after_calls:
                _kill(proc.pid)
                driver_killed = True
                calls_at_kill = answered
            if kill_worker_on and not killed and self.workers and answered >= after_calls:
                tree = _tree(self.workers[-1].pid)
                if any(kill_worker_on in _cmdline(p) for p in tree):
                    for p in tree:
                        _kill(p)
                    killed = True
                    self.killed += 1
            if sample_memory:
                self._sample(proc.pid, peaks)
            time.sleep(0.05 if not sample_memory else 0.2)
        proc.wait()
        for t in readers:
            t.join()
        return {"rc": proc.returncode, "stdout": out.get("stdout", ""), "stderr": out.get("stderr", ""),
                "killed": killed, "driver_killed": driver_killed, "calls_at_kill": calls_at_kill, "seconds": time.monotonic() - started, **({"peaks": peaks} if sample_memory else {})}

    @staticmethod
    def _sample(driver: int, peaks: dict[str, float]) -> None:
        """Peak RSS (MB): the driver, the largest Ray worker process, and every process of the namespace."""
        total = 0.0
        for pid in _pids():
            rss = _rss_mb(pid)
            total += rss
            if pid == driver:
                peaks["driver_mb"] = max(peaks["driver_mb"], rss)
            elif _cmdline(pid).startswith("ray::") or "default_worker.py" in _cmdline(pid):
                peaks["worker_mb"] = max(peaks["worker_mb"], rss)
        peaks["cluster_mb"] = max(peaks["cluster_mb"], total)

    def llm_start(self) -> dict[str, Any]:
        sys.path.insert(0, str(HERE))
        from llm_server import ScriptedLLM
        from ray_replies import extraction_reply

        self.llm = ScriptedLLM()
        self.llm.reply("", extraction_reply, delay=0.02)
        return {"base_url": self.llm.base_url}

    def llm_log(self) -> dict[str, Any]:
        log = self.llm.chat_log()
        return {"texts": [r["text"] for r in log], "statuses": [r["status"] for r in log],
                "max_in_flight": self.llm.max_in_flight}

    def stop(self) -> dict[str, Any]:
        if self.llm is not None:
            self.llm.shutdown()
        # This agent is PID 1 of its own PID namespace: every other process it can see is one it
        # started (the nodes, their workers, the builds), so each is killed by its PID here.
        # (`ray stop --force` would do the same, but waits ~20 s for processes to go.)
        for pid in _pids():
            if pid != os.getpid():
                _kill(pid)
        shutil.rmtree(self.temp, ignore_errors=True)
        return {}


def _kill(pid: int) -> None:
    with contextlib.suppress(OSError):  # already gone
        os.kill(pid, signal.SIGKILL)


def agent_main() -> None:
    agent = Agent()
    for line in sys.stdin:
        command = json.loads(line)
        op = command.pop("op")
        try:
            answer = getattr(agent, op)(**command)
        except Exception as exc:  # noqa: BLE001 - reported to the caller, which fails the test with it
            answer = {"error": f"{type(exc).__name__}: {exc}"}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
        if op == "stop":
            return


if __name__ == "__main__" and sys.argv[1:] == ["agent"]:
    agent_main()
