"""SubgraphRAG's triple scorer: a one-hidden-layer MLP on [q ‖ head ‖ relation ‖ tail ‖ DDE(head) ‖ DDE(tail) ‖
cos(q, head), cos(q, relation), cos(q, tail)], run in numpy (a query never imports torch: it costs
seconds of cold start).

The three cosines are kgbuild's addition to the paper's input. An MLP over concatenated vectors
cannot form a dot product, so it learns "the triple is about what the question asks" only from many
thousands of questions (the paper trains on WebQSP and CWQ); a QA file of a hundred questions is
not enough. Measured 5-fold on the HotpotQA build (80 training questions a fold), the answer in the
top 5 passages went from 0.56 to 0.58 with them: small, but they cost one dot product per candidate node.

The first layer is linear in each block of its input, so W1 · x splits into W_q·q + W_h·h + W_r·r +
W_t·t + W_dh·dde(h) + W_dt·dde(t) + W_s·cos. The entity and relation blocks depend only on the graph, so
`GraphTables` computes them once per graph (a row per node for W_h and for W_t, a row per
predicate for W_r); per question what is left is W_q·q, the DDE and cosine blocks of the candidate
nodes (a dot product with q and 10 numbers each), three row gathers per triple, a ReLU and the
output layer.

A model is saved as one .npz: the weight blocks plus a JSON `meta` record of the graph it was
trained on (the projection's fingerprint), the embedder, the dimensions and the retrieval settings.
Loading it for another graph or embedder is a one-line ConfigError naming the command that
retrains it.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from kgbuild.errors import ConfigError
from kgbuild.query.subgraphrag.dde import dde_dim

if TYPE_CHECKING:
    from kgbuild.graph.vectors import GraphVectors
    from kgbuild.workspace import Workspace

RETRAIN = "run `kgbuild train retriever QA_FILE`"
BLOCKS = ("w_q", "w_h", "w_r", "w_t", "w_dh", "w_dt", "w_s")  # the first layer, in input order
SIMILARITIES = 3  # cos(q, head), cos(q, relation), cos(q, tail)


def model_path(workspace: Workspace) -> Path:
    """Where `kgbuild train retriever` saves the model and the strategy looks for it."""
    return workspace.path / "models" / "subgraphrag.npz"


@dataclass(frozen=True)
class ModelMeta:
    fingerprint: str  # the projection's: a rebuilt graph makes the model stale
    embedder: str
    dim: int  # embedding dimension
    hidden: int
    dde_rounds: int
    hops: int
    questions: int  # how many questions the labels came from


@dataclass(frozen=True)
class ScorerModel:
    w_q: np.ndarray  # dim x hidden
    w_h: np.ndarray
    w_r: np.ndarray
    w_t: np.ndarray
    w_dh: np.ndarray  # dde_dim x hidden
    w_dt: np.ndarray
    w_s: np.ndarray  # 3 x hidden: the cosines of q with head, relation, tail
    b1: np.ndarray  # hidden
    w2: np.ndarray  # hidden
    b2: float
    meta: ModelMeta

    @property
    def input_dim(self) -> int:
        return 4 * self.meta.dim + 2 * dde_dim(self.meta.dde_rounds) + SIMILARITIES

    def first_layer(self) -> np.ndarray:
        """The whole first-layer matrix (input_dim x hidden), blocks stacked in input order."""
        return np.vstack([getattr(self, b) for b in BLOCKS])

    def mlp(self, features: np.ndarray) -> np.ndarray:
        """Scores (logits) of rows of full inputs [q, h, r, t, dde_h, dde_t, cos(q,h), cos(q,r), cos(q,t)]:
        the naive reference."""
        hidden = np.maximum(features @ self.first_layer() + self.b1, 0.0)
        return np.asarray(hidden @ self.w2 + self.b2, dtype=np.float32)

    # ---------------------------------------------------------------- persistence

    def save(self, path: Path) -> None:
        """Write atomically (a crash leaves the previous model)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp.npz")
        arrays: dict[str, np.ndarray] = {b: np.asarray(getattr(self, b), np.float32) for b in (*BLOCKS, "b1", "w2")}
        arrays["b2"] = np.asarray([self.b2], np.float32)
        arrays["meta"] = np.asarray(json.dumps(asdict(self.meta)))
        with tmp.open("wb") as fh:
            np.savez(fh, **arrays)  # type: ignore[arg-type]  # numpy's stub types the keyword arrays as `allow_pickle`
        os.replace(tmp, path)

    @classmethod
    def load(cls, path: Path, projection_fingerprint: str, embedder_name: str) -> ScorerModel:
        """The model at `path`, if it was trained on this graph with this embedder; else ConfigError."""
        if not path.exists():
            raise ConfigError(str(path), "no trained SubgraphRAG retriever", RETRAIN)
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = ModelMeta(**json.loads(str(data["meta"])))
                arrays = {b: np.asarray(data[b], np.float32) for b in (*BLOCKS, "b1", "w2")}
                b2 = float(data["b2"][0])
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise ConfigError(str(path), f"unreadable SubgraphRAG retriever ({type(exc).__name__})", RETRAIN) from None
        if meta.fingerprint != projection_fingerprint:
            raise ConfigError(str(path), f"the SubgraphRAG retriever was trained on graph {meta.fingerprint}, "
                              f"the graph is now {projection_fingerprint} (rebuilt since)", RETRAIN)
        if meta.embedder != embedder_name:
            raise ConfigError(str(path), f"the SubgraphRAG retriever was trained with embedder {meta.embedder!r}, "
                              f"the project now embeds with {embedder_name!r}", RETRAIN)
        return cls(**arrays, b2=b2, meta=meta)


