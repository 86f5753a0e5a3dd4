"""Which file a `schema` setting names: a shipped schema by name (kgbuild/schemas/*.yaml) or
a path to a YAML file, and loading it."""

from __future__ import annotations

from pathlib import Path

from kgbuild.errors import SchemaError
from kgbuild.resources import SCHEMAS, shipped_dir
from kgbuild.schema.loading import load_schema
from kgbuild.schema.model import Schema
from kgbuild.schema.records import IDENTIFIER_RE


def builtin_schemas_dir() -> Path:
    """`kgbuild/schemas/`, shipped inside the package (see kgbuild.resources)."""
    return shipped_dir(SCHEMAS)


def builtin_schema_names() -> list[str]:
    folder = builtin_schemas_dir()
    return sorted(p.stem for p in folder.glob("*.yaml")) if folder.is_dir() else []


def builtin_schema_path(name: str) -> Path:
    """Path of a shipped schema by name ("open_domain" -> <package>/schemas/open_domain.yaml)."""
    path = builtin_schemas_dir() / f"{name}.yaml"
    if not IDENTIFIER_RE.match(name) or not path.is_file():
        names = builtin_schema_names()
        hint = f"built-in schemas: {', '.join(names)}; or give a path to a YAML file" if names else (
            f"no schemas/ folder at {builtin_schemas_dir()}; give a path to a YAML file")
        raise SchemaError(where="schema", problem=f"no built-in schema named '{name}'", hint=hint)
    return path


def schema_path(location: str, base_dir: str | Path | None = None) -> Path:
    """The file of a `schema` setting: a path if it looks like one (ends in .yaml/.yml or
    contains a slash; relative paths are taken from base_dir), else a built-in name."""
    if location.endswith((".yaml", ".yml")) or "/" in location or "\\" in location:
        path = Path(location)
        return path if path.is_absolute() or base_dir is None else Path(base_dir) / path
    return builtin_schema_path(location)


def resolve_schema(location: str, base_dir: str | Path | None = None) -> Schema:
    """Load the schema a `schema` setting names (see schema_path); SchemaError if invalid."""
    return load_schema(schema_path(location, base_dir))
