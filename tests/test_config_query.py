"""The strategies' sections of kgbuild.yaml (`query.hybrid`, `query.frag`, `query.subgraphrag`,
`query.coe`, `query.fasttog`): validated like every other section, defaulting to what the strategies
used before the sections existed, and documented in the file `kgbuild init` writes."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from kgbuild.config import Config, default_config_text, load_config
from kgbuild.errors import ConfigError
from kgbuild.query_settings import (
    CoESettings,
    FastToGSettings,
    FragSettings,
    HybridSettings,
    SubgraphRAGSettings,
)

# The strategies' defaults as they were when each was a frozen dataclass of its own module: a change
# here changes every strategy's answers, so it is a decision to make on purpose, not by accident.
BEFORE = {
    "hybrid": {"candidates": 30, "fusion": "rrf", "rrf_k": 5.0,
               "weights": {"bm25": 1.0, "dense": 1.0, "ppr": 2.0, "triple": 0.25, "hop": 1.0},
               "restart": 0.3, "iterations": 20, "second_hop": True, "hop_chunks": 2, "dense_link_min": 0.7,
               "max_triples": 20},
    "frag": {"k_simple": 2, "k_complex": 4, "top_n": 2000, "top_m": 64, "damping": 0.8, "max_paths": 20_000,
             "top_u": 32, "answer_pool": 256, "passage_pool": 2, "text_fusion": True, "text_kept": 3,
             "cross_encoder": None},
    "subgraphrag": {"hops": 3, "limit": 5000, "edge_kinds": ("relation", "role", "mention"), "dde_rounds": 2,
                    "top_k": 100, "text_fusion": True, "text_kept": 5},
    "coe": {"node_k": 8, "relation_k": 10, "max_selected": 3, "max_failures": 3, "max_steps": 6, "max_passages": 5},
    "fasttog": {"width": 3, "depth": 5, "cap": 4, "hops": 2, "rho": 0.5, "top_k": 5, "max_local_nodes": 200,
                "seed": 0, "max_passages": 5, "edge_kinds": ("relation", "role", "mention")},
}


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "kgbuild.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def error(tmp_path: Path, text: str) -> str:
    with pytest.raises(ConfigError) as err:
        load_config(write(tmp_path, text), env={})
    line = err.value.line()
    assert "\n" not in line
    return line


def test_defaults_are_the_strategies_defaults_before_the_sections() -> None:
    query = Config().query
    for name, values in BEFORE.items():
        assert getattr(query, name).model_dump() == values, name
    # the records the strategies build for themselves are the config's defaults
    assert (query.hybrid, query.frag, query.subgraphrag, query.coe, query.fasttog) == (
        HybridSettings(), FragSettings(), SubgraphRAGSettings(), CoESettings(), FastToGSettings())


def test_a_yaml_setting_reaches_its_section_and_only_that_key_changes(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, """\
query:
  top_k: 7
  hybrid:
    second_hop: false
    weights: {ppr: 1.5}
  frag: {top_u: 8, cross_encoder: cross-encoder/ms-marco-MiniLM-L-6-v2}
  subgraphrag: {text_fusion: false, edge_kinds: [relation, role]}
  coe: {max_steps: 4}
  fasttog: {width: 2, depth: 3, rho: 1.0}
"""), env={})
    q = config.query
    assert q.top_k == 7 and q.frag.top_u == 8 and q.frag.cross_encoder == "cross-encoder/ms-marco-MiniLM-L-6-v2"
    assert q.frag.model_dump(exclude={"top_u", "cross_encoder"}) == FragSettings().model_dump(
        exclude={"top_u", "cross_encoder"})
    assert not q.hybrid.second_hop and q.hybrid.candidates == 30
    # a weight left out keeps its default
    assert q.hybrid.weights.model_dump() == {"bm25": 1.0, "dense": 1.0, "ppr": 1.5, "triple": 0.25, "hop": 1.0}
    assert not q.subgraphrag.text_fusion and q.subgraphrag.edge_kinds == ("relation", "role")
    assert q.coe.max_steps == 4 and q.coe.node_k == 8
    assert (q.fasttog.width, q.fasttog.depth, q.fasttog.rho) == (2, 3, 1.0)
    assert q.fasttog.worst_case_calls == 2 * 2 * 3 + 3 + 2


@pytest.mark.parametrize(("text", "expected"), [
    ("query:\n  frag:\n    top_uu: 8\n", "query.frag.top_uu: unknown key (did you mean 'top_u'?)"),
    ("query:\n  fasttog:\n    widht: 2\n", "query.fasttog.widht: unknown key (did you mean 'width'?)"),
    ("query:\n  hybrid:\n    weights: {pagerank: 1}\n", "query.hybrid.weights.pagerank: unknown key"),
    ("query:\n  solver: {max_steps: 3}\n", "query.solver: unknown key"),
    ("query:\n  frag:\n    top_u: 0\n", "query.frag.top_u: must be an integer >= 1 and <= 10_000 (got 0)"),
    ("query:\n  frag:\n    top_u: 8.5\n", "query.frag.top_u: must be an integer >= 1 and <= 10_000 (got 8.5)"),
    ("query:\n  frag:\n    damping: 1.0\n", "query.frag.damping: must be a finite number > 0 and < 1 (got 1.0)"),
    ("query:\n  hybrid:\n    weights: {ppr: -1}\n", "query.hybrid.weights.ppr: must be a finite number >= 0"),
    ("query:\n  fasttog:\n    rho: .nan\n", "query.fasttog.rho: must be a finite number > 0 and <= 1"),
    ("query:\n  subgraphrag:\n    hops: 9\n", "query.subgraphrag.hops: must be an integer >= 1 and <= 4 (got 9)"),
    ("query:\n  subgraphrag:\n    edge_kinds: [relation, friend]\n", "query.subgraphrag.edge_kinds.1: "),
    ("query:\n  subgraphrag:\n    edge_kinds: []\n", "query.subgraphrag.edge_kinds: "),
    ("query:\n  hybrid:\n    fusion: max\n", "query.hybrid.fusion: "),
    ("query:\n  coe: 3\n", "query.coe: "),
    ("query:\n  frag:\n    cross_encoder: \"a\\nb\"\n", "query.frag.cross_encoder: contains a line break"),
])
def test_a_bad_setting_is_one_line_naming_the_key(tmp_path: Path, text: str, expected: str) -> None:
    line = error(tmp_path, text)
    assert f"{tmp_path / 'kgbuild.yaml'}: {expected}" in line, line


def test_the_sections_are_frozen() -> None:
    settings = Config().query.frag
    with pytest.raises(ValueError, match="frozen"):
        settings.top_u = 3  # type: ignore[misc]


def test_init_documents_every_strategy_setting_with_its_default(tmp_path: Path) -> None:
    text = default_config_text("demo", "open_domain")
    # what init writes parses to the defaults
    assert load_config(write(tmp_path, text), env={}).query == Config().query
    # every setting is there, commented out, with its default: uncommenting the section changes nothing
    lines = text.splitlines()
    section = lines[lines.index("query:"):]
    uncommented = "\n".join(line.replace("# ", "", 1) if line.lstrip().startswith("# ") else line
                            for line in section)
    data = yaml.safe_load(uncommented)
    query = Config.model_validate({"query": data["query"]}).query
    assert query == Config().query
    for name in BEFORE:
        assert set(data["query"][name]) == set(BEFORE[name]), name
