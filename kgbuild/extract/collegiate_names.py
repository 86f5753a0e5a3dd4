"""Colleges named with their town after a comma: "King's College, Cambridge", "Trinity College, Dublin"
(issue 23, eighth session).

Encyclopedias name a college of a collegiate university, or one of many colleges sharing a name, with its
town after a comma; the NER cuts the name there ("King's College" ORG + "Cambridge" GPE), and the comma
chain rule would read it as a place in a place. The two spans are one organisation's name when the name
ends with "College" and the place is one name not followed by another place ("Harvard College, Cambridge,
Massachusetts" is an address, left to the chain rule). The college lies in the town:
(King's College, Cambridge, located in, Cambridge).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kgbuild.extract.facts import Mention

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span

    from kgbuild.extract.chunk_state import ChunkState

_COLLEGE_HEADS = frozenset({"college"})
_PLACE_LABELS = frozenset({"GPE", "LOC"})


def college_with_town(doc: Doc, prev: Span, ent: Span) -> bool:
    """Whether `ent` (a place) after `prev` and a comma is the town in a college's name."""
    if prev.label_ not in ("ORG", "FAC") or ent.label_ not in _PLACE_LABELS:
        return False
    if doc[prev.end - 1].lower_ not in _COLLEGE_HEADS or ent.start != prev.end + 1 or doc[prev.end].text != ",":
        return False
    after = ent.end
    # "Harvard College, Cambridge, Massachusetts": an address
    return not (after + 1 < len(doc) and doc[after].text == "," and doc[after + 1].ent_type_ in _PLACE_LABELS)


def college_towns(state: ChunkState) -> None:
    """(college, located in, town) for every "<...> College, <Town>" organisation of the chunk."""
    doc = state.doc
    for mention in list(state.mentions):
        if mention.label not in ("ORG", "FAC") or mention.start < 0 or ", " not in mention.name:
            continue
        comma = next((i for i in range(mention.start, mention.end) if doc[i].text == ","), None)
        if comma is None or comma == mention.start or doc[comma - 1].lower_ not in _COLLEGE_HEADS:
            continue
        town = doc[comma + 1 : mention.end]
        if not town or not all(t.ent_type_ in _PLACE_LABELS for t in town):
            continue
        place = Mention(town.text, state.classes.place, town[0].ent_type_, town.start, town.end)
        state.triple(mention, "located in", place, [])
