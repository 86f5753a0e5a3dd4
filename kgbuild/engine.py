"""The query engine: one object opened from a project, behind every query surface.

    with kgbuild.open("myproject") as engine:
        engine.retrieve("Who founded X?", k=5)              # chunks, triples, linked entities
        engine.query("Who founded X?", strategy="hybrid")   # Answer with citations and trace
        engine.eval("qa.json", strategies=["dense", "hybrid"])

The CLI (`kgbuild query`, `kgbuild eval`), the benchmarks and the tests all open a project this way;
none of them assembles a retriever itself. The engine owns the stores it opened (closed by
`close()` or the `with` block) and every strategy it created. Strategies live in a per-engine
registry (`register`), seeded with the built-in ones of kgbuild.query.registry.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from kgbuild.config import CONFIG_FILE_NAME, Config, load_config
from kgbuild.errors import ConfigError
from kgbuild.query.registry import builtin_strategies
from kgbuild.query.strategy import Budget, Strategy, StrategySpec

if TYPE_CHECKING:
    from kgbuild.embed.question import LightEncoder
    from kgbuild.embed.types import Embedder
    from kgbuild.graph.projection import GraphProjection
    from kgbuild.graph.vectors import GraphVectors
    from kgbuild.query.evaluate import EvalReport, QAFile, QAFormat
    from kgbuild.query.graph_linking import QuestionLinker
    from kgbuild.query.retrieval import MutualIndex
    from kgbuild.query.types import Answer, RetrievalMode, RetrievalResult, Retriever
    from kgbuild.records.documents import RecordSources
    from kgbuild.store.open import QueryIndex
    from kgbuild.store.types import GraphStore
    from kgbuild.workspace import Workspace

AUTO = "auto"


def project_config(project: str | Path | Config = ".") -> Config:
    """A Config as given, else the project's kgbuild.yaml (a directory) or the file named."""
    if isinstance(project, Config):
        return project
    path = Path(project)
    return load_config(path / CONFIG_FILE_NAME if path.is_dir() else path)


