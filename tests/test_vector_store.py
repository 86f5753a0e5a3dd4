"""MilvusVectorStore on Milvus Lite (a file in tmp_path): collections, writes, filters, BM25, hostile values."""

from __future__ import annotations

import math
import socket
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path

import pytest

pytest.importorskip("pymilvus")
pytest.importorskip("milvus_lite")

from kgbuild.config import parse_config
from kgbuild.errors import KgbuildError
from kgbuild.store.milvus import (
    CollectionMismatch,
    FullTextUnavailable,
    MilvusVectorStore,
    VectorStoreError,
    open_vector_store,
)
from kgbuild.store.types import VectorRow

DIM = 8

# Values that would rewrite an unescaped filter, or that Milvus Lite's own SQL mishandles.
HOSTILE = [
    '") or id != "',
    "') or id != ('",
    "Ender's Game#p00001#0",
    "back\\slash\\",
    'quote"inside',
    "100% sure %27 %",
    "line\nbreak\ttab\r",
    "nul\x00byte",
    "x';DROP TABLE t;--",
]
UNICODE = ["Zürich#p00001#0", "北京大学#p00002#1", "emoji 🚀 ok", "Ελληνικά"]


def unit(*xs: float) -> list[float]:
    v = list(xs) + [0.0] * (DIM - len(xs))
    n = math.sqrt(sum(x * x for x in v))
    return [x / n for x in v]


def axis(i: int, tilt: float = 0.0) -> list[float]:
    v = [0.0] * DIM
    v[i % DIM] = 1.0
    v[(i + 1) % DIM] = tilt
    return unit(*v)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MilvusVectorStore]:
    s = MilvusVectorStore(str(tmp_path_factory.mktemp("lite") / "vectors.db"))
    yield s
    s.close()


@pytest.fixture
def coll(request: pytest.FixtureRequest, store: MilvusVectorStore) -> Iterator[str]:
    name = "t_" + request.node.name.replace("[", "_").replace("]", "").replace("-", "_")[:40]
    yield name
    store.drop(name)


def test_ensure_collection_is_idempotent(store: MilvusVectorStore, coll: str) -> None:
    store.ensure_collection(coll, DIM, full_text=True)
    store.upsert(coll, [VectorRow(id="a", vector=axis(0), text="kept")])
    store.ensure_collection(coll, DIM, full_text=True)  # no error, nothing lost
    assert store.count(coll) == 1
    with pytest.raises(CollectionMismatch, match="8-d vectors but the embedder gives 16-d"):
        store.ensure_collection(coll, 16)


def test_upsert_twice_keeps_one_row_per_id_and_updates(store: MilvusVectorStore, coll: str) -> None:
    store.ensure_collection(coll, DIM)
    rows = [VectorRow(id=f"r{i}", vector=axis(i), text=f"text {i}", doc_id="d") for i in range(20)]
    store.upsert(coll, rows)
    store.upsert(coll, rows)
    assert store.count(coll) == 20
    store.upsert(coll, [VectorRow(id="r3", vector=axis(3), text="changed", doc_id="d2")])
    assert store.count(coll) == 20
    hit = store.search(coll, axis(3), 1, where={"id": "r3"})[0]
    assert (hit.id, hit.text, hit.doc_id) == ("r3", "changed", "d2")
    assert hit.score == pytest.approx(1.0, abs=1e-4)


def test_search_with_filters(store: MilvusVectorStore, coll: str) -> None:
    store.ensure_collection(coll, DIM)
    rows = [VectorRow(id=f"e{i}", vector=axis(0, tilt=i / 10), name=f"n{i}", type="Person" if i % 2 else "Place",
                      doc_id=f"doc{i % 3}") for i in range(9)]
    store.upsert(coll, rows)
    hits = store.search(coll, axis(0), 9)
    assert [h.id for h in hits][:3] == ["e0", "e1", "e2"]
    assert all(a.score >= b.score for a, b in pairwise(hits))
    assert {h.id for h in store.search(coll, axis(0), 9, where={"type": "Person"})} == {"e1", "e3", "e5", "e7"}
    assert {h.id for h in store.search(coll, axis(0), 9, where={"doc_id": ["doc1", "doc2"], "type": "Place"})} == {
        "e2", "e4", "e8"}
    assert [h.id for h in store.search(coll, axis(0), 9, where={"name": "n4"})] == ["e4"]
    assert [h.id for h in store.search(coll, axis(0), 9, where={"id": ["e5"]})] == ["e5"]
    assert store.search(coll, axis(0), 9, where={"doc_id": []}) == []
    with pytest.raises(VectorStoreError, match="unknown field 'text'"):
        store.search(coll, axis(0), 3, where={"text": "x"})


def test_bm25_ranks_the_matching_chunk_first(store: MilvusVectorStore, coll: str) -> None:
    store.ensure_collection(coll, DIM, full_text=True)
    texts = {
        "c1": "The Eiffel Tower is a wrought-iron lattice tower in Paris.",
        "c2": "Photosynthesis converts light energy into chemical energy in plants.",
        "c3": "The Great Wall of China stretches thousands of kilometres.",
        "c4": "Paris is the capital of France and hosts many museums.",
    }
    store.upsert(coll, [VectorRow(id=k, vector=axis(i), text=t, doc_id=f"d{i % 2}")
                        for i, (k, t) in enumerate(texts.items())])
    hits = store.text_search(coll, "photosynthesis chemical energy", 3)
    assert hits[0].id == "c2" and hits[0].score > 0
    assert all(a.score >= b.score for a, b in pairwise(hits))
    paris = store.text_search(coll, "Paris tower", 4)
    assert paris[0].id == "c1" and {h.id for h in paris} >= {"c1", "c4"}
    assert [h.id for h in store.text_search(coll, "Paris", 4, where={"doc_id": "d1"})] == ["c4"]
    assert store.text_search(coll, "   ", 3) == []


