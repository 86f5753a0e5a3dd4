"""Running an extractor over many chunks: in this process, or in a pool of worker processes.

Workers are started with the `spawn` method: later stages open an in-process database (a JVM)
and Milvus Lite (a gRPC thread), after which forking is unsafe. Each worker builds its own
extractor once (loading spaCy takes ~1 s) and returns results as JSON text, which the parent
appends to the cache without decoding and re-encoding them.

Workers die with the build, even when it is killed with SIGKILL (which runs no cleanup): on Linux
the kernel sends them SIGKILL when their parent dies, and on every platform a watchdog thread in
each worker exits when the worker is re-parented. The multiprocessing resource tracker, which the
pool's queues need under spawn (it unlinks named semaphores a dead process leaves behind), exits by
itself once every holder of its pipe (the parent and the workers) is gone.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Protocol

from kgbuild.model import Chunk, ChunkExtraction, ChunkFailure


class Extractor(Protocol):
    name: str

    def fingerprint(self) -> str: ...

    def load(self) -> None:
        """Load models now, raising a KgbuildError naming the setting if they are missing."""
        ...

    def extract(self, chunks: Sequence[Chunk]) -> list[ChunkExtraction]: ...


@dataclass(frozen=True)
class ExtractorSpec:
    """Everything a worker process needs to build the extractor itself (picklable)."""

    schema_location: str
    spacy_models: tuple[str, ...]
    batch_size: int
    domain_concepts: str | None = None  # absolute path: the Chinese rules match its names and aliases
    prompt_language: str = "en"  # zh: every chunk goes to the Chinese rules
    code_entities: bool = True  # identifiers in inline code become entities (extract.code_entities)

    def create(self) -> Extractor:
        from kgbuild.extract.routing import LanguageRouter
        from kgbuild.schema import resolve_schema

        return LanguageRouter(resolve_schema(self.schema_location), self.spacy_models, batch_size=self.batch_size,
                              domain_concepts=self.domain_concepts, prompt_language=self.prompt_language,
                              code_entities=self.code_entities)


@dataclass(frozen=True)
class ExtractionResult:
    chunk_id: str
    payload: str  # ChunkExtraction as JSON
    failed: bool  # the extractor raised: the result is not cached, so the chunk is retried next build


def extract_batch(extractor: Extractor, chunks: Sequence[Chunk]) -> list[ExtractionResult]:
    try:
        extractions = extractor.extract(chunks)
    except Exception as exc:  # noqa: BLE001 - one bad batch must not stop the build: retry chunk by chunk
        if len(chunks) > 1:
            return [r for chunk in chunks for r in extract_batch(extractor, [chunk])]
        failure = ChunkExtraction(
            chunk_id=chunks[0].id,
            extractor=extractor.name,
            failure=ChunkFailure(detail=f"{type(exc).__name__}: {exc}".splitlines()[0][:300], chunk_id=chunks[0].id),
        )
        return [ExtractionResult(chunks[0].id, failure.model_dump_json(), True)]
    out = []
    for ex in extractions:
        out.append(ExtractionResult(ex.chunk_id, ex.model_dump_json(), ex.failed))
    return out


# Per-process extractor of a pool worker, set once by the initializer. This is the only
# module-level state in kgbuild, and it exists only inside worker processes.
_worker_extractor: Extractor | None = None


# prctl(2) option: the signal this process gets when the thread that created it exits.
_PR_SET_PDEATHSIG = 1
# How often a worker's watchdog looks at its parent (seconds): the bound on an orphan's lifetime
# where the parent-death signal is not available.
_WATCHDOG_INTERVAL = 0.5


def _die_with_parent(parent_pid: int) -> None:
    """Make this worker process exit when `parent_pid`, the build that started it, dies."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            # The signal follows the thread that created the worker: the one that runs the pool
            # in `_pool_results`, which outlives the pool because it shuts the pool down itself.
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # no usable libc: the watchdog below still covers it
            pass

    def watch() -> None:
        # A dead parent re-parents the worker (to init or a subreaper), so the parent PID changes.
        # This also covers a parent that died before prctl above ran, which no signal would report.
        while os.getppid() == parent_pid:
            threading.Event().wait(_WATCHDOG_INTERVAL)
        os._exit(1)  # no cleanup to run: results go nowhere without the parent

    threading.Thread(target=watch, name="kgbuild-parent-watchdog", daemon=True).start()


def _init_worker(spec: ExtractorSpec, parent_pid: int) -> None:
    global _worker_extractor
    _die_with_parent(parent_pid)  # first: loading the extractor takes a while
    _worker_extractor = spec.create()


def _run_in_worker(chunks: list[Chunk]) -> list[ExtractionResult]:
    assert _worker_extractor is not None, "pool initializer did not run"
    return extract_batch(_worker_extractor, chunks)


def run_extraction(
    spec: ExtractorSpec,
    chunks: Sequence[Chunk],
    *,
    workers: int,
    batch_size: int,
    on_result: Callable[[ExtractionResult], None],
    extractor: Extractor | None = None,
    pool: WorkerPool | None = None,
) -> None:
    """Extract `chunks`, calling `on_result` in the parent as each result arrives (any order).
    `pool`: workers kept by the caller across calls (used once started, or when there is enough work)."""
    batches = [list(chunks[i : i + batch_size]) for i in range(0, len(chunks), batch_size)]
    if not batches:
        return
    if pool is not None and (pool.started or (workers > 1 and len(batches) > 1)):
        for result in pool.results(batches):
            on_result(result)
        return
    if workers <= 1 or len(batches) == 1:
        local = extractor or spec.create()
        for batch in batches:
            for result in extract_batch(local, batch):
                on_result(result)
        return
    for result in _pool_results(spec, batches, workers):
        on_result(result)


class WorkerPool:
    """Extraction worker processes kept for several calls: a streamed build extracts batch after batch
    without paying the workers' start-up (spawn + spaCy load) again for each.

    Workers are started by the thread that first calls `results` (their parent-death signal follows
    that thread, see `_die_with_parent`), so the caller runs every call of one pool on one thread that
    outlives it, and calls `close` from there too.
    """

    def __init__(self, spec: ExtractorSpec, workers: int) -> None:
        self.spec = spec
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None

    @property
    def started(self) -> bool:
        return self._pool is not None

    def results(self, batches: Iterable[list[Chunk]]) -> Iterator[ExtractionResult]:
        if self._pool is None:
            ctx = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=ctx, initializer=_init_worker,
                                             initargs=(self.spec, os.getpid()))
        pool = self._pool
        # Bounded in-flight window: results stream back while memory stays flat on huge corpora.
        pending: set[Future[list[ExtractionResult]]] = set()
        for batch in batches:
            pending.add(pool.submit(_run_in_worker, batch))
            if len(pending) >= self.workers * 4:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for fut in done:
                    yield from fut.result()
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                yield from fut.result()

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)


def _pool_results(spec: ExtractorSpec, batches: list[list[Chunk]], workers: int) -> Iterator[ExtractionResult]:
    pool = WorkerPool(spec, workers)
    try:
        yield from pool.results(batches)
    finally:
        pool.close()
