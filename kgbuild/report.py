"""The build report: what was read, skipped, built and dropped, and what it cost."""

from __future__ import annotations

import resource
import sys
from collections import Counter

from pydantic import BaseModel, Field

from kgbuild.model import Drop


class SkippedSource(BaseModel):
    source: str
    reason: str


class BuildReport(BaseModel):
    started_at: str
    finished_at: str = ""
    workspace: str
    schema_name: str = ""
    extractor: str = ""
    workers: int = 1
    sources: list[str] = Field(default_factory=list)

    documents_read: int = 0  # read successfully in this run
    documents_new: int = 0
    documents_changed: int = 0
    documents_unchanged: int = 0
    documents_removed: int = 0  # taken out by --prune or `kgbuild remove`
    documents_total: int = 0  # in the workspace after this run
    skipped: list[SkippedSource] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)

    chunks_total: int = 0
    chunks_extracted: int = 0  # extracted in this run
    chunks_cached: int = 0  # reused from the cache
    chunks_failed: int = 0  # extractor failed; retried on the next build
    chunks_structured: int = 0  # section mapped to a property by a document structure: no extractor call
    oversize_sentences: int = 0  # single sentences over the token budget, cut

    entities: int = 0
    relations: int = 0
    events: int = 0
    hypernodes: int = 0
    concepts: int = 0
    drops: dict[str, int] = Field(default_factory=dict)  # "stage/kind/reason" -> count of removed items
    retyped: dict[str, int] = Field(default_factory=dict)  # kept, but mapped to another type (e.g. the fallback)

    llm: dict = Field(default_factory=dict)  # model gateway accounting: total, by stage, by document
    alignment: dict = Field(default_factory=dict)  # merges, links, completions, connectivity before/after
    stores: dict = Field(default_factory=dict)  # what the write stage did (kgbuild.store.types.SyncReport)
    store_error: str = ""  # the stores could not be written; the tables are, and the next build resumes
    words: int = 0  # words in the documents read this run
    stage_seconds: dict[str, float] = Field(default_factory=dict)
    wall_seconds: float = 0.0
    peak_rss_mb: float = 0.0  # this process
    peak_worker_rss_mb: float = 0.0  # largest extraction worker

    def count_drops(self, drops: list[Drop]) -> None:
        counts = Counter((d.reason.startswith("retyped"), f"{d.stage}/{d.kind}/{d.reason}") for d in drops)
        for (retyped, key), n in counts.items():
            target = self.retyped if retyped else self.drops
            target[key] = target.get(key, 0) + n
        self.drops = dict(sorted(self.drops.items()))
        self.retyped = dict(sorted(self.retyped.items()))

    def measure_memory(self) -> None:
        # ru_maxrss is KiB on Linux, bytes on macOS.
        scale = 1 / 1024 / 1024 if sys.platform == "darwin" else 1 / 1024
        self.peak_rss_mb = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale, 1)
        self.peak_worker_rss_mb = round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * scale, 1)

    def exit_code(self, keep_going: bool) -> int:
        """1 when a source was skipped or a chunk failed, unless --keep-going; the graph is written either way."""
        if self.store_error:
            return 1  # the graph is in the tables but not where users query it: never silently 0
        if keep_going:
            return 0
        return 1 if (self.skipped or self.chunks_failed) else 0
