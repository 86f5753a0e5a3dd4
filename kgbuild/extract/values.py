"""Amounts a text states about a thing, kept as properties of its entity rather than as nodes.

"Mercyful Fate have released seven studio albums", "The population was 716 at the 2000 census",
"she died childless at age 20": the number is an attribute of the subject. A node named "two sons"
or "716" would join every entity that shares the amount into one hub, so an amount becomes a
property of the subject's entity: the key is the predicate (the verb, the attribute noun, "die at
age"), the value the amount as the text writes it ("seven studio albums", "about 1,600 valves").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kgbuild.extract.chunk_state import ChunkState, conjuncts
from kgbuild.extract.facts import Mention
from kgbuild.extract.subjects import verb_subjects
from kgbuild.extract.vocab import NOUN_TAGS, VAGUE_NOUNS

if TYPE_CHECKING:
    from spacy.tokens import Token

# Nouns that measure what they belong to: "the population was 716", "a height of 1.8 m".
ATTRIBUTE_NOUNS = frozenset({
    "population", "height", "elevation", "altitude", "area", "length", "width", "depth", "capacity",
    "attendance", "budget", "gross", "circulation", "membership", "enrollment", "enrolment", "weight",
    "wingspan", "span", "diameter", "volume", "revenue", "density",
})
# Counted nouns that say how long or how often, not what was made or had ("spent three years").
_TIME_NOUNS = frozenset({
    "year", "month", "week", "day", "hour", "minute", "second", "decade", "century", "time", "season",
    "occasion", "night", "term",
})
_DISTANCE_UNITS = frozenset({"mile", "kilometre", "kilometer", "km", "metre", "meter", "foot", "feet", "yard",
                             "inch", "mi"})
# Words that may open an amount ("about 1,600 valves", "over 2 million copies").
_AMOUNT_MODIFIERS = frozenset({"about", "around", "over", "some", "nearly", "almost", "approximately", "roughly",
                               "more", "than", "less", "fewer", "at", "least", "up", "to", "only", "just", "c.",
                               "ca.", "circa", "an", "estimated"})


def _number(tok: Token) -> bool:
    """A cardinal number that is no year or date ("716", "seven", "1,600", "2 million")."""
    return tok.tag_ == "CD" and tok.ent_type_ not in ("DATE", "TIME", "ORDINAL") and not (
        tok.text.isdigit() and len(tok.text) == 4 and 1000 <= int(tok.text) <= 2100)


def amount_text(state: ChunkState, noun: Token) -> str | None:
    """ "seven studio albums", "about 1,600 valves": a counted noun with its number and modifiers, as
    written; None when the noun is not counted by a plain number or counts time ("three years")."""
    nums = [c for c in noun.children if c.dep_ == "nummod" and c.i < noun.i and _number(c)]
    if not nums or noun.tag_ not in NOUN_TAGS or not noun.is_alpha:
        return None
    lemma = state.lemma(noun)
    if lemma in _TIME_NOUNS or lemma in _DISTANCE_UNITS or lemma in VAGUE_NOUNS:
        return None  # "located four nautical miles south of X" says where, not what it has
    doc = state.doc
    start = min(t.i for t in nums[0].subtree)
    while start < noun.i and doc[start].lower_ in _AMOUNT_MODIFIERS and doc[start].dep_ != "nummod":
        start += 1  # "about" is a hedge on the number; the amount reads from the number
    if any(state.tok2m[k] is not None for k in range(start, noun.i + 1)):
        return None  # "two Grammy Awards": a name, not an amount
    return doc[start : noun.i + 1].text


def _number_value(state: ChunkState, tok: Token) -> str | None:
    """ "716", "1.8 m", "2 million": a number (with its unit noun when the number modifies one)."""
    if _number(tok) and state.tok2m[tok.i] is None:
        doc = state.doc
        start, end = tok.i, tok.i + 1  # the number's own words only: "2 million", "around 2,000"
        while start > 0 and doc[start - 1].head.i == tok.i and (
                doc[start - 1].tag_ == "CD" or doc[start - 1].dep_ == "quantmod"):
            start -= 1
        while end < len(doc) and doc[end].tag_ == "CD" and doc[end].head.i in (tok.i, end - 1) and (
                doc[end - 1].whitespace_):
            end += 1
        return doc[start:end].text
    if tok.tag_ in NOUN_TAGS and (nums := [c for c in tok.children if c.dep_ == "nummod" and _number(c)]):
        start = min(t.i for t in nums[0].subtree)
        words = state.doc[start : tok.i + 1]
        if any(t.is_punct and t.text != "," for t in words):  # "75,994 (2011 census)": the number alone
            return _number_value(state, nums[0])
        return words.text  # "1,200 metres"
    return None


def counted_objects(state: ChunkState, subjects: list[Mention], key: str, objects: list[Token]) -> bool:
    """ "have released seven studio albums, two extended plays and four compilations": each amount is a
    property `key` of every subject. True when some amount was kept."""
    found = False
    for obj in objects:
        for tok in conjuncts(obj):
            text = amount_text(state, tok)
            if text is None:
                continue
            for subject in subjects:
                if not subject.is_date:
                    found = subject.add_value(key, text) or found
                    state.use(subject)
    return found


def age_at(state: ChunkState, subjects: list[Mention], verb_word: str, children: list[Token]) -> None:
    """ "died childless at age 20", "died at the age of 81", "retired aged 35": (X, die at age, 20)."""
    for child in children:
        age: Token | None = None
        if child.dep_ == "prep" and child.lower_ == "at":
            noun = next((p for p in child.children if p.dep_ == "pobj" and p.lower_ == "age"), None)
            if noun is not None:
                age = next((c for c in noun.children if c.dep_ == "nummod" and c.tag_ == "CD"), None) or next(
                    (p for of in noun.children if of.dep_ == "prep" and of.lower_ == "of"
                     for p in of.children if p.dep_ == "pobj" and p.tag_ == "CD"), None)
        elif child.lower_ == "aged":
            age = next((c for c in child.children if c.tag_ == "CD"), None)
        if age is not None and age.text.isdigit() and int(age.text) < 130:
            for subject in subjects:
                if state.is_person(subject):
                    subject.add_value(f"{verb_word} at age", age.text)
                    state.use(subject)


def attribute_values(state: ChunkState) -> None:
    """ "The population was 716 at the 2000 census", "It has a population of 9,000", "a town with a
    population of 716", "Its height is 1.8 m": the attribute noun is the key, the number its value;
    the owner is the noun's possessor or "of" object, the subject of "have"/"with", or else what the
    passage is about (its topic, or the thing its document is about)."""
    for noun in state.doc:
        if noun.tag_ != "NN" or noun.lower_ not in ATTRIBUTE_NOUNS:
            continue
        value: str | None = None
        for child in noun.children:
            if child.dep_ == "prep" and child.lower_ == "of":
                value = next((v for p in child.children if p.dep_ == "pobj"
                              for v in [_number_value(state, p)] if v is not None), None)
        if value is None and noun.dep_ == "nsubj" and state.lemma(noun.head) == "be":
            value = next((v for a in noun.head.children if a.dep_ in ("attr", "acomp")
                          for v in [_number_value(state, a)] if v is not None), None)
        if value is None:
            continue
        owner = _owner(state, noun)
        if owner is not None and not owner.is_date:
            owner.add_value(noun.lower_, value)
            state.use(owner)


def _owner(state: ChunkState, noun: Token) -> Mention | None:
    for child in noun.children:
        if child.dep_ == "poss":
            return state.subject(child)
    head = noun.head
    if noun.dep_ == "dobj" and state.lemma(head) == "have":
        subjects, _ = verb_subjects(state, head)
        return subjects[0] if subjects else None
    if noun.dep_ == "pobj" and head.lower_ == "with":
        owner = head.head  # "Lima, a town with a population of 716", "X is a town with ..."
        if owner.dep_ == "attr" and state.lemma(owner.head) == "be":
            subjects, _ = verb_subjects(state, owner.head)
            return subjects[0] if subjects else None
        if owner.dep_ == "appos":
            owner = owner.head
        return state.named(owner)
    if noun.dep_ == "nsubj":
        return state.topic or state.document_thing
    return None
