"""The vector stage's embedding during an LLM extraction (kgbuild/build/vector_prefetch.py): what the
write stage finds already embedded, how the write stage finishes it (and takes the vector store it opened
ahead), that its worker runs below the build's priority, and that switching it off or a Chinese batch leaves
it alone.
Counts, not timings: bench/llm_overlap.py measures the time."""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from llm_server import ScriptedLLM, extraction_passages

from kgbuild.build.vector_prefetch import BATCH, VectorPrefetch
from kgbuild.cli import main
from kgbuild.model import ChunkExtraction, Entity

DOCS = {
    "turing.txt": "Alan Turing was born in London. He worked at Bletchley Park during the war.",
    "hopper.txt": "Grace Hopper was born in New York City. She developed early compilers for the Navy.",
    "lovelace.txt": "Ada Lovelace was born in London. She wrote about the Analytical Engine of Charles Babbage.",
}


def one(text: str) -> dict[str, Any]:
    name = " ".join(text.split()[:2])
    return {"entities": [{"name": name, "type": "Person", "description": f"{name}, from the passage."},
                         {"name": "London", "type": "GeographicLocation"}],
            "events": [], "relations": [{"subject": name, "predicate": "bornIn", "object": "London"}],
            "hypernodes": []}


def reply(body: dict[str, Any]) -> str:
    passages = extraction_passages(body)
    if passages[0][0] is None:
        return json.dumps(one(passages[0][1]))
    return json.dumps({pid: one(text) for pid, text in passages})


def build(tmp_path: Path, base_url: str, extra: str = "", *, graph: bool = False) -> dict[str, Any]:
    src = tmp_path / "src"
    src.mkdir(parents=True, exist_ok=True)
    for name, text in DOCS.items():
        (src / name).write_text(text, encoding="utf-8")
    config = tmp_path / "kgbuild.yaml"
    config.write_text(
        "workspace: ws\n" + ("" if graph else "graph_store:\n  backend: none\n") +
        "extract:\n  extractor: llm\nalign:\n  llm_judge: false\n  llm_hypernyms: false\n" + extra +
        f"llm:\n  base_url: {base_url}\n  model: m\n  timeout_s: 5\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["-c", str(config), "build", str(src), "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    report: dict[str, Any] = json.loads(result.stdout)
    return report


@pytest.mark.slow
def test_what_the_prefetch_embeds_the_write_stage_does_not_embed_again(tmp_path: Path) -> None:
    with ScriptedLLM() as llm:
        llm.reply("", reply)
        on = build(tmp_path / "on", llm.base_url)
        off = build(tmp_path / "off", llm.base_url, "build:\n  overlap_vectors: false\n")
    stores_on, stores_off = on["write"]["stores"], off["write"]["stores"]
    assert stores_on["vectors_written"] == stores_off["vectors_written"] > 0
    assert stores_off["embeddings_cached"] == 0
    # Each text is embedded once: by the prefetch (then found in the cache) or by the write stage.
    assert stores_on["embeddings_cached"] + stores_on["embeddings_computed"] == stores_off["embeddings_computed"]


class GatedEmbedder:
    """A `CachedEmbedder` stand-in whose `embed` waits for a gate: the test decides when a batch ends.
    `cache`: the texts already embedded, shared by the stand-ins of one build (one cache file)."""

    def __init__(self, cache: list[str] | None = None) -> None:
        self.gate = threading.Event()
        self.started = threading.Event()
        self.embedded: list[str] = []
        self.cache = cache if cache is not None else []
        self.priorities: list[int] = []  # the scheduling priority of the thread of each call
        self.closed = False

    def missing(self, texts: list[str]) -> list[str]:
        return [t for t in dict.fromkeys(texts) if t not in self.cache]

    def embed(self, texts: list[str]) -> list[list[float]]:
        self.started.set()
        self.priorities.append(os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))
        assert self.gate.wait(30)
        self.embedded += texts
        self.cache += texts
        return [[0.0] for _ in texts]

    def close(self) -> None:
        self.closed = True


class FakeStore:
    """What the prefetch opens ahead of the write stage: only whether it was closed matters here."""

    def __init__(self) -> None:
        self.closed = False

    def close(self) -> None:
        self.closed = True


