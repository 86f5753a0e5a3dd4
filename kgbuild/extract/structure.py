"""Knowledge from document structure, without a model (KAG §2.2.1).

Some documents have a fixed layout: every service guide has a "Required materials" and a
"Processing time" section. When an entity type of the schema declares a
`document_structure`, a matching document becomes one entity of that type, named by the
document title, and the chunks under a mapped heading become its property values. Those
chunks are *handled*: the build does not send them to an LLM, which would only paraphrase
what the layout already says.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kgbuild.model import Chunk, ChunkExtraction, Document, Entity
from kgbuild.schema import DocumentStructure, Schema

EXTRACTOR = "structure"

# A list marker at the start of an item: "-", "•", "1.", "2)", "(3)", "（三）", "一、", "①".
_MARKER = re.compile(
    r"^\s*(?:[-*+•·▪●○◦]|[0-9]{1,3}[.)、．](?![0-9])|[(（][0-9一二三四五六七八九十]{1,3}[)）]"
    r"|[一二三四五六七八九十]{1,3}[、.．]|[\u2460-\u2473])\s*"
)
# Sentence ends: Latin ones need a following space ("1.5" and "e.g" stay whole); CJK ones
# and semicolons (guides write "身份证；户口簿；") end an item by themselves.
_ITEM_END = re.compile(r"(?<=[.!?])\s+|(?<=[。！？；;])\s*")
_TRIM = " \t;；,，、。.!！"


@dataclass
class StructureResult:
    """`extractions` holds one record per handled chunk and, when the first chunk of the
    document is not handled, one for it too (the entity without properties): the build
    must add that one to whatever the extractor finds in the chunk."""

    extractions: dict[str, ChunkExtraction] = field(default_factory=dict)
    handled: set[str] = field(default_factory=set)
    entity: Entity | None = None  # the document's entity with every property, as assembled


def split_items(text: str) -> list[str]:
    """Values of a multi-value section: its lines if it has several (list items, table
    rows, paragraphs), else its sentences; list markers and trailing separators removed."""
    lines = [line for line in text.splitlines() if line.strip()]
    pieces = lines if len(lines) > 1 else [s for line in lines for s in _ITEM_END.split(line)]
    items = [_MARKER.sub("", p).strip().rstrip(_TRIM).strip() for p in pieces]
    return list(dict.fromkeys(i for i in items if i))


def _section_property(structure: DocumentStructure, section: list[str]) -> tuple[str, int] | None:
    """The property of the deepest mapped heading of a section path, and its depth: under
    "Required materials > For minors" the chunk is about required materials, and the
    unmapped sub-heading below it is kept as the items' context."""
    for depth in range(len(section) - 1, -1, -1):
        prop = structure.property_for(section[depth])
        if prop is not None:
            return prop, depth
    return None


def structure_extract(doc: Document, chunks: list[Chunk], schema: Schema) -> StructureResult:
    """The structure-derived entity of `doc` and the chunks it covers; empty when the
    document matches no declared document type (or has no title to name it by)."""
    title = " ".join(doc.title.split())
    doc_type = schema.document_type_of(title, doc.source) if title else None
    ordered = sorted((c for c in chunks if c.doc_id == doc.id), key=lambda c: c.order)
    if doc_type is None or not ordered:
        return StructureResult()
    cls, structure = doc_type
    multi = {name: prop.multi_value for name, prop in schema.properties_of(cls).items()}
    entity_id = Entity.make_id(title, cls)

    def entity(chunk_id: str, properties: dict[str, list[str]]) -> Entity:
        return Entity(id=entity_id, name=title, spg_class=cls, properties=properties, chunk_ids=[chunk_id])

    per_chunk: dict[str, dict[str, list[str]]] = {}
    single: dict[str, tuple[str, list[str]]] = {}  # property -> (first chunk, texts) to join
    for chunk in ordered:
        found = _section_property(structure, chunk.section)
        if found is None:
            continue
        prop, depth = found
        context = " / ".join(chunk.section[depth + 1:])
        props = per_chunk.setdefault(chunk.id, {})
        if multi.get(prop, False):
            items = split_items(chunk.text)
            props[prop] = [f"{context}: {i}" for i in items] if context else items
        else:
            # One value even when a long section was cut into several chunks.
            text = f"{context}: {chunk.text.strip()}" if context else chunk.text.strip()
            single.setdefault(prop, (chunk.id, []))[1].append(text)
    for prop, (first_chunk, texts) in single.items():
        per_chunk[first_chunk][prop] = ["\n\n".join(texts)]

    first = ordered[0].id
    result = StructureResult(handled=set(per_chunk))
    for chunk in ordered:  # reading order, so the mapping is deterministic to iterate
        if chunk.id in per_chunk:
            props = {k: v for k, v in per_chunk[chunk.id].items() if v}
        elif chunk.id == first:  # anchors the entity at the document's start
            props = {}
        else:
            continue
        result.extractions[chunk.id] = ChunkExtraction(
            chunk_id=chunk.id, extractor=EXTRACTOR, entities=[entity(chunk.id, props)])
    merged: dict[str, list[str]] = {}
    for props in per_chunk.values():  # reading order, as assembly would merge them
        for key, values in props.items():
            merged[key] = list(dict.fromkeys([*merged.get(key, []), *values]))
    chunk_ids = [c.id for c in ordered if c.id in per_chunk or c.id == first]
    result.entity = Entity(id=entity_id, name=title, spg_class=cls,
                           properties={k: v for k, v in merged.items() if v}, chunk_ids=chunk_ids)
    return result


def combine(extraction: ChunkExtraction, extra: ChunkExtraction) -> ChunkExtraction:
    """`extraction` plus the records of `extra` for the same chunk (validation later merges
    records with equal ids), e.g. an LLM's output plus the structure entity."""
    return extraction.model_copy(update={
        "entities": [*extraction.entities, *extra.entities],
        "events": [*extraction.events, *extra.events],
        "relations": [*extraction.relations, *extra.relations],
        "hypernodes": [*extraction.hypernodes, *extra.hypernodes],
        "concepts": [*extraction.concepts, *extra.concepts],
        "drops": [*extraction.drops, *extra.drops],
    })
