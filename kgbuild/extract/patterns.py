"""Dependency-parse rules: who did what to whom, when and where, in one parsed chunk.

The rules read only fine-grained tags (`tag_`), dependency labels and entity spans, so the
pipeline can run without its attribute_ruler and lemmatizer (see `lemmas`). Each rule looks at
one token's children, so a chunk costs time linear in its length.

Precision over recall: a triple needs a named (or resolvable) subject, an explicit verb or
relational noun, and an object that is a named entity (or, for direct objects only, a
specific common-noun phrase). Mere co-occurrence in a sentence yields nothing.

`Reader` drives the rules in reading order over one `ChunkState`; the rules live in
`subjects` (who a verb is about), `clauses` (relations and events from verbs), `nouns`
(relational nouns, copulas and appositions) and `parentheses` ("(born 1950)" life dates).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kgbuild.extract.arguments import Lemma
from kgbuild.extract.cast_lists import cast_subjects
from kgbuild.extract.cast_roles import cast_roles
from kgbuild.extract.chunk_state import ChunkState
from kgbuild.extract.clauses import clause
from kgbuild.extract.code_text import looks_like_code
from kgbuild.extract.collegiate_names import college_towns
from kgbuild.extract.coordination import misread_list_verbs
from kgbuild.extract.entities import collect_mentions, link_surnames
from kgbuild.extract.facts import CONCEPT, PROPN, Classes, Facts, Mention, used_mentions
from kgbuild.extract.member_lists import GROUP_NOUNS, group_of_names
from kgbuild.extract.name_conjuncts import attach_name_conjuncts
from kgbuild.extract.nouns import (
    apposition,
    kind_prefixes,
    names_in_names,
    place_chains,
    possessed_title,
    possessed_work,
    role_prefixes,
    works_by,
)
from kgbuild.extract.pair_features import PairCandidate, pair_candidates
from kgbuild.extract.parentheses import parenthesis, work_years
from kgbuild.extract.possessed_names import possessed_name
from kgbuild.extract.roles_played import ROLE_NOUNS, possessed_role
from kgbuild.extract.styled_names import styled_titles
from kgbuild.extract.values import attribute_values
from kgbuild.extract.vocab import PROPER_TAGS, WORK_NOUN_VERBS

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token


def read_chunk(
    doc: Doc, classes: Classes, lemma: Lemma, title: str | None = None, document: str | None = None,
    pairs: list[PairCandidate] | None = None,
) -> Facts:
    """Facts of one parsed chunk; `title` is the person its document is about, if known, and
    `document` the document's title whatever it names (see `names.document_title`). `pairs`, when given,
    gets the pairs of names in one sentence, with their features (`pair_features`, read by bench/pair_model.py)."""
    return Reader(doc, classes, lemma, title, document).read(pairs)


class Reader:
    """The rules applied to one parsed chunk; state lives only as long as the chunk."""

    def __init__(
        self, doc: Doc, classes: Classes, lemma: Lemma, title: str | None = None, document: str | None = None
    ) -> None:
        mentions, tok2m, runs = collect_mentions(doc, classes, title, document)
        title_mention = None
        named = next((m for m in mentions if m.name == title), None) if title is not None else None
        if named is not None and named.label not in ("PERSON", PROPN):
            title = None  # "Two Dollar Radio" looks like a person's name but the text says otherwise
        if title is not None:
            # The document's subject: its NE mention here if the chunk names it in full, else a
            # person mention that exists only through surname references (emitted if used).
            title_mention = named or Mention(title, classes.person, "PERSON", -1, -1)
        mentions = link_surnames(doc, mentions, tok2m, title_mention)
        attach_name_conjuncts(doc, mentions, classes.person)  # "a daughter of Louis IX of France and Margaret of ..."
        self.state = state = ChunkState(doc, classes, lemma, mentions, tok2m, runs)
        if title_mention is not None and title_mention.label in ("PERSON", PROPN):
            state.title_person = title_mention  # "he" with no person named before it in the chunk
        elif document is not None and title is None and (not document.islower() or looks_like_code(document, True)):
            # A document about a thing ("EDSAC", "Bletchley Park"): "it" with nothing before it.
            state.document_thing = next((m for m in mentions if m.name == document and not m.is_date), None) or (
                Mention(document, classes.fallback, PROPN, -1, -1))

    # ------------------------------------------------------------------ driver

    def read(self, pairs: list[PairCandidate] | None = None) -> Facts:
        state = self.state
        doc = state.doc
        for k, sent in enumerate(doc.sents):
            state.sent_bounds.append((sent.start, sent.end))
            for i in range(sent.start, sent.end):
                state.sent_index[i] = k
        for kind, i in _scan(state):
            if kind == "paren":
                parenthesis(state, i)
            elif kind == "appos":
                apposition(state, doc[i])
            elif kind == "group":
                group_of_names(state, doc[i])  # "the starring cast of A, B and C"
            elif kind == "owned":
                possessed_name(state, doc[i])
            elif kind == "role":
                possessed_role(state, doc[i])  # "his portrayal of X on "Y""
            elif kind == "work":
                possessed_work(state, doc[i])
                possessed_title(state, doc[i])
            else:
                clause(state, doc[i])
        kind_prefixes(state)  # before the chains: "the town Boulogne-sur-Mer, Pas-de-Calais" is a place
        work_years(state)  # after the kinds: "the film Desert Flower (2009)"
        place_chains(state)
        names_in_names(state)
        styled_titles(state)  # "Otto IV, Count of Burgundy": a count, count of Burgundy
        college_towns(state)
        role_prefixes(state)
        misread_list_verbs(state)  # "and stars (compound) Pam Grier, Sid Haig, Anitra Ford, and Carol Speed"
        cast_subjects(state)  # "A, B and C also star."
        cast_roles(state)  # "Michael Caine as Alfred Pennyworth, Gary Oldman as James Gordon"
        attribute_values(state)
        works_by(state)
        if pairs is not None:
            pairs.extend(pair_candidates(state))
        mentions = [*state.mentions, *state.used.values()]
        if state.aliased:
            # "Demon Dice, originally published as Chaos Progenitus": the second name is an alias of the first, not
            # another entity (unless a fact needs it as a node). A date no fact uses stays a node: it is the anchor
            # a question's date gives retrieval (docs/offline_extraction.md, fourteenth session, measured twice).
            needed = used_mentions(state.triples, state.events)
            mentions = [m for m in mentions if id(m) not in state.aliased or id(m) in needed]
        _propagate_classes(state, mentions)
        return Facts(mentions, state.triples, state.events, state.drops)


def _paired(doc: Doc, tok: Token, mention: Mention) -> bool:
    """Whether a subject is one of a coordinated pair ("Aditya Chopra and Uday Chopra are his cousins", "he and
    co-star Lorenzo Lamas hunted demons"): a later "he"/"she" does not pick one person of a pair, so such a subject
    is no antecedent (the pronoun keeps the person it meant before)."""
    if any(c.dep_ == "conj" and c.tag_ in ("NNP", "NNPS", "NN", "PRP") for c in tok.children):
        return True
    k = mention.start - 1
    while k > 0 and k > mention.start - 4 and (doc[k].is_lower or doc[k].text in ("-", "–")) and doc[k].lower_ != "and":
        k -= 1  # role words between: "and co-star Lorenzo Lamas"
    return k > 0 and doc[k].lower_ == "and" and doc[k - 1].tag_ in ("NNP", "NNPS", "PRP")


def _propagate_classes(state: ChunkState, mentions: list[Mention]) -> None:
    """One class per name in a chunk: a definition ("X is a film") beats a guess from
    context ("X died"), which beats the NER label, which beats the fallback of an
    unlabelled proper noun."""
    ranked: dict[str, tuple[int, str]] = {}
    for m in mentions:
        if m.is_date or m.label == CONCEPT:
            continue
        if m.class_fixed:
            rank = 3
        elif m.spg_class != state.classes.by_label.get(m.label, state.classes.fallback):
            rank = 2
        elif m.label != PROPN:
            rank = 1
        else:
            continue
        if rank > ranked.get(m.name, (0, ""))[0]:
            ranked[m.name] = (rank, m.spg_class)
    if ranked:
        for m in mentions:
            if m.name in ranked and not m.is_date and m.label != CONCEPT:
                m.spg_class = ranked[m.name][1]


def _scan(state: ChunkState) -> list[tuple[str, int]]:
    """Clause heads, appositions and parentheses, in reading order."""
    doc = state.doc
    first_end = state.sent_bounds[0][1] if state.sent_bounds else 0
    heads: set[int] = set()
    life: set[int] = set()
    items: list[tuple[str, int]] = []
    open_paren = -1
    for tok in doc:
        if tok.text == "(":
            items.append(("paren", tok.i))
            open_paren = tok.i
            continue
        if tok.text == ")":
            open_paren = -1
        state.paren_of[tok.i] = open_paren
        dep = tok.dep_
        if (
            tok.lower_ in ("born", "died") and tok.i >= 1
            and (doc[tok.i - 1].text in ("(", ";") or (open_paren >= 0 and doc[tok.i - 1].text == ","))
        ):
            life.add(tok.i)  # read by parentheses.parenthesis, not as a clause
            if dep == "csubj":  # the clause the parenthesis derailed: see subjects.verb_subjects
                heads.add(tok.head.i)
            continue
        if dep == "csubj":
            heads.add(tok.head.i)
        elif dep == "nsubj" or dep == "nsubjpass":
            heads.add(tok.head.i)
            mention = state.tok2m[tok.i]
            if mention is None and tok.tag_ in PROPER_TAGS and tok.i < first_end:
                mention = state.proper(tok)
            if mention is not None and (mention.label == "PERSON" or (mention.label == PROPN and tok.i < first_end)) \
                    and not _paired(doc, tok, mention):
                state.person_subjects.append((tok.i, mention))
        elif dep in ("acl", "relcl", "conj", "xcomp", "advcl", "pcomp") and tok.tag_.startswith("VB"):
            heads.add(tok.i)
        elif dep == "ROOT" and tok.lower_ in ("is", "was", "are", "were") and not any(
                c.dep_ in ("nsubj", "nsubjpass", "csubj") for c in tok.children):
            heads.add(tok.i)  # "First (RB) for Women is a magazine": see subjects._opening_name
        elif dep == "appos":
            items.append(("appos", tok.i))
        if dep == "poss" and tok.head.tag_ == "NN" and tok.head.lower_ in WORK_NOUN_VERBS:
            items.append(("work", tok.head.i))
        elif dep == "poss" and tok.head.tag_ == "NN" and tok.head.lower_ in ROLE_NOUNS:
            items.append(("role", tok.head.i))
        elif dep == "poss" and tok.head.tag_ == "NN":
            items.append(("owned", tok.head.i))  # "Ketan's cousin Shekhar Kapur"
        if tok.tag_ == "NN" and tok.lower_ in GROUP_NOUNS and any(
                c.dep_ == "prep" and c.lower_ == "of" for c in tok.children):
            items.append(("group", tok.i))
    items.extend(("clause", i) for i in heads if i not in life)
    items.sort(key=lambda item: item[1])
    return items
