"""Structured records straight into the graph: mapped CSV/TSV/JSON/JSONL files and SPO files.

`kgbuild.yaml`'s `records:` section (`kgbuild.record_mapping`) says which class each file's records
are, which columns are names, aliases, typed properties, relations and hierarchies. The build
reads a mapped file as one `records` document whose chunks are its records (`documents`), maps
each record onto the schema without a model (`mapper`, `extraction`), and the nodes and triples
join the text-extracted ones in assembly and fusion. docs/structured.md tells the whole story.
"""

from kgbuild.records.documents import RECORDS_FORMAT, MappedFiles, is_records, record_chunks
from kgbuild.records.extraction import RecordExtractor, record_chunk_ids
from kgbuild.records.mapper import MappedRecord, RecordMapper, TargetIndex, check_mapping
from kgbuild.records.rows import Row, read_rows

__all__ = ["RECORDS_FORMAT", "MappedFiles", "MappedRecord", "RecordExtractor", "RecordMapper", "Row",
           "TargetIndex", "check_mapping", "is_records", "read_rows", "record_chunk_ids", "record_chunks"]
