"""Writing a whole corpus build into the embedded stores, and querying them.

Run from the repo root: `python bench/store.py [CORPUS]` (default: the 2Wiki corpus).
1. An offline build of the corpus with `--no-sync` (tables only; reused from an earlier run of
   this benchmark if its workspace is still there).
2. The graph into embedded ArcadeDB with the batched UNWIND writer (CREATE for new ids, which a
   fresh store has only): nodes/s and relationships/s. Baseline in the same run: the first 2,000
   nodes written with the same statement, one row per statement, as a naive writer would.
3. The vectors into Milvus Lite: embedding + write (vectors/s), then write-only into a fresh
   database with every embedding cached.
4. Queries on the written stores: dense vector search over chunks (p50/p90, with and without
   the question's embedding) and a 2-hop neighbourhood of an entity (p50/p90).
Last line: one JSON object with the figures.
"""

from __future__ import annotations

import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from build_offline import default_corpus

from kgbuild.config import load_config
from kgbuild.progress import QuietProgress
from kgbuild.query.evaluate import percentile
from kgbuild.store import cypher
from kgbuild.store.arcade import ArcadeGraphStore
from kgbuild.store.graph_rows import read_graph_rows
from kgbuild.store.sync import relationship_typer, sync_stores
from kgbuild.workspace import Workspace


def ms(values: list[float]) -> tuple[float, float]:
    return round(percentile(values, 50) * 1000, 2), round(percentile(values, 90) * 1000, 2)


