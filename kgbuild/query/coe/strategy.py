"""Chain of Explorations (KG-RAG, Sanmartín 2024): the model plans a walk over the graph and steers it.

One question runs the state machine of `planner.Exploration`: a planning call, then per step one
selection call (nodes for a lookup, relations for a hop) and one evaluator call, then one answer
call over the explored path's facts and the passages behind them. A try that fails (a dead end, a
re-plan, an unsupported answer) starts over with a new plan, at most `max_failures` times; then the
fixed "could not find an answer" reply. Every call goes through `ModelSession.ask`, whose
"unknown" records make a malformed reply end its step cleanly (an empty selection is a dead end,
an unreadable evaluation continues the plan).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from kgbuild.graph.projection import CHUNK, GraphProjection
from kgbuild.graph.vectors import unit_rows
from kgbuild.query.coe.planner import COULD_NOT_FIND, Exploration, Phase, PlanStep
from kgbuild.query.coe.replies import (
    KEEP_GOING,
    NO_PLAN,
    NO_SELECTION,
    NOT_FOUND,
    AnswerReply,
    EvaluateReply,
    PlanReply,
    SelectReply,
)
from kgbuild.query.coe.steps import (
    NodeCandidate,
    QualifierIndex,
    RelationCandidate,
    lookup_mask,
    node_candidates,
    rank_relations,
)
from kgbuild.query.graph_evidence import evidence_chunks, to_chunks, to_triples, triple_text
from kgbuild.query.model_session import ModelSession
from kgbuild.query.trace import Trace, Usage
from kgbuild.query.types import Answer, Citation, StepResult
from kgbuild.query_settings import CoESettings

if TYPE_CHECKING:
    from kgbuild.embed.types import Embedder
    from kgbuild.graph.vectors import GraphVectors
    from kgbuild.query.graph_linking import QuestionLinker
    from kgbuild.query.strategy import Budget, QueryResources

NAME = "coe"
STAGE = "query.coe"


@dataclass
class _Question:
    """What one question accumulates while the state machine runs."""

    trace: Trace
    plan_texts: list[str] = field(default_factory=list)
    step_vectors: dict[str, np.ndarray] = field(default_factory=dict)
    reply: AnswerReply | None = None
    facts: list[int] = field(default_factory=list)  # edges shown to the answer prompt, in order
    chunk_nodes: list[int] = field(default_factory=list)  # passages shown to the answer prompt
    notes: list[str] = field(default_factory=list)


class CoEStrategy:
    def __init__(self, projection: GraphProjection, vectors: GraphVectors, linker: QuestionLinker,
                 embedder: Embedder, session: ModelSession, settings: CoESettings | None = None) -> None:
        self.projection = projection
        self.vectors = vectors
        self.linker = linker
        self.embedder = embedder
        self.session = session
        self.settings = CoESettings() if settings is None else settings
        self._mask = lookup_mask(projection)
        self._qualifiers: QualifierIndex | None = None
        self.last_usage = Usage()  # the model's share of the last question (calls, tokens, model_seconds)

    @classmethod
    def create(cls, resources: QueryResources, budget: Budget) -> CoEStrategy:
        return cls(resources.projection(), resources.graph_vectors(),
                   resources.question_linker(cached_embeddings=budget.use_cache),
                   resources.embedder(cached=budget.use_cache),
                   ModelSession(resources.config, resources.workspace, use_cache=budget.use_cache),
                   resources.config.query.coe)

    def close(self) -> None:
        self.session.close()

    @property
    def qualifiers(self) -> QualifierIndex:
        # Hypernode values are embedded on the first question, not when the engine registers the strategy.
        if self._qualifiers is None:
            self._qualifiers = QualifierIndex.build(self.projection, self.embedder, self.vectors.dim)
        return self._qualifiers

    # ---------------------------------------------------------------- one question

    def answer(self, question: str, budget: Budget) -> Answer:
        q = _Question(Trace(self.session))
        p = self.projection
        linked = self.linker.link(question)
        hints = [e.name for e in linked.entities if p.node_kind[p.node_pos[e.id]] != CHUNK][:5]
        state = Exploration(max_failures=self.settings.max_failures, max_steps=self.settings.max_steps)
        while not state.finished:
            t = q.trace.timer()
            result, label, what = self._advance(question, hints, state, q)
            q.trace.add(what, label, result, t)
        return self._finish(question, state, q)

    def _advance(self, question: str, hints: list[str], state: Exploration,
                 q: _Question) -> tuple[StepResult, str, str]:
        """Run the phase the exploration is in; (what the step did, its label, its kind)."""
        if state.phase is Phase.PLAN:
            return self._plan(question, hints, state, q)
        if state.phase is Phase.EXPLORE:
            step = state.next_step()
            if step.kind == "node":
                return self._lookup(question, step, state, q), str(step), "lookup"
            return self._hop(question, step, state, q), str(step), "hop"
        if state.phase is Phase.EVALUATE:
            return self._evaluate(question, state), "coe_evaluate prompt", "evaluate"
        return self._answer(question, state, q), "coe_answer prompt", "answer"

    def _plan(self, question: str, hints: list[str], state: Exploration,
              q: _Question) -> tuple[StepResult, str, str]:
        reply = self.session.ask("coe_plan", f"{STAGE}.plan", PlanReply, unknown=NO_PLAN, question=question,
                                 entities=", ".join(hints) or "(none)",
                                 feedback="\n".join(state.feedback) or "(none)")
        steps = [PlanStep(s.kind, s.text.strip()) for s in reply.steps if s.text.strip()]
        problem = state.accept_plan(steps)
        q.plan_texts = [str(s) for s in state.plan]
        if problem is None:
            texts = [s.text for s in state.plan if s.text not in q.step_vectors]
            if texts:  # one embedding call for the whole plan
                rows = unit_rows(np.asarray(self.embedder.embed(texts), dtype=np.float32))
                q.step_vectors.update(zip(texts, rows, strict=True))
        return (StepResult(plan="failed" if problem else "ok", attempts=state.tries, notes=q.plan_texts or None,
                           reason=problem), f"try {state.tries}", "plan")

    def _lookup(self, question: str, step: PlanStep, state: Exploration, q: _Question) -> StepResult:
        found = node_candidates(self.projection, self.vectors.nodes, self._mask, self.qualifiers,
                                q.step_vectors[step.text], self.settings.node_k)
        chosen = self._select(question, step, "coe_select_nodes", [c.label for c in found], path="")
        picked: list[NodeCandidate] = [found[i] for i in chosen]
        nodes = list(dict.fromkeys(n for c in picked for n in c.reached(self.projection)))
        edges = list(dict.fromkeys(e for c in picked for e in c.edges))
        problem = state.record(nodes, edges)
        return self._step_result(nodes, edges, [c.label for c in found], problem)

    def _hop(self, question: str, step: PlanStep, state: Exploration, q: _Question) -> StepResult:
        found: list[RelationCandidate] = rank_relations(
            self.projection, self.vectors, self.qualifiers, state.current, q.step_vectors[step.text],
            self.settings.relation_k, exclude_edges=state.path_edges, exclude_nodes=state.path_nodes)
        labels = [c.label(self.projection) for c in found]
        path = "\n".join(triple_text(self.projection, e) for e in state.path_edges) or "(none)"
        chosen = self._select(question, step, "coe_select_relations", labels, path=path)
        picked = [found[i] for i in chosen]
        nodes = list(dict.fromkeys(c.target for c in picked))
        edges = list(dict.fromkeys(c.edge for c in picked))
        problem = state.record(nodes, edges)
        return self._step_result(nodes, edges, labels, problem)

    def _select(self, question: str, step: PlanStep, prompt: str, labels: list[str], *, path: str) -> list[int]:
        """Positions (0-based) of the candidates the model keeps; no candidates: no call, a dead end."""
        if not labels:
            return []
        numbered = "\n".join(f"{i}. {label}" for i, label in enumerate(labels, 1))
        stage = f"{STAGE}.select"
        if prompt == "coe_select_relations":  # only a hop shows the path so far
            reply = self.session.ask(prompt, stage, SelectReply, unknown=NO_SELECTION, question=question,
                                     step=step.text, candidates=numbered, path=path)
        else:
            reply = self.session.ask(prompt, stage, SelectReply, unknown=NO_SELECTION, question=question,
                                     step=step.text, candidates=numbered)
        # Numbers outside the list are the model's slip, not a candidate.
        valid = [n - 1 for n in dict.fromkeys(reply.selected) if 1 <= n <= len(labels)]
        return valid[: self.settings.max_selected]

    def _step_result(self, nodes: list[int], edges: list[int], shown: list[str], problem: str | None) -> StepResult:
        p = self.projection
        quals = {p.edge_ids[e]: [f"{x.predicate}: {x.value}" for x in p.qualifiers[e]]
                 for e in edges if e in p.qualifiers}
        return StepResult(how="graph" if nodes else "nothing", bound={"nodes": [p.node_names[n] for n in nodes]},
                          triples=[p.edge_ids[e] for e in edges] or None, qualifiers=quals or None,
                          notes=[f"candidates: {len(shown)}", *shown[:3]], error=problem)

    def _evaluate(self, question: str, state: Exploration) -> StepResult:
        p = self.projection
        plan = "\n".join(f"{i}. {s}{' [done]' if i <= state.position else ''}" for i, s in enumerate(state.plan, 1))
        reply = self.session.ask("coe_evaluate", f"{STAGE}.evaluate", EvaluateReply, unknown=KEEP_GOING,
                                 question=question, plan=plan,
                                 path="\n".join(triple_text(p, e) for e in state.path_edges) or "(none)",
                                 current=", ".join(p.node_names[n] for n in state.current))
        problem = state.decide(reply.decision, reply.reason)
        return StepResult(verdict=reply.decision, decided_by="model", reason=reply.reason or None, error=problem)

    def _answer(self, question: str, state: Exploration, q: _Question) -> StepResult:
        p = self.projection
        q.facts = list(state.path_edges)
        q.chunk_nodes = self._passages(state)
        passages = json.dumps([{"id": p.node_ids[c], "text": p.chunk_text[c]} for c in q.chunk_nodes],
                              ensure_ascii=False)
        reply = self.session.ask("coe_answer", f"{STAGE}.answer", AnswerReply, unknown=NOT_FOUND, question=question,
                                 facts="\n".join(f"{i}. {triple_text(p, e)}" for i, e in enumerate(q.facts, 1))
                                 or "(none)",
                                 passages=passages, current=", ".join(p.node_names[n] for n in state.current))
        found = reply.found and bool(reply.answer.strip())
        problem = state.answered(found)
        if found:
            q.reply = reply
        return StepResult(answer=reply.answer or None, decided_by="model",
                          judge="resolved" if found else "unresolved", error=problem,
                          triples=[p.edge_ids[q.facts[i - 1]] for i in reply.facts if 1 <= i <= len(q.facts)] or None,
                          chunks=[p.node_ids[c] for c in q.chunk_nodes])

    def _passages(self, state: Exploration) -> list[int]:
        """Passages behind the path, the last step's first (the answer is at the end of the path),
        then the passages supporting the nodes reached."""
        p = self.projection
        units: list[tuple[list[int], list[int]]] = [
            (edges, nodes) for edges, nodes in zip(reversed(state.step_edges), reversed(state.step_nodes), strict=True)]
        units += [([], list(p.node_chunks[n])) for n in reversed(state.path_nodes)]
        return evidence_chunks(p, units, limit=self.settings.max_passages)

    # ---------------------------------------------------------------- the Answer

    def _finish(self, question: str, state: Exploration, q: _Question) -> Answer:
        p = self.projection
        self.last_usage = q.trace.used()
        notes = list(q.notes)
        resolved = state.phase is Phase.DONE and q.reply is not None
        if resolved and q.reply is not None:
            text = q.reply.answer.strip()
            shown = {p.node_ids[c]: c for c in q.chunk_nodes}
            cited = [shown[cid] for cid in q.reply.chunk_ids if cid in shown]
            outside = [cid for cid in q.reply.chunk_ids if cid not in shown]
            if outside:
                notes.append(f"the model cited passages it was not shown (ignored): {', '.join(outside[:3])}")
            citations = [Citation(chunk_id=p.node_ids[c], doc_id=p.chunk_doc[c], text=p.chunk_text[c])
                         for c in dict.fromkeys(cited)]
        else:
            text, citations = COULD_NOT_FIND, []
            notes.append(f"gave up after {state.failures} failed tries: " + " | ".join(state.feedback))
        # The evidence of the last try that reached the answer step (or of the last try at all).
        edges = q.facts if q.facts or not state.path_edges else list(state.path_edges)
        chunk_nodes = q.chunk_nodes if q.facts or q.chunk_nodes else self._passages(state)
        answer = Answer(question=question, answer=text, resolved=resolved, mode="solver", strategy=NAME,
                        citations=citations, triples=to_triples(p, edges), chunks=to_chunks(p, chunk_nodes),
                        facts=[triple_text(p, e) for e in edges], plan=q.plan_texts, notes=notes)
        return q.trace.finish(answer)
