"""Progress reporting for long stages; the build talks to this interface, the CLI picks the look."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Protocol

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

Advance = Callable[[int], None]


class ProgressReporter(Protocol):
    def stage(self, name: str, total: int | None = None) -> AbstractContextManager[Advance]:
        """A context yielding `advance(n)`; `total=None` for stages of unknown length."""
        ...


class QuietProgress:
    @contextmanager
    def stage(self, name: str, total: int | None = None) -> Iterator[Advance]:
        def advance(n: int = 1) -> None:
            pass

        yield advance


class RichProgress:
    """One bar per stage on stderr, so stdout stays clean for --json output."""

    def __init__(self, console: Console | None = None) -> None:
        self.console = console or Console(stderr=True)

    @contextmanager
    def stage(self, name: str, total: int | None = None) -> Iterator[Advance]:
        columns = [TextColumn("[bold]{task.description:<10}"), BarColumn(), MofNCompleteColumn(),
                   TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn()]
        with Progress(*columns, console=self.console, transient=False) as bar:
            task = bar.add_task(name, total=total)

            def advance(n: int = 1) -> None:
                bar.advance(task, n)

            yield advance
