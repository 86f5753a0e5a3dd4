"""Lists of names read from the text where the parse lost them.

The small English parser often breaks a long list of names: "her movies Guys and Balls (2004),
Desert Flower (2009) and ..." hangs the second film on the verb; "Guitarist Dave Mustaine and
bassists Ron McGovney, Cliff Burton, and Jason Newsted are ..." makes "bassists" a verb; "stars
Hugh Jackman as Robert Angier, Christian Bale as Alfred Borden, and David Bowie as Nikola Tesla"
ends the list at the first role. A list is still plain to see in the words: names separated by
commas and closed by "and"/"or", each perhaps with a parenthesis, an "as <role>" or a role word
("bassist", "longtime lead guitarist") beside it. `continue_list` adds the names such a list
goes on with after the members a rule already found; a run of commas that "and" never closes is
no list ("Columbus, Ohio", "Lars Ulrich, the drummer").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kgbuild.extract.chunk_state import ChunkState
from kgbuild.extract.facts import PROPN, Mention
from kgbuild.extract.typehints import class_hint, is_person_role

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

# Labels of names that make lists of one kind; the NER's label of an unfamiliar name varies
# ("Desert Flower" PERSON among films), so a list of three or more takes any of them.
_MEMBER_LABELS = frozenset({"PERSON", "ORG", "WORK_OF_ART", "PRODUCT", "EVENT", PROPN})
_ROLE_WORDS_MAX = 4  # "longtime lead guitarist Kirk Hammett"
_ASIDE_MAX = 15  # tokens of a parenthesis a list member may carry ("(who went on to form Megadeth)")
_ADVERBS_MAX = 3  # "and most recently"


def continue_list(
    state: ChunkState, members: list[Mention], anchor: Token, verb: Token | None = None
) -> list[Mention]:
    """`members` and the names the text's list goes on with after the first of them.

    `anchor`: the token the members were read from; only a member written at it or after it in its
    sentence starts a list (not a name a pronoun there stands for).
    `verb`: for a list of subjects, the clause's verb; the list must end where the clause's verb
    (or a word of it: "are also") starts. For objects, the list must not end on a clause of its
    own ("..., and Mary left").
    """
    sentence = state.sent_index[anchor.i]
    written = [m for m in members if m.start >= anchor.left_edge.i and state.sent_index[m.start] == sentence]
    if not written:
        return members
    first = min(written, key=lambda m: m.start)
    if first.label not in _MEMBER_LABELS or first.is_date or first.is_place:
        return members  # places: "Columbus, Ohio" is a place and where it lies
    doc = state.doc
    before = first.start - 1
    while before >= 0 and doc[before].is_quote:
        before -= 1
    if before >= 0 and doc[before].text == ",":
        return members  # the parse took a list's middle for the argument: '"Big in Japan", "Sounds Like ..."'
    sent_end = state.sent_bounds[state.sent_index[first.start]][1]
    found: list[Mention] = []
    i = first.end  # from the first member: the parse may have lost names between the ones it found
    closed = False  # the last member came after "and"/"or"
    unnamed = 0  # a last member that is no name
    while True:
        aside = j = _after_aside(state, _past_quotes(doc, i, sent_end), sent_end)  # '"A", "B" and "C"'
        if j < sent_end and doc[j].text == ",":
            j += 1
        conjunction = j < sent_end and doc[j].lower_ in ("and", "or")
        if conjunction:
            j = _past_adverbs(doc, j + 1, sent_end)  # '... and most recently "The Thick of It"'
        if j == aside or j >= sent_end:
            break
        j = _past_quotes(doc, _after_kind(state, j, sent_end), sent_end)
        k = _after_roles(state, j, sent_end)
        mention = state.tok2m[k] if k < sent_end else None
        if mention is None and k < sent_end and k > 0 and doc[k - 1].is_quote:
            quoted = state.quoted(doc[k])  # a quoted title the NER did not label ('"Time Trumpet"')
            mention = quoted if quoted is not None and quoted.start == k else None
        if mention is None and not conjunction and k < sent_end and doc[k].tag_ in ("NNP", "NNPS"):
            mention = _unlabelled_member(state, doc[k], sent_end)  # "..., Genesis Rodriguez (no label), ..."
        if mention is None or mention.start != k or mention.label not in _MEMBER_LABELS:
            if conjunction and found and doc[k].tag_ in ("NNP", "NNPS", "CD"):
                closed = True  # "A (2004), B (2009) and 3096 (2013)": a title the NER read as a number ends it
                unnamed, i = 1, sent_end
            elif conjunction and len(found) >= 2 and doc[j - 1].lower_ == "and" and doc[j - 2].text == "," and (
                    doc[k].tag_ in ("VBD", "VBZ", "VBP")):
                closed = True  # 'directed "A" (1931), "B" (1936), "C" (1939), and received ...': the list ends
            break
        found.append(mention)
        i = mention.end
        closed = conjunction
    if not closed or not found:
        return members
    labels = {m.label for m in [first, *found]}
    if len(labels) > 1 and len({id(m) for m in [*members, *found]}) + unnamed < 3:
        return members  # "A and B" of two kinds is no sure list
    end = _after_aside(state, _past_quotes(doc, i, sent_end), sent_end)
    if end < sent_end and not _list_ends(doc[end], verb):
        return members
    return [*members, *(m for m in found if m not in members)]


def colon_list(state: ChunkState, noun: Token) -> list[Mention]:
    """The names a colon lists after a plural object: "went on to direct five successful films: the family drama
    "Mummy & Me" (2010), the comedy film "My Boss" (2012), ... and the action-thriller film "Aadhi" (2018)",
    "contains three singles: A, B and C". The plural is no name, so the parse hangs the list anywhere; the
    words show it. The list must be closed by "and"/"or" (`continue_list`) and hold two names or more, so a
    2Wiki sentence cut after its colon ("They had two children: His first wife died ...") gives nothing."""
    doc = state.doc
    colon = noun.i + 1
    if colon < len(doc) and doc[colon].dep_ == "prep" and doc[colon].lower_ == "of":
        colon = max(noun.i, noun.right_edge.i) + 1  # "runs two chains of fast-food restaurants: A and B"
    if noun.tag_ != "NNS" or colon + 1 >= len(doc) or doc[colon].text != ":":
        return []
    sent_end = state.sent_bounds[state.sent_index[noun.i]][1]
    j = _past_quotes(doc, _after_kind(state, colon + 1, sent_end), sent_end)
    first = state.tok2m[j] if j < sent_end else None
    if first is None or first.start != j or first.label not in _MEMBER_LABELS or first.is_date or first.is_place:
        return []
    members = continue_list(state, [first], doc[j])
    return members if len(members) >= 2 else []


def _past_quotes(doc: Doc, i: int, sent_end: int) -> int:
    """The first token from `i` on that is no quotation mark."""
    while i < sent_end and doc[i].is_quote:
        i += 1
    return i


def _unlabelled_member(state: ChunkState, tok: Token, sent_end: int) -> Mention | None:
    """A proper-noun name the NER left unlabelled in the middle of a list: it must start at `tok` and be followed
    by the list's next comma or "and"/"or", so that a mid-list name the NER missed does not end the list."""
    head = tok
    while head.dep_ == "compound" and head.head.i > head.i and head.head.tag_ in ("NNP", "NNPS"):
        head = head.head
    mention = state.proper(head)
    if mention is None or mention.start != tok.i or mention.end >= sent_end:
        return None
    following = state.doc[mention.end]
    return mention if following.text == "," or following.lower_ in ("and", "or") else None


