"""Training SubgraphRAG's triple scorer on a QA file over the built graph (`kgbuild train retriever`).

Weak labels, as in the paper: for each question, the candidate triples on a shortest path (within
the candidates, either direction) from a topic entity the question links to to a node named like
the gold answer or an alias (kgbuild.query.graph_labels) are positives, every other candidate is a
negative. kgbuild also counts as targets the passages whose text contains the answer (on by default,
`passage_targets`): passages are nodes of this graph, and many answers are no node's name. A question
that links to nothing, whose answer is in no node or passage, or whose targets the candidates cannot
reach teaches nothing: it is skipped and counted.

The loss is per-triple binary cross-entropy, averaged per question, with the positives weighted by
negatives / positives over the whole training set (a question has a handful of positives among
thousands of candidates). Torch on CPU, Adam, the same seed gives the same model. The forward pass
is the block decomposition the numpy scorer uses (scorer.py), so a question costs gathers over its
own candidate nodes, not a full input row per triple; a few thousand questions train in minutes.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from kgbuild.errors import InputError
from kgbuild.query.evaluate import normalize_answer
from kgbuild.query.graph_labels import answer_nodes, path_edges
from kgbuild.query.subgraphrag.candidates import GraphIndex, Subgraph, subgraph
from kgbuild.query.subgraphrag.dde import dde_dim
from kgbuild.query.subgraphrag.scorer import SIMILARITIES, ModelMeta, ScorerModel
from kgbuild.query_settings import SubgraphRAGSettings

if TYPE_CHECKING:
    import torch

    from kgbuild.graph.projection import GraphProjection
    from kgbuild.graph.vectors import GraphVectors
    from kgbuild.query.evaluate import QAItem
    from kgbuild.query.graph_linking import QuestionLinker


DEFAULT_EPOCHS = 20  # the default of `kgbuild train retriever --epochs`


@dataclass
class TrainReport:
    questions: int = 0  # given
    used: int = 0  # with at least one positive triple
    no_entity: int = 0  # linked to no node of the graph
    no_answer_node: int = 0  # no node is named like the answer or an alias (and no passage has it)
    passage_only: int = 0  # used questions whose only targets are passages containing the answer
    unreachable: int = 0  # the answer nodes are not reachable within the candidates
    triples: int = 0  # candidate triples over the used questions
    positives: int = 0
    pos_weight: float = 1.0
    epochs: int = 0
    losses: list[float] = field(default_factory=list)  # mean loss per epoch
    seconds: float = 0.0

    @property
    def skipped(self) -> int:
        return self.no_entity + self.no_answer_node + self.unreachable

    def __str__(self) -> str:
        loss = f"loss {self.losses[0]:.4f} -> {self.losses[-1]:.4f}" if self.losses else "no epoch run"
        return "\n".join([
            f"SubgraphRAG scorer: {self.used} of {self.questions} questions used ({self.passage_only} through passages "
            f"that contain the answer only), {self.triples} candidate triples, {self.positives} labelled positive",
            f"skipped {self.skipped}: {self.no_entity} link to no entity, {self.no_answer_node} have no node or "
            f"passage with the answer, {self.unreachable} cannot reach it within the candidates",
            f"{self.epochs} epochs, {loss}, {self.seconds:.1f} s"])


@dataclass(frozen=True)
class Example:
    question: np.ndarray  # unit vector
    sub: Subgraph
    labels: np.ndarray  # float32 per candidate edge


class PassageFinder:
    """Passages whose text contains an answer (normalised as EM normalises, on word boundaries)."""

    def __init__(self, projection: GraphProjection) -> None:
        self._texts = [(node, f" {normalize_answer(text)} ") for node, text in projection.chunk_text.items()]

    def containing(self, answers: Sequence[str]) -> list[int]:
        keys = [f" {k} " for k in (normalize_answer(a) for a in answers) if k]
        return [node for node, text in self._texts if any(k in text for k in keys)]


def label_examples(projection: GraphProjection, index: GraphIndex, linker: QuestionLinker, items: Sequence[QAItem],
                   settings: SubgraphRAGSettings, report: TrainReport, *,
                   passage_targets: bool = True) -> list[Example]:
    """One example per usable question; the others are counted in `report`. With `passage_targets`,
    the passages that contain the answer are targets too (see train_retriever)."""
    out: list[Example] = []
    passages = PassageFinder(projection) if passage_targets else None
    for item in items:
        report.questions += 1
        linked = linker.link(item.question)
        if not linked.seeds:
            report.no_entity += 1
            continue
        answers = [item.answer, *item.aliases]
        targets = answer_nodes(projection, answers)
        if passages is not None:
            found = passages.containing(answers)
            if found and not targets:
                report.passage_only += 1
            targets = [*targets, *found]
        if not targets:
            report.no_answer_node += 1
            continue
        sub = subgraph(index, linked.seeds, settings)
        mask = np.zeros(projection.n_edges, dtype=bool)
        mask[sub.edges] = True
        positives = path_edges(projection, mask, linked.seeds, targets)
        if not positives:
            report.unreachable += 1
            continue
        labels = np.isin(sub.edges, np.fromiter(positives, np.int64, len(positives))).astype(np.float32)
        out.append(Example(np.asarray(linked.vector, np.float32), sub, labels))
        report.used += 1
        report.triples += int(labels.size)
        report.positives += int(labels.sum())
    return out


def train_retriever(projection: GraphProjection, vectors: GraphVectors, linker: QuestionLinker,
                    items: Sequence[QAItem], *, epochs: int = DEFAULT_EPOCHS, hidden: int = 128, seed: int = 0,
                    on_epoch: Callable[[int, float], None] | None = None, settings: SubgraphRAGSettings | None = None,
                    learning_rate: float = 1e-3, batch: int = 8,
                    passage_targets: bool = True, weight_decay: float = 0.01) -> tuple[ScorerModel, TrainReport]:
    """Train a scorer for this graph; `on_epoch(epoch, mean_loss)` after each epoch (1-based).

    `passage_targets` (default on) extends the paper's labels to this graph's passage nodes: the
    passages whose text contains the answer are targets too, so the "mentions" edge that reaches such
    a passage is a positive. Answers are often not extracted as nodes (a date, a phrase, yes/no), and
    the passages are what the answer prompt reads."""
    import torch

    settings = SubgraphRAGSettings() if settings is None else settings
    start = time.perf_counter()
    report = TrainReport()
    index = GraphIndex.build(projection, settings.edge_kinds)
    examples = label_examples(projection, index, linker, items, settings, report, passage_targets=passage_targets)
    if not examples:
        raise InputError("training questions", f"none of {report.questions} questions is usable "
                         f"({report.no_entity} link to no entity, {report.no_answer_node} name no answer node, "
                         f"{report.unreachable} cannot reach their answer within {settings.hops} hops)",
                         "check that the QA file is about the corpus that was built")
    negatives = report.triples - report.positives
    report.pos_weight = max(1.0, negatives / max(report.positives, 1))

    torch.manual_seed(seed)
    dim, fdim = vectors.dim, dde_dim(settings.dde_rounds)
    layer = torch.nn.Linear(4 * dim + 2 * fdim + SIMILARITIES, hidden)
    out_layer = torch.nn.Linear(hidden, 1)
    params = [*layer.parameters(), *out_layer.parameters()]
    optimizer = torch.optim.AdamW(params, lr=learning_rate, weight_decay=weight_decay)
    node_vectors = torch.from_numpy(np.ascontiguousarray(vectors.nodes, np.float32))
    pred_vectors = torch.from_numpy(np.ascontiguousarray(vectors.predicates, np.float32))
    pos_weight = torch.tensor([report.pos_weight], dtype=torch.float32)
    offsets = np.cumsum([0, dim, dim, dim, dim, fdim, fdim, SIMILARITIES])

    def block(i: int) -> torch.Tensor:
        return layer.weight[:, int(offsets[i]):int(offsets[i + 1])].T  # in x hidden, a view

    def logits(ex: Example) -> torch.Tensor:
        sub = ex.sub
        nodes = node_vectors[torch.from_numpy(sub.nodes)]
        dde = torch.from_numpy(sub.dde)
        question = torch.from_numpy(ex.question)
        sims = block(6)
        cos_node = (nodes @ question).unsqueeze(1)
        node_head = nodes @ block(1) + dde @ block(4) + cos_node * sims[0]
        node_tail = nodes @ block(3) + dde @ block(5) + cos_node * sims[2]
        relation = pred_vectors @ block(2) + layer.bias + (pred_vectors @ question).unsqueeze(1) * sims[1]
        h = (node_head[torch.from_numpy(sub.local_head)] + node_tail[torch.from_numpy(sub.local_tail)]
             + relation[torch.from_numpy(sub.preds)] + question @ block(0))
        out: torch.Tensor = out_layer(torch.relu(h)).squeeze(-1)
        return out

    rng = np.random.default_rng(seed)
    for epoch in range(1, epochs + 1):
        order = rng.permutation(len(examples))
        total = 0.0
        for lo in range(0, len(order), batch):
            optimizer.zero_grad()
            losses = [torch.nn.functional.binary_cross_entropy_with_logits(
                logits(examples[i]), torch.from_numpy(examples[i].labels), pos_weight=pos_weight)
                for i in order[lo:lo + batch].tolist()]
            stacked = torch.stack(losses)
            stacked.mean().backward()  # type: ignore[no-untyped-call]
            optimizer.step()
            total += float(stacked.detach().sum().item())
        mean = total / len(examples)
        report.losses.append(mean)
        report.epochs = epoch
        if on_epoch is not None:
            on_epoch(epoch, mean)

    weight = layer.weight.detach().numpy().T.astype(np.float32)  # in x hidden
    blocks = [np.ascontiguousarray(weight[int(offsets[i]):int(offsets[i + 1])]) for i in range(7)]
    meta = ModelMeta(fingerprint=projection.fingerprint, embedder=vectors.embedder, dim=dim, hidden=hidden,
                     dde_rounds=settings.dde_rounds, hops=settings.hops, questions=report.used)
    model = ScorerModel(w_q=blocks[0], w_h=blocks[1], w_r=blocks[2], w_t=blocks[3], w_dh=blocks[4], w_dt=blocks[5],
                        w_s=blocks[6],
                        b1=layer.bias.detach().numpy().astype(np.float32).copy(),
                        w2=out_layer.weight.detach().numpy()[0].astype(np.float32).copy(),
                        b2=float(out_layer.bias.detach().numpy()[0]), meta=meta)
    report.seconds = time.perf_counter() - start
    return model, report
