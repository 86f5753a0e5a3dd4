"""Characters an actor plays and the work they play them in.

"He played the role of Constable Renfield Turnbull on the TV series "Due South"", "known for his
portrayal of the Cylon Leoben Conoy on "Battlestar Galactica"", "his role as record producer Lew Ashby
on the Showtime series "Californication"": the character is the verb's (or the noun's) "of"/"as" object,
so the clause rules, which skip "role" as a vague object, find nothing. Each gives (actor, play,
character) and, for the work named after "on"/"in" (on the character or on the role), (actor, appear
in, work).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kgbuild.extract.chunk_state import ChunkState, Qualifier, listed
from kgbuild.extract.facts import Mention
from kgbuild.extract.name_lists import continue_list
from kgbuild.extract.nouns import name_after
from kgbuild.extract.possessed_names import possessor

if TYPE_CHECKING:
    from spacy.tokens import Token

# Nouns that stand for a part played: "the role of X", "his portrayal of X", "her part as X".
ROLE_NOUNS = frozenset({"role", "portrayal", "part", "voice"})
# Verbs that take such a noun: "played the role of", "took the part of", "reprised her role as".
# "provided the voices of A, B and C"
ROLE_VERBS = frozenset({"play", "take", "reprise", "land", "portray", "perform", "provide", "lend"})
_CHARACTER_PREPS = ("of", "as")
_WORK_PREPS = ("on", "in")


def played_role(state: ChunkState, actors: list[Mention], noun: Token, qualifiers: list[Qualifier],
                more: list[Token] | None = None) -> bool:
    """Facts of `actors` playing the part `noun` ("role", "portrayal", "part") names; `more`: further
    preposition tokens of the verb ("played the role of X in Y"). Whether a character was found."""
    if state.lemma(noun) not in ROLE_NOUNS or not actors:
        return False
    characters: list[Mention] = []
    works: list[Mention] = []
    for prep in (c for c in noun.children if c.dep_ == "prep"):
        if prep.lower_ not in _CHARACTER_PREPS:
            if prep.lower_ in _WORK_PREPS:
                works.extend(_works(state, prep))
            continue
        for pobj in (p for p in prep.children if p.dep_ == "pobj"):
            for tok in listed(pobj):
                character = state.named(tok) or state.named_apposition(tok)
                if character is not None and not character.is_place:
                    characters.append(character)
                    # "the role of X on the TV series "Y"": the work hangs on the character's name
                    end = state.doc[character.end - 1] if character.end > 0 else tok
                    for inner in {*tok.children, *end.children}:
                        if inner.dep_ == "prep" and inner.lower_ in _WORK_PREPS:
                            works.extend(_works(state, inner))
    for prep in more or []:
        if prep.lower_ in _WORK_PREPS:
            works.extend(_works(state, prep))
    if not characters:
        return False
    for actor in actors:
        for character in characters:
            if state.is_person(actor) and character is not actor:
                character_quals = [q for q in qualifiers if q[1] is not character]
                state.triple(actor, "voice" if state.lemma(noun) == "voice" else "play", character,
                             character_quals)
        for work in works:
            if state.is_person(actor) and work not in characters:
                state.triple(actor, "appear in", work, qualifiers)
    return True


def _works(state: ChunkState, prep: Token) -> list[Mention]:
    """The works named after "on"/"in": the object, a title in apposition to it ("the TV series "Due
    South"", which the parser may hang on the character instead), or a quoted title."""
    found: list[Mention] = []
    for pobj in (p for p in prep.children if p.dep_ == "pobj"):
        candidates = [state.object(tok, False) for tok in listed(pobj)]
        if not any(candidates):  # the kind noun, then its title: 'on the TV series "Due South"'
            candidates = [name_after(state, pobj)[1]]
        found.extend(m for m in candidates if m is not None and _is_work(state, m))
    return found


def _is_work(state: ChunkState, mention: Mention) -> bool:
    return not (mention.is_date or mention.is_place) and (
        mention.label == "WORK_OF_ART" or mention.spg_class == state.classes.by_hint.get("Work"))


def possessed_role(state: ChunkState, noun: Token) -> None:
    """ "his portrayal of the Cylon Leoben Conoy on "Battlestar Galactica"", "Callum's role as Lew Ashby":
    the possessor played the character."""
    owners = [m for c in noun.children if c.dep_ == "poss" for m in [possessor(state, c)] if m is not None]
    played_role(state, owners, noun, [])


# Nouns for turns someone makes in a work: "guest appearances from A, B", "vocals by C", "cameos by D".
APPEARANCE_NOUNS = frozenset({"appearance", "cameo", "vocal", "contribution"})
_APPEARANCE_VERBS = frozenset({"feature", "include", "contain", "have"})


def appearances(state: ChunkState, works: list[Mention], verb: Token) -> bool:
    """ "The album features guest appearances from Adam Levine, Jeezy, Killer Mike, ...": (name, appear in,
    work) for each name after "from"/"by"/"of" on the verb's object. Whether any was found."""
    if state.lemma(verb) not in _APPEARANCE_VERBS or not works:
        return False
    found = False
    for obj in (c for c in verb.children if c.dep_ == "dobj" and state.lemma(c) in APPEARANCE_NOUNS):
        for prep in (c for c in obj.children if c.dep_ == "prep" and c.lower_ in ("from", "by", "of")):
            for pobj in (p for p in prep.children if p.dep_ == "pobj"):
                names = [m for t in listed(pobj) for m in [state.named(t)] if m is not None]
                for name in continue_list(state, names, pobj):
                    for work in works:
                        if work is not name and not state.is_person(work) and not work.is_place:
                            state.triple(name, "appear in", work, [])
                            found = True
    return found
