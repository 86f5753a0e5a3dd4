"""A conjunct the parser hung on a word inside a name belongs to the whole name (issue 23, thirteenth session).

"a daughter of Louis IX of France and Margaret of Provence": en_core_web_sm coordinates "Margaret" with "France",
the last word of the first parent's name, so the kin noun's "of" has one object and the second parent is lost
("son of Theobald I of Navarre and Margaret of Navarre", "the University of Maryland and ..."). A name is one
argument: a word inside it cannot be coordinated with something outside it. So before the rules read the chunk,
a conjunct (and its "and"/"or") whose head lies inside a name of several words, but is not the word that name
hangs on, is re-attached to that word; the rules' `conjuncts`/`listed` then see both names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kgbuild.extract.facts import Mention

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token


def _root(doc: Doc, mention: Mention) -> Token | None:
    """The word a name hangs on: its only word whose head lies outside it (None if there are several)."""
    roots = [t for t in doc[mention.start : mention.end] if not mention.start <= t.head.i < mention.end or t.head is t]
    return roots[0] if len(roots) == 1 else None


def attach_name_conjuncts(doc: Doc, mentions: list[Mention]) -> None:
    """Re-attach conjuncts hung on an inner word of a multi-word name to the name's root word (see the module)."""
    for mention in mentions:
        if mention.end - mention.start < 3 or mention.start < 0 or mention.is_date:
            continue
        root = _root(doc, mention)
        if root is None:
            continue
        for tok in doc[mention.start : mention.end]:
            if tok is root:
                continue
            for child in list(tok.children):
                if child.dep_ == "conj" and child.i >= mention.end and child.tag_ in ("NNP", "NNPS"):
                    for cc in [c for c in tok.children if c.dep_ in ("cc", "punct") and mention.end <= c.i < child.i]:
                        cc.head = root
                    child.head = root