def _past_adverbs(doc: Doc, i: int, sent_end: int) -> int:
    """The first token from `i` on that is no adverb of time or order before a list's last member ("and later",
    "and most recently", "and finally"), or `i` when the adverbs lead to no name."""
    j = i
    while j < sent_end and j - i < _ADVERBS_MAX and doc[j].tag_ in ("RB", "RBS", "RBR") and doc[j].is_alpha:
        j += 1
    if j == i or j >= sent_end or not (doc[j].is_quote or doc[j].tag_ in ("NNP", "NNPS")):
        return i
    return j


def _after_aside(state: ChunkState, i: int, sent_end: int) -> int:
    """The token after a member's parenthesis ("(2004)") or cast role ("as Robert Angier"), or `i`."""
    doc = state.doc
    if i < sent_end and doc[i].text == "(":
        close = next((k for k in range(i + 1, min(sent_end, i + _ASIDE_MAX)) if doc[k].text == ")"), None)
        return close + 1 if close is not None else i
    if i + 1 < sent_end and doc[i].lower_ == "as":
        role = state.tok2m[i + 1]
        if role is not None and role.start == i + 1 and not role.is_date:
            return role.end
    return i


_KIND_WORDS_MAX = 9
_DETERMINERS = frozenset({"the", "a", "an", "his", "her", "their", "its"})