def main() -> None:
    corpus = Path(sys.argv[1]) if len(sys.argv) > 1 else default_corpus()
    root = Path(os.environ.get("KGBUILD_BENCH_DIR", Path(tempfile.gettempdir()) / "kgbuild-bench-store"))
    root.mkdir(parents=True, exist_ok=True)
    (root / "kgbuild.yaml").write_text("workspace: ws\n", encoding="utf-8")
    ws = Workspace(root / "ws")
    if not ws.has_table("documents"):
        print(f"building {corpus} (offline, tables only) ...", flush=True)
        t = time.perf_counter()
        kgbuild = [sys.executable, "-m", "kgbuild"]
        subprocess.run([*kgbuild, "-c", str(root / "kgbuild.yaml"), "build", str(corpus), "--no-sync", "-q",
                        "--keep-going"], check=True, stdout=subprocess.DEVNULL)
        print(f"  built in {time.perf_counter() - t:.1f} s")
    else:
        print(f"reusing the build in {ws.path}")
    # Fresh stores every run; the embedding cache survives (step 3 measures both ways).
    shutil.rmtree(ws.path / "graph", ignore_errors=True)
    for name in ("vectors.db", "stores.sqlite", "stores.sqlite-wal", "stores.sqlite-shm"):
        (ws.path / name).unlink(missing_ok=True)

    rows = read_graph_rows(ws, relationship_typer(load_config(root / "kgbuild.yaml", env={})))
    print(f"graph rows: {len(rows.nodes):,} nodes, {len(rows.edges):,} relationships")

    # Baseline: one MERGE statement per node, in a scratch database.
    scratch = ArcadeGraphStore(root / "scratch-graph")
    for statement in cypher.constraints():
        scratch.execute(statement)
    sample = rows.nodes[:2000]
    t = time.perf_counter()
    for node in sample:
        scratch.execute(cypher.create_nodes(node.label, node.extra_label),
                        {"rows": [{"id": node.id, "props": node.props}]})
    naive_nodes_s = len(sample) / (time.perf_counter() - t)
    scratch.close()
    shutil.rmtree(root / "scratch-graph", ignore_errors=True)
    print(f"baseline, one statement per node: {naive_nodes_s:,.0f} nodes/s")

    graph_only = load_config(root / "kgbuild.yaml", env={})
    graph_only.vector_store.backend = "none"
    report = sync_stores(graph_only, QuietProgress())
    nodes_s = report.nodes_written / report.seconds["graph_nodes"]
    edges_s = report.edges_written / report.seconds["graph_edges"]
    print(f"graph write: {report.nodes_written:,} nodes in {report.seconds['graph_nodes']:.1f} s = "
          f"{nodes_s:,.0f} nodes/s; {report.edges_written:,} relationships in "
          f"{report.seconds['graph_edges']:.1f} s = {edges_s:,.0f} relationships/s")

    vectors_only = load_config(root / "kgbuild.yaml", env={})
    vectors_only.graph_store.backend = "none"
    cache = ws.cache_dir / "embeddings.sqlite"
    cold = not cache.exists()
    t = time.perf_counter()
    v1 = sync_stores(vectors_only, QuietProgress())
    v1_s = time.perf_counter() - t
    print(f"vectors ({'embedding all' if cold else 'embedding cache warm'}): {v1.vectors_written:,} in {v1_s:.1f} s = "
          f"{v1.vectors_written / v1_s:,.0f} vectors/s "
          f"({v1.embeddings_computed:,} embedded, {v1.embeddings_cached:,} cached)")
    for name in ("vectors.db",):
        (ws.path / name).unlink(missing_ok=True)
    manifest_reset = load_config(root / "kgbuild.yaml", env={})
    from kgbuild.store.manifest import StoreManifest
    from kgbuild.store.open import manifest_path, vector_target

    StoreManifest(manifest_path(manifest_reset), vector_target(manifest_reset)).reset()
    t = time.perf_counter()
    v2 = sync_stores(vectors_only, QuietProgress())
    v2_s = time.perf_counter() - t
    print(f"vectors, write only (all embeddings cached): {v2.vectors_written:,} in {v2_s:.1f} s = "
          f"{v2.vectors_written / v2_s:,.0f} vectors/s")

    from kgbuild.store.open import open_query_index

    index = open_query_index(load_config(root / "kgbuild.yaml", env={}))
    rng = random.Random(7)
    chunks = ws.read_table("chunks", columns=["id", "text"]).to_pylist()
    questions = [c["text"][:120] for c in rng.sample(chunks, 200)]
    vectors = index.embedder.embed(questions)  # embedded once: this measures the search
    search, search_embed = [], []
    coll = f"{index.prefix}_chunks"
    for v in vectors:
        t = time.perf_counter()
        index.vectors.search(coll, v, 10)
        search.append(time.perf_counter() - t)
    model = getattr(index.embedder, "inner", index.embedder)  # the model itself, not the embedding cache
    for q in questions[:50]:
        t = time.perf_counter()
        index.vectors.search(coll, model.embed([q])[0], 10)
        search_embed.append(time.perf_counter() - t)
    # Embedding throughput (the cost of a first sync), on samples of each kind of text.
    entity_texts = [f"{r['name']}: {r['description']}" if r["description"] else r["name"]
                    for r in rng.sample(ws.read_table("entities", columns=["name", "description"]).to_pylist(), 1000)]
    t = time.perf_counter()
    model.embed(entity_texts)
    entity_rate = len(entity_texts) / (time.perf_counter() - t)
    chunk_texts = [c["text"] for c in rng.sample(chunks, 200)]
    t = time.perf_counter()
    model.embed(chunk_texts)
    chunk_rate = len(chunk_texts) / (time.perf_counter() - t)
    print(f"embedding with {model.name}: {entity_rate:,.0f} entity texts/s, {chunk_rate:,.0f} chunks/s")
    entity_ids = [r["id"] for r in ws.read_table("entities", columns=["id"]).to_pylist()]
    hops, sizes = [], []
    for eid in rng.sample(entity_ids, 200):
        t = time.perf_counter()
        found = index.graph.query("MATCH (n:Entity {id: $id})-[*1..2]-(m) RETURN count(DISTINCT m) AS n", {"id": eid})
        hops.append(time.perf_counter() - t)
        sizes.append(found[0]["n"])
    index.close()
    s50, s90 = ms(search)
    e50, _ = ms(search_embed)
    h50, h90 = ms(hops)
    print(f"vector search (top 10 of {len(chunks):,} chunks): p50 {s50} ms, p90 {s90} ms; "
          f"with the question's embedding p50 {e50} ms")
    print(f"2-hop neighbourhood of an entity: p50 {h50} ms, p90 {h90} ms "
          f"(median size {statistics.median(sizes):.0f} nodes)")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({
        "nodes": report.nodes_written, "relationships": report.edges_written, "vectors": v2.vectors_written,
        "nodes_per_s": round(nodes_s), "relationships_per_s": round(edges_s),
        "baseline_statement_per_row_nodes_per_s": round(naive_nodes_s),
        "vectors_per_s_with_embedding": round(v1.vectors_written / v1_s) if cold else None,
        "vectors_per_s_write_only": round(v2.vectors_written / v2_s),
        "embed_entity_texts_per_s": round(entity_rate), "embed_chunks_per_s": round(chunk_rate),
        "vector_search_p50_ms": s50, "vector_search_p90_ms": s90, "vector_search_with_embedding_p50_ms": e50,
        "two_hop_p50_ms": h50, "two_hop_p90_ms": h90, "peak_rss_mb": round(peak),
    }))


if __name__ == "__main__":
    main()
