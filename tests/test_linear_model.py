"""The sparse linear classifier of the pair models (kgbuild.extract.linear_model) and its trainer
(bench/sparse_fit.py)."""

from __future__ import annotations

from tests.test_coe import bench_module


def _rows() -> tuple[list[list[str]], list[str]]:
    features, labels = [], []
    for i in range(30):
        features.append(["w:born", "prep:in", f"noise:{i % 3}"])
        labels.append("born in")
        features.append(["w:direct", "dep:dobj", f"noise:{i % 3}"])
        labels.append("directed")
        features.append(["w:and", f"noise:{i % 3}"])
        labels.append("none")
    return features, labels


def test_fit_predicts_the_label_its_features_carry_and_none_otherwise() -> None:
    fit = bench_module("sparse_fit").fit
    features, labels = _rows()
    model = fit(features, labels, "none", c=10.0, texts={"born in": "born in"})
    assert model.labels[0] == "none"
    assert model.predict(["w:born", "prep:in"]).label == "born in"
    assert model.predict(["w:direct", "dep:dobj"]).label == "directed"
    assert model.predict(["w:and"]).label == "none"
    assert model.predict(["w:born", "prep:in"]).probability > 0.8


def test_features_seen_once_are_left_out() -> None:
    fit = bench_module("sparse_fit").fit
    features, labels = _rows()
    features[0] = [*features[0], "only:once"]
    model = fit(features, labels, "none")
    assert "only:once" not in model.weights
    assert model.meta["rows"] == len(features)


def test_two_labels_give_a_two_way_softmax() -> None:
    fit = bench_module("sparse_fit").fit
    features = [["w:born"]] * 5 + [["w:and"]] * 5
    model = fit(features, ["born in"] * 5 + ["none"] * 5, "none", c=10.0)
    assert model.predict(["w:born"]).label == "born in"
    assert model.predict(["w:and"]).label == "none"
