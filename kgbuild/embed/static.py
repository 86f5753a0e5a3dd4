"""embedding.backend: static -- a table of token vectors distilled locally from the configured
sentence-transformers model (kgbuild.embed.static_distil, in model2vec's file layout; model2vec
reads it), a text's vector being the mean of its tokens' vectors.

No transformer runs at embed time, so 2Wiki's 45k vector texts embed in a few seconds on 2 cores
(int8 ONNX MiniLM: ~85 s); the price is retrieval quality (docs/embedding_backend.md has the
measured HotpotQA Recall@5). The table is made once per machine from the installed model: every
token of the model's vocabulary goes through the model alone, the outputs are rotated by PCA
(keeping all dimensions, so the vectors are as wide as the model's, 384 for MiniLM) and weighted
down for frequent tokens (SIF). It is kept under `cache_root()/static/<model>-<fingerprint>-v2/`.

Distillation runs in a child process: it loads PyTorch and the transformer (which a static build
otherwise never needs), draws progress bars and logs load reports, and none of that should stay
in, or write over, the process that asked.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from kgbuild.embed.backend import Encoded, EncodeStats, cache_root, resolve_backend
from kgbuild.errors import ModelLoadError

# Bumped when the distillation recipe changes, so tables made by an older kgbuild are not reused.
_VERSION = "2"  # 2: kgbuild's own distillation (static_distil), not model2vec.distill
# A finished table's folder holds these (model2vec's layout); the folder appears only by a rename.
_FILES = ("model.safetensors", "tokenizer.json", "config.json")


def static_model(source: str, key: str, setting: str) -> Path:
    """The folder of the static model distilled from the sentence-transformers model at `source`,
    made on first use under `cache_root()/static/<key>-v2/`; `key` names the model's files, so a
    changed model is distilled again. `setting` is named in errors."""
    folder = cache_root() / "static" / f"{key}-v{_VERSION}"
    if folder.is_dir():
        return folder  # complete: it only ever appears by the rename below
    resolve_backend("static", bundled=False)  # stops with the install line when model2vec is missing
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", suffix=".tmp", dir=folder.parent))
    except OSError as exc:
        raise _unwritable(folder, setting, exc) from None
    try:
        _distil(source, work, setting)
        # mkdtemp (and the safetensors writer) make them private; the cache is as readable as the model.
        os.chmod(work, 0o755)
        for path in work.iterdir():
            os.chmod(path, 0o644)
        try:
            os.replace(work, folder)
        except OSError:
            # Another process renamed its table into place first: use that one (same model, same recipe).
            if not folder.is_dir():
                raise
    except OSError as exc:
        raise _unwritable(folder, setting, exc) from None
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return folder


def _unwritable(folder: Path, setting: str, exc: OSError) -> ModelLoadError:
    return ModelLoadError(f"config {setting}", f"cannot write the static model under {folder.parent}: {exc.strerror}",
                          "set KGBUILD_CACHE_DIR to a writable directory, or embedding.backend: auto")


def _distil(source: str, target: Path, setting: str) -> None:
    """Run `python -m kgbuild.embed.static SOURCE TARGET` with this kgbuild on the path."""
    root = str(Path(__file__).resolve().parents[2])  # the folder that holds kgbuild/
    env = {**os.environ, "HF_HUB_OFFLINE": "1",
           "PYTHONPATH": os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p)}
    done = subprocess.run([sys.executable, "-m", "kgbuild.embed.static", source, str(target)],
                          env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0 or not all((target / name).is_file() for name in _FILES):
        lines = [line for line in done.stderr.strip().splitlines() if line.strip()]
        why = lines[-1].strip() if lines else f"exit status {done.returncode}"
        raise ModelLoadError(f"config {setting}", f"cannot distil a static model from '{source}': {why}",
                             "set embedding.backend: auto")


def distil_into(source: str, target: Path) -> None:
    """The child's work: distil `source` into the empty folder `target` (kgbuild.embed.static_distil)."""
    from kgbuild.embed.sentence_model import load_sentence_model
    from kgbuild.embed.static_distil import distil

    distil(load_sentence_model(source, "embedding.model"), source, target)


class StaticEncoder:
    """A distilled static model: a text's vector is the (SIF-weighted) mean of its tokens' vectors,
    scaled to unit length. There is no window, so no text is ever cut (`max_tokens` 0, nothing
    counted as truncated); tokens the vocabulary lacks are skipped, and a text with none it knows
    gets the vector of the unknown token."""

    def __init__(self, folder: Path) -> None:
        from model2vec import StaticModel

        self.folder = folder
        self.backend = "static"
        self.max_tokens = 0
        self.stats = EncodeStats()
        # float32 on load: averaging float16 rows was slower (numpy emulates half precision on CPUs).
        self._model: Any = StaticModel.from_pretrained(folder, max_length=None, quantize_to="float32")
        self.dim = int(self._model.dim)
        unknown = self._model.unk_token_id
        self._unknown = (np.asarray(self._model.embedding[unknown], dtype=np.float32)
                         if unknown is not None else np.zeros(self.dim, dtype=np.float32))

    def encode(self, texts: Sequence[str], batch_size: int) -> Encoded:
        if not texts:
            return Encoded(np.zeros((0, self.dim), dtype=np.float32), 0)
        # No worker pool (model2vec starts one past 10,000 texts): the tokenizer already spreads a
        # batch over the cores, and what is left is a gather and a mean.
        matrix = np.asarray(self._model.encode(list(texts), max_length=None, normalize=False,
                                               batch_size=max(batch_size, 1), use_multiprocessing=False,
                                               show_progress_bar=False), dtype=np.float32)
        norms = np.linalg.norm(matrix, axis=1)
        matrix[norms == 0] = self._unknown
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        self.stats.add(len(texts), 0)
        return Encoded(matrix / np.where(norms > 0, norms, 1.0), 0)


if __name__ == "__main__":  # the child process of _distil
    if len(sys.argv) != 3:
        sys.exit("usage: python -m kgbuild.embed.static SOURCE_MODEL TARGET_FOLDER")
    distil_into(sys.argv[1], Path(sys.argv[2]))
