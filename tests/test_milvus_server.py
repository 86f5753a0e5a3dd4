"""MilvusVectorStore against a real standalone Milvus 2.3 server (the `milvus` 2.3.5 package).

Milvus 2.3 has no BM25 functions or sparse vectors: collections are created dense-only, everything
dense works end to end, and text_search says in one line what is missing.

The server is started once for this module and stopped by its own process group. Its embedded
etcd is moved off the fixed 2379/2380 onto free loopback ports through ETCD_CONFIG_PATH, so it can
run next to another Milvus. Milvus 2.3 itself offers no bind address: its gRPC ports listen on all
interfaces (free ports picked here), for the few seconds this module runs.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("pymilvus")

from kgbuild.progress import QuietProgress
from kgbuild.store.manifest import StoreManifest
from kgbuild.store.milvus import FullTextUnavailable, MilvusVectorStore, VectorStoreError
from kgbuild.store.types import SyncReport, VectorRow
from kgbuild.store.vector_sync import sync_vectors
from kgbuild.workspace import Workspace

pytestmark = pytest.mark.server  # a Milvus server process per module

SERVER = Path(sys.executable).parent / "milvus-server"
READY_SECONDS = 60
DIM = 4
PORT_OPTIONS = ["--proxy-port", "--etcd-port", "--root-coord-port", "--proxy-internal-port", "--query-coord-port",
                "--query-node-port", "--index-coord-port", "--index-node-port", "--data-coord-port", "--data-node-port"]


def free_ports(n: int) -> list[int]:
    socks = []
    try:
        for _ in range(n):
            s = socket.socket()
            s.bind(("127.0.0.1", 0))
            socks.append(s)
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


def stop_group(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM our process group (the wrapper exits), then SIGKILL it (the server child ignores SIGTERM).

    No liveness polling after SIGKILL: the killed child is the wrapper's, not ours, and stays a
    zombie until init reaps it, so it would look alive to a group probe.
    """
    try:
        os.killpg(proc.pid, signal.SIGTERM)  # start_new_session: the group id is the wrapper's pid
    except ProcessLookupError:
        return
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=5)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)


@pytest.fixture(scope="module")
def server_uri(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if not SERVER.exists():
        pytest.fail(f"{SERVER} not found: pip install 'milvus==2.3.5' into the venv to run these tests")
    data = tmp_path_factory.mktemp("milvus-server")
    ports = free_ports(len(PORT_OPTIONS) + 1)
    proxy, etcd_client, etcd_peer = ports[0], ports[1], ports[-1]
    etcd_config = data / "etcd.yaml"
    etcd_config.write_text(
        "name: kgbuild-test\n"
        f"listen-client-urls: http://127.0.0.1:{etcd_client}\n"
        f"advertise-client-urls: http://127.0.0.1:{etcd_client}\n"
        f"listen-peer-urls: http://127.0.0.1:{etcd_peer}\n"
        f"initial-advertise-peer-urls: http://127.0.0.1:{etcd_peer}\n"
        f"initial-cluster: kgbuild-test=http://127.0.0.1:{etcd_peer}\n"
    )
    args = [str(SERVER), "--data", str(data)]
    for option, port in zip(PORT_OPTIONS, ports, strict=False):
        args += [option, str(port)]
    env = {**os.environ, "ETCD_CONFIG_PATH": str(etcd_config), "PYTHONUNBUFFERED": "1"}
    log_path = data / "server.out"
    with log_path.open("wb") as log:
        proc = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                env=env, start_new_session=True)
    uri = f"http://127.0.0.1:{proxy}"
    try:
        _wait_ready(proc, uri, log_path)
        yield uri
    finally:
        stop_group(proc)
        shutil.rmtree(data, ignore_errors=True)  # ~400 MB: the wrapper unpacks the server binaries here


def _wait_ready(proc: subprocess.Popen[bytes], uri: str, log_path: Path) -> None:
    """The wrapper prints its banner once the server's health check passes; then a client must connect."""
    deadline = time.monotonic() + READY_SECONDS
    last = ""
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"milvus-server exited with {proc.returncode}: {_tail(log_path)}")
        if "Ctrl+C to exit" in log_path.read_text(errors="replace"):
            try:
                MilvusVectorStore(uri).close()
                return
            except VectorStoreError as exc:
                last = str(exc)
        time.sleep(0.5)
    pytest.fail(f"milvus-server not ready after {READY_SECONDS} s ({last}): {_tail(log_path)}")


def _tail(path: Path) -> str:
    return " | ".join(path.read_text(errors="replace").strip().splitlines()[-5:])


@pytest.fixture
def store(server_uri: str) -> Iterator[MilvusVectorStore]:
    s = MilvusVectorStore(server_uri)
    yield s
    s.close()


def axis(i: int, tilt: float = 0.0) -> list[float]:
    v = [0.0] * DIM
    v[i % DIM] = 1.0
    v[(i + 1) % DIM] = tilt
    n = sum(x * x for x in v) ** 0.5
    return [x / n for x in v]


