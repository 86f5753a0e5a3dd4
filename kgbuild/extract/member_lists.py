"""Facts from a list a plural or group noun introduces: cast lists, rosters, line-ups, a person's works.

"Guest stars in the episode included Katrina Bowden, Kevin Brown and ...", "Members of the band include
A and B", "Metallica's current lineup comprises ... and bassist Robert Trujillo", "Her films include "X"
and "Y"": the subject is a common noun, so no clause rule finds a named subject, yet the sentence states
that each listed name is one of the noun's kind in (or of) the thing the noun's preposition or possessor
names. Each name gets (name, "<noun> <prep>", owner): (Katrina Bowden, guest star in, Tracy Does Conan),
(A, member of, the band), (X, film of, her); a group noun says "member of" ("cast member of" for a cast).
With no owner named, a cast's or membership's owner is the passage's topic when that is a defined work
or organisation ("Co-stars include A, B" in the article on a film); other lists with no owner
("Highlights included ...") state nothing about a named thing: no fact.
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
               "ensemble": "cast member of", "team": "member of", "staff": "member of", "board": "member of",
               "committee": "member of", "panel": "member of", "jury": "member of"}
# Groups whose members are people, whatever the NER guessed ("founding members Hetfield (ORG) and Ulrich").
_PEOPLE_GROUPS = frozenset({"lineup", "line-up", "cast", "ensemble", "crew"})
_ANY = ""
# Kinds of member whose owner, when the sentence names none, is the passage's topic of this class.
_TOPIC_KINDS = {"star": "Work", "cast": "Work", "ensemble": "Work", "member": "Organization",
                "lineup": "Organization", "line-up": "Organization", "roster": "Organization",
                "team": "Organization", "staff": "Organization", "board": "Organization",
                # an award's, a prize's or a contest's: whatever class the topic has, but not a person
                "winner": _ANY, "recipient": _ANY, "laureate": _ANY, "honoree": _ANY, "inductee": _ANY}
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
    # The last subject: the parser may make every piece of "Co-stars" a subject of its own.
    subject = next((c for c in reversed(list(verb.children)) if c.dep_ == "nsubj" and c.i < verb.i), None)
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
    phrase = noun_phrase(state, subject)
    if phrase.endswith(subject.lower_):  # "co-stars": the hyphenated phrase keeps the plural
        phrase = phrase[: len(phrase) - len(subject.lower_)] + head
    if not owners:
        # "Co-stars include A, B", "The cast also features C": a cast or membership with no owner named
        # is the passage's topic's, when that is a defined work or group (not a person: "Her co-stars").
        kind = _TOPIC_KINDS.get(phrase.split()[-1].split("-")[-1]) or _TOPIC_KINDS.get(head)
        bare = subject.tag_ == "NNS" and not any(c.dep_ in ("det", "poss") for c in subject.children)
        the = any(c.dep_ == "det" and c.lower_ == "the" for c in subject.children)
        topic = _topic_owner(state, kind) if bare or the else None
        if kind is None or topic is None:
            return
        owners.append(("in" if kind == "Work" else "of", topic))
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
    if head in _PEOPLE_GROUPS:
        _people(state, members)
    for prep, owner in owners:
        predicate = collective or f"{phrase} {prep}"
        for member in unique(members):
            if member is not owner:
                state.triple(member, predicate, owner, [])


def group_of_names(state: ChunkState, noun: Token) -> None:
    """ "with the non-Japanese starring cast of Robert Horton, Richard Jaeckel and Luciana Paluzzi", "a lineup
    of A, B and C": a group noun whose "of" lists names; the group is its possessor's or, with none, the
    passage's topic when that is a defined work (a cast) or organisation (a lineup)."""
    predicate = GROUP_NOUNS.get(state.lemma(noun))
    kind = _TOPIC_KINDS.get(state.lemma(noun))
    if predicate is None or kind is None:
        return
    members: list[Mention] = []
    for prep in (c for c in noun.children if c.dep_ == "prep" and c.lower_ == "of"):
        for pobj in (p for p in prep.children if p.dep_ == "pobj"):
            found = [m for t in listed(pobj) for m in [state.named(t)] if m is not None and state.is_person(m)]
            members.extend(continue_list(state, found, pobj))
    if not members:
        return
    if state.lemma(noun) in _PEOPLE_GROUPS:
        _people(state, members)
    owners = [m for c in noun.children if c.dep_ == "poss" for m in [state.subject(c)] if m is not None]
    topic = _topic_owner(state, kind)
    if not owners and topic is not None:
        owners = [topic]
    for owner in owners:
        for member in unique(members):
            if member is not owner:
                state.triple(member, predicate, owner, [])


def _people(state: ChunkState, members: list[Mention]) -> None:
    for member in members:
        if not state.is_person(member) and member.label != "WORK_OF_ART":
            member.guess_class(state.classes.person)


def _topic_owner(state: ChunkState, kind: str | None) -> Mention | None:
    """The passage's topic as the owner of a list of `kind` ("Work", "Organization", or any class but a
    person's, a place's or a date's), or None."""
    topic = state.topic
    if kind is None or topic is None or topic.is_date or topic.is_place or state.is_person(topic):
        return None
    if kind == _ANY:
        return topic if topic.spg_class != state.classes.fallback else None
    return topic if state.classes.by_hint.get(kind) == topic.spg_class else None
