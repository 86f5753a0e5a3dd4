"""The one shape of a sentence model that every consumer sees."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol


class Embedder(Protocol):
    """Text -> unit-length vectors (so inner product equals cosine): the one shape of a sentence model
    for every consumer (chunk boundaries, domain concept retrieval, fusion blocking, the vector sync,
    query retrieval). A pooled model is `kgbuild.embed.models.SentenceEmbedder`; the
    workspace cache in front of one is `kgbuild.embed.cached.CachedEmbedder`.

    Vectors are lists of floats because they travel into vector rows and stores; a consumer that
    wants a matrix takes `np.asarray(embedder.embed(texts))`.
    """

    name: str  # identifies the model; part of every embedding cache key

    @property
    def dim(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One unit-length vector per text, in order; [] for no texts."""
        ...

    def close(self) -> None:
        """Release what the embedder holds (a cache connection); a pooled model stays with its pool."""
        ...
