"""Stage `read`: sources -> documents, next to the corpus built so far (minus what is removed)."""

from __future__ import annotations

from kgbuild.build.context import BuildContext
from kgbuild.build.records import BuildRequest, ReadOutput
from kgbuild.build.stage import StageResult
from kgbuild.corpus import load_corpus, remove_documents
from kgbuild.ingest.readers import ReadProblem, read_sources
from kgbuild.model import Document
from kgbuild.report import ReadSection, SkippedSource


class ReadStage:
    name = "read"
    config_section = "sources"

    def fingerprint(self, ctx: BuildContext) -> str:
        return ""  # reading is not cached: a document's content hash decides what is rebuilt

    async def run(self, ctx: BuildContext, data: BuildRequest) -> StageResult[ReadOutput]:
        section = ReadSection()
        corpus = load_corpus(ctx.workspace)
        fresh: dict[str, Document] = {}
        with ctx.progress.stage("read") as advance:
            for item in read_sources(data.sources, csv_columns=ctx.config.read.csv):
                advance(1)
                if isinstance(item, ReadProblem):
                    section.skipped.append(SkippedSource(source=item.source, reason=item.message))
                    continue
                doc = self._unique(item, fresh, section)
                if doc is not None:
                    fresh[doc.id] = doc
                    section.words += doc.word_count()
        section.documents_read = len(fresh)
        documents = list(fresh.values())
        section.documents_removed = remove_documents(
            corpus, data.remove, keep=documents if data.prune else None,
            failed_sources=[s.source for s in section.skipped])
        return StageResult(ReadOutput(fresh=documents, corpus=corpus), section)

    @staticmethod
    def _unique(doc: Document, fresh: dict[str, Document], section: ReadSection) -> Document | None:
        """`doc`, renamed if its id is taken by a different text; None if it repeats one already read."""
        first = fresh.get(doc.id)
        if first is None:
            return doc
        if first.content_hash == doc.content_hash:
            section.skipped.append(SkippedSource(
                source=doc.source, reason=f"duplicate of {first.source} (same id and text); skipped"))
            return None
        # Same id, different text (e.g. two corpora with one title): keep both, stably renamed.
        n = 2
        while f"{doc.id}~{n}" in fresh:
            n += 1
        section.notes.append(f"{doc.source}: id '{doc.id}' already used by {first.source}; stored as '{doc.id}~{n}'")
        return doc.model_copy(update={"id": f"{doc.id}~{n}"})
