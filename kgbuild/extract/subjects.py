"""Who a verb is about: its subjects (coordinations expanded, inherited through conj, xcomp
and participle clauses, parser slips repaired) and whether it is passive."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kgbuild.extract.arguments import _expletive as expletive
from kgbuild.extract.chunk_state import ChunkState, conjuncts, unique
from kgbuild.extract.facts import Mention
from kgbuild.extract.name_lists import included
from kgbuild.extract.parentheses import parenthesis_owner
from kgbuild.extract.vocab import CREDIT_VERBS, REL_PRONOUNS, XCOMP_HEADS

if TYPE_CHECKING:
    from spacy.tokens import Token


def _coordinated(state: ChunkState, verb: Token) -> bool:
    """Whether a conj verb really follows "and"/"or"/"," (the parser also hangs stray
    participles on far-away verbs with `conj`)."""
    j = verb.i - 1
    while j > 0 and state.doc[j].dep_ in ("advmod", "aux", "auxpass", "neg"):
        j -= 1
    return j >= 0 and (state.doc[j].tag_ == "CC" or state.doc[j].text == ",")


def _noun_head(state: ChunkState, tok: Token) -> list[Mention]:
    """The entity a noun modified by a relative or participle clause stands for."""
    mention = state.subject(tok)
    if mention is not None:
        return [mention]
    while tok.dep_ == "conj" and tok.head.i < tok.i and tok.tag_ in ("NN", "NNS"):
        tok = tok.head  # "a politician, banker and professor born in Antwerp": the list's first noun
    if tok.dep_ == "attr" and tok.head.tag_.startswith("VB"):  # "X is a game created by Y": the game is X
        return verb_subjects(state, tok.head)[0]
    if tok.dep_ == "appos":
        mention = state.subject(tok.head)
        if mention is None and tok.head.dep_ == "attr" and tok.head.tag_ in ("NN", "NNS"):
            return _noun_head(state, tok.head)  # "X is a pop ballad, song performed by Y": the song is X
        return [mention] if mention is not None else []
    return []


def _named_subject(verb: Token) -> bool:
    """Whether the verb's subject is a proper name (not "the film", not "it")."""
    return any(c.dep_ in ("nsubj", "nsubjpass") and c.tag_ in ("NNP", "NNPS") for c in verb.children)


def _name_before(state: ChunkState, verb: Token) -> Mention | None:
    """The mention of the single token that opens the verb's sentence right before it."""
    i = verb.i - 1
    if i < 0 or state.sent_bounds[state.sent_index[verb.i]][0] != i:
        return None
    mention = state.tok2m[i]
    return mention if mention is not None and not mention.is_date else None


# Prepositions before a gerund that say it did not happen ("without joining", "instead of signing").
_NOT_DONE = frozenset({"without", "instead", "despite", "against"})
# What happens to a work, never to a person.
_WORK_EVENTS = frozenset({"release", "publish", "premiere", "screen", "broadcast", "air", "reissue"})


def _work_before(state: ChunkState, verb: Token) -> Mention | None:
    """The latest name before the participle in its sentence, when it is a work (not a person, place or date)."""
    start = state.sent_bounds[state.sent_index[verb.i]][0]
    best: Mention | None = None
    for mention in state.mentions:
        if start <= mention.start < verb.i and (best is None or mention.start > best.start) and (
                state.paren_of[mention.start] < 0):
            best = mention
    if best is None or best.is_date or best.is_place or state.is_person(best):
        return None
    return best if best.label == "WORK_OF_ART" or best.spg_class == state.classes.by_hint.get("Work") else None


def _went_on_to(state: ChunkState, verb: Token) -> bool:
    """ "went on to form Megadeth", "continued to write": an infinitive the parser hangs on "go on" (or
    another verb of going on) as an adverbial clause has that verb's subject."""
    return verb.tag_ == "VB" and any(c.dep_ == "aux" and c.lower_ == "to" for c in verb.children) and (
        state.lemma(verb.head) in XCOMP_HEADS and verb.head.tag_.startswith("VB"))


_WORK_NOUNS = frozenset({"film", "movie", "biopic", "documentary", "drama", "comedy", "series", "episode", "musical",
                         "book", "novel", "play", "opera", "album", "song", "show", "programme", "program"})


