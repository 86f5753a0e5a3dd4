"""The records of the corpus as extractions: one `ChunkExtraction` per record chunk, no model.

Deterministic and cheap, so recomputed every build (like document structures) rather than
cached: the graph is re-assembled every build anyway, and what reaches the stores is decided by
the store manifest, so a changed record changes only the nodes and triples it maps to. Relation
targets are looked up in an index of every mapped record of the corpus, built first.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from kgbuild.ingest.readers.problems import BadInput
from kgbuild.model import Chunk, ChunkExtraction, Document
from kgbuild.record_mapping import RecordsConfig
from kgbuild.records.documents import is_records
from kgbuild.records.mapper import RecordMapper, TargetIndex, check_mapping
from kgbuild.schema import Schema

EXTRACTOR = "records"


@dataclass
class RecordCounts:
    files: int = 0
    records: int = 0
    entities: int = 0  # entity mentions (before assembly merges equal ones)
    relations: int = 0
    concepts: int = 0
    stubs: int = 0
    dropped_targets: int = 0
    unmapped_files: list[str] = field(default_factory=list)

    def line(self, missing: str) -> str:
        text = (f"records: {self.records} from {self.files} mapped file(s) -> {self.entities} entity, "
                f"{self.relations} relation and {self.concepts} concept mention(s)")
        if self.stubs or self.dropped_targets:
            text += (f"; {self.stubs + self.dropped_targets} relation target(s) no mapped record holds "
                     f"({'kept as named stubs' if missing == 'stub' else 'dropped'}, records.missing_targets)")
        return text


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
            mapper = cls._mapper(config, schema, doc, index)
            mappers[doc_id] = mapper
            if mapper is None or mapper.mapping.spo is not None:
                continue
            for chunk in chunks[doc_id]:
                ident = mapper.identity(_values(chunk))
                if ident is not None:
                    index.add(mapper.checked.cls, *ident)
        return cls(config, schema, mappers)

    @staticmethod
    def _mapper(config: RecordsConfig, schema: Schema, doc: Document, index: TargetIndex) -> RecordMapper | None:
        found = config.mapping_for(doc.source)
        if found is None:
            return None
        position, mapping = found
        try:
            checked = check_mapping(mapping, schema, f"records.files[{position}]")
        except BadInput:
            return None
        return RecordMapper(checked, schema, index=index, missing_targets=config.missing_targets)

    def handles(self, doc: Document) -> bool:
        return is_records(doc)

    def extract(self, doc: Document, chunks: list[Chunk]) -> Iterator[ChunkExtraction]:
        mapper = self.mappers.get(doc.id)
        if mapper is None:
            self.counts.unmapped_files.append(doc.source)
            return
        self.counts.files += 1
        for chunk in chunks:
            mapped = mapper.map(_values(chunk), chunk.id)
            if mapped.skipped:
                continue
            self.counts.records += 1
            self.counts.entities += len(mapped.entities)
            self.counts.relations += len(mapped.relations)
            self.counts.concepts += len(mapped.concepts)
            self.counts.stubs += mapped.stubs
            self.counts.dropped_targets += len(mapped.drops)
            yield ChunkExtraction(chunk_id=chunk.id, extractor=EXTRACTOR, entities=mapped.entities,
                                  relations=mapped.relations, concepts=mapped.concepts, drops=mapped.drops)

    def notes(self) -> list[str]:
        out = [self.counts.line(self.config.missing_targets)] if self.counts.files else []
        out += [f"{source}: no `records:` mapping in kgbuild.yaml matches it any more; its records were left out "
                "(map it again, or remove it with `kgbuild build --prune`)" for source in self.counts.unmapped_files]
        return out


def record_chunk_ids(docs: Mapping[str, Document], chunks: Mapping[str, list[Chunk]],
                     doc_ids: Sequence[str]) -> set[str]:
    """The chunks of records documents among `doc_ids`: they need no extractor call."""
    return {c.id for d in doc_ids if (doc := docs.get(d)) is not None and is_records(doc)
            for c in chunks.get(d, [])}
