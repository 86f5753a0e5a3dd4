"""One exception hierarchy for mistakes a user can fix.

Every error carries the place it is about (a file, a record, a config key) and what to do,
so the CLI can print a single actionable line instead of a traceback.
"""

from __future__ import annotations


class KgbuildError(Exception):
    """Base for errors caused by input or settings, not by a bug in kgbuild."""

    def __init__(self, where: str, problem: str, hint: str = "") -> None:
        self.where = where
        self.problem = problem
        self.hint = hint
        super().__init__(self.line())

    def line(self) -> str:
        text = f"{self.where}: {self.problem}"
        if self.hint:
            text += f" ({self.hint})"
        return text


class ConfigError(KgbuildError):
    """The project config (kgbuild.yaml or an environment variable) is invalid."""


class SchemaError(KgbuildError):
    """A domain schema YAML file is invalid."""


class InputError(KgbuildError):
    """A source document or corpus record cannot be read."""


class WorkspaceError(KgbuildError):
    """The workspace is missing, locked or holds something unexpected."""


class ModelLoadError(KgbuildError):
    """An NLP model or tokenizer needed by a stage cannot be loaded."""


class StoreError(KgbuildError):
    """A graph or vector store refused a connection, the credentials or a statement."""
