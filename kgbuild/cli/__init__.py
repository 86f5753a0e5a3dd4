"""The `kgbuild` command line: `root.py` holds the main group and `init`; every other command or group
lives in its own module here and is imported only when it runs (see `root.py`'s lazy table)."""

from kgbuild.cli.root import main

__all__ = ["main"]
