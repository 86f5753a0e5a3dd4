"""Records passed between the retrieval layer, the solver and the CLI.

The retriever (kgbuild/solve/retrieval) finds entities, triples and chunks; the solver
(kgbuild/solve/logic, planner, executor) turns them into answers. Both sides depend only on these.
"""

from __future__ import annotations

from typing import Any, Literal, Protocol

from pydantic import BaseModel, Field


class LinkedEntity(BaseModel):
    """A mention resolved to a graph entity (or concept)."""

    id: str
    name: str
    type: str | None = None  # spg_class of an entity; "Concept" for a concept
    score: float  # 0..1, higher is better
    how: Literal["exact", "alias", "dense", "concept"] = "exact"


class Triple(BaseModel):
    id: str
    subject_id: str
    subject: str
    predicate: str
    object_id: str
    object: str
    chunk_ids: list[str] = Field(default_factory=list)


class ScoredChunk(BaseModel):
    id: str
    doc_id: str
    text: str
    score: float
    # contribution of each signal before fusion, e.g. {"bm25": 0.8, "dense": 0.6, "ppr": 0.1}
    signals: dict[str, float] = Field(default_factory=dict)


class RetrievalResult(BaseModel):
    chunks: list[ScoredChunk] = Field(default_factory=list)
    triples: list[Triple] = Field(default_factory=list)
    entities: list[LinkedEntity] = Field(default_factory=list)
    seconds: float = 0.0
    # what the retriever had to leave out, e.g. "BM25 left out: <why>" on a store without full text
    notes: list[str] = Field(default_factory=list)


RetrievalMode = Literal["bm25", "dense", "hybrid"]


class Retriever(Protocol):
    def link(self, mention: str, type_hint: str | None = None, k: int = 5) -> list[LinkedEntity]:
        """Entities (and concepts) a mention may refer to: exact/alias match first, then dense."""

    def retrieve(self, question: str, k: int = 5, *, seeds: list[str] | None = None,
                 mode: RetrievalMode = "hybrid") -> RetrievalResult:
        """Chunks for a question: BM25, dense, or the hybrid with Personalized PageRank from the
        linked entities (plus `seeds`, entity ids already known) over the entity-chunk mutual index."""

    def unavailable_modes(self) -> dict[RetrievalMode, str]:
        """Modes this retriever cannot run here, each with the one-line reason (e.g. bm25 on a store
        without full-text search)."""

    def title_of(self, doc_id: str) -> str:
        """The title of a document (Recall@k compares titles with a QA file's supporting passages)."""


class Citation(BaseModel):
    chunk_id: str
    doc_id: str
    text: str = ""  # the sentence or passage quoted


class TraceStep(BaseModel):
    """One executed step of a plan: the logical form, what it bound, and what it cost."""

    step: int
    question: str = ""
    logical_form: str = ""
    result: Any = None
    seconds: float = 0.0
    llm_calls: int = 0


class Answer(BaseModel):
    question: str
    answer: str
    # True only when the solver's judge accepted the answer; False for the solver's best guess after
    # max_iterations and always for a retrieval-only (extractive, unchecked) answer.
    resolved: bool
    mode: Literal["solver", "retrieval"]  # retrieval: no model configured, extractive answer
    strategy: str = ""  # the registered strategy that answered (kgbuild.solve.strategy)
    citations: list[Citation] = Field(default_factory=list)
    triples: list[Triple] = Field(default_factory=list)
    chunks: list[ScoredChunk] = Field(default_factory=list)
    plan: list[str] = Field(default_factory=list)  # logical forms, printed
    trace: list[TraceStep] = Field(default_factory=list)
    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    notes: list[str] = Field(default_factory=list)  # caveats of the retrieval behind the answer
