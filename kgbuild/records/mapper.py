"""One record -> the nodes and triples its mapping says it holds, each citing the record's chunk.

`check_mapping` reads a mapping against the schema once per file (an unknown class or predicate is
one problem for the file); `RecordMapper.map` turns one record into a `MappedRecord`: entities,
relations and concepts carrying the record's chunk id, plus one message per bad value. A value
that does not parse is left out (the rest of the record is kept); a record without a name is
left out whole. Relation targets are checked against a `TargetIndex` of every mapped record when
one is given (the build gives it; reading alone does not know the other files yet).
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from kgbuild.ids import normalize_name
from kgbuild.ingest.readers.problems import BadInput
from kgbuild.model import Concept, Drop, DropReason, Entity, Ref, Relation, Retype, RetypeReason
from kgbuild.record_mapping import FileMapping, RecordsConfig, RelationColumn
from kgbuild.records.values import BadValue, parse, split, text_of
from kgbuild.schema import Schema

STAGE = "records"


@dataclass(slots=True)
class RowOut:
    """One record mapped without the other files: plain values, no records (the build keeps a
    million of these as columns, `records.columns`). `links` are its relation cells still to be
    looked up among every mapped record: (predicate, target class, by, value) with `by` one of
    `name`, `id` or `given` (a hierarchy's parent: the named record itself)."""

    problems: list[str] = field(default_factory=list)  # one line each, without the `file:line` prefix
    skipped: bool = False  # nothing of the record is kept
    text: str = ""  # the text column, read as a document of its own
    name: str = ""
    name_key: str = ""  # `ids.normalize_name` of the name, and of each alias below
    record_id: str = ""
    aliases: list[str] = field(default_factory=list)
    alias_keys: list[str] = field(default_factory=list)
    description: str = ""
    properties: dict[str, list[str]] = field(default_factory=dict)
    semantic_type: str | None = None
    links: list[tuple[str, str, str, str, str]] = field(default_factory=list)  # + the column, for drop notes
    path: list[str] = field(default_factory=list)  # a hierarchy's parts: each a concept, each isA the one before
    # An SPO row: subject, its class, predicate, object, its class, the triple's properties.
    spo: tuple[str, str, str, str, str, dict[str, str]] | None = None


@dataclass
class MappedRecord:
    entities: list[Entity] = field(default_factory=list)
    relations: list[Relation] = field(default_factory=list)
    concepts: list[Concept] = field(default_factory=list)
    drops: list[Drop] = field(default_factory=list)
    retypes: list[Retype] = field(default_factory=list)  # a stub note each (`stub_note`)
    problems: list[str] = field(default_factory=list)  # one line each, without the `file:line` prefix
    skipped: bool = False  # nothing of the record is kept
    text: str = ""  # the text column, read as a document of its own
    name: str = ""
    stubs: int = 0  # relation targets no mapped record holds, kept as named stub nodes


@dataclass
class TargetIndex:
    """Every mapped record by class: its id and its names (name and aliases, normalised)."""

    ids: dict[str, dict[str, str]] = field(default_factory=dict)  # class -> record id -> name
    names: dict[str, dict[str, str]] = field(default_factory=dict)  # class -> normalised name/alias -> name

    def add(self, cls: str, record_id: str, name: str, aliases: Iterable[str]) -> None:
        if record_id:
            self.ids.setdefault(cls, {}).setdefault(record_id, name)
        names = self.names.setdefault(cls, {})
        for label in (name, *aliases):
            names.setdefault(normalize_name(label), name)

    def lookup(self, cls: str, value: str, by: str) -> str | None:
        if by == "id":
            return self.ids.get(cls, {}).get(value)
        return self.names.get(cls, {}).get(normalize_name(value))


def _resolve_class(schema: Schema, name: str, setting: str) -> str:
    cls = schema.resolve_class(name)
    if cls is None:
        close = difflib.get_close_matches(name, [*schema.entity_types, *schema.concept_types], n=1)
        hint = f"did you mean {close[0]!r}?" if close else "use one of its entity_types or concept_types"
        raise BadInput(f"{setting}: class {name!r} is not in schema '{schema.name}'; {hint} (file skipped)")
    return cls


def _resolve_predicate(schema: Schema, name: str) -> str | None:
    return schema.resolve_relation(name)


def predicate_ends(schema: Schema, predicate: str) -> tuple[list[str], list[str]]:
    """The domain and range of a declared predicate (swapped for an inverse name)."""
    for rel_name, rel in schema.relation_types.items():
        if predicate == rel_name:
            return list(rel.domain), list(rel.range)
        if rel.inverse and predicate == rel.inverse:
            return list(rel.range), list(rel.domain)
    return [], []


@dataclass(frozen=True)
class CheckedMapping:
    """A mapping with its classes and predicates resolved to the schema's spellings."""

    mapping: FileMapping
    cls: str
    relations: tuple[tuple[RelationColumn, str, str], ...]  # column, predicate, target class
    hierarchy_relation: str | None
    property_keys: tuple[str, ...] = ()  # the schema's spelling of each property column's property


def check_mapping(mapping: FileMapping, schema: Schema, where: str) -> CheckedMapping:
    """Resolve the mapping's names against the schema; BadInput names the setting otherwise."""
    if mapping.spo is not None:
        for key in ("subject_class", "object_class"):
            value = getattr(mapping.spo, key)
            if value is not None:
                _resolve_class(schema, value, f"{where}.spo.{key}")
        return CheckedMapping(mapping, "", (), None)
    assert mapping.class_ is not None
    cls = _resolve_class(schema, mapping.class_, f"{where}.class")
    relations = []
    for i, rel in enumerate(mapping.relations):
        predicate = _resolve_predicate(schema, rel.predicate)
        if predicate is None:
            raise BadInput(f"{where}.relations[{i}].predicate: {rel.predicate!r} is not a relation of schema "
                           f"'{schema.name}' (file skipped)")
        relations.append((rel, predicate, _resolve_class(schema, rel.target, f"{where}.relations[{i}].target")))
    hierarchy_relation = None
    if mapping.hierarchy is not None and mapping.hierarchy.relation:
        hierarchy_relation = _resolve_predicate(schema, mapping.hierarchy.relation)
        if hierarchy_relation is None:
            raise BadInput(f"{where}.hierarchy.relation: {mapping.hierarchy.relation!r} is not a relation of "
                           f"schema '{schema.name}' (file skipped)")
    keys = tuple(schema.resolve_property(cls, p.property or p.column) or p.property or p.column
                 for p in mapping.properties)
    return CheckedMapping(mapping, cls, tuple(relations), hierarchy_relation, keys)


def _entity(name: str, cls: str, chunk_id: str, **fields: Any) -> Entity:
    return Entity(id=Entity.make_id(name, cls), name=name, spg_class=cls, chunk_ids=[chunk_id], **fields)


def _ref(entity: Entity) -> Ref:
    # pydantic's model_construct measured slower than validating these small records (bench/structured.py)
    return Ref(kind="entity", id=entity.id, name=entity.name)


def _relation(subject: Entity, predicate: str, obj: Entity, chunk_id: str,
              properties: dict[str, str] | None = None) -> Relation:
    return Relation(id=Relation.make_id(subject.id, predicate, obj.id), subject=_ref(subject),
                                    predicate=predicate, object=_ref(obj), properties=properties or {},
                                    chunk_ids=[chunk_id])


class RecordMapper:
    def __init__(self, checked: CheckedMapping, schema: Schema, *, index: TargetIndex | None = None,
                 missing_targets: str = "stub") -> None:
        self.checked = checked
        self.mapping = checked.mapping
        self.schema = schema
        self.index = index
        self.missing_targets = missing_targets

    # ------------------------------------------------ identity (for the index)

    def identity(self, values: dict[str, Any]) -> tuple[str, str, list[str]] | None:
        """(record id, name, aliases) of a class record; None when it has no name."""
        m = self.mapping
        record_id = text_of(values.get(m.id)) if m.id else ""
        name = self._name(values, record_id)
        if not name:
            return None
        aliases = [a for col in m.aliases for a in split(values.get(col), m.alias_separator) if a != name]
        return record_id, name, list(dict.fromkeys(aliases))

    def _name(self, values: dict[str, Any], record_id: str) -> str:
        m = self.mapping
        if m.name:
            return text_of(values.get(m.name))
        if m.hierarchy is not None:
            parts = self._path(values)
            return parts[-1] if parts else ""
        return record_id

    def _path(self, values: dict[str, Any]) -> list[str]:
        assert self.mapping.hierarchy is not None
        h = self.mapping.hierarchy
        return [p.strip() for p in text_of(values.get(h.column)).split(h.separator) if p.strip()]

    # ------------------------------------------------ mapping

    def row(self, values: dict[str, Any]) -> RowOut:
        """The record mapped on its own (relation targets not looked up yet): what reading keeps
        of it, its problems, and whether it is skipped."""
        if self.mapping.spo is not None:
            return self._spo_row(values)
        return self._record_row(values)

    def map(self, values: dict[str, Any], chunk_id: str, where: str = "") -> MappedRecord:
        """One record as nodes and triples citing `chunk_id` (`where`: its `file:line`), its targets
        looked up in the index: the view of one record (`RecordExtractor`); a build maps its
        records as columns."""
        return self.objects(self.row(values), chunk_id, where)

    def _record_row(self, values: dict[str, Any]) -> RowOut:
        m, out = self.mapping, RowOut()
        name_col = m.name or (m.hierarchy.column if m.hierarchy else m.id)
        if name_col not in values:
            out.problems.append(f"no {name_col!r} in the record (record skipped)")
            out.skipped = True
            return out
        ident = self.identity(values)
        if ident is None:
            out.problems.append(f"empty name in column {name_col!r} (record skipped)")
            out.skipped = True
            return out
        out.record_id, out.name, aliases = ident
        out.name_key = key = normalize_name(out.name)
        for alias in aliases:
            alias_key = normalize_name(alias)
            if alias_key != key:  # a case variant says nothing new
                out.aliases.append(alias)
                out.alias_keys.append(alias_key)
        properties = out.properties
        for prop, prop_key in zip(m.properties, self.checked.property_keys, strict=True):
            if prop.column not in values:
                continue
            try:
                parsed = parse(values[prop.column], prop.parse, prop.separator)
            except BadValue as err:
                out.problems.append(f"column {prop.column!r}: {err} (value left out)")
                continue
            if not parsed:
                continue
            held = properties.get(prop_key)
            if held is None:
                properties[prop_key] = parsed
            else:
                held.extend(v for v in parsed if v not in held)
        if m.text:
            raw = values.get(m.text)
            out.text = raw if isinstance(raw, str) else text_of(raw)  # line breaks kept: they end paragraphs
        out.description = text_of(values.get(m.description)) if m.description else ""
        for rel, predicate, target_cls in self.checked.relations:
            for value in split(values.get(rel.column), rel.separator):
                out.links.append((predicate, target_cls, rel.by, value, rel.column))
        if m.hierarchy is not None:
            parts = self._path(values)
            if parts:
                out.path = parts
                # The record belongTo the concept of its last part (alignment links it by semantic type).
                out.semantic_type = parts[-1]
                if self.checked.hierarchy_relation and len(parts) > 1:
                    out.links.append((self.checked.hierarchy_relation, self.checked.cls, "given", parts[-2], ""))
        return out

    def objects(self, row: RowOut, chunk_id: str, where: str = "") -> MappedRecord:
        """`row` as records citing `chunk_id`, relation targets looked up in the index."""
        out = MappedRecord(problems=list(row.problems), skipped=row.skipped, text=row.text, name=row.name)
        if row.skipped:
            return out
        if row.spo is not None:
            s, s_cls, predicate, o, o_cls, properties = row.spo
            subject, obj = _entity(s, s_cls, chunk_id), _entity(o, o_cls, chunk_id)
            out.entities += [subject, obj] if obj.id != subject.id else [subject]
            out.relations.append(_relation(subject, predicate, obj, chunk_id, properties))
            return out
        cls = self.checked.cls
        entity = _entity(row.name, cls, chunk_id, aliases=list(row.aliases), description=row.description,
                         properties={k: list(v) for k, v in row.properties.items()},
                         semantic_type=row.semantic_type)
        out.entities.append(entity)
        seen = {entity.id}
        for predicate, target_cls, by, value, column in row.links:
            if by == "given":
                target: Entity | None = _entity(value, target_cls, chunk_id)
            else:
                target = self._target(target_cls, value, by, chunk_id, out, link_place(where, column))
            if target is None:
                continue
            out.relations.append(_relation(entity, predicate, target, chunk_id))
            if target.id not in seen:  # the record mentions its target: both ends are in its extraction
                seen.add(target.id)
                out.entities.append(target)
        ids = [Concept.make_id(p) for p in row.path]
        for i, part in enumerate(row.path):
            # Only the last part cites this record: its ancestors are there so the chain holds when
            # they have no record of their own, and cite the records that are about them.
            out.concepts.append(Concept(id=ids[i], name=part, parents=[ids[i - 1]] if i else [],
                                        chunk_ids=[chunk_id] if i == len(row.path) - 1 else []))
        return out

    def _target(self, cls: str, value: str, by: str, chunk_id: str, out: MappedRecord, what: str) -> Entity | None:
        """The entity a relation points at: the mapped record it names, else a stub or nothing."""
        name = self.index.lookup(cls, value, by) if self.index is not None else value if by == "name" else None
        if name is None and self.index is None:
            return None  # reading only: the target is looked up by the build
        if name is None:
            if self.missing_targets == "drop":
                out.drops.append(dangling_drop(what, cls, by, value, chunk_id))
                return None
            out.stubs += 1
            out.retypes.append(stub_note(what, cls, by, value, chunk_id))
            name = value
        return _entity(name, cls, chunk_id)

    # ------------------------------------------------ SPO rows

    def _class_of(self, given: str | None, candidates: list[str]) -> str:
        if given:
            return self.schema.resolve_class(given) or given
        for c in candidates:
            resolved = self.schema.resolve_class(c)
            if resolved:
                return resolved
        return self.schema.fallback_class

    def _spo_row(self, values: dict[str, Any]) -> RowOut:
        spo, out = self.mapping.spo, RowOut()
        assert spo is not None
        missing = [c for c in (spo.subject, spo.predicate, spo.object) if c not in values]
        if missing:
            out.problems.append(f"no {', '.join(repr(c) for c in missing)} in the record (record skipped)")
            out.skipped = True
            return out
        s, p, o = (text_of(values[c]) for c in (spo.subject, spo.predicate, spo.object))
        if not (s and p and o):
            out.problems.append("empty subject, predicate or object (record skipped)")
            out.skipped = True
            return out
        predicate = _resolve_predicate(self.schema, p)
        if predicate is None:
            out.problems.append(f"predicate {p!r} is not a relation of schema '{self.schema.name}'; declare it "
                                "under relation_types or fix the row (record skipped)")
            out.skipped = True
            return out
        properties: dict[str, str] = {}
        raw = values.get(spo.properties) if spo.properties else None
        if raw not in (None, ""):
            parsed: Any = raw
            if isinstance(raw, str):
                try:
                    parsed = json.loads(raw)
                except json.JSONDecodeError as err:
                    out.problems.append(f"column {spo.properties!r}: not a JSON object ({err.msg} at column "
                                        f"{err.colno}); the triple is kept without properties")
                    parsed = None
            if parsed is not None and not isinstance(parsed, dict):
                out.problems.append(f"column {spo.properties!r}: not a JSON object; the triple is kept without "
                                    "properties")
            elif parsed is not None:
                properties = {str(k): text_of(v) for k, v in parsed.items() if text_of(v)}
        out.name = s
        domain, range_ = predicate_ends(self.schema, predicate)
        out.spo = (s, self._class_of(spo.subject_class, domain), predicate, o,
                   self._class_of(spo.object_class, range_), properties)
        return out


def link_place(where: str, column: str) -> str:
    """Where a relation cell is: `file:line: column 'c'` (the line a drop note names)."""
    return f"{where}: column {column!r}" if where else f"column {column!r}"


def dangling_drop(what: str, cls: str, by: str, value: str, chunk_id: str) -> Drop:
    """The note of a relation to a record no mapped file holds (`records.missing_targets: drop`)."""
    return Drop(stage=STAGE, reason=DropReason.DANGLING_OBJECT, kind="relation",
                detail=f"{what}: no {cls} record with {by} {value!r}", chunk_id=chunk_id)


def stub_note(what: str, cls: str, by: str, value: str, chunk_id: str) -> Retype:
    """The note of a relation to a record no mapped file holds, kept as a named stub
    (`records.missing_targets: stub`): the same `file:line` line as the dropped case's."""
    return Retype(stage=STAGE, reason=RetypeReason.MISSING_TARGET_TO_STUB, kind="entity",
                  detail=f"{what}: no {cls} record with {by} {value!r} (kept as a named stub)", chunk_id=chunk_id)


def mapper_for(config: RecordsConfig, schema: Schema, source: str, *,
               index: TargetIndex | None = None) -> RecordMapper | None:
    """The mapper of the file at `source` under `config`; None when no mapping names it any more or
    its mapping no longer fits the schema (reading said why when it read the file)."""
    found = config.mapping_for(source)
    if found is None:
        return None
    position, mapping = found
    try:
        checked = check_mapping(mapping, schema, f"records.files[{position}]")
    except BadInput:
        return None
    return RecordMapper(checked, schema, index=index, missing_targets=config.missing_targets)
