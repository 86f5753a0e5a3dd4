"""Checks of the configured stores before a build does any work: a server that is down or a
password that is missing stops the build in one line, before the workspace or a store is touched.

The embedded stores (ArcadeDB in the workspace, a Milvus Lite file) need no check: they are
created on first use. A server is checked by connecting with the configured credentials and
closing again; the build opens its own connection later.
"""

from __future__ import annotations

import socket
from urllib.parse import urlsplit

from kgbuild.config import Config
from kgbuild.errors import StoreError

CONNECT_TIMEOUT_S = 5.0


def check_stores(config: Config) -> None:
    """Raise a one-line `KgbuildError` naming the setting if a configured server store is unusable."""
    if config.graph_store.backend == "neo4j":
        from kgbuild.store.neo4j_store import Neo4jGraphStore

        Neo4jGraphStore(config.graph_store).close()  # its errors already name the setting and the fix
    if config.vector_store.backend == "milvus":
        uri = config.vector_store_uri()
        if "://" in uri:
            check_milvus_server(uri)


def check_milvus_server(uri: str) -> None:
    """A plain TCP connect first: pymilvus waits for its own, much longer timeout on a dead port."""
    parts = urlsplit(uri)
    host = parts.hostname or "localhost"
    try:
        port = parts.port or (443 if parts.scheme == "https" else 19530)
    except ValueError:
        raise StoreError("vector_store.uri", f"{uri}: the port is not a number",
                         "use a URI like http://localhost:19530") from None
    try:
        with socket.create_connection((host, port), timeout=CONNECT_TIMEOUT_S):
            pass
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise StoreError("vector_store.uri", f"cannot reach Milvus at {uri}: {reason}",
                         "is the server running and the port open? nothing was built or written") from None
