"""How a sentence-transformers model is run: PyTorch as loaded, or ONNX Runtime on a graph exported
locally from the same loaded model (optionally with int8 weights).

The model is always loaded through sentence-transformers (its tokenizer, its window
`max_seq_length`, its modules); the ONNX graph is traced from that loaded model, so no file is
ever fetched. The exported graph is cached under the user cache directory, keyed by the model's
files, and made once per machine (about 15 s for MiniLM on 2 cores).

Measured on 2Wiki texts with the bundled MiniLM, 2 cores (bench notes in docs/embedding_backend.md):
int8 with per-channel MatMul weights gives cosine 0.991-0.993 to the PyTorch vectors on average
(per-tensor int8 fell to 0.95). What made int8 fast was the graph, not the weights: traced with
eager attention and run with ONNX Runtime's memory arena, 2Wiki's 6,247 chunks embed in 51 s
(104 s with the SDPA export and no arena) and its 37,898 entity texts in 34 s (50 s). ONNX
Runtime's offline BERT fusions (fused Attention, quantised or not) were slower than this graph.
"""

from __future__ import annotations

import json
import os
import tempfile
import threading
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import numpy as np

from kgbuild.errors import ModelLoadError

Backend = Literal["torch", "onnx", "onnx-int8", "static"]
BackendSetting = Literal["auto", "torch", "onnx", "onnx-int8", "static"]
# static: a token table distilled from the model (kgbuild.embed.static); opt-in only.
BACKENDS: tuple[str, ...] = ("torch", "onnx", "onnx-int8", "static")

# Bumped when the export itself changes, so graphs made by an older kgbuild are not reused.
_EXPORT_VERSION = "2"  # 2: traced with eager attention (see _export)
# Texts are sorted by length first, so short texts go many to a batch and long ones few. A batch's
# attention scores take rows x heads x length^2 floats, so the budget is on rows x length^2
# (64 rows of 128 tokens, 16 of 256): 16,384 token positions per batch at every width let a
# 2Wiki build peak at 3.4 GB, the scores of 64 x 256-token rows being ~200 MB per layer output.
_BATCH_SQUARES = 64 * 128 * 128
_BATCH_ROWS = 256


def onnx_available() -> bool:
    """Whether ONNX Runtime and the ONNX package (for the export and quantisation) are installed."""
    import importlib.util

    return all(importlib.util.find_spec(m) is not None for m in ("onnxruntime", "onnx"))


def static_available() -> bool:
    """Whether model2vec (embedding.backend: static, kgbuild.embed.static) is installed."""
    import importlib.util

    return importlib.util.find_spec("model2vec") is not None


def resolve_backend(setting: str, *, bundled: bool) -> Backend:
    """The backend `embedding.backend` asks for. `auto`: int8 ONNX for the bundled MiniLM (its
    retrieval quality is checked by bench/build_offline.py) when ONNX Runtime is installed, else
    PyTorch; a model of the user's own runs on PyTorch unless a backend is named. `auto` never
    picks `static`: it trades retrieval quality for speed, which only the user can decide."""
    if setting == "auto":
        return "onnx-int8" if bundled and onnx_available() else "torch"
    if setting not in BACKENDS:
        raise ModelLoadError("config embedding.backend", f"unknown backend {setting!r}",
                             "use auto, torch, onnx, onnx-int8 or static")
    if setting == "static" and not static_available():
        # Here, not at the first embedding: a build stops before its extraction, not after it.
        raise ModelLoadError("config embedding.backend", "static needs model2vec, which is not installed",
                             "pip install 'kgbuild[static]', or set embedding.backend: auto")
    return setting  # type: ignore[return-value]  # checked against BACKENDS just above


def cache_root() -> Path:
    """$KGBUILD_CACHE_DIR, else $XDG_CACHE_HOME/kgbuild, else ~/.cache/kgbuild."""
    explicit = os.environ.get("KGBUILD_CACHE_DIR")
    if explicit:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg).expanduser() if xdg else Path.home() / ".cache") / "kgbuild"


def default_threads() -> int:
    """The cores this process may run on (a container's CPU set, not the host's core count)."""
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except AttributeError:  # not on Linux
        return max(os.cpu_count() or 1, 1)


@dataclass
class EncodeStats:
    """What the encoder did since it was made: texts embedded and how many were cut at the window."""

    texts: int = 0
    truncated: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add(self, texts: int, truncated: int) -> None:
        with self._lock:
            self.texts += texts
            self.truncated += truncated


