"""Relations an adjective after a copula states: "X was active in Antwerp and Paris", "X is popular in
Japan", "X is famous for Y".

`clauses.clause` skips "be" as a verb (a copula without an attribute states no type), so the named
object of the adjective's preposition was lost. The adjective and preposition make the predicate:
(X, active in, Antwerp). Only named objects (a common noun after the preposition says nothing about a
named thing: "responsible for the design"), and no hedged or negated adjective ("not active in").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kgbuild.extract.chunk_state import ChunkState, Qualifier, listed
from kgbuild.extract.facts import Mention
from kgbuild.extract.name_lists import continue_list

if TYPE_CHECKING:
    from spacy.tokens import Token

# Adjectives that relate nothing: "unable to", "able to" take verbs; "due to", "prior to" are prepositions;
# "close to" and "next to" are vague; "married to" is read by clauses._married_to.
_NO_RELATION = frozenset({"able", "unable", "due", "prior", "likely", "unlikely", "ready", "willing", "free",
                          "subject", "contrary", "next", "close", "such", "more", "less", "other", "same",
                          "married"})


def adjective_relations(state: ChunkState, verb: Token, subjects: list[Mention], qualifiers: list[Qualifier]) -> None:
    """(subject, "<adjective> <prep>", named object) for a copula's adjective complement."""
    for acomp in (c for c in verb.children if c.dep_ == "acomp" and c.tag_ in ("JJ", "JJR", "JJS")):
        word = acomp.lower_
        if not word.isalpha() or word in _NO_RELATION or any(c.dep_ == "neg" for c in acomp.children):
            continue
        # the parser hangs the preposition on the adjective or, as often, on the copula after it
        preps = [c for c in acomp.children if c.dep_ == "prep"] + [
            c for c in verb.children if c.dep_ == "prep" and c.i == acomp.right_edge.i + 1]
        found = [(prep.lower_, obj) for prep in preps for pobj in prep.children if pobj.dep_ == "pobj"
                 for obj in continue_list(state, [m for t in listed(pobj) for m in [state.named(t)] if m is not None],
                                          pobj)]
        objects = {id(obj) for _, obj in found}
        quals = [q for q in qualifiers if id(q[1]) not in objects]  # "active in Antwerp and Paris": no qualifier
        for prep_word, obj in found:
            for subject in subjects:
                state.triple(subject, f"{word} {prep_word}", obj, quals)
