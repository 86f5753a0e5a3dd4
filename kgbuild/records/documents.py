"""A mapped file in the corpus: one `records` document whose chunks are its records.

Each record is one chunk, `{file id}#p{LINE}#0`, whose text is the record as a JSON object (the
text column left out) and whose section is `file:line`: a record is a source like any passage, so
`inspect support`, the explorer and answers cite it, hybrid retrieval finds it, and the
workspace's document machinery makes it incremental (an unchanged file is not re-chunked; a
removed or pruned file takes what only it supported with it). The records are not paragraphs of
the `Document` (a million of them would not fit in memory as records): reading keeps them as
columns (`MappedTables`, handed over by `MappedFiles.take`), and the chunks are the records'
lines and texts (`PendingChunks`) whose rows of the `chunks` table (`chunk_table`) are made when
persist writes them, a slice at a time.

A text column becomes a document of its own (`{file id}/{record id}`, source `file:line`),
chunked and extracted like any text; what is extracted from it meets the record's own node in
assembly and fusion (same name and class: one node citing both).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from json.encoder import encode_basestring as _encode  # the ensure_ascii=False one
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.compute as pc

from kgbuild.ids import PARA_CODE_WIDTH, content_hash, escape_article_id, parse_chunk_id
from kgbuild.ingest.readers.document import make_document, paragraph, split_paragraphs
from kgbuild.ingest.readers.problems import BadInput, ReadProblem
from kgbuild.model import Chunk, Document
from kgbuild.record_mapping import FileMapping, RecordsConfig
from kgbuild.records.columns import ColumnsBuilder, MappedTables
from kgbuild.records.mapper import RecordMapper, RowOut, check_mapping
from kgbuild.records.memory import release
from kgbuild.records.rows import Row, file_format, read_rows
from kgbuild.schema import Schema
from kgbuild.tables import chunk_from_row

if TYPE_CHECKING:
    from kgbuild.workspace import Workspace

RECORDS_FORMAT = "records"


def is_records(doc: Document) -> bool:
    return doc.format == RECORDS_FORMAT


def record_json(values: dict[str, Any], mapping: FileMapping) -> str:
    """The record as its chunk's text: one JSON object, keys in file order, the text column left out.

    A table's record (every value a string) is written by hand with json's own string encoder:
    the same text as `json.dumps(kept, ensure_ascii=False)` at a third of its cost per record."""
    parts = []
    for k, v in values.items():
        if type(v) is not str:
            break
        if v and k != mapping.text:
            parts.append(f"{_encode(k)}: {_encode(v)}")
    else:
        return "{" + ", ".join(parts) + "}"
    kept = {k: v for k, v in values.items() if k != mapping.text and v not in ("", None, [])}
    return json.dumps(kept, ensure_ascii=False)


def record_line(chunk: Chunk) -> str:
    """The chunk's `file:line`."""
    return chunk.section[0] if chunk.section else chunk.id


