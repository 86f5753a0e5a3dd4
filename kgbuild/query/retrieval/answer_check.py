"""The one gate every answer made without a model passes: is it of the type the question asks for?

A retrieval-only answer (hybrid, bm25, dense) and the model-free pick of a graph strategy (FRAG,
SubgraphRAG) are unchecked guesses. When the question's wording says what kind of answer it wants
(`answer_types.expected`: who -> a person, when -> a date, how many -> a number, a yes/no...), a
guess known to be of another kind is not given as the answer: the answer is empty, the guess and
the other candidates are listed as candidates, and a note says why. A yes/no is never asserted from
retrieval alone: whether a passage says so is what a reader (a model) decides, not a word overlap.
A guess whose kind cannot be told (a capitalised name the graph does not type) stays the answer,
with a note that its type is unchecked.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kgbuild.query.retrieval import answer_types as at
from kgbuild.text import mention_key

if TYPE_CHECKING:
    from kgbuild.query.retrieval.index import MutualIndex
    from kgbuild.query.types import Answer

# How the gate's notes begin; they name the question's guess, so an evaluation counts them instead
# of listing one per question.
WITHHELD = "not resolved:"
UNCHECKED = "type unchecked:"
# Kind words a document title's disambiguation carries ("Blue Velvet (film)", "Drake (musician)").
_TITLE_NOUN = re.compile(r"\(([^()]*)\)\s*$")
_KIND_OF_NOUN = {**{n: at.PLACE for n in ("city", "town", "village", "county", "state", "country", "river",
                                          "island", "region", "district", "mountain")},
                 **{n: at.PERSON for n in ("actor", "actress", "singer", "musician", "writer", "author", "politician",
                                           "footballer", "rapper", "director", "producer", "composer", "artist",
                                           "poet", "painter", "player", "born")},
                 **{n: at.ORG for n in ("band", "company", "organization", "organisation", "club", "team", "label",
                                        "university", "school", "party", "newspaper", "magazine")},
                 **{n: at.WORK for n in ("film", "movie", "song", "album", "novel", "book", "tv series", "series",
                                         "play", "opera", "video game", "game", "episode", "single", "sitcom")}}
# The answer kinds a name of an entity class satisfies (inverse of answer_types.CLASSES).
_NAMED_KINDS = (at.PLACE, at.PERSON, at.ORG, at.WORK)


@dataclass(frozen=True)
class TypeCheck:
    expected: str  # the kind the question asks for (answer_types kinds); "any" when the wording says nothing
    fits: bool | None  # True: of that kind; False: of another kind; None: its kind cannot be told
    why: str = ""  # for fits False / None: one line, shown as a note


def kind_of_classes(classes: Collection[str]) -> set[str]:
    """The answer kinds that entity classes (spg_class names, any case) stand for."""
    folded = {c.casefold() for c in classes if c}
    return {kind for kind in _NAMED_KINDS if folded & at.CLASSES[kind]}


def classes_of(index: MutualIndex | None, name: str) -> set[str]:
    """The entity classes the graph gives `name` (every entity of that exact name), plus the kind a
    document titled so says in its disambiguation ("X (film)" -> Work); empty when unknown."""
    if index is None or not name:
        return set()
    key = mention_key(name)
    out: set[str] = set()
    for node in index.names.exact.get(key, []) + index.names.alias.get(key, []):
        kind = index.node_kind[node]
        if kind == "entity" and index.node_types[node]:
            out.add(str(index.node_types[node]))
        elif kind == "title":
            noun = _TITLE_NOUN.search(index.node_names[node])
            if noun and noun.group(1).strip().casefold() in _KIND_OF_NOUN:
                kind_name = _KIND_OF_NOUN[noun.group(1).strip().casefold()]
                out.add(next(iter(sorted(at.CLASSES[kind_name]))))
    return out


def check_type(question: str, text: str, classes: Collection[str] = ()) -> TypeCheck:
    """Whether `text`, a model-free answer with the entity `classes` the graph gives it, is of the kind
    `question` asks for."""
    want = at.expected(question)
    kind = want.kind
    if not text.strip():
        return TypeCheck(kind, None)
    if kind == at.YESNO:
        return TypeCheck(kind, False, "a yes/no is not asserted from retrieval alone: no model read the passages "
                                      "to check that they say so")
    if kind == at.CHOICE:
        fits = mention_key(text) in {mention_key(o) for o in want.options}
        return TypeCheck(kind, fits, "" if fits else f"the question asks which of {' or '.join(want.options)}")
    if kind in (at.DATE, at.YEAR, at.NUMBER):
        # a full date answers a year question too: it carries the year
        spans = at.pattern_spans(text, at.DATE if kind == at.YEAR else kind)
        fits = any(s == 0 and e == len(text.strip()) for _, s, e in spans) if spans else False
        fits = fits or (kind == at.NUMBER and bool(_PERCENT.fullmatch(text.strip())))  # a graph's "46.20%"
        what = {at.DATE: "a date", at.YEAR: "a year", at.NUMBER: "a number"}[kind]
        return TypeCheck(kind, fits, "" if fits else f"the question asks for {what}; '{text}' is not one")
    if kind in _NAMED_KINDS:
        if _is_number_or_date(text):
            return TypeCheck(kind, False, f"the question asks for a {kind}; '{text}' is a number or a date")
        if not any(ch.isalpha() for ch in text):  # a notice number (2026-021), a code: no name has no letter
            return TypeCheck(kind, False, f"the question asks for a {kind}; '{text}' has no letter of a name")
        kinds = kind_of_classes(classes)
        named = sorted(c for c in classes if c)
        if kinds:
            fits = kind in kinds
            return TypeCheck(kind, fits, "" if fits else
                             f"the question asks for a {kind}; '{text}' is a {'/'.join(named)} in the graph")
        if named:  # typed, but by classes that name no answer kind (Thing, Concept): cannot tell
            return TypeCheck(kind, None, f"{UNCHECKED} the graph calls '{text}' a {'/'.join(named)}, not a {kind}")
        return TypeCheck(kind, None, f"{UNCHECKED} the graph does not say whether '{text}' is a {kind}")
    return TypeCheck(kind, True)


_PERCENT = re.compile(r"[-+−]?\d[\d,]*(?:\.\d+)?\s*[%‰]")


def _is_number_or_date(text: str) -> bool:
    whole = text.strip()
    return any(s == 0 and e == len(whole) for kind in (at.DATE, at.NUMBER) for _, s, e in at.pattern_spans(whole, kind))


def settle(answer: Answer, check: TypeCheck, candidates: Sequence[str] = (),
           recheck: Callable[[str], TypeCheck] | None = None) -> Answer:
    """The answer as it may be shown: a guess of the wrong kind moves to the candidates, and the
    best-ranked candidate that is of the kind asked (by `recheck`, the same check on a candidate)
    takes its place; with none, the answer is empty and cites nothing. An unchecked guess stays with
    a note. Never touches a model's answer."""
    others = [c for c in dict.fromkeys(candidates) if c and c != answer.answer]
    updates: dict[str, object] = {"expected_type": check.expected}
    if check.fits is False:
        fitting = next((c for c in others if recheck is not None and recheck(c).fits is True), None)
        if fitting is not None:  # "Who invented the World Wide Web?": not "1989" but "Tim Berners-Lee"
            updates.update(answer=fitting, resolved=False, candidates=[answer.answer, *(o for o in others
                                                                                          if o != fitting)],
                           notes=[f"{WITHHELD} {check.why}; the best-ranked candidate of the kind asked is given "
                                  "instead", *answer.notes])
            return answer.model_copy(update=updates)
        updates.update(answer="", resolved=False, citations=[], candidates=[answer.answer, *others],
                       notes=[f"{WITHHELD} {check.why}; the best guess is listed as a candidate, not given as "
                              "the answer", *answer.notes])
    else:
        updates["candidates"] = others
        if check.fits is None and check.why:
            updates["notes"] = [*answer.notes, check.why]
    return answer.model_copy(update=updates)
