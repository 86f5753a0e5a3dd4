"""Build orchestration: read -> chunk -> extract -> validate -> assemble -> persist.

All I/O of a build lives here; the stages themselves are plain functions and classes.
The workspace holds every document built so far: a build adds or replaces the documents it
is given and keeps the others, then re-assembles the graph from the cached extractions of
all chunks, so nothing already built is lost when some inputs are bad.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kgbuild.assemble import Graph, assemble
from kgbuild.config import Config
from kgbuild.corpus import Corpus, remove_documents
from kgbuild.errors import ConfigError, KgbuildError
from kgbuild.extract.runner import ExtractionResult, ExtractorSpec, run_extraction
from kgbuild.extract.spacy_models import model_info
from kgbuild.extract.structure import combine, structure_extract
from kgbuild.extract.validate import validate_extraction
from kgbuild.ids import content_hash
from kgbuild.ingest.chunking import Chunker, Span
from kgbuild.ingest.readers import ReadProblem, read_sources
from kgbuild.ingest.similarity import make_scorer
from kgbuild.ingest.tokens import TokenCounter
from kgbuild.model import Chunk, ChunkExtraction, Document
from kgbuild.progress import ProgressReporter, QuietProgress
from kgbuild.report import BuildReport, SkippedSource
from kgbuild.schema import Schema, resolve_schema
from kgbuild.tables import (
    GRAPH_TABLES, chunk_from_row, chunk_row, concept_row, document_from_row, document_row, drop_row, entity_row,
    event_row, hypernode_row, merge_row, relation_row,
)
from kgbuild.workspace import ExtractionCache, Workspace

if TYPE_CHECKING:
    from kgbuild.extract.domain_concepts import ConceptIndex
    from kgbuild.llm.prompts import PromptLibrary
    from kgbuild.llm.gateway import LLMGateway


def cache_key(chunk: Chunk) -> str:
    return content_hash(f"{chunk.id}|{chunk.content_hash}")


def default_workers(config: Config) -> int:
    return config.build.workers or max(1, os.cpu_count() or 1)


class Builder:
    def __init__(self, config: Config, progress: ProgressReporter | None = None, *, use_cache: bool = True) -> None:
        self.config = config
        self.use_cache = use_cache  # False: re-extract every chunk and bypass the LLM response cache
        self.gateway: LLMGateway | None = None  # opened per build, only when a stage calls a model
        self.progress = progress or QuietProgress()
        self.workspace = Workspace(config.workspace_path())

    async def arun(self, sources: Sequence[Path], *, workers: int | None = None, prune: bool = False,
                   remove: Sequence[str] = (), sync: bool = True) -> BuildReport:
        """Build `sources` into the workspace and write the result into the stores. Async because
        LLM extraction is; call it with `asyncio.run(builder.arun(...))` from synchronous code.

        `prune`: documents of the workspace that were not read from `sources` are removed (except
        those of a source that failed to read: a bad file never costs what was built from it).
        `remove`: document ids to take out. `sync=False` leaves the stores untouched (tables only).
        """
        t0 = time.perf_counter()
        schema = resolve_schema(self.config.schema_location())  # a bad schema stops before anything changes
        self.workspace.ensure()
        report = BuildReport(
            started_at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
            workspace=str(self.workspace.path),
            schema_name=schema.name,
            workers=workers or default_workers(self.config),
            sources=[str(s) for s in sources],
        )
        with self.workspace.lock():
            self.gateway = self._open_gateway()
            try:
                corpus = self._load_corpus()
                fresh = self._read(sources, report)
                report.documents_removed = remove_documents(
                    corpus, remove, keep=fresh if prune else None, failed_sources=[s.source for s in report.skipped])
                await self._chunk(fresh, corpus, report)
                extractions = await self._extract(schema, corpus, report)
                graph = self._assemble(extractions, schema, report)
                merges = []
                if self.config.align.enabled:
                    graph, merges = await self._align(graph, schema, report)
            finally:
                if self.gateway is not None:
                    report.llm = self.gateway.usage.snapshot()
                    await self.gateway.aclose()
            self._persist(corpus, graph, merges, report)
            if sync:
                self._sync(report)
        report.finished_at = datetime.now(timezone.utc).isoformat(timespec="seconds")
        report.wall_seconds = round(time.perf_counter() - t0, 3)
        report.measure_memory()
        stamp = report.started_at.replace(":", "").replace("-", "").replace("+0000", "Z")
        self.workspace.save_report(report.model_dump_json(indent=2), f"build-{stamp}-{os.getpid()}")
        return report

    def _open_gateway(self) -> LLMGateway | None:
        """One model gateway per build (shared cache, limits and accounting), if any stage needs it."""
        align = self.config.align
        needs = (self.config.chunking.splitter == "llm" or self._extractor_kind() == "llm"
                 or (align.enabled and self.config.llm.configured() and (align.llm_judge or align.llm_hypernyms)))
        if not needs:
            return None
        from kgbuild.llm.gateway import LLMGateway

        return LLMGateway(self.config.llm, cache_path=self.workspace.cache_dir / "llm.sqlite", use_cache=self.use_cache)

    def _prompts(self) -> PromptLibrary:
        from kgbuild.llm.prompts import PromptLibrary

        ex_cfg = self.config.extract
        prompts_dir = (self.config.root / ex_cfg.prompts_dir).resolve() if ex_cfg.prompts_dir else None
        return PromptLibrary(ex_cfg.prompt_language, prompts_dir)

    # ---------------------------------------------------------------- stages

    def _load_corpus(self) -> Corpus:
        corpus = Corpus()
        for row in self.workspace.rows("documents"):
            doc = document_from_row(row)
            corpus.docs[doc.id] = doc
            corpus.chunkers[doc.id] = row["chunker"]
        for row in self.workspace.rows("chunks"):
            corpus.chunks.setdefault(row["doc_id"], []).append(chunk_from_row(row))
        for chunks in corpus.chunks.values():
            chunks.sort(key=lambda c: c.order)
        return corpus


    def _sync(self, report: BuildReport) -> None:
        from kgbuild.store.sync import sync_stores

        t = time.perf_counter()
        try:
            report.stores = sync_stores(self.config, self.progress).model_dump()
        except KgbuildError as exc:
            # The tables are persisted: nothing is lost, and the next build or `kgbuild sync` resumes.
            report.store_error = exc.line()
        report.stage_seconds["write"] = round(time.perf_counter() - t, 3)

    def _read(self, sources: Sequence[Path], report: BuildReport) -> list[Document]:
        t = time.perf_counter()
        fresh: dict[str, Document] = {}
        with self.progress.stage("read") as advance:
            for item in read_sources(sources):
                advance(1)
                if isinstance(item, ReadProblem):
                    report.skipped.append(SkippedSource(source=item.source, reason=item.message))
                    continue
                doc = item
                if doc.id in fresh:
                    first = fresh[doc.id]
                    if first.content_hash == doc.content_hash:
                        report.skipped.append(SkippedSource(
                            source=doc.source, reason=f"duplicate of {first.source} (same id and text); skipped"))
                        continue
                    # Same id, different text (e.g. two corpora with one title): keep both, stably renamed.
                    n = 2
                    while f"{doc.id}~{n}" in fresh:
                        n += 1
                    report.notes.append(f"{doc.source}: id '{doc.id}' already used by {first.source}; stored as '{doc.id}~{n}'")
                    doc = doc.model_copy(update={"id": f"{doc.id}~{n}"})
                fresh[doc.id] = doc
                report.words += doc.word_count()
        report.documents_read = len(fresh)
        report.stage_seconds["read"] = round(time.perf_counter() - t, 3)
        return list(fresh.values())

    async def _chunk(self, fresh: list[Document], corpus: Corpus, report: BuildReport) -> None:
        t = time.perf_counter()
        cfg = self.config.chunking
        chunker = Chunker(cfg, TokenCounter(cfg.encoding), scorer=make_scorer(cfg.topic_split, cfg.embedding_model))
        use_llm = cfg.splitter == "llm"
        if use_llm and not self.config.llm.configured():
            raise ConfigError("chunking.splitter", "'llm' needs a model endpoint",
                              "set llm.base_url and llm.model, or use splitter: rules")
        planner = f"llm|{self.config.llm.base_url}|{self.config.llm.model_for('split')}" if use_llm else ""
        fingerprint = chunker.fingerprint(planner)
        todo = []
        for doc in fresh:
            old = corpus.docs.get(doc.id)
            if old and old.content_hash == doc.content_hash and corpus.chunkers.get(doc.id) == fingerprint:
                report.documents_unchanged += 1
            else:
                todo.append(doc)
        plans = await self._plan_splits(chunker, todo) if use_llm else {}
        with self.progress.stage("chunk", total=len(todo)) as advance:
            for doc in todo:
                advance(1)
                old = corpus.docs.get(doc.id)
                result = chunker.chunk(doc, plans.get(doc.id))
                if not result.chunks:
                    report.skipped.append(SkippedSource(source=doc.source, reason="no text left after chunking; nothing to build"))
                    continue
                if old:
                    report.documents_changed += 1
                else:
                    report.documents_new += 1
                report.oversize_sentences += result.oversize_sentences
                corpus.docs[doc.id] = doc.model_copy(update={"chunk_ids": [c.id for c in result.chunks]})
                corpus.chunkers[doc.id] = fingerprint
                corpus.chunks[doc.id] = result.chunks
        if report.oversize_sentences:
            report.notes.append(
                f"{report.oversize_sentences} sentence(s) longer than chunking.max_tokens={cfg.max_tokens} were cut at token boundaries"
            )
        report.documents_total = len(corpus.docs)
        report.stage_seconds["chunk"] = round(time.perf_counter() - t, 3)

    async def _plan_splits(self, chunker: Chunker, docs: list[Document]) -> dict[str, dict[int, list[Span]]]:
        """LLM semantic splitting (KAG 2.2.1): the model proposes the cuts of every over-budget
        paragraph, with a summary per piece; where its reply is unusable, the rules cut."""
        from kgbuild.ingest.llm_split import split_section

        gateway = self.gateway
        assert gateway is not None
        prompts = self._prompts()
        jobs = [(doc, index, sentences) for doc in docs for index, sentences in chunker.long_paragraphs(doc)]
        plans: dict[str, dict[int, list[Span]]] = {}
        with self.progress.stage("split", total=len(jobs)) as advance:

            async def plan(doc: Document, index: int, sentences: list[str]) -> None:
                spans = await split_section(gateway, prompts, sentences, self.config.chunking.max_tokens,
                                            chunker.counter, section=doc.paragraphs[index].section, doc_id=doc.id)
                advance(1)
                if spans:
                    plans.setdefault(doc.id, {})[index] = spans

            await asyncio.gather(*(plan(*job) for job in jobs))
        return plans

    async def _extract(self, schema: Schema, corpus: Corpus, report: BuildReport) -> list[ChunkExtraction]:
        t = time.perf_counter()
        chunks = corpus.all_chunks()
        report.chunks_total = len(chunks)
        structured, handled = self._structures(schema, corpus)
        report.chunks_structured = len(handled)
        pending = [c for c in chunks if c.id not in handled]
        failures: dict[str, ChunkExtraction] = {}
        if self._extractor_kind() == "llm":
            cache = await self._extract_llm(schema, pending, report, failures)
        else:
            cache = await self._extract_offline(schema, pending, report, failures)
        report.chunks_failed = len(failures)
        out = []
        for chunk in chunks:
            if chunk.id in handled:
                out.append(structured[chunk.id])
                continue
            if chunk.id in failures:
                extraction: ChunkExtraction | None = failures[chunk.id]
            else:
                value = cache.get(cache_key(chunk))
                extraction = ChunkExtraction.model_validate_json(value) if value is not None else None
            if extraction is not None and chunk.id in structured:
                extraction = combine(extraction, structured[chunk.id])
            if extraction is not None:
                out.append(extraction)
        report.stage_seconds["extract"] = round(time.perf_counter() - t, 3)
        return out

    @staticmethod
    def _structures(schema: Schema, corpus: Corpus) -> tuple[dict[str, ChunkExtraction], set[str]]:
        """Document-type structures (sections mapped to properties): deterministic and cheap,
        so recomputed every build instead of cached."""
        extractions: dict[str, ChunkExtraction] = {}
        handled: set[str] = set()
        if not schema.document_types():
            return extractions, handled
        for doc_id in sorted(corpus.chunks):
            result = structure_extract(corpus.docs[doc_id], corpus.chunks[doc_id], schema)
            extractions.update(result.extractions)
            handled |= result.handled
        return extractions, handled

    def _domain_concepts(self, report: BuildReport) -> tuple[ConceptIndex, str] | None:
        """The domain concept index and a fingerprint of its content, if `extract.domain_concepts` is set."""
        ex_cfg = self.config.extract
        if not ex_cfg.domain_concepts:
            return None
        from kgbuild.extract.domain_concepts import ConceptIndex, load_domain_concepts

        concepts = load_domain_concepts((self.config.root / ex_cfg.domain_concepts).resolve())
        report.notes.extend(f"domain concepts: {w}" for w in concepts.warnings)
        embedder = None
        if ex_cfg.concept_embedder:
            from kgbuild.ingest.embedding_model import load_sentence_model

            embedder = load_sentence_model(None if ex_cfg.concept_embedder == "bundled" else ex_cfg.concept_embedder)
        fingerprint = content_hash("\n".join(
            f"{c.name}|{c.description}|{','.join(c.aliases)}|{','.join(c.parents)}" for c in sorted(concepts, key=lambda c: c.name)
        ) + f"|{ex_cfg.concept_embedder}|{ex_cfg.concept_candidates}")
        return ConceptIndex(concepts, embedder), fingerprint

    def _extractor_kind(self) -> str:
        choice = self.config.extract.extractor
        if choice == "llm" and not self.config.llm.configured():
            raise ConfigError("extract.extractor", "'llm' needs a model endpoint",
                              "set llm.base_url and llm.model (or KGBUILD_LLM_BASE_URL / KGBUILD_LLM_MODEL)")
        if choice == "auto":
            return "llm" if self.config.llm.configured() else "offline"
        return choice

    def _open_cache(self, fingerprint: str, schema: Schema, report: BuildReport) -> ExtractionCache:
        cache = self.workspace.extraction_cache(content_hash(f"{fingerprint}|{schema.fingerprint()}"))
        if cache.torn_lines:
            report.notes.append(f"extraction cache: {cache.torn_lines} partial line(s) from an interrupted build ignored")
        return cache

    def _todo(self, chunks: list[Chunk], cache: ExtractionCache, report: BuildReport) -> list[Chunk]:
        todo = chunks if not self.use_cache else [c for c in chunks if cache_key(c) not in cache]
        report.chunks_cached = len(chunks) - len(todo)
        return todo

    async def _extract_offline(self, schema: Schema, chunks: list[Chunk], report: BuildReport,
                               failures: dict[str, ChunkExtraction]) -> ExtractionCache:
        ex_cfg = self.config.extract
        spec = ExtractorSpec(self.config.schema_location(), tuple(ex_cfg.spacy_models), ex_cfg.batch_size)
        extractor = spec.create()  # cheap: the spaCy pipeline loads on first use
        report.extractor = extractor.name
        cache = self._open_cache(extractor.fingerprint(), schema, report)
        todo = self._todo(chunks, cache, report)
        in_process = report.workers <= 1 or len(todo) <= ex_cfg.batch_size
        # Fail once, with the setting to fix, rather than once per chunk inside the workers. With a
        # pool, a look at the installed model's metadata is enough: the parent never parses text,
        # so it should not pay for loading spaCy.
        if todo and (in_process or model_info(ex_cfg.spacy_models) is None):
            extractor.load()
        keys = {c.id: cache_key(c) for c in todo}
        try:
            with self.progress.stage("extract", total=len(todo)) as advance:

                def on_result(result: ExtractionResult) -> None:
                    advance(1)
                    if result.failed:
                        failures[result.chunk_id] = ChunkExtraction.model_validate_json(result.payload)
                    else:
                        cache.put(keys[result.chunk_id], result.payload)

                # The process pool blocks; a thread keeps the event loop free.
                await asyncio.to_thread(run_extraction, spec, todo, workers=report.workers,
                                        batch_size=ex_cfg.batch_size, on_result=on_result, extractor=extractor)
        finally:
            cache.close()  # whatever finished is on disk, even if the build is interrupted
        report.chunks_extracted = len(todo) - len(failures)
        return cache

    async def _extract_llm(self, schema: Schema, chunks: list[Chunk], report: BuildReport,
                           failures: dict[str, ChunkExtraction]) -> ExtractionCache:
        from kgbuild.extract.llm import LLMExtractor

        cfg, ex_cfg = self.config.llm, self.config.extract
        gateway = self.gateway
        assert gateway is not None
        extractor = LLMExtractor(
            gateway, schema, self._prompts(), mode=ex_cfg.mode,
            constrained=ex_cfg.constrained, max_reasks=ex_cfg.max_reasks,
            model_label=f"{cfg.base_url}|{cfg.model_for('extract')}",
        )
        report.extractor = f"{extractor.name} ({cfg.model_for('extract')}, {ex_cfg.mode})"
        concepts = self._domain_concepts(report)
        fingerprint = extractor.fingerprint() + (f"|concepts:{concepts[1]}" if concepts else "")
        cache = self._open_cache(fingerprint, schema, report)
        todo = self._todo(chunks, cache, report)
        candidates: list[list[str]] = [[] for _ in todo]
        if concepts and todo:
            # KAG 2.2.3: the domain's own terms, retrieved per chunk, go into its prompt so
            # instances are typed with the domain's vocabulary.
            found = concepts[0].candidates_batch([c.text for c in todo], ex_cfg.concept_candidates)
            candidates = [[c.name for c in hits] for hits in found]
        try:
            with self.progress.stage("extract", total=len(todo)) as advance:
                # A fixed set of consumers (not one task per chunk) keeps memory flat on big corpora;
                # the gateway's own limits decide how many requests are really in flight.
                queue: asyncio.Queue[tuple[Chunk, list[str]]] = asyncio.Queue()
                for item in zip(todo, candidates):
                    queue.put_nowait(item)

                async def consume() -> None:
                    while not queue.empty():
                        chunk, names = queue.get_nowait()
                        extraction, failed = await extractor.aextract(chunk, names)
                        advance(1)
                        if failed:
                            failures[chunk.id] = extraction
                        else:
                            cache.put(cache_key(chunk), extraction.model_dump_json())

                await asyncio.gather(*(consume() for _ in range(min(len(todo), cfg.concurrency * 2) or 1)))
        finally:
            cache.close()
        report.chunks_extracted = len(todo) - len(failures)
        return cache

    def _assemble(self, extractions: list[ChunkExtraction], schema: Schema, report: BuildReport) -> Graph:
        t = time.perf_counter()
        strict = self.config.extract.strict_schema
        with self.progress.stage("assemble", total=len(extractions)) as advance:

            def validated():
                for ex in extractions:
                    advance(1)
                    yield validate_extraction(ex, schema, strict=strict)

            graph = assemble(validated())
        report.count_drops(graph.drops)
        report.entities = len(graph.entities)
        report.relations = len(graph.relations)
        report.events = len(graph.events)
        report.hypernodes = len(graph.hypernodes)
        report.concepts = len(graph.concepts)
        report.stage_seconds["assemble"] = round(time.perf_counter() - t, 3)
        return graph

    async def _align(self, graph: Graph, schema: Schema, report: BuildReport) -> tuple[Graph, list[Any]]:
        from kgbuild.align.fusion import LLMJudge
        from kgbuild.align.pipeline import align_graph
        from kgbuild.align.taxonomy import LLMHypernyms

        t = time.perf_counter()
        cfg = self.config.align
        domain = None
        location = cfg.domain_concepts or self.config.extract.domain_concepts
        if location:
            from kgbuild.extract.domain_concepts import load_domain_concepts

            domain = load_domain_concepts((self.config.root / location).resolve())
        embedder = None
        if cfg.embedder:
            from kgbuild.ingest.embedding_model import load_sentence_model

            embedder = load_sentence_model(None if cfg.embedder == "bundled" else cfg.embedder)
        use_llm = self.gateway is not None and self.config.llm.configured()
        judge = hypernym = None
        if use_llm:
            prompts = self._prompts()
            judge = LLMJudge(self.gateway, prompts.get("align_judge")) if cfg.llm_judge else None
            hypernym = LLMHypernyms(self.gateway, template=prompts.get("align_hypernym")) if cfg.llm_hypernyms else None
        with self.progress.stage("align", total=None) as advance:
            result = await align_graph(graph, schema, domain=domain, judge=judge, hypernym=hypernym,
                                       embedder=embedder, embed_threshold=cfg.embed_threshold)
            advance(1)
        report.alignment = result.report.model_dump()
        g = result.graph
        report.entities, report.relations, report.events = len(g.entities), len(g.relations), len(g.events)
        report.hypernodes, report.concepts = len(g.hypernodes), len(g.concepts)
        report.stage_seconds["align"] = round(time.perf_counter() - t, 3)
        return g, result.merges

    def _persist(self, corpus: Corpus, graph: Graph, merges: list[Any], report: BuildReport) -> None:
        t = time.perf_counter()
        ws = self.workspace
        classes = graph.node_classes()
        names = {e.id: e.name for e in graph.entities}
        tables = {
            "documents": [document_row(corpus.docs[d], corpus.chunkers[d]) for d in sorted(corpus.docs)],
            "chunks": [chunk_row(c) for c in corpus.all_chunks()],
            "entities": [entity_row(e) for e in sorted(graph.entities, key=lambda x: x.id)],
            "relations": [relation_row(r, classes) for r in sorted(graph.relations, key=lambda x: x.id)],
            "events": [event_row(e) for e in sorted(graph.events, key=lambda x: x.id)],
            "hypernodes": [hypernode_row(h) for h in sorted(graph.hypernodes, key=lambda x: x.id)],
            "concepts": [concept_row(c) for c in sorted(graph.concepts, key=lambda x: x.id)],
            "drops": [drop_row(d) for d in graph.drops],
            "merges": [merge_row(m, names) for m in merges],
        }
        with self.progress.stage("persist", total=len(tables)) as advance:
            # Graph tables first, documents last: a crash in between leaves documents that are
            # re-chunked and re-assembled (from the cache) by the next run, never a graph that
            # points at chunks the tables do not have.
            for name in ("chunks", *GRAPH_TABLES, "drops", "merges", "documents"):
                ws.write_table(name, tables[name])
                advance(1)
        report.stage_seconds["persist"] = round(time.perf_counter() - t, 3)
