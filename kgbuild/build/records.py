"""The typed records that flow from one build stage to the next.

Each stage takes the record the previous one returned; everything a later stage needs (the
corpus for persisting, the merges for the merge table) travels inside the records, so a runner
only has to pass one value along, in this process or between the workers of a cluster.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from kgbuild.align.fusion import Merge
from kgbuild.assemble import Graph
from kgbuild.corpus import Corpus
from kgbuild.model import ChunkExtraction, Document
from kgbuild.store.types import SyncReport


class BuildRequest(BaseModel):
    """What the user asked for: the input of the first stage."""

    sources: list[Path] = Field(default_factory=list)
    prune: bool = False  # documents not read from `sources` are removed (except those of a source that failed)
    remove: list[str] = Field(default_factory=list)  # document ids to take out


class ReadOutput(BaseModel):
    fresh: list[Document]  # read this run, in reading order, ids made unique
    corpus: Corpus  # the workspace's documents and chunks, minus the removed ones


class ExtractedCorpus(BaseModel):
    corpus: Corpus
    extractions: list[ChunkExtraction]  # one per chunk that has one, in corpus order


class BuiltGraph(BaseModel):
    corpus: Corpus
    graph: Graph
    merges: list[Merge] = Field(default_factory=list)  # alignment's decisions (empty before alignment)
    # The rows of mapped records that stay columnar beside `graph` (`records.RecordsGraph`: Arrow
    # tables, appended to the tables at persist); None without mapped files.
    records: Any = None


class PersistedTables(BaseModel):
    rows: dict[str, int]  # table -> rows now in the workspace


class WrittenStores(BaseModel):
    stores: SyncReport | None = None  # None: the stores could not be written (see the report's write section)


class ExtractedChunk(BaseModel):
    """One chunk's result from any extraction backend (process pool or model): the one shape both return."""

    model_config = ConfigDict(frozen=True)

    chunk_id: str
    extraction: ChunkExtraction
    failed: bool  # the extractor failed: not cached, so the chunk is retried on the next build
