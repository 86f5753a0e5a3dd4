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

from kgbuild.solve.types import ScoredChunk, TraceStep, Triple

_DATE = re.compile(r"\b(\d{4})-(\d{1,2})(?:-(\d{1,2}))?\b")
_YEAR = re.compile(r"\b(\d{3,4})\b")
_NUMBER = re.compile(r"^[-+]?\d+(?:\.\d+)?$")


class Value(BaseModel):
    text: str
    id: str | None = None  # a graph node
    type: str | None = None

    @property
    def key(self) -> str:
        return self.id or self.text.strip().lower()

    def number(self) -> float | int | None:
        """The value as a number: plain numbers, ISO dates as fractional years, else a year in the text."""
        text = self.text.strip().replace(",", "")
        if _NUMBER.match(text):
            return float(text) if "." in text else int(text)
        date = _DATE.search(text)
        if date:
            year, month, day = int(date.group(1)), int(date.group(2)), int(date.group(3) or 1)
            return year + (month - 1) / 12 + (day - 1) / 366
        year = _YEAR.search(text)
        return int(year.group(1)) if year else None


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
    outputs: dict[str, list[Value]] = field(default_factory=dict)
    answers: list[StepAnswer] = field(default_factory=list)
    trace: list[TraceStep] = field(default_factory=list)

    def bind(self, name: str, values: list[Value]) -> None:
        seen: dict[str, Value] = {}
        for v in values:
            seen.setdefault(v.key, v)
        self.bindings[name] = list(seen.values())

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
