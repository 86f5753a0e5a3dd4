"""The whitelist between model output and Cypher identifiers.

Labels and relationship types cannot be query parameters in Cypher, so they are the one place
where text reaches a statement. Only what passes here does: ASCII identifiers built from the
letters and digits of the input, never a character that could close a backtick or start a clause.
Everything else keeps its raw text as a property value (a parameter) and gets a generic type.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from kgbuild.text import CAMEL_SEAM

if TYPE_CHECKING:
    from kgbuild.schema import Schema

# Node labels the writer itself uses; a schema class with one of these names is not added as a
# second label, so `MATCH (n:Concept)` keeps meaning the concept nodes.
BASE_LABELS = frozenset({"Document", "Chunk", "Entity", "Event", "Concept", "HyperNode"})

# Relationship types with a fixed meaning in the graph model (docs/graph_model.md); a predicate
# that would map onto one of them becomes RELATED_TO instead of posing as structure.
STRUCTURAL_TYPES = frozenset({
    "PART_OF", "NEXT", "SUPPORTED_BY", "ARGUMENT", "TIME", "PLACE", "SUBJECT", "QUALIFIER",
    "TRIPLE_SUBJECT", "TRIPLE_OBJECT",
})
GENERIC_TYPE = "RELATED_TO"

_WORD = re.compile(r"[A-Za-z0-9]+")
_TYPE_OK = re.compile(r"^[A-Z][A-Z0-9_]{0,63}$")
_LABEL_OK = re.compile(r"^[A-Za-z][A-Za-z0-9]{0,63}$")


def class_label(spg_class: str | None) -> str | None:
    """A schema class as an extra node label ("Person", "natural science" -> "NaturalScience"),
    or None when nothing safe is left (non-ASCII, empty, reserved)."""
    if not spg_class or not spg_class.isascii():
        return None
    words = _WORD.findall(spg_class)
    label = "".join(w[:1].upper() + w[1:] for w in words)
    if not _LABEL_OK.match(label) or label in BASE_LABELS:
        return None
    return label


def relationship_type(predicate: str) -> str:
    """A predicate as a relationship type: "bornIn" -> BORN_IN, "move to" -> MOVE_TO."""
    if not predicate or not predicate.isascii():
        return GENERIC_TYPE
    words = _WORD.findall(CAMEL_SEAM.sub(" ", predicate))
    rel = "_".join(w.upper() for w in words)
    if not _TYPE_OK.match(rel) or rel in STRUCTURAL_TYPES:
        return GENERIC_TYPE
    return rel


_IDENTIFIER = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,63}$")


def predicate_type(predicate: str) -> str:
    """`graph_store.relationship_types: predicate`: a predicate that is already a safe identifier
    ("bornIn", "valid_name") gets its own type; anything else ("born in", "x`) DETACH", "ünïcode")
    is RELATED_TO with its text in `predicate`, as documented (README, docs/graph_model.md).

    The model writes these predicates, so they are not squeezed into a type: "x`) DETACH" as
    X_DETACH would be a type nobody declared, made from text that tried to end the statement."""
    if not _IDENTIFIER.fullmatch(predicate):  # fullmatch: "$" alone would let "name\n" through
        return GENERIC_TYPE
    return relationship_type(predicate)


def schema_typer(schema: Schema) -> Callable[[str], str]:
    """Relationship types limited to a whitelist: the schema's declared relations (aliases folded
    onto their declared name) and KAG's semantic relations; any other predicate is RELATED_TO,
    with its text in the `predicate` property.

    Schema-free extraction yields a long tail of predicates (2Wiki: 1,984 distinct, 1,156 seen
    once); a type for each makes a schema nobody can browse, and costs ArcadeDB ~15 ms of schema
    change per new type. The whitelist depends only on the schema, so a type never changes
    because another document was added."""
    from kgbuild.align.semantic import SEMANTIC_RELATIONS

    semantic = set(SEMANTIC_RELATIONS)

    def type_of(predicate: str) -> str:
        # KAG's semantic relations first: a schema alias such as memberOf's "belongsTo" must not
        # swallow the instance->concept belongTo edges.
        declared = predicate if predicate in semantic else schema.resolve_relation(predicate)
        return relationship_type(declared) if declared else GENERIC_TYPE

    return type_of


def quoted(identifier: str) -> str:
    """Backtick-quote an identifier that already passed the whitelist (defence in depth)."""
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", identifier):
        raise ValueError(f"not a whitelisted identifier: {identifier!r}")
    return f"`{identifier}`"
