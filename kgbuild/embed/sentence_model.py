"""The one loader of a local sentence-transformers model (the pool in models.py and the static table
distiller in static.py both load through it), never reaching for a model hub."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kgbuild.embed.device import CUDA_DTYPE, Device
from kgbuild.errors import ModelLoadError

# A loaded sentence-transformers model; `Any` because the library is an optional dependency.
SentenceModel = Any


def load_sentence_model(path: str, setting: str, device: Device = "cpu") -> SentenceModel:
    """Load a local sentence-transformers model on `device`, never reaching for a model hub.
    `setting` is the config key named in every error."""
    try:
        from sentence_transformers import SentenceTransformer
    except ImportError:
        raise ModelLoadError(
            f"config {setting}",
            "sentence embeddings need sentence-transformers",
            "pip install torch==2.13.0 first, then pip install 'kgbuild[embed]'",
        ) from None
    if _looks_like_path(path) and not Path(path).expanduser().exists():
        raise ModelLoadError(f"config {setting}", f"no model directory at '{path}'",
                             f"set {setting} to a local sentence-transformers model directory, or to 'bundled'")
    # Never reach for a hub at run time: models must be local.
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    _quiet_transformers()
    try:
        model = SentenceTransformer(path, device=device)
        if device == "cuda" and CUDA_DTYPE == "float16":
            model.half()  # measured faster than fp32 on the GPU, same ranking (docs/scale.md)
        return model
    except Exception as exc:  # noqa: BLE001 - the library raises OSError, ValueError, hub errors...
        raise ModelLoadError(f"config {setting}", f"cannot load '{path}': {exc}".splitlines()[0]) from None


def _looks_like_path(value: str) -> bool:
    # "org/model" may be a cached hub name; a path starts from the root, a home or a dot.
    return value.startswith(("/", "~", "./", "../")) or Path(value).is_absolute()


def _quiet_transformers() -> None:
    # transformers draws a "Loading weights" bar on stderr for every load; kgbuild has its own progress.
    try:
        from transformers.utils import logging as hf_logging
    except ImportError:
        return
    disable: Callable[[], None] = hf_logging.disable_progress_bar  # the library's own function is untyped
    disable()
