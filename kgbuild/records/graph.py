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


def _per_distinct(values: pa.Array | pa.ChunkedArray, fn: Callable[[str], Any], kind: pa.DataType) -> pa.Array:
    """`fn` over the distinct values of a string column, taken back to every row (ids and keys
    are computed once per name, not once per mention)."""
    encoded = _array(values).dictionary_encode()
    computed = pa.array([fn(v) for v in encoded.dictionary.to_pylist()], kind)
    return computed.take(encoded.indices)


def _entity_id(joined: str) -> str:
    cls, name = joined.split("\x1f", 1)
    return stable_id("ent", cls, normalize_name(name))


def _relation_id(joined: str) -> str:
    subject, predicate, obj = joined.split("\x1f", 2)
    return Relation.make_id(subject, predicate, obj)


def _name_problem(name: str) -> DropReason | None:
    if not name:
        return DropReason.EMPTY_NAME
    if len(name) > MAX_NAME_CHARS:
        return DropReason.NAME_TOO_LONG
    if not any(ch.isalnum() for ch in name):
        return DropReason.NAME_WITHOUT_LETTERS
    return None


def _aligned(ids: pa.Array | pa.ChunkedArray, table: pa.Table) -> pa.Table:
    """`table`'s rows (unique `id`s) in the order of `ids`, null where an id has none: a join
    that keeps list columns (Arrow's hash join does not carry them)."""
    return table.drop_columns(["id"]).take(pc.index_in(ids, value_set=table["id"]))


def _first_unique(table: pa.Table, keys: list[str], value: str) -> pa.Table:
    """The first row's `value` per distinct `keys`, in the table's order (`setdefault` semantics)."""
    grouped = table.group_by(keys, use_threads=False).aggregate([(value, "first")])
    return grouped.rename_columns([value if c == f"{value}_first" else c for c in grouped.column_names])


def _lists_by_id(table: pa.Table, value: str) -> pa.Table:
    """Per `id`, its distinct `value`s in order of first mention (`table` sorted by `ord`)."""
    firsts = table.group_by(["id", value], use_threads=False).aggregate([("ord", "min")])
    firsts = firsts.sort_by([("ord_min", "ascending")])
    return firsts.group_by("id", use_threads=False).aggregate([(value, "list")])


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
        if everything:
            mask = pa.array([True] * table.num_rows)
        else:
            keys = {normalize_name(label) for e in others for label in (e.name, *e.aliases)}
            names = _per_distinct(table["name"], normalize_name, pa.string())
            aliases = table["aliases"]
            flat = _array(pc.list_flatten(aliases))
            parents = _array(pc.list_parent_indices(aliases))
            alias_keys = _per_distinct(flat, normalize_name, pa.string()) if len(flat) else pa.array([], pa.string())
            every = pa.table({"key": pa.concat_arrays([names, alias_keys]),
                              "id": pa.concat_arrays([_array(table["id"]), _array(table["id"]).take(parents)])})
            counts = every.group_by("key").aggregate([("id", "count_distinct")])
            shared = counts.filter(pc.greater(counts["id_count_distinct"], 1))["key"]
            wanted = pa.concat_arrays([_array(shared), pa.array(sorted(keys), pa.string())])
            hit = every.filter(pc.is_in(every["key"], value_set=wanted))["id"]
            mask = pc.or_(pc.is_in(table["id"], value_set=_array(hit).unique()), pc.is_valid(table["semantic_type"]))
        chosen = table.filter(mask)
        self.entities = table.filter(pc.invert(mask))
        codec = CODECS["entities"]
        out = []
        for row in chosen.to_pylist():
            record = codec.from_row(row)
            out.append(Entity.model_validate(record.model_dump(exclude={"doc_ids"})))
        return out

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


_MENTION = pa.schema([("cls", pa.string()), ("name", pa.string()), ("ord", pa.int64()),
                      ("chunk_id", pa.string()), ("doc_id", pa.string())])
