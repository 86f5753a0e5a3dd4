"""Records of a CSV, TSV, JSON-array or JSONL file, streamed, each with the line it starts on.

A record is a dict of column -> value (strings for tables; any JSON value for JSON). A record that
cannot be read is a `ReadProblem` naming `file:line`, and reading goes on with the next one where
the format allows it (a broken CSV quote or a broken JSON array ends the file: where the next
record starts is unknown).
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from kgbuild.ingest.readers.problems import BadInput, ReadProblem

FIELD_LIMIT = 64 * 1024 * 1024  # a cell may hold a whole article
FORMATS = {".csv": "csv", ".tsv": "tsv", ".json": "json", ".jsonl": "jsonl"}


@dataclass(frozen=True)
class Row:
    line: int  # 1-based line of the file where the record starts
    values: dict[str, Any]


def file_format(path: Path, given: str | None) -> str:
    fmt = given or FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise BadInput(f"cannot tell the format of '{path.name}'; set `format:` (csv, tsv, json, jsonl) in its mapping")
    return fmt


def read_rows(path: Path, source: str, fmt: str, *, delimiter: str | None = None,
              columns: list[str] | None = None) -> Iterator[Row | ReadProblem]:
    """The file's records. `columns`: names the records must have (a table header lacking one is
    one problem for the file, raised as BadInput; a JSON record lacking one is left to the mapper)."""
    with path.open("r", encoding="utf-8-sig", newline="") as handle:
        if fmt in ("csv", "tsv"):
            yield from _table(handle, source, delimiter or ("\t" if fmt == "tsv" else ","), columns or [])
        elif fmt == "jsonl":
            yield from _jsonl(handle, source)
        else:
            yield from _json_array(handle.read(), source)


def _table(handle: TextIO, source: str, delimiter: str, columns: list[str]) -> Iterator[Row | ReadProblem]:
    previous = csv.field_size_limit(FIELD_LIMIT)
    try:
        reader = csv.reader(handle, delimiter=delimiter, strict=True)
        try:
            header = [h.strip() for h in next(reader, [])]
        except (csv.Error, UnicodeDecodeError) as err:
            raise BadInput(f"line 1: unreadable header: {err}") from None
        if not any(header):
            raise BadInput("no header row; the first line must name the columns")
        missing = [c for c in columns if c not in header]
        if missing:
            raise BadInput(f"line 1: no column {', '.join(repr(m) for m in missing)} (the header has "
                           f"{', '.join(repr(h) for h in header[:12])}); fix the mapping in kgbuild.yaml `records:` "
                           "or the file (file skipped)")
        line = reader.line_num + 1
        width = len(header)
        while True:
            start = line
            try:
                cells = next(reader)
            except StopIteration:
                return
            except (csv.Error, UnicodeDecodeError) as err:
                yield ReadProblem(f"{source}:{start}", f"{err}; check the quotes from this line on (the rest of "
                                                       "the file was not read)")
                return
            line = reader.line_num + 1
            if not "".join(cells).strip():  # a blank row: one join, not a generator over its cells
                continue
            if len(cells) != width:
                yield ReadProblem(f"{source}:{start}", f"row has {len(cells)} fields, the header has {width}; quote "
                                                       "fields holding the delimiter (row skipped)")
                continue
            yield Row(start, dict(zip(header, cells, strict=True)))
    finally:
        csv.field_size_limit(previous)


def _jsonl(handle: TextIO, source: str) -> Iterator[Row | ReadProblem]:
    for number, text in enumerate(handle, start=1):
        if not text.strip():
            continue
        try:
            value = json.loads(text)
        except json.JSONDecodeError as err:
            yield ReadProblem(f"{source}:{number}", f"not JSON: {err.msg} at column {err.colno} (record skipped)")
            continue
        if not isinstance(value, dict):
            yield ReadProblem(f"{source}:{number}", "a record must be a JSON object (record skipped)")
            continue
        yield Row(number, value)


def _json_array(text: str, source: str) -> Iterator[Row | ReadProblem]:
    """Elements of a top-level JSON array (or the `records`/`data` array of an object), each with
    the line its object starts on: decoded one element at a time."""
    decoder = json.JSONDecoder()
    pos = _skip(text, 0)
    if text.startswith("{", pos):
        try:
            whole = json.loads(text)
        except json.JSONDecodeError as err:
            raise BadInput(f"line {err.lineno}: not JSON: {err.msg}") from None
        items = next((whole[k] for k in ("records", "data", "rows", "items") if isinstance(whole.get(k), list)), None)
        if items is None:
            raise BadInput("a JSON records file is an array of objects (or an object with a `records` array)")
        for index, item in enumerate(items):
            yield Row(index + 1, item) if isinstance(item, dict) else ReadProblem(
                f"{source}::record {index + 1}", "a record must be a JSON object (record skipped)")
        return
    if not text.startswith("[", pos):
        raise BadInput("a JSON records file is an array of objects (or an object with a `records` array)")
    pos = _skip(text, pos + 1)
    line, counted = 1, 0
    while pos < len(text) and text[pos] != "]":
        line += text.count("\n", counted, pos)
        counted = pos
        try:
            value, end = decoder.raw_decode(text, pos)
        except json.JSONDecodeError as err:
            yield ReadProblem(f"{source}:{err.lineno}", f"not JSON: {err.msg} (the rest of the file was not read)")
            return
        if isinstance(value, dict):
            yield Row(line, value)
        else:
            yield ReadProblem(f"{source}:{line}", "a record must be a JSON object (record skipped)")
        pos = _skip(text, end)
        if pos < len(text) and text[pos] == ",":
            pos = _skip(text, pos + 1)


def _skip(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in " \t\r\n":
        pos += 1
    return pos