def _after_kind(state: ChunkState, i: int, sent_end: int) -> int:
    """The quote after a work's kind before its title ("the science fiction film "Planet of the Apes"", "the heist
    film "The Italian Job""), or `i`: a filmography's list gives each title its kind."""
    doc = state.doc
    if i >= sent_end or doc[i].lower_ not in _DETERMINERS:
        return i
    j = i + 1
    while (j < sent_end and j - i <= _KIND_WORDS_MAX and not doc[j].is_quote and not doc[j].is_punct) or (
            j < sent_end and doc[j].text == "-"):
        j += 1  # "the Martin Scorsese-directed neo-noir crime drama": a maker's name may describe the kind
    if j == i + 1 or j >= sent_end or not doc[j].is_quote or not doc[j - 1].is_lower or (
            class_hint(state.lemma(doc[j - 1])) != "Work"):
        return i
    return j


def _after_roles(state: ChunkState, i: int, sent_end: int) -> int:
    """The first token after role words before a name ("bassist", "longtime lead guitarist"), or `i`
    when the words before the next name are not a person's role."""
    doc = state.doc
    j = i
    while j < sent_end and j - i < _ROLE_WORDS_MAX and state.tok2m[j] is None and doc[j].is_alpha and (
            doc[j].is_lower or doc[j].is_sent_start):
        j += 1
    if j == i:
        return i
    word = doc[j - 1].lower_
    if is_person_role(word) or (word.endswith("s") and is_person_role(word[:-1])):
        return j
    return i


def _list_ends(tok: Token, verb: Token | None) -> bool:
    """Whether the list may end before `tok`: at punctuation, a preposition, or (for subjects) the
    clause's verb; not at a verb of another clause."""
    if verb is not None and (tok.i == verb.i or tok.head.i == verb.i):
        return True
    return not (tok.tag_.startswith("VB") or tok.tag_ == "MD" or tok.dep_ in ("nsubj", "nsubjpass"))



_LIST_PREPS = frozenset({"including", "like", "as"})
# Quantity words that head "many of the figures ..., including A, B".
_QUANTITIES = frozenset({"many", "some", "several", "few", "most", "all"})


def included(state: ChunkState, noun: Token) -> list[Mention]:
    """The names a plural common noun is given by: "covered by a number of artists, including Boy George,
    Hermine Demoriane and Porcupine Tree", "worked with many musicians such as Eric Clapton and Phil
    Collins". A verb's argument that is such a noun stands for those names."""
    if noun.tag_ not in ("NN", "NNS") and noun.lower_ not in _QUANTITIES:
        return []
    heads = [noun, *(p for prep in noun.children if prep.dep_ == "prep" and prep.lower_ == "of"
                     for p in prep.children if p.dep_ == "pobj" and p.tag_ == "NNS")]
    if noun.tag_ != "NNS" and len(heads) == 1:
        return []  # "a number of artists", "many artists"; not "the company, including ..."
    # "bands from Portland and the surrounding area like A, B and C", "many of the local figures in the genre,
    # including A, B": the parser hung the list on a common noun inside the plural's own modifier; a singular
    # noun there is given by no list of names, so the list is the plural's.
    heads.extend(t for head in heads if head.tag_ == "NNS" for prep in head.children
                 if prep.dep_ == "prep" and prep.lower_ not in _LIST_PREPS
                 for pobj in prep.children if pobj.dep_ == "pobj" for t in (pobj, *pobj.conjuncts)
                 if t.tag_ == "NN" and state.tok2m[t.i] is None)
    doc = state.doc
    for head in heads:
        for prep in head.children:
            if prep.dep_ != "prep" or not (prep.lower_ in ("including", "like") or (
                    prep.lower_ == "as" and prep.i > 0 and doc[prep.i - 1].lower_ == "such")):
                continue
            pobjs = [p for p in prep.children if p.dep_ == "pobj"]
            if not pobjs:
                continue
            names: list[Mention] = []
            for tok in [*pobjs[0].conjuncts, pobjs[0]]:
                mention = state.named(tok)
                if mention is not None and mention not in names:
                    names.append(mention)
            names.sort(key=lambda m: m.start)
            return continue_list(state, names, pobjs[0])
    return []
