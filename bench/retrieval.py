"""Retrieval on an offline build of the HotpotQA corpus: BM25 vs dense vs the hybrid, no model.

Run from the repo root: `python bench/retrieval.py [--corpus C] [--qa Q] [--stores project|memory]`.

1. builds the corpus offline (spaCy extraction, no LLM) into a fresh workspace under a temp dir;
2. writes the stores: `project` = the configured path (Milvus Lite file in the workspace, graph store
   off since retrieval does not read it) through `sync_stores`; `memory` = the in-memory brute-force
   store fed by the same embedder (for when Milvus Lite is unavailable);
3. opens the query engine over those stores (kgbuild.engine.Engine) and evaluates the QA file with
   its bm25, dense and hybrid strategies: Recall@2/5 of the supporting passages, EM/F1 of
   the extractive answer, latency per question (retrieval + answer, the question embedded each time).

The hybrid's settings are the global defaults of HybridSettings; nothing is set per question. Those
defaults were chosen on the first 50 questions (the "dev" half), so the last 50 ("held" half) are
printed separately. Last line: one JSON object with the figures (units in the keys).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from shared_data import shared_data


def memory_index(workspace, embedder, prefix: str):
    """The two collections hybrid retrieval reads, chunks (with BM25) and entities, in the in-memory
    store; the concepts collection of docs/graph_model.md is not built (retrieval does not use it)."""
    from kgbuild.query.retrieval import MemoryVectorStore
    from kgbuild.store.types import VectorRow

    store = MemoryVectorStore()
    chunks = workspace.read_table("chunks", ["id", "doc_id", "text"]).to_pylist()
    entities = workspace.read_table("entities", ["id", "name", "description", "spg_class"]).to_pylist()
    store.ensure_collection(f"{prefix}_chunks", embedder.dim, full_text=True)
    store.ensure_collection(f"{prefix}_entities", embedder.dim)
    vectors = embedder.embed([c["text"] for c in chunks])
    store.upsert(f"{prefix}_chunks", [VectorRow(id=c["id"], vector=v, text=c["text"], doc_id=c["doc_id"])
                                      for c, v in zip(chunks, vectors, strict=True)])
    texts = [f"{e['name']}: {e['description']}" if e["description"] else e["name"] for e in entities]
    store.upsert(f"{prefix}_entities", [VectorRow(id=e["id"], vector=v, name=e["name"], type=e["spg_class"])
                                        for e, v in zip(entities, embedder.embed(texts), strict=True)])
    return store


def main() -> None:
    data = shared_data()
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=data / "hotpotqa" / "train_corpus.json")
    parser.add_argument("--qa", type=Path, default=data / "hotpotqa" / "qa_train.json")
    parser.add_argument("--stores", choices=["project", "memory"], default="project")
    parser.add_argument("--torch-threads", type=int, default=1,
                        help="threads for the question embedding (1: least hurt by other processes on a shared box)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    for path in (args.corpus, args.qa):
        if not path.exists():
            sys.exit(f"{path}: not found; pass --corpus / --qa or set KGBUILD_SHARED_DATA")

    from kgbuild.build import Builder
    from kgbuild.config import load_config
    from kgbuild.engine import Engine
    from kgbuild.progress import QuietProgress
    from kgbuild.query.evaluate import read_qa, recall_key
    from kgbuild.query.retrieval import HybridRetriever, HybridSettings
    from kgbuild.workspace import Workspace

    if args.torch_threads > 0:
        import torch

        torch.set_num_threads(args.torch_threads)

    with tempfile.TemporaryDirectory(prefix="kgbench-retrieval-") as tmp:
        config_path = Path(tmp) / "kgbuild.yaml"
        config_path.write_text("workspace: ws\ngraph_store:\n  backend: none\n", encoding="utf-8")
        config = load_config(config_path)
        t = time.perf_counter()
        report = asyncio.run(Builder(config, QuietProgress()).arun([args.corpus], workers=args.workers, sync=False))
        build_s = time.perf_counter() - t
        read, extract, graph = report.read, report.extract, report.graph
        assert read is not None and extract is not None
        print(f"build: {read.documents_read} passages, {extract.chunks_total} chunks -> {graph.entities} entities, "
              f"{graph.relations} relations, {graph.concepts} concepts in {build_s:.1f} s "
              f"(offline, {args.workers} workers)")

        t = time.perf_counter()
        if args.stores == "project":
            from kgbuild.store.sync import sync_stores

            sync = sync_stores(config, QuietProgress())
            engine = Engine.open(config)
            store_name = (f"{sync.vector_store} (synced: {sync.vectors_written} vectors, "
                          f"{sync.embeddings_computed} embedded)")
        else:
            from kgbuild.embed.models import load_embedder
            from kgbuild.store.open import QueryIndex

            workspace = Workspace(config.workspace_path())
            embedder = load_embedder("bundled", setting="embedding.model")
            vectors = memory_index(workspace, embedder, "bench")
            engine = Engine(config, QueryIndex(workspace, None, vectors, embedder, "bench"))
            store_name = "memory (brute force)"
        stores_s = time.perf_counter() - t
        print(f"stores: {store_name} in {stores_s:.1f} s")
        with engine:
            t = time.perf_counter()
            # The engine's evaluation embeds every question with the model (not the persistent cache),
            # so latency is that of a query; this is the retriever it uses.
            retriever = engine.retriever(cached_embeddings=False)
            index_s = time.perf_counter() - t
            assert isinstance(retriever, HybridRetriever)
            mutual = retriever.index
            print(f"mutual index: {mutual.n_nodes} nodes, {mutual.n_chunks} chunks, {len(mutual.relations)} relations "
                  f"loaded in {index_s * 1000:.0f} ms; settings {HybridSettings()}")
            qa = read_qa(args.qa)
            for problem in qa.problems:
                print(f"skipped: {problem}")
            result = engine.eval(qa, ["bm25", "dense", "hybrid"], keep_results=True)

    half = len(qa.items) // 2
    dev_ids = {i.id for i in qa.items[:half]}
    figures: dict[str, float | int | str] = {"questions": len(qa.items), "stores": args.stores,
                                             "build_s": round(build_s, 1), "stores_s": round(stores_s, 1)}
    print(f"{args.qa.name}: {len(qa.items)} questions, Recall@k over distinct passages (documents)")
    for m in result.modes:
        rows = [r for r in result.results if r.mode == m.mode]
        dev = [r.recall[recall_key(5)] for r in rows if r.id in dev_ids]
        held = [r.recall[recall_key(5)] for r in rows if r.id not in dev_ids]
        print(f"{m.mode:>7}: Recall@2 {m.recall_at(2):.3f}  Recall@5 {m.recall_at(5):.3f} "
              f"(dev half {sum(dev) / max(len(dev), 1):.3f}, held half {sum(held) / max(len(held), 1):.3f})  "
              f"EM {m.em:.3f}  F1 {m.f1:.3f}  latency p50 {m.p50_ms:.1f} ms  p90 {m.p90_ms:.1f} ms  "
              f"p99 {m.p99_ms:.1f} ms  model calls/q {m.llm_calls_per_question:.0f}")
        figures.update({f"{m.mode}_{key}": round(value, 3) for key, value in m.recall.items()})
        figures.update({f"{m.mode}_recall_at_5_held_half": round(sum(held) / max(len(held), 1), 3),
                        f"{m.mode}_em": round(m.em, 3), f"{m.mode}_f1": round(m.f1, 3),
                        f"{m.mode}_p50_ms": round(m.p50_ms, 1), f"{m.mode}_p90_ms": round(m.p90_ms, 1),
                        f"{m.mode}_p99_ms": round(m.p99_ms, 1)})
    hybrid = result.mode("hybrid")
    beats = hybrid.recall_at(5) > max(result.mode("bm25").recall_at(5), result.mode("dense").recall_at(5))
    print(f"hybrid beats BM25 and dense on Recall@5: {beats}; Recall@5 >= 0.90: {hybrid.recall_at(5) >= 0.90}; "
          f"hybrid p50 < 100 ms: {hybrid.p50_ms < 100}")
    figures.update({"p50_ms": round(hybrid.p50_ms, 1), "hybrid_beats_both": beats,
                    "load_avg_1min": round(os.getloadavg()[0], 2)})
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
