"""Corpus files: many documents in one JSON or JSONL file (2Wiki, MuSiQue, HotpotQA styles)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from kgbuild.ingest.readers.decode import EMPTY_FILE, decode_text
from kgbuild.ingest.readers.document import clean_text, make_document, paragraph, split_paragraphs
from kgbuild.ingest.readers.problems import BadInput, ReadProblem
from kgbuild.model import Document, Paragraph

TEXT_KEYS = ("text", "paragraph_text", "contents", "body")
ID_KEYS = ("id", "_id", "idx")
_TEXT_KEYS_HINT = f"'{TEXT_KEYS[0]}' field (or " + ", ".join(f"'{key}'" for key in TEXT_KEYS[1:]) + ")"


class IdAllocator:
    """Makes record ids unique inside one corpus file: 'X', 'X~2', 'X~3', ... in file order."""

    def __init__(self) -> None:
        self._taken: set[str] = set()
        self._count: dict[str, int] = {}

    def allocate(self, base: str) -> str:
        count = self._count.get(base, 1)
        candidate = base
        while candidate in self._taken:  # also steps over a record literally titled 'X~2'
            count += 1
            candidate = f"{base}~{count}"
        self._count[base] = count
        self._taken.add(candidate)
        return candidate


def _record_paragraphs(value: Any, name: str) -> list[Paragraph]:
    if isinstance(value, str):
        # A blank line inside a record's text starts a new paragraph; single breaks are kept.
        return [p for p in (paragraph([], part, "\n") for part in split_paragraphs(value)) if p]
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        # HotpotQA sentences carry their own leading space; one paragraph per record.
        para = paragraph([], " ".join(s.strip() for s in value if s.strip()))
        return [para] if para else []
    raise BadInput(f"{name}: text must be a string or a list of strings, not {type(value).__name__}")


def _scalar_id(record: dict[str, Any]) -> str | None:
    for key in ID_KEYS:
        value = record.get(key)
        if isinstance(value, (str, int)) and not isinstance(value, bool) and str(value).strip():
            return str(value)
    return None


def record_document(record: Any, source: str, fmt: str, ids: IdAllocator) -> Document:
    if not isinstance(record, dict):
        raise BadInput(f"expected an object with 'title' and 'text', got {type(record).__name__}")
    raw_title = record.get("title")
    title = clean_text(str(raw_title)) if isinstance(raw_title, (str, int, float)) else ""
    raw_id = _scalar_id(record)
    name = f"record {title!r}" if title else "record"
    if not title and raw_id is None:
        raise BadInput("record has no 'title' or id; add a 'title' field")
    text_key = next((key for key in TEXT_KEYS if key in record), None)
    if text_key is None:
        raise BadInput(f"{name} has no text; add a {_TEXT_KEYS_HINT}")
    paragraphs = _record_paragraphs(record[text_key], name)
    if not paragraphs:
        raise BadInput(f"{name} has empty text; nothing to build")
    doc = make_document(raw_id if raw_id is not None else title, source, title or raw_id or "", fmt, paragraphs)
    unique = ids.allocate(doc.id)
    return doc if unique == doc.id else doc.model_copy(update={"id": unique})


def _records(data: Any) -> Iterator[Any]:
    if isinstance(data, list):
        yield from data
    elif isinstance(data, dict):
        if isinstance(data.get("title"), str) and any(key in data for key in TEXT_KEYS):
            yield data  # a file holding a single record
        else:
            # HotpotQA context style: {title: [sentence, ...]}.
            for title, sentences in data.items():
                yield {"title": title, "text": sentences}
    else:
        raise BadInput(
            f"expected a JSON list of records or an object mapping titles to text, got {type(data).__name__}"
        )


def read_json_corpus(data: bytes, source: str) -> Iterator[Document | ReadProblem]:
    try:
        parsed = json.loads(decode_text(data))
    except json.JSONDecodeError as err:
        raise BadInput(f"invalid JSON at line {err.lineno} column {err.colno}: {err.msg}") from None
    ids = IdAllocator()
    seen = False
    for number, record in enumerate(_records(parsed)):
        seen = True
        where = f"{source}::record {number}"
        try:
            yield record_document(record, where, "json", ids)
        except BadInput as err:
            yield ReadProblem(where, err.message)
    if not seen:
        raise BadInput("corpus has no records; nothing to build")


def read_jsonl_corpus(lines: Iterable[bytes], source: str) -> Iterator[Document | ReadProblem]:
    """One record per line, streamed: a bad line is reported and the next is read."""
    ids = IdAllocator()
    offset = 0
    seen = False
    for number, raw in enumerate(lines, start=1):
        line_start, offset = offset, offset + len(raw)
        body = raw[3:] if number == 1 and raw.startswith(b"\xef\xbb\xbf") else raw
        if not body.strip():
            continue
        seen = True
        where = f"{source}:{number}"
        try:
            try:
                text = body.decode("utf-8")
            except UnicodeDecodeError as err:
                position = line_start + err.start + (len(raw) - len(body))
                raise BadInput(f"invalid UTF-8 at byte {position}; re-save the file as UTF-8") from None
            try:
                record = json.loads(text)
            except json.JSONDecodeError as err:
                raise BadInput(f"invalid JSON at column {err.colno}: {err.msg}") from None
            yield record_document(record, where, "jsonl", ids)
        except BadInput as err:
            yield ReadProblem(where, err.message)
    if not seen:
        raise BadInput(EMPTY_FILE)
