"""Meaning checks (phase 2 of loading): references to undeclared types, parent cycles, name
clashes, identifiers, document structures. Each problem is an `_Issue` with its YAML path,
so check_schema can give it a line."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from kgbuild.schema.records import IDENTIFIER_RE, IMPLICIT_ROLES, PRIMITIVE_TYPES, DocumentStructure, heading_key
from kgbuild.text import identifier_key

if TYPE_CHECKING:
    from kgbuild.schema.model import Schema

Path_ = tuple[str | int, ...]

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
    # key -> (kind, type name, path of the spelling, the spelling); a name's path has two parts
    tables: dict[str, dict[str, tuple[str, str, Path_, str]]] = {"class": {}, "event": {}}
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
                prev_kind, prev_name, prev_path, prev_label = table.setdefault(key, (kind, tname, path, label))
                if (prev_kind, prev_name) == (kind, tname):
                    continue
                if len(path) == 2 and len(prev_path) == 2:
                    continue  # two type names: reported above
                if len(path) == 2:
                    # A type name met an alias declared earlier: the alias is the mistake, so the
                    # problem points at the alias's line and names its owner first.
                    issues.append((prev_path, f"alias '{prev_label}' of {prev_kind} '{prev_name}' clashes with "
                                              f"{kind} '{tname}'", clash_hint))
                else:
                    issues.append((path, f"alias '{label}' of {kind} '{tname}' clashes with "
                                         f"{prev_kind} '{prev_name}'", clash_hint))

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
