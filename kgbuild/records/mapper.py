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
from kgbuild.model import Concept, Drop, DropReason, Entity, Ref, Relation
from kgbuild.record_mapping import FileMapping, RelationColumn
from kgbuild.records.values import BadValue, parse, split, text_of
from kgbuild.schema import Schema

STAGE = "records"


@dataclass
class MappedRecord:
    entities: list[Entity] = field(default_factory=list)
    relations: list[Relation] = field(default_factory=list)
    concepts: list[Concept] = field(default_factory=list)
    drops: list[Drop] = field(default_factory=list)
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

    def map(self, values: dict[str, Any], chunk_id: str) -> MappedRecord:
        if self.mapping.spo is not None:
            return self._spo(values, chunk_id)
        return self._record(values, chunk_id)

    def check(self, values: dict[str, Any]) -> MappedRecord:
        """What reading needs of a record: its problems, whether it is skipped, its name and text
        column; the nodes and triples are not made (the build maps the record again, with the
        target index reading does not have)."""
        if self.mapping.spo is not None:
            return self._spo(values, "", build=False)
        return self._record(values, "", build=False)

    def _record(self, values: dict[str, Any], chunk_id: str, *, build: bool = True) -> MappedRecord:
        m, cls, out = self.mapping, self.checked.cls, MappedRecord()
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
        _, name, aliases = ident
        out.name = name
        properties: dict[str, list[str]] = {}
        for prop, key in zip(m.properties, self.checked.property_keys, strict=True):
            if prop.column not in values:
                continue
            try:
                parsed = parse(values[prop.column], prop.parse, prop.separator)
            except BadValue as err:
                out.problems.append(f"column {prop.column!r}: {err} (value left out)")
                continue
            if parsed:
                properties.setdefault(key, []).extend(v for v in parsed if v not in properties.get(key, []))
        if m.text:
            raw = values.get(m.text)
            out.text = raw if isinstance(raw, str) else text_of(raw)  # line breaks kept: they end paragraphs
        if not build:
            return out
        description = text_of(values.get(m.description)) if m.description else ""
        entity = _entity(name, cls, chunk_id, aliases=aliases, description=description, properties=properties)
        out.entities.append(entity)
        seen = {entity.id}
        for rel, predicate, target_cls in self.checked.relations:
            for value in split(values.get(rel.column), rel.separator):
                target = self._target(target_cls, value, rel.by, chunk_id, out, f"column {rel.column!r}")
                if target is None:
                    continue
                out.relations.append(_relation(entity, predicate, target, chunk_id))
                if target.id not in seen:  # the record mentions its target: both ends are in its extraction
                    seen.add(target.id)
                    out.entities.append(target)
        if m.hierarchy is not None:
            self._hierarchy(values, entity, chunk_id, out)
        return out

    def _hierarchy(self, values: dict[str, Any], entity: Entity, chunk_id: str, out: MappedRecord) -> None:
        parts = self._path(values)
        if not parts:
            return
        ids = [Concept.make_id(p) for p in parts]
        for i, part in enumerate(parts):
            # Only the last part cites this record: its ancestors are there so the chain holds when
            # they have no record of their own, and cite the records that are about them.
            out.concepts.append(Concept(id=ids[i], name=part, parents=[ids[i - 1]] if i else [],
                                        chunk_ids=[chunk_id] if i == len(parts) - 1 else []))
        # The record belongTo the concept of its last part (alignment links it by semantic type).
        entity.semantic_type = parts[-1]
        if self.checked.hierarchy_relation and len(parts) > 1:
            parent = _entity(parts[-2], self.checked.cls, chunk_id)
            out.entities.append(parent)
            out.relations.append(_relation(entity, self.checked.hierarchy_relation, parent, chunk_id))

    def _target(self, cls: str, value: str, by: str, chunk_id: str, out: MappedRecord, what: str) -> Entity | None:
        """The entity a relation points at: the mapped record it names, else a stub or nothing."""
        name = self.index.lookup(cls, value, by) if self.index is not None else value if by == "name" else None
        if name is None and self.index is None:
            return None  # reading only: the target is looked up by the build
        if name is None:
            if self.missing_targets == "drop":
                out.drops.append(Drop(stage=STAGE, reason=DropReason.DANGLING_OBJECT, kind="relation",
                                      detail=f"{what}: no {cls} record with {by} {value!r}", chunk_id=chunk_id))
                return None
            out.stubs += 1
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

    def _spo(self, values: dict[str, Any], chunk_id: str, *, build: bool = True) -> MappedRecord:
        spo, out = self.mapping.spo, MappedRecord()
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
        if not build:
            return out
        domain, range_ = predicate_ends(self.schema, predicate)
        subject = _entity(s, self._class_of(spo.subject_class, domain), chunk_id)
        obj = _entity(o, self._class_of(spo.object_class, range_), chunk_id)
        out.entities += [subject, obj] if obj.id != subject.id else [subject]
        out.relations.append(_relation(subject, predicate, obj, chunk_id, properties))
        return out
