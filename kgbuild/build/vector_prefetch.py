"""The vector stage's work, done while an LLM extraction waits on the model.

In an LLM build the CPU is mostly idle: the consumers of `LLMBackend` wait on HTTP. The texts the
vector store will embed are known long before the tables are final: every chunk's text as soon as
it is chunked, and each entity's `name: description` as its extraction lands. `VectorPrefetch`
embeds them on one worker thread into the workspace's embedding cache (the same `CachedEmbedder`
file the write stage reads, keyed by model and text), so the write stage finds them computed and
only embeds what alignment changed (a merged description, concept names).

One prefetch serves the whole build (`BuildContext.vector_prefetch`): it is opened by the first
extraction batch, fed by every batch, and keeps embedding through assembly, alignment and persist.
The write stage then `complete`s it: the batches not started are dropped, and the texts of the rows
the vector sync will write that the cache still lacks (what the prefetch had not reached, merged
descriptions, concept names) are embedded at the build's own priority, on an ONNX session made for
it ahead, while the graph store is written; the vector sync `finish`es it (waits for that) before it
reads the cache. The worker runs at a lower priority with an ONNX session of its own, so it only
takes time the build does not use: the extraction never waits for it, on the cores or at its end.

The vector store is opened on a second thread (at the build's priority) as soon as the prefetch
starts, and the collections the sync writes are created then: Milvus Lite starts a server process
and polls each new index (about 2.5 s of a first build, mostly sleeping) while the build waits on
the model anyway; the session `complete` uses is made there next. The opened store is handed to
the write stage. Nothing is written into a collection here: the rows wait for the final tables.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING

from kgbuild.embed.models import SentenceEmbedder
from kgbuild.model import ChunkExtraction

if TYPE_CHECKING:
    from kgbuild.config import Config
    from kgbuild.embed.cached import CachedEmbedder
    from kgbuild.embed.models import ModelPool
    from kgbuild.store.types import VectorStore

log = logging.getLogger(__name__)

# Texts per embedding call: enough for the model's batching, few enough that the batch in progress
# when the write stage starts is a short wait (at the worker's lower priority).
BATCH = 32
NICE = 10  # the worker's priority below the build's
FINAL_SLICE = 256  # texts per call of `complete` (its vectors go to the cache, not into memory)

StoreOpener = Callable[[], "VectorStore"]


class VectorPrefetch:
    """Queue texts with `add`; they are embedded into the cache on one thread; `finish` waits for them."""

    def __init__(self, embedder: CachedEmbedder, open_store: StoreOpener | None = None,
                 foreground: CachedEmbedder | None = None) -> None:
        """`embedder`: the write stage's model behind the workspace's embedding cache, run here on a
        session of its own below the build's priority; `foreground`: the same model and cache for what
        `complete` embeds at the build's priority (its session is made on the store-opening thread while
        the model is awaited, so the write stage does not pay it); without one, `complete` leaves
        everything to the write stage."""
        from kgbuild.store.vector_sync import entity_text  # imported by LLM builds that write vectors only

        self._entity_text = entity_text
        self._embedder = embedder
        self._foreground = foreground
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kgbuild-vectors",
                                        initializer=_lower_priority)
        inner = getattr(embedder, "inner", None)
        if isinstance(inner, SentenceEmbedder):
            inner.background = True  # its own ONNX session, made on the worker: its threads share the lower priority
        self._pending: list[str] = []
        self._seen: set[str] = set()
        self._futures: list[tuple[Future[None], int]] = []  # each batch's future and its size
        self._in_progress: set[str] = set()  # the batch the worker embeds now (`complete` leaves it to it)
        self._lock = threading.Lock()
        self._opener = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kgbuild-store-open")
        self._store: Future[VectorStore] | None = self._opener.submit(open_store) if open_store else None
        if foreground is not None:
            self._opener.submit(_make_session, foreground)
        self._final: Future[None] | None = None  # what `complete` embeds at the build's priority
        self.embedded = 0  # texts sent to the model by the prefetch (cache misses)
        self.dropped = 0  # texts not embedded here before the write stage began (`complete` takes them over)
        self.completed = 0  # texts embedded by `complete`, at the build's priority, while the graph store was written
        self.failed: str | None = None  # the first error; the write stage embeds what is missing

    def add(self, texts: Iterable[str], *, flush: bool = False) -> None:
        with self._lock:
            new = []
            for text in texts:
                if text and text not in self._seen:
                    self._seen.add(text)
                    new.append(text)
            # Like lengths to one call: a call pads to its longest text, and a batch's chunks range from
            # a line to the model's window (the write stage sorts all its texts the same way).
            self._pending.extend(sorted(new, key=len))
            while len(self._pending) >= BATCH or (flush and self._pending):
                batch, self._pending = self._pending[:BATCH], self._pending[BATCH:]
                self._futures.append((self._pool.submit(self._embed, batch), len(batch)))

    def add_extraction(self, extraction: ChunkExtraction) -> None:
        self.add(self._entity_text(e.name, e.description) for e in extraction.entities)

    def flush(self) -> None:
        """Queue the texts waiting for a full batch (an extraction batch ended)."""
        self.add((), flush=True)

    def _embed(self, texts: list[str]) -> None:
        if self.failed is not None:
            return
        with self._lock:
            self._in_progress = set(texts)
        try:
            missing = self._embedder.missing(texts)
            if missing:
                self._embedder.embed(missing)
                self.embedded += len(missing)
        except Exception as exc:  # noqa: BLE001 - an optimisation only: the write stage embeds them again
            self.failed = f"{type(exc).__name__}: {exc}"
            log.warning("vector prefetch stopped (the write stage embeds the rest): %s", self.failed)
        finally:
            with self._lock:
                self._in_progress = set()

    @property
    def name(self) -> str:
        """The embedder's name (the model and backend the vectors are cached under)."""
        return self._embedder.name

    def complete(self, texts: Callable[[], Sequence[str]]) -> None:
        """The tables are final: the batches not started here are dropped, and on a thread at the
        build's own priority `texts()` (the texts the vector sync will embed, read there) are
        embedded where the cache still lacks them, while the caller writes the graph store (the
        embedding runs in ONNX Runtime without the GIL; the graph writes are the JVM's and the
        interpreter's). `finish` waits for it. Without a foreground embedder, as `finish`: the write
        stage embeds the rest."""
        self._drop_unstarted()
        if self._foreground is None or self.failed is not None:
            return
        self._final = self._opener.submit(self._embed_final, texts)

    def _embed_final(self, texts: Callable[[], Sequence[str]]) -> None:
        embedder = self._foreground
        assert embedder is not None
        try:
            wanted = texts()
            with self._lock:
                theirs = set(self._in_progress)  # the worker's batch in progress: `finish` waits for it
            # like lengths to one call, as the sync does
            missing = sorted((t for t in embedder.missing(wanted) if t not in theirs), key=len)
            for start in range(0, len(missing), FINAL_SLICE):
                embedder.embed(missing[start : start + FINAL_SLICE])  # into the cache; the sync reads them
                self.completed += len(missing[start : start + FINAL_SLICE])
        except Exception as exc:  # noqa: BLE001 - an optimisation only: the vector sync embeds what is missing
            self.failed = f"{type(exc).__name__}: {exc}"
            log.warning("vectors not embedded alongside the graph writes (the vector sync embeds them): %s",
                        self.failed)

    def finish(self) -> VectorStore | None:
        """The tables are final: the batch in progress is finished, the batches not started are
        dropped (the write stage embeds them at the build's own priority, which is no more work than
        finishing them here), what `complete` started is waited for, and the vector store opened ahead
        is handed over (None: not opened here, or opening failed; the write stage opens it and reports
        why). Call from a worker thread, or where the caller has nothing else to do."""
        running = self._drop_unstarted()
        for future in running:
            future.result()
        final, self._final = self._final, None
        if final is not None:
            final.result()  # never raises: _embed_final records its error
        return self._take_store()

    def _drop_unstarted(self) -> list[Future[None]]:
        """The batches not started are cancelled (the running one is left to finish); returns what runs."""
        with self._lock:
            futures, self._futures = self._futures, []
            self.dropped += len(self._pending)
            self._pending = []
        # Every batch not started is cancelled first: waiting on the running one before would let
        # the worker start the next.
        running = []
        for future, size in futures:
            if future.cancel():
                self.dropped += size
            else:
                running.append(future)
        return running

    def _take_store(self) -> VectorStore | None:
        opened, self._store = self._store, None
        if opened is None:
            return None
        try:
            return opened.result()
        except Exception as exc:  # noqa: BLE001 - the write stage opens it again and reports the error itself
            log.info("vector store not opened ahead of the write stage: %s", exc)
            return None

    def cancel(self) -> None:
        """The build stops before its write stage, or the write stage ends without having taken the
        store: as `finish`, and the store opened ahead is closed."""
        store = self.finish()
        if store is not None:
            store.close()

    def close(self) -> None:
        self._pool.shutdown(wait=True)
        self._opener.shutdown(wait=True)
        self._embedder.close()
        if self._foreground is not None:
            self._foreground.close()


