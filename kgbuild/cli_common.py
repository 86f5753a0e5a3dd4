"""What the query-side commands (query, eval, export) share: clean failures, the config, the stores.

This module imports nothing of kgbuild.cli, so cli.py can import the commands (and these helpers)
in any order; before, each command module carried its own shim that looked cli.py up at call time.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import wraps
from typing import TYPE_CHECKING, Any, TypeVar

import click

from kgbuild.errors import ConfigError, KgbuildError

if TYPE_CHECKING:
    from kgbuild.config import Config
    from kgbuild.solve.retrieval import HybridRetriever
    from kgbuild.store.open import QueryIndex

F = TypeVar("F", bound=Callable[..., Any])


def fail_cleanly(fn: F) -> F:
    """A user mistake is one line on stderr and exit code 2, never a traceback."""

    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except KgbuildError as exc:
            click.echo(f"error: {exc.line()}", err=True)
            sys.exit(2)
        except KeyboardInterrupt:
            click.echo("interrupted: finished work is kept (extraction cache, store manifest); "
                       "run the same command again to resume", err=True)
            sys.exit(130)

    return wrapper  # type: ignore[return-value]


def config_of(ctx: click.Context) -> Config:
    """The project config the main group loads lazily (ctx.obj["config_loader"])."""
    return ctx.obj["config_loader"]()  # type: ignore[no-any-return]


def open_index(config: Config) -> QueryIndex:
    from kgbuild.store.open import open_query_index

    return open_query_index(config)


def make_retriever(index: QueryIndex, *, cached_embeddings: bool = True) -> HybridRetriever:
    """Hybrid retrieval over the index's vector store and the workspace's mutual index.

    cached_embeddings=False embeds every question with the model itself rather than through the
    persistent embedding cache: an evaluation must time a query, not a cache hit.
    """
    from kgbuild.solve.retrieval import HybridRetriever, MutualIndex

    if index.vectors is None:
        raise ConfigError("vector_store.backend", "queries need the vector store, but it is 'none'",
                          "set vector_store.backend: milvus and run `kgbuild sync`")
    embedder = index.embedder if cached_embeddings else getattr(index.embedder, "inner", index.embedder)
    return HybridRetriever(MutualIndex.load(index.workspace), index.vectors, embedder, index.prefix)
