"""Readers of domain concept files (the `extract.domain_concepts` setting).

Formats, as shipped with KAG's domain examples:

- `nodes.json` + `edges.json` (a directory holding them, or either file): nodes are
  `{id, name, label, properties: {description, aliases}}`, a repeated id is one node;
  edges are `{from, to, label}` with node ids, `isA` edges build the taxonomy;
- a CSV with an `id` column of isA paths: `内科-内分泌科` is 内分泌科 isA 内科;
- a CSV with `title,text,alias` columns: a concept, its description and its aliases
  (separated by , ， 、 ; or ；).

A directory without nodes.json is read as all its CSV files; CSVs of another shape (such
as SPO triples) are skipped with a warning. Records are numbered from 1 in messages (the
CSV header is not a record).
"""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kgbuild.errors import ConfigError

HINT = "fix the file, or point extract.domain_concepts at another one"
_ALIAS_SEP = re.compile(r"[,，、;；]")
_NODES, _EDGES = "nodes.json", "edges.json"


@dataclass
class RawConcept:
    """One concept as a file states it; several may name the same concept (merged later)."""

    name: str
    description: str = ""
    aliases: list[str] = field(default_factory=list)
    parents: list[str] = field(default_factory=list)  # names
    label: str = ""  # the node label, or the file stem of a CSV ("HospitalDepartment")


@dataclass
class ConceptFileData:
    concepts: list[RawConcept] = field(default_factory=list)
    relations: list[tuple[str, str, str]] = field(default_factory=list)  # (name, label, name), non-isA edges
    warnings: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)


def _error(file: Path, problem: str, record: int | None = None) -> ConfigError:
    where = str(file) if record is None else f"{file}: record {record}"
    return ConfigError(where=where, problem=problem, hint=HINT)


def read_concept_files(path: Path) -> ConceptFileData:
    """Every concept record under `path` (a file or a directory); ConfigError if malformed."""
    data = ConceptFileData()
    if path.is_dir():
        if (path / _NODES).is_file():
            _read_json_pair(path / _NODES, path / _EDGES, data)
            return data
        csvs = sorted(p for p in path.iterdir() if p.suffix.lower() == ".csv" and p.is_file())
        if not csvs:
            raise _error(path, f"no concept files here (expected {_NODES} and {_EDGES}, or .csv files)")
        for file in csvs:
            _read_csv(file, data, skip_unknown=True)
        if not data.files:
            raise _error(path, "no CSV file here has concept columns ('id' or 'title,text,alias')")
        return data
    if not path.exists():
        raise _error(path, "domain concept file or directory not found")
    if path.name == _EDGES:
        _read_json_pair(path.with_name(_NODES), path, data)
    elif path.suffix.lower() == ".json":
        _read_json_pair(path, path.with_name(_EDGES), data)
    elif path.suffix.lower() == ".csv":
        _read_csv(path, data, skip_unknown=False)
    else:
        raise _error(path, f"unsupported concept file type '{path.suffix}' (use {_NODES}/{_EDGES} or .csv)")
    return data


# ---------------------------------------------------------------- JSON


