"""Stage `read`: sources -> documents, next to the corpus built so far (minus what is removed).

`Reading` is the stage's work for one build: documents come out in batches (one batch of the whole
input for `ReadStage.run`; bounded batches for a streamed build), with ids made unique across the
whole run; only each document's id, text hash and source are remembered between batches.
"""

from __future__ import annotations

from collections.abc import Iterator

from kgbuild.build.context import BuildContext
from kgbuild.build.records import BuildRequest, ReadOutput
from kgbuild.build.stage import StageResult
from kgbuild.config import CsvColumns
from kgbuild.corpus import Corpus, load_corpus, remove_documents
from kgbuild.ingest.readers import ReadProblem, read_sources
from kgbuild.ingest.readers.files import ClaimFile
from kgbuild.ingest.readers.size import DEFAULT_MAX_DOCUMENT_CHARS
from kgbuild.model import Document
from kgbuild.progress import Advance
from kgbuild.records import MappedFiles, is_records
from kgbuild.report import ReadSection, SkippedSource


class ReadStage:
    name = "read"
    config_section = "sources"

    def fingerprint(self, ctx: BuildContext) -> str:
        return ""  # reading is not cached: a document's content hash decides what is rebuilt

    def open(self, ctx: BuildContext, request: BuildRequest) -> Reading:
        """The reading of one build, for a runner that takes documents batch by batch."""
        records = ctx.config.records
        corpus = load_corpus(ctx.workspace)
        # Mapped structured files; one the workspace holds unchanged is not parsed again.
        files = MappedFiles(records, ctx.schema, known=corpus.docs.get) if records.files else None
        return Reading(request, corpus, csv_columns=ctx.config.read.csv,
                       max_chars=ctx.config.read.max_document_chars, records=files)

    async def run(self, ctx: BuildContext, data: BuildRequest) -> StageResult[ReadOutput]:
        reading = self.open(ctx, data)
        with ctx.progress.stage("read") as advance:
            documents = [doc for batch in reading.batches(None, advance) for doc in batch]
        reading.remove(data.remove, prune=data.prune)
        return StageResult(ReadOutput(fresh=documents, corpus=reading.corpus), reading.section)


class Reading:
    def __init__(self, request: BuildRequest, corpus: Corpus, *, csv_columns: CsvColumns | None = None,
                 max_chars: int = DEFAULT_MAX_DOCUMENT_CHARS, records: MappedFiles | None = None) -> None:
        self.request = request
        self.records = records
        self.claim: ClaimFile | None = records.read if records is not None else None
        self.csv_columns = csv_columns
        self.max_chars = max_chars
        self.corpus = corpus  # the workspace's documents and chunks; later stages update it in place
        self.section = ReadSection()
        self._seen: dict[str, tuple[str, str]] = {}  # id -> (content hash, source) of every document read

    def batches(self, size: int | None, advance: Advance) -> Iterator[list[Document]]:
        """The documents read, `size` at a time (None: all in one batch); problems go to the report."""
        batch: list[Document] = []
        for item in read_sources(self.request.sources, csv_columns=self.csv_columns,
                                 max_chars=self.max_chars, claim=self.claim):
            advance(1)
            if isinstance(item, ReadProblem):
                self.section.skipped.append(SkippedSource(source=item.source, reason=item.message))
                continue
            mapped = self.records.take(item) if self.records is not None and is_records(item) else None
            doc = self._unique(item)
            if doc is None:
                continue
            if mapped is not None:  # the records read, as columns: chunked and built from the corpus
                self.corpus.record_maps[doc.id] = mapped
            self._seen[doc.id] = (doc.content_hash, doc.source)
            self.section.words += doc.word_count()
            self.section.markup_dropped += doc.markup_dropped
            self.section.documents_read += 1
            batch.append(doc)
            if size is not None and len(batch) >= size:
                yield batch
                batch = []
        if batch:
            yield batch

    def remove(self, ids: list[str], *, prune: bool) -> None:
        """Take out `ids`, and with `prune` every document not read (except those of a source that
        failed to read); call it after the last batch when pruning."""
        self.section.documents_removed += remove_documents(
            self.corpus, ids, keep=None, keep_ids=set(self._seen) if prune else None,
            failed_sources=[s.source for s in self.section.skipped])

    def _unique(self, doc: Document) -> Document | None:
        """`doc`, renamed if its id is taken by a different text; None if it repeats one already read."""
        first = self._seen.get(doc.id)
        if first is None:
            return doc
        first_hash, first_source = first
        if first_hash == doc.content_hash:
            self.section.skipped.append(SkippedSource(
                source=doc.source, reason=f"duplicate of {first_source} (same id and text); skipped"))
            return None
        # Same id, different text (e.g. two corpora with one title): keep both, stably renamed.
        n = 2
        while f"{doc.id}~{n}" in self._seen:
            n += 1
        self.section.notes.append(
            f"{doc.source}: id '{doc.id}' already used by {first_source}; stored as '{doc.id}~{n}'")
        return doc.model_copy(update={"id": f"{doc.id}~{n}"})
