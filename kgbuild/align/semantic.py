"""The semantic relations of KAG's Table 2, as ordinary Relation records.

KAG aligns knowledge through six relations between entities and concepts: `synonym`,
`isA`, `isPartOf`, `contains`, `belongTo` (an instance and its semanticType concept) and
`causes`. Representing them as plain `Relation`s (concept ends have `Ref.kind == "concept"`)
means storage, export and the connectivity report need no special case for them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, get_args

from kgbuild.model import Concept, Ref, Relation

SYNONYM = "synonym"
IS_A = "isA"
IS_PART_OF = "isPartOf"
CONTAINS = "contains"
BELONG_TO = "belongTo"
CAUSES = "causes"

SemanticPredicate = Literal["synonym", "isA", "isPartOf", "contains", "belongTo", "causes"]
SEMANTIC_RELATIONS: tuple[str, ...] = get_args(SemanticPredicate)


def concept_ref(concept: Concept) -> Ref:
    return Ref(kind="concept", id=concept.id, name=concept.name)


def semantic_relation(subject: Ref, predicate: SemanticPredicate | str, object: Ref,
                      chunk_ids: Iterable[str] = ()) -> Relation:
    """A Table 2 relation between two nodes; ValueError for a predicate outside the table."""
    if predicate not in SEMANTIC_RELATIONS:
        raise ValueError(f"not a semantic relation: {predicate!r} (one of {', '.join(SEMANTIC_RELATIONS)})")
    return Relation(id=Relation.make_id(subject.id, predicate, object.id), subject=subject,
                    predicate=predicate, object=object, chunk_ids=list(dict.fromkeys(chunk_ids)))