def _read_text(file: Path) -> str:
    try:
        return file.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise _error(file, "file not found") from None
    except UnicodeDecodeError as exc:
        raise _error(file, f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except OSError as exc:
        raise _error(file, f"cannot read the file: {exc.strerror}") from None


def _load_json_list(file: Path) -> list[Any]:
    try:
        value = json.loads(_read_text(file))
    except json.JSONDecodeError as exc:
        raise _error(file, f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
    if not isinstance(value, list):
        raise _error(file, f"expected a JSON list of records, got a {type(value).__name__}")
    return value


def _text_field(file: Path, n: int, record: dict[str, Any], key: str, required: bool = False) -> str:
    value = record.get(key)
    if value is None or value == "":
        if required:
            raise _error(file, f"'{key}' is missing or empty", n)
        return ""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise _error(file, f"'{key}' must be text, got {type(value).__name__}", n)
    return str(value).strip()


def _aliases(value: Any) -> list[str]:
    parts = value if isinstance(value, list) else _ALIAS_SEP.split(str(value or ""))
    return [str(p).strip() for p in parts if str(p).strip()]


def _read_json_pair(nodes_file: Path, edges_file: Path, data: ConceptFileData) -> None:
    names: dict[str, str] = {}  # node id -> name
    for n, record in enumerate(_load_json_list(nodes_file), start=1):
        if not isinstance(record, dict):
            raise _error(nodes_file, f"a node must be a JSON object, got {type(record).__name__}", n)
        node_id = _text_field(nodes_file, n, record, "id") or _text_field(nodes_file, n, record, "name", True)
        name = _text_field(nodes_file, n, record, "name") or node_id
        props = record.get("properties") or {}
        if not isinstance(props, dict):
            raise _error(nodes_file, "'properties' must be a JSON object", n)
        if names.setdefault(node_id, name) != name:
            raise _error(nodes_file, f"node id '{node_id}' is used for '{names[node_id]}' and '{name}'", n)
        data.concepts.append(RawConcept(
            name=name,
            description=_text_field(nodes_file, n, props, "description"),
            aliases=_aliases(props.get("aliases", props.get("alias"))),
            label=_text_field(nodes_file, n, record, "label"),
        ))
    data.files.append(str(nodes_file))
    if not edges_file.exists():
        data.warnings.append(f"{edges_file}: not found, so the concepts have no isA edges")
        return
    for n, record in enumerate(_load_json_list(edges_file), start=1):
        if not isinstance(record, dict):
            raise _error(edges_file, f"an edge must be a JSON object, got {type(record).__name__}", n)
        ends = []
        for key in ("from", "to"):
            node_id = _text_field(edges_file, n, record, key, required=True)
            if node_id not in names:
                raise _error(edges_file, f"'{key}' is '{node_id}', which is no node id of {nodes_file.name}", n)
            ends.append(names[node_id])
        label = _text_field(edges_file, n, record, "label", required=True)
        if label.casefold() == "isa":
            data.concepts.append(RawConcept(name=ends[0], parents=[ends[1]]))
        else:
            data.relations.append((ends[0], label, ends[1]))
    data.files.append(str(edges_file))


# ---------------------------------------------------------------- CSV

_TITLE_KEYS, _TEXT_KEYS, _ALIAS_KEYS = ("title", "name"), ("text", "description"), ("alias", "aliases")


def _read_csv(file: Path, data: ConceptFileData, skip_unknown: bool) -> None:
    # newline="": only real line ends split records (str.splitlines would also cut at U+2028)
    rows = csv.reader(io.StringIO(_read_text(file), newline=""))
    try:
        header = [h.strip().casefold() for h in next(rows, [])]
        column = {h: i for i, h in reversed(list(enumerate(header)))}  # first of a repeated name
        title = next((column[k] for k in _TITLE_KEYS if k in column), None)
        if title is None and "id" not in column:
            shape = ",".join(header) or "an empty file"
            if skip_unknown:
                data.warnings.append(f"{file}: skipped, not a concept file (columns: {shape})")
                return
            raise _error(file, f"unrecognised columns ({shape}): expected 'id' (isA paths such as A-B-C) "
                               "or 'title,text,alias'")
        for n, row in enumerate(rows, start=1):
            if not any(value.strip() for value in row):
                continue  # blank lines are layout, not records
            if title is None:
                _add_path(file, n, _cell(row, column["id"]), data)
                continue
            name = _cell(row, title)
            if not name:
                raise _error(file, f"'{header[title]}' is empty", n)
            text = next((column[k] for k in _TEXT_KEYS if k in column), None)
            alias = next((column[k] for k in _ALIAS_KEYS if k in column), None)
            data.concepts.append(RawConcept(name=name, description=_cell(row, text),
                                            aliases=_aliases(_cell(row, alias)), label=file.stem))
    except csv.Error as exc:
        raise _error(file, f"CSV syntax error: {exc}") from None
    data.files.append(str(file))


def _cell(row: list[str], index: int | None) -> str:
    return row[index].strip() if index is not None and index < len(row) else ""


def _add_path(file: Path, n: int, value: str, data: ConceptFileData) -> None:
    parts = [p.strip() for p in value.split("-")]
    if not value or not all(parts):
        raise _error(file, f"'{value}' is not an isA path such as A-B-C (empty part)", n)
    for depth, part in enumerate(parts):  # every prefix is a concept too, even if no row lists it
        data.concepts.append(RawConcept(name=part, parents=parts[depth - 1:depth] if depth else [], label=file.stem))
