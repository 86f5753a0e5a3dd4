"""A conjunct the parser hung on a word inside a name belongs to the whole name (issue 23, thirteenth session).

"a daughter of Louis IX of France and Margaret of Provence": en_core_web_sm coordinates "Margaret" with "France",
the last word of the first parent's name, so the kin noun's "of" has one object and the second parent is lost
("son of Theobald I of Navarre and Margaret of Navarre", "the University of Maryland and ..."). A name is one
argument: a word inside it cannot be coordinated with something outside it. So before the rules read the chunk,
a conjunct (and its "and"/"or") whose head lies inside a name of several words, but is not the word that name
hangs on, is re-attached to that word; the rules' `conjuncts`/`listed` then see both names.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from kgbuild.extract.entities import STYLE_TITLES
from kgbuild.extract.facts import Mention

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token


# "Louis IX of France", "Margaret of Provence": a given name (and a regnal number) "of" a place, which the NER
# often labels an organisation; the person's class is only settled after the rules have read the chunk.
_OF_PLACE_NAME_RE = re.compile(r"^[A-Z][^\W\d_]+(?:-[A-Z][^\W\d_]+)?(?: [IVX]+)? (?:of|de|von) [A-Z]")


def _person_like(mention: Mention, person: str) -> bool:
    """A PERSON, a person by class, a given name "of" a place, or a name holding a noble or royal title ("Crown
    Prince Pavlos of Greece", "Mahaut, Countess of Artois")."""
    return mention.label == "PERSON" or mention.spg_class == person or bool(_OF_PLACE_NAME_RE.match(mention.name)) or (
        any(w.lower().strip(",") in STYLE_TITLES for w in mention.name.split()))


def _root(doc: Doc, mention: Mention) -> Token | None:
    """The word a name hangs on: its only word whose head lies outside it (None if there are several)."""
    roots = [t for t in doc[mention.start : mention.end]
             if not mention.start <= t.head.i < mention.end or t.head.i == t.i]
    return roots[0] if len(roots) == 1 else None


def attach_name_conjuncts(doc: Doc, mentions: list[Mention], person: str) -> None:
    """Re-attach a conjunct hung on an inner word of a person's name to the name's root word (see the module): on the
    place of "<name> of <Place>" ("Louis IX of France and Margaret of Provence"), or on the title of a styled name
    when the conjunct is a person ("Otto IV, Count of Burgundy, and Mahaut, Countess of Artois"). Only there: a
    styled name's title also coordinates titles ("X, 3rd Duke of Richmond, 6th Duke of Lennox"), and a place after
    a place ("Baron Stuart of Newbury, Berkshire", "Count of Oldenburg and Delmenhorst") is part of the territory;
    so the name must look like a person's (`_person_like`) and the conjunct be a name that is no place."""
    at: dict[int, Mention] = {}
    for mention in mentions:
        for k in range(max(mention.start, 0), mention.end):
            at[k] = mention
    for mention in mentions:
        if mention.end - mention.start < 3 or mention.start < 0 or mention.is_date or not _person_like(mention, person):
            continue
        root = _root(doc, mention)
        if root is None:
            continue
        for tok in doc[mention.start : mention.end]:
            place = tok.dep_ == "pobj" and tok.head.lower_ == "of"
            title = tok.dep_ == "appos" and tok.lower_ in STYLE_TITLES
            if tok.i == root.i or not (place or title):
                continue
            for child in list(tok.children):
                other = at.get(child.i)
                if (child.dep_ != "conj" or child.i < mention.end or child.tag_ not in ("NNP", "NNPS")
                        or other is None or other.is_place or other.is_date or child.ent_type_ in ("GPE", "LOC")
                        or (title and (other.label != "PERSON" or child.lower_ in STYLE_TITLES))):
                    continue
                for cc in [c for c in tok.children if c.dep_ in ("cc", "punct") and mention.end <= c.i < child.i]:
                    cc.head = root
                child.head = root
