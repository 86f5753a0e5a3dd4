"""Facts from a list a plural or group noun introduces: cast lists, rosters, line-ups, a person's works.

"Guest stars in the episode included Katrina Bowden, Kevin Brown and ...", "Members of the band include
A and B", "Metallica's current lineup comprises ... Kirk Hammett, and bassist Robert Trujillo", "Her films include "X" and "Y"": the subject is a plural common noun, so no clause rule finds
a named subject, yet the sentence states that each listed name is one of the noun's kind in (or of)
the thing the noun's preposition or possessor names. Each name gets (name, "<noun> <prep>", owner):
(Katrina Bowden, guest star in, Tracy Does Conan), (A, member of, the band), (X, film of, her).
Without an owner ("Highlights included ...") nothing is stated about a named thing: no fact.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kgbuild.extract.chunk_state import ChunkState, listed, unique
from kgbuild.extract.facts import Mention
from kgbuild.extract.name_lists import continue_list
from kgbuild.extract.nouns import noun_phrase
from kgbuild.extract.vocab import VAGUE_NOUNS

if TYPE_CHECKING:
    from spacy.tokens import Token

# Verbs that state a list's members: "included", "include", "comprised", "featured".
LIST_VERBS = frozenset({"include", "comprise", "feature"})
# Singular nouns for a group whose list is its members: "Metallica's current lineup comprises A, B and C".
GROUP_NOUNS = {"lineup": "member of", "line-up": "member of", "roster": "member of", "squad": "member of",
               "crew": "member of", "membership": "member of", "cast": "cast member of",
               "ensemble": "cast member of"}
# Prepositions that tie the plural noun to what its members belong to: "stars in the episode",
# "members of the band", "singles from the album", "players for the club", "performers at the festival".
_OWNER_PREPS = frozenset({"in", "of", "on", "from", "for", "at"})
# (VAGUE_NOUNS holds "member" because "a member" alone names nothing; here "members of X" is the point.)
# Plural nouns that are no kind of member: "things", "others", "parts" are said of anything.
_NO_KIND = frozenset({"thing", "other", "part", "example", "one", "item", "factor", "feature", "change",
                      "reason", "aspect", "element", "detail", "highlight", "activity", "topic", "issue"})


def listed_members(state: ChunkState, verb: Token) -> None:
    """(member, "<noun> <prep>", owner) for each name a plural-noun subject's list verb lists."""
    if state.lemma(verb) not in LIST_VERBS or verb.dep_ == "relcl":
        return  # "the team that included ...": the relative's noun is the owner's, read elsewhere
    subject = next((c for c in verb.children if c.dep_ == "nsubj" and c.i < verb.i), None)
    if subject is None or state.tok2m[subject.i] is not None:
        return
    head = state.lemma(subject)
    collective = GROUP_NOUNS.get(head) if subject.tag_ == "NN" else None
    if subject.tag_ != "NNS" and collective is None:
        return
    if not head.isalpha() or (head in VAGUE_NOUNS and head != "member") or head in _NO_KIND:
        return
    owners: list[tuple[str, Mention]] = []
    for child in subject.children:
        if child.dep_ == "poss":  # "Her films include ...", "Braun's credits include ..."
            owner = state.subject(child)
            if owner is not None and not owner.is_date:
                owners.append(("of", owner))
        elif child.dep_ == "prep" and child.lower_ in _OWNER_PREPS:
            for pobj in (p for p in child.children if p.dep_ == "pobj"):
                owner = state.object(pobj, False)
                if owner is not None and not owner.is_date:
                    owners.append((child.lower_, owner))
    if not owners:
        return
    members: list[Mention] = []
    for obj in (c for c in verb.children if c.dep_ == "dobj"):  # "comprises founding members A and B, C"
        found: list[Mention] = []
        for tok in listed(obj):
            named = state.named(tok) or state.quoted(tok)
            if named is not None:
                found.append(named)
            elif tok.tag_ in ("NN", "NNS"):  # "founding members (appos) Hetfield and Ulrich"
                found.extend(m for a in tok.children if a.dep_ == "appos" for t in listed(a)
                             for m in [state.named(t)] if m is not None)
        members.extend(continue_list(state, [m for m in found if not m.is_date], obj))
    phrase = noun_phrase(state, subject)
    for prep, owner in owners:
        predicate = collective or f"{phrase} {prep}"
        for member in unique(members):
            if member is not owner:
                state.triple(member, predicate, owner, [])
