"""The Chinese pair model (issue 25): a model's relation is added where the rules relate nothing, and with no model
the extractor gives the rules' output alone. Sentences written for these tests, not from any labelled set."""

from __future__ import annotations

import pytest
from test_coe import bench_module
from test_zh_open_extract import chunk, extract, triples

from kgbuild.extract.linear_model import SparseLinearModel
from kgbuild.extract.zh.extractor import ChineseExtractor
from kgbuild.schema import resolve_schema

# 效力于 is no verb the career rules know
SERVES = "林海峰，1975年生，多年来一直效力于青云半导体股份有限公司。"


def toy_model() -> SparseLinearModel:
    """A person before a company with 效力 between them works for it (a hand-set weight, no training)."""
    return SparseLinearModel(labels=("none", "worksFor>"), bias=(0.0, -5.0),
                             weights={"cpw=Person>Company|效力": {1: 10.0}}, threshold=0.5,
                             texts={"worksFor>": "worksFor"}, meta={})


@pytest.fixture(scope="module")
def rules_only() -> ChineseExtractor:
    return ChineseExtractor(resolve_schema("open_domain"))


def test_a_model_adds_the_relation_the_rules_miss(rules_only: ChineseExtractor) -> None:
    assert ("林海峰", "worksFor", "青云半导体股份有限公司") not in triples(extract(rules_only, SERVES))
    with_model = extract(ChineseExtractor(resolve_schema("open_domain"), pair_model=toy_model()), SERVES)
    assert ("林海峰", "worksFor", "青云半导体股份有限公司") in triples(with_model)
    assert ("林海峰", "bornOn", "1975年") in triples(with_model)  # the rules' own relation stays
    added = [r for r in with_model.relations if r.object.name == "青云半导体股份有限公司"]
    assert added[0].properties["pair_model"] > "0.9"


def test_with_no_model_the_extractor_gives_the_rules_output_alone(rules_only: ChineseExtractor) -> None:
    with_model = ChineseExtractor(resolve_schema("open_domain"), pair_model=toy_model())
    assert rules_only.pair_model is None
    assert all("pair_model" not in r.properties for r in extract(rules_only, SERVES).relations)
    assert rules_only.fingerprint() != with_model.fingerprint()


def test_a_model_trained_on_a_few_sentences_relates_a_new_one(rules_only: ChineseExtractor) -> None:
    """The trainer's path in small: candidates of the rules' output, labelled, fitted, then used on a sentence
    none of them is."""
    pytest.importorskip("sklearn")
    sparse_fit = bench_module("sparse_fit")
    taught = [("周雪松，1980年生，自2010年起效力于江南精工股份有限公司。", "周雪松", "江南精工股份有限公司"),
              ("工程师柳青多年来效力于澄江物流有限公司。", "柳青", "澄江物流有限公司"),
              ("孟怀川，1972年生，长期效力于华东港务集团有限公司。", "孟怀川", "华东港务集团有限公司"),
              ("祁守义，1975年生，现为华东港务集团有限公司职工。", "", ""),
              ("阚明哲，1979年生，曾到访江南精工股份有限公司。", "", "")]
    features, labels = [], []
    for text, person, body in taught:
        for row in rules_only.pair_rows(chunk(text))[1]:
            if not row.related:
                features.append(row.features)
                labels.append("worksFor>" if (row.first, row.second) == (person, body) else "none")
    assert labels.count("worksFor>") == 3
    model = sparse_fit.fit(features, labels, "none", c=10.0, min_count=2, threshold=0.5,
                           texts={"worksFor>": "worksFor"}, meta={})
    trained = ChineseExtractor(resolve_schema("open_domain"), pair_model=model)
    assert ("林海峰", "worksFor", "青云半导体股份有限公司") in triples(extract(trained, SERVES))
    assert ("林海峰", "worksFor", "青云半导体股份有限公司") not in triples(extract(rules_only, SERVES))
