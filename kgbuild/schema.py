"""The domain schema: what classes, events, taxonomies and relations a graph may hold.

KAG's builder extracts against a semi-structured schema. Here it is a YAML file (format in
docs/schema.md) loaded into frozen pydantic models. Loading is two-phase so that a user
sees every mistake at once, each with its file, line and dotted path:

1. structure: YAML syntax, duplicate keys, unknown keys, value types (pydantic);
2. meaning: references to undeclared types, parent cycles, name clashes, identifiers.

`Schema(...)` built directly in code runs both phases and raises on the first problems;
`check_schema` reports them all with line numbers; `load_schema` raises the first one.
"""

from __future__ import annotations

import difflib
import fnmatch
import json
import re
import types
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NamedTuple, Union, get_args, get_origin

import yaml
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from kgbuild.errors import SchemaError

if TYPE_CHECKING:
    from pydantic_core import ErrorDetails
from kgbuild.ids import content_hash
from kgbuild.model import Concept
from kgbuild.resources import SCHEMAS, shipped_dir
from kgbuild.text import identifier_key, type_key

PRIMITIVE_TYPES = ("text", "integer", "float", "boolean", "date", "url")
IMPLICIT_ROLES = ("time", "place")  # every event has them (Event.time / Event.place)
IDENTIFIER_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")

# Validation context key set by check_schema: run phase 1 only, phase 2 reports per line.
_STRUCTURE_ONLY = "kgbuild_structure_only"

Path_ = tuple[str | int, ...]


# ---------------------------------------------------------------- models


def _none_to_empty_str(value: Any) -> Any:
    return "" if value is None else value


def _to_list(value: Any) -> Any:
    """`range: Person` is shorthand for `range: [Person]`; an empty value is no list."""
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    return value


def _none_values_to_dicts(value: Any) -> Any:
    """`Mathematician:` with nothing after it means an entry with no keys, like `{}`."""
    if value is None:
        return {}
    if isinstance(value, dict):
        return {k: ({} if v is None else v) for k, v in value.items()}
    return value


