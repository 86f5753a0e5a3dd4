"""Small list helpers shared by the stages that merge records."""

from __future__ import annotations

from collections.abc import Iterable


def union_into(into: list[str], extra: Iterable[str]) -> None:
    """Append the items of `extra` not yet in `into`, keeping first-seen order (provenance order)."""
    seen = set(into)
    for item in extra:
        if item not in seen:
            into.append(item)
            seen.add(item)
