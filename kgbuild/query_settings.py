"""The query strategies' settings: the `query.hybrid`, `query.frag`, `query.subgraphrag`, `query.coe`
and `query.fasttog` sections of kgbuild.yaml, and the one place their defaults are written.

Each strategy reads its section from the project config (the engine's `QueryResources.config`)
unless code passes settings of its own (`FragStrategy(..., settings=FragSettings(text_fusion=False))`,
as `bench/strategies.py` does). The records are frozen, so a strategy can keep the one it was made with.
Unknown keys and out-of-range values are the config's one-line errors (`query.frag.top_u: must be an
integer >= 1 and <= 10_000`). This module sits below the graph and the strategies, so the literal
types their settings name (`EdgeKind`, `FusionMethod`) are defined here and imported from here.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from kgbuild.setting_values import check_path

# The kinds of edge of the in-memory graph (kgbuild/graph/projection.py): extracted relations (with
# hypernode qualifiers), event roles, and the mutual index's passage-mentions edges.
EdgeKind = Literal["relation", "role", "mention"]
# How the hybrid retriever fuses its signals (kgbuild/query/retrieval/fusion.py).
FusionMethod = Literal["rrf", "minmax"]

ALL_EDGE_KINDS: tuple[EdgeKind, ...] = ("relation", "role", "mention")


class StrategySettings(BaseModel):
    """A strategy's settings: frozen, and every key must be one the strategy reads."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class FusionWeights(StrategySettings):
    """Weight of each signal in the hybrid fusion; a key left out of kgbuild.yaml keeps its default."""

    bm25: float = Field(1.0, ge=0, le=100, allow_inf_nan=False)
    dense: float = Field(1.0, ge=0, le=100, allow_inf_nan=False)
    # The graph walk (ppr + hop) weighs as much as the two text signals (bm25 + dense) together.
    ppr: float = Field(2.0, ge=0, le=100, allow_inf_nan=False)
    triple: float = Field(0.25, ge=0, le=100, allow_inf_nan=False)
    hop: float = Field(1.0, ge=0, le=100, allow_inf_nan=False)


class HybridSettings(StrategySettings):
    """The hybrid retriever's settings, the same for every question (nothing is tuned per question);
    every strategy that reads the hybrid ranking (hybrid, the solver, FRAG's and SubgraphRAG's text
    fusion) reads it with these."""

    candidates: int = Field(30, ge=1, le=10_000, strict=True, description="hits taken from each signal before fusion")
    fusion: FusionMethod = Field("rrf", description="rrf (reciprocal rank) or minmax (normalised scores)")
    # A small rrf_k lets a signal's first ranks decide: with 60 every candidate ends up within a few
    # percent of every other and the walk's strong first hits are averaged away.
    rrf_k: float = Field(5.0, ge=0, le=10_000, allow_inf_nan=False, description="rank offset of rrf fusion")
    weights: FusionWeights = Field(default_factory=FusionWeights, description="weight of each signal")
    restart: float = Field(0.3, gt=0, le=1, allow_inf_nan=False,
                           description="Personalized PageRank restart probability")
    iterations: int = Field(20, ge=1, le=1000, strict=True, description="PageRank power iterations")
    second_hop: bool = Field(True, description="a second walk from the best chunks reaches the bridge passages")
    hop_chunks: int = Field(2, ge=1, le=100, strict=True,
                            description="best first-round chunks that seed the second walk")
    dense_link_min: float = Field(0.7, ge=0, le=1, allow_inf_nan=False,
                                  description="cosine a capitalised span needs to seed through a dense link")
    max_triples: int = Field(20, ge=0, le=1000, strict=True, description="triples returned as evidence")