_REL = pa.schema([("subject_class", pa.string()), ("subject_name", pa.string()), ("predicate", pa.string()),
                  ("object_class", pa.string()), ("object_name", pa.string()), ("properties", pa.string()),
                  ("ord", pa.int64()), ("chunk_id", pa.string()), ("doc_id", pa.string())])


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
        mention = pa.concat_tables(mentions).sort_by([("ord", "ascending")])
        relation = pa.concat_tables([t.cast(_REL) for t in relations]) if relations else _REL.empty_table()
        mention, relation = self._classes(mention, relation)
        self.counts.entities = mention.num_rows
        self.counts.relations = relation.num_rows
        mention = mention.append_column("id", _per_distinct(
            pc.binary_join_element_wise(mention["cls"], mention["name"], "\x1f"), _entity_id, pa.string()))
        mention, relation = self._names(mention, relation)
        entities = self._entities(mention, own)
        relations_table = self._relations(relation)
        concepts = self._concepts(parts)
        self.counts.concepts = sum(p.tables.concepts.num_rows for p in parts)
        return RecordsGraph(entities, relations_table, concepts, self.drops, self.retypes, self.counts,
                            self.counts.notes(self.missing))

    def _own_records(self, parts: list[_Doc]) -> pa.Table:
        tables = []
        for part in parts:
            rec = part.tables.records
            n = rec.num_rows
            rows = rec["row"]
            tables.append(pa.table({
                "cls": _const(part.mapper.checked.cls, n), "name": rec["name"],
                "ord": pc.add(pc.multiply(rows, _ROW_SHIFT), part.base),
                "chunk_id": part.chunk_ids.take(rows), "doc_id": _const(part.doc.id, n),
                "name_key": rec["name_key"], "record_id": rec["record_id"], "aliases": rec["aliases"],
                "alias_keys": rec["alias_keys"], "description": rec["description"],
                "properties": self._properties(part, rec["properties"]), "semantic_type": rec["semantic_type"]}))
        if not tables:
            return pa.table({"cls": pa.array([], pa.string()), "name": pa.array([], pa.string()),
                             "ord": pa.array([], pa.int64()), "chunk_id": pa.array([], pa.string()),
                             "doc_id": pa.array([], pa.string()), "name_key": pa.array([], pa.string()),
                             "record_id": pa.array([], pa.string()),
                             "aliases": pa.array([], pa.list_(pa.string())),
                             "alias_keys": pa.array([], pa.list_(pa.string())),
                             "description": pa.array([], pa.string()), "properties": pa.array([], pa.string()),
                             "semantic_type": pa.array([], pa.string())})
        return pa.concat_tables(tables)

    def _properties(self, part: _Doc, values: pa.ChunkedArray) -> pa.ChunkedArray | pa.Array:
        """Strict schemas drop undeclared properties, one note each (as validation does)."""
        cls = part.mapper.checked.cls
        undeclared = {k for k in part.mapper.checked.property_keys if self.schema.resolve_property(cls, k) is None}
        if not (self.strict and undeclared):
            return values
        names = part.tables.records["name"].to_pylist()
        out: list[str | None] = []
        for row, (name, raw) in enumerate(zip(names, values.to_pylist(), strict=True)):
            if raw is None:
                out.append(None)
                continue
            props = json.loads(raw)
            for key in sorted(undeclared & set(props)):
                del props[key]
                self.drops.append(Drop(stage=VALIDATE, reason=DropReason.UNDECLARED_PROPERTY, kind="entity",
                                       detail=f"'{name}' ({cls}).{key}", chunk_id=part.chunk_ids[row].as_py()))
            out.append(json.dumps(props, ensure_ascii=False) if props else None)
        return pa.array(out, pa.string())

    def _index(self, own: pa.Table) -> tuple[pa.Table, pa.Table]:
        """(cls, key) -> name over names and aliases, and (cls, record id) -> name: first wins."""
        flat = pc.list_flatten(own["alias_keys"])
        parents = pc.list_parent_indices(own["alias_keys"])
        by_name = pa.concat_tables([
            pa.table({"cls": own["cls"], "key": own["name_key"], "target": own["name"], "ord": own["ord"]}),
            pa.table({"cls": _array(own["cls"]).take(_array(parents)), "key": flat,
                      "target": _array(own["name"]).take(_array(parents)),
                      "ord": pc.add(_array(own["ord"]).take(_array(parents)), 1)}),
        ]).sort_by([("ord", "ascending")])
        names = _first_unique(by_name.select(["cls", "key", "target"]), ["cls", "key"], "target")
        with_id = own.filter(pc.not_equal(own["record_id"], ""))
        ids = _first_unique(pa.table({"cls": with_id["cls"], "key": with_id["record_id"],
                                      "target": with_id["name"]}), ["cls", "key"], "target")
        return names, ids

    def _links(self, part: _Doc, names: pa.Table, ids: pa.Table, mentions: list[pa.Table],
               relations: list[pa.Table]) -> None:
        links = part.tables.links
        if links.num_rows == 0:
            return
        rec = part.tables.records
        # records[row] for each link: the records table has one row per kept class record, in row order.
        position = pc.index_in(links["row"], value_set=rec["row"])
        subject = _array(rec["name"]).take(position)
        ords = pc.add(pc.add(pc.multiply(links["row"], _ROW_SHIFT), part.base), links["pos"])
        keys = _per_distinct(links["value"], normalize_name, pa.string())
        table = pa.table({"n": pa.array(range(links.num_rows), pa.int64()), "cls": links["target_class"],
                          "by": links["by"], "value": links["value"], "key": keys})
        by_name = table.filter(pc.equal(table["by"], "name")).join(names, ["cls", "key"], join_type="left outer")
        by_id = table.filter(pc.equal(table["by"], "id")).join(
            ids, ["cls", "value"], right_keys=["cls", "key"], join_type="left outer")
        given = table.filter(pc.equal(table["by"], "given"))
        given = given.append_column("target", given["value"])
        cols = ["n", "target"]
        found = pa.concat_tables([by_name.select(cols), by_id.select(cols), given.select(cols)]).sort_by("n")
        target = _array(found["target"])
        missing = pc.is_null(target)
        n_missing = pc.sum(missing).as_py() or 0
        keep = pc.invert(missing)
        if n_missing:
            if self.missing == "drop":
                self.counts.dropped_targets += n_missing
                lost = pc.indices_nonzero(missing)
                for i in lost.to_pylist():
                    self.drops.append(dangling_drop(f"column {links['column'][i].as_py()!r}",
                                                    links["target_class"][i].as_py(), links["by"][i].as_py(),
                                                    links["value"][i].as_py(),
                                                    part.chunk_ids[links["row"][i].as_py()].as_py()))
            else:
                self.counts.stubs += n_missing
                target = pc.if_else(missing, links["value"], target)
                keep = pa.array([True] * links.num_rows)
        n = links.num_rows
        chunk_ids = part.chunk_ids.take(links["row"])
        cls = part.mapper.checked.cls
        kept = pa.table({"cls": links["target_class"], "name": target, "ord": ords, "chunk_id": chunk_ids,
                         "doc_id": _const(part.doc.id, n)}).filter(keep)
        mentions.append(kept)
        relations.append(pa.table({
            "subject_class": _const(cls, n), "subject_name": subject, "predicate": links["predicate"],
            "object_class": links["target_class"], "object_name": target, "properties": pa.nulls(n, pa.string()),
            "ord": ords, "chunk_id": chunk_ids, "doc_id": _const(part.doc.id, n)}).filter(keep))

    def _spo(self, part: _Doc, mentions: list[pa.Table], relations: list[pa.Table]) -> None:
        spo = part.tables.spo
        if spo.num_rows == 0:
            return
        n = spo.num_rows
        base = pc.add(pc.multiply(spo["row"], _ROW_SHIFT), part.base)
        chunk_ids = part.chunk_ids.take(spo["row"])
        doc = _const(part.doc.id, n)
        for end, offset in (("subject", 1), ("object", 2)):
            mentions.append(pa.table({"cls": spo[f"{end}_class"], "name": spo[end], "ord": pc.add(base, offset),
                                      "chunk_id": chunk_ids, "doc_id": doc}))
        relations.append(pa.table({
            "subject_class": spo["subject_class"], "subject_name": spo["subject"], "predicate": spo["predicate"],
            "object_class": spo["object_class"], "object_name": spo["object"], "properties": spo["properties"],
            "ord": pc.add(base, 3), "chunk_id": chunk_ids, "doc_id": doc}))

    # ------------------------------------------------ validation, per distinct case

    def _classes(self, mention: pa.Table, relation: pa.Table) -> tuple[pa.Table, pa.Table]:
        """Classes the schema lacks (an SPO file's `subject_class` spelled freely): the fallback
        class, noted as a retype; dropped when strict."""
        unknown = [c for c in pc.unique(mention["cls"]).to_pylist() if self.schema.resolve_class(c) != c]
        if not unknown:
            return mention, relation
        fixed = {c: self.schema.resolve_class(c) for c in unknown}
        bad = pa.array(unknown, pa.string())
        for row in mention.filter(pc.is_in(mention["cls"], value_set=bad)).to_pylist():
            cls = fixed[row["cls"]]
            if cls is not None:
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

    def _names(self, mention: pa.Table, relation: pa.Table) -> tuple[pa.Table, pa.Table]:
        """Mentions of a name the schema's rules refuse, or of a class dropped above, leave with
        the relations that need them; the relations' ends get their entity ids."""
        problems = {name: p for name in pc.unique(mention["name"]).to_pylist() if (p := _name_problem(name))}
        bad_mention = pc.equal(mention["cls"], "")
        if problems:
            bad_mention = pc.or_(bad_mention, pc.is_in(mention["name"], value_set=pa.array(list(problems))))
            for row in mention.filter(pc.is_in(mention["name"], value_set=pa.array(list(problems)))).to_pylist():
                self.drops.append(Drop(stage=VALIDATE, reason=problems[row["name"]], kind="entity",
                                       detail=f"'{row['name'][:80]}' ({row['cls']})", chunk_id=row["chunk_id"]))
        mention = mention.filter(pc.invert(bad_mention))
        n = relation.num_rows
        if n == 0:
            return mention, relation.append_column("subject_id", pa.array([], pa.string())).append_column(
                "object_id", pa.array([], pa.string()))
        s_id = _per_distinct(pc.binary_join_element_wise(relation["subject_class"], relation["subject_name"], "\x1f"),
                             _entity_id, pa.string())
        o_id = _per_distinct(pc.binary_join_element_wise(relation["object_class"], relation["object_name"], "\x1f"),
                             _entity_id, pa.string())
        relation = relation.append_column("subject_id", s_id).append_column("object_id", o_id)
        valid_ids = pc.unique(mention["id"])
        dangling_s = pc.invert(pc.is_in(relation["subject_id"], value_set=valid_ids))
        dangling_o = pc.invert(pc.is_in(relation["object_id"], value_set=valid_ids))
        loop = pc.equal(relation["subject_id"], relation["object_id"])
        refused = self._refused(relation)
        bad = pc.or_(pc.or_(dangling_s, dangling_o), pc.or_(loop, refused))
        if pc.any(bad).as_py():
            flags = pa.table({"s": dangling_s, "o": dangling_o, "loop": loop, "refused": refused})
            for row, flag in zip(relation.filter(bad).to_pylist(), flags.filter(bad).to_pylist(), strict=True):
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
            relation = relation.filter(pc.invert(bad))
        return mention, relation

    def _refused(self, relation: pa.Table) -> pa.Array:
        """Domain and range, checked once per (predicate, subject class, object class)."""
        fallback = self.schema.fallback_class

        def refuses(joined: str) -> bool:
            predicate, sc, oc = joined.split("\x1f")
            if not self.strict and fallback in (sc, oc):
                return False  # the fallback class means "type unknown": no check
            return not self.schema.relation_allows(predicate, sc, oc)

        joined = pc.binary_join_element_wise(relation["predicate"], relation["subject_class"],
                                             relation["object_class"], "\x1f")
        return _per_distinct(joined, refuses, pa.bool_())

    # ------------------------------------------------ rows

    def _entities(self, mention: pa.Table, own: pa.Table) -> pa.Table:
        """One row per entity id: the record's own fields (merged when several records share
        the id), the first mention's name otherwise; every mentioning record as provenance."""
        chunks = _lists_by_id(mention.select(["id", "chunk_id", "ord"]), "chunk_id")
        docs = _lists_by_id(mention.select(["id", "doc_id", "ord"]), "doc_id")
        first = mention.group_by("id", use_threads=False).aggregate([("name", "first"), ("cls", "first")])
        own_ids = pc.binary_join_element_wise(own["cls"], own["name"], "\x1f")
        own = own.append_column("id", _per_distinct(own_ids, _entity_id, pa.string()))
        own = own.filter(pc.is_in(own["id"], value_set=pc.unique(mention["id"])))
        counted = own.group_by("id").aggregate([("id", "count")])
        shared = counted.filter(pc.greater(counted["id_count"], 1))["id"]
        single = own.filter(pc.invert(pc.is_in(own["id"], value_set=shared)))
        fields = single.select(["id", "name", "aliases", "description", "properties", "semantic_type"])
        if len(shared):
            fields = pa.concat_tables([fields, self._merged_own(own.filter(pc.is_in(own["id"], value_set=shared)))])
        first = first.sort_by([("id", "ascending")])
        table = first
        for more in (fields, chunks, docs):
            aligned = _aligned(first["id"], more)
            for column in aligned.column_names:
                table = table.append_column(column, aligned[column])
        n = table.num_rows
        name = pc.coalesce(table["name"], table["name_first"])
        empty_list = pa.array([[]] * n, pa.list_(pa.string())) if n else pa.array([], pa.list_(pa.string()))
        columns = {
            "id": table["id"], "name": name, "spg_class": table["cls_first"],
            "semantic_type": table["semantic_type"], "description": pc.coalesce(table["description"], ""),
            "summary": _const("", n), "aliases": pc.coalesce(table["aliases"], empty_list),
            "properties": pc.coalesce(table["properties"], "{}"),
            "chunk_ids": table["chunk_id_list"], "doc_ids": table["doc_id_list"],
        }
        return pa.table({f.name: _array(columns[f.name]).cast(f.type) for f in SCHEMAS["entities"]},
                        schema=SCHEMAS["entities"])

    @staticmethod
    def _merged_own(rows: pa.Table) -> pa.Table:
        """Records sharing an entity id (same class, names equal once normalised) merged by the
        rules of `kgbuild.merge`, in corpus order."""
        merged: MergeTable[Entity] = MergeTable()
        for row in rows.sort_by([("ord", "ascending")]).to_pylist():
            merged.add(Entity(id=row["id"], name=row["name"], spg_class=row["cls"], aliases=row["aliases"],
                              description=row["description"] or "", semantic_type=row["semantic_type"],
                              properties=json.loads(row["properties"]) if row["properties"] else {}))
        out = merged.values()
        return pa.table({
            "id": pa.array([e.id for e in out], pa.string()), "name": pa.array([e.name for e in out], pa.string()),
            "aliases": pa.array([e.aliases for e in out], pa.list_(pa.string())),
            "description": pa.array([e.description for e in out], pa.string()),
            "properties": pa.array([json.dumps(e.properties, ensure_ascii=False) if e.properties else None
                                    for e in out], pa.string()),
            "semantic_type": pa.array([e.semantic_type for e in out], pa.string())})

    def _relations(self, relation: pa.Table) -> pa.Table:
        n = relation.num_rows
        if n == 0:
            return SCHEMAS["relations"].empty_table()
        joined = pc.binary_join_element_wise(relation["subject_id"], relation["predicate"], relation["object_id"],
                                             "\x1f")
        relation = relation.append_column("id", _per_distinct(joined, _relation_id, pa.string()))
        relation = relation.sort_by([("ord", "ascending")])
        chunks = _lists_by_id(relation.select(["id", "chunk_id", "ord"]), "chunk_id")
        docs = _lists_by_id(relation.select(["id", "doc_id", "ord"]), "doc_id")
        firsts = relation.group_by("id", use_threads=False).aggregate(
            [(c, "first") for c in ("subject_id", "subject_name", "subject_class", "predicate", "object_id",
                                    "object_name", "object_class")])
        firsts = firsts.rename_columns([c.removesuffix("_first") for c in firsts.column_names])
        props = self._merged_properties(relation.filter(pc.is_valid(relation["properties"])))
        table = firsts.sort_by([("id", "ascending")])
        for more in (chunks, docs, props):
            aligned = _aligned(table["id"], more)
            for column in aligned.column_names:
                table = table.append_column(column, aligned[column])
        m = table.num_rows
        columns = {
            "id": table["id"], "subject_id": table["subject_id"], "subject_name": table["subject_name"],
            "subject_kind": _const("entity", m), "predicate": table["predicate"], "object_id": table["object_id"],
            "object_name": table["object_name"], "object_kind": _const("entity", m),
            "properties": pc.coalesce(table["properties"], "{}"), "chunk_ids": table["chunk_id_list"],
            "subject_class": table["subject_class"], "object_class": table["object_class"],
            "doc_ids": table["doc_id_list"],
        }
        return pa.table({f.name: _array(columns[f.name]).cast(f.type) for f in SCHEMAS["relations"]},
                        schema=SCHEMAS["relations"])

    @staticmethod
    def _merged_properties(rows: pa.Table) -> pa.Table:
        """A triple's properties, merged key-wise over the rows that say it (first non-empty wins),
        as the `properties` column's sorted JSON."""
        merged: dict[str, dict[str, str]] = {}
        for rid, raw in zip(rows["id"].to_pylist(), rows["properties"].to_pylist(), strict=True):
            into = merged.setdefault(rid, {})
            for key, value in json.loads(raw).items():
                if value and not into.get(key):
                    into[key] = value
                else:
                    into.setdefault(key, value)
        return pa.table({"id": pa.array(list(merged), pa.string()),
                         "properties": pa.array([json.dumps(p, ensure_ascii=False, sort_keys=True)
                                                 for p in merged.values()], pa.string())})

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

