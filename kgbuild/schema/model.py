"""The `Schema` record: a whole domain schema and the lookups every stage asks of it
(resolve a class, relation, role or concept; inheritance; document types; fingerprint)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cached_property
from typing import Any

from pydantic import Field, ValidationInfo, field_validator, model_validator

from kgbuild.ids import content_hash
from kgbuild.schema.checks import _dotted, _semantic_issues
from kgbuild.schema.names import _Index
from kgbuild.schema.records import (
    ConceptType,
    DocumentType,
    EntityType,
    EventType,
    Property,
    RelationType,
    Text,
    _Model,
    _none_values_to_dicts,
)
from kgbuild.text import identifier_key

# Validation context key set by check_schema: run phase 1 only, phase 2 reports per line.
_STRUCTURE_ONLY = "kgbuild_structure_only"


class Schema(_Model):
    name: str
    version: int | str = 1
    language: str = "en"
    description: Text = ""
    fallback_class: str
    entity_types: dict[str, EntityType] = Field(default_factory=dict)
    event_types: dict[str, EventType] = Field(default_factory=dict)
    concept_types: dict[str, ConceptType] = Field(default_factory=dict)
    relation_types: dict[str, RelationType] = Field(default_factory=dict)
    source: str | None = None  # set by load_schema, never read from the YAML

    _fill = field_validator(
        "entity_types", "event_types", "concept_types", "relation_types", mode="before"
    )(_none_values_to_dicts)

    @field_validator("version", mode="before")
    @classmethod
    def _version(cls, value: Any) -> Any:
        # checked here so pydantic does not report one error per union member
        if isinstance(value, bool) or not isinstance(value, (int, str, float)):
            raise ValueError("version must be a number or a text")
        return str(value) if isinstance(value, float) else value

    @model_validator(mode="after")
    def _meaning(self, info: ValidationInfo) -> Schema:
        if info.context and info.context.get(_STRUCTURE_ONLY):
            return self
        issues = _semantic_issues(self)
        if issues:
            raise ValueError("; ".join(f"{_dotted(p)}: {m}" for p, m, _ in issues))
        return self

    @cached_property
    def _index(self) -> _Index:
        return _Index(self)

    # ------------------------------------------------ classes

    def resolve_class(self, name: str) -> str | None:
        """Declared entity or concept type for a spelling, ignoring case, spaces, '_' and plurals.

        Concept types count as classes because a mention of a taxonomy node ("cardiology")
        is typed with its concept type (HospitalDepartment).
        """
        return self._index.classes.lookup(name)

    def ancestors(self, cls: str) -> list[str]:
        """Parent chain of an entity type, nearest first ([] for roots and unknown names)."""
        out: list[str] = []
        et = self.entity_types.get(cls)
        while et is not None and et.parent is not None and et.parent not in out and et.parent != cls:
            out.append(et.parent)
            et = self.entity_types.get(et.parent)
        return out

    def is_a(self, cls: str, ancestor: str) -> bool:
        return cls == ancestor or ancestor in self.ancestors(cls)

    def properties_of(self, cls: str) -> dict[str, Property]:
        """Declared properties of a class including inherited ones (the nearest wins)."""
        out: dict[str, Property] = {}
        for c in [cls, *self.ancestors(cls)]:
            et = self.entity_types.get(c)
            for pname, prop in (et.properties.items() if et else ()):
                out.setdefault(pname, prop)
        return out

    def resolve_property(self, cls: str, name: str) -> str | None:
        key = identifier_key(name)
        return next((p for p in self.properties_of(cls) if identifier_key(p) == key), None)

    # ------------------------------------------------ relations

    def resolve_relation(self, predicate: str) -> str | None:
        """Declared spelling of a predicate: relation names, their aliases and inverse
        names, and object properties (a property whose type is a type) all count."""
        return self._index.predicates.lookup(predicate)

    def relation_allows(self, predicate: str, subject_class: str, object_class: str) -> bool:
        """Whether domain/range (with inheritance) accept the pair; True if undeclared."""
        canon = self.resolve_relation(predicate)
        if canon is None:
            return True
        subj = self.resolve_class(subject_class) or self.resolve_event_type(subject_class) or subject_class
        obj = self.resolve_class(object_class) or self.resolve_event_type(object_class) or object_class
        return any(
            self._fits(subj, domain) and self._fits(obj, range_)
            for domain, range_ in self._index.signatures.get(canon, [])
        )

    def _fits(self, cls: str, allowed: Sequence[str]) -> bool:
        return not allowed or any(self.is_a(cls, a) for a in allowed)

    # ------------------------------------------------ events

    def resolve_event_type(self, name: str) -> str | None:
        return self._index.events.lookup(name)

    def resolve_role(self, event_type: str, role: str) -> str | None:
        """Declared role of an event type (time/place are implicit and not returned)."""
        ev = self.event_types.get(event_type)
        key = identifier_key(role)
        return next((r for r in (ev.roles if ev else {}) if identifier_key(r) == key), None)

    # ------------------------------------------------ concepts

    def concept_paths(self) -> list[list[str]]:
        """Every root->node path, root first: path[0] is the concept type, path[-1] the node.

        The concept type itself is the one-element path, so path[-2] is always the isA
        parent of path[-1].
        """
        out: list[list[str]] = []

        def walk(path: list[str], node: ConceptType) -> None:
            out.append(path)
            for child_name, child in node.children.items():
                walk([*path, child_name], child)

        for name, ct in self.concept_types.items():
            walk([name], ct)
        return out

    def concept_node(self, path: Sequence[str]) -> ConceptType:
        """The node at a path from concept_paths; KeyError if there is none."""
        node = self.concept_types[path[0]]
        for part in path[1:]:
            node = node.children[part]
        return node

    def find_concept(self, name: str) -> list[list[str]]:
        """Paths of the concept nodes named (or aliased) `name`; a node may sit in several
        places of a taxonomy (the pharynx is part of two body systems)."""
        return [list(p) for p in self._index.concepts.get(identifier_key(name), [])]

    def concept_path_of(self, concept_id: str) -> list[str] | None:
        """The (first) taxonomy path of the node with this `Concept.make_id`, or None."""
        path = self._index.concept_ids.get(concept_id)
        return list(path) if path is not None else None

    def concepts_by_id(self) -> dict[str, list[str]]:
        """`Concept.make_id(node)` -> the node's (first) path, for every taxonomy node."""
        return {cid: list(path) for cid, path in self._index.concept_ids.items()}

    # ------------------------------------------------ document types

    def document_types(self) -> list[DocumentType]:
        """Entity types with a document_structure, in declaration order (the first match wins)."""
        return [DocumentType(name, et.document_structure) for name, et in self.entity_types.items()
                if et.document_structure is not None]

    def document_type_of(self, title: str, source: str) -> DocumentType | None:
        return next((dt for dt in self.document_types() if dt.structure.matches(title, source)), None)

    # ------------------------------------------------ identity

    def fingerprint(self) -> str:
        """Hash of the normalised content (not of the file path), for cache keys."""
        canonical = json.dumps(
            self.model_dump(mode="json", exclude={"source"}),
            sort_keys=True,
            ensure_ascii=False,
            separators=(",", ":"),
        )
        return content_hash(canonical)
