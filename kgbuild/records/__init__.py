"""Structured records straight into the graph: mapped CSV/TSV/JSON/JSONL files and SPO files.

`kgbuild.yaml`'s `records:` section (`kgbuild.record_mapping`) says which class each file's records
are, which columns are names, aliases, typed properties, relations and hierarchies. The build
reads a mapped file as one `records` document whose chunks are its records (`documents`), maps
each record onto the schema without a model (`mapper`) into columns (`columns`), and builds their
graph rows with Arrow joins (`graph`); the records alignment has work for join the text-extracted
nodes in fusion, the rest is appended to the tables. `extraction` is the view of records as
per-record extractions (a few records at a time: tests, explaining one record).
docs/structured.md tells the whole story.
"""

from kgbuild.records.columns import MappedTables
from kgbuild.records.documents import (
    RECORDS_FORMAT,
    MappedFiles,
    PendingChunks,
    as_chunk_table,
    chunk_parts,
    chunk_table,
    is_records,
    record_chunks,
    record_source,
)
from kgbuild.records.extraction import RecordExtractor
from kgbuild.records.graph import RecordsGraph, build_records_graph
from kgbuild.records.mapper import MappedRecord, RecordMapper, TargetIndex, check_mapping
from kgbuild.records.rows import Row, read_rows

__all__ = ["RECORDS_FORMAT", "MappedFiles", "MappedRecord", "MappedTables", "PendingChunks", "RecordExtractor",
           "RecordMapper", "RecordsGraph", "Row", "TargetIndex", "as_chunk_table", "build_records_graph",
           "check_mapping", "chunk_parts", "chunk_table", "is_records", "read_rows", "record_chunks",
           "record_source"]