def _work_noun_above(state: ChunkState, head: Token) -> Token | None:
    """The work noun whose prepositional phrases end at `head`, a person or place ("a film about cadets at X in
    Lexington"), within a few steps up the parse; None when `head` is no person or place or no work noun is met."""
    mention = state.tok2m[head.i]
    if head.dep_ != "pobj" or mention is None or not (state.is_person(mention) or mention.is_place):
        return None
    tok = head
    for _ in range(8):
        if tok.dep_ not in ("pobj", "prep", "appos", "conj", "compound") or tok.head is tok:
            return None
        tok = tok.head
        if tok.tag_ in ("NN", "NNS") and state.lemma(tok) in _WORK_NOUNS:
            return tok
    return None


def _outside_title(state: ChunkState, head: Token) -> Token:
    """`head`, or the verb a quoted title containing it hangs on: in 'directed "The General Died at Dawn" (1936), ...,
    and received the credit', the parser made "received" a conjunct of "Died", a word of the title."""
    for _ in range(4):
        title = state.tok2m[head.i]
        if title is None or title.label != "WORK_OF_ART" or title.start >= head.i or head.head is head:
            return head
        head = head.head
    return head


def _opening_name(state: ChunkState, verb: Token) -> Mention | None:
    """A name that is all the words before a sentence's main "is"/"was", when the parser gave the verb no subject:
    "First for Women is a woman's magazine" ("First" read as an adverb, "for Women" as its phrase)."""
    if verb.dep_ != "ROOT" or verb.lower_ not in ("is", "was", "are", "were"):
        return None
    start = state.sent_bounds[state.sent_index[verb.i]][0]
    mention = state.tok2m[start]
    if mention is None or mention.is_date or mention.start != start or mention.end != verb.i:
        return None
    return mention


