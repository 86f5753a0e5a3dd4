"""A cast named as the subject of a bare "star": "Joanne Woodward, Ellen Barkin, Ossie Davis, Wilford Brimley and
Judith Ivey also star." in a passage about a film. The work they star in is the passage's topic (the thing its
first clause was about), so each person is (topic, star, person), as "It stars X" reads. The tagger often takes
this "star" for a noun (the sentence's root with a subject), so the rule reads the word, not the clause."""

from __future__ import annotations

from kgbuild.extract.chunk_state import ChunkState, listed

# What a cast stars in, by the last word of the topic's type ("a 1967 black horror comedy film"); the NER may call
# the title a person ("Spider Baby"), so the type, not the class, says it is a work.
_CAST_WORKS = frozenset({"film", "movie", "series", "miniseries", "serial", "show", "sitcom", "drama", "comedy",
                         "thriller", "western", "musical", "play", "opera", "episode", "documentary", "telefilm"})
_STAR_WORDS = frozenset({"star", "co-star", "costar"})
# Anything after the verb that names what or how they star makes this some other clause ("star in X", "starred as
# Y"): only a bare "star", maybe with "also"/"too", is read.
_BARE = frozenset({"advmod", "punct", "cc", "nsubj", "aux"})


def cast_subjects(state: ChunkState) -> None:
    """(topic, star, person) for each person subject of a bare "A, B and C also star"."""
    topic = state.topic
    kind = (topic.semantic_type or "").split()[-1:] if topic is not None else []
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
