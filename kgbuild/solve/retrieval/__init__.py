"""Hybrid retrieval over the mutual index: entity linking, BM25 + dense + Personalized PageRank,
the retrieval-only answer."""

from kgbuild.solve.retrieval.answer import answer_offline
from kgbuild.solve.retrieval.hybrid import HybridRetriever, HybridSettings
from kgbuild.solve.retrieval.index import MutualIndex
from kgbuild.solve.retrieval.linking import EntityLinker
from kgbuild.solve.retrieval.memory import MemoryVectorStore

__all__ = ["EntityLinker", "HybridRetriever", "HybridSettings", "MemoryVectorStore", "MutualIndex", "answer_offline"]
