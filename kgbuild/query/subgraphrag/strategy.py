"""SubgraphRAG as a query strategy: link, take the candidate triples, score them, answer from the top K.

Retrieval makes no model call: the question is linked and embedded once (QuestionLinker), the
candidate triples around its entities get their directional encoding, and the trained scorer
(numpy, first layer precomputed per graph) ranks them. The top K triples (query.subgraphrag.top_k, 100 by
default, independent of the budget's passage count) are the evidence; the passages behind the best
of them, fused with the hybrid retriever's ranking of the corpus (at most 5 distinct), are what
the answer prompt reads. By default (`text_kept` 5) those 5 are the text ranking's first: the graph's
part is the triples (query_settings.SubgraphRAGSettings says what was measured). With a model configured: one
`graph_answer` call over the verbalised triples and those passages, which may say "not
available". Without one: the best-ranked node of the expected type, marked unverified.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from kgbuild.errors import ConfigError
from kgbuild.query.graph_answer import answer_step, ask_model, model_free, unlinked_answer
from kgbuild.query.graph_evidence import (
    closest_passages,
    evidence_chunks,
    to_chunks,
    to_triples,
    triple_text,
    with_text_ranking,
)
from kgbuild.query.subgraphrag.candidates import GraphIndex, subgraph
from kgbuild.query.subgraphrag.scorer import RETRAIN, GraphTables, ScorerModel, model_path, score_triples
from kgbuild.query.trace import Trace
from kgbuild.query.types import Answer, StepResult
from kgbuild.query_settings import SubgraphRAGSettings

if TYPE_CHECKING:
    from kgbuild.graph.projection import GraphProjection
    from kgbuild.query.model_session import ModelSession
    from kgbuild.query.strategy import Budget, QueryResources

NAME = "subgraphrag"
MAX_PASSAGES = 5  # what the answer prompt sees
NOT_AVAILABLE = "the model found no answer in the retrieved triples and passages (not available)"


def load_model(resources: QueryResources) -> ScorerModel:
    """The workspace's trained scorer for the current graph and embedder (ConfigError when missing or stale)."""
    vectors = resources.graph_vectors()
    return ScorerModel.load(model_path(resources.workspace), resources.projection().fingerprint, vectors.embedder)


def unavailable(resources: QueryResources) -> str | None:
    """Why SubgraphRAG cannot run here (no trained model, or one trained on another graph), or None.
    Reads only the model's metadata, so an evaluation can ask before building anything."""
    import json

    path = model_path(resources.workspace)
    if not path.exists():
        return ConfigError(str(path), "no trained SubgraphRAG retriever", RETRAIN).line()
    try:
        with np.load(path, allow_pickle=False) as data:
            trained_on = json.loads(str(data["meta"]))["fingerprint"]
    except (OSError, ValueError, KeyError, TypeError):
        return ConfigError(str(path), "unreadable SubgraphRAG retriever", RETRAIN).line()
    current = resources.projection().fingerprint
    if trained_on != current:
        return ConfigError(str(path), f"the SubgraphRAG retriever was trained on graph {trained_on}, "
                           f"the graph is now {current} (rebuilt since)", RETRAIN).line()
    return None


