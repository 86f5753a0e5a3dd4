"""A possessed noun right before a name says how the name is the owner's: "Ketan's cousin Shekhar Kapur",
"his first wife Audrey Williams", "Comedy Central's animated series "South Park"".

The name is in apposition to (or compounded with) the noun, and the noun is the possessor's: (Shekhar
Kapur, cousin of, Ketan), (Audrey Williams, wife of, Hank Williams), (South Park, series of, Comedy
Central). A work noun of a person ("Farley Mowat's 1963 autobiography "Never Cry Wolf"") is authorship,
read by `nouns.possessed_title`; vague nouns ("his time", "its part") name no relation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kgbuild.extract.chunk_state import ChunkState
from kgbuild.extract.facts import Mention
from kgbuild.extract.nouns import KIN_NOUNS as _KIN_NOUNS
from kgbuild.extract.nouns import name_after, noun_phrase
from kgbuild.extract.vocab import VAGUE_NOUNS

if TYPE_CHECKING:
    from spacy.tokens import Token

# Vague alone ("a series of ..."), but a kind when a name follows: "Comedy Central's series "South Park"".
_NAMED_KINDS = frozenset({"series", "member"})


def possessed_name(state: ChunkState, noun: Token) -> None:
    """(name, "<noun> of", owner) for "<owner>'s <noun> <name>"."""
    if noun.tag_ != "NN" or not noun.is_alpha:
        return
    word = state.lemma(noun)
    if word in VAGUE_NOUNS and word not in _NAMED_KINDS:
        return
    doc = state.doc
    j, name = name_after(state, noun)
    kin = word in _KIN_NOUNS
    if kin and j < len(doc) and doc[j].text == "," and name is None:
        # "succeeded by his brother, George Wheate", "his wife, Agnes of Sagan": a kin noun's name may follow its
        # comma (an apposition); other nouns' may not ("its home, Paris" says nothing of the kind)
        j, name = name_after(state, doc[j])
    if name is None or name.start != j or name.is_date or (j > noun.i + 1 and name.end >= len(doc) and not kin):
        return
    # tied by the parse: the noun is a compound of the name's head, or the name an apposition of the noun
    span = range(name.start, name.end)
    if not ((noun.dep_ in ("compound", "nmod") and noun.head.i in span) or any(
            doc[k].dep_ == "appos" and doc[k].head.i == noun.i for k in span)):
        return
    owners = [m for c in noun.children if c.dep_ == "poss"
              for m in [_kin_possessor(state, c) if kin and j > noun.i + 1 else possessor(state, c)] if m is not None]
    for owner in owners:
        if owner is name or owner.is_date:
            continue
        if kin and not name.class_fixed:
            name.guess_class(state.classes.person)  # "his daughter, Oana" (ORG to the NER)
        state.triple(name, f"{noun_phrase(state, noun)} of", owner, [])


def _kin_possessor(state: ChunkState, poss: Token) -> Mention | None:
    """Whose kin "his/her <kin>, Name" is: a named possessor as written; "his" right after "<person> and (of)"
    is that person ("a daughter of King George V of Hanover and of his wife, Princess Marie": the king, not the
    sentence's subject); else `possessor`'s rule ("He was survived by his daughter, Oana")."""
    if poss.tag_ != "PRP$":
        return state.subject(poss)
    doc = state.doc
    k = poss.i - 1
    if k > 0 and doc[k].lower_ == "of":
        k -= 1
    if k > 0 and doc[k].lower_ == "and":
        before = state.tok2m[k - 1]
        if before is not None and before.end == k and state.is_person(before):
            return before
        if doc[k - 1].tag_ in ("NNP", "NNPS"):
            return None  # a name the rules have not settled yet ("King George V of Hanover and of his wife"): no guess
    return possessor(state, poss)


def possessor(state: ChunkState, poss: Token) -> Mention | None:
    """What a possessive stands for; a possessive pronoun only when no other person is named before it in its
    sentence ("Bane forces an older Bruce Wayne to resume his role as Batman": "his" may be either man, and
    the pronoun rule, which prefers subjects, would say Bane)."""
    owner = state.subject(poss)
    if owner is None or poss.tag_ != "PRP$" or not state.is_person(owner):
        return owner
    start = state.sent_bounds[state.sent_index[poss.i]][0]
    rival = any(start <= m.start < poss.i and m.name != owner.name and state.is_person(m) for m in state.mentions)
    return None if rival else owner
