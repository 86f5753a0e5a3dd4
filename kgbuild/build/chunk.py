"""Stage `chunk`: new and changed documents -> chunks; unchanged ones keep theirs (same text, same chunker)."""

from __future__ import annotations

import asyncio

from kgbuild.build.context import BuildContext
from kgbuild.build.records import ReadOutput
from kgbuild.build.stage import StageResult
from kgbuild.corpus import Corpus
from kgbuild.errors import ConfigError
from kgbuild.ingest.chunking import Chunker, Span
from kgbuild.ingest.similarity import make_scorer
from kgbuild.model import Document
from kgbuild.progress import Advance
from kgbuild.records import PendingChunks, is_records
from kgbuild.report import ChunkSection, SkippedSource
from kgbuild.tokens import TokenCounter

Plans = dict[str, dict[int, list[Span]]]  # doc id -> paragraph index -> the model's cuts


class ChunkStage:
    name = "chunk"
    config_section = "chunking"

    def chunker(self, ctx: BuildContext) -> Chunker:
        """The build's chunker, made once (its fingerprint and the chunking both need it)."""

        def make() -> Chunker:
            cfg = ctx.config.chunking
            scorer = make_scorer(cfg.topic_split, ctx.embedder(cfg.embedding_model, "chunking.embedding_model"))
            return Chunker(cfg, TokenCounter(cfg.encoding), scorer=scorer)

        return ctx.memo("chunk.chunker", make)

    def _planner(self, ctx: BuildContext) -> str:
        """Who plans the cuts of long paragraphs besides the rules: part of the fingerprint."""
        if ctx.config.chunking.splitter != "llm":
            return ""
        if not ctx.config.llm.configured():
            raise ConfigError("chunking.splitter", "'llm' needs a model endpoint",
                              "set llm.base_url and llm.model, or use splitter: rules")
        split = ctx.config.llm.for_role("extract")  # LLM chunking is the extract role's
        return f"llm|{split.base_url}|{split.model_for('split')}"

    def fingerprint(self, ctx: BuildContext) -> str:
        return self.chunker(ctx).fingerprint(self._planner(ctx))

    async def run(self, ctx: BuildContext, data: ReadOutput) -> StageResult[Corpus]:
        batch = self.open(ctx)
        todo = batch.changed(data.fresh, data.corpus)
        plans = await batch.plan(todo)
        with ctx.progress.stage("chunk", total=len(todo)) as advance:
            batch.chunk(todo, data.corpus, advance, plans)
        return StageResult(data.corpus, batch.finish(data.corpus))

    def open(self, ctx: BuildContext) -> Chunking:
        """The chunking of one build, for a runner that feeds it documents batch by batch."""
        chunker = self.chunker(ctx)
        return Chunking(ctx, chunker, self._planner(ctx))

    @staticmethod
    async def _plan_splits(ctx: BuildContext, chunker: Chunker, docs: list[Document],
                           advance: Advance | None = None) -> Plans:
        """LLM semantic splitting (KAG 2.2.1): the model proposes the cuts of every over-budget
        paragraph, with a summary per piece; where its reply is unusable, the rules cut."""
        from kgbuild.ingest.llm_split import split_section

        gateway = ctx.gateway("chunking.splitter")
        prompts = ctx.prompts()
        jobs = [(doc, index, sentences) for doc in docs if not is_records(doc)
                for index, sentences in chunker.long_paragraphs(doc)]
        plans: Plans = {}

        async def plan(doc: Document, index: int, sentences: list[str], step: Advance) -> None:
            spans = await split_section(gateway, prompts, sentences, ctx.config.chunking.max_tokens,
                                        chunker.counter, section=doc.paragraphs[index].section, doc_id=doc.id)
            step(1)
            if spans:
                plans.setdefault(doc.id, {})[index] = spans

        if advance is not None:
            await asyncio.gather(*(plan(*job, advance) for job in jobs))
            return plans
        with ctx.progress.stage("split", total=len(jobs)) as own:
            await asyncio.gather(*(plan(*job, own) for job in jobs))
        return plans


class Chunking:
    """One build's chunking: `changed` and `chunk` per list of documents, `finish` for the report."""

    def __init__(self, ctx: BuildContext, chunker: Chunker, planner: str) -> None:
        self.ctx = ctx
        self.chunker = chunker
        self.planner = planner
        self.fingerprint = chunker.fingerprint(planner)
        self.section = ChunkSection()

    def changed(self, docs: list[Document], corpus: Corpus) -> list[Document]:
        """The documents that need chunking: new or changed text, or another chunker than last time."""
        todo = []
        for doc in docs:
            old = corpus.docs.get(doc.id)
            if old and old.content_hash == doc.content_hash and corpus.chunkers.get(doc.id) == self.fingerprint:
                self.section.documents_unchanged += 1
            else:
                todo.append(doc)
        return todo

    async def plan(self, todo: list[Document], advance: Advance | None = None) -> Plans:
        """The model's cuts of over-budget paragraphs when `chunking.splitter: llm` (else none).
        `advance`: a progress bar the caller already shows (else the split gets its own)."""
        return await ChunkStage._plan_splits(self.ctx, self.chunker, todo, advance) if self.planner else {}

    def chunk(self, todo: list[Document], corpus: Corpus, advance: Advance, plans: Plans) -> None:
        """Chunk `todo` into `corpus` (documents, chunker fingerprints and chunks replaced)."""
        section = self.section
        for doc in todo:
            advance(1)
            if is_records(doc):
                self._records(doc, corpus)
                continue
            result = self.chunker.chunk(doc, plans.get(doc.id))
            chunks, oversize = result.chunks, result.oversize_sentences
            if not chunks:
                section.skipped.append(SkippedSource(
                    source=doc.source, reason="no text left after chunking; nothing to build"))
                continue
            if doc.id in corpus.docs:
                section.documents_changed += 1
            else:
                section.documents_new += 1
            section.oversize_sentences += oversize
            corpus.docs[doc.id] = doc.model_copy(update={"chunk_ids": [c.id for c in chunks]})
            corpus.chunkers[doc.id] = self.fingerprint
            corpus.chunks[doc.id] = chunks

    def _records(self, doc: Document, corpus: Corpus) -> None:
        """One chunk per record, never cut or merged (each is a `file:line` source), as an Arrow
        table; a held records document not parsed again keeps the chunks it has."""
        mapped = corpus.record_maps.get(doc.id)
        if mapped is None and doc.id not in corpus.record_chunks:
            self.section.skipped.append(SkippedSource(
                source=doc.source, reason="its records are not in the workspace; build it again from its file"))
            return
        if doc.id in corpus.docs:
            self.section.documents_changed += 1
        else:
            self.section.documents_new += 1
        if mapped is not None:
            corpus.record_chunks[doc.id] = PendingChunks(doc, mapped.rows)  # chunk rows made at persist
        corpus.chunks.pop(doc.id, None)
        corpus.docs[doc.id] = doc
        corpus.chunkers[doc.id] = self.fingerprint

    def finish(self, corpus: Corpus) -> ChunkSection:
        section = self.section
        if section.oversize_sentences:
            section.notes.append(f"{section.oversize_sentences} sentence(s) longer than chunking.max_tokens="
                                 f"{self.ctx.config.chunking.max_tokens} were cut at token boundaries")
        section.documents_total = len(corpus.docs)
        return section
