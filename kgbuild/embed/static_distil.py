"""Distilling a sentence-transformers model into a static token table (model2vec's file layout).

Every token of the model's vocabulary goes through the loaded model alone ([CLS] token [SEP]) and
the model's own pooling; the outputs are centred and rotated by PCA (keeping every dimension, so
the table is as wide as the model) and each row is weighted down by how frequent its token is
likely to be (SIF weighting with a Zipf prior over the vocabulary's order, coefficient 1e-4, as
model2vec does by default). A text's vector is then the mean of its tokens' rows.

Why not `model2vec.distill`: its extra pins transformers below 5.4 (and tokenizers with it), which
would hold back the transformer that every other kgbuild stage uses; the recipe itself is the
forward pass, a PCA and a weighting, done here with what kgbuild already has (PyTorch through
sentence-transformers, numpy). The table is saved with model2vec's `StaticModel`, so reading it
back is model2vec's own code.

Measured on HotpotQA (994 passages, 100 questions, dense Recall@5, 2 cores): this recipe 0.530,
`model2vec.distill` 0.545 (PCA to 256), MiniLM itself 0.785. The parameters are model2vec's
published defaults, not tuned on those questions.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

SIF_COEFFICIENT = 1e-4
_BATCH = 1024  # one-token inputs: 1,024 of them are a small batch even for a large model


def token_table(model: Any) -> np.ndarray:
    """One row per vocabulary id: the model's pooled output for that token alone."""
    import torch

    tokenizer = model.tokenizer
    size = len(tokenizer.get_vocab())
    first, last = tokenizer.cls_token_id, tokenizer.sep_token_id
    transformer, pooling = model[0], model[1]
    rows: list[np.ndarray] = []
    with torch.no_grad():
        for start in range(0, size, _BATCH):
            ids = torch.arange(start, min(start + _BATCH, size)).unsqueeze(1)
            parts = [ids] if first is None else [torch.full_like(ids, first), ids]
            if last is not None:
                parts.append(torch.full_like(ids, last))
            batch = torch.cat(parts, dim=1)
            features = {"input_ids": batch, "attention_mask": torch.ones_like(batch),
                        "token_type_ids": torch.zeros_like(batch)}
            rows.append(pooling(transformer(features))["sentence_embedding"].float().numpy())
    return np.concatenate(rows)


def weighted_rotation(table: np.ndarray) -> np.ndarray:
    """PCA rotation (all dimensions kept) and SIF weights by vocabulary rank."""
    centred = table - table.mean(axis=0)
    _, _, axes = np.linalg.svd(centred, full_matrices=False)
    rotated = centred @ axes.T
    rank = np.arange(1, len(table) + 1, dtype=np.float64)
    probability = (1.0 / rank) / (1.0 / rank).sum()
    weights = SIF_COEFFICIENT / (SIF_COEFFICIENT + probability)
    return (rotated * weights[:, None]).astype(np.float32)


def distil(model: Any, source: str, target: Path) -> None:
    """Write the static table of the loaded `model` (from `source`) into the folder `target`."""
    from model2vec import StaticModel
    from tokenizers import Tokenizer

    vectors = weighted_rotation(token_table(model))
    tokenizer = Tokenizer.from_str(model.tokenizer.backend_tokenizer.to_str())
    config = {"tokenizer_name": source, "apply_pca": int(vectors.shape[1]), "sif_coefficient": SIF_COEFFICIENT,
              "hidden_dim": int(vectors.shape[1]), "normalize": True, "pooling": "mean"}
    # Saved as float16 (half the file; the encoder widens it on load), as model2vec saves its own.
    StaticModel(vectors=vectors.astype(np.float16), tokenizer=tokenizer, config=config, normalize=True,
                base_model_name=source, max_length=None).save_pretrained(str(target))
