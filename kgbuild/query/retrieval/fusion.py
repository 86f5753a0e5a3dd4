"""Fusing ranked signals without learned weights: reciprocal rank or min-max normalised sums."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import TypeVar

from kgbuild.query_settings import FusionMethod

K = TypeVar("K", bound=Hashable)


def normalise(scores: Mapping[K, float]) -> dict[K, float]:
    """Min-max to [0, 1]; a single or constant list maps to 1 (present beats absent)."""
    if not scores:
        return {}
    lo, hi = min(scores.values()), max(scores.values())
    if hi - lo <= 1e-12:
        return {key: 1.0 for key in scores}
    return {key: (value - lo) / (hi - lo) for key, value in scores.items()}


def fuse(signals: Mapping[str, Mapping[K, float]], weights: Mapping[str, float], *,
         method: FusionMethod = "rrf", rrf_k: float = 60.0) -> dict[K, float]:
    """One score per item from several {item: raw score} signals.

    rrf: sum of weight / (rrf_k + rank), robust to signals on incomparable scales (BM25 is
    unbounded, cosine is not, PPR mass is tiny). minmax: sum of weight x normalised score; keeps
    how far ahead an item is, which rank fusion throws away. An item missing from a signal gets
    nothing from it.
    """
    fused: dict[K, float] = {}
    for name, scores in signals.items():
        weight = weights.get(name, 0.0)
        if weight == 0.0 or not scores:
            continue
        if method == "rrf":
            ranked = sorted(scores, key=lambda key: -scores[key])
            for rank, key in enumerate(ranked, start=1):
                fused[key] = fused.get(key, 0.0) + weight / (rrf_k + rank)
        else:
            for key, value in normalise(scores).items():
                fused[key] = fused.get(key, 0.0) + weight * value
    return fused
