"""The vector stage's embedding, done while an LLM extraction waits on the model.

In an LLM build the CPU is mostly idle: the consumers of `LLMBackend` wait on HTTP. The texts the
vector store will embed are known long before the tables are final: every chunk's text as soon as
it is chunked, and each entity's `name: description` as its extraction lands. `VectorPrefetch`
embeds them on one worker thread into the workspace's embedding cache (the same
`CachedEmbedder` file the write stage reads, keyed by model and text), so the write stage finds
them computed and only embeds what alignment changed (a merged description, concept names).

Nothing is written to a store here: the vectors wait in the cache until the tables are final.
The thread is joined when the extraction of a batch ends, before alignment runs, so the sentence
model (whose tokenizer is not safe to share between threads) has one user at a time.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING

from kgbuild.model import ChunkExtraction

if TYPE_CHECKING:
    from kgbuild.build.context import BuildContext
    from kgbuild.store.embeddings import CachedEmbedder

log = logging.getLogger(__name__)

BATCH = 256  # texts per embedding call: large enough for the model's batching, small enough to interleave


class VectorPrefetch:
    """Queue texts with `add`; they are embedded into the cache on one thread; `join` waits."""

    def __init__(self, embedder: CachedEmbedder) -> None:
        from kgbuild.store.vector_sync import entity_text  # imported by LLM builds that write vectors only

        self._entity_text = entity_text
        self._embedder = embedder
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kgbuild-vectors",
                                        initializer=_lower_priority)
        self._pending: list[str] = []
        self._seen: set[str] = set()
        self._futures: list[Future[None]] = []
        self._lock = threading.Lock()
        self.embedded = 0  # texts sent to the model by the prefetch (cache misses)
        self.failed: str | None = None  # the first error; the write stage embeds what is missing

    def add(self, texts: Iterable[str], *, flush: bool = False) -> None:
        with self._lock:
            for text in texts:
                if text and text not in self._seen:
                    self._seen.add(text)
                    self._pending.append(text)
            while len(self._pending) >= BATCH or (flush and self._pending):
                batch, self._pending = self._pending[:BATCH], self._pending[BATCH:]
                self._futures.append(self._pool.submit(self._embed, batch))

    def add_extraction(self, extraction: ChunkExtraction) -> None:
        self.add(self._entity_text(e.name, e.description) for e in extraction.entities)

    def _embed(self, texts: list[str]) -> None:
        if self.failed is not None:
            return
        try:
            missing = self._embedder.missing(texts)
            if missing:
                self._embedder.embed(missing)
                self.embedded += len(missing)
        except Exception as exc:  # noqa: BLE001 - an optimisation only: the write stage embeds them again
            self.failed = f"{type(exc).__name__}: {exc}"
            log.warning("vector prefetch stopped (the write stage embeds the rest): %s", self.failed)

    def join(self) -> None:
        """Embed what is queued and wait for it (call from a worker thread, not the event loop)."""
        self.add((), flush=True)
        with self._lock:
            futures, self._futures = self._futures, []
        for future in futures:
            future.result()

    def close(self) -> None:
        self._pool.shutdown(wait=True)
        self._embedder.close()


# How much nicer than the build the prefetch thread runs: the event loop that reads the model's
# replies keeps its priority, the embedding takes what CPU is left (threads a library starts from
# this thread, e.g. the tokenizer's pool on first use, inherit it).
NICE = 10


def _lower_priority() -> None:
    """Run in the worker thread once, as it starts (Linux keeps a nice value per thread)."""
    try:
        tid = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, tid, min(19, os.getpriority(os.PRIO_PROCESS, tid) + NICE))
    except (AttributeError, OSError):  # not Linux (a thread's priority is the process's), or not allowed
        pass


def open_prefetch(ctx: BuildContext, texts: Sequence[str]) -> VectorPrefetch | None:
    """A prefetch for an LLM build that writes a vector store; None when there is nothing to overlap,
    or when the model the write stage will use cannot be told yet: `embedding.model: auto` decides
    by the corpus's language from the chunks table, which this build has not written yet, so the
    batch's own `texts` must lead to the same model (a Chinese batch in an empty workspace does not:
    its vectors are left to the write stage)."""
    config = ctx.config
    if not ctx.prefetch_vectors or config.vector_store.backend == "none":
        return None
    from kgbuild.ingest.embedding_choice import choose_embedding_model, decide_embedding
    from kgbuild.ingest.multilingual import MULTILINGUAL, multilingual_installed
    from kgbuild.store.embeddings import open_embedder
    from kgbuild.text_language import guess_language

    decided = decide_embedding(config, config.workspace_path())
    if config.embedding.model == "auto" and config.extract.prompt_language != "zh":
        here = choose_embedding_model("auto", prompt_language=config.extract.prompt_language,
                                      corpus=guess_language(list(texts)) if texts else None,
                                      installed=multilingual_installed())
        if here.model != decided.model:
            return None
    if decided.model == MULTILINGUAL or decided.missing:
        return None  # its own embedder, and a notice the write stage gives once
    return VectorPrefetch(open_embedder(config, config.workspace_path(), ctx.models))