Text = Annotated[str, BeforeValidator(_none_to_empty_str)]
Names = Annotated[list[str], BeforeValidator(_to_list)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Property(_Model):
    """An attribute of an entity type; a type name as `type` makes it an object property."""

    type: str
    description: Text = ""
    multi_value: bool = False

    @model_validator(mode="before")
    @classmethod
    def _shorthand(cls, value: Any) -> Any:
        return {"type": value} if isinstance(value, str) else value  # `birthDate: date`


# Leading numbering of a heading ("3.", "2.1 ", "(2)", "一、", "③") and a trailing colon are
# presentation, not part of its meaning: "3. Required materials:" is "Required materials".
# Applied after NFKC, so full-width forms are already ASCII; a number needs a delimiter
# after it so that "2019 report" keeps its year.
_CIRCLED_NUMBER = re.compile(r"^\s*[\u2460-\u2473]")
_HEADING_NUMBER = re.compile(
    r"^(?:[0-9]{1,3}(?:\.[0-9]{1,3})*(?:[.)、](?![0-9])\s*|\s+)|\([0-9一二三四五六七八九十]{1,3}\)\s*"
    r"|[一二三四五六七八九十]{1,3}[、.]\s*)"
)


def heading_key(heading: str) -> str:
    """A section heading as document_structure compares it: NFKC, no numbering, one space."""
    text = unicodedata.normalize("NFKC", _CIRCLED_NUMBER.sub("", heading))
    text = _HEADING_NUMBER.sub("", re.sub(r"\s+", " ", text).strip())
    return text.rstrip(" :").strip()


class DocumentMatch(_Model):
    """Which documents are of a type; when both keys are given both must hold."""

    title: str | None = None  # a regex searched in the document title
    source: str | None = None  # a glob on the document's source path ('*' also crosses '/')


class DocumentStructure(_Model):
    """Documents of a fixed layout (service guides, product sheets) whose sections are
    property values: KAG fills these from the structure without asking a model."""

    match: DocumentMatch
    sections: dict[str, str] = Field(default_factory=dict)  # heading (exact or regex) -> property

    def matches(self, title: str, source: str) -> bool:
        m = self.match
        if m.title is None and m.source is None:
            return False
        if m.title is not None and not re.search(m.title, title):
            return False
        return m.source is None or fnmatch.fnmatchcase(source, m.source)

    def property_for(self, heading: str) -> str | None:
        """The property a heading fills: an exact match (ignoring case) first, then the
        first key that matches the whole heading as a case-insensitive regex."""
        key = heading_key(heading).casefold()
        if not key:
            return None
        for pattern, prop in self.sections.items():
            if heading_key(pattern).casefold() == key:
                return prop
        for pattern, prop in self.sections.items():
            try:
                if re.fullmatch(pattern, heading_key(heading), re.IGNORECASE):
                    return prop
            except re.error:  # only a schema built without validation can hold one
                continue
        return None


class EntityType(_Model):
    description: Text = ""
    parent: str | None = None
    aliases: Names = Field(default_factory=list)
    properties: dict[str, Property] = Field(default_factory=dict)
    document_structure: DocumentStructure | None = None

    _fill = field_validator("properties", mode="before")(_none_values_to_dicts)


class DocumentType(NamedTuple):
    cls: str  # the entity type a matching document becomes
    structure: DocumentStructure


class Role(_Model):
    """An argument slot of an event type; an empty range accepts any node."""

    range: Names = Field(default_factory=list)
    required: bool = False
    description: Text = ""

    @model_validator(mode="before")
    @classmethod
    def _shorthand(cls, value: Any) -> Any:
        return {"range": value} if isinstance(value, (str, list)) else value  # `founder: [Person]`


class EventType(_Model):
    description: Text = ""
    aliases: Names = Field(default_factory=list)
    roles: dict[str, Role] = Field(default_factory=dict)

    _fill = field_validator("roles", mode="before")(_none_values_to_dicts)


class ConceptType(_Model):
    """A concept taxonomy (and, recursively, each of its nodes): children are isA-below it."""

    description: Text = ""
    aliases: Names = Field(default_factory=list)
    children: dict[str, ConceptType] = Field(default_factory=dict)

    @field_validator("children", mode="before")
    @classmethod
    def _children(cls, value: Any) -> Any:
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            if len(set(value)) != len(value):
                dup = next(v for v in value if value.count(v) > 1)
                raise ValueError(f"child '{dup}' is listed twice")
            return {v: {} for v in value}  # `children: [Physicist, Chemist]`
        return _none_values_to_dicts(value)


ConceptNode = ConceptType


class RelationType(_Model):
    """A predicate between nodes; empty domain/range accept any node."""

    domain: Names = Field(default_factory=list)
    range: Names = Field(default_factory=list)
    description: Text = ""
    inverse: str | None = None  # the same name as the relation itself means symmetric
    aliases: Names = Field(default_factory=list)


class _Index:
    """Lookup tables derived from a schema (built once per Schema, never mutated)."""

    def __init__(self, s: Schema) -> None:
        self.classes = _Names()
        for name, et in s.entity_types.items():
            self._add(self.classes, name, et.aliases)
        for name, ct in s.concept_types.items():
            self._add(self.classes, name, ct.aliases)
        self.events = _Names()
        for name, ev in s.event_types.items():
            self._add(self.events, name, ev.aliases)
        # predicate -> list of (domain, range); several entries are alternatives (union)
        self.signatures: dict[str, list[tuple[tuple[str, ...], tuple[str, ...]]]] = {}
        self.predicates = _Names()
        for name, rt in s.relation_types.items():
            self._add(self.predicates, name, rt.aliases)
            sig = (tuple(rt.domain), tuple(rt.range))
            self.signatures.setdefault(name, []).append(sig)
        for name, rt in s.relation_types.items():
            inv = rt.inverse
            if inv is None:
                continue
            if inv == name:  # symmetric: either direction is fine
                self.signatures[name].append((tuple(rt.range), tuple(rt.domain)))
            elif inv not in s.relation_types:
                self._add(self.predicates, inv, [])
                self.signatures.setdefault(inv, []).append((tuple(rt.range), tuple(rt.domain)))
        known_types = set(s.entity_types) | set(s.event_types) | set(s.concept_types)
        for cls, et in s.entity_types.items():  # object properties are predicates too
            for pname, prop in et.properties.items():
                if prop.type in known_types:
                    self._add(self.predicates, pname, [])
                    canon = self.predicates.canonical(pname)
                    self.signatures.setdefault(canon, []).append(((cls,), (prop.type,)))
        self.concepts: dict[str, list[list[str]]] = {}
        self.concept_ids: dict[str, list[str]] = {}
        for path in s.concept_paths():
            self.concept_ids.setdefault(Concept.make_id(path[-1]), path)
            node = s.concept_node(path)
            for key in dict.fromkeys(identifier_key(label) for label in [path[-1], *node.aliases]):
                self.concepts.setdefault(key, []).append(path)

    @staticmethod
    def _add(table: _Names, name: str, aliases: Iterable[str]) -> None:
        for label in [name, *aliases]:
            table.add(label, name)


class _Names:
    """Declared names by `identifier_key`, and by `type_key` for a plural spelling.

    The fallback is the query side's own type rule (kgbuild.text.type_key), so a class the build
    maps "Addresses" onto is the class a query's "Addresses" means."""

    def __init__(self) -> None:
        self.exact: dict[str, str] = {}
        self.by_type: dict[str, str] = {}

    def add(self, label: str, name: str) -> None:
        # First declaration wins; clashes are reported as problems by the checks.
        self.exact.setdefault(identifier_key(label), name)
        self.by_type.setdefault(type_key(label), name)

    def canonical(self, label: str) -> str:
        """The declared name of a label added before."""
        return self.exact[identifier_key(label)]

    def lookup(self, name: str) -> str | None:
        key = identifier_key(name)
        if not key:
            return None
        return self.exact.get(key) or self.by_type.get(type_key(name))


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


# ---------------------------------------------------------------- meaning checks

# (path, message, hint)
_Issue = tuple[Path_, str, str]


def _dotted(path: Path_) -> str:
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


def _did_you_mean(word: str, candidates: Iterable[str]) -> str:
    cands = list(dict.fromkeys(candidates))
    key = identifier_key(word)
    same = [c for c in cands if identifier_key(c) == key]
    if same:
        return f"did you mean '{same[0]}'?"
    lowered = {c.casefold(): c for c in cands}
    close = difflib.get_close_matches(word.casefold(), list(lowered), n=1, cutoff=0.6)
    return f"did you mean '{lowered[close[0]]}'?" if close else ""


def _unknown_hint(word: str, candidates: Sequence[str], declare_where: str) -> str:
    hint = _did_you_mean(word, candidates)
    if hint:
        return hint
    shown = ", ".join(list(candidates)[:12]) + (", ..." if len(candidates) > 12 else "")
    return f"declare it under {declare_where}, or use one of: {shown}" if shown else f"declare it under {declare_where}"


def _semantic_issues(
    s: Schema, broken: frozenset[str] = frozenset(), check_fallback: bool = True
) -> list[_Issue]:
    """Every problem of meaning in a structurally valid schema.

    `broken` names entries check_schema dropped for structural problems: references to
    them are not reported again.
    """
    issues: list[_Issue] = []
    ident_hint = "use letters, digits and '_', starting with a letter"

    def ident(path: Path_, name: str, what: str) -> None:
        if not IDENTIFIER_RE.match(name):
            issues.append((path, f"{what} '{name}' is not a valid identifier", ident_hint))

    if not IDENTIFIER_RE.match(s.name):
        issues.append((("name",), f"schema name '{s.name}' is not a valid identifier", ident_hint))
    if not s.entity_types and not broken:  # pruned entries would make it look empty
        issues.append((("entity_types",), "no entity types declared",
                       f"declare at least the fallback class '{s.fallback_class}'"))

    sections: list[tuple[str, str, dict[str, Any]]] = [
        ("entity_types", "entity type", s.entity_types),
        ("concept_types", "concept type", s.concept_types),
        ("event_types", "event type", s.event_types),
    ]
    # Names are compared by key because lookups work that way. Type names must be unique
    # across all kinds (a range may list any of them); an alias only within its lookup
    # table: classes (entity and concept types) or event types.
    names: dict[str, tuple[str, str]] = {}
    tables: dict[str, dict[str, tuple[str, str, bool]]] = {"class": {}, "event": {}}
    clash_hint = "type names and aliases must differ even ignoring case, spaces and '_'"
    for section, kind, declared in sections:
        table = tables["event" if section == "event_types" else "class"]
        for tname, t in declared.items():
            ident((section, tname), tname, f"{kind} name")
            if tname in PRIMITIVE_TYPES:
                issues.append(((section, tname), f"'{tname}' is a built-in value type", "choose another name"))
            prev = names.setdefault(identifier_key(tname), (kind, tname))
            if prev != (kind, tname):
                issues.append(((section, tname), f"'{tname}' clashes with {prev[0]} '{prev[1]}'", clash_hint))
            labels = [((section, tname), tname)] + [
                ((section, tname, "aliases", i), a) for i, a in enumerate(t.aliases)
            ]
            for path, label in labels:
                key = identifier_key(label)
                if not key:
                    issues.append((path, f"name '{label}' has no letter or digit", "remove it"))
                    continue
                is_name = len(path) == 2
                prev_entry = table.setdefault(key, (kind, tname, is_name))
                if prev_entry[:2] != (kind, tname) and not (is_name and prev_entry[2]):  # names: above
                    issues.append((path, f"'{label}' clashes with {prev_entry[0]} '{prev_entry[1]}'", clash_hint))

    class_names = list(s.entity_types)
    all_types = [*s.entity_types, *s.event_types, *s.concept_types]
    known = set(all_types) | broken
    # with a whole section unreadable no reference can be judged
    guessing = bool(broken & {"entity_types", "event_types", "concept_types"})

    def ref(path: Path_, name: str, extra: Sequence[str] = ()) -> None:
        if name in known or name in extra or guessing:
            return
        hint = _unknown_hint(name, [*all_types, *extra], "entity_types, event_types or concept_types")
        issues.append((path, f"unknown type '{name}'", hint))

    # entity types: parents, cycles, properties
    for tname, et in s.entity_types.items():
        base: Path_ = ("entity_types", tname)
        if et.parent is not None and et.parent not in broken and not guessing:
            if et.parent in s.event_types or et.parent in s.concept_types:
                issues.append(((*base, "parent"), f"parent '{et.parent}' is not an entity type",
                               "an entity type's parent must be another entity type"))
            elif et.parent not in s.entity_types:
                issues.append(((*base, "parent"), f"unknown type '{et.parent}'",
                               _unknown_hint(et.parent, class_names, "entity_types")))
        prop_keys: dict[str, str] = {}
        for pname, prop in et.properties.items():
            ident((*base, "properties", pname), pname, "property name")
            other = prop_keys.setdefault(identifier_key(pname), pname)
            if other != pname:
                issues.append(((*base, "properties", pname), f"property '{pname}' clashes with '{other}'",
                               "property names must differ even ignoring case and '_'"))
            ref((*base, "properties", pname, "type"), prop.type, PRIMITIVE_TYPES)
    reported: set[frozenset[str]] = set()
    for tname in s.entity_types:
        chain = [tname]
        cur = s.entity_types[tname].parent
        while cur is not None and cur in s.entity_types:
            if cur in chain:
                loop = chain[chain.index(cur):]
                if frozenset(loop) not in reported:
                    reported.add(frozenset(loop))
                    issues.append((("entity_types", loop[0], "parent"),
                                   "parent chain loops: " + " -> ".join([*loop, cur]),
                                   "entity types must form a tree; remove one of these parents"))
                break
            chain.append(cur)
            cur = s.entity_types[cur].parent

    for tname, et in s.entity_types.items():
        if et.document_structure is not None:
            issues += _structure_issues(s, tname, et.document_structure, guessing)

    if check_fallback and s.fallback_class not in s.entity_types and s.fallback_class not in broken:
        issues.append((("fallback_class",), f"fallback class '{s.fallback_class}' is not an entity type",
                       _unknown_hint(s.fallback_class, class_names, "entity_types")))

    # event types: roles
    for ename, ev in s.event_types.items():
        role_keys: dict[str, str] = {}
        for rname, role in ev.roles.items():
            rpath: Path_ = ("event_types", ename, "roles", rname)
            ident(rpath, rname, "role name")
            if rname in IMPLICIT_ROLES:
                issues.append((rpath, f"role '{rname}' is implicit on every event", "remove it"))
            other = role_keys.setdefault(identifier_key(rname), rname)
            if other != rname:
                issues.append((rpath, f"role '{rname}' clashes with '{other}'",
                               "role names must differ even ignoring case and '_'"))
            for i, t in enumerate(role.range):
                ref((*rpath, "range", i), t)

    # concept trees: node names are free text but must be clean
    for tree in s.concept_paths():
        if len(tree) > 1 and (not tree[-1].strip() or tree[-1] != tree[-1].strip()):
            yaml_path: list[str] = ["concept_types", tree[0]]
            for part in tree[1:]:
                yaml_path += ["children", part]
            issues.append((tuple(yaml_path), f"concept name '{tree[-1]}' is empty or has surrounding spaces",
                           "trim it"))

    # relations: names, inverses, domain/range
    pred_seen: dict[str, str] = {}
    for rname, rt in s.relation_types.items():
        base = ("relation_types", rname)
        ident(base, rname, "relation name")
        spellings: list[tuple[Path_, str]] = [(base, rname),
                                              *(((*base, "aliases", i), a) for i, a in enumerate(rt.aliases))]
        for name_path, label in spellings:
            owner = pred_seen.setdefault(identifier_key(label), rname)
            if owner != rname:
                issues.append((name_path, f"'{label}' clashes with relation '{owner}'",
                               "relation names and aliases must differ even ignoring case and '_'"))
        for field in ("domain", "range"):
            for i, t in enumerate(getattr(rt, field)):
                ref((*base, field, i), t)
    for rname, rt in s.relation_types.items():
        inv = rt.inverse
        if inv is None or inv == rname:
            continue
        ipath: Path_ = ("relation_types", rname, "inverse")
        ident(ipath, inv, "inverse name")
        if inv in s.relation_types:
            back = s.relation_types[inv].inverse
            if back not in (None, rname):
                issues.append((ipath, f"'{inv}' declares inverse '{back}', not '{rname}'",
                               "make the two inverse declarations point at each other"))
            continue
        owner = pred_seen.setdefault(identifier_key(inv), rname)
        if owner != rname:
            issues.append((ipath, f"inverse '{inv}' clashes with relation '{owner}'",
                           "use a distinct name, or declare the inverse as a relation of its own"))
    return issues


def _regex_problem(pattern: str) -> str | None:
    try:
        re.compile(pattern)
    except re.error as exc:
        return f"invalid regex '{pattern}': {exc.msg}" + (f" at position {exc.pos}" if exc.pos is not None else "")
    return None


def _structure_issues(s: Schema, cls: str, ds: DocumentStructure, guessing: bool) -> list[_Issue]:
    """Problems of one document_structure (`guessing`: a whole section was unreadable)."""
    base: Path_ = ("entity_types", cls, "document_structure")
    # With a parent missing (reported on its own) inherited properties cannot be judged.
    top = s.entity_types[[cls, *s.ancestors(cls)][-1]].parent
    unsure = guessing or (top is not None and top not in s.entity_types)
    issues: list[_Issue] = []
    regex_hint = "write a Python regular expression; escape ( ) [ ] . * + ? with \\"
    if ds.match.title is None and ds.match.source is None:
        issues.append(((*base, "match"), "match needs 'title' (a regex) or 'source' (a glob)",
                       "without one no document would be of this type"))
    if ds.match.title is not None and (msg := _regex_problem(ds.match.title)):
        issues.append(((*base, "match", "title"), msg, regex_hint))
    if not ds.sections:
        issues.append(((*base, "sections"), "no sections mapped", "map at least one heading to a property"))
    props = s.properties_of(cls)
    seen: dict[str, str] = {}
    for heading, prop in ds.sections.items():
        path: Path_ = (*base, "sections", heading)
        key = heading_key(heading).casefold()
        if not key:
            issues.append((path, f"heading '{heading}' is empty", "write the heading as it appears in the documents"))
        elif (msg := _regex_problem(heading)):
            issues.append((path, msg, regex_hint))
        elif seen.setdefault(key, heading) != heading and ds.sections[seen[key]] != prop:
            issues.append((path, f"heading '{heading}' is the same as '{seen[key]}' but maps to another property",
                           "headings are compared ignoring case, numbering and a trailing colon"))
        if prop not in props and not unsure:
            issues.append((path, f"'{prop}' is not a property of {cls}",
                           _unknown_hint(prop, list(props), f"entity_types.{cls}.properties")))
    return issues


# ---------------------------------------------------------------- problems and loading


@dataclass(frozen=True)
class SchemaProblem:
    file: str
    line: int | None
    path: str  # dotted path inside the YAML, "" for the whole file
    message: str
    hint: str = ""

    def where(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        return f"{where}: {self.path}" if self.path else where

    def line_text(self) -> str:
        """`schemas/x.yaml:12: entity_types.Person.parent: unknown type 'Persn' (did you mean 'Person'?)`"""
        text = f"{self.where()}: {self.message}"
        return f"{text} ({self.hint})" if self.hint else text

    def to_error(self) -> SchemaError:
        return SchemaError(where=self.where(), problem=self.message, hint=self.hint)


_INT_RE = re.compile(r"^[-+]?[0-9]+$")
_FLOAT_RE = re.compile(r"^[-+]?(?:[0-9]+\.[0-9]*|\.[0-9]+|[0-9]+)(?:[eE][-+]?[0-9]+)?$")
_MAX_DEPTH = 64


class _Document:
    """A parsed YAML file: plain data plus the node tree for line numbers.

    Data is built from the nodes directly (not with safe_load) so that keys stay strings,
    `on`/`no`/dates stay text, and duplicate keys are seen instead of silently replaced.
    """

    def __init__(self, root: yaml.Node) -> None:
        self.root = root
        self.duplicates: list[tuple[Path_, int, int]] = []  # path, line, first line
        self.data = self._build(root, (), 0)

    def _build(self, node: yaml.Node, path: Path_, depth: int) -> Any:
        if depth > _MAX_DEPTH:
            raise ValueError("nesting too deep (a recursive YAML alias?)")
        if isinstance(node, yaml.MappingNode):
            out: dict[str, Any] = {}
            first_line: dict[str, int] = {}
            for k, v in node.value:
                key = k.value if isinstance(k, yaml.ScalarNode) else str(self._build(k, path, depth + 1))
                if key in out:
                    self.duplicates.append(((*path, key), k.start_mark.line + 1, first_line[key]))
                first_line.setdefault(key, k.start_mark.line + 1)
                out[key] = self._build(v, (*path, key), depth + 1)
            return out
        if isinstance(node, yaml.SequenceNode):
            return [self._build(v, (*path, i), depth + 1) for i, v in enumerate(node.value)]
        return _scalar(node)

    def line(self, path: Path_) -> int | None:
        """Line (1-based) of the deepest YAML node on `path`: a key's own line when found."""
        return self._walk(path)[1]

    def in_flow_mapping(self, path: Path_) -> bool:
        """Whether `path` is a mapping written inline as `{...}`."""
        node, _, complete = self._walk(path)
        return complete and isinstance(node, yaml.MappingNode) and bool(node.flow_style)

    def _walk(self, path: Path_) -> tuple[yaml.Node, int, bool]:
        node: yaml.Node = self.root
        line = node.start_mark.line + 1
        for part in path:
            if isinstance(node, yaml.MappingNode):
                match = None
                for k, v in node.value:  # the last duplicate wins, as in the data
                    if isinstance(k, yaml.ScalarNode) and k.value == str(part):
                        match = (k, v)
                if match is None:
                    return node, line, False
                line, node = match[0].start_mark.line + 1, match[1]
            elif isinstance(node, yaml.SequenceNode):
                if isinstance(part, int) and 0 <= part < len(node.value):
                    node = node.value[part]
                else:  # a list shorthand (`children: [A, B]`) addressed by name
                    found = [n for n in node.value if isinstance(n, yaml.ScalarNode) and n.value == str(part)]
                    if not found:
                        return node, line, False
                    node = found[0]
                line = node.start_mark.line + 1
            else:
                return node, line, False
        return node, line, True


def _scalar(node: yaml.Node) -> Any:
    value = node.value
    if getattr(node, "style", None):  # quoted or block scalars are always text
        return value
    if value in ("", "~", "null", "Null", "NULL"):
        return None
    if value in ("true", "True", "TRUE"):
        return True
    if value in ("false", "False", "FALSE"):
        return False
    if _INT_RE.match(value):
        return int(value)
    if _FLOAT_RE.match(value):
        return float(value)
    return value


def _describe(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text '{value[:40]}'"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


_EXPECTED = {
    "string_type": "text",
    "int_type": "an integer",
    "int_parsing": "an integer",
    "int_from_float": "an integer",
    "float_type": "a number",
    "float_parsing": "a number",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "list_type": "a list",
    "dict_type": "a mapping",
    "model_type": "a mapping",
    "model_attributes_type": "a mapping",
}


def _optional_of(tp: Any) -> Any:
    """`X | None` -> X, so nested optional models are walked like plain ones."""
    if get_origin(tp) in (Union, types.UnionType):
        args = [a for a in get_args(tp) if a is not type(None)]
        return args[0] if len(args) == 1 else tp
    return tp


def _fields_at(loc: Sequence[str | int]) -> list[str]:
    """Keys allowed at a location, found by walking the model annotations (for did-you-mean)."""
    tp: Any = Schema
    for part in loc:
        tp = _optional_of(tp)
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            field = tp.model_fields.get(str(part))
            if field is None:
                return []
            tp = field.annotation
        elif get_origin(tp) is dict:
            tp = get_args(tp)[1]
        elif get_origin(tp) is list:
            tp = get_args(tp)[0]
        else:
            return []
    tp = _optional_of(tp)
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return [f for f in tp.model_fields if not (tp is Schema and f == "source")]
    return []


def _structure_issue(err: ErrorDetails) -> _Issue:
    loc: Path_ = tuple(err["loc"])
    kind = err["type"]
    if loc and loc[-1] == "[key]":  # a mapping key of the wrong type
        return (loc[:-1], f"name {_describe(err['input'])} must be text", "")
    if kind == "extra_forbidden":
        allowed = _fields_at(loc[:-1])
        hint = _did_you_mean(str(loc[-1]), allowed) or (f"allowed keys: {', '.join(allowed)}" if allowed else "")
        return (loc, f"unknown key '{loc[-1]}'", hint)
    if kind == "missing":
        return (loc, f"required key '{loc[-1]}' is missing", "add it")
    if kind in _EXPECTED:
        hint = "write the keys of this entry as an indented mapping" if _EXPECTED[kind] == "a mapping" else ""
        return (loc, f"expected {_EXPECTED[kind]}, got {_describe(err.get('input'))}", hint)
    if kind == "value_error":
        return (loc, str(err["ctx"]["error"]), "")
    return (loc, err["msg"], "")


def _prune(data: dict[str, Any], errors: list[ErrorDetails]) -> tuple[dict[str, Any], set[str], bool]:
    """Data without the entries that failed structure checks, so meaning checks can still
    run on the rest; returns the dropped type names and whether fallback_class is usable."""
    pruned = {k: (dict(v) if isinstance(v, dict) else v) for k, v in data.items()}
    broken: set[str] = set()
    fallback_ok = True
    sections = ("entity_types", "event_types", "concept_types", "relation_types")
    for err in errors:
        loc = err["loc"]
        if not loc:
            continue
        top = loc[0]
        if top in sections and len(loc) >= 2 and isinstance(pruned.get(top), dict):
            pruned[top].pop(loc[1], None)
            broken.add(str(loc[1]))
        elif top in sections:  # the whole section is unusable: nothing in it can be judged
            pruned.pop(top, None)
            broken.add(top)
            fallback_ok = fallback_ok and top != "entity_types"
        elif top == "name":
            pruned["name"] = "schema"
        elif top == "fallback_class":
            pruned["fallback_class"] = "?"
            fallback_ok = False
        else:
            pruned.pop(str(top), None)
    return pruned, broken, fallback_ok


def _parse(file: str, path: Path) -> tuple[_Document | None, list[SchemaProblem]]:
    def problem(message: str, hint: str = "", line: int | None = None) -> list[SchemaProblem]:
        return [SchemaProblem(file, line, "", message, hint)]

    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None, problem("schema file not found", "check the `schema` setting")
    except UnicodeDecodeError as exc:
        return None, problem(f"not UTF-8 text ({exc.reason} at byte {exc.start})", "save the file as UTF-8")
    except OSError as exc:
        return None, problem(f"cannot read the file: {exc.strerror}")
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        col = f", column {mark.column + 1}" if mark else ""
        what = ": ".join(x for x in (exc.context, exc.problem) if x)
        start = exc.context_mark.line + 1 if exc.context_mark else line
        hint = (f"fix the indentation or quoting between lines {start} and {line}" if start != line
                else "fix the indentation or quoting near this line")
        return None, problem(f"YAML syntax error{col}: {what}", hint, line)
    except yaml.YAMLError as exc:
        return None, problem(f"YAML error: {exc}")
    if root is None:
        return None, problem("empty schema", "start from schemas/open_domain.yaml or docs/schema.md")
    try:
        doc = _Document(root)
    except ValueError as exc:
        return None, problem(str(exc))
    if not isinstance(doc.data, dict):
        return None, problem(f"the top level must be a mapping of keys, got {_describe(doc.data)}",
                             "start from schemas/open_domain.yaml or docs/schema.md", root.start_mark.line + 1)
    return doc, []


def _check(path: str | Path) -> tuple[Schema | None, list[SchemaProblem]]:
    file = str(path)
    doc, problems = _parse(file, Path(path))
    if doc is None:
        return None, problems
    data: dict[str, Any] = doc.data

    def add(issue: _Issue) -> None:
        p, message, hint = issue
        problems.append(SchemaProblem(file, doc.line(p), _dotted(p), message, hint))

    for dpath, line, first in doc.duplicates:
        problems.append(SchemaProblem(file, line, _dotted(dpath), f"duplicate key '{dpath[-1]}'",
                                      f"already defined on line {first}; the later entry would replace it"))
    if "source" in data:  # a real field, but it records where the schema was loaded from
        add((("source",), "unknown key 'source'", "it is set by the loader; remove it"))
        data = {k: v for k, v in data.items() if k != "source"}
    if not data:
        problems.append(SchemaProblem(file, doc.line(()), "", "empty schema", "start from docs/schema.md"))
        return None, problems

    broken: set[str] = set()
    fallback_ok = True
    try:
        schema: Schema | None = Schema.model_validate(data, context={_STRUCTURE_ONLY: True})
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        for err in errors:
            p, message, hint = _structure_issue(err)
            if err["type"] == "extra_forbidden" and err["input"] is None and doc.in_flow_mapping(p[:-1]):
                # `{description: a, b}` reads as a second key `b` with no value
                hint = "inside {...} a comma starts a new key: put quotes around text with commas"
            add((p, message, hint))
        pruned, broken, fallback_ok = _prune(data, errors)
        try:
            schema = Schema.model_validate(pruned, context={_STRUCTURE_ONLY: True})
        except ValidationError:
            schema = None  # too broken to check meaning; the structure problems come first
    # structure problems first (meaning problems may follow from them), each in file order
    problems.sort(key=lambda p: p.line or 0)
    if schema is not None:
        structural = len(problems)
        for issue in _semantic_issues(schema, frozenset(broken), fallback_ok):
            add(issue)
        problems[structural:] = sorted(problems[structural:], key=lambda p: p.line or 0)
    return (schema if not problems else None), problems


def check_schema(path: str | Path) -> list[SchemaProblem]:
    """Every problem of a schema file, each with file, line and dotted path; [] if valid."""
    return _check(path)[1]


def load_schema(path: str | Path) -> Schema:
    """Load and validate a schema file.

    Raises SchemaError for the first problem; all of them are on its `problems` attribute.
    """
    schema, problems = _check(path)
    if problems or schema is None:
        first = problems[0] if problems else SchemaProblem(str(path), None, "", "invalid schema")
        err = first.to_error()
        if len(problems) > 1:
            more = f"{len(problems) - 1} more problem(s) in this file"
            err = SchemaError(err.where, err.problem, f"{err.hint}; {more}" if err.hint else more)
        err.problems = problems  # type: ignore[attr-defined]
        raise err
    return schema.model_copy(update={"source": str(path)})


# ---------------------------------------------------------------- built-in schemas


def builtin_schemas_dir() -> Path:
    """`kgbuild/schemas/`, shipped inside the package (see kgbuild.resources)."""
    return shipped_dir(SCHEMAS)


def builtin_schema_names() -> list[str]:
    folder = builtin_schemas_dir()
    return sorted(p.stem for p in folder.glob("*.yaml")) if folder.is_dir() else []


def builtin_schema_path(name: str) -> Path:
    """Path of a shipped schema by name ("open_domain" -> <package>/schemas/open_domain.yaml)."""
    path = builtin_schemas_dir() / f"{name}.yaml"
    if not IDENTIFIER_RE.match(name) or not path.is_file():
        names = builtin_schema_names()
        hint = f"built-in schemas: {', '.join(names)}; or give a path to a YAML file" if names else (
            f"no schemas/ folder at {builtin_schemas_dir()}; give a path to a YAML file")
        raise SchemaError(where="schema", problem=f"no built-in schema named '{name}'", hint=hint)
    return path


def schema_path(location: str, base_dir: str | Path | None = None) -> Path:
    """The file of a `schema` setting: a path if it looks like one (ends in .yaml/.yml or
    contains a slash; relative paths are taken from base_dir), else a built-in name."""
    if location.endswith((".yaml", ".yml")) or "/" in location or "\\" in location:
        path = Path(location)
        return path if path.is_absolute() or base_dir is None else Path(base_dir) / path
    return builtin_schema_path(location)


def resolve_schema(location: str, base_dir: str | Path | None = None) -> Schema:
    """Load the schema a `schema` setting names (see schema_path); SchemaError if invalid."""
    return load_schema(schema_path(location, base_dir))
