"""Coordinations the dependency parse loses, read back from the words (twelfth round of issue 23).

Two general mechanisms rather than one rule per trigger word:

- a verb list sharing one object ("designs, manufactures, and distributes small arms", "wrote and directed the
  film"): the parser hangs the object on the last verb only, so every bare verb before it takes that object;
- a list of common nouns as written ("an American playwright, screenwriter, novelist, and short-story author"):
  when the parser misreads it (members hung as modifiers or appositions of a later one), the commas and the
  closing "and"/"or" still say which words are its members.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kgbuild.extract.facts import CONCEPT, Mention
from kgbuild.extract.subjects import verb_subjects
from kgbuild.extract.typehints import class_hint
from kgbuild.extract.vocab import NOUN_TAGS

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span, Token  # types only: a build with nothing to extract must not import spaCy

    from kgbuild.extract.chunk_state import ChunkState

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
# What may follow a member's head inside it: an "of" phrase ("author of cabaret texts"); such a member is read
# over but not returned (a relational noun says how the thing stands to another, docs/offline_extraction.md).
_OF_TAIL_TAGS = frozenset({"DT", "JJ", "NN", "NNS", "NNP", "NNPS", "HYPH", "POS", "CD"})


def _in_member(tok: Token) -> bool:
    return tok.tag_ in _MEMBER_TAGS and tok.ent_type_ in ("", "NORP")


def _member_start(doc: Doc, end: int, floor: int) -> int:
    """The first token of the member that ends at `end` (exclusive), reading left down to `floor`."""
    i = end
    while i > floor and _in_member(doc[i - 1]):
        i -= 1
    return i


def written_noun_list(noun: Token) -> list[Span]:
    """The other common-noun members of the written list "A, B, C(,) and D" that `noun` heads a member of, in
    order (each span ends with its head noun), or [] when the words around `noun` are no such list.

    A member is a run of adjectives and common nouns ending with a noun, read from the commas and not from the
    parse, which often misreads long lists (members hung as modifiers or appositions of a later one). A member
    with its own article, a name or a pronoun ends the list ("a writer, and the director of X", "a city, and he
    ..."); a list needs its "and"/"or" ("Columbus, Ohio" is none). Members with an "of" phrase are read over,
    not returned ("a writer, librettist, comedy author, author of cabaret texts and biographer")."""
    doc = noun.doc
    sent = noun.sent
    if noun.tag_ not in NOUN_TAGS or (noun.i + 1 < sent.end and _in_member(doc[noun.i + 1])):
        return []  # not a member's head
    closed = False
    before: list[Span] = []
    start = _member_start(doc, noun.i, sent.start)
    while start > sent.start:
        j = start - 1
        if doc[j].lower_ in ("and", "or"):
            if closed or before or j == sent.start or doc[j - 1].text != ",":
                # "A and B, C": the "and" closed an earlier list; a bare "and" right before the member is as often
                # between modifiers of one noun ("a film, television and stage actress", "rock and roll groupie")
                break
            closed = True
            j -= 1
        elif doc[j].text != ",":
            break
        first = _member_start(doc, j, sent.start)
        if first == j or doc[j - 1].tag_ not in NOUN_TAGS:
            break
        before.insert(0, doc[first:j])
        start = first
    after: list[Span] = []
    i = noun.i + 1
    while i < sent.end and not closed:
        if doc[i].text == ",":
            i += 1
            if i < sent.end and doc[i].lower_ in ("and", "or"):
                i += 1
                closed = True
        elif doc[i].lower_ in ("and", "or"):
            i += 1
            closed = True
        else:
            break
        first = i
        while i < sent.end and _in_member(doc[i]):
            i += 1
        if i == first or doc[i - 1].tag_ not in NOUN_TAGS:
            return []
        member = doc[first:i]
        if i < sent.end and doc[i].lower_ == "of":  # "author of cabaret texts": read over
            i += 1
            while i < sent.end and doc[i].tag_ in _OF_TAIL_TAGS and doc[i].lower_ not in ("and", "or"):
                i += 1
            continue
        after.append(member)
    if not closed:
        return []
    return before + after


# Verbs that head a cast list and that the tagger often reads as a noun modifying the first name ("and stars
# (compound) Pam Grier, Sid Haig, ...", '"Freeloaders" stars (NNS) Clifton Collins Jr., ...'): no clause is read.
_LIST_VERBS = {"stars": "star", "features": "feature"}
_CLOSERS = frozenset({".", ";", ":", "(", ")"})


def written_names(state: ChunkState, i: int) -> list[Mention]:
    """The names of the list written from token `i` on: "A, B, C(,) and D", read from the commas and the
    closing "and", not from the parse (which often breaks a long list of unfamiliar names). The last member is
    the last name before the sentence goes on ("... and Counting Crows lead singer Adam Duritz": Adam Duritz).
    [] when no "and" closes a list of names."""
    doc = state.doc
    end = doc[i].sent.end
    out: list[Mention] = []
    while i < end:
        mention = state.tok2m[i]
        if mention is None or mention.is_date or mention.label == CONCEPT or mention.start != i:
            return []
        out.append(mention)
        i = mention.end
        if i < end and doc[i].text == ",":
            i += 1
        if i < end and doc[i].lower_ == "and":
            last = None
            for k in range(i + 1, min(end, i + 8)):
                if doc[k].text in _CLOSERS or doc[k].lower_ in ("and", "who", "which", "in", "as"):
                    break
                found = state.tok2m[k]
                if found is not None and not found.is_date and found.label != CONCEPT:
                    last = found
            return [*out, last] if last is not None and last not in out else []
    return []


def misread_list_verbs(state: ChunkState) -> None:
    """(work, star, X) for each name of a cast list whose verb the parser misread as a noun (_LIST_VERBS). The
    work is the subject of the clause the "and" before the verb coordinates it with ("The film was written and
    directed by Jack Hill, and stars A, B, ..."), or the name right before the verb ('"Freeloaders" stars A')."""
    doc = state.doc
    for tok in doc:
        lemma = _LIST_VERBS.get(tok.lower_)
        if lemma is None or tok.i + 1 >= len(doc) or (
                tok.tag_.startswith("VB") and tok.dep_ not in ("compound", "nmod", "amod")):
            continue
        members = written_names(state, tok.i + 1)
        if len(members) < 2 or not any(state.is_person(m) for m in members):
            continue
        before = tok.i - 1
        subjects: list[Mention] = []
        if before >= 0 and doc[before].lower_ == "and" and doc[before].head.tag_.startswith("VB"):
            subjects = verb_subjects(state, doc[before].head)[0]
        else:
            while before >= 0 and doc[before].is_quote:
                before -= 1
            subject = state.tok2m[before] if before >= 0 else None
            subjects = [subject] if subject is not None and subject.end == before + 1 else []
        for subject in subjects:
            if subject.is_date or (state.is_person(subject) and class_hint(subject.semantic_type or "") != "Work"):
                continue  # (a work the NER labelled a person is still a work when a definition says so)
            for member in members:
                state.triple(subject, lemma, member, [])