def verb_subjects(state: ChunkState, verb: Token) -> tuple[list[Mention], bool]:
    """Subjects of a verb (coordinations expanded, inherited through conj/xcomp/acl) and passivity."""
    cached = state.subject_cache.get(verb.i)
    if cached is not None:
        return cached
    state.subject_cache[verb.i] = ([], False)  # guards against cycles in odd parses
    passive = False
    subject: Token | None = None
    derailed: Token | None = None
    for child in verb.children:
        dep = child.dep_
        if dep == "auxpass":
            passive = True
        elif dep in ("nsubj", "nsubjpass") and (subject is None or (
                subject.tag_ in ("NN", "NNS") and child.tag_ in ("PRP", "NNP", "NNPS"))):
            # Two subjects are a parser slip: "Currently a solo artist, he became known as ...": the
            # pronoun or name is the subject, the common noun describes it.
            subject = child
            passive = passive or dep == "nsubjpass"
        elif dep == "csubj":
            derailed = child
    opening = _opening_name(state, verb) if subject is None and derailed is None else None
    mentions: list[Mention] = []
    dep = verb.dep_
    if opening is not None:
        mentions = [opening]
    elif subject is not None and state.paren_of[subject.i] >= 0 and state.paren_of[verb.i] != state.paren_of[subject.i]:
        # "Vera June Miles (née Ralston, born 1929) is ...": the parser took the name inside
        # the parenthesis for the subject; the sentence is about the name before it.
        owner = parenthesis_owner(state, state.paren_of[subject.i])
        mentions = [owner] if owner is not None else []
    elif subject is not None:
        if dep == "relcl" and subject.lower_ in REL_PRONOUNS:
            mentions = _noun_head(state, verb.head)
        else:
            for tok in conjuncts(subject):
                mention = state.subject(tok)
                if mention is not None:
                    mentions.append(mention)
                elif tok.tag_ in ("NN", "NNS") and (named := included(state, tok)):
                    mentions.extend(named)  # "A number of movies, such as A (1986), B and C have been shot in X"
                elif tok.tag_ == "PRP" and tok.lower_ in ("he", "she", "it") and not expletive(tok):
                    state.drops.append(("pronoun unresolved", "relation", f"{tok.text} {verb.text}"))
    elif derailed is not None:
        # Clausal subjects are parser slips here: '"Too Good to Last" is a song' (a quoted
        # title) and "Lambert (died after 938) was ..." (the name before the parenthesis).
        if derailed.lower_ in ("born", "died") and derailed.i >= 2 and state.doc[derailed.i - 1].text == "(":
            mention = state.subject(state.doc[derailed.i - 2])
        elif state.paren_of[derailed.i] >= 0 and state.paren_of[verb.i] != state.paren_of[derailed.i]:
            # 'Raja Hindustani (English: "Raja the Indian") is a 1996 film': the parser made the title in
            # the parenthesis a clause and the subject; the sentence is about the name before it.
            mention = parenthesis_owner(state, state.paren_of[derailed.i])
        else:
            # A title read as a clause ("Never Cry Wolf is a 1983 film"): the name covering it.
            mention = state.tok2m[derailed.i] or state.quoted(derailed)
            if mention is not None and mention.is_date:
                mention = None
        mentions = [mention] if mention is not None else []
    elif (dep == "conj" and _coordinated(state, verb)) or (dep == "xcomp" and state.lemma(verb.head) in XCOMP_HEADS):
        head = _outside_title(state, verb.head)
        if head.tag_.startswith("VB"):
            mentions, head_passive = verb_subjects(state, head)
            # "starring and directed by X": a participle with its own agent is passive whatever its head is.
            own_agent = any(c.dep_ == "agent" for c in verb.children)
            passive = passive or (verb.tag_ == "VBN" and (head_passive or own_agent))
    elif dep == "advcl" and _went_on_to(state, verb):
        mentions = verb_subjects(state, verb.head)[0]  # "Dave Mustaine (who went on to form Megadeth)"
    elif verb.tag_ in ("VBD", "VBZ", "VBP") and _name_before(state, verb) is not None:
        # "Turing designed the Bombe": the name, tagged as a gerund, became the root and the
        # verb an adverbial clause; the name that opens the sentence is the subject.
        mentions = [_name_before(state, verb)]  # type: ignore[list-item]
    elif dep == "advcl" and verb.tag_ in ("VBG", "VBN") and verb.head.tag_.startswith("VB") and not (
            verb.tag_ == "VBN" and verb.i < verb.head.i and _named_subject(verb.head)):
        # "a film written and directed by Priyadarshan, featuring Akshay Kumar", "Written by Tab
        # Murphy, ..., the film features": a participle clause without a subject of its own is
        # about its head's subject (what a past participle says was done to it). Not when a fronted
        # one is followed by a name: "Formerly owned by Harris Publications, Future US bought the
        # magazine" is about the magazine, a dangling modifier no rule here reads safely.
        mentions = verb_subjects(state, verb.head)[0]
        passive = verb.tag_ == "VBN"
    elif dep == "pcomp" and verb.head.dep_ == "prep" and verb.head.lower_ not in _NOT_DONE and (
            verb.head.head.tag_.startswith("VB")):
        # "known for being the first wife of ...", "after joining the Post Office": a gerund after a
        # preposition is about the subject of the verb the preposition belongs to.
        mentions = verb_subjects(state, verb.head.head)[0]
        passive = any(c.dep_ == "auxpass" for c in verb.children)
    elif dep == "acl":
        head = verb.head
        if state.lemma(verb) in CREDIT_VERBS and head.dep_ == "pobj" and head.head.dep_ == "agent":
            # "a film directed by X, written by Y": "written" hangs on X but is about the film.
            mentions = verb_subjects(state, head.head.head)[0]
        elif (state.lemma(verb) in CREDIT_VERBS and verb.i > 0 and state.doc[verb.i - 1].text == ","
              and (work_noun := _work_noun_above(state, head)) is not None):
            # "a 1942 biopic about aviator Amy Johnson, directed and produced by Herbert Wilcox", "a comedy drama
            # film about cadets at Virginia Military Institute in Lexington, Virginia, directed by William
            # Keighley": the parser hung the participle on the last person or place named; they were not
            # directed, the work the phrase describes was.
            mentions = _noun_head(state, work_noun)
        else:
            mentions = _noun_head(state, head)
            if verb.tag_ == "VBN" and state.lemma(verb) in _WORK_EVENTS and mentions and all(
                    state.is_person(m) for m in mentions):
                # "a film director, best known for his film "Little Vera" (...), released in 1988": the
                # parser hung the participle on the person; a person is not released, the work just
                # named before it was.
                work = _work_before(state, verb)
                mentions = [work] if work is not None else mentions
        passive = verb.tag_ == "VBN"
    result = (unique(mentions), passive)
    state.subject_cache[verb.i] = result
    return result
