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
import orjson
import pyarrow as pa
import pyarrow.compute as pc

from kgbuild.ids import normalize_name, stable_id
from kgbuild.ingest.readers.problems import BadInput
from kgbuild.merge import MergeTable
from kgbuild.model import Concept, Document, Drop, DropReason, Entity, Relation, Retype, RetypeReason
from kgbuild.record_mapping import RecordsConfig
from kgbuild.records.columns import ColumnsBuilder, MappedTables
from kgbuild.records.documents import is_records, record_chunk_ids
from kgbuild.records.mapper import RecordMapper, check_mapping, dangling_drop
from kgbuild.schema import Schema
from kgbuild.tables import CODECS, SCHEMAS

VALIDATE = "validate"  # the stage named in drop notes, as for extracted items
MAX_NAME_CHARS = 200

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


def _array(values: pa.Array | pa.ChunkedArray) -> pa.Array:
    return values.combine_chunks() if isinstance(values, pa.ChunkedArray) else values


def _joined(*columns: Any) -> pa.Array:
    """Columns joined by a unit separator into one key per row."""
    return _array(pc.binary_join_element_wise(*columns, "\x1f"))


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


def _entity_id(joined: str) -> str:
    """`Entity.make_id` of a `class\x1fnormalised name` key."""
    cls, key = joined.split("\x1f", 1)
    return stable_id("ent", cls, key)


def _name_problem(name: str) -> DropReason | None:
    if not name:
        return DropReason.EMPTY_NAME
    if len(name) > MAX_NAME_CHARS:
        return DropReason.NAME_TOO_LONG
    if not any(ch.isalnum() for ch in name):
        return DropReason.NAME_WITHOUT_LETTERS
    return None


def _changes(values: pa.Array) -> np.ndarray:
    """Per row, whether it differs from the row before (the first row does)."""
    n = len(values)
    out = np.ones(n, dtype=bool)
    if n > 1:
        out[1:] = pc.not_equal(values.slice(1), values.slice(0, n - 1)).to_numpy(zero_copy_only=False)
    return out


@dataclass
class _Groups:
    """Rows sorted by (group code, order key): where each group starts, and its rows' columns."""

    rows: pa.Table  # sorted
    new: np.ndarray  # per row: the first of its group
    starts: np.ndarray  # row index of each group's first row
    codes: np.ndarray  # each group's code

    @classmethod
    def of(cls, table: pa.Table, codes: np.ndarray) -> _Groups:
        order = np.lexsort((table["ord"].to_numpy(), codes))
        sorted_codes = codes[order]
        new = np.ones(len(order), dtype=bool)
        new[1:] = sorted_codes[1:] != sorted_codes[:-1]
        starts = np.flatnonzero(new)
        return cls(table.take(pa.array(order)), new, starts, sorted_codes[starts])

    def first(self, column: str) -> pa.Array:
        return _array(self.rows[column]).take(pa.array(self.starts))

    def distinct_lists(self, column: str) -> pa.Array:
        """Per group, the distinct values of `column` in order; a value's rows are adjacent in a
        group (a record's mentions share its order key's high bits, a document's too)."""
        values = _array(self.rows[column])
        keep = self.new | _changes(values)
        kept = values.filter(pa.array(keep))
        offsets = np.append(np.flatnonzero(self.new[keep]), len(kept)).astype(np.int32)
        return pa.ListArray.from_arrays(pa.array(offsets), kept)


@dataclass
class _Doc:
    doc: Document
    mapper: RecordMapper
    tables: MappedTables
    chunk_ids: pa.Array  # per record row
    base: int  # order key of the document


