"""Progress reporting for long stages; the build talks to this interface, the CLI picks the look."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, ExitStack, contextmanager
from typing import Protocol

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

Advance = Callable[[int], None]


class ProgressReporter(Protocol):
    def stage(self, name: str, total: int | None = None) -> AbstractContextManager[Advance]:
        """A context yielding `advance(n)`; `total=None` for stages of unknown length."""
        ...


class StageBars(Protocol):
    """Several stages' bars shown together, for a build that runs them batch by batch: each stage's
    total grows as batches reveal their work, so the rate and ETA hold for what is known so far."""

    def advancer(self, name: str) -> Advance: ...

    def grow(self, name: str, n: int) -> None: ...


class _PlainBars:
    def __init__(self, advances: dict[str, Advance]) -> None:
        self._advances = advances

    def advancer(self, name: str) -> Advance:
        return self._advances[name]

    def grow(self, name: str, n: int) -> None:
        pass


@contextmanager
def stage_bars(progress: ProgressReporter, names: Sequence[str]) -> Iterator[StageBars]:
    """Bars for `names` at once: the reporter's own `bars` when it has one (RichProgress), else one
    `stage` per name (totals unknown), so any ProgressReporter works."""
    own = getattr(progress, "bars", None)
    if own is not None:
        with own(names) as bars:
            yield bars
        return
    with ExitStack() as stack:
        yield _PlainBars({name: stack.enter_context(progress.stage(name, None)) for name in names})


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

    @contextmanager
    def bars(self, names: Sequence[str]) -> Iterator[StageBars]:
        """One live display with a bar per stage (rich allows one live display at a time)."""
        columns = [TextColumn("[bold]{task.description:<10}"), BarColumn(), MofNCompleteColumn(),
                   TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn()]
        with Progress(*columns, console=self.console, transient=False) as bar:
            # No total until a batch says how much work there is (reading never knows: it counts).
            tasks = {name: bar.add_task(name, total=None) for name in names}
            yield _RichBars(bar, tasks)


class _RichBars:
    def __init__(self, bar: Progress, tasks: dict[str, TaskID]) -> None:
        self._bar = bar
        self._tasks = tasks
        self._totals = dict.fromkeys(tasks, 0)

    def advancer(self, name: str) -> Advance:
        task = self._tasks[name]

        def advance(n: int = 1) -> None:
            self._bar.advance(task, n)

        return advance

    def grow(self, name: str, n: int) -> None:
        self._totals[name] += n
        self._bar.update(self._tasks[name], total=self._totals[name])
