"""The records of the corpus as graph rows, built with Arrow: no record object per row.

Every mapped file's records (`MappedTables`) become rows of the `entities` and `relations`
tables by joins and group-bys, the way assembly would have merged their per-record extractions:

- relation targets are looked up by a join on (class, normalised name or alias) or (class, id)
  against every mapped record of the corpus (first record wins, in corpus order); a target no
  file holds is a named stub or dropped (`records.missing_targets`), counted;
- ids are the content-derived ids of `kgbuild.ids`, computed once per distinct (class, name) or
  triple; equal ids are one row whose `chunk_ids` are every record that mentions it, in corpus
  order (a record cites its relation targets too), as assembly's merge rules give;
- validation is the schema's, per distinct case rather than per row: names without letters or
  too long, classes the schema lacks (the fallback class, or dropped when strict), predicates
  whose domain and range refuse the ends, self-loops; each removal is a `Drop` naming the record;
- the concepts of hierarchy columns are `Concept` records (one per distinct part, citing every
  record whose path holds it), for alignment.

`RecordsGraph.bring_in` hands alignment the record entities it has work for, as `Entity`
records: those whose normalised name or alias another node of the graph shares (a text entity,
or a record of another class or id: fusion's equal-name and alias steps decide), and those with
a semantic type (a hierarchy's last part, linked to its concept). Fusion with the text is thus a
join on normalised names, never a similarity step over the rows of a table. The rest stays in
Arrow and is appended to the tables at persist (`rows`), after `repoint` has followed fusion's
merges.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from kgbuild.extract.validate import MAX_NAME_CHARS
from kgbuild.extract.validate import _name_problem as name_problem  # the one rule for names
from kgbuild.ids import ID_PART_SEP, normalize_name, stable_ids
from kgbuild.merge import MergeTable
from kgbuild.model import Concept, Document, Drop, DropReason, Entity, Relation, Retype, RetypeReason
from kgbuild.record_mapping import RecordsConfig
from kgbuild.records.columns import ColumnsBuilder, MappedTables
from kgbuild.records.documents import PendingChunks, as_chunk_table, is_records, record_chunk_ids
from kgbuild.records.documents import flat_array as _array
from kgbuild.records.mapper import RecordMapper, dangling_drop, link_place, mapper_for, stub_note
from kgbuild.records.memory import release as _release
from kgbuild.schema import Schema
from kgbuild.tables import CODECS, SCHEMAS

VALIDATE = "validate"  # the stage named in drop notes, as for extracted items

_DOC_SHIFT = 1 << 44  # order key: document, then record, then the position of a mention in it
_ROW_SHIFT = 1 << 16


@dataclass
class RecordCounts:
    files: int = 0
    records: int = 0
    entities: int = 0  # entity mentions (before equal ids merge)
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

    def notes(self, missing: str) -> list[str]:
        out = [self.line(missing)] if self.files else []
        out += [f"{source}: no `records:` mapping in kgbuild.yaml matches it any more; its records were left out "
                "(map it again, or remove it with `kgbuild build --prune`)" for source in self.unmapped_files]
        return out


def _is_in(values: pa.ChunkedArray | pa.Array, value_set: pa.Array) -> pa.ChunkedArray | pa.Array:
    """Per row, whether its value is one of `value_set`; a dictionary-encoded column is looked
    up by its dictionary (each id once, not decoded into a string per row)."""
    if not pa.types.is_dictionary(values.type):
        return pc.is_in(values, value_set=value_set)
    chunks = values.chunks if isinstance(values, pa.ChunkedArray) else [values]
    return pa.chunked_array([pc.is_in(c.dictionary, value_set=value_set).take(c.indices) for c in chunks],
                            pa.bool_())


def _encoded(values: pa.Array | pa.ChunkedArray) -> tuple[np.ndarray, pa.Array]:
    """(codes per row, distinct values): a string column dictionary-encoded."""
    encoded = _array(values).dictionary_encode()
    return encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64), encoded.dictionary


def _per_distinct(values: pa.Array | pa.ChunkedArray, fn: Callable[[str], Any], kind: pa.DataType) -> pa.Array:
    """`fn` over the distinct values of a string column, taken back to every row (keys, ids and
    checks are computed once per name or triple, not once per mention)."""
    encoded = _array(values).dictionary_encode()
    computed = pa.array([fn(v) for v in encoded.dictionary.to_pylist()], kind)
    return computed.take(encoded.indices)


def _changes(values: pa.Array) -> np.ndarray:
    """Per row, whether it differs from the row before (the first row does)."""
    n = len(values)
    out = np.ones(n, dtype=bool)
    if n > 1:
        out[1:] = pc.not_equal(values.slice(1), values.slice(0, n - 1)).to_numpy(zero_copy_only=False)
    return out


@dataclass
class _Doc:
    doc: Document
    mapper: RecordMapper
    tables: MappedTables
    chunk_ids: pa.Array  # per record row
    base: int  # order key of the document
    first: int = 0  # the global number of its first record (records of all files numbered in corpus order)


def remap(doc: Document, chunks: pa.Table | PendingChunks, mapper: RecordMapper) -> MappedTables:
    """The records of a held records document mapped again from its chunks' JSON (its file was not
    parsed this build: unchanged, or not among the sources)."""
    columns = ColumnsBuilder()
    chunks = as_chunk_table(chunks)
    for cid, text in zip(chunks["id"].to_pylist(), chunks["text"].to_pylist(), strict=True):
        value = json.loads(text)
        mapped = mapper.row(value if isinstance(value, dict) else {})
        if not mapped.skipped:
            columns.add(int(cid.split("#")[1][1:]), text, mapped)
    return columns.finish()


@dataclass
class RecordsGraph:
    """The records' graph rows: `entities` and `relations` as rows of those tables (entities that
    `bring_in` handed to alignment are no longer here), the hierarchies' `concepts`, the notes."""

    entities: pa.Table
    relations: pa.Table
    concepts: list[Concept]
    drops: list[Drop]
    retypes: list[Retype]
    counts: RecordCounts
    notes: list[str]
    # (normalised name or alias, entity row) of every entity row: where `bring_in` finds shared names.
    keys: pa.Table | None = None

    @property
    def entity_count(self) -> int:
        return self.entities.num_rows

    @property
    def relation_count(self) -> int:
        return self.relations.num_rows

    # ------------------------------------------------ meeting the text graph

    def bring_in(self, others: Iterable[Entity], *, everything: bool = False) -> list[Entity]:
        """The record entities alignment has work for, as records (taken out of `entities`): a
        normalised name or alias shared with one of `others` or with another record entity, or a
        semantic type; `everything`: all of them (the corrections file may name any)."""
        table = self.entities
        if table.num_rows == 0:
            return []
        if everything or self.keys is None:
            mask = pa.array(np.ones(table.num_rows, dtype=bool))
        else:
            keys = self.keys
            text = pa.array(sorted({normalize_name(label) for e in others for label in (e.name, *e.aliases)}), _S)
            rows = _ints(keys["row"])
            # Keys shared by two entities, found by sorting (no hash table the size of the table):
            # equal keys are adjacent, and so are equal entities within a key once sorted by entity.
            order = _ints(pc.sort_indices(keys["key"]))
            group = np.cumsum(_changes(_array(keys["key"]).take(pa.array(order)))) - 1
            owners = rows[order]
            by_owner = np.lexsort((owners, group))
            g, o = group[by_owner], owners[by_owner]
            first = np.ones(len(g), dtype=bool)
            first[1:] = (g[1:] != g[:-1]) | (o[1:] != o[:-1])
            per_key = np.bincount(g[first], minlength=int(group.max(initial=-1)) + 1)
            chosen_rows = np.zeros(table.num_rows, dtype=bool)
            chosen_rows[owners[per_key[group] > 1]] = True  # a name or alias two record entities answer to
            chosen_rows[rows[pc.is_in(keys["key"], value_set=text).to_numpy(zero_copy_only=False)]] = True
            mask = pc.or_(pa.array(chosen_rows), pc.is_valid(table["semantic_type"]))
        self.keys = None  # asked once, by assembly
        _release()
        chosen = table.filter(mask)
        self.entities = table.filter(pc.invert(mask))
        codec = CODECS["entities"]
        return [Entity.model_validate(codec.from_row(row).model_dump(exclude={"doc_ids"}))
                for row in chosen.to_pylist()]

    def repoint(self, merged: Mapping[str, str], names: Mapping[str, str], taken: set[str]) -> list[Relation]:
        """Follow fusion: rows whose end was merged into another entity (`merged`: old id ->
        canonical id, `names`: canonical names), and rows whose id is one of `taken` (the same
        triple said by the text), leave the table as `Relation` records, re-pointed, for the
        caller to merge into its graph. Self-loops after re-pointing are dropped (as fusion does)."""
        table = self.relations
        if table.num_rows == 0 or not (merged or taken):
            return []
        moved = pa.array(list(merged), pa.string())
        mask = pc.or_(pc.or_(_is_in(table["subject_id"], moved), _is_in(table["object_id"], moved)),
                      _is_in(table["id"], pa.array(list(taken), pa.string())))
        if not pc.any(mask).as_py():
            return []  # the table stays as it is (filtering would copy every row of it)
        chosen = table.filter(mask)
        self.relations = table.filter(pc.invert(mask))
        out = []
        codec = CODECS["relations"]
        for row in chosen.to_pylist():
            rel = codec.from_row(row)
            s, o = merged.get(rel.subject.id, rel.subject.id), merged.get(rel.object.id, rel.object.id)
            if s == o:
                continue
            subject = rel.subject.model_copy(update={"id": s, "name": names.get(s, rel.subject.name)})
            obj = rel.object.model_copy(update={"id": o, "name": names.get(o, rel.object.name)})
            out.append(Relation(id=Relation.make_id(s, rel.predicate, o), subject=subject, predicate=rel.predicate,
                                object=obj, properties=rel.properties, chunk_ids=rel.chunk_ids))
        return out

    def emptied(self) -> RecordsGraph:
        """This graph's counts and notes with no rows (they were all taken)."""
        return RecordsGraph(self.entities.slice(0, 0), self.relations.slice(0, 0), [], [], [], self.counts,
                            self.notes)

    def take_all_relations(self) -> list[Relation]:
        """Every relation row as a record (the corrections file may name any)."""
        codec = CODECS["relations"]
        out = [Relation.model_validate(codec.from_row(row).model_dump(exclude={"doc_ids", "subject_class",
                                                                               "object_class"}))
               for row in self.relations.to_pylist()]
        self.relations = self.relations.slice(0, 0)
        return out


