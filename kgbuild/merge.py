"""The one set of rules for merging two records that stand for the same thing.

Every stage that meets the same id twice (validation within a chunk, assembly across chunks,
fusion and the re-pointing after it) merges with these functions, so a fact found only in a later
chunk survives every stage. The first record is the one kept ("a", usually the earlier in reading
order, or fusion's canonical entity); the second ("b") only adds:

- every type: `id` and the identifying fields (name, class, type, trigger, subject, predicate,
  object) are a's; `chunk_ids` is the union, a's first, in first-seen order (provenance order);
- Entity: `aliases` gains b's name and aliases, without repeats and without spellings that
  normalise to a's name (a case variant says nothing new); `semantic_type`, `description`,
  `summary` are the first non-empty; `properties` are merged key-wise, values unioned;
- Relation: `properties` merged key-wise, the first non-empty value of a key wins, except "said" (the
  text's words for the predicate), where every distinct wording is kept, joined by " / " (a holder
  called 持股 in the holders' table and 控股股东 in the prose is both: a question may use either);
- Event: `arguments` merged role-wise, refs unioned by id; `time` and `place` the first non-empty;
- HyperNode: only provenance;
- Concept: `description` the first non-empty, `parents` unioned.

`merge` never touches its inputs (they may share lists with records elsewhere); `MergeTable`
merges into its own copies in place, which is what the assembly of a whole corpus can afford.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Generic, TypeVar

from kgbuild.ids import normalize_name
from kgbuild.lists import union_into
from kgbuild.model import Concept, Entity, Event, HyperNode, Ref, Relation

T = TypeVar("T", Entity, Relation, Event, HyperNode, Concept)


def own(item: T) -> T:
    """A copy whose lists and maps can be changed without touching `item` (which may share them).

    Shallow plus fresh containers: deep-copying every record cost more than the rest of assembly.
    """
    update: dict[str, Any] = {"chunk_ids": list(item.chunk_ids)}
    if isinstance(item, Entity):
        update["aliases"] = list(item.aliases)
        update["properties"] = {k: list(v) for k, v in item.properties.items()}
    elif isinstance(item, Relation):
        update["properties"] = dict(item.properties)
    elif isinstance(item, Event):
        update["arguments"] = {role: list(refs) for role, refs in item.arguments.items()}
    elif isinstance(item, Concept):
        update["parents"] = list(item.parents)
    return item.model_copy(update=update)


def merge(a: T, b: T) -> T:
    """`a` with what `b` adds, by the rules above; neither input is changed."""
    merged = own(a)
    absorb(merged, b)
    return merged


def absorb(into: T, other: T, chunks_seen: set[str] | None = None) -> None:
    """Merge `other` into `into` in place; `into` must be a record the caller owns (see `own`).
    `chunks_seen`: `into.chunk_ids` as a set, for a caller that absorbs into one record many times."""
    union_into(into.chunk_ids, other.chunk_ids, chunks_seen)
    _ABSORB[type(into)](into, other)


def _entity(a: Entity, b: Entity) -> None:
    # Names are normalised only when new: in assembly the other's name is nearly always a's own,
    # and normalising every duplicate's name doubled the stage's time.
    seen = {a.name, *a.aliases}
    own_key: str | None = None
    for name in (b.name, *b.aliases):
        if name not in seen:
            seen.add(name)
            own_key = normalize_name(a.name) if own_key is None else own_key
            if normalize_name(name) != own_key:
                a.aliases.append(name)
    a.semantic_type = a.semantic_type or b.semantic_type
    a.description = a.description or b.description
    a.summary = a.summary or b.summary
    for key, values in b.properties.items():
        union_into(a.properties.setdefault(key, []), values)


SAID = "said"  # the Relation property of the text's words for its predicate
SAID_SEPARATOR = " / "


def _relation(a: Relation, b: Relation) -> None:
    for key, value in b.properties.items():
        if key == SAID and value and a.properties.get(key):
            kept = a.properties[key].split(SAID_SEPARATOR)
            a.properties[key] = SAID_SEPARATOR.join([*kept, *(w for w in value.split(SAID_SEPARATOR)
                                                              if w not in kept)])
        elif value and not a.properties.get(key):
            a.properties[key] = value
        else:
            a.properties.setdefault(key, value)


def _event(a: Event, b: Event) -> None:
    for role, refs in b.arguments.items():
        mine = a.arguments.setdefault(role, [])
        _union_refs(mine, refs)
    a.time = a.time or b.time
    a.place = a.place or b.place


def _union_refs(into: list[Ref], extra: Iterable[Ref]) -> None:
    ids = {r.id for r in into}
    for ref in extra:
        if ref.id not in ids:
            ids.add(ref.id)
            into.append(ref)


def _hypernode(a: HyperNode, b: HyperNode) -> None:
    pass  # nothing beyond provenance: same id means same subject, predicate and object


def _concept(a: Concept, b: Concept) -> None:
    a.description = a.description or b.description
    union_into(a.parents, b.parents)


# Read-only dispatch table: the rule for each record type.
_ABSORB: dict[type, Callable[[Any, Any], None]] = {
    Entity: _entity, Relation: _relation, Event: _event, HyperNode: _hypernode, Concept: _concept,
}


class MergeTable(Generic[T]):
    """Records by id, merged on arrival, in first-seen order; holds copies, never the inputs."""

    def __init__(self) -> None:
        self._items: dict[str, T] = {}
        # The chunk ids of a record met more than once, as a set: a node cited by many chunks (a
        # department every row of a large table names) would otherwise cost the length of its
        # provenance at every mention, the square of its mentions in all.
        self._chunks: dict[str, set[str]] = {}

    def add(self, item: T) -> None:
        kept = self._items.get(item.id)
        if kept is None:
            self._items[item.id] = own(item)
            return
        seen = self._chunks.get(item.id)
        if seen is None:
            seen = self._chunks[item.id] = set(kept.chunk_ids)
        absorb(kept, item, seen)

    def __contains__(self, item_id: object) -> bool:
        return item_id in self._items

    def __len__(self) -> int:
        return len(self._items)

    def get(self, item_id: str) -> T | None:
        return self._items.get(item_id)

    def values(self) -> list[T]:
        return list(self._items.values())


def merge_by_id(items: Iterable[T]) -> list[T]:
    """Records with equal ids merged into the first, in first-seen order."""
    table: MergeTable[T] = MergeTable()
    for item in items:
        table.add(item)
    return table.values()
