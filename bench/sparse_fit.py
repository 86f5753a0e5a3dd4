"""Fit a kgbuild.extract.linear_model.SparseLinearModel from string features (scikit-learn's logistic regression).

Used by the pair-model trainers (bench/pair_model.py for English, bench/zh_pair_model.py for Chinese), which score
the models leaving one gold set out. scikit-learn comes with kgbuild's `embed` extra (`make setup`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from kgbuild.extract.linear_model import SparseLinearModel


def fit(features: Sequence[Sequence[str]], labels: Sequence[str], none_label: str, *, c: float = 1.0,
        min_count: int = 2, threshold: float = 0.5, texts: Mapping[str, str] | None = None,
        meta: Mapping[str, Any] | None = None) -> SparseLinearModel:
    """A multinomial logistic regression over binary features; a feature seen in fewer than `min_count`
    training rows is left out (it could only memorise one sentence). `none_label` becomes labels[0]."""
    from scipy.sparse import csr_matrix
    from sklearn.linear_model import LogisticRegression

    counts = Counter(f for row in features for f in set(row))
    vocab = {f: i for i, f in enumerate(sorted(f for f, n in counts.items() if n >= min_count))}
    names = [none_label, *sorted(set(labels) - {none_label})]
    index = {label: k for k, label in enumerate(names)}
    indptr, cols = [0], []
    for row in features:
        cols.extend(sorted({vocab[f] for f in row if f in vocab}))
        indptr.append(len(cols))
    matrix = csr_matrix(([1.0] * len(cols), cols, indptr), shape=(len(features), max(len(vocab), 1)))
    y = [index[label] for label in labels]
    if len(names) == 1:  # nothing but "no relation": a model that always says so
        return SparseLinearModel(tuple(names), (0.0,), {}, threshold, dict(texts or {}), dict(meta or {}))
    model = LogisticRegression(C=c, max_iter=2000)
    model.fit(matrix, y)
    classes = [int(k) for k in model.classes_]
    coef = model.coef_
    bias_by = dict.fromkeys(range(len(names)), -30.0)  # a label with no training row never wins
    weights: dict[str, dict[int, float]] = {}
    if len(classes) == 2:  # scikit-learn keeps one row for two classes: the second class's log-odds
        bias_by[classes[0]], bias_by[classes[1]] = 0.0, float(model.intercept_[0])
        for f, i in vocab.items():
            if abs(w := float(coef[0, i])) >= 1e-4:
                weights[f] = {classes[1]: w}
    else:
        for row, k in enumerate(classes):
            bias_by[k] = float(model.intercept_[row])
        for f, i in vocab.items():
            ws = {k: float(coef[row, i]) for row, k in enumerate(classes) if abs(float(coef[row, i])) >= 1e-4}
            if ws:
                weights[f] = ws
    bias = tuple(bias_by[k] for k in range(len(names)))
    info = {"rows": len(features), "features": len(vocab), "c": c, "min_count": min_count, **(meta or {})}
    return SparseLinearModel(tuple(names), bias, weights, threshold, dict(texts or {}), info)
