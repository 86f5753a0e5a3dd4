"""FRAG's router: is the answer within 2 hops of the question's entities (simple) or 3+ (complex)?

The router reads only the question, so it runs before any graph work and decides how far the
preprocessing reaches (k = 2 or 4) and how paths are retrieved (all simple paths or shortest paths).

Two routers:
- `heuristic_route`: a rule over the wording alone, used when no router was trained;
- `RouterModel`: logistic regression on the question's sentence embedding (the linker's question
  vector), trained by `train_router` (`kgbuild train router QA_FILE`) from weak labels read off the
  built graph: the fewest hops from the question's linked entities to the answer's nodes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from kgbuild.errors import ConfigError
from kgbuild.graph.walks import adjacency, hop_distances
from kgbuild.query.graph_labels import answer_nodes

if TYPE_CHECKING:
    from kgbuild.graph.projection import GraphProjection
    from kgbuild.query.evaluate import QAItem
    from kgbuild.query.graph_linking import QuestionLinker
    from kgbuild.workspace import Workspace

Route = Literal["simple", "complex"]
SIMPLE: Route = "simple"
COMPLEX: Route = "complex"
SIMPLE_MAX_HOPS = 2  # FRAG: an answer within 2 hops of the question's entities is a simple question
ROUTER_FILE = "frag_router.json"
RETRAIN = "kgbuild train router QA_FILE"
FORMAT = 1

_WORD = re.compile(r"[A-Za-z0-9]+(?:'[A-Za-z]+)?")
_CJK = re.compile(r"[\u4e00-\u9fff]")
_RELATIVE = frozenset(("who", "whom", "whose", "which", "that", "where", "when"))
_DETERMINERS = frozenset(("the", "a", "an", "his", "her", "its", "their", "this", "that", "these", "those"))
_OPENING = 3  # tokens of the opening wh-phrase ("In which city", "Who was the"): the question's own word


@dataclass(frozen=True)
class RouteDecision:
    route: Route
    how: str  # how it was decided, for the trace: "heuristic: ..." or "trained router: p(complex)=0.73"


def router_path(workspace: Workspace) -> Path:
    return workspace.path / "models" / ROUTER_FILE


# ---------------------------------------------------------------- the heuristic


def chain_markers(question: str) -> int:
    """How many unnamed intermediate entities the wording introduces.

    Each of these opens one more relation to follow before the answer:
    - a relative pronoun after the opening wh-phrase ("the woman *who* portrayed ...", "the report on
      *which* ..."): the clause describes an entity the question does not name;
    - "of" + a determiner or a lowercase word ("the author *of the* report"): a relational noun applied
      to something unnamed; "of EDSAC" is not counted, since the named entity is a seed, not a hop,
      nor "of the same ..." (a comparison of named entities);
    - a possessive on a lowercase noun ("the band's founder").
    """
    if _CJK.search(question):
        return _chain_markers_zh(question)
    words = [m.group(0) for m in _WORD.finditer(question)]
    count = 0
    for i, word in enumerate(words):
        low = word.casefold()
        if low in _RELATIVE and i >= _OPENING:
            count += 1
        elif low == "of" and i + 1 < len(words):
            nxt = words[i + 1]
            # "of the same nationality" compares the named entities; it introduces no new one
            same = i + 2 < len(words) and words[i + 2].casefold() == "same"
            if (nxt.casefold() in _DETERMINERS or nxt[:1].islower()) and not same:
                count += 1
        elif low.endswith("'s") and word[:1].islower():
            count += 1
    return count


def _chain_markers_zh(question: str) -> int:
    """The same count for a Chinese question, where a modifier comes before its noun with 的: the first
    的 attaches what is asked to the named entity (星河智能的董事长, as "the chairman of X": no hop), each
    further 的 to something unnamed (EDSAC的设计者所依据的报告的作者: the designer, the report)."""
    return max(0, question.count("的") - 1)


def heuristic_route(question: str, n_linked: int) -> RouteDecision:
    """The documented rule used without a trained router: complex as soon as the wording introduces
    one unnamed intermediate entity (`chain_markers` >= 1), else simple.

    Why: in a graph whose passages are nodes (entity -mentioned in- passage -mentions- entity), the
    one relation a plain question asks about ("Where was Drew Fuller born?") is 1 hop when it was
    extracted as a relation and 2 when it is only read in a shared passage, so within 2 hops; each
    unnamed intermediate adds up to 2 more, so one intermediate already puts the answer 3-4 hops out.
    Neither the number of linked entities nor the length decides: on the 100 HotpotQA questions of
    the offline build, discounting clauses anchored by a second named entity routed 17 questions
    complex and put the answer in the prompt's context for 67 (this rule: 67 complex, 73), and
    requiring two intermediates or a long question, 33 complex and 66. `n_linked` only goes into
    the trace line.
    """
    markers = chain_markers(question)
    words = len(_WORD.findall(question))
    route = COMPLEX if markers >= 1 else SIMPLE
    return RouteDecision(route, f"heuristic: {markers} unnamed intermediate{'' if markers == 1 else 's'} "
                                f"({words} words, {n_linked} linked)")


# ---------------------------------------------------------------- the trained router


@dataclass
class RouterModel:
    """Logistic regression over the question's unit vector; `constant` when training saw one class."""

    coef: list[float]
    intercept: float
    fingerprint: str  # of the graph the labels came from
    embedder: str  # whose question vectors the coefficients read
    counts: dict[str, int] = field(default_factory=dict)
    constant: Route | None = None

    def p_complex(self, vector: np.ndarray) -> float:
        if self.constant is not None:
            return 1.0 if self.constant == COMPLEX else 0.0
        z = float(np.dot(np.asarray(self.coef, dtype=np.float64), np.asarray(vector, dtype=np.float64)))
        return float(1.0 / (1.0 + np.exp(-(z + self.intercept))))

    def route(self, vector: np.ndarray) -> RouteDecision:
        if self.constant is not None:
            return RouteDecision(self.constant, f"trained router: constant {self.constant} (trained on one class)")
        p = self.p_complex(vector)
        return RouteDecision(COMPLEX if p >= 0.5 else SIMPLE, f"trained router: p(complex)={p:.2f}")

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        data = {"format": FORMAT, "coef": self.coef, "intercept": self.intercept, "constant": self.constant,
                "meta": {"fingerprint": self.fingerprint, "embedder": self.embedder, "counts": self.counts}}
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
        tmp.replace(path)

    @classmethod
    def load(cls, path: Path, projection_fingerprint: str, embedder_name: str) -> RouterModel:
        """The saved router; ConfigError (one line naming the command) when it is unreadable or was
        trained on another graph or with another embedder."""
        try:
            data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
            meta = data["meta"]
            model = cls(coef=[float(c) for c in data["coef"]], intercept=float(data["intercept"]),
                        fingerprint=str(meta["fingerprint"]), embedder=str(meta["embedder"]),
                        counts={str(k): int(v) for k, v in (meta.get("counts") or {}).items()},
                        constant=data.get("constant"))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise ConfigError(str(path), f"the FRAG router is unreadable ({exc})", f"run `{RETRAIN}`") from exc
        if model.fingerprint != projection_fingerprint:
            raise ConfigError(str(path), f"the FRAG router was trained on another graph (fingerprint "
                              f"{model.fingerprint}, the graph is now {projection_fingerprint})", f"run `{RETRAIN}`")
        if model.embedder != embedder_name:
            raise ConfigError(str(path), f"the FRAG router reads {model.embedder} vectors but the embedder is "
                              f"{embedder_name}", f"run `{RETRAIN}`")
        return model


def load_router(workspace: Workspace, projection_fingerprint: str, embedder_name: str) -> RouterModel | None:
    """The workspace's trained router, None when there is none (the heuristic is used then)."""
    path = router_path(workspace)
    if not path.exists():
        return None
    return RouterModel.load(path, projection_fingerprint, embedder_name)


@dataclass
class RouterReport:
    items: int = 0
    simple: int = 0  # labelled simple (answer within 2 hops)
    complex: int = 0  # labelled complex (3+ hops)
    unlinked: int = 0  # skipped: the question links to no node
    no_answer_node: int = 0  # skipped: no node is named like the answer
    unreachable: int = 0  # skipped: the answer nodes are beyond max_hops or disconnected
    constant: Route | None = None  # every label had this one class: the router always says it
    train_accuracy: float | None = None
    path: str = ""  # where the router was saved
    by_outcome: int = 0  # labels the outcome of both routes set against the hop distance
    notes: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        skipped = self.unlinked + self.no_answer_node + self.unreachable
        acc = f", training accuracy {self.train_accuracy:.2f}" if self.train_accuracy is not None else ""
        lines = [f"FRAG router: {self.items} questions, {self.simple} simple (answer within {SIMPLE_MAX_HOPS} hops), "
                 f"{self.complex} complex{acc}"
                 + (f", {self.by_outcome} labelled by which route reached the answer" if self.by_outcome else ""),
                 f"skipped {skipped}: {self.unlinked} link to no entity, {self.no_answer_node} have no node named "
                 f"like the answer, {self.unreachable} cannot reach it"]
        return "\n".join([*lines, *self.notes])


def weak_label(projection: GraphProjection, seeds: Sequence[int], answers: Sequence[str], adj: Any,
               *, max_hops: int = 8) -> tuple[Route | None, str]:
    """(label, why skipped): the fewest hops from the seeds to a node named like an answer."""
    if not seeds:
        return None, "unlinked"
    targets = answer_nodes(projection, answers)
    if not targets:
        return None, "no_answer_node"
    hops = hop_distances(adj, seeds, targets, max_hops=max_hops)
    if hops is None:
        return None, "unreachable"
    return (SIMPLE if hops <= SIMPLE_MAX_HOPS else COMPLEX), ""


def train_router(projection: GraphProjection, linker: QuestionLinker, items: Sequence[QAItem],
                 *, max_hops: int = 8, c: float = 1.0,
                 outcomes: Mapping[str, Route] | None = None) -> tuple[RouterModel, RouterReport]:
    """Label each QA item by hop distance in the graph, then fit logistic regression on the question
    vectors. Items that cannot be labelled are skipped and counted in the report.

    `outcomes` (question id -> route): where only one route's walk brought the answer into its
    evidence (frag/train.py tries both), that route is the label, whatever the hop distance says;
    the hop distance labels the rest."""
    from sklearn.linear_model import LogisticRegression

    adj = adjacency(projection)
    report = RouterReport(items=len(items))
    vectors: list[np.ndarray] = []
    labels: list[int] = []
    for item in items:
        linked = linker.link(item.question)
        label, skipped = weak_label(projection, list(linked.seeds), [item.answer, *item.aliases], adj,
                                    max_hops=max_hops)
        if outcomes is not None and item.id in outcomes and linked.seeds:
            if label != outcomes[item.id]:
                report.by_outcome += 1
            label = outcomes[item.id]
        if label is None:
            setattr(report, skipped, getattr(report, skipped) + 1)
            continue
        vectors.append(np.asarray(linked.vector, dtype=np.float64))
        labels.append(1 if label == COMPLEX else 0)
    report.simple = labels.count(0)
    report.complex = labels.count(1)
    counts = {"items": report.items, "simple": report.simple, "complex": report.complex,
              "unlinked": report.unlinked, "no_answer_node": report.no_answer_node,
              "unreachable": report.unreachable}
    dim = int(linker.embedder.dim)
    if not labels:
        raise ConfigError("QA_FILE", f"no question of the {len(items)} could be labelled (unlinked "
                          f"{report.unlinked}, no answer node {report.no_answer_node}, unreachable "
                          f"{report.unreachable})", "is the QA file about this project's documents?")
    if len(set(labels)) == 1:
        only: Route = COMPLEX if labels[0] == 1 else SIMPLE
        report.constant = only
        report.train_accuracy = 1.0
        report.notes.append(f"every labelled question is {only}: the router always answers {only}")
        return RouterModel([0.0] * dim, 0.0, projection.fingerprint, linker.embedder.name, counts, only), report
    x = np.vstack(vectors)
    y = np.asarray(labels)
    # class_weight balanced: multi-hop QA sets are mostly one class; unweighted, the minority is never predicted.
    clf = LogisticRegression(C=c, class_weight="balanced", max_iter=1000)
    clf.fit(x, y)
    report.train_accuracy = float(clf.score(x, y))
    model = RouterModel([float(v) for v in clf.coef_[0]], float(clf.intercept_[0]), projection.fingerprint,
                        linker.embedder.name, counts)
    return model, report
