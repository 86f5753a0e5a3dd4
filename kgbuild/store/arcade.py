"""The embedded graph store: ArcadeDB running inside this Python process (no server, no port).

ArcadeDB speaks the same Cypher as Neo4j 5 for everything kgbuild writes, so the writer and the
solver use one set of statements for both backends. The database directory lives in the
workspace; ArcadeDB allows one process per directory, so a second process gets a clear error.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from kgbuild.errors import StoreError, WorkspaceError


def _jvm_kwargs() -> dict[str, Any]:
    # ArcadeDB logs every index build at INFO through java.util.logging; keep the terminal for
    # kgbuild. The JVM starts once per process and refuses different settings later, so the
    # arguments must not depend on the database path.
    config = Path(__file__).with_name("arcadedb-logging.properties")
    return {"jvm_args": f"-Djava.util.logging.config.file={config}"}


@contextmanager
def _jvm_start_quietly() -> Iterator[None]:
    """The JVM prints "WARNING: Using incubator modules: jdk.incubator.vector" on the process's
    stderr when it starts (ArcadeDB requires that module). Nothing a user can act on, so stderr is
    parked while the JVM starts; a failure still reaches the user as our one-line error."""
    import jpype

    if jpype.isJVMStarted():
        yield
        return
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
            try:
                yield
            finally:
                os.dup2(saved, 2)
    finally:
        os.close(saved)


class ArcadeGraphStore:
    name = "embedded ArcadeDB"

    def __init__(self, path: Path) -> None:
        try:
            import arcadedb_embedded as arcadedb
        except ImportError:
            raise WorkspaceError("graph_store.backend", "the embedded graph store needs the arcadedb-embedded package",
                                 "pip install arcadedb-embedded, or set graph_store.backend: neo4j") from None
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            # Not arcadedb.database_exists(): it would start the JVM without our settings.
            with _jvm_start_quietly():
                if path.is_dir() and any(path.iterdir()):
                    self._db = arcadedb.open_database(str(path), jvm_kwargs=_jvm_kwargs())
                else:
                    self._db = arcadedb.create_database(str(path), jvm_kwargs=_jvm_kwargs())
        except Exception as exc:  # noqa: BLE001 - the binding raises its own and Java exceptions
            first = str(exc).strip().splitlines()[0][:300] if str(exc).strip() else type(exc).__name__
            raise WorkspaceError(str(path), f"cannot open the embedded graph store: {first}",
                                 "is another kgbuild process using this workspace? wait for it to finish") from None

    def execute(self, statement: str, params: Mapping[str, Any] | None = None) -> None:
        self.execute_many([(statement, params or {})])

    def execute_many(self, statements: Sequence[tuple[str, Mapping[str, Any]]]) -> None:
        with self._errors("write"), self._db.transaction():
            for statement, params in statements:
                self._db.command("opencypher", statement, dict(params))

    def query(self, statement: str, params: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        with self._errors("read"):
            return self._db.query("opencypher", statement, dict(params or {})).to_list()

    @contextmanager
    def _errors(self, what: str) -> Iterator[None]:
        # The binding raises its own errors and Java exceptions; either way the user gets one line.
        try:
            yield
        except Exception as exc:  # noqa: BLE001
            first = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:300]
            raise StoreError(str(self.path), f"embedded graph store {what} failed: {first}",
                             "a rerun resumes where this stopped") from None

    def close(self) -> None:
        if self._db is not None and self._db.is_open():
            self._db.close()
        self._db = None
