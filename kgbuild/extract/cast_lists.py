"""A cast named as the subject of a bare "star": "Joanne Woodward, Ellen Barkin, Ossie Davis, Wilford Brimley and
Judith Ivey also star." in a passage about a film. The work they star in is the passage's topic (the thing its
first clause was about), so each person is (topic, star, person), as "It stars X" reads. The tagger often takes
this "star" for a noun (the sentence's root with a subject), so the rule reads the word, not the clause.

The same cast with no clause at all: "Starring Rajendra Prasad, Sumalatha, Chandra Mohan in the lead roles and music
composed by Raj-Koti." is a fragment whose root is the participle, with no subject for any clause rule to read; the
passage's topic work is what stars them, as "It stars A, B and C" would say."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kgbuild.extract.chunk_state import ChunkState, listed, unique
from kgbuild.extract.name_lists import continue_list

if TYPE_CHECKING:
    from spacy.tokens import Token

    from kgbuild.extract.facts import Mention

# What a cast stars in, by the last word of the topic's type ("a 1967 black horror comedy film"); the NER may call
# the title a person ("Spider Baby"), so the type, not the class, says it is a work.
_CAST_WORKS = frozenset({"film", "movie", "series", "miniseries", "serial", "show", "sitcom", "drama", "comedy",
                         "thriller", "western", "musical", "play", "opera", "episode", "documentary", "telefilm"})
_STAR_WORDS = frozenset({"star", "co-star", "costar"})
# Anything after the verb that names what or how they star makes this some other clause ("star in X", "starred as
# Y"): only a bare "star", maybe with "also"/"too", is read.
_BARE = frozenset({"advmod", "punct", "cc", "nsubj", "aux"})
# A fragment's participle that names a cast: "Starring A, B and C", "Co-starring A and B".
_FRAGMENT_WORDS = frozenset({"starring", "co-starring", "costarring"})


def cast_subjects(state: ChunkState) -> None:
    """(topic, star, person) for each person subject of a bare "A, B and C also star"."""
    topic = state.topic
    kind = (topic.semantic_type or "").split()[-1:] if topic is not None else []
    if topic is not None and not topic.is_date and ((kind and kind[0].lower() in _CAST_WORKS) or (
            not kind and topic.spg_class == state.classes.by_hint.get("Work"))):
        # (the NER may call the title a person, "Bhama Kalapam", so the type decides; a work the rules could not
        # type, "is 1989 Telugu comedy film" with no article, will do: "Starring" says it has a cast)
        _fragment_casts(state, topic)
    if topic is None or topic.is_date or not kind or kind[0].lower() not in _CAST_WORKS:
        return  # "he and his brother also star" in a biography: starring in what is not said
    for tok in state.doc:
        if tok.lower_ not in _STAR_WORDS or tok.dep_ != "ROOT" or any(c.dep_ not in _BARE for c in tok.children):
            continue
        subject = next((c for c in tok.children if c.dep_ == "nsubj" and c.i < tok.i), None)
        if subject is None:
            continue
        people = [state.tok2m[t.i] for t in listed(subject)]
        # every member a name, and no place among them that is not also a person's (the NER's GPE for a name)
        if any(m is None or m.is_date or m is topic for m in people) or not any(
                m is not None and state.is_person(m) for m in people):
            continue
        for person in people:
            if person is not None:
                state.triple(topic, "star", person, [])


def unique_tokens(tokens: list[Token]) -> list[Token]:
    return [t for n, t in enumerate(tokens) if all(t.i != u.i for u in tokens[:n])]


def _fragment_casts(state: ChunkState, topic: Mention) -> None:
    """(topic, star, person) for each object of a sentence that is only "Starring A, B, C ..." (its root the
    participle, no subject anywhere in it); a participle that opens a clause ("Starring A and B, the film
    depicts ...") hangs on that clause's verb and is read there."""
    for tok in state.doc:
        if tok.lower_ not in _FRAGMENT_WORDS or tok.dep_ != "ROOT" or tok.tag_ != "VBG":
            continue
        if any(t.dep_ in ("nsubj", "nsubjpass") for t in tok.sent):
            continue  # a clause of its own somewhere in the sentence: not a bare fragment
        first = next((c for c in tok.children if c.dep_ == "dobj"), None)
        if first is None:
            continue
        # Members: the conjuncts, and proper nouns hung on them as appositions ("Starring Rajendra Prasad (no
        # label), Maheswari (appos, GPE) in the lead roles": "starring" says they are performers, whatever the NER
        # guessed). A name the NER missed is still a proper noun the object reading takes.
        tokens = [*listed(first), *(c for c in first.children if c.dep_ == "appos" and c.tag_ in ("NNP", "NNPS"))]
        written = [state.object(t, False) for t in unique_tokens(tokens)]
        if any(m is None or m.is_date or m is topic or m.spg_class == state.classes.concept for m in written):
            continue  # a member that is no name ("Starring an ensemble cast") or the work itself
        people = [m for m in written if m is not None]
        for person in unique(continue_list(state, people, first)):
            # (the NER may take the participle into the first name: "Starring Rajendra Prasad" is no name)
            if person is not topic and not person.is_date and person.start > tok.i:
                state.triple(topic, "star", person, [])
