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
        self.env = {**os.environ, **(env or {})}
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


def _tree(pid: int) -> list[Any]:
    import psutil

    try:
        root = psutil.Process(pid)
        return [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return []


class Agent:
    def __init__(self) -> None:
        self.temp = tempfile.mkdtemp(prefix="kgray", dir="/tmp")
        self.address = f"127.0.0.1:{PORT}"
        self.workers: list[subprocess.Popen[bytes]] = []
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

    def worker(self, cpus: int = 1, nodes: int = 2) -> dict[str, Any]:
        """Another node, as its own process tree (`ray start --block`), so it can be killed whole."""
        proc = subprocess.Popen([_ray_bin(), "start", f"--address={self.address}", f"--num-cpus={cpus}",
                                 "--disable-usage-stats", "--block"], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        self.workers.append(proc)
        self._wait_nodes(nodes)
        return {"pid": proc.pid}

    def _wait_nodes(self, nodes: int) -> None:
        script = ("import ray, time, sys\nray.init(address=sys.argv[1], log_to_driver=False)\n"
                  "for _ in range(600):\n    n = sum(1 for x in ray.nodes() if x['Alive'])\n"
                  "    if n >= int(sys.argv[2]): break\n    time.sleep(0.1)\nprint(n)\n")
        out = subprocess.run([sys.executable, "-c", script, self.address, str(nodes)], check=True,
                             capture_output=True, text=True)
        if int(out.stdout.split()[-1]) < nodes:
            raise RuntimeError(f"only {out.stdout.strip()} node(s) joined")

    def run(self, argv: list[str], cwd: str | None = None, env: dict[str, str] | None = None,
            kill_worker_on: str | None = None, timeout: float = 300, sample_memory: bool = False) -> dict[str, Any]:
        """Run a command (a build); with `kill_worker_on`, SIGKILL the newest worker node's whole
        process tree as soon as one of its processes shows that title (a Ray task in progress)."""
        started = time.monotonic()
        proc = subprocess.Popen(argv, cwd=cwd, env={**os.environ, **(env or {})}, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        out: dict[str, str] = {}
        readers = [threading.Thread(target=lambda k=k, s=s: out.__setitem__(k, s.read()), daemon=True)
                   for k, s in (("stdout", proc.stdout), ("stderr", proc.stderr))]
        for t in readers:
            t.start()
        killed = False
        peaks = {"driver_mb": 0.0, "worker_mb": 0.0, "cluster_mb": 0.0}
        while proc.poll() is None:
            if time.monotonic() - started > timeout:
                proc.kill()
                break
            if kill_worker_on and not killed and self.workers:
                tree = _tree(self.workers[-1].pid)
                if any(kill_worker_on in " ".join(_cmdline(p)) for p in tree):
                    for p in tree:
                        _kill(p)
                    killed = True
            if sample_memory:
                self._sample(proc.pid, peaks)
            time.sleep(0.05 if not sample_memory else 0.2)
        proc.wait()
        for t in readers:
            t.join()
        return {"rc": proc.returncode, "stdout": out.get("stdout", ""), "stderr": out.get("stderr", ""),
                "killed": killed, "seconds": time.monotonic() - started, **({"peaks": peaks} if sample_memory else {})}

    @staticmethod
    def _sample(driver: int, peaks: dict[str, float]) -> None:
        """Peak RSS (MB): the driver, the largest Ray worker process, and every process of the namespace."""
        import psutil

        total = 0.0
        for p in psutil.process_iter(["pid", "cmdline", "memory_info"]):
            info = p.info
            if info["memory_info"] is None:
                continue
            rss = info["memory_info"].rss / 2**20
            total += rss
            title = " ".join(info["cmdline"] or [])
            if info["pid"] == driver:
                peaks["driver_mb"] = max(peaks["driver_mb"], rss)
            elif title.startswith("ray::") or "default_worker.py" in title:
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
        import psutil

        for p in psutil.process_iter():
            if p.pid != os.getpid():
                _kill(p)
        shutil.rmtree(self.temp, ignore_errors=True)
        return {}


def _cmdline(p: Any) -> list[str]:
    try:
        return list(p.cmdline())
    except Exception:  # noqa: BLE001 - a process that ended or cannot be read is not the one we look for
        return []


def _kill(p: Any) -> None:
    try:
        p.send_signal(signal.SIGKILL)
    except Exception:  # noqa: BLE001 - already gone
        pass


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