@dataclass(frozen=True)
class Encoded:
    """Vectors of one call, and how many of its texts were cut at the model's window."""

    vectors: np.ndarray
    truncated: int


class TorchEncoder:
    """The loaded sentence-transformers model as it is, counting texts longer than its window."""

    def __init__(self, model: Any) -> None:
        self.model = model
        self.backend: Backend = "torch"
        self.max_tokens = int(getattr(model, "max_seq_length", 0) or 0)
        self.stats = EncodeStats()
        self._lengths = _Lengths.of_model(model)

    def encode(self, texts: Sequence[str], batch_size: int) -> Encoded:
        truncated = self._lengths.over(texts, self.max_tokens)
        self.stats.add(len(texts), truncated)
        matrix = self.model.encode(list(texts), batch_size=batch_size, convert_to_numpy=True,
                                   show_progress_bar=False, normalize_embeddings=True)
        return Encoded(np.asarray(matrix, dtype=np.float32), truncated)


class OnnxEncoder:
    """The same model's forward pass (transformer, pooling, normalisation) as one ONNX graph.

    Texts are tokenised by the model's own tokenizer, sorted by length so a batch pads little,
    and cut at the model's window `max_seq_length` exactly as sentence-transformers cuts them
    (the first tokens and the closing [SEP]); `stats.truncated` counts the texts that were cut.
    """

    def __init__(self, inputs: GraphInputs, graph: Path, backend: Backend, threads: int | None = None, *,
                 background: bool = False) -> None:
        """`background`: a session for work that only fills idle time (an LLM build's vector prefetch):
        its threads do not spin while they wait for work, leaving the cores to the threads that matter."""
        import onnxruntime as ort

        self.backend = backend
        self.graph = graph
        self.max_tokens = inputs.max_tokens
        self.stats = EncodeStats()
        self._lengths = inputs.lengths
        options = ort.SessionOptions()
        # Intra-op threads = the cores we have; one inter-op thread (the graph is a chain).
        options.intra_op_num_threads = threads or default_threads()
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        if background:
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        # The arena keeps the largest batch's activations for the life of the session (bounded by
        # _BATCH_SQUARES), and that is what makes it fast: without it every run maps and zeroes
        # fresh pages for each activation, which cost 1.4-1.8x the time on 2Wiki chunks.
        options.enable_cpu_mem_arena = True
        self._session = ort.InferenceSession(str(graph), options, providers=["CPUExecutionProvider"])
        self._inputs = {i.name for i in self._session.get_inputs()}
        self._pad = inputs.pad

    def encode(self, texts: Sequence[str], batch_size: int) -> Encoded:
        ids = self._lengths.ids(texts)
        limit = self.max_tokens or max((len(x) for x in ids), default=1)
        truncated = 0
        for i, row in enumerate(ids):
            if len(row) > limit:
                ids[i] = row[: limit - 1] + row[-1:]  # keep the closing special token, as the tokenizer does
                truncated += 1
        self.stats.add(len(texts), truncated)
        dim = 0
        out: np.ndarray | None = None
        order = sorted(range(len(ids)), key=lambda j: len(ids[j]))
        start = 0
        while start < len(order):
            width, end = len(ids[order[start]]), start
            while end < len(order) and end - start < _BATCH_ROWS:
                width = max(width, len(ids[order[end]]))
                if (end - start + 1) * width * width > _BATCH_SQUARES and end > start:
                    break
                end += 1
            rows = order[start:end]
            width = max(len(ids[j]) for j in rows)
            input_ids = np.full((len(rows), width), self._pad, dtype=np.int64)
            mask = np.zeros((len(rows), width), dtype=np.int64)
            for r, j in enumerate(rows):
                input_ids[r, : len(ids[j])] = ids[j]
                mask[r, : len(ids[j])] = 1
            feed = {"input_ids": input_ids, "attention_mask": mask, "token_type_ids": np.zeros_like(input_ids)}
            vectors = self._session.run(None, {k: v for k, v in feed.items() if k in self._inputs})[0]
            if out is None:
                dim = int(vectors.shape[1])
                out = np.zeros((len(ids), dim), dtype=np.float32)
            out[rows] = vectors
            start = end
        return Encoded(out if out is not None else np.zeros((0, dim), dtype=np.float32), truncated)


