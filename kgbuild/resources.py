"""The data folders that ship inside the package: the built-in domain schemas and the prompt templates.

They live in `kgbuild/schemas/` and `kgbuild/prompts/` so that a wheel carries them (the top-level
`schemas/` and `prompts/` of a checkout are links into the package, kept for people and docs).
They are found through `importlib.resources`, never through `__file__` arithmetic, so the same
lookup works in a source checkout, an editable install and an installed wheel.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from kgbuild.errors import ConfigError

SCHEMAS = "schemas"
PROMPTS = "prompts"


def shipped_dir(name: str) -> Path:
    """The folder `name` of the installed package, as a real directory on disk.

    The callers glob and open files in it, which a zip-imported package cannot offer; such an
    install is reported instead of failing later with a confusing "no such schema".
    """
    folder = files("kgbuild") / name
    # A package imported from the file system gives a pathlib.Path; a zipped one gives a zipfile.Path.
    if not isinstance(folder, Path):
        raise ConfigError(f"kgbuild/{name}", "the package's data files are not on disk",
                          "install kgbuild unzipped (pip install kgbuild)")
    return folder