class Engine:
    """Stores, mutual index and strategies of one built project.

    Build one with `Engine.open(project)`; or, to run on parts made elsewhere (tests, benchmarks
    over an in-memory store), `Engine(config, index, retriever=...)`: a given retriever replaces
    the hybrid retriever the engine would build over `index`.
    """

    def __init__(self, config: Config, index: QueryIndex, *, retriever: Retriever | None = None,
                 graph_pending: bool = False) -> None:
        self._config = config
        self._index = index
        # Opened on first use (`graph`): a retrieval-only question never starts the graph store.
        self._graph_pending = graph_pending
        self._given_retriever = retriever
        self._mutual: MutualIndex | None = None
        self._retrievers: dict[bool, Retriever] = {}
        self._registry: dict[str, StrategySpec] = builtin_strategies()
        self._live: dict[tuple[str, Budget], Strategy] = {}
        self._projection: GraphProjection | None = None
        self._record_sources: RecordSources | None = None  # read on the first answer that cites, once per build
        self._vectors: GraphVectors | None = None
        self._linkers: dict[bool, QuestionLinker] = {}
        self._made_on: tuple[tuple[str, int, int], ...] | None = None  # the tables what the engine holds saw

    @classmethod
    def open(cls, project: str | Path | Config = ".") -> Engine:
        """Open a built project: a directory holding kgbuild.yaml, a config file, or a Config.
        Fails in one line when nothing is built or the stores hold nothing of this workspace."""
        from concurrent.futures import ThreadPoolExecutor

        from kgbuild.store.open import open_query_index

        config = project_config(project)
        # Opening the vector store waits on the Milvus Lite process (half a second, idle); the graph
        # (with the mutual index derived from it) and the question encoder load meanwhile on a second thread.
        with ThreadPoolExecutor(1, thread_name_prefix="kgbuild-warm") as pool:
            warm = pool.submit(_warm_up, config)
            index = open_query_index(config, open_graph=False)
            try:
                graph, light, light_seconds = warm.result()
            except Exception:  # noqa: BLE001 - only a head start: the usual path loads them again and reports
                graph, light, light_seconds = None, None, 0.0
        _embed_questions_without_torch(index, light, light_seconds)
        engine = cls(config, index, graph_pending=config.graph_store.backend != "none")
        if graph is not None:
            engine._projection, engine._mutual = graph
            engine._made_on = graph[0].signature
        return engine

    # ---------------------------------------------------------------- what strategies may use

    @property
    def config(self) -> Config:
        return self._config

    @property
    def workspace(self) -> Workspace:
        return self._index.workspace

    @property
    def graph(self) -> GraphStore | None:
        if self._graph_pending:
            from kgbuild.store.open import open_graph_store

            self._graph_pending = False
            self._index.graph = open_graph_store(self._config)  # the index closes it with the rest
        return self._index.graph

    def timings(self) -> dict[str, float]:
        """Seconds this engine spent loading the embedding model (on a second thread while the stores
        opened, so within open time) and embedding (for `query --json`); empty when the project's
        model has no numpy question pass (the full model is then timed as part of the answer)."""
        from kgbuild.embed.question import QuestionEmbedder

        inner = getattr(self._index.embedder, "inner", None)
        if not isinstance(inner, QuestionEmbedder):
            return {}
        return {"model_load_s": round(inner.load_seconds, 4), "embed_s": round(inner.embed_seconds, 4)}

    def retriever(self, *, cached_embeddings: bool = True) -> Retriever:
        """The hybrid retriever over the vector store and the workspace's mutual index (loaded once).

        cached_embeddings=False embeds every question with the model itself rather than through the
        persistent embedding cache: an evaluation must time a query, not a cache hit.
        """
        if self._given_retriever is not None:
            return self._given_retriever
        if cached_embeddings not in self._retrievers:
            from kgbuild.query.retrieval import HybridRetriever

            index = self._index
            if index.vectors is None:
                raise ConfigError("vector_store.backend", "queries need the vector store, but it is 'none'",
                                  "set vector_store.backend: milvus and run `kgbuild sync`")
            # The model itself when uncached: eval times the question embedding, not a cache hit.
            embedder = self.embedder(cached=cached_embeddings)
            self._retrievers[cached_embeddings] = HybridRetriever(self._mutual_index(), index.vectors, embedder,
                                                                  index.prefix, self._config.query.hybrid)
        return self._retrievers[cached_embeddings]

    def embedder(self, *, cached: bool = True) -> Embedder:
        """The project's embedding model behind its persistent cache; cached=False: the model itself."""
        from kgbuild.embed.cached import CachedEmbedder

        embedder = self._index.embedder
        return embedder.inner if not cached and isinstance(embedder, CachedEmbedder) else embedder

    def _mutual_index(self) -> MutualIndex:
        """Hybrid retrieval's walk over nodes and chunks, derived from the one graph in memory."""
        if self._mutual is None:
            from kgbuild.query.retrieval import MutualIndex

            self._mutual = MutualIndex.from_projection(self.projection())
        return self._mutual

    def projection(self) -> GraphProjection:
        """The built graph in memory for the graph strategies and the explorer, loaded on first use.
        A rebuild is noticed by `refresh()`, before a question, never in the middle of one."""
        if self._projection is None:
            from kgbuild.graph.projection import GraphProjection

            self._projection = GraphProjection.load(self._index.workspace)
            if self._made_on is None:
                self._made_on = self._projection.signature
        return self._projection

    def refresh(self) -> bool:
        """The one staleness check: if the tables changed on disk (a rebuild) since what the engine
        holds was made, the live strategies are closed and dropped with the retrievers, the mutual
        index, the projection and what was derived from it (the next use builds them anew). Called
        before every question and by the explorer between requests; True when something was dropped."""
        from kgbuild.graph.projection import table_signature

        now = table_signature(self._index.workspace)
        stale = self._made_on is not None and now != self._made_on
        if stale:
            self._close_strategies()
            self._mutual = None
            self._retrievers.clear()
            self._projection = None
            self._record_sources = None
            self._vectors = None
            self._linkers.clear()
        self._made_on = now
        return stale

    def graph_vectors(self) -> GraphVectors:
        from kgbuild.graph.vectors import GraphVectors

        projection = self.projection()
        if self._vectors is None or self._vectors.fingerprint != projection.fingerprint:
            self._vectors = GraphVectors.compute(projection, self.embedder())
        return self._vectors

    def question_linker(self, *, cached_embeddings: bool = True) -> QuestionLinker:
        """Question -> projection nodes, linked as the hybrid retriever links (name dictionary, then
        dense over the entity collection); cached_embeddings=False embeds with the model itself."""
        from kgbuild.query.graph_linking import QuestionLinker
        from kgbuild.query.retrieval.linking import EntityLinker

        projection = self.projection()
        if cached_embeddings not in self._linkers:
            mutual = self._mutual_index()
            embedder = self.embedder(cached=cached_embeddings)
            entities = EntityLinker(mutual, self._index.vectors, embedder, f"{self._index.prefix}_entities")
            self._linkers[cached_embeddings] = QuestionLinker(projection, mutual, entities, embedder)
        return self._linkers[cached_embeddings]

    # ---------------------------------------------------------------- strategies

    def register(self, spec: StrategySpec) -> None:
        """Add (or replace) a strategy on this engine only."""
        self._registry[spec.name] = spec

    def strategies(self) -> list[StrategySpec]:
        return list(self._registry.values())

    def resolve(self, name: str) -> str:
        """The strategy `name` stands for ("auto": the solver with a model, else hybrid); an unknown
        name, or one that needs a model when none is configured, is a one-line error."""
        if name == AUTO:
            return "solver" if self._config.llm.configured() else "hybrid"
        if name not in self._registry:
            raise ConfigError("--strategy", f"unknown strategy '{name}'",
                              f"choose from {AUTO}, {', '.join(self._registry)}")
        if self._registry[name].needs_model and not self._config.llm.configured():
            raise ConfigError("llm.model", f"strategy {name} needs a model",
                              "set llm.base_url and llm.model (or KGBUILD_LLM_MODEL), or choose a strategy without one")
        return name

    def strategy(self, name: str, budget: Budget) -> Strategy:
        """The live strategy for `name` and `budget`, created on first use and kept until close() or
        a rebuild of the project's tables."""
        name = self.resolve(name)
        self.refresh()
        key = (name, budget)
        if key not in self._live:
            self._live[key] = self._registry[name].factory(self, budget)
        return self._live[key]

    # ---------------------------------------------------------------- the public calls

    def retrieve(self, question: str, k: int | None = None, *, mode: RetrievalMode = "hybrid") -> RetrievalResult:
        """Chunks, triples and linked entities for a question; no model."""
        _check_question(question)
        self.refresh()
        return self.retriever().retrieve(question, k or self._config.query.top_k, mode=mode)

    def query(self, question: str, *, strategy: str = AUTO, k: int | None = None, use_cache: bool = True) -> Answer:
        """Answer a question with a registered strategy (default: the solver with a model, else hybrid)."""
        _check_question(question)
        name = self.resolve(strategy)
        budget = Budget(k=k or self._config.query.top_k, use_cache=use_cache)
        answer = self.strategy(name, budget).answer(question, budget)
        answer = self._cite_records(answer)
        return answer if answer.strategy else answer.model_copy(update={"strategy": name})

    def _cite_records(self, answer: Answer) -> Answer:
        """The answer with each citation of a records row naming its `file:line` (a row is a source
        like any passage; the strategies know chunks only by id). The records documents are read
        once, on the first answer with citations, and again after a rebuild (`refresh`)."""
        if not answer.citations:
            return answer
        if self._record_sources is None:
            from kgbuild.records.documents import RecordSources

            self._record_sources = RecordSources.read(self.workspace)
        sources = self._record_sources
        if not sources:
            return answer
        citations = [c.model_copy(update={"source": sources.of(c.doc_id, c.chunk_id)}) for c in answer.citations]
        return answer.model_copy(update={"citations": citations})

    def default_eval_strategies(self) -> list[str]:
        """The model-free strategies, and the solver too when a model is configured. The model-guided
        walks (coe, fasttog) make many calls per question, so they are evaluated only when named."""
        names = [s.name for s in self._registry.values() if not s.needs_model]
        if self._config.llm.configured() and "solver" in self._registry:
            names.append("solver")
        return names

    def runnable(self, names: Sequence[str]) -> tuple[list[str], list[str]]:
        """The strategies of `names` that can run here, and one line per strategy left out (bm25 on a
        store without full text). A strategy that cannot run at all is an error."""
        chosen = [self.resolve(n) for n in dict.fromkeys(names)]
        if not chosen:
            raise ConfigError("--strategy", "no strategy given", f"choose from {', '.join(self._registry)}")
        problems: dict[str, str] = {}
        if "bm25" in chosen:  # of the retrieval modes, only bm25 depends on what the store can do
            problem = self.retriever(cached_embeddings=False).unavailable_modes().get("bm25")
            if problem is not None:
                problems["bm25"] = problem
        for name in chosen:
            check = self._registry[name].unavailable
            problem = check(self) if check is not None else None
            if problem is not None:
                problems[name] = problem
        rest = [n for n in chosen if n not in problems]
        if not rest:
            name, problem = next(iter(problems.items()))
            raise ConfigError("--strategy", f"{name} cannot run: {problem}",
                              "choose another strategy" if name != "bm25"
                              else "choose dense or hybrid, or a vector store with full-text search")
        return rest, [f"skipped strategy {name}: {problem}" for name, problem in problems.items()]

    def eval(self, qa: QAFile | str | Path, strategies: Sequence[str] | None = None, *, limit: int | None = None,
             fmt: QAFormat = "auto", keep_results: bool = False,
             on_question: Callable[[str, int], None] | None = None) -> EvalReport:
        """Recall@k, EM, F1, model calls, tokens and latency of each strategy over the same questions.

        Every model call is sent (no reply cache) and every question embedded by the model, so calls
        and latency are this run's. Strategies that cannot run here are left out, each with a line in
        the report's `skipped` (see `runnable`).
        """
        from kgbuild.query.evaluate import QAFile, read_qa, run_modes

        qa_file = qa if isinstance(qa, QAFile) else read_qa(Path(qa), fmt, limit)
        names, skipped = self.runnable(strategies or self.default_eval_strategies())
        # Retrieval modes read twice the Recall depth, so enough distinct passages remain when a
        # document has several chunks; the solver reads query.top_k, as `kgbuild query` does.
        from kgbuild.query.evaluate import RECALL_DEPTHS

        answerers: dict[str, Callable[[str], Answer]] = {}
        for name in names:
            spec = self._registry[name]
            k = self._config.query.top_k if spec.needs_model else 2 * max(RECALL_DEPTHS)
            budget = Budget(k=k, use_cache=False)
            answerers[name] = (lambda strategy, b: lambda q: strategy.answer(q, b))(self.strategy(name, budget), budget)
        if qa_file.items:
            # Loads the embedding model (seconds) before the clock starts on the first question.
            self.retriever(cached_embeddings=False).retrieve(qa_file.items[0].question, 1, mode="dense")
        title_of = self.retriever(cached_embeddings=False).title_of
        report = run_modes(qa_file, answerers, title_of, keep_results=keep_results, on_question=on_question)
        report.skipped.extend(skipped)
        return report

    # ---------------------------------------------------------------- lifetime

    def _close_strategies(self) -> None:
        try:
            for strategy in self._live.values():
                strategy.close()
        finally:
            self._live.clear()

    def close(self) -> None:
        """Close every strategy created, then the stores."""
        try:
            self._close_strategies()
        finally:
            self._index.close()

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _warm_up(config: Config) -> tuple[tuple[GraphProjection, MutualIndex] | None, LightEncoder | None, float]:
    """What every query of the project reads, loaded while the stores open: the graph and the mutual
    index derived from it, and
    the numpy question encoder of the project's model with the seconds its loading took (None for
    what is missing or unsupported; the usual path then loads it, or says what is wrong, later)."""
    import time

    from kgbuild.embed.models import ModelChoice
    from kgbuild.embed.question import LightEncoder
    from kgbuild.errors import KgbuildError
    from kgbuild.graph.projection import GraphProjection
    from kgbuild.query.retrieval import MutualIndex
    from kgbuild.workspace import Workspace

    workspace = Workspace(config.workspace_path())
    graph = None
    if workspace.has_table("chunks"):
        projection = GraphProjection.load(workspace)
        graph = projection, MutualIndex.from_projection(projection)
    start = time.perf_counter()
    light = None
    if config.embedding.backend != "static":  # a static table's vectors are not the transformer's
        try:
            light = LightEncoder.load(ModelChoice(config.embedding.model, "embedding.model").resolve())
        except KgbuildError:
            light = None
    return graph, light, time.perf_counter() - start


