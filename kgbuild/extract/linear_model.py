"""A trained sparse linear classifier over string features: the pair models' form.

The offline extractors' rules are keyed to sentence shapes. A multinomial logistic regression over string
features of a candidate pair of names (its dependency path or the words between, the classes of its ends) was
trained on the hand-labelled gold sets by `bench/pair_model.py` (English) and `bench/zh_pair_model.py`
(Chinese), fitted with scikit-learn by `bench/sparse_fit.py`, and scored leaving one gold set out
(docs/offline_extraction.md, "Fifteenth session"; docs/chinese.md, "Pair model"). None is shipped; the Chinese
extractor adds a given model's relations.

Only inference lives here, in plain Python: a pair has a few dozen features, so a dict lookup per feature
beats building arrays, and the extractor needs neither numpy nor scikit-learn at run time.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

FORMAT = "kgbuild-sparse-linear-1"


@dataclass(frozen=True)
class Prediction:
    label: str
    probability: float


@dataclass(frozen=True)
class SparseLinearModel:
    """Softmax over `labels`: score(label) = bias[label] + sum of weights[feature][label] over the features.

    `labels[0]` is the "no relation" label. `texts` maps a label to what the extractor writes for it (a
    predicate such as "born in"); `meta` records how the model was trained (sets, counts, threshold)."""

    labels: tuple[str, ...]
    bias: tuple[float, ...]
    weights: Mapping[str, Mapping[int, float]]
    threshold: float
    texts: Mapping[str, str]
    meta: Mapping[str, Any]

    def probabilities(self, features: Iterable[str]) -> list[float]:
        scores = list(self.bias)
        for feature in set(features):
            for k, w in self.weights.get(feature, {}).items():
                scores[k] += w
        top = max(scores)
        exps = [math.exp(s - top) for s in scores]
        total = sum(exps)
        return [e / total for e in exps]

    def predict(self, features: Iterable[str]) -> Prediction:
        """The most probable label and its probability (labels[0] when nothing else wins)."""
        probs = self.probabilities(features)
        k = max(range(len(probs)), key=probs.__getitem__)
        return Prediction(self.labels[k], probs[k])

    def to_json(self) -> dict[str, Any]:
        """Plain data (what the Chinese extractor hashes into its cache key)."""
        return {"format": FORMAT, "labels": list(self.labels), "bias": [round(b, 5) for b in self.bias],
                "threshold": self.threshold, "texts": dict(self.texts), "meta": dict(self.meta),
                "weights": {f: {str(k): round(w, 5) for k, w in ws.items()} for f, ws in sorted(self.weights.items())}}