# ---------------------------------------------------------------- building


def build_records_graph(config: RecordsConfig, schema: Schema, docs: Mapping[str, Document],
                        record_chunks: Mapping[str, pa.Table | PendingChunks],
                        mapped: Mapping[str, MappedTables], *,
                        strict: bool = False) -> RecordsGraph:
    """The graph rows of every records document (`record_chunks`: doc id -> its chunk table;
    `mapped`: the records read this build, by doc id; the others are mapped again from their chunks)."""
    counts = RecordCounts()
    parts: list[_Doc] = []
    for index, doc_id in enumerate(sorted(record_chunks)):
        doc = docs.get(doc_id)
        if doc is None or not is_records(doc):
            continue
        mapper = mapper_for(config, schema, doc.source)
        if mapper is None:
            counts.unmapped_files.append(doc.source)
            continue
        tables = mapped.get(doc_id)
        if tables is None:
            tables = remap(doc, record_chunks[doc_id], mapper)
        counts.files += 1
        counts.records += tables.rows.num_rows
        parts.append(_Doc(doc, mapper, tables, _array(record_chunk_ids(doc_id, tables.rows["line"])),
                          index * _DOC_SHIFT, counts.records - tables.rows.num_rows))
    return _Builder(schema, config.missing_targets, strict, counts).build(parts)


_S = pa.string()
_OWN_FIELDS = ("name", "aliases", "description", "properties", "semantic_type")


def _ints(values: Any) -> np.ndarray:
    return _array(values).to_numpy(zero_copy_only=False).astype(np.int64) if len(values) else np.empty(0, np.int64)


