"""Question embeddings without torch: the forward pass of a BERT sentence model in numpy.

A retrieval-only query embeds one short question. Importing sentence-transformers (and torch)
for that costs seconds on a cold process, more than everything else the query does; the same
numbers come from the model's own weights (safetensors) and tokenizer (tokenizer.json) with a
few matrix products. `LightEncoder.load` accepts only a model directory this pass reproduces
exactly (BertModel, absolute positions, exact GELU, mean pooling, then unit length, as the
bundled all-MiniLM-L6-v2 is); anything else returns None and the caller keeps its usual model.

`QuestionEmbedder` is the `Embedder` the query engine uses: a few texts go through the numpy pass,
a large batch (a graph strategy embedding every node) through the full model, which batches better.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from kgbuild.embed.types import Embedder

# Above this many texts in one call the full model is asked: it pads and batches on all cores.
SMALL_CALL = 16
_MODULES = ["sentence_transformers.models.Transformer", "sentence_transformers.models.Pooling",
            "sentence_transformers.models.Normalize"]


def _read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def _supported(model_dir: Path) -> str | None:
    """Why the numpy pass cannot stand in for the model at `model_dir`, or None when it can."""
    needed = ["modules.json", "config.json", "model.safetensors", "tokenizer.json", "1_Pooling/config.json"]
    missing = [n for n in needed if not (model_dir / n).is_file()]
    if missing:
        return f"missing {', '.join(missing)}"
    modules = [m.get("type") for m in _read_json(model_dir / "modules.json")]
    if modules != _MODULES:
        return f"modules {modules} are not Transformer + Pooling + Normalize"
    cfg = _read_json(model_dir / "config.json")
    if cfg.get("model_type") != "bert" or cfg.get("hidden_act") != "gelu" \
            or cfg.get("position_embedding_type", "absolute") != "absolute":
        return "not a BERT model with exact GELU and absolute positions"
    pooling = _read_json(model_dir / "1_Pooling/config.json")
    others = [k for k, v in pooling.items() if k.startswith("pooling_mode_") and v and k != "pooling_mode_mean_tokens"]
    if not pooling.get("pooling_mode_mean_tokens") or others:
        return "pooling is not mean-only"
    return None


def _erf(x: np.ndarray) -> np.ndarray:
    """erf to within 1.5e-7 (Abramowitz and Stegun 7.1.26), below float32's own rounding at GELU's
    scale; scipy.special would cost a cold query a tenth of a second to import."""
    sign = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    out: np.ndarray = (sign * (1.0 - poly * np.exp(-a * a))).astype(x.dtype)
    return out


@dataclass
class _Layer:
    q: np.ndarray
    qb: np.ndarray
    k: np.ndarray
    kb: np.ndarray
    v: np.ndarray
    vb: np.ndarray
    o: np.ndarray
    ob: np.ndarray
    ln1: tuple[np.ndarray, np.ndarray]
    i: np.ndarray
    ib: np.ndarray
    out: np.ndarray
    outb: np.ndarray
    ln2: tuple[np.ndarray, np.ndarray]


def _layer_norm(x: np.ndarray, weight_bias: tuple[np.ndarray, np.ndarray], eps: float) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    out: np.ndarray = (x - mean) / np.sqrt(var + eps) * weight_bias[0] + weight_bias[1]
    return out


class LightEncoder:
    """all-MiniLM-style sentence embeddings computed in numpy; unit vectors like the full model's."""

    def __init__(self, weights: dict[str, np.ndarray], cfg: dict[str, Any], tokenizer: Any, max_len: int) -> None:
        def w(name: str) -> np.ndarray:
            return weights[name]

        self._heads = int(cfg["num_attention_heads"])
        self._eps = float(cfg.get("layer_norm_eps", 1e-12))
        self._tokenizer = tokenizer
        self._max_len = max_len
        self._word = w("embeddings.word_embeddings.weight")
        self._pos = w("embeddings.position_embeddings.weight")
        self._type = w("embeddings.token_type_embeddings.weight")
        self._ln = (w("embeddings.LayerNorm.weight"), w("embeddings.LayerNorm.bias"))
        self._layers = []
        for n in range(int(cfg["num_hidden_layers"])):
            p = f"encoder.layer.{n}."
            self._layers.append(_Layer(
                w(p + "attention.self.query.weight").T, w(p + "attention.self.query.bias"),
                w(p + "attention.self.key.weight").T, w(p + "attention.self.key.bias"),
                w(p + "attention.self.value.weight").T, w(p + "attention.self.value.bias"),
                w(p + "attention.output.dense.weight").T, w(p + "attention.output.dense.bias"),
                (w(p + "attention.output.LayerNorm.weight"), w(p + "attention.output.LayerNorm.bias")),
                w(p + "intermediate.dense.weight").T, w(p + "intermediate.dense.bias"),
                w(p + "output.dense.weight").T, w(p + "output.dense.bias"),
                (w(p + "output.LayerNorm.weight"), w(p + "output.LayerNorm.bias"))))

    @classmethod
    def load(cls, model_dir: str | Path) -> LightEncoder | None:
        """The encoder for a local model directory, or None when this pass cannot reproduce it."""
        path = Path(model_dir)
        if not path.is_dir() or _supported(path) is not None:
            return None
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        cfg = _read_json(path / "config.json")
        max_len = int(cfg.get("max_position_embeddings", 512))
        st_cfg = path / "sentence_bert_config.json"
        if st_cfg.is_file():
            max_len = min(max_len, int(_read_json(st_cfg).get("max_seq_length") or max_len))
        tokenizer = Tokenizer.from_file(str(path / "tokenizer.json"))
        tokenizer.no_padding()  # one text at a time: no padding, so no mask is needed
        tokenizer.enable_truncation(max_len)  # the window sentence-transformers cuts at (max_seq_length)
        return cls(load_file(str(path / "model.safetensors")), cfg, tokenizer, max_len)

    def encode_one(self, text: str) -> np.ndarray:
        from threadpoolctl import threadpool_limits

        # Matrices of a few dozen rows: one BLAS thread is fastest, and several spin for seconds on a
        # busy machine (0.04 s against 0.2-1 s measured with the 2 cores shared).
        with threadpool_limits(1, user_api="blas"):
            return self._encode(text)

    def _encode(self, text: str) -> np.ndarray:
        enc = self._tokenizer.encode(text)
        ids = np.asarray(enc.ids, dtype=np.int64)
        types = np.asarray(enc.type_ids, dtype=np.int64)
        x = self._word[ids] + self._pos[: len(ids)] + self._type[types]
        x = _layer_norm(x, self._ln, self._eps)
        n, dim = x.shape
        head = dim // self._heads
        scale = np.float32(1.0 / np.sqrt(head))
        for layer in self._layers:
            q = (x @ layer.q + layer.qb).reshape(n, self._heads, head).transpose(1, 0, 2)
            k = (x @ layer.k + layer.kb).reshape(n, self._heads, head).transpose(1, 2, 0)
            v = (x @ layer.v + layer.vb).reshape(n, self._heads, head).transpose(1, 0, 2)
            scores = (q @ k) * scale
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            scores /= scores.sum(-1, keepdims=True)
            ctx = (scores @ v).transpose(1, 0, 2).reshape(n, dim)
            x = _layer_norm(ctx @ layer.o + layer.ob + x, layer.ln1, self._eps)
            hidden = x @ layer.i + layer.ib
            hidden = hidden * 0.5 * (1.0 + _erf(hidden / np.float32(np.sqrt(2.0))))
            x = _layer_norm(hidden @ layer.out + layer.outb + x, layer.ln2, self._eps)
        pooled = x.mean(0)
        norm = float(np.linalg.norm(pooled))
        out: np.ndarray = (pooled / max(norm, 1e-12)).astype(np.float32)
        return out


