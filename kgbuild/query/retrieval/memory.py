"""A brute-force VectorStore in memory: exact cosine and Okapi BM25 over a few thousand rows.

For tests and benchmarks that need the VectorStore protocol without a Milvus process. It answers
exactly (no approximate index), so a retrieval figure measured on it is an upper bound on what an
approximate index gives on the same embeddings. BM25 uses k1=1.2, b=0.75 (Milvus' defaults) over
the folded word tokens, stopwords removed, and jieba's words for Chinese (kgbuild/query/retrieval/text.py).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from kgbuild.errors import KgbuildError
from kgbuild.query.retrieval.text import full_text_terms
from kgbuild.store.milvus import FullTextUnavailable
from kgbuild.store.types import VectorHit, VectorRow


@dataclass
class _Collection:
    dim: int
    full_text: bool
    rows: dict[str, VectorRow] = field(default_factory=dict)
    # Caches rebuilt after a write: id order, the vector matrix, the BM25 term matrix.
    order: list[str] | None = None
    matrix: np.ndarray | None = None
    terms: dict[str, int] | None = None
    bm25: sp.csc_matrix | None = None
    idf: np.ndarray | None = None


class MemoryVectorStore:
    name = "memory"

    def __init__(self, *, k1: float = 1.2, b: float = 0.75,
                 terms: Callable[[str], list[str]] = full_text_terms) -> None:
        self._collections: dict[str, _Collection] = {}
        self.k1, self.b = k1, b
        self._terms = terms  # what BM25 counts in a text (a benchmark compares tokenisers)

    def _get(self, collection: str) -> _Collection:
        found = self._collections.get(collection)
        if found is None:
            raise KgbuildError(f"vector collection {collection}", "does not exist", "sync the stores first")
        return found

    def ensure_collection(self, collection: str, dim: int, *, full_text: bool = False) -> None:
        self._collections.setdefault(collection, _Collection(dim, full_text))

    def upsert(self, collection: str, rows: Sequence[VectorRow]) -> None:
        c = self._get(collection)
        for row in rows:
            if len(row.vector) != c.dim:
                raise KgbuildError(f"vector collection {collection}",
                                   f"vector of {len(row.vector)} dims, expected {c.dim}")
            c.rows[row.id] = row
        c.order = None

    def delete(self, collection: str, ids: Sequence[str]) -> None:
        c = self._get(collection)
        for i in ids:
            c.rows.pop(i, None)
        c.order = None

    def _prepare(self, c: _Collection) -> None:
        if c.order is not None:
            return
        c.order = list(c.rows)
        vectors = np.asarray([c.rows[i].vector for i in c.order], dtype=np.float32).reshape(len(c.order), c.dim)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        c.matrix = vectors / np.where(norms > 0, norms, 1.0)
        if c.full_text:
            terms: dict[str, int] = {}
            r: list[int] = []
            cols: list[int] = []
            v: list[float] = []
            lengths = np.zeros(len(c.order), np.float32)
            for d, i in enumerate(c.order):
                counts = Counter(self._terms(c.rows[i].text))
                lengths[d] = sum(counts.values())
                for term, tf in counts.items():
                    r.append(d)
                    cols.append(terms.setdefault(term, len(terms)))
                    v.append(tf)
            tf = sp.csr_matrix((np.asarray(v, np.float32), (r, cols)), shape=(len(c.order), len(terms)))
            avg = float(lengths.mean()) if len(lengths) else 1.0
            # Okapi term weight tf*(k1+1) / (tf + k1*(1-b+b*len/avg)), precomputed per (doc, term).
            norm = self.k1 * (1 - self.b + self.b * lengths / max(avg, 1e-9))
            tf = tf.tocoo()
            weights = tf.data * (self.k1 + 1) / (tf.data + norm[tf.row])
            c.bm25 = sp.csc_matrix((weights, (tf.row, tf.col)), shape=tf.shape)
            df = np.bincount(tf.col, minlength=len(terms)).astype(np.float32)
            n = len(c.order)
            c.idf = np.log(1 + (n - df + 0.5) / (df + 0.5))
            c.terms = terms

    def _allowed(self, c: _Collection, where: Mapping[str, str | Sequence[str]] | None) -> np.ndarray | None:
        if not where:
            return None
        assert c.order is not None
        mask = np.ones(len(c.order), bool)
        for key, wanted in where.items():
            values = {wanted} if isinstance(wanted, str) else set(wanted)
            mask &= np.asarray([getattr(c.rows[i], key) in values for i in c.order], bool)
        return mask

    def _hits(self, c: _Collection, scores: np.ndarray, k: int, mask: np.ndarray | None) -> list[VectorHit]:
        assert c.order is not None
        if mask is not None:
            scores = np.where(mask, scores, -np.inf)
        k = min(k, len(scores))
        if k <= 0:
            return []
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.argsort(-scores[top], kind="stable")]
        out = []
        for j in top:
            if not np.isfinite(scores[j]):
                continue
            row = c.rows[c.order[j]]
            out.append(VectorHit(id=row.id, score=float(scores[j]), text=row.text, doc_id=row.doc_id,
                                 type=row.type, name=row.name))
        return out

    def search(self, collection: str, vector: Sequence[float], k: int,
               where: Mapping[str, str | Sequence[str]] | None = None) -> list[VectorHit]:
        c = self._get(collection)
        self._prepare(c)
        assert c.matrix is not None
        if not c.order:
            return []
        q = np.asarray(vector, np.float32)
        q = q / (np.linalg.norm(q) or 1.0)
        return self._hits(c, c.matrix @ q, k, self._allowed(c, where))

    def text_search(self, collection: str, text: str, k: int,
                    where: Mapping[str, str | Sequence[str]] | None = None) -> list[VectorHit]:
        c = self._get(collection)
        if not c.full_text:
            # The Milvus store's error, so callers handle both stores alike.
            raise FullTextUnavailable(f"vector collection {collection}", "has no full-text index")
        self._prepare(c)
        assert c.terms is not None and c.bm25 is not None and c.idf is not None
        cols = [c.terms[t] for t in set(self._terms(text)) if t in c.terms]
        if not cols or not c.order:
            return []
        scores = np.asarray(c.bm25[:, cols] @ c.idf[cols]).ravel()
        mask = scores > 0  # BM25 returns only rows sharing a term with the query
        allowed = self._allowed(c, where)
        return self._hits(c, scores, k, mask if allowed is None else mask & allowed)

    def count(self, collection: str) -> int:
        return len(self._get(collection).rows)

    def ids(self, collection: str) -> set[str]:
        return set(self._get(collection).rows)

    def drop(self, collection: str) -> None:
        self._collections.pop(collection, None)

    def close(self) -> None:
        self._collections.clear()


