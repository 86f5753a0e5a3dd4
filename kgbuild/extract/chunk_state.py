"""What the dependency rules share while reading one parsed chunk: the resolved arguments
(`Arguments`), the facts found so far, and per-token indexes of sentences and parentheses.

The rule modules (`subjects`, `clauses`, `nouns`, `parentheses`) are plain functions over a
`ChunkState`; `patterns.Reader` builds one per chunk and drives them in reading order.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from kgbuild.extract.arguments import Arguments, Lemma
from kgbuild.extract.facts import CONCEPT, Classes, EventFact, Mention, Triple
from kgbuild.extract.names import trim_sentence

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

Qualifier = tuple[str, Mention]  # (preposition, date or place)


def conjuncts(tok: Token) -> list[Token]:
    return [tok, *tok.conjuncts]


# Places are left out: "Columbus, Ohio" is a place and where it lies, not two places.
_LISTED_LABELS = frozenset({"PERSON", "ORG", "WORK_OF_ART", "PRODUCT"})
_NAME_LABELS = _LISTED_LABELS | {"GPE", "LOC", "FAC", "NORP", "EVENT"}


def listed(tok: Token) -> list[Token]:
    """The members of a list that starts at `tok`: its conjuncts, and the names the parser
    hung on it as appositions ("stars Emilio Estevez, Pat Hingle (appos), Laura Harrington
    (conj of Hingle), and ..."), when they carry the same entity label, or any name label when
    the apposition goes on as a list ("stars Madhu (GPE), Sharada (PERSON), ... and Shobha": the
    NER's labels of unfamiliar names vary; "Bletchley Park, Buckinghamshire" is no list)."""
    members = [tok, *tok.conjuncts]
    for child in tok.children:
        if child.dep_ == "appos" and (
                (tok.ent_type_ in _LISTED_LABELS and child.ent_type_ == tok.ent_type_)
                or (tok.ent_type_ in _NAME_LABELS and child.ent_type_ in _NAME_LABELS and child.conjuncts)):
            members.extend([child, *child.conjuncts])
    return members


def unique(mentions: Iterable[Mention]) -> list[Mention]:
    seen: set[int] = set()
    out: list[Mention] = []
    for mention in mentions:
        if id(mention) not in seen:
            seen.add(id(mention))
            out.append(mention)
    return out


def qualifies(prep: str, mention: Mention) -> bool:
    """Whether "prep mention" says when or where: a date, a place, an organisation after "at", or
    an event after "during" ("during the Second World War")."""
    return mention.is_date or mention.is_place or (prep == "at" and mention.label in ("ORG", "FAC")) or (
        prep == "during" and mention.label == "EVENT")


class ChunkState(Arguments):
    """The rules' state for one parsed chunk; it lives only as long as the chunk."""

    def __init__(
        self, doc: Doc, classes: Classes, lemma: Lemma, mentions: list[Mention], tok2m: list[Mention | None],
        runs: dict[int, tuple[int, int]] | None = None,
    ) -> None:
        super().__init__(doc, classes, lemma, mentions, tok2m, runs)
        self.named_ids = {id(m) for m in mentions}
        self.used: dict[int, Mention] = {}  # non-NER mentions that ended up in a fact
        self.aliased: set[int] = set()  # mentions that are another name of an entity
        self.birthplaces: set[int] = set()  # places of birth or death: never typed as people
        self.triples: list[Triple] = []
        self.seen_triples: set[tuple[int, str, int]] = set()
        self.events: list[EventFact] = []
        self.subject_cache: dict[int, tuple[list[Mention], bool]] = {}
        self.front_qualifiers: dict[int, list[Qualifier]] = {}
        self.sent_bounds: list[tuple[int, int]] = []
        self.sent_index: list[int] = [0] * len(doc)
        self.paren_of: list[int] = [-1] * len(doc)  # index of the "(" a token sits in, or -1
        self.titles: dict[str, Mention] = {}  # title nodes by name ("Earl of Northumbria": `held_titles`)

    def use(self, mention: Mention) -> None:
        """Keep a mention that is not a named entity of this chunk because a fact needs it."""
        if id(mention) not in self.named_ids:
            self.used[id(mention)] = mention

    def triple(self, subject: Mention, predicate: str, obj: Mention, qualifiers: list[Qualifier]) -> None:
        if subject is obj or subject.name == obj.name or subject.is_date or subject.label == CONCEPT:
            return
        key = (id(subject), predicate, id(obj))
        if key in self.seen_triples:
            return
        self.seen_triples.add(key)
        quals = [(prep, m) for prep, m in qualifiers if m is not obj and m is not subject]
        self.triples.append(Triple(subject, predicate, obj, quals))
        for mention in (subject, obj, *(m for _, m in quals)):
            self.use(mention)

    def sentence(self, tok: Token) -> str:
        start, end = self.sent_bounds[self.sent_index[tok.i]]
        return trim_sentence(self.doc[start:end].text)