class QuestionEmbedder:
    """An `Embedder` that answers small calls with a `LightEncoder` (loaded on the first one) and
    large ones with `full` (the project's model, loaded only if such a call comes). Same name and
    dimension as `full`, so the persistent cache and the vector store see one model. It keeps the
    seconds spent loading and embedding, for the query's timing breakdown."""

    def __init__(self, model_dir: str, full: Embedder, light: LightEncoder | None = None) -> None:
        self.model_dir = model_dir
        self.full = full
        self.name = full.name
        self.load_seconds = 0.0
        self.embed_seconds = 0.0
        self._light = light
        self._lock = threading.Lock()

    @property
    def dim(self) -> int:
        return self.full.dim

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        start = time.perf_counter()
        if len(texts) > SMALL_CALL:
            out = self.full.embed(texts)
        else:
            if self._light is None:
                self._light = LightEncoder.load(self.model_dir)
                self.load_seconds += time.perf_counter() - start
                start = time.perf_counter()
            light = self._light
            if light is None:
                out = self.full.embed(texts)
            else:
                with self._lock:  # `serve` asks from several threads; the BLAS thread limit is process-wide
                    out = [light.encode_one(t).tolist() for t in texts]
        self.embed_seconds += time.perf_counter() - start
        return out

    def close(self) -> None:
        self.full.close()


def question_embedder(model_dir: str, full: Embedder, light: LightEncoder | None = None) -> QuestionEmbedder | None:
    """A `QuestionEmbedder` over the model at `model_dir` (`light`: its encoder, already loaded), or
    None when the numpy pass cannot reproduce that model (then `full` answers everything, as before)."""
    path = Path(model_dir)
    if not path.is_dir() or _supported(path) is not None:
        return None
    return QuestionEmbedder(model_dir, full, light)