def remap(doc: Document, chunks: pa.Table, mapper: RecordMapper) -> MappedTables:
    """The records of a held records document mapped again from its chunks' JSON (its file was not
    parsed this build: unchanged, or not among the sources)."""
    columns = ColumnsBuilder()
    for cid, text in zip(chunks["id"].to_pylist(), chunks["text"].to_pylist(), strict=True):
        value = orjson.loads(text)
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
    # (normalised name or alias, entity id) of every entity row: where `bring_in` finds shared names.
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
            codes, _ = _encoded(keys["key"])
            owners, _ = _encoded(keys["id"])
            pairs = np.unique(np.stack([codes, owners], axis=1), axis=0) if len(codes) else np.empty((0, 2), int)
            per_key = np.bincount(pairs[:, 0], minlength=int(codes.max(initial=-1)) + 1)
            shared = per_key[codes] > 1  # a name or alias two record entities answer to
            hit = pc.or_(pa.array(shared), pc.is_in(keys["key"], value_set=text))
            wanted = pc.unique(_array(keys["id"]).filter(hit))
            mask = pc.or_(pc.is_in(table["id"], value_set=wanted), pc.is_valid(table["semantic_type"]))
        self.keys = None  # asked once, by assembly
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
        mask = pc.or_(pc.or_(pc.is_in(table["subject_id"], value_set=moved),
                             pc.is_in(table["object_id"], value_set=moved)),
                      pc.is_in(table["id"], value_set=pa.array(list(taken), pa.string())))
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
                        record_chunks: Mapping[str, pa.Table], mapped: Mapping[str, MappedTables], *,
                        strict: bool = False) -> RecordsGraph:
    """The graph rows of every records document (`record_chunks`: doc id -> its chunk table;
    `mapped`: the records read this build, by doc id; the others are mapped again from their chunks)."""
    counts = RecordCounts()
    parts: list[_Doc] = []
    for index, doc_id in enumerate(sorted(record_chunks)):
        doc = docs.get(doc_id)
        if doc is None or not is_records(doc):
            continue
        mapper = _mapper(config, schema, doc)
        if mapper is None:
            counts.unmapped_files.append(doc.source)
            continue
        tables = mapped.get(doc_id)
        if tables is None:
            tables = remap(doc, record_chunks[doc_id], mapper)
        counts.files += 1
        counts.records += tables.rows.num_rows
        parts.append(_Doc(doc, mapper, tables, _array(record_chunk_ids(doc_id, tables.rows["line"])),
                          index * _DOC_SHIFT))
    return _Builder(schema, config.missing_targets, strict, counts).build(parts)


def _mapper(config: RecordsConfig, schema: Schema, doc: Document) -> RecordMapper | None:
    found = config.mapping_for(doc.source)
    if found is None:
        return None
    position, mapping = found
    try:
        checked = check_mapping(mapping, schema, f"records.files[{position}]")
    except BadInput:
        return None
    return RecordMapper(checked, schema, missing_targets=config.missing_targets)


def _const(value: Any, n: int, kind: pa.DataType | None = None) -> pa.Array:
    kind = kind or pa.string()
    return pa.array([value] * n, kind) if n else pa.array([], kind)


_S = pa.string()
_MENTION = pa.schema([("cls", _S), ("name", _S), ("key", _S), ("ord", pa.int64()), ("chunk_id", _S),
                      ("doc_id", _S), ("own", pa.int64())])
_REL = pa.schema([("subject_class", _S), ("subject_name", _S), ("subject_key", _S), ("predicate", _S),
                  ("object_class", _S), ("object_name", _S), ("object_key", _S), ("properties", _S),
                  ("ord", pa.int64()), ("chunk_id", _S), ("doc_id", _S)])
_OWN_FIELDS = ("name", "aliases", "description", "properties", "semantic_type")
_OWN = pa.schema([("cls", _S), ("name", _S), ("key", _S), ("ord", pa.int64()), ("chunk_id", _S), ("doc_id", _S),
                  ("record_id", _S), ("aliases", pa.list_(_S)), ("alias_keys", pa.list_(_S)),
                  ("description", _S), ("properties", _S), ("semantic_type", _S)])


