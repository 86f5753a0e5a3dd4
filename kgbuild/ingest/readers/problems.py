"""How a reader reports input it cannot use, without stopping the rest of the build."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ReadProblem:
    """One unreadable file or corpus record; the build reports it and goes on."""

    source: str  # file path (as given / relative to the input root), plus ':LINE' or '::record N'
    message: str  # one line: what is wrong and what to do

    def line(self) -> str:
        return f"{self.source}: {self.message}"


class BadInput(Exception):
    """Raised inside a format reader; the file walker turns it into a ReadProblem.

    Readers do not know the display path of what they parse, so they raise only the
    message and the caller attaches the source.
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
