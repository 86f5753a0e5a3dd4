"""never_merge corrections as constraints of fusion: which input entities each side names.

Fusion runs on the assembled entities, before any merge, so a side is every entity whose id, name
or alias the correction names (any class): "never merge Henry VII and Henry VIII" keeps every
entity so named apart, and a chain of merges that would join them is refused at its last step.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from kgbuild.align.clusters import ApartPair
from kgbuild.curate.file import Entry
from kgbuild.ids import normalize_name
from kgbuild.model import Entity


def apart_constraints(entities: Sequence[Entity], entries: Sequence[Entry]) -> list[ApartPair]:
    """One pair of id sets per never_merge correction whose two sides both name some entity and
    do not overlap (a side naming nothing is reported stale after alignment, see `apply`)."""
    wanted = [e.correction for e in entries if e.correction.kind == "never_merge"]
    if not wanted:
        return []
    names: dict[str, list[str]] = defaultdict(list)
    ids = set()
    for e in entities:
        ids.add(e.id)
        for name in {normalize_name(n) for n in (e.name, *e.aliases)}:
            names[name].append(e.id)

    def side(target: str) -> frozenset[str]:
        return frozenset([target]) if target in ids else frozenset(names.get(normalize_name(target), ()))

    out: list[ApartPair] = []
    for c in wanted:
        a, b = side(c.target["a"]), side(c.target["b"])
        if a and b and not a & b:
            out.append(ApartPair(a, b))
    return out
