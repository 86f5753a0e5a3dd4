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

import hashlib
import itertools
import json
from collections.abc import Callable, Iterator
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


# Document metadata keys of a records document: the `file:line` problems its records had (said
# again when an unchanged file is not parsed), and the ids of its text column's documents.
PROBLEMS_KEY = "records.problems"
TEXT_DOCS_KEY = "records.text_documents"


def file_digest(path: Path) -> str:
    """The digest of a file's bytes, read in blocks (a records file may be large)."""
    digest = hashlib.blake2b(digest_size=16)
    with path.open("rb") as fh:
        while block := fh.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


class MappedFiles:
    """The build's claim on mapped files: `read(path, source, raw_id)` gives a mapped file's
    documents, or None for a file no mapping names (read as usual).

    `known(doc_id)`: the document the workspace holds under that id. A mapped file whose bytes,
    mapping and schema are those of the records document it holds is not parsed again: the held
    document comes back (with its text column's documents and its problems), as an unchanged
    text file does, so an unchanged re-import costs one pass over the bytes."""

    def __init__(self, config: RecordsConfig, schema: Schema,
                 known: Callable[[str], Document | None] | None = None) -> None:
        self.config = config
        self.schema = schema
        self.known = known

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
            # What the records document is a function of: the file's bytes, its mapping and the
            # schema the mapping was checked against (its problems depend on it).
            payload = content_hash(f"{mapping.model_dump_json()}|{self.schema.fingerprint()}|{file_digest(path)}")
            held = self._held(article, payload)
            if held is not None:
                yield from held
                return
            paragraphs: list[Paragraph] = []
            problems: list[ReadProblem] = []
            text_docs: list[str] = []
            for item in read_rows(path, source, fmt, delimiter=mapping.delimiter,
                                  columns=mapping.columns() if fmt in ("csv", "tsv") else None):
                if isinstance(item, ReadProblem):
                    problems.append(item)
                    yield item
                    continue
                kept = self._row(item, source, article, mapper, mapping, fmt)
                problems += kept[1]
                yield from kept[1]
                if kept[0] is not None:
                    paragraphs.append(kept[0])
                if kept[2] is not None:
                    text_docs.append(kept[2].id)
                    yield kept[2]
            if not paragraphs:
                raise BadInput("no records to import (only a header, or every record was skipped)")
            yield Document(id=article, source=source, title=source.rsplit("/", 1)[-1], format=RECORDS_FORMAT,
                           paragraphs=paragraphs, content_hash=payload,
                           metadata={"records.format": fmt, "records.class": mapping.class_ or "spo",
                                     PROBLEMS_KEY: json.dumps([[p.source, p.message] for p in problems],
                                                              ensure_ascii=False),
                                     TEXT_DOCS_KEY: json.dumps(text_docs, ensure_ascii=False)})
        except BadInput as err:
            yield ReadProblem(source, err.message)
        except OSError as err:
            yield ReadProblem(source, f"cannot read: {err.strerror or err}")

    def _held(self, article: str, payload: str) -> list[Document | ReadProblem] | None:
        """The held records document of an unchanged file, its problems and its text documents;
        None when anything of it changed or is missing (the file is then read)."""
        doc = self.known(article) if self.known is not None else None
        if doc is None or not is_records(doc) or doc.content_hash != payload or TEXT_DOCS_KEY not in doc.metadata:
            return None
        out: list[Document | ReadProblem] = [
            ReadProblem(where, message) for where, message in json.loads(doc.metadata.get(PROBLEMS_KEY, "[]"))]
        for text_id in json.loads(doc.metadata[TEXT_DOCS_KEY]):
            text_doc = self.known(text_id) if self.known is not None else None
            if text_doc is None:
                return None  # a text document was removed since: read the file again
            out.append(text_doc)
        out.append(doc)
        return out

    def _row(self, row: Row, source: str, article: str, mapper: RecordMapper,
             mapping: FileMapping, fmt: str) -> tuple[Paragraph | None, list[ReadProblem], Document | None]:
        where = f"{source}:{row.line}"
        mapped = mapper.check(row.values)  # the build maps it, with the target index
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
