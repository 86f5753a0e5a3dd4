"""The opened project behind the tools: the engine and its explorer, set aside while a build writes.

Reads share the engine (the explorer serialises the engine calls that need it). A build or a removal
(`--allow-build`) closes the engine first, because the embedded stores admit one open handle and the
build's write stage opens them itself; reads that arrive meanwhile wait, and the first read after the
build opens the engine again over the new tables. Two builds are not queued here: both go to the
build runner, whose workspace lock refuses the second in one line (as it refuses a second
`kgbuild build` process).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from kgbuild.serve.data import Explorer

if TYPE_CHECKING:
    from kgbuild.config import Config
    from kgbuild.engine import Engine


class Project:
    """The engine of one project, opened by `opener` (the CLI's `open_engine`), and who is using it."""

    def __init__(self, config: Config, opener: Callable[[], Engine]) -> None:
        self.config = config
        self._opener = opener
        self._state = threading.Condition()
        self._explorer: Explorer | None = None
        self._readers = 0
        self._writers = 0

    def open(self) -> Explorer:
        """Open the engine now (not on the first call) and load the graph index; a user mistake (nothing
        built, a store missing) raises its one-line KgbuildError here."""
        with self.reading() as explorer:
            explorer.index()
            return explorer

    @contextmanager
    def reading(self) -> Iterator[Explorer]:
        """The explorer over the open engine, for one tool call; waits while a build runs."""
        with self._state:
            while self._writers:
                self._state.wait()
            if self._explorer is None:
                self._explorer = Explorer(self._opener())
            explorer = self._explorer
            self._readers += 1
        try:
            yield explorer
        finally:
            with self._state:
                self._readers -= 1
                self._state.notify_all()

    @contextmanager
    def writing(self) -> Iterator[Config]:
        """The engine closed, for a build or a removal: waits for the reads in flight, then holds new ones
        back until every writer is done (the engine reopens on the next read)."""
        with self._state:
            self._writers += 1
            try:
                while self._readers:
                    self._state.wait()
                self._close_engine()
            except BaseException:
                self._writers -= 1
                self._state.notify_all()
                raise
        try:
            yield self.config
        finally:
            with self._state:
                self._writers -= 1
                self._state.notify_all()

    def _close_engine(self) -> None:
        explorer, self._explorer = self._explorer, None
        if explorer is not None:
            explorer.engine.close()

    def close(self) -> None:
        with self._state:
            self._close_engine()
