"""The documents and chunks of a workspace during a build, and taking documents out of it."""

from __future__ import annotations

import difflib
from collections.abc import Collection, Sequence
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
from pydantic import BaseModel, Field

from kgbuild.errors import WorkspaceError
from kgbuild.model import Chunk, Document
from kgbuild.records import RECORDS_FORMAT
from kgbuild.tables import chunk_from_row, document_from_row
from kgbuild.workspace import Workspace


class Corpus(BaseModel):
    """Documents and chunks of the workspace after this run, in a stable order."""

    docs: dict[str, Document] = Field(default_factory=dict)
    chunkers: dict[str, str] = Field(default_factory=dict)  # doc id -> chunker fingerprint used
    chunks: dict[str, list[Chunk]] = Field(default_factory=dict)  # doc id -> chunks in reading order
    # Records documents (mapped structured files, docs/structured.md) keep their chunks as Arrow
    # tables of `chunks` rows, one per record, never as `Chunk` records (a million would not fit):
    # doc id -> pyarrow.Table (a held file's, from the workspace) or `records.PendingChunks` (a file
    # read this build: its chunk rows are made when persist writes them). `record_maps`: the records
    # read this build, as columns (`records.columns.MappedTables`), by doc id; a held file's are
    # mapped again from its chunks.
    record_chunks: dict[str, Any] = Field(default_factory=dict)
    record_maps: dict[str, Any] = Field(default_factory=dict)

    def all_chunks(self) -> list[Chunk]:
        """The chunks held as records (every document's but the records documents')."""
        return [c for doc_id in sorted(self.chunks) for c in self.chunks[doc_id]]


def load_corpus(workspace: Workspace) -> Corpus:
    """The documents and chunks built so far (empty for a new workspace)."""
    corpus = Corpus()
    for row in workspace.rows("documents"):
        doc = document_from_row(row)
        corpus.docs[doc.id] = doc
        corpus.chunkers[doc.id] = row["chunker"]
    table = workspace.read_table("chunks")
    records = [d for d, doc in corpus.docs.items() if doc.format == RECORDS_FORMAT]
    if records:
        # A records document's chunks stay an Arrow table (filtered, never decoded row by row).
        held = pc.is_in(table["doc_id"], value_set=pa.array(records, pa.string()))
        for doc_id in records:
            corpus.record_chunks[doc_id] = table.filter(pc.equal(table["doc_id"], doc_id))
        table = table.filter(pc.invert(held))
    for row in table.to_pylist():
        corpus.chunks.setdefault(row["doc_id"], []).append(chunk_from_row(row))
    for chunks in corpus.chunks.values():
        chunks.sort(key=lambda c: c.order)
    return corpus


def same_source(doc_source: str, failed: str) -> bool:
    """A document came from a source that failed to read (the file itself, or a directory above it)."""
    return doc_source == failed or doc_source.startswith((failed + ":", failed.rstrip("/") + "/"))


def remove_documents(corpus: Corpus, remove: Sequence[str], *, keep: list[Document] | None,
                     failed_sources: Sequence[str], keep_ids: Collection[str] | None = None) -> int:
    """Take documents out of the corpus; their chunks go with them, and whatever only they
    supported disappears when the graph is re-assembled from the remaining chunks.

    `remove`: ids to take out (an unknown id is an error, nothing is removed). `keep`: with
    --prune, the documents read this run; every other document goes, except those of a source
    that failed to read (a bad file never costs what was built from it). `keep_ids`: the same as
    `keep`, by id (a streamed build does not hold the documents it read). Returns how many went."""
    unknown = [d for d in remove if d not in corpus.docs]
    if unknown:
        close = difflib.get_close_matches(unknown[0], list(corpus.docs), n=1)
        raise WorkspaceError(f"document '{unknown[0]}'", "not in the workspace",
                             f"did you mean '{close[0]}'?" if close else "see `kgbuild inspect documents`")
    doomed = set(remove)
    if keep is not None or keep_ids is not None:
        read = {d.id for d in keep or ()} | set(keep_ids or ())
        doomed |= {doc_id for doc_id, doc in corpus.docs.items()
                   if doc_id not in read and not any(same_source(doc.source, f) for f in failed_sources)}
    for doc_id in sorted(doomed):
        corpus.docs.pop(doc_id, None)
        corpus.chunkers.pop(doc_id, None)
        corpus.chunks.pop(doc_id, None)
        corpus.record_chunks.pop(doc_id, None)
        corpus.record_maps.pop(doc_id, None)
    return len(doomed)
