"""kgbuild: turn document corpora into knowledge graphs, KAG-style, and answer questions over them.

    import kgbuild
    with kgbuild.open("myproject") as engine:       # a built project (directory, kgbuild.yaml or Config)
        print(engine.query("Who founded X?").answer)
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kgbuild.config import Config
    from kgbuild.engine import Engine

__version__ = "0.1.0"
__all__ = ["__version__", "open"]


def open(project: str | Path | Config = ".") -> Engine:
    """Open the query engine of a built project (see kgbuild.engine.Engine)."""
    from kgbuild.engine import Engine

    return Engine.open(project)
