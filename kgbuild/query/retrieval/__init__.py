"""Hybrid retrieval over the mutual index: entity linking, BM25 + dense + Personalized PageRank,
the retrieval-only answer."""

from kgbuild.query.retrieval.answer import answer_offline
from kgbuild.query.retrieval.hybrid import HybridRetriever
from kgbuild.query.retrieval.index import MutualIndex
from kgbuild.query.retrieval.linking import EntityLinker
from kgbuild.query.retrieval.memory import MemoryVectorStore
from kgbuild.query_settings import HybridSettings  # the retriever's settings: query.hybrid

__all__ = ["EntityLinker", "HybridRetriever", "HybridSettings", "MemoryVectorStore", "MutualIndex", "answer_offline"]
