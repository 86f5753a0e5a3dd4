"""A noble or royal title "of" a place, as a node of its own (issue 23, eighth session).

"Tostig Godwinson was an Anglo-Saxon Earl of Northumbria", "John I was the Count Palatine of Simmern",
"a Princess of Scotland": the relational noun already gives (X, earl of, Northumbria) (`nouns`); the
title itself is a name readers use on its own ("the Earl of Northumbria" held by one person after
another), so it is also a node, and X isA it. Only a capitalised title from `STYLE_TITLES` makes one:
"the brother of King Harold" (kin) and "the capital of France" (lower case) stay relations only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kgbuild.extract.entities import STYLE_TITLES
from kgbuild.extract.facts import CONCEPT, Mention

if TYPE_CHECKING:
    from spacy.tokens import Token

    from kgbuild.extract.chunk_state import ChunkState

TITLE_PREDICATE = "isA"


def territory(state: ChunkState, noun: Token, tok: Token, mention: Mention) -> Mention:
    """What the title's "of" names: `mention`, unless a name run took the title into it ("the Count Palatine of
    Simmern" read as one name): then the words after "of" are the territory and the run is the title."""
    if not mention.start <= noun.i < mention.end:
        return mention
    start = tok.i
    while start > noun.i + 2 and state.doc[start - 1].dep_ == "compound" and state.doc[start - 1].is_title:
        start -= 1
    place = state.proper(tok)
    if place is None or place is mention or place.start <= noun.i:
        place = Mention(state.doc[start : tok.i + 1].text, state.classes.place, "GPE", start, tok.i + 1)
    state.titles.setdefault(mention.name, mention)
    return place


def titled_name(noun: Token) -> bool:
    """A proper noun that is the last word of a title: "Palatine" in "the Count Palatine of Simmern"."""
    return any(c.dep_ == "compound" and c.is_title and c.lower_ in STYLE_TITLES for c in noun.lefts)


def title_node(state: ChunkState, noun: Token, target: Mention) -> Mention | None:
    """The mention of "<Title> of <target>" when `noun` is a capitalised noble or royal title whose "of"
    names `target` (a place or another named thing, never a person or a date); None otherwise."""
    if not noun.is_title or target.is_date or state.is_person(target) or any(
            w.lower() in STYLE_TITLES for w in target.name.split()):
        return None  # "Duke of Narbonne and Margrave of Provence": two titles the name run joined
    doc = state.doc
    start = noun.i
    # "Count Palatine", "Grand Duke": capitalised compounds of the title are part of it; a nationality
    # adjective before it ("an Anglo-Saxon Earl of Northumbria": "Saxon" is hung as a compound) is not.
    while start > 0 and doc[start - 1].dep_ == "compound" and doc[start - 1].head.i == noun.i \
            and doc[start - 1].is_title and not doc[start - 1].ent_type_ and not (
                start > 1 and doc[start - 2].text == "-" and not doc[start - 2].whitespace_):
        start -= 1
    end = noun.i + 1
    if end + 1 < len(doc) and doc[end].is_title and doc[end].tag_ == "NNP" and doc[end + 1].lower_ == "of":
        end += 1  # "Count Palatine of": the parser made "Count" the head
    if not any(t.lower_ in STYLE_TITLES for t in doc[start:end]):
        return None
    words = " ".join(t.text for t in doc[start:end])
    name = f"{words} of {target.name}"
    # `state.titles` is keyed by name: a run that took the title in (`territory`) is found here too
    mention = state.titles.get(name)
    if mention is None:
        mention = state.titles[name] = Mention(name, state.classes.concept, CONCEPT, start, target.end)
    return mention