# Document metadata keys of a records document: the `file:line` problems its records had (said
# again when an unchanged file is not parsed), and the ids of its text column's documents.
PROBLEMS_KEY = "records.problems"
TEXT_DOCS_KEY = "records.text_documents"
COUNT_KEY = "records.count"  # how many records (chunks) the file holds
# Document metadata key of a text column's document: the `file:line` of its record.
RECORD_KEY = "record"


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
        self._mapped: dict[str, MappedTables] = {}  # content hash of a records document read -> its records

    def take(self, doc: Document) -> MappedTables | None:
        """The records of a records document this reader parsed (once: they are handed over);
        None for one it did not parse (held unchanged: its chunks are in the workspace)."""
        return self._mapped.pop(doc.content_hash, None)

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
            columns = ColumnsBuilder()
            problems: list[ReadProblem] = []
            text_docs: list[str] = []
            for item in read_rows(path, source, fmt, delimiter=mapping.delimiter,
                                  columns=mapping.columns() if fmt in ("csv", "tsv") else None):
                if isinstance(item, ReadProblem):
                    problems.append(item)
                    yield item
                    continue
                mapped, found, text_doc = self._row(item, source, article, mapper, mapping, fmt)
                problems += found
                yield from found
                if mapped is not None:
                    columns.add(item.line, record_json(item.values, mapping), mapped)
                if text_doc is not None:
                    text_docs.append(text_doc.id)
                    yield text_doc
            if not columns.count:
                raise BadInput("no records to import (only a header, or every record was skipped)")
            self._mapped[payload] = columns.finish()
            release()  # the lists the rows went through
            yield Document(id=article, source=source, title=source.rsplit("/", 1)[-1], format=RECORDS_FORMAT,
                           paragraphs=[], content_hash=payload,
                           metadata={"records.format": fmt, "records.class": mapping.class_ or "spo",
                                     COUNT_KEY: str(columns.count),
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
             mapping: FileMapping, fmt: str) -> tuple[RowOut | None, list[ReadProblem], Document | None]:
        where = f"{source}:{row.line}"
        mapped = mapper.row(row.values)
        problems = [ReadProblem(where, message) for message in mapped.problems] if mapped.problems else []
        if mapped.skipped:
            return None, problems, None
        text_doc = None
        if mapped.text.strip():
            record_id = mapped.record_id if mapping.spo is None and mapped.record_id else f"L{row.line}"
            paras = [p for p in (paragraph([], part, "\n") for part in split_paragraphs(mapped.text)) if p]
            try:
                text_doc = make_document(f"{article}/{record_id}", where, mapped.name, fmt,
                                         paras, {RECORD_KEY: where})
            except BadInput as err:
                problems.append(ReadProblem(where, f"text column {mapping.text!r}: {err.message}"))
        return mapped, problems, text_doc


def _padded(lines: pa.Array) -> pa.Array:
    """Line numbers as paragraph codes (`ids.para_code`: at least five digits)."""
    return pc.utf8_lpad(pc.cast(lines, pa.string()), width=PARA_CODE_WIDTH, padding="0")


def flat_array(values: pa.Array | pa.ChunkedArray) -> pa.Array:
    """One array of a column's chunks (the columnar code's `take`s and numpy views need one)."""
    return values.combine_chunks() if isinstance(values, pa.ChunkedArray) else values


def record_chunk_ids(doc_id: str, lines: pa.Array) -> pa.Array:
    """`{doc id}#p{LINE}#0` for each record line: the ids `ids.chunk_id` gives."""
    return pc.binary_join_element_wise(doc_id + "#p", _padded(lines), "#0", "")


def record_source(doc_source: str, chunk_id: str) -> str | None:
    """The `file:line` of a records document's chunk (the section `chunk_table` gives it), from the
    document's source and the line its id carries (`record_chunk_ids`): no chunk row read.
    None for an id that is not a record's."""
    try:
        parts = parse_chunk_id(chunk_id)
    except ValueError:
        return None
    if not parts.para_code[1:].isdigit():
        return None
    return f"{doc_source}:{int(parts.para_code[1:])}"


@dataclass
class RecordSources:
    """Which documents of a workspace are mapped records files, or a record's text column, so that a
    chunk of one is named by its record's `file:line` (the explorer's passages, an answer's citations).

    `read` turns only the matching rows of the `documents` table into Python values (one per file,
    one per text cell), never the whole table; `doc_ids` narrows it to those documents (an answer's)."""

    files: dict[str, str] = field(default_factory=dict)  # records document -> its file (`source`)
    texts: dict[str, str] = field(default_factory=dict)  # a record's text-column document -> its `file:line`

    @classmethod
    def read(cls, workspace: Workspace, doc_ids: Iterable[str] | None = None) -> RecordSources:
        if not workspace.has_table("documents"):
            return cls()
        table = workspace.read_table("documents", columns=["id", "source", "format", "metadata"])
        if doc_ids is not None:
            table = table.filter(pc.is_in(table["id"], value_set=pa.array(sorted(set(doc_ids)), pa.string())))
        records = table.filter(pc.fill_null(pc.equal(table["format"], RECORDS_FORMAT), False))
        out = cls(dict(zip(records["id"].to_pylist(), records["source"].to_pylist(), strict=True)))
        # The metadata column is a JSON object per document: only those naming the key are parsed.
        texts = table.filter(pc.fill_null(pc.match_substring(table["metadata"], json.dumps(RECORD_KEY)), False))
        for doc, metadata in zip(texts["id"].to_pylist(), texts["metadata"].to_pylist(), strict=True):
            where = json.loads(metadata or "{}").get(RECORD_KEY)
            if isinstance(where, str):
                out.texts[doc] = where
        return out

    def __bool__(self) -> bool:
        return bool(self.files or self.texts)

    def of(self, doc_id: str, chunk_id: str) -> str | None:
        """The `file:line` of a chunk of this document when it is a record (or a record's text), else None."""
        if doc_id in self.files:
            return record_source(self.files[doc_id], chunk_id)
        return self.texts.get(doc_id)


def chunk_table(doc: Document, rows: pa.Table, start: int = 0, stop: int | None = None) -> pa.Table:
    """One chunk per record (rows of the `chunks` table), its id carrying the record's line
    (`Disease#p00002#0`), its section `file:line`, linked to the records before and after it;
    `start`/`stop`: only the chunks of those records (a slice of the file's, neighbours included).

    The document id is dictionary-encoded, the neighbours' ids are slices of the ids and the
    three positions one array (`Workspace.write_parts` casts a row group at a time to the
    table's schema)."""
    total = rows.num_rows
    stop = total if stop is None else min(stop, total)
    start = min(start, stop)
    n = stop - start
    # The ids of the slice and of one record either side of it: its neighbours' ids are slices of them.
    lo, hi = max(start - 1, 0), min(stop + 1, total)
    window = rows.slice(lo, hi - lo)
    window_ids = flat_array(record_chunk_ids(doc.id, window["line"]))
    ids = window_ids.slice(start - lo, n)
    lines, texts = rows["line"].slice(start, n), rows["text"].slice(start, n)  # chunked as read: not copied
    where = flat_array(pc.binary_join_element_wise(doc.source + ":", pc.cast(lines, pa.string()), ""))
    offsets = pa.array(range(n + 1), pa.int32())
    hashes = pa.array([content_hash(t) for t in texts.to_pylist()], pa.string())
    order = pa.array(range(start, stop), pa.int64())
    # A record is never cut: its token count is a size hint.
    tokens = pc.max_element_wise(pc.divide(pc.utf8_length(texts).cast(pa.int64()), 4), 1)
    none = pa.nulls(1, pa.string())
    prev = window_ids.slice(start - 1 - lo, n) if start > 0 else pa.concat_arrays([none, ids.slice(0, max(n - 1, 0))])
    following = window_ids.slice(start + 1 - lo, n) if stop < total else pa.concat_arrays([ids.slice(1), none])
    columns = {
        "id": ids, "doc_id": pa.DictionaryArray.from_arrays(pa.array([0] * n, pa.int32()), pa.array([doc.id])),
        "text": texts, "section": pa.ListArray.from_arrays(offsets, where), "order": order,
        "paragraph_start": order, "paragraph_end": order, "token_count": tokens, "content_hash": hashes,
        "prev_id": prev.slice(0, n), "next_id": following.slice(0, n),
        "summary": pa.nulls(n, pa.string()), "oversize_split": pa.array([False] * n, pa.bool_()),
    }
    return pa.table(columns)


@dataclass
class PendingChunks:
    """A records document's chunks as read this build: its records' lines and texts (the rows of
    `MappedTables.rows`, shared, not copied). Their chunk rows (ids, `file:line` sections, hashes,
    neighbours: a hundred bytes a record) are made when the `chunks` table is written (`parts`),
    a slice at a time, so a million records' chunk columns are never held through assembly and
    alignment. A held file's chunks are the workspace's table instead (`Corpus.record_chunks`)."""

    doc: Document
    rows: pa.Table  # row, line, text

    @property
    def num_rows(self) -> int:
        return self.rows.num_rows

    def parts(self, step: int = 65_536) -> Iterator[pa.Table]:
        for start in range(0, self.rows.num_rows, step):
            yield chunk_table(self.doc, self.rows, start, start + step)

    def table(self) -> pa.Table:
        """Every chunk row at once (a small file, or a caller that needs the table)."""
        return chunk_table(self.doc, self.rows)


def chunk_parts(chunks: pa.Table | PendingChunks) -> Iterator[pa.Table]:
    """A records document's chunk rows as tables, as `Workspace.write_parts` takes them."""
    if isinstance(chunks, PendingChunks):
        yield from chunks.parts()
    else:
        yield chunks


def as_chunk_table(chunks: pa.Table | PendingChunks) -> pa.Table:
    return chunks.table() if isinstance(chunks, PendingChunks) else chunks


def record_chunks(table: pa.Table) -> list[Chunk]:
    """A chunk table's rows as `Chunk` records (for a few records: a view, never a whole build)."""
    return [chunk_from_row(row) for row in table.to_pylist()]