class _Lengths:
    """Token ids of texts from the model's own tokenizer, untruncated (to count and cut ourselves):
    its fast (`tokenizers`) form where it has one, else the slow tokenizer."""

    def __init__(self, fast: Any, slow: Any = None) -> None:
        self._fast = fast
        self._slow = slow if slow is not None else fast

    @classmethod
    def of_model(cls, model: Any) -> _Lengths:
        tokenizer = getattr(model, "tokenizer", None)
        fast = getattr(tokenizer, "backend_tokenizer", None)
        if fast is not None:
            # A copy: the model's own tokenizer keeps its truncation and padding for the torch path.
            from tokenizers import Tokenizer

            fast = Tokenizer.from_str(fast.to_str())
            fast.no_truncation()
            fast.no_padding()
        return cls(fast, tokenizer)

    @property
    def fast(self) -> Any:
        """The `tokenizers.Tokenizer` (None: the model has only a slow tokenizer)."""
        return self._fast

    def ids(self, texts: Sequence[str]) -> list[list[int]]:
        if self._fast is not None:
            return [list(e.ids) for e in self._fast.encode_batch(list(texts))]
        tokenize: Any = self._slow
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out: list[list[int]] = tokenize(list(texts), truncation=False, verbose=False)["input_ids"]
        return out

    def over(self, texts: Sequence[str], limit: int) -> int:
        if not limit or self._slow is None:
            return 0
        return sum(len(x) > limit for x in self.ids(texts))


@dataclass(frozen=True)
class GraphInputs:
    """What running an exported graph takes besides the graph: the model's tokenizer, its window in
    tokens (0: none), its padding id and the width of its vectors.

    Saved beside the graph when it is exported (`tokenizer.json`, the model's own fast tokenizer as it
    tokenises, untruncated and unpadded; `inputs.json`, the numbers), so a later process runs the graph
    without loading the model: importing sentence-transformers, transformers and torch took ~8
    CPU-seconds of a fresh process on 2 cores, reading these files and making the session ~0.5 s."""

    lengths: _Lengths
    max_tokens: int
    pad: int
    dim: int

    @classmethod
    def of_model(cls, model: Any) -> GraphInputs:
        # sentence-transformers 5 renamed the width's method (the old name warns)
        width = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
        return cls(_Lengths.of_model(model), int(getattr(model, "max_seq_length", 0) or 0),
                   int(getattr(model.tokenizer, "pad_token_id", 0) or 0), int(width()))

    def save(self, folder: Path) -> None:
        """Written beside the graph unless readable ones are there; nothing for a model with no fast
        tokenizer (its graph then needs the model loaded each time, as before)."""
        if self.lengths.fast is None or GraphInputs.read(folder) is not None:
            return
        text = self.lengths.fast.to_str()
        _atomic(folder / _TOKENIZER, lambda tmp: tmp.write_text(text, encoding="utf-8"))
        numbers = json.dumps({"max_seq_length": self.max_tokens, "pad_token_id": self.pad, "dim": self.dim})
        _atomic(folder / _INPUTS, lambda tmp: tmp.write_text(numbers, encoding="utf-8"))  # last: the mark

    @classmethod
    def read(cls, folder: Path) -> GraphInputs | None:
        """The inputs saved beside a graph; None when there are none (a graph exported before they were
        saved) or they cannot be read: the caller loads the model, which saves them."""
        try:
            numbers = json.loads((folder / _INPUTS).read_text(encoding="utf-8"))
            from tokenizers import Tokenizer

            fast = Tokenizer.from_str((folder / _TOKENIZER).read_text(encoding="utf-8"))
            return cls(_Lengths(fast), int(numbers["max_seq_length"]), int(numbers["pad_token_id"]),
                       int(numbers["dim"]))
        except Exception:  # noqa: BLE001 - a missing, partial or foreign file: the model is loaded instead
            return None


_INPUTS = "inputs.json"
_TOKENIZER = "tokenizer.json"


def _graph_file(key: str, backend: Backend) -> Path:
    if backend not in ("onnx", "onnx-int8"):
        raise ValueError(backend)
    folder = cache_root() / "onnx" / f"{key}-v{_EXPORT_VERSION}"
    return folder / ("model.onnx" if backend == "onnx" else "model-int8.onnx")


def exported_graph(key: str, backend: Backend) -> tuple[Path, GraphInputs] | None:
    """The graph an earlier run exported for the model `key` names, with its inputs, read without
    loading the model; None when either is missing (`onnx_graph` then makes them from the model)."""
    target = _graph_file(key, backend)
    if not target.exists():
        return None
    inputs = GraphInputs.read(target.parent)
    return None if inputs is None else (target, inputs)


