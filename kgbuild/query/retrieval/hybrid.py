"""HybridRetriever: BM25 + dense + Personalized PageRank over the mutual index, fused.

A question runs in this order (all local except the store searches):

1. BM25 over `<prefix>_chunks` and dense search with the embedded question;
2. mentions of graph entities in the question (name dictionary; unknown capitalised spans linked
   densely in the same embedding call as the question) become PPR seeds, weighted by how specific
   the entity is (seen in few chunks);
3. PPR from the seeds over node--chunk and node--node edges gives each chunk its walk mass;
4. the three signals are fused (no learned weights); SPO triples touching the seeds whose
   supporting chunk is a candidate lift that chunk and are returned as evidence;
5. second hop: a walk restarting at the best chunks of step 4 reaches the chunks that share
   entities with them (the bridge passage of a two-hop question) and is fused in as a fourth signal.

A store without BM25 (a Milvus server older than 2.5, or a collection created without full text)
raises FullTextUnavailable on every text search. The first one is remembered and the hybrid then
fuses the other signals without BM25, saying so in `RetrievalResult.notes`; `mode="bm25"` still
raises it, since there is nothing else to answer with.
"""

from __future__ import annotations

import time

import numpy as np

from kgbuild.embed.types import Embedder
from kgbuild.query.retrieval.fusion import fuse, normalise
from kgbuild.query.retrieval.index import CONCEPT, TITLE, MutualIndex
from kgbuild.query.retrieval.linking import EntityLinker, Mention
from kgbuild.query.retrieval.ppr import PageRank
from kgbuild.query.types import LinkedEntity, RetrievalMode, RetrievalResult, ScoredChunk, Triple
from kgbuild.query_settings import HybridSettings
from kgbuild.store.milvus import FullTextUnavailable
from kgbuild.store.types import VectorHit, VectorStore