def _make_session(embedder: CachedEmbedder) -> None:
    """`complete`'s ONNX session made ahead, on a thread at the build's priority (its threads take the
    priority of the thread that makes them) while the build waits on the model."""
    inner = embedder.inner
    if isinstance(inner, SentenceEmbedder):
        try:
            inner.warm()
        except Exception as exc:  # noqa: BLE001 - the write stage makes it again and reports its own error
            log.info("embedding session not made ahead of the write stage: %s", exc)


def _lower_priority() -> None:
    """The worker's scheduling priority lowered (nice +10, Linux threads only): it fills the time the
    build waits on the model and must not take the cores from the event loop that parses the replies
    (on 2 loaded cores it made the extract stage 3x longer); threads it starts inherit it."""
    if sys.platform != "linux":
        return
    try:
        tid = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, tid, min(19, os.getpriority(os.PRIO_PROCESS, tid) + NICE))
    except OSError:
        pass  # not allowed here: the prefetch runs at the build's priority


def open_prefetch(config: Config, models: ModelPool, texts: Sequence[str]) -> VectorPrefetch | None:
    """A prefetch for an LLM build that writes a vector store (the caller knows its pipeline does;
    `models`: the build's pool, whose model the write stage uses); None when there is nothing to overlap,
    or when the model the write stage will use cannot be told yet: `embedding.model: auto` decides
    by the corpus's language from the chunks table, which this build has not written yet, so the
    batch's own `texts` must lead to the same model (a Chinese batch in an empty workspace does not:
    its vectors are left to the write stage). The store is opened ahead only when the full-text
    analyzer (`vector_store.text_analyzer: auto`, decided the same way) is certain too."""
    if config.vector_store.backend == "none":
        return None
    from kgbuild.embed.cached import open_embedder
    from kgbuild.embed.choice import (
        choose_embedding_model,
        choose_text_analyzer,
        decide_embedding,
        decide_text_analyzer,
    )
    from kgbuild.embed.multilingual import MULTILINGUAL, multilingual_installed
    from kgbuild.text_language import guess_language

    workspace = config.workspace_path()
    decided = decide_embedding(config, workspace)
    corpus = guess_language(list(texts)) if texts else None
    if config.embedding.model == "auto" and config.extract.prompt_language != "zh":
        here = choose_embedding_model("auto", prompt_language=config.extract.prompt_language, corpus=corpus,
                                      installed=multilingual_installed())
        if here.model != decided.model:
            return None
    if decided.model == MULTILINGUAL or decided.missing:
        return None  # its own embedder, and a notice the write stage gives once
    embedder = open_embedder(config, workspace, models)
    # The same model and cache on a session of its own, made on the store-opening thread (the build's
    # priority), whose threads do not spin: it runs beside the graph writes on the same cores, where
    # threads spinning between runs only take CPU from them. With no graph store there is nothing to
    # run beside: the vector sync embeds what is missing, and no session is made for it.
    foreground = None
    if config.graph_store.backend != "none":
        foreground = open_embedder(config, workspace, models)
        if isinstance(foreground.inner, SentenceEmbedder):
            foreground.inner.background = True
    analyzer = decide_text_analyzer(config, workspace)
    certain = (config.vector_store.text_analyzer != "auto" or config.extract.prompt_language == "zh"
               or choose_text_analyzer("auto", prompt_language=config.extract.prompt_language,
                                       corpus=corpus) == analyzer)

    def open_store() -> VectorStore:
        from kgbuild.store.milvus import open_vector_store
        from kgbuild.store.vector_sync import prepare_collections

        store = open_vector_store(config, analyzer)
        try:
            prepare_collections(store, config.vector_store.collection_prefix, embedder.dim)
        except Exception:
            store.close()
            raise
        return store

    return VectorPrefetch(embedder, open_store if certain else None, foreground)
