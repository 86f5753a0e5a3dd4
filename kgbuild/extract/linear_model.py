"""A trained sparse linear classifier over string features, as the offline extractors ship it.

The offline extractors' rules are keyed to sentence shapes; what they miss on a new writer's text is mostly
a relation between two names they did find (docs/pair_model.md). A multinomial logistic regression over
string features of a candidate pair (its dependency path, the words between, the classes of its ends) is
trained from the hand-labelled gold sets by `bench/pair_model.py` and shipped as JSON beside the code.

Only inference lives here, in plain Python: a pair has a few dozen features, so a dict lookup per feature
beats building arrays, and the extractor needs neither numpy nor scikit-learn at run time.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kgbuild.errors import ConfigError

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
        return {"format": FORMAT, "labels": list(self.labels), "bias": [round(b, 5) for b in self.bias],
                "threshold": self.threshold, "texts": dict(self.texts), "meta": dict(self.meta),
                "weights": {f: {str(k): round(w, 5) for k, w in ws.items()} for f, ws in sorted(self.weights.items())}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], source: str = "model") -> SparseLinearModel:
        if data.get("format") != FORMAT:
            raise ConfigError(source, f"not a {FORMAT} model (format {data.get('format')!r})",
                              "retrain it with bench/pair_model.py or reinstall kgbuild")
        labels = tuple(str(x) for x in data["labels"])
        weights = {str(f): {int(k): float(w) for k, w in ws.items()} for f, ws in data["weights"].items()}
        return cls(labels=labels, bias=tuple(float(b) for b in data["bias"]), weights=weights,
                   threshold=float(data["threshold"]), texts={str(k): str(v) for k, v in data["texts"].items()},
                   meta=dict(data.get("meta") or {}))

    @classmethod
    def load(cls, path: Path) -> SparseLinearModel:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ConfigError(str(path), f"cannot read the model ({exc})",
                              "retrain it with bench/pair_model.py or reinstall kgbuild") from exc
        return cls.from_json(data, str(path))