class HybridRetriever:
    """The Retriever protocol over a VectorStore, an Embedder and the in-memory mutual index."""

    def __init__(self, index: MutualIndex, vectors: VectorStore, embedder: Embedder, prefix: str,
                 settings: HybridSettings | None = None) -> None:
        """`settings`: the project's `query.hybrid` (the engine passes it); None: the defaults."""
        self.index = index
        self.vectors = vectors
        self.embedder = embedder
        self.chunk_collection = f"{prefix}_chunks"
        self.settings = settings or HybridSettings()
        self.linker = EntityLinker(index, vectors, embedder, f"{prefix}_entities")
        self.pagerank = PageRank(index)
        # The store's answer to a text search when it cannot run BM25; None while it can (or is untried).
        self.full_text_error: FullTextUnavailable | None = None

    # ---------------------------------------------------------------- protocol

    def link(self, mention: str, type_hint: str | None = None, k: int = 5) -> list[LinkedEntity]:
        return self.linker.link(mention, type_hint, k)

    def retrieve(self, question: str, k: int = 5, *, seeds: list[str] | None = None,
                 mode: RetrievalMode = "hybrid") -> RetrievalResult:
        start = time.perf_counter()
        if mode == "bm25":
            hits = self._text_search(question, k)
            if hits is None:  # nothing else to answer with: the store's own one-line reason
                err = self.full_text_error
                assert err is not None
                raise FullTextUnavailable(err.where, err.problem, err.hint)
            result = RetrievalResult(chunks=self._from_hits(hits, "bm25"))
        elif mode == "dense":
            hits = self.vectors.search(self.chunk_collection, self.embedder.embed([question])[0], k)
            result = RetrievalResult(chunks=self._from_hits(hits, "dense"))
        else:
            result = self._hybrid(question, k, seeds or [])
        result.seconds = time.perf_counter() - start
        return result

    # ---------------------------------------------------------------- hybrid

    def _hybrid(self, question: str, k: int, seed_ids: list[str]) -> RetrievalResult:
        s = self.settings
        n = max(s.candidates, k)
        mentions, unmatched = self.linker.mentions(question)
        vectors = self.embedder.embed([question, *unmatched])
        signals: dict[str, dict[int, float]] = {
            "dense": self._positions(self.vectors.search(self.chunk_collection, vectors[0], n)),
        }
        notes: list[str] = []
        text_hits = self._text_search(question, n)
        if text_hits is None:
            notes.append(f"BM25 left out, fused without it: {self.full_text_problem}")
        else:
            signals["bm25"] = self._positions(text_hits)

        seeds, linked = self._seeds(mentions, vectors[1:], seed_ids)
        _, chunk_mass = self.pagerank.run(seeds, restart=s.restart, iterations=s.iterations)
        signals["ppr"] = _top(chunk_mass, n)

        candidates = set().union(*signals.values())
        triples, triple_bonus = self._triples(seeds, candidates)
        signals["triple"] = triple_bonus
        weights = s.weights.model_dump()
        fused = fuse(signals, weights, method=s.fusion, rrf_k=s.rrf_k)

        if s.second_hop and fused:
            first = sorted(fused, key=lambda c: -fused[c])[: s.hop_chunks]
            hop_seeds = {self.index.n_nodes + c: 1.0 for c in first}
            _, hop_mass = self._walk_from_chunks(hop_seeds)
            signals["hop"] = _top(hop_mass, n)
            fused = fuse(signals, weights, method=s.fusion, rrf_k=s.rrf_k)

        ranked = sorted(fused, key=lambda c: (-fused[c], self.index.chunk_ids[c]))[:k]
        shown = {name: normalise(values) for name, values in signals.items()}
        chunks = [ScoredChunk(id=self.index.chunk_ids[c], doc_id=self.index.chunk_doc[c], text=self.index.chunk_text[c],
                              score=fused[c], signals={name: round(v.get(c, 0.0), 4) for name, v in shown.items()})
                  for c in ranked]
        keep = set(ranked)
        triples.sort(key=lambda t: -max((fused.get(self.index.chunk_pos[c], 0.0) for c in t.chunk_ids), default=0.0))
        evidence = [t for t in triples if any(self.index.chunk_pos[c] in keep for c in t.chunk_ids)]
        return RetrievalResult(chunks=chunks, triples=evidence[: s.max_triples], entities=linked, notes=notes)

    def _text_search(self, question: str, k: int) -> list[VectorHit] | None:
        """BM25 hits, or None when the store has no full text (asked once, then remembered:
        an old server answers every call with the same error, and a failed call costs a round trip)."""
        if self.full_text_error is not None:
            return None
        try:
            return self.vectors.text_search(self.chunk_collection, question, k)
        except FullTextUnavailable as exc:
            self.full_text_error = exc
            return None

    @property
    def full_text_problem(self) -> str | None:
        return self.full_text_error.line() if self.full_text_error is not None else None

    def full_text_available(self) -> bool:
        """Whether BM25 runs on this store (one probe search the first time)."""
        return self._text_search("probe", 1) is not None

    def unavailable_modes(self) -> dict[RetrievalMode, str]:
        return {} if self.full_text_available() else {"bm25": self.full_text_problem or "no full-text search"}

    def title_of(self, doc_id: str) -> str:
        return self.index.title_of(doc_id)

    def _walk_from_chunks(self, seeds: dict[int, float]) -> tuple[np.ndarray, np.ndarray]:
        # PageRank.run takes node-space indices; chunk j sits at n_nodes + j in the state vector.
        return self.pagerank.run(seeds, restart=self.settings.restart, iterations=self.settings.iterations)

    def _seeds(self, mentions: list[Mention], span_vectors: list[list[float]],
               seed_ids: list[str]) -> tuple[dict[int, float], list[LinkedEntity]]:
        seeds: dict[int, float] = {}
        linked: dict[int, LinkedEntity] = {}

        def add(node: int, score: float, how: str) -> None:
            weight = score * self.linker.specificity(node)
            seeds[node] = max(seeds.get(node, 0.0), weight)
            if self.index.node_kind[node] != TITLE and node not in linked:
                linked[node] = LinkedEntity(
                    id=self.index.node_ids[node], name=self.index.node_names[node], type=self.index.node_types[node],
                    score=score, how="concept" if self.index.node_kind[node] == CONCEPT else how)

        for mention in mentions:
            for node, score, how in mention.nodes:
                add(node, score, how)
        for vector in span_vectors:
            for hit in self.linker.dense(vector, 1):
                if hit.score >= self.settings.dense_link_min:
                    add(self.index.node_pos[hit.id], hit.score, "dense")
        for nid in seed_ids:
            pos = self.index.node_pos.get(nid)
            if pos is not None:
                add(pos, 1.0, "exact")
        return seeds, sorted(linked.values(), key=lambda e: -e.score)

    def _triples(self, seeds: dict[int, float], candidates: set[int]) -> tuple[list[Triple], dict[int, float]]:
        """Relations touching a seed, supported by a candidate chunk: evidence and a chunk bonus.

        A relation between two seeds (the question names both ends) counts double: that chunk
        states exactly the link the question asks about.
        """
        bonus: dict[int, float] = {}
        out: list[Triple] = []
        seen: set[int] = set()
        idx = self.index
        for node in seeds:
            if idx.node_kind[node] == TITLE:
                continue
            for r in idx.node_relations[node]:
                if r in seen:
                    continue
                seen.add(r)
                rel = idx.relations[r]
                hits = [c for c in rel.chunks if c in candidates]
                if not hits:
                    continue
                both = rel.subject in seeds and rel.object in seeds
                for c in hits:
                    bonus[c] = bonus.get(c, 0.0) + (2.0 if both else 1.0)
                out.append(Triple(id=rel.id, subject_id=idx.node_ids[rel.subject], subject=idx.node_names[rel.subject],
                                  predicate=rel.predicate, object_id=idx.node_ids[rel.object],
                                  object=idx.node_names[rel.object], chunk_ids=[idx.chunk_ids[c] for c in rel.chunks]))
        return out, bonus

    # ---------------------------------------------------------------- helpers

    def _positions(self, hits: list[VectorHit]) -> dict[int, float]:
        out: dict[int, float] = {}
        for hit in hits:
            pos = self.index.chunk_pos.get(hit.id)
            if pos is not None:
                out[pos] = hit.score
        return out

    def _from_hits(self, hits: list[VectorHit], signal: str) -> list[ScoredChunk]:
        out = []
        for hit in hits:
            pos = self.index.chunk_pos.get(hit.id)
            text = hit.text or (self.index.chunk_text[pos] if pos is not None else "")
            doc = hit.doc_id or (self.index.chunk_doc[pos] if pos is not None else hit.id.split("#", 1)[0])
            out.append(ScoredChunk(id=hit.id, doc_id=doc, text=text, score=hit.score, signals={signal: hit.score}))
        return out


def _top(mass: np.ndarray, n: int) -> dict[int, float]:
    """The n chunks with the most walk mass (only those the walk reached)."""
    if mass.size == 0:
        return {}
    n = min(n, mass.size)
    top = np.argpartition(-mass, n - 1)[:n]
    return {int(c): float(mass[c]) for c in top if mass[c] > 0}
