"""Values that only qualify a fact become literals on that fact, not nodes of the graph.

An extractor makes an entity of every value it reads: a period (2023年, 1946), a change (18.42%), an amount
(3,549亿元). When the only thing that names such a value is a hypernode, ((公司, 营业收入, 3,549亿元), 同比增长, 8.3%),
the value is a property of the fact, not a thing of the world: as a node it is a component of its own, one vector
row, and one more entity in every "relations per entity" count. `literalize` runs once on the whole final graph
(after assembly, alignment and the corrections, across the corpus) and turns each such value into a `Ref` of kind
"value" on the hypernodes that name it: same id, same text, no entity row.

A value stays a node when anything else names it: a relation (belongTo and isA included), an event's argument,
time or place, or a relation row of the mapped records. A named entity stays a node whatever names it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass

from kgbuild.assemble import Graph
from kgbuild.model import Entity, HyperNode, Ref

# Classes that hold dates and times, by the names schemas give them (the schema's own spelling is
# resolved by the caller, see `date_classes`).
DATE_CLASS_NAMES = ("Date", "Time", "DateTime", "Period")

# A sign, then a currency sign, before the first digit: -5.3%, +2, −1.2, $5, ¥300, US$1.
_LEAD = re.compile(r"^[+\-−－＋±]?\s*(?:[A-Z]{0,3}[$€£¥￥₩₹]\s*)?")
# What may sit between digits: decimal and thousands separators, ranges, slashes, spaces.
_SEPARATORS = frozenset(".,，．、'’ -–—~～/:：至")
# Chinese numerals written with a place value (七百零三人, 四十二万吨): a quantity, where 三一重工 is not.
_CN_DIGITS = "零〇一二三四五六七八九十百千万亿两"
_CN_NUMERAL = re.compile(rf"^[{_CN_DIGITS}]*[十百千万亿][{_CN_DIGITS}]*(?:余|多)?")
# What may follow such a numeral in a quantity: a counter or a unit (万科, 百度, 十堰, 五十铃 are names).
_CN_UNITS = frozenset("人名位吨元家个次倍年月日天辆台套座项件亩米股户间所款部条张艘架只头份篇本场期种批栋层克斤升")
# Classes whose members are named things, never values, whatever their names (58同城, 1号店, 2号线, 7天):
# these roots and every class under them in the schema.
NAMED_ROOTS = ("Person", "Organization", "GeographicLocation", "Place", "Location")
# Longest run of non-digits a unit may be: 亿元, 万平方米, million, percent.
_UNIT_RUN = 8
_UNIT_RUNS = 3


def is_quantity(name: str) -> bool:
    """`name` is a number, a measure or a period written with digits in any script: 716, 18.42%, -5.3%,
    3,549亿元, 1.2万吨, 2023年1-9月, $5 million, ３０％. Units are short runs of letters between or after the
    digits; a Latin unit is lower case (km, million), so 3M and 7-Eleven stay names."""
    text = unicodedata.normalize("NFKC", name.strip())
    rest = _LEAD.sub("", text, count=1)
    if not rest:
        return False
    if not rest[0].isdigit():
        cn = _CN_NUMERAL.match(rest)
        if cn is None or cn.end() == 0:
            return False
        tail = rest[cn.end():]
        return len(tail) <= 2 and all(ch in _CN_UNITS for ch in tail)
    runs: list[str] = []
    current = ""
    for ch in rest:
        if ch.isdigit() or ch in _SEPARATORS:
            if current:
                runs.append(current)
                current = ""
            continue
        current += ch
    if current:
        runs.append(current)
    if len(runs) > _UNIT_RUNS:
        return False
    for run in runs:
        if len(run) > _UNIT_RUN:
            return False
        if any(ch.isascii() and ch.isalpha() and ch.isupper() for ch in run):
            return False
        if not all(ch.isalpha() or ch in "%‰°′″" for ch in run):
            return False
    return True


def date_classes(resolve: Callable[[str], str | None] | None = None) -> frozenset[str]:
    """The date and time classes: the usual names, and what the schema resolves them to."""
    names = set(DATE_CLASS_NAMES)
    if resolve is not None:
        names.update(c for c in (resolve(n) for n in DATE_CLASS_NAMES) if c)
    return frozenset(names)


def is_value(entity: Entity, dates: Collection[str], named: Collection[str] = ()) -> bool:
    """A value: an entity of a date/time class, or one whose name is a quantity and whose class is not one
    of `named` (persons, organisations, places: `named_classes`)."""
    return entity.spg_class in dates or (entity.spg_class not in named and is_quantity(entity.name))


def named_classes(classes: Iterable[str], is_a: Callable[[str, str], bool]) -> frozenset[str]:
    """The classes of `classes` that are, or are under, one of `NAMED_ROOTS` (by the schema's `is_a`)."""
    return frozenset(c for c in classes if any(is_a(c, root) for root in NAMED_ROOTS)) | frozenset(NAMED_ROOTS)


@dataclass(frozen=True)
class Literalized:
    graph: Graph
    values: int  # entities made literals on their hypernodes


def _named(refs: Iterable[Ref | None]) -> Iterator[str]:
    for ref in refs:
        if ref is not None:
            yield ref.id


def named_elsewhere(graph: Graph) -> set[str]:
    """Ids named by a relation end or an event's argument, time or place."""
    ids = set(_named(end for r in graph.relations for end in (r.subject, r.object)))
    for ev in graph.events:
        ids.update(_named(ref for refs in ev.arguments.values() for ref in refs))
        ids.update(_named((ev.time, ev.place)))
    return ids


def value_candidates(graph: Graph, dates: Collection[str], named: Collection[str] = ()) -> dict[str, Entity]:
    """The values a hypernode names and no relation or event of `graph` names, by id."""
    qualified = set(_named(end for h in graph.hypernodes for end in (h.subject, h.object) if end.kind == "entity"))
    if not qualified:
        return {}
    elsewhere = named_elsewhere(graph)
    return {e.id: e for e in graph.entities
            if e.id in qualified and e.id not in elsewhere and is_value(e, dates, named)}


def literalize(graph: Graph, dates: Collection[str], *, kept: Collection[str] = (),
               named: Collection[str] = ()) -> Literalized:
    """`graph` with every value that only hypernodes name made a literal on them (see the module's
    docstring). `kept`: ids that stay nodes whatever the graph says (what a mapped record's relation names)."""
    values = value_candidates(graph, dates, named)
    for node_id in kept:
        values.pop(node_id, None)
    return make_literals(graph, values)


def make_literals(graph: Graph, values: dict[str, Entity]) -> Literalized:
    """`graph` with the entities `values` (by id) made literals on the hypernodes that name them."""
    if not values:
        return Literalized(graph, 0)

    def end(ref: Ref) -> Ref:
        if ref.kind != "entity" or ref.id not in values:
            return ref
        return Ref(kind="value", id=ref.id, name=values[ref.id].name)

    hypernodes: list[HyperNode] = []
    for h in graph.hypernodes:
        subject, obj = end(h.subject), end(h.object)
        hypernodes.append(h if subject is h.subject and obj is h.object
                          else h.model_copy(update={"subject": subject, "object": obj}))
    entities = [e for e in graph.entities if e.id not in values]
    return Literalized(graph.model_copy(update={"entities": entities, "hypernodes": hypernodes}), len(values))
