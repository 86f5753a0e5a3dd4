"""FRAG as a kgbuild strategy: link, route, preprocess, retrieve paths, rank, answer.

Retrieval makes no model call: linking embeds the question once (the embedder, not a language
model), everything after is graph work on the engine's projection and vectors computed once per
graph. The answer is one `graph_answer` call over the ranked paths and their passages when a model
is configured, else the tail of the best path whose class fits the question, marked unverified.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kgbuild.graph.projection import MENTION
from kgbuild.graph.walks import adjacency
from kgbuild.query.frag.paths import retrieve_paths
from kgbuild.query.frag.preprocess import preprocess
from kgbuild.query.frag.rank import RankedPath, Rerank, rank_paths, rank_trees, rerank_paths
from kgbuild.query.frag.router import SIMPLE, RouteDecision, RouterModel, heuristic_route, load_router
from kgbuild.query.graph_answer import answer_step, ask_model, model_free, unlinked_answer
from kgbuild.query.graph_evidence import (
    closest_passages,
    evidence_chunks,
    path_text,
    to_chunks,
    to_triples,
    with_text_ranking,
)
from kgbuild.query.trace import Trace
from kgbuild.query.types import Answer, StepResult
from kgbuild.query_settings import FragSettings

if TYPE_CHECKING:
    import scipy.sparse as sp

    from kgbuild.graph.projection import GraphProjection
    from kgbuild.graph.vectors import GraphVectors
    from kgbuild.query.graph_linking import LinkedQuestion, QuestionLinker
    from kgbuild.query.model_session import ModelSession
    from kgbuild.query.strategy import Budget, QueryResources

NAME = "frag"
NO_ROUTER = "router: none trained, the wording heuristic decided (train one: kgbuild train router QA_FILE)"
MAX_PASSAGES = 5  # what the answer prompt sees, whatever the budget


@dataclass(frozen=True)
class _Graph:
    """What the strategy derives from one projection; rebuilt when the engine reloads the graph."""

    projection: GraphProjection
    vectors: GraphVectors
    linker: QuestionLinker
    adj: sp.csr_matrix
    router: RouterModel | None


class FragStrategy:
    def __init__(self, resources: QueryResources, budget: Budget, router: RouterModel | None = None,
                 settings: FragSettings | None = None, *, heuristic: bool = False, model_free: bool = False) -> None:
        """`router`: a trained router to use (else the workspace's, if one was saved); `settings`: these
        instead of the project's `query.frag`; `heuristic`: route by the wording rule whatever was
        trained (an evaluation of the rule itself); `model_free`: never ask a model, even when one is
        configured (training reads the walk's evidence only)."""
        self.resources = resources
        self.settings = resources.config.query.frag if settings is None else settings
        self.heuristic = heuristic
        self.model_free = model_free
        self.use_cache = budget.use_cache
        self._given_router = router
        self._graph = self._derive()
        self._session: ModelSession | None = None
        self._rerank: Rerank | None = None

    def _derive(self) -> _Graph:
        projection = self.resources.projection()
        linker = self.resources.question_linker(cached_embeddings=self.use_cache)
        router = self._given_router
        if router is None and not self.heuristic:
            router = load_router(self.resources.workspace, projection.fingerprint, linker.embedder.name)
        return _Graph(projection, self.resources.graph_vectors(), linker, adjacency(projection), router)

    def _current(self) -> _Graph:
        if self.resources.projection() is not self._graph.projection:
            self._graph = self._derive()
        return self._graph

    def _reranker(self) -> Rerank:
        if self._rerank is None:
            from sentence_transformers import CrossEncoder

            model = CrossEncoder(self.settings.cross_encoder)

            def rerank(question: str, texts: list[str]) -> Sequence[float]:
                return [float(s) for s in model.predict([(question, t) for t in texts])]

            self._rerank = rerank
        return self._rerank

    # ---------------------------------------------------------------- one question

    def route(self, graph: _Graph, question: str, linked: LinkedQuestion) -> RouteDecision:
        if graph.router is not None:
            return graph.router.route(linked.vector, question, len(linked.seeds))
        return heuristic_route(question, len(linked.seeds))

    def answer(self, question: str, budget: Budget) -> Answer:
        session = self._model_session() if self.resources.config.llm.configured() and not self.model_free else None
        trace = Trace(session)
        graph = self._current()
        p, s = graph.projection, self.settings
        linked = graph.linker.link(question)
        trace.add("link", "question -> graph nodes", StepResult(how="graph" if linked.seeds else "nothing",
                                                                answers=[e.name for e in linked.entities]),
                  trace.start, seconds=linked.seconds)
        if not linked.seeds:
            t = trace.timer()
            passages = []
            if self.settings.text_fusion:  # what text retrieval reads is still worth showing
                retriever = self.resources.retriever(cached_embeddings=self.use_cache)
                passages = retriever.retrieve(question, budget.k).chunks[:min(budget.k, MAX_PASSAGES)]
            return trace.finish(unlinked_answer(trace, session, question, NAME, passages, t, f"{NAME}.answer"))

        t = trace.timer()
        decision = self.route(graph, question, linked)
        k = s.k_simple if decision.route == SIMPLE else s.k_complex
        trace.add("route", f"{decision.route}: k={k}", StepResult(how=decision.route, reason=decision.how), t)

        t = trace.timer()
        pre = preprocess(p, graph.adj, graph.vectors.predicates, linked.seeds, linked.vector, k, s)
        trace.add("preprocess", f"{k}-hop union, PPR top {s.top_n}, relations top {s.top_m}",
                  StepResult(notes=[f"{key}: {v}" for key, v in pre.sizes().items()]), t)

        t = trace.timer()
        found = retrieve_paths(p, linked.seeds, decision.route, k, pre.edge_mask, max_paths=s.max_paths)
        notes = [f"{found.count} paths"]
        if found.truncated:
            notes.append(f"truncated: the cap of {s.max_paths} paths was reached")
        trace.add("retrieve", found.how, StepResult(how="graph:path", notes=notes), t)

        t = trace.timer()
        vec, size = graph.vectors, max(s.answer_pool, 2 * s.top_u)
        pool = (rank_trees(found.trees, linked.vector, vec.nodes, vec.predicates, p.edge_pred, size) if found.trees
                else rank_paths(found.paths, linked.vector, vec.nodes, vec.predicates, p.edge_pred, size))
        pool = distinct_paths(pool)
        top: list[RankedPath] = pool[:s.top_u]
        how = "cosine of path vectors (mean of node and predicate vectors) with the question"
        if s.cross_encoder is not None and pool:
            top = rerank_paths(question, pool[:2 * s.top_u], self._reranker(), lambda q: path_text(p, q))[:s.top_u]
            how = f"cross-encoder {s.cross_encoder} over the top {2 * s.top_u} by cosine"
        facts = [path_text(p, r.path) for r in top]
        limit = min(budget.k, MAX_PASSAGES)
        # With text fusion, the passages behind the walk come from the paths that state a relation at
        # every step (a hop through a passage that merely names two things says nothing of how they
        # relate): each one's own passages, then the article of the node it reached; text retrieval
        # fills the rest. Without it, the walk's passages are all the answer sees: every path brings its own.
        units = [r for r in top if all(p.edge_kind[e] != MENTION for e in r.path.edges)] if s.text_fusion else top
        behind = evidence_chunks(p, ((r.path.edges, r.path.nodes) for r in units), limit=s.passage_pool * limit,
                                 reached=True, home=s.text_fusion)
        chunk_nodes = closest_passages(behind, graph.vectors.nodes, linked.vector,
                                       len(behind) if s.text_fusion else limit)
        chunks = to_chunks(p, chunk_nodes)
        triples = to_triples(p, [e for r in top for e in r.path.edges])
        trace.add("rank", how, StepResult(how="graph:path", triples=[tr.id for tr in triples],
                                          chunks=[c.id for c in chunks[:limit]], notes=facts[:5]), t)
        if s.text_fusion:
            t = trace.timer()
            text = self.resources.retriever(cached_embeddings=self.use_cache).retrieve(question, budget.k)
            chunks = with_text_ranking(chunks, text.chunks, limit, s.text_kept)
            trace.add("passages", "path passages fused with hybrid text retrieval (reciprocal rank)",
                      StepResult(how="graph+text", chunks=[c.id for c in chunks]), t)

        answer = Answer(question=question, answer="", resolved=False, mode="retrieval", strategy=NAME,
                        triples=triples, chunks=chunks, facts=facts)
        if graph.router is None:
            answer.notes.append(NO_ROUTER)
        t = trace.timer()
        if session is not None:
            reply = ask_model(session, question, facts, [(c.id, c.text) for c in chunks], f"{NAME}.answer")
            answer.answer = reply.answer if reply.found else ""
            answer.resolved = reply.found
            answer.mode = "solver"
            if not reply.found:
                answer.notes.append("the model found no answer in the paths and passages")
            answer_step(trace, reply, answer.answer, t)
        else:
            joins = joining_paths(pool, linked.seeds)
            ranked = [*(n for r in joins for n in r.path.nodes[1:-1]), *(r.path.end for r in pool)]
            answer = model_free(answer, p, question, ranked, set(linked.seeds),
                                facts=(graph.linker.index, linked.named))
            joined = next((r.path for r in joins if answer.answer in {p.node_names[n] for n in r.path.nodes[1:-1]}),
                          None)
            reached = joined or next((r.path for r in pool
                                      if answer.answer and p.node_names[r.path.end] == answer.answer), None)
            if joined is not None and all(r.path is not joined for r in top):  # the evidence shows the join
                answer.facts.append(path_text(p, joined))
                known = {tr.id for tr in answer.triples}
                answer.triples += [tr for tr in to_triples(p, list(joined.edges)) if tr.id not in known]
            answer_step(trace, None, answer.answer, t, path_text(p, reached) if reached is not None else "")
        return trace.finish(answer)

    def _model_session(self) -> ModelSession:
        if self._session is None:
            from kgbuild.query.model_session import ModelSession

            self._session = ModelSession(self.resources.config, self.resources.workspace, use_cache=self.use_cache)
        return self._session

    def close(self) -> None:
        if self._session is not None:
            self._session.close()
            self._session = None


def joining_paths(ranked: Sequence[RankedPath], seeds: Iterable[int]) -> list[RankedPath]:
    """The paths, in rank order, that join two different entities of the question: a node between
    them meets both of its conditions ("the department of the disease that is part of 内科"), so
    the model-free pick takes those nodes before the ends of paths from one entity."""
    linked = set(seeds)
    return [r for r in ranked if len(r.path.nodes) > 2 and r.path.end in linked and r.path.end != r.path.start]


def distinct_paths(ranked: Sequence[RankedPath]) -> list[RankedPath]:
    """Each walk once: the path from one seed to another over the same edges as a path the other way
    ("Wilkes -> build -> EDSAC" and "EDSAC <- build <- Wilkes") is the same fact; the better ranked stays."""
    seen: set[tuple[int, ...]] = set()
    out: list[RankedPath] = []
    for r in ranked:
        key = min(r.path.edges, tuple(reversed(r.path.edges)))
        if key not in seen:
            seen.add(key)
            out.append(r)
    return out


def retrieval_seconds(answer: Answer) -> float:
    """Link to rank: the time FRAG spends before the answer step (no model call in it)."""
    return sum(step.seconds for step in answer.trace if step.question != "answer")

