"""sync_vectors: workspace tables -> Milvus Lite collections, incremental and safe to interrupt."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("milvus_lite")

from kgbuild.embed.cached import CachedEmbedder
from kgbuild.progress import QuietProgress
from kgbuild.store.manifest import StoreManifest
from kgbuild.store.milvus import MilvusVectorStore
from kgbuild.store.types import SyncReport, VectorRow
from kgbuild.store.vector_sync import sync_vectors
from kgbuild.workspace import Workspace

SUFFIXES = ("chunks", "entities", "concepts")


class HashEmbedder:
    """Unit vectors from word hashes (shared words -> similar vectors), no model needed."""

    def __init__(self, dim: int = 16, name: str = "hash:v1") -> None:
        self.name = name
        self.dim = dim

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        out = []
        for text in texts:
            v = [0.0] * self.dim
            for word in text.lower().split():
                v[hashlib.md5(word.encode()).digest()[0] % self.dim] += 1.0
            n = math.sqrt(sum(x * x for x in v)) or 1.0
            out.append([x / n for x in v])
        return out

    def close(self) -> None:
        pass


class Interrupted(Exception):
    pass


class FailingStore:
    """The real store, but the n-th upsert raises before (or after) reaching it."""

    def __init__(self, inner: MilvusVectorStore, fail_at: int, after_write: bool = False) -> None:
        self.inner = inner
        self.name = inner.name
        self.fail_at = fail_at
        self.after_write = after_write
        self.upserts = 0

    def upsert(self, collection: str, rows: Sequence[VectorRow]) -> None:
        self.upserts += 1
        if self.upserts == self.fail_at:
            if self.after_write:
                self.inner.upsert(collection, rows)  # the store has it, the manifest will not
            raise Interrupted
        self.inner.upsert(collection, rows)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def chunk(doc: str, n: int, text: str) -> dict[str, Any]:
    return {"id": f"{doc}#p{n:05d}#0", "doc_id": doc, "text": text, "order": n}


def corpus() -> dict[str, list[dict[str, Any]]]:
    return {
        "chunks": [
            chunk("Ender's Game", 1, "Ender Wiggin trains at Battle School in orbit."),
            chunk("Ender's Game", 2, "The formics attacked Earth decades earlier."),
            chunk("Paris", 1, "Paris is the capital of France, on the Seine."),
            chunk("Paris", 2, "The Louvre is the most visited museum in the world."),
            chunk("Photosynthesis", 1, "Plants turn light, water and carbon dioxide into sugar."),
        ],
        "entities": [
            {"id": "ent_ender", "name": "Ender Wiggin", "spg_class": "Person", "description": "child commander",
             "doc_ids": ["Ender's Game"]},
            {"id": "ent_paris", "name": "Paris", "spg_class": "City", "description": "capital of France",
             "doc_ids": ["Paris", "Ender's Game"]},
            {"id": "ent_louvre", "name": "Louvre", "spg_class": "Museum", "description": None, "doc_ids": ["Paris"]},
            {"id": "ent_loose", "name": 'He said "hi"', "spg_class": "Other", "description": "", "doc_ids": []},
        ],
        "concepts": [
            {"id": "con_city", "name": "city", "description": "a large town"},
            {"id": "con_person", "name": "person", "description": None},
        ],
    }


def write(ws: Workspace, tables: dict[str, list[dict[str, Any]]]) -> None:
    for name, rows in tables.items():
        ws.write_table(name, rows)


class Env:
    def __init__(self, root: Path, store: MilvusVectorStore, prefix: str) -> None:
        self.ws = Workspace(root / prefix / "ws")
        self.ws.ensure()
        self.store = store
        self.prefix = prefix
        self.manifest = StoreManifest(self.ws.path / "manifest.sqlite", target=store.name)
        self.embedder = CachedEmbedder(HashEmbedder(), self.ws.cache_dir / "embeddings.sqlite")

    def sync(self, store: Any = None, *, batch_size: int = 2, resumed: bool = False,
             embedder: Any = None) -> SyncReport:
        report = SyncReport(resumed=resumed)
        sync_vectors(self.ws, store or self.store, embedder or self.embedder, self.manifest, report,
                     prefix=self.prefix, batch_size=batch_size, progress=QuietProgress())
        return report

    def ids(self, suffix: str) -> set[str]:
        return self.store.ids(f"{self.prefix}_{suffix}")

    def state(self) -> dict[str, tuple[set[str], int]]:
        return {s: (self.ids(s), self.store.count(f"{self.prefix}_{s}")) for s in SUFFIXES}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MilvusVectorStore]:
    s = MilvusVectorStore(str(tmp_path_factory.mktemp("sync") / "vectors.db"))
    yield s
    s.close()


@pytest.fixture
def env(request: pytest.FixtureRequest, tmp_path: Path, store: MilvusVectorStore) -> Env:
    e = Env(tmp_path, store, "k" + hashlib.md5(request.node.name.encode()).hexdigest()[:8])
    write(e.ws, corpus())
    return e


@pytest.mark.slow
def test_first_sync_writes_everything_second_writes_nothing(env: Env) -> None:
    first = env.sync()
    assert (first.vectors_written, first.embeddings_computed, first.vectors_deleted, first.unchanged) == (11, 11, 0, 0)
    assert env.ids("chunks") == {r["id"] for r in corpus()["chunks"]}
    assert env.ids("entities") == {"ent_ender", "ent_paris", "ent_louvre", "ent_loose"}
    assert env.ids("concepts") == {"con_city", "con_person"}

    second = env.sync()
    assert (second.vectors_written, second.embeddings_computed, second.embeddings_cached,
            second.vectors_deleted, second.unchanged) == (0, 0, 0, 0, 11)

    # What landed: chunk text for BM25, entity metadata, "name: description" as the embedded text.
    hits = env.store.text_search(f"{env.prefix}_chunks", "Louvre museum", 2)
    assert hits[0].id == "Paris#p00002#0" and hits[0].doc_id == "Paris"
    [paris] = env.store.search(f"{env.prefix}_entities", HashEmbedder().embed(["Paris: capital of France"])[0], 1)
    assert (paris.id, paris.name, paris.type, paris.doc_id, paris.score) == (
        "ent_paris", "Paris", "City", "Paris", pytest.approx(1.0, abs=1e-4))
    person = env.store.search(f"{env.prefix}_entities", HashEmbedder().embed(["x"])[0], 5, where={"type": "Person"})
    assert [h.id for h in person] == ["ent_ender"]


@pytest.mark.slow
def test_a_changed_chunk_is_re_embedded_and_rewritten_alone(env: Env) -> None:
    env.sync()
    tables = corpus()
    tables["chunks"][2]["text"] = "Paris is the capital of France and its largest city."
    write(env.ws, tables)
    report = env.sync()
    assert (report.vectors_written, report.embeddings_computed, report.vectors_deleted, report.unchanged) == (1, 1, 0, 10)
    hits = env.store.text_search(f"{env.prefix}_chunks", "largest", 1)
    assert [h.id for h in hits] == ["Paris#p00001#0"]
    # Changing it back: the old vector is still in the embedding cache, only the write happens.
    write(env.ws, corpus())
    back = env.sync()
    assert (back.vectors_written, back.embeddings_computed, back.embeddings_cached) == (1, 0, 1)


@pytest.mark.slow
def test_a_removed_entity_is_deleted_from_the_store(env: Env) -> None:
    env.sync()
    tables = corpus()
    tables["entities"] = [e for e in tables["entities"] if e["id"] != "ent_louvre"]
    tables["concepts"] = []
    write(env.ws, tables)
    report = env.sync()
    assert (report.vectors_written, report.vectors_deleted) == (0, 3)
    assert env.ids("entities") == {"ent_ender", "ent_paris", "ent_loose"}
    assert env.ids("concepts") == set()
    assert env.manifest.hashes(f"{env.prefix}_concepts") == {}


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory, store: MilvusVectorStore) -> Env:
    """The corpus synced in one uninterrupted go (creating collections costs ~1 s each, so shared)."""
    ref = Env(tmp_path_factory.mktemp("reference"), store, "ref")
    write(ref.ws, corpus())
    ref.sync()
    return ref


@pytest.mark.parametrize("after_write", [False, True], ids=["before-write", "after-write"])
@pytest.mark.slow
def test_an_interrupted_sync_then_a_rerun_matches_an_uninterrupted_one(
        tmp_path: Path, store: MilvusVectorStore, reference: Env, after_write: bool) -> None:
    broken = Env(tmp_path, store, f"cut_{after_write:d}")
    write(broken.ws, corpus())
    with pytest.raises(Interrupted):
        broken.sync(FailingStore(store, fail_at=3, after_write=after_write))
    assert 0 < sum(len(broken.ids(s)) for s in SUFFIXES) < 11

    rerun = broken.sync(resumed=True)
    assert broken.state() == reference.state()
    assert rerun.vectors_written == 11 - 4  # two batches of two were recorded before the cut
    # The cut batch (the fifth chunk, alone) was embedded before the store call failed: cached now.
    assert (rerun.embeddings_computed, rerun.embeddings_cached) == (11 - 4 - 1, 1)
    assert broken.sync().vectors_written == 0


@pytest.mark.slow
def test_rows_written_but_not_recorded_and_since_removed_are_deleted(tmp_path: Path, store: MilvusVectorStore) -> None:
    e = Env(tmp_path, store, "orphans")
    write(e.ws, corpus())
    with pytest.raises(Interrupted):
        e.sync(FailingStore(store, fail_at=1, after_write=True))  # first chunk batch stored, never recorded
    assert len(e.ids("chunks")) == 2 and e.manifest.hashes("orphans_chunks") == {}
    tables = corpus()
    stored = sorted(e.ids("chunks"))
    tables["chunks"] = [c for c in tables["chunks"] if c["id"] != stored[0]]
    write(e.ws, tables)
    e.sync()  # not even marked resumed: the count disagrees with the manifest, so ids are checked
    assert e.ids("chunks") == {c["id"] for c in tables["chunks"]}


@pytest.mark.slow
def test_a_new_embedding_model_rewrites_everything(env: Env) -> None:
    env.sync()
    bigger = CachedEmbedder(HashEmbedder(dim=24, name="hash:v2"), env.ws.cache_dir / "embeddings.sqlite")
    report = env.sync(embedder=bigger)
    assert (report.vectors_written, report.embeddings_computed, report.vectors_deleted) == (11, 11, 0)
    assert env.state()["chunks"][1] == 5
    assert env.sync(embedder=bigger).vectors_written == 0


@pytest.mark.slow
def test_empty_workspace_creates_empty_collections(tmp_path: Path, store: MilvusVectorStore) -> None:
    e = Env(tmp_path, store, "empty")
    report = e.sync()
    assert report.vectors_written == 0 and report.vector_store == store.name
    assert all(count == 0 for _, count in e.state().values())
