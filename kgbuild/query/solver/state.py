"""What a plan's execution accumulates: variable bindings, the evidence behind them, the trace.

A variable holds a list of `Value`s: graph nodes (with an id, so later steps can start from them)
or literals (numbers, dates, text the model read from a chunk). `pairs` remembers which value of
one variable a value of another came from, so `Sort(set=o1, by=o2)` can order films by the years
retrieved from them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pydantic import BaseModel

from kgbuild.query.types import ScoredChunk, TraceStep, Triple

# A full ISO date with a real month and day: 1944-01-18 (fractional year 1944.05).
_ISO_DATE = re.compile(r"^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])(?:[T ][\d:.]+Z?)?$")
# YYYY-NN, YYYY-YYYY (hyphen or dash): "1939-45" is a year range far more often than a month
# (Value("2023-45") must not be a date), so all of them read as their first year; "2023-05"
# loses only its month.
_YEAR_SPAN = re.compile(r"^(\d{4})\s*[-\u2013\u2014/]\s*(\d{2}|\d{4})$")
_YEAR = re.compile(r"^\d{3,4}$")
# The other words a value may have and still be nothing but a date: "in January 1944", "c. 1939",
# "18th of May 1944", "early 1940s" is not (the decade suffix stays unread). Anything else around
# a number ("Boeing 747", "Route 66") means the number is not a year.
_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september",
           "october", "november", "december")
_DATE_WORDS = frozenset({*_MONTHS, *(m[:3] for m in _MONTHS), "sept", "in", "on", "at", "since", "until", "from",
                         "by", "during", "around", "about", "circa", "c", "ca", "of", "the", "year", "early", "mid",
                         "late", "ad", "ce"})
_DAY = re.compile(r"^(0?[1-9]|[12]\d|3[01])(st|nd|rd|th)?$")
_NUMBER = re.compile(r"^[-+]?\d+(?:\.\d+)?$")


class Value(BaseModel):
    text: str
    id: str | None = None  # a graph node
    type: str | None = None

    @property
    def key(self) -> str:
        return self.id or self.text.strip().lower()

    def number(self) -> float | int | None:
        """The value as a number, or None when it is not one.

        - a plain number: "747", "-3.5", "1,200";
        - a full ISO date (month 01-12, day 01-31) as a fractional year: "1944-01-18" -> 1944.05;
        - a year range or year-month, "1939-45", "1939-1945", "2023-05", as its first year;
        - a year with only date words around it, "in January 1944", "18 May 1944", "c. 1939", as the
          year. A number among other words ("Boeing 747") is not read at all.
        """
        text = self.text.strip().replace(",", "")
        if _NUMBER.match(text):
            return float(text) if "." in text else int(text)
        iso = _ISO_DATE.match(text)
        if iso:
            year, month, day = (int(g) for g in iso.groups())
            return year + (month - 1) / 12 + (day - 1) / 366
        span = _YEAR_SPAN.match(text)
        if span:
            return int(span.group(1))
        return _year_in_date_words(text)


def _year_in_date_words(text: str) -> int | None:
    """The one year of a text made only of a year, day numbers and date words, else None."""
    year: int | None = None
    for word in re.findall(r"[^\s.,;:()/]+", text.lower()):
        if _YEAR.match(word):
            if year is not None:  # "1944 1945": which one?
                return None
            year = int(word)
        elif word not in _DATE_WORDS and not _DAY.match(word):
            return None
    return year


def texts(values: list[Value]) -> list[str]:
    return [v.text for v in values]


@dataclass
class StepAnswer:
    """A sub-question with what the plan found for it: the solver's memory (KAG §2.3)."""

    question: str
    answer: str
    triples: list[Triple] = field(default_factory=list)
    chunks: list[ScoredChunk] = field(default_factory=list)


@dataclass
class ExecState:
    bindings: dict[str, list[Value]] = field(default_factory=dict)
    pairs: dict[tuple[str, str], list[tuple[str, Value]]] = field(default_factory=dict)
    triples: list[Triple] = field(default_factory=list)
    chunks: list[ScoredChunk] = field(default_factory=list)
    cited_chunks: list[str] = field(default_factory=list)  # chunk ids the model answered from
    # triple id -> its qualifiers as text ("in January 1944"), shown with the triple in the memory
    qualifiers: dict[str, list[str]] = field(default_factory=dict)
    # variable name -> what Output gave under that name, over every plan run into this state (a
    # later plan's o1 adds to an earlier plan's o1)
    outputs: dict[str, list[Value]] = field(default_factory=dict)
    answers: list[StepAnswer] = field(default_factory=list)
    trace: list[TraceStep] = field(default_factory=list)
    # What went wrong, for the Answer's `failure`: one line per plan the model never gave usably,
    # and per model call that failed for good inside a step.
    unusable_plans: list[str] = field(default_factory=list)
    model_errors: list[str] = field(default_factory=list)
    plans_made: int = 0

    def bind(self, name: str, values: list[Value]) -> None:
        seen: dict[str, Value] = {}
        for v in values:
            seen.setdefault(v.key, v)
        self.bindings[name] = list(seen.values())

    def add_output(self, name: str, values: list[Value]) -> None:
        kept = self.outputs.setdefault(name, [])
        known = {v.key for v in kept}
        for v in values:
            if v.key not in known:
                known.add(v.key)
                kept.append(v)

    def link(self, a: str, b: str, pairs: list[tuple[Value, Value]]) -> None:
        """Remember which values of `b` came with which value of `a` (and the reverse)."""
        self.pairs[(a, b)] = [(x.key, y) for x, y in pairs]
        self.pairs[(b, a)] = [(y.key, x) for x, y in pairs]

    def add_triples(self, triples: list[Triple]) -> None:
        known = {t.id for t in self.triples}
        self.triples.extend(t for t in triples if t.id not in known)

    def triple_text(self, t: Triple) -> str:
        """(subject, predicate, object), with the triple's qualifiers: (X, joined, Y; in 1939)."""
        quals = self.qualifiers.get(t.id)
        return f"({t.subject}, {t.predicate}, {t.object}{'; ' + ', '.join(quals) if quals else ''})"

    def add_chunks(self, chunks: list[ScoredChunk]) -> None:
        known = {c.id for c in self.chunks}
        self.chunks.extend(c for c in chunks if c.id not in known)