def test_text_search_on_a_dense_only_collection_says_why(store: MilvusVectorStore, coll: str) -> None:
    store.ensure_collection(coll, DIM)
    with pytest.raises(FullTextUnavailable, match="created without BM25"):
        store.text_search(coll, "anything", 3)


def test_delete_and_ids(store: MilvusVectorStore, coll: str) -> None:
    store.ensure_collection(coll, DIM)
    ids = {f"Title {i}#p{i:05d}#{i % 3}" for i in range(2500)}  # more than one iterator page
    rows = [VectorRow(id=i, vector=axis(n)) for n, i in enumerate(sorted(ids))]
    for start in range(0, len(rows), 1000):
        store.upsert(coll, rows[start : start + 1000])
    assert store.ids(coll) == ids
    gone = sorted(ids)[:700]
    store.delete(coll, [*gone, "never-existed"])
    assert store.ids(coll) == ids - set(gone)
    assert store.count(coll) == 2500 - 700
    store.delete(coll, [])


def test_hostile_and_unicode_values_are_data(store: MilvusVectorStore, coll: str) -> None:
    # One collection for all values (creating one per value costs a second each).
    values = HOSTILE + UNICODE
    store.ensure_collection(coll, DIM, full_text=True)
    rows = [VectorRow(id=v, vector=axis(0, n / 10), text=f"needle{n} {v}", doc_id=v, type=v, name=v)
            for n, v in enumerate(values)]
    rows.append(VectorRow(id="other", vector=axis(1), text="haystack", doc_id="plain", type="plain", name="plain"))
    store.upsert(coll, rows)
    store.upsert(coll, rows[:3])  # upsert over existing hostile ids (Milvus Lite's own SQL broke on `'`)
    assert store.ids(coll) == set(values) | {"other"}
    for n, value in enumerate(values):
        for field in ("id", "doc_id", "type", "name"):
            hits = store.search(coll, axis(0), 5, where={field: value})
            assert [(h.id, h.doc_id, h.type, h.name) for h in hits] == [(value, value, value, value)], (field, value)
            assert [h.id for h in store.search(coll, axis(0), 5, where={field: [value, "nope"]})] == [value]
        assert store.text_search(coll, f"needle{n}", 5)[0].id == value
        assert store.search(coll, axis(0), 5, where={"doc_id": value + "x"}) == []
    store.delete(coll, values[:5])
    assert store.ids(coll) == set(values[5:]) | {"other"}
    store.delete(coll, values[5:])
    assert store.ids(coll) == {"other"}


def test_overlong_text_and_metadata_are_truncated_on_a_character_boundary(store: MilvusVectorStore, coll: str) -> None:
    store.ensure_collection(coll, DIM, full_text=True)
    long_text = "é" * 40_000 + " tail"  # 80 kB of UTF-8, over the 64 KiB VARCHAR limit
    long_name = "名" * 2000
    store.upsert(coll, [VectorRow(id="big", vector=axis(1), text=long_text, name=long_name, doc_id=long_name)])
    hit = store.search(coll, axis(1), 1)[0]
    assert long_text.startswith(hit.text) and len(hit.text.encode()) <= 65_535
    assert long_name.startswith(hit.name) and 0 < len(hit.name.encode()) <= 1024
    # A filter on the full value matches the stored (truncated) value the same way.
    assert [h.id for h in store.search(coll, axis(1), 1, where={"doc_id": long_name})] == ["big"]


def test_open_vector_store_creates_the_lite_directory(tmp_path: Path) -> None:
    config = parse_config({"workspace": str(tmp_path / "ws"), "vector_store": {"uri": "deep/er/v.db"}},
                          file=tmp_path / "kgbuild.yaml", env={})
    s = open_vector_store(config)
    try:
        assert (tmp_path / "deep" / "er").is_dir() and s.name.startswith("milvus-lite:")
        s.ensure_collection("k_chunks", DIM)
        assert s.count("k_chunks") == 0
    finally:
        s.close()


@pytest.mark.slow
def test_a_lite_file_held_by_another_process_is_one_clear_line(tmp_path: Path) -> None:
    db = tmp_path / "held.db"
    holder = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import sys, time
        from kgbuild.store.milvus import MilvusVectorStore
        s = MilvusVectorStore({str(db)!r})
        print("open", flush=True)
        sys.stdin.read()
        s.close()
    """)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "open"
        with pytest.raises(VectorStoreError) as err:
            MilvusVectorStore(str(db))
        line = str(err.value)
        assert "\n" not in line and line.startswith("vector_store.uri:") and "another" in line
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(timeout=30)


def test_an_unreachable_server_is_one_clear_line() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nothing listens there
    with pytest.raises(KgbuildError) as err:
        MilvusVectorStore(f"http://127.0.0.1:{port}")
    line = str(err.value)
    assert "\n" not in line and line.startswith("vector_store.uri:") and "running" in line


def test_a_lite_uri_must_end_in_db(tmp_path: Path) -> None:
    with pytest.raises(VectorStoreError, match=r"must end in \.db"):
        MilvusVectorStore(str(tmp_path / "vectors.sqlite"))
