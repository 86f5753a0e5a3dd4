"""Name lookup: the tables that map a spelling (any case, spaces, '_', plural, alias) to the
declared name of a class, event type, predicate or concept node of a schema."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from kgbuild.model import Concept
from kgbuild.text import identifier_key, type_key

if TYPE_CHECKING:
    from kgbuild.schema.model import Schema


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