VALUES = ['") or id != "', "Ender's Game#p00001#0", "back\\slash", "line\nbreak\ttab", "100% %27", "Zürich 北京 🚀"]


def test_dense_only_collections_work_end_to_end(store: MilvusVectorStore) -> None:
    assert store.name.startswith("milvus:http://127.0.0.1:")
    assert not store.full_text_supported
    coll = "kg_e2e_chunks"
    store.drop(coll)
    store.ensure_collection(coll, DIM, full_text=True)  # falls back to dense-only on 2.3
    store.ensure_collection(coll, DIM, full_text=True)
    rows = [VectorRow(id=v, vector=axis(0, n / 10), text=f"text {v}", doc_id=v, type="T" if n % 2 else "U", name=v)
            for n, v in enumerate(VALUES)]
    many = [VectorRow(id=f"bulk#{i:05d}", vector=axis(1 + i % 3, 0.5), doc_id="bulk") for i in range(2100)]
    store.upsert(coll, rows)
    store.upsert(coll, rows)
    store.upsert(coll, many)
    assert store.count(coll) == len(VALUES) + 2100
    assert store.ids(coll) == set(VALUES) | {r.id for r in many}  # more than two pages of ids

    top = store.search(coll, axis(0), 3)
    assert [h.id for h in top] == VALUES[:3] and top[0].score == pytest.approx(1.0, abs=1e-4)
    assert (top[0].text, top[0].doc_id, top[0].name) == (f"text {VALUES[0]}", VALUES[0], VALUES[0])
    for value in VALUES:
        for field in ("id", "doc_id", "name"):
            assert [h.id for h in store.search(coll, axis(0), 5, where={field: value})] == [value], (field, value)
    assert {h.id for h in store.search(coll, axis(0), 10, where={"type": "T", "doc_id": VALUES})} == set(VALUES[1::2])
    assert store.search(coll, axis(0), 5, where={"doc_id": VALUES[0] + "x"}) == []

    store.delete(coll, VALUES[:3] + [r.id for r in many])
    assert store.ids(coll) == set(VALUES[3:])
    assert store.count(coll) == 3
    store.drop(coll)


def test_text_search_says_the_server_has_no_bm25(store: MilvusVectorStore) -> None:
    coll = "kg_ft_chunks"
    store.drop(coll)
    store.ensure_collection(coll, DIM, full_text=True)
    store.upsert(coll, [VectorRow(id="c1", vector=axis(0), text="words to find")])
    with pytest.raises(FullTextUnavailable) as err:
        store.text_search(coll, "words", 3)
    line = str(err.value)
    assert "\n" not in line
    assert "Milvus server v2.3.5" in line and "has no BM25 full-text search; needs Milvus >= 2.5" in line
    store.drop(coll)


def test_a_server_of_unknown_version_falls_back_to_dense_only_when_bm25_is_refused(server_uri: str) -> None:
    # A version string that says nothing: the store tries BM25, the 2.3 server refuses the
    # function, and the collection is created dense-only instead of failing the sync.
    store = MilvusVectorStore(server_uri)
    store._server_version = ""
    try:
        assert store.full_text_supported
        coll = "kg_unknown_chunks"
        store.drop(coll)
        store.ensure_collection(coll, DIM, full_text=True)
        assert not store.full_text_supported
        store.upsert(coll, [VectorRow(id="c1", vector=axis(0), text="words")])
        assert [h.id for h in store.search(coll, axis(0), 1)] == ["c1"]
        with pytest.raises(FullTextUnavailable, match=r"Milvus server at http://127\.0\.0\.1:\d+ has no BM25"):
            store.text_search(coll, "words", 1)
        store.drop(coll)
    finally:
        store.close()


def test_sync_into_the_server_is_incremental(tmp_path: Path, store: MilvusVectorStore) -> None:
    from test_vector_sync import HashEmbedder, corpus, write  # tests/ is on sys.path (rootdir-relative imports)

    ws = Workspace(tmp_path / "ws")
    ws.ensure()
    write(ws, corpus())
    manifest = StoreManifest(tmp_path / "manifest.sqlite", target=store.name)
    for prefix_suffix in ("chunks", "entities", "concepts"):
        store.drop(f"srv_{prefix_suffix}")

    def sync() -> SyncReport:
        report = SyncReport()
        sync_vectors(ws, store, HashEmbedder(), manifest, report, prefix="srv", batch_size=3, progress=QuietProgress())
        return report

    assert sync().vectors_written == 11
    again = sync()
    assert (again.vectors_written, again.embeddings_computed, again.unchanged) == (0, 0, 11)
    assert store.ids("srv_chunks") == {c["id"] for c in corpus()["chunks"]}
    for suffix in ("chunks", "entities", "concepts"):
        store.drop(f"srv_{suffix}")
