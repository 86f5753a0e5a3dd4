"""A Neo4j (or any Bolt-speaking, Neo4j-5-compatible) server through the official driver."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from kgbuild.config import GraphStoreConfig
from kgbuild.errors import ConfigError, StoreError

if TYPE_CHECKING:
    import neo4j


class Neo4jGraphStore:
    def __init__(self, cfg: GraphStoreConfig) -> None:
        import neo4j
        from neo4j import exceptions as nx

        if not cfg.uri:
            raise ConfigError("graph_store.uri", "backend 'neo4j' needs a server URI",
                              "set graph_store.uri (e.g. bolt://localhost:7687) or KGBUILD_NEO4J_URI")
        self.name = f"neo4j {cfg.uri}"
        self._uri = cfg.uri
        self._database = cfg.database
        kwargs: dict[str, Any] = {}
        # Encryption settings are only allowed on the plain schemes; bolt+s:// and neo4j+s:// carry their own.
        if "+s" not in cfg.uri.split("://", 1)[0]:
            if cfg.encrypted is not None:
                kwargs["encrypted"] = cfg.encrypted
            if cfg.trusted_certificates:
                kwargs["encrypted"] = True
                kwargs["trusted_certificates"] = neo4j.TrustCustomCAs(cfg.trusted_certificates)
        auth = (cfg.user, cfg.password) if cfg.password is not None else None
        try:
            self._driver = neo4j.GraphDatabase.driver(cfg.uri, auth=auth, **kwargs)
            self._driver.verify_connectivity()
        except nx.AuthError:
            # Without a password the driver sends no credentials, which a server refuses exactly like
            # a wrong one: say which of the two it is.
            if cfg.password is None:
                raise ConfigError("graph_store.password", f"no password configured for {cfg.uri}",
                                  "set the KGBUILD_NEO4J_PASSWORD environment variable "
                                  "or graph_store.password in the config") from None
            raise StoreError("graph_store.password", f"authentication failed: {cfg.uri} refused user "
                             f"'{cfg.user}' with the configured password",
                             "check graph_store.user and KGBUILD_NEO4J_PASSWORD") from None
        except (nx.ServiceUnavailable, OSError) as exc:
            raise StoreError("graph_store.uri", f"cannot reach {cfg.uri}: {str(exc).splitlines()[0][:200]}",
                                  "is the server running and the port open?") from None
        except (ValueError, nx.ConfigurationError) as exc:
            raise ConfigError("graph_store.uri", f"unusable URI or TLS settings: {exc}") from None

    def _session(self) -> neo4j.Session:
        return self._driver.session(database=self._database) if self._database else self._driver.session()

    def execute(self, statement: str, params: Mapping[str, Any] | None = None) -> None:
        self.execute_many([(statement, params or {})])

    def execute_many(self, statements: Sequence[tuple[str, Mapping[str, Any]]]) -> None:
        # An explicit transaction, not execute_write: the driver's automatic retry could repeat a
        # CREATE whose commit succeeded before the connection dropped. A failure here stops the
        # sync with the manifest marked dirty, and the next sync reconciles with the store.
        with self._errors("write"), self._session() as session, session.begin_transaction() as tx:
            for statement, params in statements:
                tx.run(statement, dict(params)).consume()
            tx.commit()

    def query(self, statement: str, params: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        def work(tx: Any) -> list[dict[str, Any]]:
            return [record.data() for record in tx.run(statement, dict(params or {}))]

        with self._errors("read"), self._session() as session:
            rows: list[dict[str, Any]] = session.execute_read(work)  # reads are safe to retry
            return rows

    @contextmanager
    def _errors(self, what: str) -> Iterator[None]:
        from neo4j import exceptions as nx

        try:
            yield
        except (nx.Neo4jError, nx.DriverError, OSError) as exc:
            first = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:300]
            raise StoreError("graph_store.uri", f"{self._uri}: {what} failed: {first}",
                             "check the server; a rerun resumes where this stopped") from None

    def close(self) -> None:
        self._driver.close()