def test_finish_ends_the_batch_in_progress_leaves_the_rest_and_hands_over_the_store() -> None:
    embedder = GatedEmbedder()
    store = FakeStore()
    prefetch = VectorPrefetch(embedder, lambda: store)  # type: ignore[arg-type, return-value]
    texts = [f"text {i}" for i in range(BATCH * 3 + 5)]
    prefetch.add(texts)  # three full batches queued, five texts waiting for a fourth
    assert embedder.started.wait(30)  # the first batch is being embedded, held at the gate
    finished: list[object] = []
    worker = threading.Thread(target=lambda: finished.append(prefetch.finish()))
    worker.start()
    # finish drops the batches not started (a condition, not a time: the first batch is held at the gate)
    deadline = time.monotonic() + 30
    while prefetch.dropped < BATCH * 2 + 5 and time.monotonic() < deadline:
        time.sleep(0.01)
    embedder.gate.set()
    worker.join(30)
    prefetch.close()
    # The write stage embeds the rest itself, at the build's priority: no more work than finishing it here.
    assert embedder.embedded == texts[:BATCH] and prefetch.embedded == BATCH
    assert prefetch.dropped == BATCH * 2 + 5 and embedder.closed
    assert finished == [store] and not store.closed


def test_a_build_stopped_before_its_write_stage_closes_the_store_opened_ahead() -> None:
    embedder = GatedEmbedder()
    embedder.gate.set()
    store = FakeStore()
    prefetch = VectorPrefetch(embedder, lambda: store)  # type: ignore[arg-type, return-value]
    prefetch.add([f"text {i}" for i in range(BATCH * 2)])
    prefetch.cancel()
    prefetch.close()
    assert store.closed
    assert prefetch.embedded + prefetch.dropped == BATCH * 2


def test_a_store_that_fails_to_open_ahead_is_left_to_the_write_stage() -> None:
    def refuse() -> FakeStore:
        raise RuntimeError("Milvus Lite: the file is in use")

    prefetch = VectorPrefetch(GatedEmbedder(), refuse)  # type: ignore[arg-type, return-value]
    prefetch.add(["chunk one"])
    assert prefetch.finish() is None  # the write stage opens it and reports its own error
    prefetch.close()


@pytest.mark.skipif(sys.platform != "linux", reason="thread priorities are Linux's")
def test_the_worker_runs_below_the_builds_priority() -> None:
    from kgbuild.build.vector_prefetch import NICE, _lower_priority

    seen: list[int] = []

    def worker() -> None:
        _lower_priority()
        seen.append(os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))

    base = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    thread = threading.Thread(target=worker)
    thread.start()
    thread.join(30)
    assert seen == [min(19, base + NICE)]
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == base  # the build's own thread keeps it


def test_texts_are_embedded_once_and_extractions_add_their_entities() -> None:
    embedder = GatedEmbedder()
    embedder.gate.set()
    prefetch = VectorPrefetch(embedder)  # type: ignore[arg-type]
    entities = [Entity(id=Entity.make_id(f"Person {i}", "Person"), name=f"Person {i}", spg_class="Person",
                       description="named" if i % 2 else "", chunk_ids=["c"]) for i in range(BATCH)]
    extraction = ChunkExtraction(chunk_id="c", extractor="llm", entities=entities)
    prefetch.add(["chunk one", "chunk one"])
    prefetch.add_extraction(extraction)
    prefetch.flush()
    deadline = time.monotonic() + 30
    while len(embedder.embedded) < BATCH + 1 and time.monotonic() < deadline:
        time.sleep(0.01)
    prefetch.finish()
    prefetch.close()
    # the chunk text once; each entity as the vector store writes it: "name: description" or the name
    assert embedder.embedded[0] == "chunk one" and embedder.embedded.count("chunk one") == 1
    assert "Person 1: named" in embedder.embedded and "Person 0" in embedder.embedded
    assert prefetch.embedded == BATCH + 1


def test_a_chinese_batch_in_an_empty_workspace_is_left_to_the_write_stage(tmp_path: Path) -> None:
    from kgbuild.build.vector_prefetch import open_prefetch
    from kgbuild.config import parse_config
    from kgbuild.embed.models import ModelPool

    config = parse_config({"workspace": str(tmp_path / "ws")}, file=None, env={})
    assert open_prefetch(config, ModelPool(), ["图灵出生于伦敦。他在布莱切利园工作。"] * 5) is None
    off = parse_config({"workspace": str(tmp_path / "ws"), "vector_store": {"backend": "none"}}, file=None, env={})
    assert open_prefetch(off, ModelPool(), ["Alan Turing was born in London."]) is None


