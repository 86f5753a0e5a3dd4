"""A mapped file in the corpus: one `records` document whose chunks are its records.

Each record is one paragraph and one chunk, `{file id}#p{LINE}#0`, whose text is the record as a
JSON object (the text column left out) and whose section is `file:line`: a record is a source
like any passage, so `inspect support`, the explorer and answers cite it, hybrid retrieval finds
it, and the workspace's document machinery makes it incremental (an unchanged file is not
re-chunked; a removed or pruned file takes what only it supported with it).

A text column becomes a document of its own (`{file id}/{record id}`, source `file:line`),
chunked and extracted like any text; what is extracted from it meets the record's own node in
assembly and fusion (same name and class: one node citing both).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from kgbuild.ids import chunk_id, content_hash, escape_article_id
from kgbuild.ingest.readers.document import make_document, paragraph, split_paragraphs
from kgbuild.ingest.readers.problems import BadInput, ReadProblem
from kgbuild.model import Chunk, Document, Paragraph
from kgbuild.record_mapping import FileMapping, RecordsConfig
from kgbuild.records.mapper import RecordMapper, check_mapping
from kgbuild.records.rows import Row, file_format, read_rows
from kgbuild.schema import Schema

RECORDS_FORMAT = "records"


def is_records(doc: Document) -> bool:
    return doc.format == RECORDS_FORMAT


def record_json(values: dict[str, Any], mapping: FileMapping) -> str:
    """The record as its chunk's text: one JSON object, keys in file order, the text column left out."""
    kept = {k: v for k, v in values.items() if k != mapping.text and v not in ("", None, [])}
    return json.dumps(kept, ensure_ascii=False)


def record_line(chunk: Chunk) -> str:
    """The chunk's `file:line`."""
    return chunk.section[0] if chunk.section else chunk.id


class MappedFiles:
    """The build's claim on mapped files: `read(path, source, raw_id)` gives a mapped file's
    documents, or None for a file no mapping names (read as usual)."""

    def __init__(self, config: RecordsConfig, schema: Schema) -> None:
        self.config = config
        self.schema = schema

    def read(self, path: Path, source: str, raw_id: str) -> Iterator[Document | ReadProblem] | None:
        found = self.config.mapping_for(source)
        if found is None:
            return None
        return self._read(path, source, raw_id, *found)

    def _read(self, path: Path, source: str, raw_id: str, index: int,
              mapping: FileMapping) -> Iterator[Document | ReadProblem]:
        where = f"records.files[{index}]"
        try:
            checked = check_mapping(mapping, self.schema, where)
            fmt = file_format(path, mapping.format)
            mapper = RecordMapper(checked, self.schema)
            article = escape_article_id(raw_id)
            paragraphs: list[Paragraph] = []
            for item in read_rows(path, source, fmt, delimiter=mapping.delimiter,
                                  columns=mapping.columns() if fmt in ("csv", "tsv") else None):
                if isinstance(item, ReadProblem):
                    yield item
                    continue
                kept = self._row(item, source, article, mapper, mapping, fmt)
                yield from kept[1]
                if kept[0] is not None:
                    paragraphs.append(kept[0])
                if kept[2] is not None:
                    yield kept[2]
            if not paragraphs:
                raise BadInput("no records to import (only a header, or every record was skipped)")
            payload = content_hash(mapping.model_dump_json() + "\x1e".join(
                f"{p.section[0]}\x1f{p.text}" for p in paragraphs))
            yield Document(id=article, source=source, title=source.rsplit("/", 1)[-1], format=RECORDS_FORMAT,
                           paragraphs=paragraphs, content_hash=payload,
                           metadata={"records.format": fmt, "records.class": mapping.class_ or "spo"})
        except BadInput as err:
            yield ReadProblem(source, err.message)
        except OSError as err:
            yield ReadProblem(source, f"cannot read: {err.strerror or err}")

    def _row(self, row: Row, source: str, article: str, mapper: RecordMapper,
             mapping: FileMapping, fmt: str) -> tuple[Paragraph | None, list[ReadProblem], Document | None]:
        where = f"{source}:{row.line}"
        mapped = mapper.map(row.values, chunk_id(article, row.line, 0))
        problems = [ReadProblem(where, message) for message in mapped.problems]
        if mapped.skipped:
            return None, problems, None
        para = Paragraph(section=[where], text=record_json(row.values, mapping))
        text_doc = None
        if mapped.text.strip():
            ident = mapper.identity(row.values) if mapping.spo is None else None
            record_id = (ident[0] if ident and ident[0] else f"L{row.line}")
            paras = [p for p in (paragraph([], part, "\n") for part in split_paragraphs(mapped.text)) if p]
            try:
                text_doc = make_document(f"{article}/{record_id}", where, mapped.name, fmt,
                                         paras, {"record": where})
            except BadInput as err:
                problems.append(ReadProblem(where, f"text column {mapping.text!r}: {err.message}"))
        return para, problems, text_doc


def record_chunks(doc: Document) -> list[Chunk]:
    """One chunk per record, its id carrying the record's line (`Disease#p00002#0`)."""
    chunks: list[Chunk] = []
    for order, para in enumerate(doc.paragraphs):
        line = int(para.section[0].rsplit(":", 1)[1])
        chunks.append(Chunk(id=chunk_id(doc.id, line, 0), doc_id=doc.id, text=para.text, section=list(para.section),
                            order=order, paragraph_start=order, paragraph_end=order,
                            token_count=max(1, len(para.text) // 4),  # a record is never cut: the count is a size hint
                            content_hash=content_hash(para.text)))
    for prev, nxt in itertools.pairwise(chunks):
        prev.next_id, nxt.prev_id = nxt.id, prev.id
    return chunks
