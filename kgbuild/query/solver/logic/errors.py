"""Errors in a plan's text, located by line and column with the offending line and a caret."""

from __future__ import annotations

from kgbuild.errors import KgbuildError
from kgbuild.query.solver.logic.nodes import Pos


def position(source: str, offset: int) -> Pos:
    offset = max(0, min(offset, len(source)))
    line = source.count("\n", 0, offset) + 1
    start = source.rfind("\n", 0, offset) + 1
    return Pos(line, offset - start + 1, offset)


class LogicFormError(KgbuildError):
    """A plan that does not parse or binds variables wrongly.

    `line()` is the one-line form for the CLI; `pretty()` adds the source line and a caret, which
    is what a model gets back when its plan is re-asked."""

    def __init__(self, source: str, offset: int, problem: str, hint: str = "") -> None:
        self.source = source
        self.pos = position(source, offset)
        super().__init__(f"logical form {self.pos.line}:{self.pos.col}", problem, hint)

    @property
    def source_line(self) -> str:
        lines = self.source.split("\n")
        return lines[self.pos.line - 1] if self.pos.line - 1 < len(lines) else ""

    def pretty(self) -> str:
        caret = " " * (self.pos.col - 1) + "^"
        return f"{self.line()}\n{self.source_line}\n{caret}"