class FragSettings(StrategySettings):
    k_simple: int = Field(2, ge=1, le=8, strict=True, description="hops of the preprocessing for a simple question")
    k_complex: int = Field(4, ge=1, le=8, strict=True, description="hops of the preprocessing for a complex question")
    top_n: int = Field(2000, ge=1, le=10_000_000, strict=True, description="nodes kept by Personalized PageRank")
    top_m: int = Field(64, ge=1, le=1_000_000, strict=True,
                       description="predicate types kept by similarity with the question")
    damping: float = Field(0.8, gt=0, lt=1, allow_inf_nan=False, description="PageRank damping of the node prune")
    max_paths: int = Field(20_000, ge=1, le=10_000_000, strict=True, description="cap of the simple-path enumeration")
    top_u: int = Field(32, ge=1, le=10_000, strict=True,
                       description="paths kept after ranking (the facts of the answer prompt)")
    answer_pool: int = Field(256, ge=1, le=1_000_000, strict=True,
                             description="ranked paths whose tails the model-free answer may pick from")
    # Passages behind the top paths considered for the prompt, as a multiple of what it shows: the
    # prompt gets the ones closest to the question (HotpotQA offline build: the answer in the
    # context for 76 of 100 questions with 2x, 73 taking the first 5 in path order).
    passage_pool: int = Field(2, ge=1, le=100, strict=True,
                              description="passages behind the top paths considered, x what the prompt shows")
    # The path passages fused with the hybrid retriever's ranking (graph_evidence.with_text_ranking);
    # off: the prompt sees path passages only (the bench's `frag_paths` row).
    text_fusion: bool = Field(True, description="fuse the path passages with the hybrid retriever's ranking")
    # The text ranking's first passages stay whatever the walk ranks: on the HotpotQA offline build
    # text retrieval put the better passages first (its first hop) and the walk's own passages
    # helped in the remaining slots (its second hop); the walk's paths are shown as facts either way.
    text_kept: int = Field(3, ge=0, le=100, strict=True,
                           description="the text ranking's first passages always shown, whatever the paths rank")
    cross_encoder: str | None = Field(
        None, description="a sentence-transformers CrossEncoder (name or path) that reranks the top 2 x top_u paths")

    @field_validator("cross_encoder")
    @classmethod
    def _model(cls, value: str | None) -> str | None:
        return None if value is None else check_path(value)


class SubgraphRAGSettings(StrategySettings):
    """What SubgraphRAG reads from a graph. `hops` and `dde_rounds` are what `kgbuild train retriever`
    trains with; a trained scorer records its own and the strategy uses those."""

    # 3: a passage is a node between the entities it mentions, so 2 hops reach one fact through its
    # passage and a bridge question needs one more (HotpotQA 5-fold, bench/strategies.py, two builds:
    # answer in context 0.79-0.80 with 3 against 0.76-0.77 with 2; training reads ~7x the candidates).
    hops: int = Field(3, ge=1, le=4, strict=True,
                      description="training: candidates have an end within hops - 1 hops of the question's "
                      "entities (a trained scorer keeps its own)")
    limit: int = Field(5000, ge=1, le=10_000_000, strict=True,
                       description="the most candidate triples scored per question")
    edge_kinds: tuple[EdgeKind, ...] = Field(ALL_EDGE_KINDS, min_length=1,
                                             description="edges that can be candidates: relation, role, mention")
    dde_rounds: int = Field(2, ge=0, le=8, strict=True,
                            description="training: rounds of the directional distance encoding (as hops)")
    top_k: int = Field(100, ge=1, le=100_000, strict=True,
                       description="triples kept for the answer, whatever the budget's k (that counts passages)")
    # The passages behind the top triples fused with the hybrid retriever's ranking
    # (graph_evidence.with_text_ranking); off: triple passages only (the bench's `subgraphrag_triples`).
    text_fusion: bool = Field(True, description="fuse the triple passages with the hybrid retriever's ranking")
    # All 5 passages shown are the text ranking's: what SubgraphRAG adds is its top triples (the
    # paper's retrieval). Measured 5-fold (bench/strategies.py, offline builds), the passages behind
    # the triples, given slots 4 and 5 (3 kept), put the answer in context for 0-2 questions that
    # text retrieval missed and took it out of 3-5 (HotpotQA: 0.80 with 3 kept, 0.84 with 5; 2Wiki
    # set 2: 0.833 and 0.867; hybrid 0.81 and 0.85). A lower value lets the triples' passages in.
    text_kept: int = Field(5, ge=0, le=100, strict=True,
                           description="the text ranking's first passages always shown, whatever the triples rank")