def onnx_graph(model: Any, key: str, backend: Backend, setting: str) -> tuple[Path, GraphInputs]:
    """The exported (and for onnx-int8 quantised) graph of `model` and its inputs, made on first use
    under `cache_root()/onnx/<key>/`; `key` names the model's files, so a changed model is re-exported."""
    target = _graph_file(key, backend)
    folder, fp32 = target.parent, target.parent / "model.onnx"
    inputs = GraphInputs.of_model(model)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if not target.exists():
            if not fp32.exists():
                _atomic(fp32, lambda tmp: _export(model, tmp))
            if backend == "onnx-int8":
                _atomic(target, lambda tmp: _quantise(fp32, tmp))
        inputs.save(folder)
    except OSError as exc:
        raise ModelLoadError(f"config {setting}", f"cannot write the ONNX graph under {folder}: {exc.strerror}",
                             "set KGBUILD_CACHE_DIR to a writable directory, or embedding.backend: torch") from None
    except Exception as exc:  # noqa: BLE001 - the exporter raises many kinds for models it cannot trace
        raise ModelLoadError(f"config {setting}", f"cannot export the model to ONNX: {exc}".splitlines()[0],
                             "set embedding.backend: torch") from None
    return target, inputs


def supports_onnx(model: Any) -> str:
    """'' when the model is a text transformer followed by pooling (and normalisation), which is what
    the export covers; otherwise why not."""
    names = [type(m).__name__ for m in model]
    if not names or names[0] != "Transformer" or any(n not in ("Transformer", "Pooling", "Normalize") for n in names):
        return f"modules {names} (only Transformer, Pooling, Normalize are exported)"
    return ""


def _export(model: Any, path: Path) -> None:
    import torch

    class _Forward(torch.nn.Module):
        def __init__(self, inner: Any) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
            features = {"input_ids": input_ids, "attention_mask": attention_mask, "token_type_ids": token_type_ids}
            return self.inner(features)["sentence_embedding"]

    sample = model.tokenizer(["a first example sentence", "and a second, somewhat longer one"],
                             padding=True, return_tensors="pt")
    token_types = sample.get("token_type_ids", torch.zeros_like(sample["input_ids"]))
    # Traced with eager attention: the SDPA path (transformers' default) exports its masking as
    # Where/IsNaN over every attention score, a fifth of the int8 graph's time; eager attention
    # exports a plain additive mask (the int8 graph ran 1.35x faster on 2Wiki chunks).
    inner: Any = getattr(model[0], "auto_model", None)
    previous = getattr(getattr(inner, "config", None), "_attn_implementation", None)
    eager = previous not in (None, "eager") and hasattr(inner, "set_attn_implementation")
    if eager:
        inner.set_attn_implementation("eager")
    try:
        _trace(_Forward(model).eval(), sample, token_types, path)
    finally:
        if eager:
            inner.set_attn_implementation(previous)


def _trace(forward: Any, sample: Any, token_types: Any, path: Path) -> None:
    import torch

    names = ["input_ids", "attention_mask", "token_type_ids"]
    axes: dict[str, dict[int, str]] = {n: {0: "batch", 1: "tokens"} for n in names}
    axes["sentence_embedding"] = {0: "batch"}
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")  # tracer notes on Python-side checks that hold for every input
        torch.onnx.export(forward, (sample["input_ids"], sample["attention_mask"], token_types),
                          str(path), input_names=names, output_names=["sentence_embedding"], dynamic_axes=axes,
                          opset_version=17, dynamo=False)


def _quantise(source: Path, path: Path) -> None:
    import logging

    from onnxruntime.quantization import QuantType, quantize_dynamic

    # Only the MatMul weights, per output channel: per-tensor int8 (the default) lost too much
    # (mean cosine to fp32 0.95 against 0.993, measured on 2Wiki texts).
    root = logging.getLogger()
    level = root.level
    root.setLevel(max(level, logging.ERROR))  # the quantiser logs "consider pre-processing" on the root logger
    try:
        quantize_dynamic(str(source), str(path), weight_type=QuantType.QInt8, op_types_to_quantize=["MatMul"],
                         per_channel=True)
    finally:
        root.setLevel(level)


def _atomic(target: Path, make: Any) -> None:
    """`make(tmp)` then rename: two processes exporting at once never read a half-written file."""
    fd, tmp = tempfile.mkstemp(prefix=target.stem + ".", suffix=".tmp" + target.suffix, dir=target.parent)
    os.close(fd)
    try:
        make(Path(tmp))
        os.chmod(tmp, 0o644)  # mkstemp makes it private; the cache is as readable as the model it came from
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
