"""Interfaces of the stores and the records that cross them.

Both graph backends speak the same Cypher (the Neo4j 5 dialect that ArcadeDB also understands);
the graph interface is therefore just "run this statement with these parameters". Everything that
composes statements (labels, MERGE batches, deletes) sits above it, in one place for both.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from pydantic import BaseModel, Field


class GraphStore(Protocol):
    """A Cypher database. Values always travel as parameters, never inside the statement text."""

    name: str

    def execute(self, statement: str, params: Mapping[str, Any] | None = None) -> None:
        """Run a write statement in its own transaction (committed on return, rolled back on error)."""

    def execute_many(self, statements: Sequence[tuple[str, Mapping[str, Any]]]) -> None:
        """Run several write statements in one transaction: all of them land or none."""

    def query(self, statement: str, params: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        """Run a read statement; each row is a dict keyed by the RETURN aliases."""

    def close(self) -> None: ...


class _VectorFields(BaseModel):
    """What every vector carries besides the vector: `text` feeds BM25 on the chunk collection,
    the others are the metadata stores filter on."""

    id: str
    text: str = ""
    doc_id: str = ""
    type: str = ""
    name: str = ""


class VectorRow(_VectorFields):
    vector: list[float]


class VectorHit(_VectorFields):
    score: float  # higher is better for every search kind


class VectorStore(Protocol):
    """Collections of vectors keyed by the graph's ids, with metadata for filtering."""

    name: str

    def ensure_collection(self, collection: str, dim: int, *, full_text: bool = False) -> None:
        """Create the collection if missing (idempotent). `full_text` adds a BM25 index over `text`."""

    def upsert(self, collection: str, rows: Sequence[VectorRow]) -> None: ...

    def delete(self, collection: str, ids: Sequence[str]) -> None: ...

    def search(self, collection: str, vector: Sequence[float], k: int,
               where: Mapping[str, str | Sequence[str]] | None = None) -> list[VectorHit]:
        """Dense nearest neighbours by cosine; `where` = field -> value or list of values."""

    def text_search(self, collection: str, text: str, k: int,
                    where: Mapping[str, str | Sequence[str]] | None = None) -> list[VectorHit]:
        """BM25 full-text search (collections created with full_text=True)."""

    def count(self, collection: str) -> int: ...

    def ids(self, collection: str) -> set[str]: ...

    def drop(self, collection: str) -> None: ...

    def close(self) -> None: ...


class SyncReport(BaseModel):
    """What one sync of the workspace into the stores did."""

    graph_store: str = ""
    vector_store: str = ""
    embedding: str = ""  # the model that embedded the vectors, and why it was chosen (docs/languages.md)
    nodes_written: int = 0
    nodes_deleted: int = 0
    edges_written: int = 0
    edges_deleted: int = 0
    vectors_written: int = 0
    vectors_deleted: int = 0
    embeddings_computed: int = 0
    embeddings_cached: int = 0
    embedding_backend: str = ""  # how the embedding model ran: torch, onnx, onnx-int8
    embeddings_truncated: int = 0  # texts longer than the model's window, embedded from their start
    embedding_window: int = 0  # that window, in tokens (0: the model was not loaded)
    unchanged: int = 0
    # None: every graph row was compared with the manifest; a number: only the graph rows of that
    # many table rows, the ones corrections changed since the last sync (store.changed_rows).
    graph_rows_of: int | None = None
    resumed: bool = False  # the previous sync was interrupted; this one re-checked everything
    seconds: dict[str, float] = Field(default_factory=dict)
