"""Coordinations the dependency parse loses, read back from the words (twelfth round of issue 23).

Two general mechanisms rather than one rule per trigger word:

- a verb list sharing one object ("designs, manufactures, and distributes small arms", "wrote and directed the
  film"): the parser hangs the object on the last verb only, so every bare verb before it takes that object;
- a list of common nouns as written ("an American playwright, screenwriter, novelist, and short-story author"):
  when the parser misreads it (members hung as modifiers or appositions of a later one), the commas and the
  closing "and"/"or" still say which words are its members.
"""

from __future__ import annotations

from spacy.tokens import Span, Token

from kgbuild.extract.vocab import NOUN_TAGS

# What a verb may carry and still be bare, i.e. take the object of a later verb of its list (anything else, an
# object, a preposition, a complement, a passive auxiliary, is its own reading).
_BARE_DEPS = frozenset({"cc", "punct", "conj", "nsubj", "aux", "advmod", "neg"})
# Verbs written mostly without an object, so that "sang and played guitar" does not make "sing guitar".
_INTRANSITIVE = frozenset({"sing", "live", "die", "work", "grow", "travel", "return", "retire", "compete", "tour",
                           "perform", "act", "study", "serve", "move", "rise", "fall", "go", "come", "arrive",
                           "emigrate", "resign", "marry", "appear", "debut", "star", "graduate", "train", "fight"})
_LIST_WORDS = frozenset({",", "and", "or"})


def shared_object_verb(verb: Token, lemma: str) -> Token | None:
    """The later verb of `verb`'s list whose direct object `verb` shares, or None.

    `verb` must be bare (no object, preposition or complement of its own) and written right before the rest of
    the list: only commas, "and"/"or" and other bare verbs of the list stand between it and the verb with the
    object ("designs, manufactures, and distributes X": designs and manufactures take X). Passives share no
    object ("was founded and is owned by X" is read from the agent elsewhere)."""
    if lemma in _INTRANSITIVE or not verb.tag_.startswith("VB"):
        return None
    # (a phrase written before the verb is the whole list's: "In 2008 he produced and directed X")
    if any(c.dep_ not in _BARE_DEPS and not (c.i < verb.i and c.dep_ in ("prep", "npadvmod")) for c in verb.children):
        return None
    later = sorted((c for c in verb.conjuncts if c.i > verb.i), key=lambda t: t.i)
    doc = verb.doc
    for other in later:
        if not other.tag_.startswith("VB"):
            if other.tag_ in NOUN_TAGS and all(c.dep_ in ("punct", "cc", "conj") for c in other.children):
                continue  # "designs, manufactures (NNS), and distributes X": the tagger's slip inside the list
            return None
        if any(c.dep_ in ("auxpass", "nsubjpass") for c in other.children):
            return None
        between = doc[verb.i + 1 : other.i]
        if not all(t.lower_ in _LIST_WORDS or (t in later and t.i < other.i) for t in between):
            return None
        if any(c.dep_ == "dobj" for c in other.children):
            return other
        if any(c.dep_ not in _BARE_DEPS for c in other.children):
            return None  # "wrote, and starred in X": the later verb's complement is its own
    return None


def shared_objects(verb: Token, lemma: str) -> list[Token]:
    """The direct objects `verb` shares with a later verb of its list (see shared_object_verb)."""
    other = shared_object_verb(verb, lemma)
    return [] if other is None else [c for c in other.children if c.dep_ == "dobj"]


# What a member of a written noun list may be made of: adjectives, nouns and hyphens ("short-story author").
_MEMBER_TAGS = frozenset({"JJ", "NN", "NNS", "HYPH", "VBG", "VBN"})


def written_noun_list(first: Token) -> list[Span]:
    """The common-noun members written after `first` in a list "first, B, C(,) and D" within its sentence, in
    order (each span ends with its head noun), or [] when the words after `first` are no such list.

    A member is a run of adjectives and common nouns ending with a noun; one with its own article, a name or a
    pronoun ends the reading with no list ("a writer, and the director of X", "a city, and he ..."), and so does
    a list no "and"/"or" closes (an apposition, "Columbus, Ohio")."""
    doc = first.doc
    end = first.sent.end
    if first.tag_ not in NOUN_TAGS:
        return []
    i = first.i + 1
    members: list[Span] = []
    while i < end:
        last = False
        if doc[i].text == ",":
            i += 1
            if i < end and doc[i].lower_ in ("and", "or"):
                i += 1
                last = True
        elif doc[i].lower_ in ("and", "or"):
            i += 1
            last = True
        else:
            return []
        start = i
        while i < end and doc[i].tag_ in _MEMBER_TAGS and doc[i].ent_type_ in ("", "NORP"):
            i += 1
        if i == start or doc[i - 1].tag_ not in NOUN_TAGS:
            return []
        members.append(doc[start:i])
        if last:
            return members
    return []
