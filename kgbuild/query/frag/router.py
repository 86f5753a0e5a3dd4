"""FRAG's router: is the answer within 2 hops of the question's entities (simple) or 3+ (complex)?

The router reads only the question, so it runs before any graph work and decides how far the
preprocessing reaches (k = 2 or 4) and how paths are retrieved (all simple paths or shortest paths).

Two routers:
- `heuristic_route`: a rule over the wording alone, used when no router was trained;
- `RouterModel`: what `train_router` (`kgbuild train router QA_FILE`) chose. It fits logistic
  regression on the question's sentence embedding (the linker's question vector) from weak labels
  read off the built graph (the fewest hops from the question's linked entities to the answer's
  nodes, or the route whose walk reached the answer), then keeps whichever of that model, the
  wording rule and the two constant routes brought the most training answers into the evidence
  (the model scored by cross-validation). A few hundred questions do not fit a 384-dimension model
  well: on HotpotQA's 100 the fitted model routed worse than the wording rule, so a trained router
  must earn its place against the rule on the user's own questions.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from kgbuild.errors import ConfigError
from kgbuild.graph.walks import adjacency, hop_distances
from kgbuild.query.graph_labels import answer_nodes
from kgbuild.query.retrieval.question_shape import WORD, chain_markers

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



@dataclass(frozen=True)
class RouteDecision:
    route: Route
    how: str  # how it was decided, for the trace: "heuristic: ..." or "trained router: p(complex)=0.73"


def router_path(workspace: Workspace) -> Path:
    return workspace.path / "models" / ROUTER_FILE


# ---------------------------------------------------------------- the heuristic


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
    words = len(WORD.findall(question))
    route = COMPLEX if markers >= 1 else SIMPLE
    return RouteDecision(route, f"heuristic: {markers} unnamed intermediate{'' if markers == 1 else 's'} "
                                f"({words} words, {n_linked} linked)")


# ---------------------------------------------------------------- the trained router


Rule = Literal["learned", "wording"]
LEARNED: Rule = "learned"
WORDING: Rule = "wording"


@dataclass
class RouterModel:
    """A trained router: logistic regression over the question's unit vector (`rule` learned), the
    wording rule (`rule` wording: training found it routes better than the fitted model), or
    `constant` (training saw one class, or one route reached the most answers)."""

    coef: list[float]
    intercept: float
    fingerprint: str  # of the graph the labels came from
    embedder: str  # whose question vectors the coefficients read
    counts: dict[str, int] = field(default_factory=dict)
    constant: Route | None = None
    rule: Rule = LEARNED
    why: str = ""  # what training measured when it chose `rule` / `constant`, for the trace

    def p_complex(self, vector: np.ndarray) -> float:
        if self.constant is not None:
            return 1.0 if self.constant == COMPLEX else 0.0
        z = float(np.dot(np.asarray(self.coef, dtype=np.float64), np.asarray(vector, dtype=np.float64)))
        return float(1.0 / (1.0 + np.exp(-(z + self.intercept))))

    def route(self, vector: np.ndarray, question: str = "", n_linked: int = 0) -> RouteDecision:
        why = f" ({self.why})" if self.why else ""
        if self.constant is not None:
            why = why or " (trained on one class)"
            return RouteDecision(self.constant, f"trained router: constant {self.constant}{why}")
        if self.rule == WORDING:
            rule = heuristic_route(question, n_linked)
            return RouteDecision(rule.route, f"trained router: the wording rule{why}; {rule.how}")
        p = self.p_complex(vector)
        return RouteDecision(COMPLEX if p >= 0.5 else SIMPLE, f"trained router: p(complex)={p:.2f}")

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        data = {"format": FORMAT, "coef": self.coef, "intercept": self.intercept, "constant": self.constant,
                "rule": self.rule, "why": self.why,
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
                        constant=data.get("constant"), why=str(data.get("why") or ""))
            rule = data.get("rule", LEARNED)  # routers saved before the rule was chosen are all learned
            if rule not in (LEARNED, WORDING):
                raise ValueError(f"unknown rule {rule!r}")
            model.rule = rule
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
    walked: int = 0  # questions whose two walks were tried (the candidates are scored on these)
    reached: dict[str, int] = field(default_factory=dict)  # candidate -> answers its routing reached
    chosen: str = ""  # the candidate kept
    notes: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        skipped = self.unlinked + self.no_answer_node + self.unreachable
        acc = f", training accuracy {self.train_accuracy:.2f}" if self.train_accuracy is not None else ""
        lines = [f"FRAG router: {self.items} questions, {self.simple} simple (answer within {SIMPLE_MAX_HOPS} hops), "
                 f"{self.complex} complex{acc}"
                 + (f", {self.by_outcome} labelled by which route reached the answer" if self.by_outcome else ""),
                 f"skipped {skipped}: {self.unlinked} link to no entity, {self.no_answer_node} have no node named "
                 f"like the answer, {self.unreachable} cannot reach it"]
        if self.chosen:
            scores = ", ".join(f"{CANDIDATES[name]} {n}" for name, n in self.reached.items())
            lines.append(f"chose {CANDIDATES[self.chosen]}; answers reached of the {self.walked} questions walked: "
                         f"{scores} (the fitted model by {INNER_FOLDS}-fold cross-validation)")
        return "\n".join([*lines, *self.notes])


# The candidates a trained router is chosen from, in the order ties go: the wording rule first (no
# fitted parameters to overfit), then the constants (simple is the cheaper walk), the fitted model last.
CANDIDATES = {"wording": "the wording rule", "simple": "always simple", "complex": "always complex",
              "learned": "the fitted model"}
INNER_FOLDS = 4


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


@dataclass
class _Question:
    id: str
    question: str
    n_linked: int
    vector: np.ndarray
    label: int | None  # 1 complex, 0 simple, None unlabelled


def _fit(questions: Sequence[_Question], c: float) -> Any:
    """Logistic regression on the labelled questions' vectors; an int (the one class) when training
    sees a single class, None when nothing is labelled."""
    from sklearn.linear_model import LogisticRegression

    labelled = [q for q in questions if q.label is not None]
    if not labelled:
        return None
    classes = {q.label for q in labelled}
    if len(classes) == 1:
        return classes.pop()
    # class_weight balanced: multi-hop QA sets are mostly one class; unweighted, the minority is never predicted.
    clf = LogisticRegression(C=c, class_weight="balanced", max_iter=1000)
    clf.fit(np.vstack([q.vector for q in labelled]), np.asarray([q.label for q in labelled]))
    return clf


def _predict(fitted: Any, q: _Question) -> Route:
    if fitted is None or isinstance(fitted, int):
        return COMPLEX if fitted == 1 else SIMPLE
    return COMPLEX if int(fitted.predict(q.vector.reshape(1, -1))[0]) == 1 else SIMPLE


def _reached(questions: Sequence[_Question], outcomes: Mapping[str, Collection[Route]], c: float) -> dict[str, int]:
    """For each candidate, how many of the walked questions it would route where the answer was reached.
    The fitted model is scored on questions it was not fitted on (INNER_FOLDS-fold)."""
    walked = [q for q in questions if q.id in outcomes]
    hits = {name: 0 for name in CANDIDATES}
    for q in walked:
        ok = outcomes[q.id]
        hits["wording"] += heuristic_route(q.question, q.n_linked).route in ok
        hits["simple"] += SIMPLE in ok
        hits["complex"] += COMPLEX in ok
    for fold in range(INNER_FOLDS):
        held = [q for i, q in enumerate(walked) if i % INNER_FOLDS == fold]
        held_ids = {q.id for q in held}
        fitted = _fit([q for q in questions if q.id not in held_ids], c)
        hits["learned"] += sum(_predict(fitted, q) in outcomes[q.id] for q in held)
    return hits


def train_router(projection: GraphProjection, linker: QuestionLinker, items: Sequence[QAItem],
                 *, max_hops: int = 8, c: float = 1.0,
                 outcomes: Mapping[str, Collection[Route]] | None = None) -> tuple[RouterModel, RouterReport]:
    """Label each QA item by hop distance in the graph, fit logistic regression on the question
    vectors, and keep it or a simpler router. Items that cannot be labelled are skipped and counted.

    `outcomes` (question id -> the routes whose walk brought the answer into the evidence; frag/train.py
    tries both): where exactly one route reached it, that route is the label, whatever the hop distance
    says. The outcomes also score the candidates (wording rule, always simple, always complex, the fitted
    model by cross-validation) and the one that reached the most answers is kept, ties going to the
    simpler. Without outcomes the fitted model is kept, as before outcomes existed."""
    adj = adjacency(projection)
    report = RouterReport(items=len(items))
    questions: list[_Question] = []
    for item in items:
        linked = linker.link(item.question)
        label, skipped = weak_label(projection, list(linked.seeds), [item.answer, *item.aliases], adj,
                                    max_hops=max_hops)
        reached = outcomes.get(item.id) if outcomes is not None else None
        if reached is not None and len(reached) == 1 and linked.seeds:
            single = next(iter(reached))
            if label != single:
                report.by_outcome += 1
            label = single
        if label is None:
            setattr(report, skipped, getattr(report, skipped) + 1)
        questions.append(_Question(item.id, item.question, len(linked.seeds),
                                   np.asarray(linked.vector, dtype=np.float64),
                                   None if label is None else int(label == COMPLEX)))
    labels = [q.label for q in questions if q.label is not None]
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
    fitted = _fit(questions, c)
    if isinstance(fitted, int):
        only: Route = COMPLEX if fitted == 1 else SIMPLE
        report.constant = only
        report.train_accuracy = 1.0
        report.notes.append(f"every labelled question is {only}: the router always answers {only}")
        model = RouterModel([0.0] * dim, 0.0, projection.fingerprint, linker.embedder.name, counts, only)
    else:
        labelled = [q for q in questions if q.label is not None]
        report.train_accuracy = float(fitted.score(np.vstack([q.vector for q in labelled]),
                                                   np.asarray([q.label for q in labelled])))
        model = RouterModel([float(v) for v in fitted.coef_[0]], float(fitted.intercept_[0]),
                            projection.fingerprint, linker.embedder.name, counts)
    if outcomes:
        report.walked = sum(q.id in outcomes for q in questions)
        report.reached = _reached(questions, outcomes, c)
        best = max(report.reached.values())
        report.chosen = next(name for name, n in report.reached.items() if n == best)
        model.why = f"reached {best} of {report.walked} training answers, the most of {len(CANDIDATES)} candidates"
        if report.chosen == "wording":
            model.constant, model.rule = None, WORDING
        elif report.chosen in (SIMPLE, COMPLEX):
            model.constant = SIMPLE if report.chosen == SIMPLE else COMPLEX
    return model, report