def _embed_questions_without_torch(index: QueryIndex, light: LightEncoder | None, light_seconds: float) -> None:
    """Questions are embedded by the numpy pass of the project's model where it reproduces the model
    (kgbuild/embed/question.py); the full model stays behind it for large calls.
    A cold query then never imports torch, which took most of its time."""
    from kgbuild.embed.cached import CachedEmbedder
    from kgbuild.embed.models import SentenceEmbedder
    from kgbuild.embed.question import question_embedder
    from kgbuild.errors import ModelLoadError

    cached = index.embedder
    if not isinstance(cached, CachedEmbedder) or not isinstance(cached.inner, SentenceEmbedder):
        return
    if cached.inner.backend == "static":
        # The numpy pass gives the transformer's vectors, which live in another space than the
        # distilled table's; the table itself needs no torch (embedding.backend: static).
        return
    try:
        model_dir = cached.inner.choice.resolve()
    except ModelLoadError:
        return  # the model is missing: the first embedding says so in one line, as before
    embedder = question_embedder(model_dir, cached.inner, light)
    if embedder is not None:
        embedder.load_seconds = light_seconds if light is not None else 0.0
        cached.inner = embedder


def _check_question(question: str) -> None:
    if not question.strip():
        raise ConfigError("query", "the question is empty")

