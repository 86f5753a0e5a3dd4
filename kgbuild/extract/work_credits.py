"""Who made a part of a work: "The film's music is composed by Nadeem-Shravan with lyrics by Sameer",
"The screenplay was written by Bryan Elsley", "The films music is by Bappi Lahiri".

The subject is a part of a work (music, screenplay, lyrics, ...), a common noun no clause rule resolves
to a named thing, so the maker after "by" was lost. The part belongs to its possessor ("The film's
music") or, with none, to the passage's topic when that is a work; the maker gets (maker, "<verb>
<part> for", work): (Nadeem-Shravan, compose music for, Raja); without a verb ("is by", "with lyrics by")
the part's usual one ("compose" music, "write" lyrics), or "<part> for" for parts without one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kgbuild.extract.chunk_state import ChunkState, listed, unique
from kgbuild.extract.facts import Mention

if TYPE_CHECKING:
    from spacy.tokens import Token

# Parts of a work that someone makes; "story" and "book" are left out (a story is often the plot).
WORK_PARTS = frozenset({"music", "score", "soundtrack", "lyrics", "lyric", "screenplay", "script", "teleplay",
                        "cinematography", "choreography", "dialogue", "dialogues", "artwork", "libretto"})

# What one does to a part when the sentence gives no verb ("is by X", "with lyrics by Y").
_PART_VERBS = {"music": "compose", "score": "compose", "soundtrack": "compose", "lyrics": "write", "lyric": "write",
               "screenplay": "write", "script": "write", "teleplay": "write", "dialogue": "write",
               "dialogues": "write", "libretto": "write"}


def work_part_makers(state: ChunkState, verb: Token) -> None:
    """(maker, "<verb> <part> for", work) for a clause whose subject is a part of a work."""
    part: Token | None = verb.head  # "music composed by S. P. Balasubrahmanyam" (acl)
    if verb.dep_ != "acl":
        part = next((c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass") and c.i < verb.i), None)
    if part is None or part.tag_ not in ("NN", "NNS") or state.tok2m[part.i] is not None:
        return
    noun = part.lower_
    if noun not in WORK_PARTS:
        return
    work = _work_of(state, part)
    if work is None:
        return
    makers: list[tuple[str, Mention]] = []
    lemma = state.lemma(verb)
    for child in verb.children:
        if child.dep_ == "agent" or (lemma == "be" and child.dep_ == "prep" and child.lower_ == "by"):
            for pobj in (p for p in child.children if p.dep_ == "pobj"):
                for tok in listed(pobj):
                    maker = state.named(tok)
                    if maker is None or maker is work:
                        continue
                    makers.append((noun, maker))
    # "composed by Nadeem-Shravan with lyrics by Sameer": a further part and its maker, the "with" hung on
    # the maker or on the verb
    withs = [w for w in verb.subtree if w.dep_ == "prep" and w.lower_ == "with" and w.head.i >= verb.i]
    for other in (p for w in withs for p in w.children if p.dep_ == "pobj" and p.lower_ in WORK_PARTS):
        makers.extend((other.lower_, m) for by in other.children if by.dep_ == "prep" and by.lower_ == "by"
                      for p in by.children if p.dep_ == "pobj" for t in listed(p)
                      for m in [state.named(t)] if m is not None and m is not work)
    for part_word, maker in _unique_pairs(makers):
        verb_word = lemma if lemma != "be" and part_word == noun else _PART_VERBS.get(part_word)
        state.triple(maker, f"{verb_word} {part_word} for" if verb_word else f"{part_word} for", work, [])


def _unique_pairs(pairs: list[tuple[str, Mention]]) -> list[tuple[str, Mention]]:
    out: list[tuple[str, Mention]] = []
    for pair in pairs:
        if not any(word == pair[0] and m is pair[1] for word, m in out):
            out.append(pair)
    return out


def _work_of(state: ChunkState, part: Token) -> Mention | None:
    """The work a part belongs to: its possessor ("The film's music", resolved as a subject is), or the
    passage's topic when that is a work ("The screenplay was written by ...")."""
    owners = unique(m for c in part.children if c.dep_ == "poss" for m in [state.subject(c)] if m is not None)
    work_class = state.classes.by_hint.get("Work")
    if owners:
        return owners[0] if owners[0].spg_class == work_class or owners[0].label == "WORK_OF_ART" else None
    topic = state.topic
    if topic is not None and not topic.is_date and (topic.spg_class == work_class or topic.label == "WORK_OF_ART"):
        return topic
    return None
