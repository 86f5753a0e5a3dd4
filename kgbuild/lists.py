"""Small list helpers shared by the stages that merge records."""

from __future__ import annotations

from collections.abc import Iterable


def union_into(into: list[str], extra: Iterable[str], seen: set[str] | None = None) -> None:
    """Append the items of `extra` not yet in `into`, keeping first-seen order (provenance order).
    `seen`: the items of `into` as a set, kept by a caller that unions into the same list many
    times (then updated here); without it the set is made anew, which costs the length of `into`."""
    seen = set(into) if seen is None else seen
    for item in extra:
        if item not in seen:
            into.append(item)
            seen.add(item)
