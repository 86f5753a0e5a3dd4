"""Loading a schema file in two phases (structure, then meaning) with every problem on its line:
`check_schema` reports them all, `load_schema` raises the first."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import ValidationError

from kgbuild.errors import SchemaError
from kgbuild.schema.checks import _dotted, _Issue, _semantic_issues
from kgbuild.schema.model import _STRUCTURE_ONLY, Schema
from kgbuild.schema.problems import SchemaProblem, _prune, _structure_issue
from kgbuild.schema.yaml_lines import _parse


def _check(path: str | Path) -> tuple[Schema | None, list[SchemaProblem]]:
    file = str(path)
    doc, problems = _parse(file, Path(path))
    if doc is None:
        return None, problems
    data: dict[str, Any] = doc.data

    def add(issue: _Issue) -> None:
        p, message, hint = issue
        problems.append(SchemaProblem(file, doc.line(p), _dotted(p), message, hint))

    for dpath, line, first in doc.duplicates:
        problems.append(SchemaProblem(file, line, _dotted(dpath), f"duplicate key '{dpath[-1]}'",
                                      f"already defined on line {first}; the later entry would replace it"))
    if "source" in data:  # a real field, but it records where the schema was loaded from
        add((("source",), "unknown key 'source'", "it is set by the loader; remove it"))
        data = {k: v for k, v in data.items() if k != "source"}
    if not data:
        problems.append(SchemaProblem(file, doc.line(()), "", "empty schema", "start from docs/schema.md"))
        return None, problems

    broken: set[str] = set()
    fallback_ok = True
    try:
        schema: Schema | None = Schema.model_validate(data, context={_STRUCTURE_ONLY: True})
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        for err in errors:
            p, message, hint = _structure_issue(err)
            if err["type"] == "extra_forbidden" and err["input"] is None and doc.in_flow_mapping(p[:-1]):
                # `{description: a, b}` reads as a second key `b` with no value
                hint = "inside {...} a comma starts a new key: put quotes around text with commas"
            add((p, message, hint))
        pruned, broken, fallback_ok = _prune(data, errors)
        try:
            schema = Schema.model_validate(pruned, context={_STRUCTURE_ONLY: True})
        except ValidationError:
            schema = None  # too broken to check meaning; the structure problems come first
    # structure problems first (meaning problems may follow from them), each in file order
    problems.sort(key=lambda p: p.line or 0)
    if schema is not None:
        structural = len(problems)
        for issue in _semantic_issues(schema, frozenset(broken), fallback_ok):
            add(issue)
        problems[structural:] = sorted(problems[structural:], key=lambda p: p.line or 0)
    return (schema if not problems else None), problems


def check_schema(path: str | Path) -> list[SchemaProblem]:
    """Every problem of a schema file, each with file, line and dotted path; [] if valid."""
    return _check(path)[1]


def load_schema(path: str | Path) -> Schema:
    """Load and validate a schema file.

    Raises SchemaError for the first problem; all of them are on its `problems` attribute.
    """
    schema, problems = _check(path)
    if problems or schema is None:
        first = problems[0] if problems else SchemaProblem(str(path), None, "", "invalid schema")
        err = first.to_error()
        if len(problems) > 1:
            more = f"{len(problems) - 1} more problem(s) in this file"
            err = SchemaError(err.where, err.problem, f"{err.hint}; {more}" if err.hint else more)
        err.problems = problems  # type: ignore[attr-defined]
        raise err
    return schema.model_copy(update={"source": str(path)})