@dataclass
class _Index:
    """(class, key) -> the record's name and key, first record wins (a `TargetIndex` as columns)."""

    keys: pa.Array  # distinct `class\x1fkey`
    names: pa.Array
    name_keys: pa.Array

    @classmethod
    def of(cls, joined: pa.Array, ords: np.ndarray, names: pa.Array, name_keys: pa.Array) -> _Index:
        order = np.argsort(ords, kind="stable")
        codes, distinct = _encoded(joined.take(pa.array(order)))
        _, first = np.unique(codes, return_index=True)  # codes are 0..len(distinct)-1, in dictionary order
        rows = pa.array(order[first])
        return cls(distinct, names.take(rows), name_keys.take(rows))

    def lookup(self, joined: pa.Array) -> tuple[pa.Array, pa.Array]:
        at = pc.index_in(joined, value_set=self.keys)
        return self.names.take(at), self.name_keys.take(at)


class _Builder:
    def __init__(self, schema: Schema, missing: str, strict: bool, counts: RecordCounts) -> None:
        self.schema = schema
        self.missing = missing
        self.strict = strict
        self.counts = counts
        self.drops: list[Drop] = []
        self.retypes: list[Retype] = []

    # ------------------------------------------------ the pieces of every file

    def build(self, parts: list[_Doc]) -> RecordsGraph:
        own = self._own_records(parts)
        names, ids = self._index(own)
        mentions: list[pa.Table] = [own.select(_MENTION.names)]
        relations: list[pa.Table] = []
        for part in parts:
            self._links(part, names, ids, mentions, relations)
            self._spo(part, mentions, relations)
        mention = pa.concat_tables([t.select(_MENTION.names).cast(_MENTION) for t in mentions])
        relation = pa.concat_tables([t.cast(_REL) for t in relations]) if relations else _REL.empty_table()
        mention, relation = self._classes(mention, relation)
        self.counts.entities = mention.num_rows
        self.counts.relations = relation.num_rows
        mention, relation = self._validated(mention, relation)
        entities, keys = self._entities(mention, own)
        relations_table = self._relations(relation)
        concepts = self._concepts(parts)
        self.counts.concepts = sum(p.tables.concepts.num_rows for p in parts)
        return RecordsGraph(entities, relations_table, concepts, self.drops, self.retypes, self.counts,
                            self.counts.notes(self.missing), keys)

    def _own_records(self, parts: list[_Doc]) -> pa.Table:
        tables = []
        for part in parts:
            rec = part.tables.records
            n = rec.num_rows
            rows = rec["row"]
            tables.append(pa.table({
                "cls": _const(part.mapper.checked.cls, n), "name": rec["name"], "key": rec["name_key"],
                "ord": pc.add(pc.multiply(rows, _ROW_SHIFT), part.base),
                "chunk_id": part.chunk_ids.take(rows), "doc_id": _const(part.doc.id, n),
                "record_id": rec["record_id"], "aliases": rec["aliases"], "alias_keys": rec["alias_keys"],
                "description": rec["description"], "properties": self._properties(part, rec["properties"]),
                "semantic_type": rec["semantic_type"]}).cast(_OWN))
        table = pa.concat_tables(tables) if tables else _OWN.empty_table()
        return table.append_column("own", pa.array(np.arange(table.num_rows, dtype=np.int64)))

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

    def _index(self, own: pa.Table) -> tuple[_Index, _Index]:
        """Relation targets by (class, name or alias) and by (class, record id); first record wins."""
        flat = _array(pc.list_flatten(own["alias_keys"]))
        parents = pa.array(_array(pc.list_parent_indices(own["alias_keys"])).to_numpy().astype(np.int64))
        cls, name, key, ords = (_array(own[c]) for c in ("cls", "name", "key", "ord"))
        ord_np = ords.to_numpy()
        names = _Index.of(
            pa.concat_arrays([_joined(cls, key), _joined(cls.take(parents), flat)]),
            np.concatenate([ord_np, ord_np[parents.to_numpy()] + 1]),  # a record's name, then its aliases
            pa.concat_arrays([name, name.take(parents)]), pa.concat_arrays([key, key.take(parents)]))
        with_id = own.filter(pc.not_equal(own["record_id"], ""))
        ids = _Index.of(_joined(with_id["cls"], with_id["record_id"]), _array(with_id["ord"]).to_numpy(),
                        _array(with_id["name"]), _array(with_id["key"]))
        return names, ids

    def _links(self, part: _Doc, names: _Index, ids: _Index, mentions: list[pa.Table],
               relations: list[pa.Table]) -> None:
        links = part.tables.links
        if links.num_rows == 0:
            return
        n = links.num_rows
        rec = part.tables.records
        # records[row] for each link: the records table has one row per kept class record, in row order.
        position = pc.index_in(links["row"], value_set=rec["row"])
        subject, subject_key = _array(rec["name"]).take(position), _array(rec["name_key"]).take(position)
        ords = pc.add(pc.add(pc.multiply(links["row"], _ROW_SHIFT), part.base), links["pos"])
        value, by, target_cls = _array(links["value"]), _array(links["by"]), _array(links["target_class"])
        value_key = _per_distinct(value, normalize_name, pa.string())
        by_name = names.lookup(_joined(target_cls, value_key))
        by_id = ids.lookup(_joined(target_cls, value))
        is_name, is_id = pc.equal(by, "name"), pc.equal(by, "id")
        target = pc.if_else(is_name, by_name[0], pc.if_else(is_id, by_id[0], value))
        target_key = pc.if_else(is_name, by_name[1], pc.if_else(is_id, by_id[1], value_key))
        missing = pc.is_null(target)
        n_missing = pc.sum(missing).as_py() or 0
        keep = pc.invert(missing)
        if n_missing:
            if self.missing == "drop":
                self.counts.dropped_targets += n_missing
                for i in pc.indices_nonzero(missing).to_pylist():
                    self.drops.append(dangling_drop(f"column {links['column'][i].as_py()!r}", target_cls[i].as_py(),
                                                    by[i].as_py(), value[i].as_py(),
                                                    part.chunk_ids[links["row"][i].as_py()].as_py()))
            else:
                self.counts.stubs += n_missing  # a named stub: the value as written
                target = pc.if_else(missing, value, target)
                target_key = pc.if_else(missing, value_key, target_key)
                keep = pa.array(np.ones(n, dtype=bool))
        chunk_ids = part.chunk_ids.take(links["row"])
        doc = _const(part.doc.id, n)
        mentions.append(pa.table({"cls": target_cls, "name": target, "key": target_key, "ord": ords,
                                  "chunk_id": chunk_ids, "doc_id": doc,
                                  "own": pa.array(np.full(n, -1, dtype=np.int64))}).filter(keep))
        relations.append(pa.table({
            "subject_class": _const(part.mapper.checked.cls, n), "subject_name": subject, "subject_key": subject_key,
            "predicate": links["predicate"], "object_class": target_cls, "object_name": target,
            "object_key": target_key, "properties": pa.nulls(n, pa.string()), "ord": ords, "chunk_id": chunk_ids,
            "doc_id": doc}).filter(keep))

    def _spo(self, part: _Doc, mentions: list[pa.Table], relations: list[pa.Table]) -> None:
        spo = part.tables.spo
        if spo.num_rows == 0:
            return
        n = spo.num_rows
        base = pc.add(pc.multiply(spo["row"], _ROW_SHIFT), part.base)
        chunk_ids = part.chunk_ids.take(spo["row"])
        doc = _const(part.doc.id, n)
        keys = {end: _per_distinct(spo[end], normalize_name, pa.string()) for end in ("subject", "object")}
        for end, offset in (("subject", 1), ("object", 2)):
            mentions.append(pa.table({"cls": spo[f"{end}_class"], "name": spo[end], "key": keys[end],
                                      "ord": pc.add(base, offset), "chunk_id": chunk_ids, "doc_id": doc,
                                      "own": pa.array(np.full(n, -1, dtype=np.int64))}))
        relations.append(pa.table({
            "subject_class": spo["subject_class"], "subject_name": spo["subject"], "subject_key": keys["subject"],
            "predicate": spo["predicate"], "object_class": spo["object_class"], "object_name": spo["object"],
            "object_key": keys["object"], "properties": spo["properties"], "ord": pc.add(base, 3),
            "chunk_id": chunk_ids, "doc_id": doc}))

    # ------------------------------------------------ validation, per distinct case

    def _classes(self, mention: pa.Table, relation: pa.Table) -> tuple[pa.Table, pa.Table]:
        """Classes the schema lacks (an SPO file's `subject_class` spelled freely): the fallback
        class, noted as a retype; dropped when strict."""
        unknown = [c for c in pc.unique(mention["cls"]).to_pylist() if self.schema.resolve_class(c) != c]
        if not unknown:
            return mention, relation
        fixed = {c: self.schema.resolve_class(c) for c in unknown}
        for row in mention.filter(pc.is_in(mention["cls"], value_set=pa.array(unknown, pa.string()))).to_pylist():
            if fixed[row["cls"]] is not None:
                continue
            if self.strict:
                self.drops.append(Drop(stage=VALIDATE, reason=DropReason.UNKNOWN_CLASS, kind="entity",
                                       detail=f"'{row['name']}': {row['cls']!r}", chunk_id=row["chunk_id"]))
            else:
                self.retypes.append(Retype(stage=VALIDATE, reason=RetypeReason.UNKNOWN_CLASS_TO_FALLBACK,
                                           kind="entity", detail=f"'{row['name']}': {row['cls']!r} -> "
                                           f"{self.schema.fallback_class}", chunk_id=row["chunk_id"]))

        def resolved(cls: str) -> str:
            if cls not in fixed:
                return cls
            return fixed[cls] or ("" if self.strict else self.schema.fallback_class)

        mention = mention.set_column(0, "cls", _per_distinct(mention["cls"], resolved, pa.string()))
        for end in ("subject_class", "object_class"):
            relation = relation.set_column(relation.schema.get_field_index(end), end,
                                           _per_distinct(relation[end], resolved, pa.string()))
        return mention, relation

    def _validated(self, mention: pa.Table, relation: pa.Table) -> tuple[pa.Table, pa.Table]:
        """Mentions of a name the schema's rules refuse (or of a class dropped above) leave, with
        the relations that need them; then self-loops and domain/range, once per distinct case.
        Every mention gets its entity id (`id`), every relation its ends' ids."""
        problems = {name: p for name in pc.unique(mention["name"]).to_pylist() if (p := _name_problem(name))}
        bad = pc.equal(mention["cls"], "")
        if problems:
            named = pc.is_in(mention["name"], value_set=pa.array(list(problems), pa.string()))
            bad = pc.or_(bad, named)
            for row in mention.filter(named).to_pylist():
                self.drops.append(Drop(stage=VALIDATE, reason=problems[row["name"]], kind="entity",
                                       detail=f"'{row['name'][:80]}' ({row['cls']})", chunk_id=row["chunk_id"]))
        mention = mention.filter(pc.invert(bad))
        joined = _joined(mention["cls"], mention["key"])
        mention = mention.append_column("id", _per_distinct(joined, _entity_id, pa.string()))
        if relation.num_rows == 0:
            return mention, relation.append_column("subject_id", pa.array([], _S)).append_column(
                "object_id", pa.array([], _S))
        entity_ids = _array(mention["id"])
        ends = {}
        for end in ("subject", "object"):
            at = pc.index_in(_joined(relation[f"{end}_class"], relation[f"{end}_key"]), value_set=joined)
            ends[end] = entity_ids.take(at)  # null: the end's mention left
        relation = relation.append_column("subject_id", ends["subject"]).append_column("object_id", ends["object"])
        dangling_s, dangling_o = pc.is_null(ends["subject"]), pc.is_null(ends["object"])
        loop = pc.fill_null(pc.equal(ends["subject"], ends["object"]), False)
        refused = self._refused(relation)
        flags = pc.or_(pc.or_(dangling_s, dangling_o), pc.or_(loop, refused))
        if pc.any(flags).as_py():
            why = pa.table({"s": dangling_s, "o": dangling_o, "loop": loop}).filter(flags).to_pylist()
            for row, flag in zip(relation.filter(flags).to_pylist(), why, strict=True):
                triple = f"({row['subject_name']}, {row['predicate']}, {row['object_name']})"
                if flag["s"]:
                    reason, detail = DropReason.DANGLING_SUBJECT, triple
                elif flag["o"]:
                    reason, detail = DropReason.DANGLING_OBJECT, triple
                elif flag["loop"]:
                    reason, detail = DropReason.SELF_LOOP, triple
                else:
                    reason = DropReason.DOMAIN_RANGE_VIOLATION
                    detail = (f"{row['predicate']} does not accept {row['subject_class']} -> "
                              f"{row['object_class']}: {triple}")
                self.drops.append(Drop(stage=VALIDATE, reason=reason, kind="relation", detail=detail,
                                       chunk_id=row["chunk_id"]))
            relation = relation.filter(pc.invert(flags))
        return mention, relation

    def _refused(self, relation: pa.Table) -> pa.Array:
        """Domain and range, checked once per (predicate, subject class, object class)."""
        fallback = self.schema.fallback_class

        def refuses(joined: str) -> bool:
            predicate, sc, oc = joined.split("\x1f")
            if not self.strict and fallback in (sc, oc):
                return False  # the fallback class means "type unknown": no check
            return not self.schema.relation_allows(predicate, sc, oc)

        joined = _joined(relation["predicate"], relation["subject_class"], relation["object_class"])
        return _per_distinct(joined, refuses, pa.bool_())

    # ------------------------------------------------ rows

    def _entities(self, mention: pa.Table, own: pa.Table) -> tuple[pa.Table, pa.Table]:
        """One row per entity id: the record's own fields (merged when several records share the
        id), the first mention's name otherwise; every mentioning record as provenance. Also the
        (normalised name or alias, entity id) pairs `bring_in` looks for shared names in."""
        codes, _ = _encoded(mention["id"])
        groups = _Groups.of(mention.select(["id", "name", "key", "cls", "ord", "chunk_id", "doc_id", "own"]), codes)
        owner = groups.rows["own"].to_numpy()
        counts = np.add.reduceat((owner >= 0).astype(np.int64), groups.starts)
        chosen = np.maximum.reduceat(owner, groups.starts)  # the one record of a group that has one
        fields = own.select(list(_OWN_FIELDS))
        shared = np.flatnonzero(counts > 1)
        if len(shared):  # several records of one id (equal names once normalised): merged by the rules
            group_of = np.cumsum(groups.new) - 1
            members = np.isin(group_of, shared) & (owner >= 0)
            merged = self._merged_own(own.take(pa.array(owner[members])))
            at = pc.index_in(groups.first("id").take(pa.array(shared)), value_set=merged["id"]).to_numpy()
            chosen[shared] = own.num_rows + at
            fields = pa.concat_tables([fields, merged.select(list(_OWN_FIELDS)).cast(fields.schema)])
        chosen = pa.array(chosen, mask=counts == 0)
        own_fields = fields.take(chosen)
        n = len(groups.starts)
        empty_list = pa.array([[]] * n, pa.list_(pa.string())) if n else pa.array([], pa.list_(pa.string()))
        ids = groups.first("id")
        columns = {
            "id": ids, "name": pc.coalesce(own_fields["name"], groups.first("name")), "spg_class": groups.first("cls"),
            "semantic_type": own_fields["semantic_type"], "description": pc.coalesce(own_fields["description"], ""),
            "summary": _const("", n), "aliases": pc.coalesce(own_fields["aliases"], empty_list),
            "properties": pc.coalesce(own_fields["properties"], "{}"),
            "chunk_ids": groups.distinct_lists("chunk_id"), "doc_ids": groups.distinct_lists("doc_id"),
        }
        table = pa.table({f.name: _array(columns[f.name]).cast(f.type) for f in SCHEMAS["entities"]},
                         schema=SCHEMAS["entities"])
        return table, self._keys(own, ids, groups.first("key"))

    @staticmethod
    def _keys(own: pa.Table, ids: pa.Array, keys: pa.Array) -> pa.Table:
        """(normalised name or alias, entity id) of every entity row."""
        own_ids = _per_distinct(_joined(own["cls"], own["key"]), _entity_id, pa.string())
        flat = _array(pc.list_flatten(own["alias_keys"]))
        parents = _array(pc.list_parent_indices(own["alias_keys"]))
        return pa.table({"key": pa.concat_arrays([_array(keys), flat]),
                         "id": pa.concat_arrays([_array(ids), own_ids.take(parents)])})

    @staticmethod
    def _merged_own(rows: pa.Table) -> pa.Table:
        """Records sharing an entity id (same class, names equal once normalised) merged by the
        rules of `kgbuild.merge`, in corpus order."""
        merged: MergeTable[Entity] = MergeTable()
        for row in rows.sort_by([("ord", "ascending")]).to_pylist():
            merged.add(Entity(id=_entity_id(f"{row['cls']}\x1f{row['key']}"), name=row["name"], spg_class=row["cls"],
                              aliases=row["aliases"], description=row["description"] or "",
                              semantic_type=row["semantic_type"],
                              properties=json.loads(row["properties"]) if row["properties"] else {}))
        out = merged.values()
        return pa.table({
            "id": pa.array([e.id for e in out], _S), "name": pa.array([e.name for e in out], _S),
            "aliases": pa.array([e.aliases for e in out], pa.list_(_S)),
            "description": pa.array([e.description for e in out], _S),
            "properties": pa.array([json.dumps(e.properties, ensure_ascii=False, sort_keys=True) if e.properties
                                    else None for e in out], _S),
            "semantic_type": pa.array([e.semantic_type for e in out], _S)})

    def _relations(self, relation: pa.Table) -> pa.Table:
        if relation.num_rows == 0:
            return SCHEMAS["relations"].empty_table()
        predicates = {p: normalize_name(p) for p in pc.unique(relation["predicate"]).to_pylist()}

        def relation_id(joined: str) -> str:
            subject, predicate, obj = joined.split("\x1f", 2)
            return stable_id("rel", subject, predicates[predicate], obj)

        joined = _joined(relation["subject_id"], relation["predicate"], relation["object_id"])
        codes, distinct = _encoded(joined)
        ids = pa.array([relation_id(j) for j in distinct.to_pylist()], _S)
        relation = relation.append_column("id", ids.take(pa.array(codes)))
        groups = _Groups.of(relation, codes)
        m = len(groups.starts)
        columns: dict[str, Any] = {c: groups.first(c) for c in (
            "id", "subject_id", "subject_name", "subject_class", "predicate", "object_id", "object_name",
            "object_class")}
        columns.update({"subject_kind": _const("entity", m), "object_kind": _const("entity", m),
                        "chunk_ids": groups.distinct_lists("chunk_id"), "doc_ids": groups.distinct_lists("doc_id"),
                        "properties": self._merged_properties(groups)})
        table = pa.table({f.name: _array(columns[f.name]).cast(f.type) for f in SCHEMAS["relations"]},
                         schema=SCHEMAS["relations"])
        return table

    @staticmethod
    def _merged_properties(groups: _Groups) -> pa.Array:
        """Per triple, the properties of the rows that say it, merged key-wise (first non-empty
        value wins), as the `properties` column's sorted JSON."""
        rows = groups.rows
        said = pc.is_valid(rows["properties"]).to_numpy(zero_copy_only=False)
        m = len(groups.starts)
        if not said.any():
            return _const("{}", m)
        group_of = np.cumsum(groups.new) - 1
        merged: dict[int, dict[str, str]] = {}
        raw = _array(rows["properties"]).filter(pa.array(said)).to_pylist()
        for group, text in zip(group_of[said].tolist(), raw, strict=True):
            into = merged.setdefault(group, {})
            for key, value in json.loads(text).items():
                if value and not into.get(key):
                    into[key] = value
                else:
                    into.setdefault(key, value)
        out: list[str] = ["{}"] * m
        for group, props in merged.items():
            out[group] = json.dumps(props, ensure_ascii=False, sort_keys=True)
        return pa.array(out, _S)

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

