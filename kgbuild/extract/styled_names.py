"""What a noble style in a person's name states (issue 23, thirteenth session).

English names a peer or ruler by name and style: "Otto IV, Count of Burgundy", "Richilde, Countess of Mons
and Hainaut", "Charles Stourton, 8th Baron Stourton". `entities._with_style` keeps such a name whole; the
style itself says two things the sentence around it never repeats: the person is a count (a type), and
count of Burgundy (a relation to each territory after "of"). A style with no "of" ("8th Baron Stourton",
"4th Baronet") gives the type only: its second word is a family name, not a place.

Only a person's mention whose name has the comma form is read, so "Duke of Kent" alone (a title, which
`held_titles` reads) and "Louis the Pious" give nothing here.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from kgbuild.extract.entities import BARONET_TITLES, STYLE_TITLES
from kgbuild.extract.facts import Mention

if TYPE_CHECKING:
    from kgbuild.extract.chunk_state import ChunkState

# "<name>, [<ordinal>] <Title> [Palatine] [of <territory>]": the title one or two capitalised words.
_LAND_SEPARATOR = re.compile(r",? and |, ")  # "Mons and Hainaut", "Bar, Mousson and Pont"
_STYLED = re.compile(
    r"^[^,]+, (?:\d+(?:st|nd|rd|th) )?(?P<title>(?:Grand )?[A-Z][a-z]+(?: Palatine)?)(?: of (?P<land>.+))?(?: .*)?$")
# The titles a style holds: a peer's or a baronet's.
_STYLES = STYLE_TITLES | BARONET_TITLES


def style_of(name: str) -> tuple[str, list[str]] | None:
    """(title, territories) of a styled name: ("count", ["Burgundy"]) for "Otto IV, Count of Burgundy",
    ("countess", ["Mons", "Hainaut"]) for "Richilde, Countess of Mons and Hainaut"; None for any other name."""
    match = _STYLED.match(name)
    if match is None:
        return None
    title = match["title"].lower()  # "count palatine", "grand duke": the first word or the whole is a style
    if not {title, title.split()[0]} & _STYLES:
        return None
    land = match["land"]
    lands = [part.strip() for part in _LAND_SEPARATOR.split(land)] if land else []
    return title, [part for part in lands if part[:1].isupper()]


def styled_titles(state: ChunkState) -> None:
    """Each styled person's title as a type (with the sentence that names the person as its description), and
    (person, "<title> of", territory) for each territory."""
    people = [m for m in (*state.mentions, *state.used.values()) if state.is_person(m)]
    title_person = state.title_person
    if title_person is not None and all(m is not title_person for m in people):
        people.append(title_person)
    for person in people:
        style = style_of(person.name)
        if style is None:
            continue
        title, lands = style
        person.add_type(title, state.sentence(state.doc[person.start]) if person.start >= 0 else person.name)
        for land in lands:
            state.triple(person, f"{title} of", _territory(state, person, land), [])


def _territory(state: ChunkState, person: Mention, land: str) -> Mention:
    """The territory's mention: its tokens inside the person's name when the chunk holds the name (so the
    place is anchored to its sentence), else a mention of the name alone, as a title's person is."""
    doc = state.doc
    if person.start >= 0:
        begin = doc[person.start].idx
        at = doc.text.find(land, begin, doc[person.end - 1].idx + len(doc[person.end - 1].text))
        span = doc.char_span(at, at + len(land), alignment_mode="expand") if at >= 0 else None
        if span is not None:
            return Mention(land, state.classes.place, "GPE", span.start, span.end)
    return Mention(land, state.classes.place, "GPE", -1, -1)
