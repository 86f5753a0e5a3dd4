"""Schema problems: the `SchemaProblem` record (file, line, dotted path, message, hint) and the
translation of pydantic's structure errors (phase 1 of loading) into plain-language issues."""

from __future__ import annotations

import types
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Union, get_args, get_origin

from pydantic import BaseModel

from kgbuild.errors import SchemaError
from kgbuild.schema.checks import Path_, _did_you_mean, _Issue
from kgbuild.schema.model import Schema

if TYPE_CHECKING:
    from pydantic_core import ErrorDetails


@dataclass(frozen=True)
class SchemaProblem:
    file: str
    line: int | None
    path: str  # dotted path inside the YAML, "" for the whole file
    message: str
    hint: str = ""

    def where(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        return f"{where}: {self.path}" if self.path else where

    def line_text(self) -> str:
        """`schemas/x.yaml:12: entity_types.Person.parent: unknown type 'Persn' (did you mean 'Person'?)`"""
        text = f"{self.where()}: {self.message}"
        return f"{text} ({self.hint})" if self.hint else text

    def to_error(self) -> SchemaError:
        return SchemaError(where=self.where(), problem=self.message, hint=self.hint)


def _describe(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text '{value[:40]}'"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


_EXPECTED = {
    "string_type": "text",
    "int_type": "an integer",
    "int_parsing": "an integer",
    "int_from_float": "an integer",
    "float_type": "a number",
    "float_parsing": "a number",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "list_type": "a list",
    "dict_type": "a mapping",
    "model_type": "a mapping",
    "model_attributes_type": "a mapping",
}


def _optional_of(tp: Any) -> Any:
    """`X | None` -> X, so nested optional models are walked like plain ones."""
    if get_origin(tp) in (Union, types.UnionType):
        args = [a for a in get_args(tp) if a is not type(None)]
        return args[0] if len(args) == 1 else tp
    return tp


def _fields_at(loc: Sequence[str | int]) -> list[str]:
    """Keys allowed at a location, found by walking the model annotations (for did-you-mean)."""
    tp: Any = Schema
    for part in loc:
        tp = _optional_of(tp)
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            field = tp.model_fields.get(str(part))
            if field is None:
                return []
            tp = field.annotation
        elif get_origin(tp) is dict:
            tp = get_args(tp)[1]
        elif get_origin(tp) is list:
            tp = get_args(tp)[0]
        else:
            return []
    tp = _optional_of(tp)
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return [f for f in tp.model_fields if not (tp is Schema and f == "source")]
    return []


def _structure_issue(err: ErrorDetails) -> _Issue:
    loc: Path_ = tuple(err["loc"])
    kind = err["type"]
    if loc and loc[-1] == "[key]":  # a mapping key of the wrong type
        return (loc[:-1], f"name {_describe(err['input'])} must be text", "")
    if kind == "extra_forbidden":
        allowed = _fields_at(loc[:-1])
        hint = _did_you_mean(str(loc[-1]), allowed) or (f"allowed keys: {', '.join(allowed)}" if allowed else "")
        return (loc, f"unknown key '{loc[-1]}'", hint)
    if kind == "missing":
        return (loc, f"required key '{loc[-1]}' is missing", "add it")
    if kind in _EXPECTED:
        hint = "write the keys of this entry as an indented mapping" if _EXPECTED[kind] == "a mapping" else ""
        return (loc, f"expected {_EXPECTED[kind]}, got {_describe(err.get('input'))}", hint)
    if kind == "value_error":
        return (loc, str(err["ctx"]["error"]), "")
    return (loc, err["msg"], "")


def _prune(data: dict[str, Any], errors: list[ErrorDetails]) -> tuple[dict[str, Any], set[str], bool]:
    """Data without the entries that failed structure checks, so meaning checks can still
    run on the rest; returns the dropped type names and whether fallback_class is usable."""
    pruned = {k: (dict(v) if isinstance(v, dict) else v) for k, v in data.items()}
    broken: set[str] = set()
    fallback_ok = True
    sections = ("entity_types", "event_types", "concept_types", "relation_types")
    for err in errors:
        loc = err["loc"]
        if not loc:
            continue
        top = loc[0]
        if top in sections and len(loc) >= 2 and isinstance(pruned.get(top), dict):
            pruned[top].pop(loc[1], None)
            broken.add(str(loc[1]))
        elif top in sections:  # the whole section is unusable: nothing in it can be judged
            pruned.pop(top, None)
            broken.add(top)
            fallback_ok = fallback_ok and top != "entity_types"
        elif top == "name":
            pruned["name"] = "schema"
        elif top == "fallback_class":
            pruned["fallback_class"] = "?"
            fallback_ok = False
        else:
            pruned.pop(str(top), None)
    return pruned, broken, fallback_ok
