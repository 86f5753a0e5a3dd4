"""When a type named in a plan or a link hint is a node's class: one rule for the whole query side.

Case, spaces, camelCase and a plural do not matter: "Film Directors", "filmDirector" and
"FilmDirector" are all "film director". Entity linking (a type hint lifts entities of that class)
and the graph view (a plan's `o1:Film`) both go through `type_key`, so they never disagree.
"""

from __future__ import annotations

import re

# The writer's camelCase split (kgbuild.store.labels), so a class reads the same on both sides.
from kgbuild.store.labels import _CAMEL


def type_key(text: str) -> str:
    """"Film Directors" -> "film director"; "FilmDirector" -> "film director"."""
    words = re.findall(r"\w+", _CAMEL.sub(" ", text).lower())
    # A trailing plural ("cities" -> "city", "films" -> "film"), not the s of "class" or of a short
    # word ("bus", "gas").
    last = words[-1] if words else ""
    if len(last) > 4 and last.endswith("ies"):
        words[-1] = last[:-3] + "y"
    elif len(last) > 3 and last.endswith("s") and not last.endswith("ss"):
        words[-1] = last[:-1]
    return " ".join(words)


def same_type(a: str | None, b: str | None) -> bool:
    """Both given and the same type by `type_key`."""
    return bool(a and b and type_key(a) == type_key(b))
