"""The answer step shared by the strategies that retrieve without a model (FRAG, SubgraphRAG).

With a model: one call over the numbered facts (verbalised paths or triples) and the passages behind
them, through the `graph_answer` prompt, which allows "not available". Without one: the best ranked
node whose class fits the question, marked unverified. Either way the Answer carries the passages
the prompt sees (at most 5), the triples and the trace.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field

from kgbuild.graph.projection import CHUNK, GraphProjection
from kgbuild.query.graph_evidence import fits_type
from kgbuild.query.llm_ask import Text
from kgbuild.query.retrieval.answer_check import check_type, settle
from kgbuild.query.retrieval.fact_answer import fact_answer
from kgbuild.query.types import Answer, ScoredChunk, StepResult, TraceStep

if TYPE_CHECKING:
    from kgbuild.query.model_session import ModelSession
    from kgbuild.query.retrieval.index import MutualIndex
    from kgbuild.query.trace import Timer, Trace

UNVERIFIED = "unverified: the answer is the best-ranked graph node of the expected type, not checked by a model"
NO_LINK = "no entity of the question was found in the graph; nothing to walk from"
TEXT_ONLY = "the passages are text retrieval's alone (no walk)"
MAX_FACTS = 64  # facts shown to the model; ranked, so the tail matters least


class GraphAnswerReply(BaseModel):
    model_config = ConfigDict(extra="ignore")

    found: bool
    answer: Text = ""
    facts: list[int] = Field(default_factory=list)


NOT_FOUND = GraphAnswerReply(found=False)


def model_free_answer(projection: GraphProjection, question: str, ranked_nodes: Sequence[int],
                      exclude: set[int]) -> str:
    """The first node in rank order that fits the question's expected type and is not one of the
    question's own entities; "" when none does."""
    node = _first_fitting(projection, question, ranked_nodes, exclude)
    return projection.node_names[node] if node is not None else ""


def _first_fitting(projection: GraphProjection, question: str, ranked_nodes: Sequence[int],
                   exclude: set[int]) -> int | None:
    for node in ranked_nodes:
        if node not in exclude and fits_type(projection, node, question):
            return node
    return None


def model_free(answer: Answer, projection: GraphProjection, question: str, ranked_nodes: Sequence[int],
               exclude: set[int], alternatives: int = 4,
               facts: tuple[MutualIndex, Sequence[int]] | None = None) -> Answer:
    """`answer` with the model-free pick (the best node of the expected type) through the type gate
    every model-free answer passes (kgbuild/query/retrieval/answer_check.py): a pick that is not of the kind
    asked (a node name for a yes/no or a number question) is listed as a candidate, not given, and
    the best ranked nodes of any type are the candidates when no node fits. `facts`: the mutual index and
    the index nodes the question names; a relation of theirs that says what is asked answers first (as
    hybrid's answer does, kgbuild/query/retrieval/fact_answer.py)."""
    if facts is not None:
        index, named = facts
        found = fact_answer(question, index, named)
        if found is not None:
            return answer.model_copy(update={"answer": found.answer, "resolved": False, "expected_type":
                                             check_type(question, found.answer).expected,
                                             "notes": [*answer.notes, found.note(index)]})
    node = _first_fitting(projection, question, ranked_nodes, exclude)
    text = projection.node_names[node] if node is not None else ""
    classes = [projection.node_class[node] or ""] if node is not None else []
    ranked = [n for n in dict.fromkeys(ranked_nodes)
              if n not in exclude and projection.node_kind[n] not in (CHUNK, "event")]
    others = [projection.node_names[n] for n in ranked][:alternatives + 1]
    class_of = {projection.node_names[n]: projection.node_class[n] or "" for n in reversed(ranked)}
    settled = settle(answer.model_copy(update={"answer": text, "resolved": False}),
                     check_type(question, text, classes), others,
                     recheck=lambda name: check_type(question, name, [class_of.get(name, "")]))
    if text and settled.answer:
        settled.notes.append(UNVERIFIED)
    elif not text:
        settled.notes.append("no ranked node is of the type the question asks for"
                             + ("; the best ranked ones are listed as candidates" if others else ""))
    return settled


def ask_model(session: ModelSession, question: str, facts: Sequence[str], passages: Sequence[tuple[str, str]],
              stage: str) -> GraphAnswerReply:
    numbered = "\n".join(f"{i}. {fact}" for i, fact in enumerate(facts[:MAX_FACTS], 1)) or "(none)"
    shown = json.dumps([{"id": cid, "text": text} for cid, text in passages], ensure_ascii=False)
    return session.ask("graph_answer", stage, GraphAnswerReply, unknown=NOT_FOUND, question=question,
                       facts=numbered, passages=shown)


def answer_step(trace: Trace, reply: GraphAnswerReply | None, answer: str, since: Timer,
                reached_by: str = "") -> TraceStep:
    """The trace line of the answer step (a model's reply, or the model-free pick with the
    verbalised path or triple that reached it)."""
    if reply is None:
        notes = [f"reached by: {reached_by}"] if reached_by else []
        return trace.add("answer", "model-free: best node of the expected type",
                         StepResult(answer=answer, decided_by="kgbuild", notes=notes), since)
    return trace.add("answer", "graph_answer prompt",
                     StepResult(answer=answer, decided_by="model", judge="resolved" if reply.found else "unresolved"),
                     since)


def empty_answer(question: str, strategy: str) -> Answer:
    """A question that links to nothing: an explained empty answer, not an exception (the caller's
    trace finishes it)."""
    return Answer(question=question, answer="", resolved=False, mode="retrieval", strategy=strategy,
                  notes=[NO_LINK])


def unlinked_answer(trace: Trace, session: ModelSession | None, question: str, strategy: str,
                    chunks: Sequence[ScoredChunk], since: Timer, stage: str) -> Answer:
    """A question that links to nothing, with the text retriever's passages (`chunks`, when the
    strategy fuses with text): what a walk would have added is missing, what text retrieval reads is
    not. With a model, one answer call over those passages; without one, no answer (no node was
    ranked, and a passage's sentence is the extractive strategies' business)."""
    answer = empty_answer(question, strategy)
    if not chunks:
        return answer
    answer.chunks = list(chunks)
    answer.notes.append(TEXT_ONLY)
    trace.add("passages", "text retrieval alone: nothing to walk from",
              StepResult(how="text", chunks=[c.id for c in chunks]), since)
    if session is not None:
        t = trace.timer()
        reply = ask_model(session, question, [], [(c.id, c.text) for c in chunks], stage)
        answer.answer = reply.answer.strip() if reply.found else ""
        answer.resolved = bool(reply.found and answer.answer)
        answer.mode = "solver"
        answer_step(trace, reply, answer.answer, t)
    return answer
