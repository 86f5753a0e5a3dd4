"""What the query-side commands (query, eval, export) share: clean failures, the config, the stores.

This module imports no other command module, so the root group (root.py) can load the commands (and
these helpers) in any order; before, each command module carried its own shim that looked the root up
at call time.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from functools import wraps
from typing import TYPE_CHECKING, Any, TypeVar

import click

from kgbuild.errors import KgbuildError

if TYPE_CHECKING:
    from kgbuild.config import Config
    from kgbuild.engine import Engine

F = TypeVar("F", bound=Callable[..., Any])


class LazyGroup(click.Group):
    """A click group whose commands named in `lazy` ("name": "module:attribute") are imported on first
    use: a command pays only for its own imports, not for every other command's."""

    def __init__(self, *args: Any, lazy: dict[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._lazy = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self._lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in self._lazy:
            module, attribute = self._lazy[cmd_name].split(":")
            self.add_command(getattr(importlib.import_module(module), attribute), cmd_name)
        return super().get_command(ctx, cmd_name)


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
    loader: Callable[[], Config] = ctx.obj["config_loader"]
    return loader()


def open_engine(ctx: click.Context) -> Engine:
    """The query engine of the project, opened by ctx.obj["engine_opener"] when the caller (a test, an
    embedding application) provides one, else from the config: every query command gets it here."""
    config = config_of(ctx)
    opener: Callable[[Config], Engine] | None = ctx.obj.get("engine_opener")
    if opener is not None:
        return opener(config)
    from kgbuild.engine import Engine

    return Engine.open(config)
