"""The vector stage's embedding, done while an LLM extraction waits on the model.

In an LLM build the CPU is mostly idle: the consumers of `LLMBackend` wait on HTTP. The texts the
vector store will embed are known long before the tables are final: every chunk's text as soon as
it is chunked, and each entity's `name: description` as its extraction lands. `VectorPrefetch`
embeds them on one worker thread into the workspace's embedding cache (the same
`CachedEmbedder` file the write stage reads, keyed by model and text), so the write stage finds
them computed and only embeds what alignment changed (a merged description, concept names).

Nothing is written to a store here: the vectors wait in the cache until the tables are final.
When the extraction of a batch ends, the batch being embedded is finished and the rest dropped
(the write stage embeds it, as it would have without the prefetch): the overlap only ever uses the
time the build spends waiting on the model, and alignment, which may use the same sentence model
(whose tokenizer is not safe to share between threads), starts with the model to itself.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING

from kgbuild.model import ChunkExtraction

if TYPE_CHECKING:
    from kgbuild.build.context import BuildContext
    from kgbuild.embed.cached import CachedEmbedder

log = logging.getLogger(__name__)

# Texts per embedding call: enough for the model's batching, few enough that the batch in progress
# when the extraction ends is a short wait.
BATCH = 64


class VectorPrefetch:
    """Queue texts with `add`; they are embedded into the cache on one thread; `join` waits."""

    def __init__(self, embedder: CachedEmbedder) -> None:
        from kgbuild.store.vector_sync import entity_text  # imported by LLM builds that write vectors only

        self._entity_text = entity_text
        self._embedder = embedder
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kgbuild-vectors")
        self._pending: list[str] = []
        self._seen: set[str] = set()
        self._futures: list[tuple[Future[None], int]] = []  # each batch's future and its size
        self._lock = threading.Lock()
        self.embedded = 0  # texts sent to the model by the prefetch (cache misses)
        self.dropped = 0  # texts left to the write stage when the extraction ended
        self.failed: str | None = None  # the first error; the write stage embeds what is missing

    def add(self, texts: Iterable[str], *, flush: bool = False) -> None:
        with self._lock:
            for text in texts:
                if text and text not in self._seen:
                    self._seen.add(text)
                    self._pending.append(text)
            while len(self._pending) >= BATCH or (flush and self._pending):
                batch, self._pending = self._pending[:BATCH], self._pending[BATCH:]
                self._futures.append((self._pool.submit(self._embed, batch), len(batch)))

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
        """The extraction is over: wait for the batch being embedded, drop the rest (call from a
        worker thread, not the event loop). What was not embedded while the model was awaited is
        the write stage's, as without the prefetch, so the extraction never waits for a backlog
        (measured on a loaded machine: waiting for all of it made the extract stage 10 s -> 150 s)."""
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
        for future in running:
            future.result()

    def close(self) -> None:
        self._pool.shutdown(wait=True)
        self._embedder.close()


def open_prefetch(ctx: BuildContext, texts: Sequence[str]) -> VectorPrefetch | None:
    """A prefetch for an LLM build that writes a vector store; None when there is nothing to overlap,
    or when the model the write stage will use cannot be told yet: `embedding.model: auto` decides
    by the corpus's language from the chunks table, which this build has not written yet, so the
    batch's own `texts` must lead to the same model (a Chinese batch in an empty workspace does not:
    its vectors are left to the write stage)."""
    config = ctx.config
    if not ctx.prefetch_vectors or config.vector_store.backend == "none":
        return None
    from kgbuild.embed.cached import open_embedder
    from kgbuild.embed.choice import choose_embedding_model, decide_embedding
    from kgbuild.embed.multilingual import MULTILINGUAL, multilingual_installed
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