@dataclass
class _Index:
    """(class, key) -> the record holding it (its number among the own records), first record wins:
    a `TargetIndex` as columns."""

    keys: pa.Array  # distinct `class\x1fkey`
    owners: np.ndarray  # per distinct key, the own record

    @classmethod
    def of(cls, joined: pa.Array, ords: np.ndarray, owners: np.ndarray) -> _Index:
        order = np.argsort(ords, kind="stable")
        codes, distinct = _encoded(joined.take(pa.array(order)))
        _, first = np.unique(codes, return_index=True)  # codes are 0..len(distinct)-1
        return cls(distinct, owners[order[first]])

    def lookup(self, joined: pa.Array) -> np.ndarray:
        """The own record each key names; -1 where none does."""
        at = pc.index_in(joined, value_set=self.keys)
        found = _ints(pc.fill_null(at, -1))
        return np.where(found >= 0, self.owners[np.maximum(found, 0)] if len(self.owners) else -1, -1)


@dataclass
class _Mentions:
    """Every entity mention (a record itself, a relation's target, an SPO end), as numbers: its
    name and key by their place in a pool of names (a target found among the records shares the
    record's: the pool holds each record's once, not once per mention), its class by its code,
    its record by its global number, `own` the own record it is (else -1)."""

    names: list[pa.Array] = field(default_factory=list)  # the pool
    keys: list[pa.Array] = field(default_factory=list)
    pool: int = 0
    name_at: list[np.ndarray] = field(default_factory=list)
    cls: list[np.ndarray] = field(default_factory=list)
    ords: list[np.ndarray] = field(default_factory=list)
    records: list[np.ndarray] = field(default_factory=list)
    owns: list[np.ndarray] = field(default_factory=list)
    size: int = 0

    def add(self, names: Any, keys: Any, cls: np.ndarray, ords: np.ndarray, records: np.ndarray,
            owns: np.ndarray) -> np.ndarray:
        """Append mentions of new names; returns their numbers."""
        self.names.append(_array(names))
        self.keys.append(_array(keys))
        self.pool += len(ords)
        return self.add_shared(np.arange(self.pool - len(ords), self.pool, dtype=np.int32), cls, ords, records, owns)

    def add_shared(self, name_at: np.ndarray, cls: np.ndarray, ords: np.ndarray, records: np.ndarray,
                   owns: np.ndarray) -> np.ndarray:
        """Append mentions of names already in the pool; returns their numbers."""
        n = len(ords)
        # Numbers below 2**31 as int32 (a mention costs 24 bytes, not 40); the order keys need 64 bits.
        self.name_at.append(name_at.astype(np.int32, copy=False))
        self.cls.append(cls.astype(np.int32, copy=False))
        self.ords.append(ords.astype(np.int64, copy=False))
        self.records.append(records.astype(np.int32, copy=False))
        self.owns.append(owns.astype(np.int32, copy=False))
        self.size += n
        return np.arange(self.size - n, self.size, dtype=np.int32)


@dataclass
class _Relations:
    """Every relation mention: its subject and object mentions, predicate code, properties."""

    subjects: list[np.ndarray] = field(default_factory=list)
    objects: list[np.ndarray] = field(default_factory=list)
    predicates: list[np.ndarray] = field(default_factory=list)
    ords: list[np.ndarray] = field(default_factory=list)
    records: list[np.ndarray] = field(default_factory=list)
    properties: list[pa.Array] = field(default_factory=list)

    def add(self, subjects: np.ndarray, objects: np.ndarray, predicates: np.ndarray, ords: np.ndarray,
            records: np.ndarray, properties: pa.Array) -> None:
        self.subjects.append(subjects.astype(np.int32, copy=False))
        self.objects.append(objects.astype(np.int32, copy=False))
        self.predicates.append(predicates.astype(np.int32, copy=False))
        self.ords.append(ords.astype(np.int64, copy=False))
        self.records.append(records.astype(np.int32, copy=False))
        self.properties.append(properties)


def _ids(prefix: str, *parts: pa.Array, step: int = 100_000) -> pa.Array:
    """`ids.stable_id(prefix, *parts)` per row: the parts joined by Arrow, a hash each in Python,
    a slice of rows at a time into one Arrow array (never a list of all of them)."""
    n = len(parts[0])
    out = []
    for start in range(0, n, step):
        sliced = [_array(p.slice(start, step)) for p in parts]
        plain = [p.dictionary.take(p.indices) if pa.types.is_dictionary(p.type) else p for p in sliced]
        joined = pc.binary_join_element_wise(*plain, ID_PART_SEP).cast(pa.binary())
        out.append(pa.array(stable_ids(prefix, joined.to_pylist()), _S))
    return pa.concat_arrays(out) if out else pa.array([], _S)


def _dict(indices: np.ndarray, labels: pa.Array | list[str]) -> pa.DictionaryArray:
    """`labels[indices]` without copying a string per row (written as plain strings, `write_parts`)."""
    values = labels if isinstance(labels, pa.Array) else pa.array(labels, _S)
    return pa.DictionaryArray.from_arrays(pa.array(indices, pa.int32()), values)


def _cat32(parts: list[np.ndarray]) -> np.ndarray:
    return np.concatenate(parts).astype(np.int32, copy=False) if parts else np.empty(0, np.int32)


def _cat(parts: list[np.ndarray]) -> np.ndarray:
    return np.concatenate(parts) if parts else np.empty(0, np.int64)


def _cat_arrow(parts: list[pa.Array]) -> pa.Array:
    return pa.concat_arrays([p.cast(_S) for p in parts]) if parts else pa.array([], _S)