@pytest.mark.skipif(sys.platform != "linux", reason="thread priorities are Linux's")
def test_complete_embeds_what_the_cache_lacks_at_the_builds_priority_while_the_caller_goes_on() -> None:
    cache: list[str] = []
    background, foreground = GatedEmbedder(cache), GatedEmbedder(cache)
    foreground.gate.set()
    store = FakeStore()
    prefetch = VectorPrefetch(background, lambda: store, foreground)  # type: ignore[arg-type, return-value]
    chunks = [f"chunk {i}" for i in range(BATCH * 3)]
    prefetch.add(chunks)
    assert background.started.wait(30)  # the first batch held at the gate, two more queued
    final = [*chunks, "Alan Turing: a merged description", "Computer scientist"]  # what alignment made
    prefetch.complete(lambda: final)
    # the queued batches are dropped; what the cache lacks is embedded alongside, sorted by length, but
    # for the batch the worker holds (finish waits for it)
    left = final[BATCH:]
    deadline = time.monotonic() + 30
    while prefetch.completed < len(left) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert foreground.embedded == sorted(left, key=len) and prefetch.dropped == BATCH * 2
    build_priority = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    assert foreground.priorities and set(foreground.priorities) == {build_priority}  # not the worker's, lowered
    assert background.priorities == [min(19, build_priority + 10)]
    background.gate.set()
    assert prefetch.finish() is store  # waits for the batch in progress and for what complete started
    prefetch.close()
    assert sorted(cache) == sorted(final) and len(cache) == len(final)  # each text embedded once
    assert prefetch.completed == len(left) and foreground.closed and background.closed


def test_complete_that_fails_says_so_in_one_line_and_leaves_the_texts_to_the_sync(
        caplog: pytest.LogCaptureFixture) -> None:
    class Failing(GatedEmbedder):
        def embed(self, texts: list[str]) -> list[list[float]]:
            raise RuntimeError("database is locked")

    background, foreground = GatedEmbedder(), Failing()
    background.gate.set()
    store = FakeStore()
    prefetch = VectorPrefetch(background, lambda: store, foreground)  # type: ignore[arg-type, return-value]
    with caplog.at_level("WARNING", logger="kgbuild.build.vector_prefetch"):
        prefetch.complete(lambda: ["chunk one", "chunk two"])
        assert prefetch.finish() is store  # the store opened ahead still reaches the vector sync
    prefetch.close()
    assert prefetch.completed == 0 and prefetch.failed == "RuntimeError: database is locked"
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 1 and "the vector sync embeds them" in lines[0] and "database is locked" in lines[0]


@pytest.mark.slow
def test_with_the_graph_store_every_text_is_embedded_once_and_written(tmp_path: Path) -> None:
    # The write stage embeds what the prefetch had not reached while the graph store is written; the
    # vector sync then finds every vector in the cache.
    with ScriptedLLM() as llm:
        llm.reply("", reply)
        on = build(tmp_path / "on", llm.base_url, graph=True)
        off = build(tmp_path / "off", llm.base_url, "build:\n  overlap_vectors: false\n", graph=True)
    stores_on, stores_off = on["write"]["stores"], off["write"]["stores"]
    assert stores_on["vectors_written"] == stores_off["vectors_written"] > 0
    assert stores_on["nodes_written"] == stores_off["nodes_written"] > 0
    assert stores_on["embeddings_computed"] == 0  # nothing left for the vector sync to embed
    assert stores_on["embeddings_cached"] == stores_off["embeddings_computed"]


@pytest.mark.slow
def test_a_prefetch_whose_embedding_fails_loses_no_vector(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          caplog: pytest.LogCaptureFixture) -> None:
    from kgbuild.embed.cached import CachedEmbedder

    def broken(self: CachedEmbedder, texts: list[str]) -> list[str]:
        raise RuntimeError("embedding cache unreadable")

    # Only the prefetch asks the cache what it lacks; the vector sync looks its texts up itself.
    monkeypatch.setattr(CachedEmbedder, "missing", broken)
    with ScriptedLLM() as llm, caplog.at_level("WARNING"):
        llm.reply("", reply)
        failed = build(tmp_path / "failed", llm.base_url, graph=True)
        off = build(tmp_path / "off", llm.base_url, "build:\n  overlap_vectors: false\n", graph=True)
    assert failed["write"]["stores"]["vectors_written"] == off["write"]["stores"]["vectors_written"] > 0
    assert failed["write"]["stores"]["embeddings_computed"] == off["write"]["stores"]["embeddings_computed"]
    # one line (on stderr outside pytest: no handler is configured, so logging's last resort prints it)
    said = [r.getMessage() for r in caplog.records if "embedding cache unreadable" in r.getMessage()]
    assert len(said) == 1 and "vector prefetch stopped" in said[0], said