@dataclass(frozen=True)
class GraphTables:
    """The first layer's graph blocks, once per graph: W_h·h and W_t·t per node, W_r·r + b1 per predicate;
    and the unit vectors themselves, for the cosines with the question."""

    head: np.ndarray  # n_nodes x hidden
    tail: np.ndarray
    relation: np.ndarray  # n_predicates x hidden, b1 folded in
    nodes: np.ndarray  # n_nodes x dim, unit rows
    predicates: np.ndarray  # n_predicates x dim

    @classmethod
    def compute(cls, model: ScorerModel, vectors: GraphVectors) -> GraphTables:
        if vectors.dim != model.meta.dim:
            raise ConfigError("subgraphrag", f"the retriever expects {model.meta.dim}-dim embeddings, "
                              f"the graph's are {vectors.dim}-dim", RETRAIN)
        return cls(head=(vectors.nodes @ model.w_h).astype(np.float32),
                   tail=(vectors.nodes @ model.w_t).astype(np.float32),
                   relation=(vectors.predicates @ model.w_r + model.b1).astype(np.float32),
                   nodes=vectors.nodes, predicates=vectors.predicates)


def score_triples(model: ScorerModel, tables: GraphTables, question: np.ndarray, preds: np.ndarray,
                  sub_nodes: np.ndarray, local_head: np.ndarray, local_tail: np.ndarray, dde: np.ndarray) -> np.ndarray:
    """Logits of the triples (sub_nodes[local_head[i]], preds[i], sub_nodes[local_tail[i]]) for a question
    vector: `sub_nodes` are the candidate subgraph's nodes (projection indices), `dde` their features."""
    question = question.astype(np.float32)
    q = question @ model.w_q
    # Per subgraph node: its entity, DDE and cosine blocks, so each triple gathers one row per end.
    cos_node = tables.nodes[sub_nodes] @ question
    node_head = tables.head[sub_nodes] + dde @ model.w_dh + np.outer(cos_node, model.w_s[0])
    node_tail = tables.tail[sub_nodes] + dde @ model.w_dt + np.outer(cos_node, model.w_s[2])
    cos_pred = tables.predicates @ question
    hidden = node_head[local_head]
    hidden += node_tail[local_tail]
    hidden += tables.relation[preds]
    hidden += np.outer(cos_pred[preds], model.w_s[1])
    hidden += q
    np.maximum(hidden, 0.0, out=hidden)
    return np.asarray(hidden @ model.w2 + model.b2, dtype=np.float32)