class SubgraphRAGStrategy:
    def __init__(self, resources: QueryResources, budget: Budget, model: ScorerModel | None = None,
                 settings: SubgraphRAGSettings | None = None) -> None:
        """`settings`: else the project's `query.subgraphrag`; `hops` and `dde_rounds` are the model's."""
        self.projection: GraphProjection = resources.projection()
        self.vectors = resources.graph_vectors()
        if model is None:
            model = load_model(resources)
        elif model.meta.fingerprint != self.projection.fingerprint:
            raise ConfigError(NAME, f"the retriever was trained on graph {model.meta.fingerprint}, "
                              f"the graph is {self.projection.fingerprint}", RETRAIN)
        self.model = model
        # Candidates and DDE as the model was trained on them; the cap and top K stay adjustable.
        chosen = resources.config.query.subgraphrag if settings is None else settings
        self.settings = chosen.model_copy(update={"hops": model.meta.hops, "dde_rounds": model.meta.dde_rounds})
        self.linker = resources.question_linker(cached_embeddings=budget.use_cache)
        self.retriever = resources.retriever(cached_embeddings=budget.use_cache) if self.settings.text_fusion else None
        self.index = GraphIndex.build(self.projection, self.settings.edge_kinds)
        self.tables = GraphTables.compute(model, self.vectors)
        self.session: ModelSession | None = None
        if resources.config.llm.configured():
            from kgbuild.query.model_session import ModelSession

            self.session = ModelSession(resources.config, resources.workspace, use_cache=budget.use_cache)

    def answer(self, question: str, budget: Budget) -> Answer:
        p = self.projection
        trace = Trace(self.session)
        linked = self.linker.link(question)
        seeds = list(linked.seeds)
        trace.add("link", "link the question's entities to graph nodes",
                  StepResult(how="graph" if seeds else "nothing", bound={"topic": [p.node_names[n] for n in seeds]}),
                  trace.start, seconds=linked.seconds)
        if not seeds:
            t = trace.timer()
            passages = self.retriever.retrieve(question, budget.k).chunks if self.retriever is not None else []
            return trace.finish(unlinked_answer(trace, self.session, question, NAME, passages[:MAX_PASSAGES], t,
                                                "query.subgraphrag"))

        t = trace.timer()
        sub = subgraph(self.index, seeds, self.settings)
        cands = sub.candidates
        notes = [f"{cands.total} candidate triples within {self.settings.hops} hops"
                 + (f", the nearest {self.settings.limit} kept" if cands.truncated else "")]
        trace.add("candidates", f"triples within {self.settings.hops} hops", StepResult(how="graph", notes=notes), t)

        t = trace.timer()
        scores = score_triples(self.model, self.tables, linked.vector, sub.preds, sub.nodes, sub.local_head,
                               sub.local_tail, sub.dde)
        k = min(self.settings.top_k, scores.size)
        best = np.argpartition(-scores, k - 1)[:k] if 0 < k < scores.size else np.arange(scores.size)
        best = best[np.lexsort((sub.edges[best], -scores[best]))]  # score, then edge index: deterministic
        top = [int(e) for e in sub.edges[best]]
        trace.add("score", f"MLP scorer, top {k} triples",
                  StepResult(how="graph", triples=[p.edge_ids[e] for e in top]), t)
        ends = [(int(p.edge_head[e]), int(p.edge_tail[e])) for e in top]
        # As FRAG does: the passages behind the best triples (each triple's own first, then those of
        # the nodes they reach), twice what the prompt shows, and of those the ones closest to the question.
        behind = evidence_chunks(p, (([e], end) for e, end in zip(top, ends, strict=True)), limit=2 * MAX_PASSAGES,
                                 reached=True, reached_last=True)
        chunks = to_chunks(p, closest_passages(behind, self.vectors.nodes, linked.vector,
                                               MAX_PASSAGES if self.retriever is None else len(behind)))
        if self.retriever is not None:
            t = trace.timer()
            ranked_text = self.retriever.retrieve(question, budget.k)
            chunks = with_text_ranking(chunks, ranked_text.chunks, MAX_PASSAGES, self.settings.text_kept)
            trace.add("passages", "triple passages fused with hybrid text retrieval (reciprocal rank)",
                      StepResult(how="graph+text", chunks=[c.id for c in chunks]), t)
        retrieval = f"retrieval {trace.seconds() * 1000:.1f} ms, 0 model calls"
        triples = to_triples(p, top)
        facts = [triple_text(p, e) for e in top]
        t = trace.timer()
        if self.session is None:
            # Tail before head: a question's unknown is more often a triple's object.
            ranked = list(dict.fromkeys(n for head, tail in ends for n in (tail, head)))
            base = Answer(question=question, answer="", resolved=False, mode="retrieval", strategy=NAME,
                          triples=triples, chunks=chunks, facts=facts, notes=[*notes, retrieval])
            settled = model_free(base, p, question, ranked, exclude=set(seeds))
            reached = next((e for e, end in zip(top, ends, strict=True)
                            if settled.answer and settled.answer in (p.node_names[end[0]], p.node_names[end[1]])), None)
            answer_step(trace, None, settled.answer, t, triple_text(p, reached) if reached is not None else "")
            return trace.finish(settled)

        reply = ask_model(self.session, question, facts, [(c.id, c.text) for c in chunks], "query.subgraphrag")
        text = reply.answer.strip() if reply.found else ""
        answer_step(trace, reply, text, t)
        extra = [] if reply.found and text else [NOT_AVAILABLE]
        return trace.finish(Answer(question=question, answer=text, resolved=bool(reply.found and text), mode="solver",
                                   strategy=NAME, triples=triples, chunks=chunks, facts=facts,
                                   notes=[*extra, *notes, retrieval]))

    def close(self) -> None:
        if self.session is not None:
            self.session.close()
            self.session = None
