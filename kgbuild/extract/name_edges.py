"""Where a name ends: a company's legal suffix after its comma, and two people the NER ran into one name.

Issue 23, eleventh session. Both shapes were large among the names cut or joined on all three held-out sets'
writers (docs/offline_extraction.md, "Eleventh session"); each rule reads the span the NER (or the
document's title) gave and the tokens next to it, nothing else.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kgbuild.extract.name_runs import INSTITUTION_HEADS

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span

# Legal forms written after a company's name and a comma ("Enterprise Holdings, Inc.", "Yum! Brands, Inc.").
# Without the rule the parser makes the suffix the head of the noun phrase, so "Inc." became the subject of
# "is an American holding company" and of every fact after it.
_COMPANY_SUFFIXES = frozenset({"inc", "ltd", "llc", "llp", "plc", "corp", "co", "gmbh", "ag", "sa", "nv", "bv", "lp",
                               "pty", "limited", "incorporated", "corporation"})
_NAME_LABELS = frozenset({"ORG", "PROPN", "PRODUCT", "FAC", "WORK_OF_ART", "PERSON", "GPE"})
# Joins that may stand between two people the NER took for one ("Mark Kaufman & Yann Corno").
_PAIR_JOINS = frozenset({"&", "and"})


def _suffix_end(doc: Doc, comma: int) -> int | None:
    """The end of a legal suffix after the comma at `comma` ("Inc." or "Inc" "."), or None."""
    i = comma + 1
    if comma >= len(doc) or doc[comma].text != "," or i >= len(doc):
        return None
    word = doc[i].text
    if not word[:1].isupper() or word.replace(".", "").lower() not in _COMPANY_SUFFIXES:
        return None
    end = i + 1
    if not word.endswith(".") and end < len(doc) and doc[end].text == "." and not doc[i].whitespace_:
        end += 1
    return end


def with_company_suffix(doc: Doc, spans: list[Span]) -> list[Span]:
    """A name followed by ", Inc." (Ltd., LLC, plc, GmbH, ...) takes the suffix and is an organisation:
    "Enterprise Holdings, Inc.", whatever label the NER gave the part before the comma (or none, when the
    document's title supplied it). A person or place before such a comma is an organisation's name too
    ("Morgan Stanley, Inc." in NER's eyes a person)."""
    out: list[Span] = []
    for span in spans:
        end = _suffix_end(doc, span.end) if span.label_ in _NAME_LABELS else None
        if end is None or any(o.start < end and o.end > span.end for o in spans):
            out.append(span)
            continue
        grown = doc[span.start : end]
        grown.label_ = "ORG"
        out.append(grown)
    return out


def _full_name(doc: Doc, start: int, end: int) -> bool:
    """At least two capitalised words and nothing else: a given name and a surname."""
    return end - start >= 2 and all(t.is_title and t.is_alpha for t in doc[start:end])


def _listed_with_people(span: Span, people: set[int]) -> bool:
    """An "organisation" the parser hangs in a list of people ("starring Carol Coombe, Cyril Chosack and Moore
    Marriott": the NER's ORG is the list's last two members), with no institution word in it."""
    if any(t.lower_ in INSTITUTION_HEADS for t in span):
        return False
    return any(t.dep_ in ("conj", "appos") and t.head.i in people for t in span)


def split_paired_people(doc: Doc, spans: list[Span]) -> list[Span]:
    """ "Mark Kaufman & Yann Corno" (one PERSON to the NER, or "Mark Kaufman & Yann" and an unlabelled
    "Corno"; or an ORG in a list of people): two people when a full name (given name and surname) stands on
    each side of the "&" or "and"; "Dan and Frank Carney" (a given name alone on the left) and "Procter &
    Gamble" (not a person) are left as they are."""
    people = {i for s in spans if s.label_ == "PERSON" for i in range(s.start, s.end)}
    out: list[Span] = []
    for span in spans:
        paired = span.label_ == "PERSON" or (span.label_ == "ORG" and _listed_with_people(span, people))
        join = next((t.i for t in span if t.lower_ in _PAIR_JOINS), None) if paired else None
        end = span.end
        while (join is not None and end < len(doc) and not doc[end].ent_type_ and doc[end].tag_ == "NNP"
               and doc[end].is_title and not doc[end].is_sent_start):
            end += 1  # the surname the NER left out after the join
        if join is None or not (_full_name(doc, span.start, join) and _full_name(doc, join + 1, end)):
            out.append(span)
            continue
        left, right = doc[span.start : join], doc[join + 1 : end]
        left.label_ = right.label_ = "PERSON"
        out.extend([left, right])
    return out
