"""Test doubles for the graph strategies: a hashing embedder and the QueryResources a strategy
factory reads, over a hand-built projection and mutual index (an in-memory vector store, no model)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence

import numpy as np

from kgbuild.config import Config
from kgbuild.graph.projection import CHUNK, ENTITY, GraphProjection
from kgbuild.graph.vectors import GraphVectors
from kgbuild.query.graph_linking import QuestionLinker
from kgbuild.query.retrieval import HybridRetriever, MemoryVectorStore
from kgbuild.query.retrieval.index import MutualIndex
from kgbuild.query.retrieval.linking import EntityLinker
from kgbuild.store.types import VectorRow
from kgbuild.workspace import Workspace


def lower_words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


class HashEmbedder:
    """Bag of words hashed into `dim` buckets (md5), unit length: texts sharing words are close, the
    same on every run. `signed` gives each word a sign too (fewer accidental collisions in few dims)."""

    def __init__(self, dim: int = 64, name: str = "hash64", words: Callable[[str], list[str]] = lower_words,
                 *, signed: bool = False) -> None:
        self.dim = dim
        self.name = name
        self.words = words
        self.signed = signed
        self.calls = 0

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls += 1
        out = []
        for text in texts:
            v = np.zeros(self.dim, np.float32)
            for word in self.words(text):
                h = hashlib.md5(word.encode()).digest()
                bucket = int.from_bytes(h, "big") % self.dim if not self.signed else h[0] % self.dim
                v[bucket] += -1.0 if self.signed and h[1] % 2 == 0 else 1.0
            n = float(np.linalg.norm(v))
            out.append((v / n if n else v).tolist())
        return out

    def close(self) -> None:
        return None


class GraphResources:
    """The QueryResources a graph strategy's factory sees, its hybrid retriever over the same world."""

    def __init__(self, projection: GraphProjection, index: MutualIndex, embedder: HashEmbedder, workspace: Workspace,
                 config: Config | None = None) -> None:
        self._projection = projection
        self._index = index
        self._embedder = embedder
        self._vectors = GraphVectors.compute(projection, embedder)
        self._workspace = workspace
        self._config = config or Config()
        self._retriever: HybridRetriever | None = None

    @property
    def config(self) -> Config:
        return self._config

    @property
    def workspace(self) -> Workspace:
        return self._workspace

    @property
    def graph(self) -> None:
        return None

    def retriever(self, *, cached_embeddings: bool = True) -> HybridRetriever:
        """The projection's passages (full text on) and entities in an in-memory vector store,
        embedded by the hashing embedder, read by the real hybrid retriever over the mutual index."""
        if self._retriever is None:
            p, emb, store = self._projection, self._embedder, MemoryVectorStore()
            store.ensure_collection("t_chunks", emb.dim, full_text=True)
            store.ensure_collection("t_entities", emb.dim)
            chunks = [n for n in range(p.n_nodes) if p.node_kind[n] == CHUNK]
            if chunks:
                store.upsert("t_chunks", [VectorRow(id=p.node_ids[c], vector=v, text=p.chunk_text[c],
                                                    doc_id=p.chunk_doc[c])
                                          for c, v in zip(chunks, emb.embed([p.chunk_text[c] for c in chunks]),
                                                          strict=True)])
            entities = [n for n in range(p.n_nodes) if p.node_kind[n] == ENTITY]
            if entities:
                store.upsert("t_entities", [VectorRow(id=p.node_ids[n], vector=v, name=p.node_names[n],
                                                      type=p.node_class[n] or "")
                                            for n, v in zip(entities, emb.embed([p.node_names[n] for n in entities]),
                                                            strict=True)])
            self._retriever = HybridRetriever(self._index, store, emb, "t", self._config.query.hybrid)
        return self._retriever

    def embedder(self, *, cached: bool = True) -> HashEmbedder:
        return self._embedder

    def projection(self) -> GraphProjection:
        return self._projection

    def graph_vectors(self) -> GraphVectors:
        return self._vectors

    def question_linker(self, *, cached_embeddings: bool = True) -> QuestionLinker:
        return QuestionLinker(self._projection, self._index, EntityLinker(self._index, None, None, "x"),
                              self._embedder)
