"""Records as extractions: one `ChunkExtraction` per record chunk, no model: the view of a few records.

A build does not go through here (it maps its records into columns and builds their graph rows
with Arrow, `records.graph`); this is the same mapping shown one record at a time, as nodes and
triples citing the record's chunk, with relation targets looked up in an index of every record
given. Tests read the mapping's rules through it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping

from kgbuild.model import Chunk, ChunkExtraction, Document
from kgbuild.record_mapping import RecordsConfig
from kgbuild.records.documents import is_records, record_line
from kgbuild.records.graph import RecordCounts
from kgbuild.records.mapper import RecordMapper, TargetIndex, mapper_for
from kgbuild.schema import Schema

EXTRACTOR = "records"


def _values(chunk: Chunk) -> dict[str, object]:
    value = json.loads(chunk.text)
    return value if isinstance(value, dict) else {}


class RecordExtractor:
    """Built once per build over the corpus (`for_corpus`), then asked per records document."""

    def __init__(self, config: RecordsConfig, schema: Schema, mappers: dict[str, RecordMapper | None]) -> None:
        self.config = config
        self.schema = schema
        self.mappers = mappers  # doc id -> its mapper (None: its mapping is gone from the config)
        self.counts = RecordCounts()

    @classmethod
    def for_corpus(cls, config: RecordsConfig, schema: Schema, docs: Mapping[str, Document],
                   chunks: Mapping[str, list[Chunk]]) -> RecordExtractor:
        """Over a corpus's documents and chunks (doc id -> chunks in order)."""
        index = TargetIndex()
        mappers: dict[str, RecordMapper | None] = {}
        for doc_id in sorted(chunks):
            doc = docs.get(doc_id)
            if doc is None or not is_records(doc):
                continue
            mapper = mapper_for(config, schema, doc.source, index=index)
            mappers[doc_id] = mapper
            if mapper is None or mapper.mapping.spo is not None:
                continue
            for chunk in chunks[doc_id]:
                ident = mapper.identity(_values(chunk))
                if ident is not None:
                    index.add(mapper.checked.cls, *ident)
        return cls(config, schema, mappers)

    def handles(self, doc: Document) -> bool:
        return is_records(doc)

    def extract(self, doc: Document, chunks: list[Chunk]) -> Iterator[ChunkExtraction]:
        mapper = self.mappers.get(doc.id)
        if mapper is None:
            self.counts.unmapped_files.append(doc.source)
            return
        self.counts.files += 1
        for chunk in chunks:
            mapped = mapper.map(_values(chunk), chunk.id, record_line(chunk))
            if mapped.skipped:
                continue
            self.counts.records += 1
            self.counts.entities += len(mapped.entities)
            self.counts.relations += len(mapped.relations)
            self.counts.concepts += len(mapped.concepts)
            self.counts.stubs += mapped.stubs
            self.counts.dropped_targets += len(mapped.drops)
            yield ChunkExtraction(chunk_id=chunk.id, extractor=EXTRACTOR, entities=mapped.entities,
                                  relations=mapped.relations, concepts=mapped.concepts, drops=mapped.drops,
                                  retypes=mapped.retypes)

    def notes(self) -> list[str]:
        return self.counts.notes(self.config.missing_targets)
