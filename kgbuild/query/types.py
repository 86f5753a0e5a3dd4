"""Records passed between the retrieval layer, the solver and the CLI.

The retriever (kgbuild/query/retrieval) finds entities, triples and chunks; the solver
(kgbuild/query/solver/logic, planner, executor) turns them into answers. Both sides depend only on these.
"""

from __future__ import annotations

from typing import Any, Literal, Protocol

from pydantic import BaseModel, Field, SerializerFunctionWrapHandler, computed_field, model_serializer

# The note that says a model-free answer is a relation of the question's own entity (query/retrieval/fact_answer.py);
# the CLI names the answer's source by it.
FACT_NOTE = "answered from a graph fact"


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
    # A row of a mapped records file (or its text column): the record's `file:line`, filled by the
    # engine from the workspace's documents (docs/structured.md); None for a passage of a text.
    source: str | None = None


Number = int | float | None


class StepResult(BaseModel):
    """What one traced step did. Each kind of step fills its own fields and leaves the rest None
    (dropped from JSON): a Retrieval `how`/`bound`/`triples`/`chunks`/`notes`/`qualifiers`, Sort and
    Math `bound` (Math its `inputs`), Deduce `verdict`/`decided_by`/`reason`, Output `output`, a read
    from chunks alone `how`/`answers`, the solver's own steps `plan`/`attempts`/`rejected`,
    `judge`/`answer`/`missing` and `reflect`; any step that failed for good, `error`."""

    how: str | None = None  # where a retrieval found its answer: graph, graph:fuzzy, graph:path, chunks, nothing
    bound: dict[str, list[str]] | None = None  # variable -> the values this step bound
    output: dict[str, list[str]] | None = None
    answers: list[str] | None = None
    triples: list[str] | None = None  # ids of the triples used
    chunks: list[str] | None = None  # ids of the chunks read
    qualifiers: dict[str, list[str]] | None = None  # triple id -> its hypernode qualifiers
    notes: list[str] | None = None
    inputs: dict[str, int | float | list[Number]] | None = None  # Math: the numbers each variable gave
    verdict: str | None = None  # Deduce: true / false / unknown or the model's conclusion
    decided_by: Literal["kgbuild", "model"] | None = None
    reason: str | None = None
    plan: Literal["ok", "failed"] | None = None
    attempts: int | None = None
    rejected: list[str] | None = None  # plans the parser refused, with the error of each
    judge: Literal["resolved", "unresolved"] | None = None
    answer: str | None = None
    missing: str | None = None
    reflect: list[str] | None = None  # supplementary questions
    error: str | None = None

    @model_serializer(mode="wrap")
    def _without_unset_kinds(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        return {k: v for k, v in handler(self).items() if v is not None}


class TraceStep(BaseModel):
    """One executed step of a plan: the logical form, what it bound, and what it cost."""

    step: int
    question: str = ""
    logical_form: str = ""
    result: StepResult = Field(default_factory=StepResult)
    seconds: float = 0.0
    llm_calls: int = 0


class Answer(BaseModel):
    question: str
    answer: str
    # True only when the solver's judge accepted the answer; False for the solver's best guess after
    # max_iterations and always for a retrieval-only (extractive, unchecked) answer.
    resolved: bool
    mode: Literal["solver", "retrieval"]  # retrieval: no model configured, extractive answer
    strategy: str = ""  # the registered strategy that answered (kgbuild.query.strategy)
    citations: list[Citation] = Field(default_factory=list)
    triples: list[Triple] = Field(default_factory=list)
    chunks: list[ScoredChunk] = Field(default_factory=list)
    # The graph strategies: the ranked paths or triples, verbalised as the answer prompt sees them
    # (`s -> r -> m -> r -> e`, qualifiers in brackets), whether or not a model was asked.
    facts: list[str] = Field(default_factory=list)
    plan: list[str] = Field(default_factory=list)  # logical forms, printed
    trace: list[TraceStep] = Field(default_factory=list)
    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    model_seconds: float = 0.0  # of `seconds`, the wall time spent waiting on the model endpoint
    notes: list[str] = Field(default_factory=list)  # caveats of the retrieval behind the answer
    # Answers made without a model (kgbuild/query/retrieval/answer_check.py): the kind of answer the question's
    # wording asks for, and the unchecked guesses, best first, when none of them could be given as the
    # answer (the answer is then empty) or besides the one given.
    expected_type: str = ""
    # Why the strategy could not do its work on this question (every plan unusable, a model call that
    # failed for good); "" when it ran. An evaluation counts such a question as an error, with this line.
    failure: str = ""
    candidates: list[str] = Field(default_factory=list)
    # Where the time went, in seconds: the strategy's own split (hybrid: retrieval_s, answer_s) and, from
    # `kgbuild query`, startup_s, open_s, model_load_s, embed_s, query_s, total_s (docs/answers.md).
    timings: dict[str, float] = Field(default_factory=dict)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def verified(self) -> bool:
        """Whether a model read the evidence and gave this answer. The model-led strategies (solver,
        CoE, FastToG) say so by `resolved` (their judge accepted it); the others by the trace step that
        picked the answer (`decided_by`: "model" for the answer prompt, "kgbuild" for the model-free
        pick). Every extractive or model-free answer is a guess nobody checked (a cached model reply
        still counts as the model's, so call counts do not decide)."""
        if not self.answer:
            return False
        if self.mode == "solver":
            return self.resolved
        deciders = [step.result.decided_by for step in self.trace if step.result.decided_by]
        return bool(deciders) and deciders[-1] == "model"
