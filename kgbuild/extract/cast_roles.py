"""Who plays whom in a cast: "Michael Caine as Alfred Pennyworth, Gary Oldman as James Gordon, and Morgan Freeman as
Lucius Fox", "The film features the voices of Kathryn Beaumont as Alice, Sterling Holloway as the Cheshire Cat",
"Phil Hartman also guest stars as Troy McClure".

A name, "as" and a second name, in a sentence about performing (a cast, starring, a voice, a role), says the first
plays the second: (actor, play, character), or "voice" when the sentence is about voices. The parser hangs such an
"as" on whatever it likes (the previous member, the verb, the character before), so the rule reads the words: the
name that ends right before "as" and the name that starts right after it (or after "the"). An "as" right after a
performing verb ("guest stars as X", "appeared as X") has the verb's subject as the actor.

What the rule will not read: a character that is only a job or a title ("with A as Director", "succeeded B as
President"), the topic work or any work as the actor, and a date on either side.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kgbuild.extract.vocab import TITLE_NOUNS

if TYPE_CHECKING:
    from spacy.tokens import Span, Token

    from kgbuild.extract.chunk_state import ChunkState
    from kgbuild.extract.facts import Mention

# Words that make a sentence one about performing parts.
_CUES = frozenset({"star", "co-star", "costar", "starring", "feature", "voice", "cast", "play", "portray", "reprise",
                   "appear", "guest", "role", "cameo", "co-starring"})
# Verbs after which "as X" names the part the subject plays.
_PLAY_VERBS = frozenset({"star", "co-star", "costar", "appear", "play", "portray", "reprise", "cameo", "voice"})
# Verbs whose "X as Y" says how X is shown or taken, not whom X plays.
_SEEING_VERBS = frozenset({"portray", "depict", "describe", "present", "show", "consider", "regard", "see", "know",
                           "name", "list", "credit", "bill", "recognize", "recognise", "identify"})
# Words inside a name that show the NER ran it into the words after it.
_NOT_IN_NAMES = frozenset({"on", "in", "at", "for", "from", "with"})
# A "character" that is only a job ("as Executive Producer", "as the Narrator" is a part, so it is not here).
_JOBS = TITLE_NOUNS | frozenset({"producer", "executive", "writer", "composer", "host", "presenter", "coach",
                                 "manager", "co-host", "guest", "judge", "mentor", "himself", "herself"})


def cast_roles(state: ChunkState) -> None:
    """(actor, play, character) for each "A as B" of a sentence about performing parts."""
    doc = state.doc
    for sent in doc.sents:
        if not any(t.lower_ == "as" for t in sent):
            continue  # most sentences: no "as", so no lemma set to build
        lemmas = {state.lemma(t) for t in sent} | {t.lower_ for t in sent}
        if not lemmas & _CUES:
            continue
        predicate = "voice" if {"voice", "voices"} & lemmas else "play"
        for tok in sent:
            if tok.lower_ != "as" or tok.i == sent.start or tok.i + 1 >= sent.end:
                continue
            character = _name_after(state, tok, sent)
            if character is None:
                continue
            actor = _name_before(state, tok) or _verb_subject(state, tok)
            if actor is None or actor is character or actor.name == character.name:
                continue
            if actor.label not in ("PERSON", "PROPN") and not state.is_person(actor):
                actor.guess_class(state.classes.person)  # "as a character" says a performer, whatever the NER said
            state.triple(actor, predicate, character, [])


def _name_after(state: ChunkState, tok: Token, sent: Span) -> Mention | None:
    """The name that starts right after "as" (or after "as the"): a part, not a job or a date."""
    j = tok.i + 1
    if state.doc[j].lower_ == "the" and j + 1 < sent.end:
        j += 1
    first = state.doc[j]
    mention = state.named(first)
    # (the name may take the "the" in: "as the Queen of Hearts"; a name the NER ran across the list's comma, "as
    # Alice, Sterling Holloway as ...", is two names and no part)
    if mention is None or mention.is_date or not tok.i < mention.start <= j or "," in mention.name:
        return None
    words = mention.name.lower().split()
    if all(w in _JOBS for w in words) or _NOT_IN_NAMES & set(words[1:-1]):
        return None  # a job, or a name the NER ran into what follows ("as Sara Ellis on the USA crime drama")
    following = state.doc[mention.end] if mention.end < sent.end else None
    if following is not None and following.lower_ in ("and", ",", "&") and _paired(state, tok):
        return None  # "stars A and B as X and Y": which plays which is "respectively", not read
    return mention


def _paired(state: ChunkState, tok: Token) -> bool:
    """Whether the name before "as" closes a pair or list of its own ("Shelley Long and Gary Cole as Carol and
    Mike Brady"), so the names after "as" are matched to them in order, not all to the last.

    It walks back over the NER's mention only: a last actor the NER did not label (an unlabelled proper noun,
    `state.named`) leaves the pair unseen, and the last actor would be read as playing the first part. Left so
    on purpose: no sentence of the HotpotQA and 2Wiki corpora in shared data (7113 passages; 50 about a cast with
    "and <Name> as", 48 calls here) shows that miss, and a rule needs a real sentence that it fixes."""
    k = tok.i - 1
    while k > 0 and state.tok2m[k] is not None and state.tok2m[k] is state.tok2m[tok.i - 1]:
        k -= 1
    return state.doc[k].lower_ in ("and", "&")


def _name_before(state: ChunkState, tok: Token) -> Mention | None:
    """The name that ends right before "as": a performer, never a work, the topic or a date."""
    last = state.doc[tok.i - 1]
    mention = state.named(last)
    if mention is None or mention.end != tok.i or "," in mention.name or not _may_perform(state, mention):
        return None
    name_head = state.doc[mention.end - 1]
    if name_head.dep_ == "dobj" and state.lemma(name_head.head) in _SEEING_VERBS:
        return None  # "The movie portrays Joaquin Murrietta as the Robin Hood of Old California": how, not a part
    return mention


def _verb_subject(state: ChunkState, tok: Token) -> Mention | None:
    """ "Phil Hartman also guest stars as Troy McClure", "She appeared as Maria": the subject of the performing verb
    right before "as" (the parser may make "stars" the object of "guest", so the subject is looked for one step up)."""
    verb = state.doc[tok.i - 1]
    if state.lemma(verb) not in _PLAY_VERBS or not verb.tag_.startswith(("VB", "NN")):
        return None
    for head in (verb, verb.head):
        subject = next((c for c in head.children if c.dep_ in ("nsubj", "nsubjpass")), None)
        if subject is not None:
            mention = state.subject(subject)
            return mention if mention is not None and state.is_person(mention) and _may_perform(state, mention) \
                else None
    return None


def _may_perform(state: ChunkState, mention: Mention) -> bool:
    """Not a date, not a work, and not the passage's topic unless that is a person (a biography's "He starred as
    X"; a film's topic is the work the cast is in)."""
    work = state.classes.by_hint.get("Work")
    topical = (mention is state.topic or mention is state.document_thing) and not state.is_person(mention)
    return not (mention.is_date or topical or mention.label == "WORK_OF_ART"
                or (work is not None and mention.spg_class == work))