def _group(codes: np.ndarray, ords: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(order, new, starts): rows sorted by (code, order key); whether each sorted row starts its
    group; the sorted index of each group's first row."""
    order = np.lexsort((ords, codes))
    sorted_codes = codes[order]
    new = np.ones(len(order), dtype=bool)
    new[1:] = sorted_codes[1:] != sorted_codes[:-1]
    return order, new, np.flatnonzero(new)


def _distinct_lists(values: np.ndarray, new: np.ndarray, labels: pa.Array) -> pa.Array:
    """Per group (rows sorted, `new` marking group starts), the distinct `values` in order, as
    `labels` (a value's rows are adjacent within a group: a record's mentions share the high bits
    of their order key, a document's too)."""
    keep = new.copy()
    if len(values) > 1:
        keep[1:] |= values[1:] != values[:-1]
    kept = values[keep]
    offsets = np.append(np.flatnonzero(new[keep]), len(kept)).astype(np.int32)
    return pa.ListArray.from_arrays(pa.array(offsets), _dict(kept, labels))


class _Builder:
    def __init__(self, schema: Schema, missing: str, strict: bool, counts: RecordCounts) -> None:
        self.schema = schema
        self.missing = missing
        self.strict = strict
        self.counts = counts
        self.drops: list[Drop] = []
        self.retypes: list[Retype] = []
        self.classes: dict[str, int] = {}
        self.predicates: dict[str, int] = {}

    def _code(self, table: dict[str, int], values: Any) -> np.ndarray:
        """Small-integer codes of a string column (classes, predicates)."""
        codes, distinct = _encoded(values)
        mapping = np.array([table.setdefault(v, len(table)) for v in distinct.to_pylist()], dtype=np.int64)
        return mapping[codes] if len(codes) else np.empty(0, np.int64)

    def _const_code(self, table: dict[str, int], value: str, n: int) -> np.ndarray:
        return np.full(n, table.setdefault(value, len(table)), dtype=np.int64)

    # ------------------------------------------------ the pieces of every file

    def build(self, parts: list[_Doc]) -> RecordsGraph:
        mentions, relations = _Mentions(), _Relations()
        chunk_ids = pa.concat_arrays([p.chunk_ids for p in parts]) if parts else pa.array([], _S)
        doc_ids = pa.array([p.doc.id for p in parts], _S)
        own = self._own_records(parts, mentions)  # the own records are the first mentions, in order
        names, ids = self._index(own, self._wanted(parts))
        for column in ("key", "record_id", "name"):  # the index's: the links are looked up in it
            del own[column]
        _release()
        for part, first in zip(parts, own["first"], strict=True):
            self._links(part, first, own, names, ids, mentions, relations)
            self._spo(part, mentions, relations)
            part.tables.consumed()
            _release()
        del names, ids
        self.counts.entities = mentions.size
        self.counts.relations = sum(len(x) for x in relations.subjects)
        m = self._mention_arrays(mentions)
        del mentions
        _release()
        entity_of, ent_cls, ent_keys = self._entity_codes(m, chunk_ids)
        del m["key"]  # a mention's key made its entity code
        _release()
        entities, ent_ids = self._entities(m, entity_of, ent_cls, ent_keys, own, chunk_ids, doc_ids)
        for column in ("ord", "record", "own"):  # the entities' provenance and own fields are rows now
            del m[column]
        _release()
        relations_table = self._relations(m, entity_of, ent_ids, relations, chunk_ids, doc_ids)
        _release()
        keys = self._keys(own, entity_of, ent_keys, entities["id"])
        concepts = self._concepts(parts)
        self.counts.concepts = sum(p.tables.concepts.num_rows for p in parts)
        return RecordsGraph(entities, relations_table, concepts, self.drops, self.retypes, self.counts,
                            self.counts.notes(self.missing), keys)

    def _own_records(self, parts: list[_Doc], mentions: _Mentions) -> dict[str, Any]:
        """The records themselves: one mention each, and what the index and their rows need."""
        out: dict[str, list[Any]] = {k: [] for k in ("first", "key", "alias_keys", "record_id", "fields",
                                                      "mention", "cls")}
        count = 0
        for part in parts:
            rec = part.tables.records
            n = rec.num_rows
            rows = _ints(rec["row"])
            cls = self._const_code(self.classes, part.mapper.checked.cls, n)
            numbers = mentions.add(rec["name"], rec["name_key"], cls, rows * _ROW_SHIFT + part.base,
                                   rows + part.first, np.arange(count, count + n, dtype=np.int64))
            out["first"].append(count)
            count += n
            out["mention"].append(numbers)
            out["cls"].append(cls)
            out["key"].append(_array(rec["name_key"]))
            out["alias_keys"].append(_array(rec["alias_keys"]))
            out["record_id"].append(_array(rec["record_id"]))
            fields = rec.select(list(_OWN_FIELDS))
            fields = fields.set_column(3, "properties", self._properties(part, rec["properties"]))
            out["fields"].append(fields)
        list_type = pa.list_(_S)
        return {
            "first": out["first"], "count": count, "mention": _cat(out["mention"]), "cls": _cat(out["cls"]),
            "key": _cat_arrow(out["key"]), "record_id": _cat_arrow(out["record_id"]),
            "name": _cat_arrow(mentions.names[:len(parts)]),
            "alias_keys": pa.concat_arrays([a.cast(list_type) for a in out["alias_keys"]]) if out["alias_keys"]
            else pa.array([], list_type),
            "fields": pa.concat_tables(out["fields"]).combine_chunks() if out["fields"] else None,
        }

    def _properties(self, part: _Doc, values: pa.ChunkedArray) -> pa.ChunkedArray | pa.Array:
        """Strict schemas drop undeclared properties, one note each (as validation does)."""
        cls = part.mapper.checked.cls
        undeclared = {k for k in part.mapper.checked.property_keys if self.schema.resolve_property(cls, k) is None}
        if not (self.strict and undeclared):
            return values
        names = part.tables.records["name"].to_pylist()
        rows = part.tables.records["row"].to_pylist()
        out: list[str | None] = []
        for row, name, raw in zip(rows, names, values.to_pylist(), strict=True):
            if raw is None:
                out.append(None)
                continue
            props = json.loads(raw)
            for key in sorted(undeclared & set(props)):
                del props[key]
                self.drops.append(Drop(stage=VALIDATE, reason=DropReason.UNDECLARED_PROPERTY, kind="entity",
                                       detail=f"'{name}' ({cls}).{key}", chunk_id=part.chunk_ids[row].as_py()))
            out.append(json.dumps(props, ensure_ascii=False, sort_keys=True) if props else None)
        return pa.array(out, pa.string())

    def _class_names(self) -> pa.Array:
        return pa.array(sorted(self.classes, key=self.classes.__getitem__), _S)

    def _wanted(self, parts: list[_Doc]) -> dict[tuple[int, str], pa.Array]:
        """The keys relation cells look up, by (target class, name or id): distinct, normalised for names."""
        wanted: dict[tuple[int, str], list[pa.Array]] = {}
        for part in parts:
            links = part.tables.links
            if links.num_rows == 0:
                continue
            slot = _ints(links["slot"])
            for k, (_, target_cls, by, _) in enumerate(part.tables.slots):
                if by not in ("name", "id"):
                    continue
                values = pc.unique(_array(links["value"]).filter(pa.array(slot == k)))
                if by == "name":
                    values = _per_distinct(values, normalize_name, _S)
                code = self.classes.setdefault(target_cls, len(self.classes))
                wanted.setdefault((code, by), []).append(values)
        return {key: pc.unique(pa.concat_arrays(arrays)) for key, arrays in wanted.items()}

    def _index(self, own: dict[str, Any], wanted: dict[tuple[int, str], pa.Array]
               ) -> tuple[dict[int, _Index], dict[int, _Index]]:
        """Relation targets by name or alias and by record id, one index per class, holding only
        the keys some relation cell looks up (an index costs what is asked of it, not the size of
        the table); first record wins."""
        ords = np.arange(own["count"], dtype=np.int64) * 2  # own records are in corpus order
        flat = _array(pc.list_flatten(own["alias_keys"]))
        parents = _ints(pc.list_parent_indices(own["alias_keys"]))
        has_id = _ints(pc.not_equal(own["record_id"], "")).astype(bool) if own["count"] else np.empty(0, bool)
        names: dict[int, _Index] = {}
        ids: dict[int, _Index] = {}
        for (code, by), asked in wanted.items():
            mine = np.flatnonzero(own["cls"] == code)
            if by == "name":
                aliases = np.flatnonzero(own["cls"][parents] == code) if len(parents) else np.empty(0, np.int64)
                keys = pa.concat_arrays([own["key"].take(pa.array(mine)), flat.take(pa.array(aliases))])
                key_ords = np.concatenate([ords[mine], ords[parents[aliases]] + 1])  # a name, then its aliases
                owners = np.concatenate([mine, parents[aliases]])
            else:
                owners = mine[has_id[mine]]
                keys, key_ords = own["record_id"].take(pa.array(owners)), ords[owners]
            hit = pc.is_in(keys, value_set=asked).to_numpy(zero_copy_only=False)
            index = _Index.of(keys.filter(pa.array(hit)), key_ords[hit], owners[hit])
            (names if by == "name" else ids)[code] = index
        return names, ids

    def _links(self, part: _Doc, first: int, own: dict[str, Any], names: dict[int, _Index],
               ids: dict[int, _Index], mentions: _Mentions, relations: _Relations) -> None:
        links = part.tables.links
        if links.num_rows == 0:
            return
        n = links.num_rows
        # The record of each link: its number among the own records (records[row], in row order),
        # which is also the number of its own mention.
        # Both are in row order, so a sorted search finds it (no hash table of the file's rows).
        rows = _ints(links["row"])
        subject = (first + np.searchsorted(_ints(part.tables.records["row"]), rows)).astype(np.int32)
        ords = rows * _ROW_SHIFT + part.base + _ints(links["pos"])
        slot = _ints(links["slot"]).astype(np.int32)
        predicate, target_cls, by, column = (list(v) for v in zip(*part.tables.slots, strict=True))
        value = _array(links["value"])
        value_key = _per_distinct(value, normalize_name, _S)
        slot_cls = np.array([self.classes.setdefault(c, len(self.classes)) for c in target_cls], dtype=np.int32)
        cls_codes = slot_cls[slot]
        slot_by = np.array(by)
        owner = np.full(n, -1, dtype=np.int32)  # own records number below 2**31 (`_cat32`)
        is_name, is_id = (slot_by == "name")[slot], (slot_by == "id")[slot]
        for k, (cls_code, how) in enumerate(zip(slot_cls.tolist(), by, strict=True)):
            here = np.flatnonzero(slot == k)
            index = (names if how == "name" else ids if how == "id" else {}).get(cls_code)
            if index is not None and len(here):
                owner[here] = index.lookup((value_key if how == "name" else value).take(pa.array(here)))
        lookup = is_name | is_id
        missing = lookup & (owner < 0)
        keep = ~missing
        if missing.any():
            # One `file:line` note per missing target either way: a drop, or a stub's retype note.
            lines = _ints(part.tables.rows["line"])  # by row: the rows table holds every kept record
            for i in np.flatnonzero(missing).tolist():
                where = link_place(f"{part.doc.source}:{lines[rows[i]]}", column[slot[i]])
                cell = (where, target_cls[slot[i]], by[slot[i]], value[i].as_py(), part.chunk_ids[rows[i]].as_py())
                if self.missing == "drop":
                    self.drops.append(dangling_drop(*cell))
                else:
                    self.retypes.append(stub_note(*cell))
            if self.missing == "drop":
                self.counts.dropped_targets += int(missing.sum())
            else:
                self.counts.stubs += int(missing.sum())  # a named stub: the value as written
                keep = np.ones(n, dtype=bool)
        # The target: the record the index names (its name and key: own record `owner` is the
        # pool's name `owner`), else the value as written.
        found = lookup & (owner >= 0)
        kept = np.flatnonzero(keep)
        shared, free = np.flatnonzero(keep & found), np.flatnonzero(keep & ~found)
        del is_name, is_id, lookup, missing, found
        objects = np.empty(n, dtype=np.int32)
        none = np.full(n, -1, dtype=np.int32)
        objects[shared] = mentions.add_shared(owner[shared], cls_codes[shared], ords[shared],
                                              rows[shared] + part.first, none[:len(shared)])
        objects[free] = mentions.add(value.take(pa.array(free)), value_key.take(pa.array(free)), cls_codes[free],
                                     ords[free], rows[free] + part.first, none[:len(free)])
        del owner, cls_codes, shared, free, value_key
        objects = objects[kept]
        pred_codes = np.array([self.predicates.setdefault(p, len(self.predicates)) for p in predicate],
                              dtype=np.int32)[slot]
        relations.add(subject[kept], objects, pred_codes[kept], ords[kept], rows[kept] + part.first,
                      pa.nulls(len(kept), _S))

    def _spo(self, part: _Doc, mentions: _Mentions, relations: _Relations) -> None:
        spo = part.tables.spo
        if spo.num_rows == 0:
            return
        n = spo.num_rows
        rows = _ints(spo["row"])
        base = rows * _ROW_SHIFT + part.base
        records = rows + part.first
        none = np.full(n, -1, dtype=np.int64)
        ends = {}
        for end, offset in (("subject", 1), ("object", 2)):
            keys = _per_distinct(spo[end], normalize_name, _S)
            ends[end] = mentions.add(spo[end], keys, self._code(self.classes, spo[f"{end}_class"]), base + offset,
                                     records, none)
        relations.add(ends["subject"], ends["object"], self._code(self.predicates, spo["predicate"]), base + 3,
                      records, _array(spo["properties"]))

    # ------------------------------------------------ validation and entity codes

    def _mention_arrays(self, mentions: _Mentions) -> dict[str, Any]:
        """Each column in one array, its parts let go as soon as it is made (never two copies of all)."""
        out: dict[str, Any] = {}
        for name, parts, cat in (("name", mentions.names, _cat_arrow), ("key", mentions.keys, _cat_arrow),
                                 ("name_at", mentions.name_at, _cat32), ("cls", mentions.cls, _cat32),
                                 ("ord", mentions.ords, _cat), ("record", mentions.records, _cat32),
                                 ("own", mentions.owns, _cat32)):
            out[name] = cat(parts)
            parts.clear()
        return out

    def _entity_codes(self, m: dict[str, Any], chunk_ids: pa.Array) -> tuple[np.ndarray, np.ndarray, pa.Array]:
        """Per mention, its entity (-1: the mention was dropped); per entity, its class code and key.
        Classes the schema lacks (an SPO file's classes, spelled freely) become the fallback class
        (a retype note each), or are dropped when strict; names the schema's rules refuse are
        dropped (a note each), as validation does."""
        cls = m["cls"]
        names = self._class_names().to_pylist()
        bad = np.zeros(len(cls), dtype=bool)
        for code, name in enumerate(names):
            resolved = self.schema.resolve_class(name)
            if resolved == name:
                continue
            here = np.flatnonzero(cls == code)
            target = resolved or (None if self.strict else self.schema.fallback_class)
            # An alias the schema resolves is renamed silently; an unknown class gets a note per mention.
            for i in (here.tolist() if resolved is None else []):
                mention, chunk_id = m["name"][m["name_at"][i]].as_py(), chunk_ids[m["record"][i]].as_py()
                if target is None:
                    self.drops.append(Drop(stage=VALIDATE, reason=DropReason.UNKNOWN_CLASS, kind="entity",
                                           detail=f"'{mention}': {name!r}", chunk_id=chunk_id))
                else:
                    self.retypes.append(Retype(stage=VALIDATE, reason=RetypeReason.UNKNOWN_CLASS_TO_FALLBACK,
                                               kind="entity", detail=f"'{mention}': {name!r} -> {target}",
                                               chunk_id=chunk_id))
            if target is None:
                bad[here] = True
            else:
                cls[here] = self.classes.setdefault(target, len(self.classes))
        # Names the rules may refuse: empty, too long, or without a letter or digit. RE2's \pL and
        # \pN are what str.isalpha and str.isnumeric accept, so a name it finds one in is kept;
        # the others are judged by `_name_problem` itself.
        length = pc.utf8_length(m["name"])
        doubtful = _ints(pc.or_(pc.or_(pc.equal(length, 0), pc.greater(length, MAX_NAME_CHARS)),
                                pc.invert(pc.match_substring_regex(m["name"], r"[\pL\pN]")))).astype(bool)
        for i in np.flatnonzero(doubtful[m["name_at"]] & ~bad).tolist():
            name = m["name"][m["name_at"][i]].as_py()
            problem = name_problem(name)
            if problem is None:
                continue
            bad[i] = True
            self.drops.append(Drop(stage=VALIDATE, reason=problem, kind="entity",
                                   detail=f"'{name[:80]}' ({names[cls[i]]})",
                                   chunk_id=chunk_ids[m["record"][i]].as_py()))
        key_codes, distinct_keys = _encoded(m["key"])  # the pool's: each name once
        combined = key_codes[m["name_at"]] * max(len(self.classes), 1) + cls
        combined[bad] = -1
        uniq, inverse = np.unique(combined, return_inverse=True)
        entity_of = inverse.astype(np.int32)
        if len(uniq) and uniq[0] == -1:
            entity_of -= 1  # the dropped mentions' group is -1
            uniq = uniq[1:]
        entity_of[bad] = -1
        ent_cls = uniq % max(len(self.classes), 1)
        ent_keys = distinct_keys.take(pa.array(uniq // max(len(self.classes), 1)))
        return entity_of, ent_cls, ent_keys

    # ------------------------------------------------ rows

    def _entities(self, m: dict[str, Any], entity_of: np.ndarray, ent_cls: np.ndarray, ent_keys: pa.Array,
                  own: dict[str, Any], chunk_ids: pa.Array, doc_ids: pa.Array) -> tuple[pa.Table, pa.Array]:
        """One row per entity: the record's own fields (merged when several records share the id),
        the first mention's name otherwise; every mentioning record as provenance."""
        ent_ids = _ids("ent", _dict(ent_cls, self._class_names()), ent_keys)  # `Entity.id_of_key` of each
        valid = np.flatnonzero(entity_of >= 0).astype(np.int32)
        order, new, starts = _group(entity_of[valid], m["ord"][valid])
        rows = valid[order]  # mention numbers, sorted by (entity, order)
        del valid, order
        owner = m["own"][rows]
        counts = np.add.reduceat((owner >= 0).astype(np.int64), starts) if len(starts) else np.empty(0, np.int64)
        chosen = np.maximum.reduceat(owner, starts) if len(starts) else np.empty(0, np.int64)
        fields = own["fields"] if own["fields"] is not None else pa.table(
            {"name": pa.array([], _S), "aliases": pa.array([], pa.list_(_S)), "description": pa.array([], _S),
             "properties": pa.array([], _S), "semantic_type": pa.array([], _S)})
        shared = np.flatnonzero(counts > 1)
        if len(shared):  # several records of one id (names equal once normalised): merged by the rules
            group_of = np.cumsum(new) - 1
            members = owner[np.isin(group_of, shared) & (owner >= 0)]
            merged = self._merged_own(fields.take(pa.array(members)),
                                      ent_ids.take(pa.array(entity_of[own["mention"][members]])).to_pylist())
            groups = entity_of[rows[starts[shared]]]
            at = pc.index_in(ent_ids.take(pa.array(groups)), value_set=merged[0]).to_numpy()
            chosen[shared] = fields.num_rows + at
            fields = pa.concat_tables([fields, merged[1].cast(fields.schema)])
        own_fields = fields.take(pa.array(chosen, mask=counts == 0))
        own["fields"] = fields = None  # taken into entity order: the records' copy can go
        n = len(starts)
        group_entities = entity_of[rows[starts]]
        first_names = m["name"].take(pa.array(m["name_at"][rows[starts]]))
        empty_list = pa.array([[]] * n, pa.list_(_S)) if n else pa.array([], pa.list_(_S))
        zeros = np.zeros(n, dtype=np.int32)
        columns = {
            "id": ent_ids.take(pa.array(group_entities)),
            "name": pc.coalesce(own_fields["name"], first_names),
            "spg_class": _dict(ent_cls[group_entities], self._class_names()),
            "semantic_type": own_fields["semantic_type"], "description": pc.coalesce(own_fields["description"], ""),
            "summary": _dict(zeros, [""]), "aliases": pc.coalesce(own_fields["aliases"], empty_list),
            "properties": pc.coalesce(own_fields["properties"], "{}"),
            "chunk_ids": _distinct_lists(m["record"][rows], new, chunk_ids),
            "doc_ids": _distinct_lists(m["ord"][rows] // _DOC_SHIFT, new, doc_ids),
        }
        # Columns of repeated values stay dictionary-encoded until written (`Workspace.write_parts`).
        table = pa.table({name: columns[name] for name in SCHEMAS["entities"].names})
        return table, ent_ids

    @staticmethod
    def _merged_own(rows: pa.Table, ids: list[str]) -> tuple[pa.Array, pa.Table]:
        """Records sharing an entity id (same class, names equal once normalised) merged by the
        rules of `kgbuild.merge`, in corpus order: (ids, their fields)."""
        merged: MergeTable[Entity] = MergeTable()
        for entity_id, row in zip(ids, rows.to_pylist(), strict=True):
            merged.add(Entity(id=entity_id, name=row["name"], spg_class="", aliases=row["aliases"],
                              description=row["description"] or "", semantic_type=row["semantic_type"],
                              properties=json.loads(row["properties"]) if row["properties"] else {}))
        out = merged.values()
        return pa.array([e.id for e in out], _S), pa.table({
            "name": pa.array([e.name for e in out], _S), "aliases": pa.array([e.aliases for e in out], pa.list_(_S)),
            "description": pa.array([e.description for e in out], _S),
            "properties": pa.array([json.dumps(e.properties, ensure_ascii=False, sort_keys=True) if e.properties
                                    else None for e in out], _S),
            "semantic_type": pa.array([e.semantic_type for e in out], _S)})

    def _relations(self, m: dict[str, Any], entity_of: np.ndarray, ent_ids: pa.Array, relations: _Relations,
                   chunk_ids: pa.Array, doc_ids: pa.Array) -> pa.Table:
        if not any(len(part) for part in relations.subjects):
            return SCHEMAS["relations"].empty_table()

        def taken(parts: list[Any], cat: Callable[[list[Any]], Any]) -> Any:
            out = cat(parts)
            parts.clear()  # one column's parts let go as soon as it is one array
            return out

        subjects, objects = taken(relations.subjects, _cat32), taken(relations.objects, _cat32)
        predicates, ords = taken(relations.predicates, _cat32), taken(relations.ords, _cat)
        records, properties = taken(relations.records, _cat32), taken(relations.properties, _cat_arrow)
        s_ent, o_ent = entity_of[subjects], entity_of[objects]
        class_of = np.full(len(ent_ids), -1, dtype=np.int64)
        valid = entity_of >= 0
        class_of[entity_of[valid]] = m["cls"][valid]
        predicate_names = sorted(self.predicates, key=self.predicates.__getitem__)
        class_names = self._class_names().to_pylist()
        fallback = self.schema.fallback_class
        checked: dict[tuple[int, int, int], bool] = {}

        def refuses(p: int, sc: int, oc: int) -> bool:
            if (p, sc, oc) not in checked:
                s_name, o_name = class_names[sc], class_names[oc]
                checked[(p, sc, oc)] = (self.strict or fallback not in (s_name, o_name)) and \
                    not self.schema.relation_allows(predicate_names[p], s_name, o_name)
            return checked[(p, sc, oc)]

        dangling_s, dangling_o = s_ent < 0, o_ent < 0
        loop = (s_ent == o_ent) & ~dangling_s
        ok = ~(dangling_s | dangling_o | loop)
        n_cls = max(len(class_names), 1)
        triple = (predicates.astype(np.int64) * n_cls + class_of[np.maximum(s_ent, 0)]) * n_cls + \
            class_of[np.maximum(o_ent, 0)]
        combos, inverse = np.unique(triple[ok], return_inverse=True)
        refused_combo = np.array([refuses(int(c) // (n_cls * n_cls), int(c) // n_cls % n_cls, int(c) % n_cls)
                                  for c in combos], dtype=bool)
        refused = np.zeros(len(subjects), dtype=bool)
        refused[ok] = refused_combo[inverse.ravel()] if len(combos) else False
        del triple, combos, inverse
        flags = dangling_s | dangling_o | loop | refused
        for i in np.flatnonzero(flags).tolist():
            triple = (f"({m['name'][m['name_at'][subjects[i]]].as_py()}, {predicate_names[predicates[i]]}, "
                      f"{m['name'][m['name_at'][objects[i]]].as_py()})")
            if dangling_s[i]:
                reason, detail = DropReason.DANGLING_SUBJECT, triple
            elif dangling_o[i]:
                reason, detail = DropReason.DANGLING_OBJECT, triple
            elif loop[i]:
                reason, detail = DropReason.SELF_LOOP, triple
            else:
                reason = DropReason.DOMAIN_RANGE_VIOLATION
                detail = (f"{predicate_names[predicates[i]]} does not accept {class_names[class_of[s_ent[i]]]} -> "
                          f"{class_names[class_of[o_ent[i]]]}: {triple}")
            self.drops.append(Drop(stage=VALIDATE, reason=reason, kind="relation", detail=detail,
                                   chunk_id=chunk_ids[records[i]].as_py()))
        del dangling_s, dangling_o, loop, ok, refused
        kept = np.flatnonzero(~flags).astype(np.int32)  # relation mentions number below 2**31 (`_cat32`)
        del flags
        n_pred, n_ent = max(len(predicate_names), 1), max(len(ent_ids), 1)
        combined = (s_ent[kept].astype(np.int64) * n_pred + predicates[kept]) * n_ent + o_ent[kept]
        order, new, starts = _group(combined, ords[kept])  # one sort: the triple's key, then the order key
        del combined
        rows = kept[order]
        del kept, order
        firsts = rows[starts]
        g = len(starts)
        # Per triple, what its first row says; per row, its record and document: the per-mention
        # arrays (a million records' worth each) go before the columns are built.
        s_first, o_first, p_first = s_ent[firsts], o_ent[firsts], predicates[firsts]
        s_names, o_names = m["name_at"][subjects[firsts]], m["name_at"][objects[firsts]]
        del s_ent, o_ent, subjects, objects, predicates, firsts
        row_records = records[rows]
        row_docs = (ords[rows] // _DOC_SHIFT).astype(np.int32)
        del records, ords
        merged_properties = self._merged_properties(properties, rows, new, g)
        del properties, rows
        zeros = np.zeros(g, dtype=np.int32)
        subject_ids, object_ids = _dict(s_first, ent_ids), _dict(o_first, ent_ids)
        classes = self._class_names()
        columns = {
            "id": self._relation_ids(subject_ids, p_first, object_ids, predicate_names),
            "subject_id": subject_ids, "subject_name": _dict(s_names, m["name"]),
            "subject_kind": _dict(zeros, ["entity"]), "predicate": _dict(p_first, predicate_names),
            "object_id": object_ids, "object_name": _dict(o_names, m["name"]),
            "object_kind": _dict(zeros, ["entity"]),
            "properties": merged_properties,
            "chunk_ids": _distinct_lists(row_records, new, chunk_ids),
            "subject_class": _dict(class_of[s_first], classes),
            "object_class": _dict(class_of[o_first], classes),
            "doc_ids": _distinct_lists(row_docs, new, doc_ids),
        }
        # Columns of repeated values stay dictionary-encoded until written (`Workspace.write_parts`).
        return pa.table({name: columns[name] for name in SCHEMAS["relations"].names})

    @staticmethod
    def _relation_ids(subjects: pa.Array, predicates: np.ndarray, objects: pa.Array, names: list[str]) -> pa.Array:
        """`Relation.make_id` of each triple (`Relation.id_of_key`: the predicate normalised)."""
        return _ids("rel", subjects, _dict(predicates, [normalize_name(p) for p in names]), objects)

    @staticmethod
    def _merged_properties(properties: pa.Array, rows: np.ndarray, new: np.ndarray, groups: int) -> pa.Array:
        """Per triple, the properties of the rows that say it, merged key-wise (first non-empty
        value wins), as the `properties` column's sorted JSON."""
        said = pc.is_valid(properties).to_numpy(zero_copy_only=False)[rows]
        if not said.any():
            return _dict(np.zeros(groups, dtype=np.int32), ["{}"])
        group_of = np.cumsum(new) - 1
        merged: dict[int, dict[str, str]] = {}
        raw = properties.take(pa.array(rows[said])).to_pylist()
        for group, text in zip(group_of[said].tolist(), raw, strict=True):
            into = merged.setdefault(group, {})
            for key, value in json.loads(text).items():
                if value and not into.get(key):
                    into[key] = value
                else:
                    into.setdefault(key, value)
        out: list[str] = ["{}"] * groups
        for group, props in merged.items():
            out[group] = json.dumps(props, ensure_ascii=False, sort_keys=True)
        return pa.array(out, _S)

    @staticmethod
    def _keys(own: dict[str, Any], entity_of: np.ndarray, ent_keys: pa.Array, ids: pa.ChunkedArray) -> pa.Table:
        """(normalised name or alias, entity row) of every entity row (row k is entity k), for `bring_in`."""
        ids = _array(ids)
        own_entity = entity_of[own["mention"]]
        flat = _array(pc.list_flatten(own["alias_keys"]))
        alias_entity = own_entity[_ints(pc.list_parent_indices(own["alias_keys"]))]
        ok = alias_entity >= 0
        entity_rows = np.arange(len(ids), dtype=np.int32)
        return pa.table({"key": pa.concat_arrays([ent_keys, flat.filter(pa.array(ok))]),
                         "row": pa.array(np.concatenate([entity_rows, alias_entity[ok].astype(np.int32)]))})

    def _concepts(self, parts: list[_Doc]) -> list[Concept]:
        """A hierarchy's parts as concepts: each isA the one before it; the last part cites the record."""
        merged: MergeTable[Concept] = MergeTable()
        ids: dict[str, str] = {}

        def concept_id(name: str) -> str:
            if name not in ids:
                ids[name] = Concept.make_id(name)
            return ids[name]

        for part in parts:
            table = part.tables.concepts
            if table.num_rows == 0:
                continue
            # Every part cites the record, as validation has every concept of an extraction cite its chunk.
            cites = part.chunk_ids.take(table["row"]).to_pylist()
            for name, parent, chunk in zip(table["name"].to_pylist(), table["parent"].to_pylist(), cites,
                                           strict=True):
                merged.add(Concept(id=concept_id(name), name=name,
                                   parents=[concept_id(parent)] if parent is not None else [], chunk_ids=[chunk]))
        return merged.values()

