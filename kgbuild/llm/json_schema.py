"""A small JSON Schema checker for the subset prompt files use.

Prompt files carry an `output_schema` and few-shot outputs that must satisfy it; checking
that needs only a handful of keywords, so this avoids a dependency on `jsonschema`. A
keyword outside the subset is reported (rather than silently ignored) so an override file
cannot believe it constrains something it does not.
"""

from __future__ import annotations

from typing import Any

# Keywords that constrain values, and ones that only annotate.
CHECKED = frozenset({
    "type", "enum", "const", "properties", "required", "additionalProperties", "items",
    "minItems", "maxItems", "minLength", "minimum", "maximum", "anyOf",
})
ANNOTATIONS = frozenset({"$schema", "$id", "title", "description", "default", "examples", "format"})

_TYPES: dict[str, Any] = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "null": lambda v: v is None,
}


def _join(path: str, part: str | int) -> str:
    if isinstance(part, int):
        return f"{path}[{part}]"
    return f"{path}.{part}" if path else part


def schema_problems(schema: Any, path: str = "") -> list[str]:
    """Problems of the schema itself: unknown keywords, malformed values."""
    if not isinstance(schema, dict):
        return [f"{path or '(root)'}: a schema must be a mapping"]
    out: list[str] = []
    for key, value in schema.items():
        where = _join(path, key)
        if key not in CHECKED and key not in ANNOTATIONS:
            out.append(f"{where}: unsupported keyword (supported: {', '.join(sorted(CHECKED))})")
        elif key == "type":
            names = value if isinstance(value, list) else [value]
            bad = [n for n in names if n not in _TYPES]
            if bad:
                out.append(f"{where}: unknown type {bad[0]!r}")
        elif key == "properties":
            if not isinstance(value, dict):
                out.append(f"{where}: must be a mapping")
            else:
                for name, sub in value.items():
                    out += schema_problems(sub, _join(where, name))
        elif key in ("items", "additionalProperties") and not isinstance(value, bool):
            out += schema_problems(value, where)
        elif key == "anyOf":
            if not isinstance(value, list) or not value:
                out.append(f"{where}: must be a non-empty list")
            else:
                for i, sub in enumerate(value):
                    out += schema_problems(sub, _join(where, i))
        elif key in ("required", "enum") and not isinstance(value, list):
            out.append(f"{where}: must be a list")
    return out


def value_problems(value: Any, schema: dict[str, Any], path: str = "") -> list[str]:
    """Where `value` breaks `schema` (empty when it conforms); paths like `entities[0].name`."""
    here = path or "(root)"
    expected = schema.get("type")
    if expected is not None:
        names = expected if isinstance(expected, list) else [expected]
        if not any(_TYPES[n](value) for n in names):
            return [f"{here}: expected {' or '.join(names)}, got {type(value).__name__}"]
    out: list[str] = []
    if "enum" in schema and value not in schema["enum"]:
        out.append(f"{here}: {value!r} is not one of {schema['enum']}")
    if "const" in schema and value != schema["const"]:
        out.append(f"{here}: must be {schema['const']!r}")
    if "anyOf" in schema and not any(not value_problems(value, sub, path) for sub in schema["anyOf"]):
        out.append(f"{here}: matches none of the allowed forms")
    if isinstance(value, str) and len(value) < schema.get("minLength", 0):
        out.append(f"{here}: shorter than {schema['minLength']} characters")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            out.append(f"{here}: below the minimum {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            out.append(f"{here}: above the maximum {schema['maximum']}")
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0):
            out.append(f"{here}: fewer than {schema['minItems']} items")
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            out.append(f"{here}: more than {schema['maxItems']} items")
        items = schema.get("items")
        if isinstance(items, dict):
            for i, item in enumerate(value):
                out += value_problems(item, items, _join(path, i))
    if isinstance(value, dict):
        props: dict[str, Any] = schema.get("properties", {})
        for name in schema.get("required", []):
            if name not in value:
                out.append(f"{_join(path, name)}: missing")
        extra = schema.get("additionalProperties", True)
        for name, item in value.items():
            if name in props:
                out += value_problems(item, props[name], _join(path, name))
            elif extra is False:
                out.append(f"{_join(path, name)}: not allowed")
            elif isinstance(extra, dict):
                out += value_problems(item, extra, _join(path, name))
    return out