class CoESettings(StrategySettings):
    node_k: int = Field(8, ge=1, le=100, strict=True, description="candidates a lookup shows the model")
    relation_k: int = Field(10, ge=1, le=100, strict=True, description="candidates a hop shows the model")
    max_selected: int = Field(3, ge=1, le=100, strict=True,
                              description="nodes or relations kept per step: a wider frontier drowns the next hop")
    max_failures: int = Field(3, ge=1, le=20, strict=True, description="failed explorations before the best answer")
    max_steps: int = Field(6, ge=1, le=50, strict=True, description="steps of a plan (each costs two model calls)")
    max_passages: int = Field(5, ge=1, le=100, strict=True, description="passages the answer prompt reads")


class FastToGSettings(StrategySettings):
    width: int = Field(3, ge=1, le=20, strict=True, description="W: reasoning chains")
    depth: int = Field(5, ge=1, le=20, strict=True, description="D: communities per chain")
    cap: int = Field(4, ge=1, le=100, strict=True, description="M: nodes per community")
    hops: int = Field(2, ge=1, le=4, strict=True,
                      description="radius of the local subgraph around the current community")
    rho: float = Field(0.5, gt=0, le=1, allow_inf_nan=False,
                       description="neighbour keep probability, decaying as rho^(hop-1)")
    top_k: int = Field(5, ge=1, le=100, strict=True,
                       description="communities left after coarse (modularity) pruning, shown to the model")
    max_local_nodes: int = Field(200, ge=1, le=1_000_000, strict=True,
                                 description="a hub's neighbourhood is sampled down to this")
    seed: int = Field(0, ge=0, le=2**32 - 1, strict=True, description="seed of the neighbour sampling")
    max_passages: int = Field(5, ge=1, le=100, strict=True, description="passages the answer prompt reads")
    edge_kinds: tuple[EdgeKind, ...] = Field(ALL_EDGE_KINDS, min_length=1,
                                             description="edges the chains walk: relation, role, mention")

    @property
    def worst_case_calls(self) -> int:
        """The paper's bound on model calls per question: 2·W·D + D + 2 (37 for the defaults)."""
        return 2 * self.width * self.depth + self.depth + 2


# The column where the init template's comments start (that of its hand-written sections).
COMMENT_COLUMN = 25


def template_lines(section: BaseModel, indent: str = "  ") -> list[str]:
    """`section` as lines of the init template: a plain setting at its value, each record of settings
    (a strategy's) commented out at its defaults, so that uncommenting a line changes nothing; each
    line ends with its field's description."""
    lines = []
    for name, field in type(section).model_fields.items():
        value = getattr(section, name)
        if not isinstance(value, BaseModel):
            lines.append(_described(f"{indent}{name}: {_yaml_value(value)}", field.description))
            continue
        lines.append(_described(f"{indent}# {name}:", field.description))
        for key, sub in type(value).model_fields.items():
            lines.append(_described(f"{indent}#   {key}: {_yaml_value(getattr(value, key))}", sub.description))
    return lines


def _described(line: str, description: str | None) -> str:
    return f"{line.ljust(COMMENT_COLUMN - 1)} # {description}" if description else line


def _yaml_value(value: Any) -> str:
    """A default as YAML flow text: a scalar, a tuple, or a record (FusionWeights) as a mapping."""
    if isinstance(value, BaseModel):
        value = dict(value)
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return f"[{', '.join(_yaml_value(v) for v in value)}]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_yaml_value(v)}" for k, v in value.items()) + "}"
    return str(value)
