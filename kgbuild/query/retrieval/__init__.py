"""Hybrid retrieval over the mutual index: entity linking, BM25 + dense + Personalized PageRank,
the retrieval-only answer."""

from kgbuild.query.retrieval.answer import answer_offline
from kgbuild.query.retrieval.hybrid import HybridRetriever, HybridSettings
from kgbuild.query.retrieval.index import MutualIndex
from kgbuild.query.retrieval.linking import EntityLinker
from kgbuild.query.retrieval.memory import MemoryVectorStore

__all__ = ["EntityLinker", "HybridRetriever", "HybridSettings", "MemoryVectorStore", "MutualIndex", "answer_offline"]
