"""Where in a passage a triple is stated: the sentence naming both of its ends, as character offsets.

The explorer highlights that sentence in the supporting chunk. Offsets are computed here, on the
server, so the page only slices the text it was given (it never builds HTML from it). A triple's
chunk usually names both ends in one sentence; when it names one (a pronoun for the other, or a
merged variant of a name), the sentence naming that end and the predicate's words wins ("He was born
in Maida Vale" for (Alan Turing, bornIn, Maida Vale)). Names are matched case-insensitively on word
boundaries; their longer words alone ("Neumann" for "John von Neumann") count for less.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

# A sentence ends at . ! ? followed by space and a capital, a digit or an opening quote/bracket.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[“‘]?[A-Z0-9])")
_WORD = re.compile(r"[^\W_]+")
_SHORT = 3  # words this short ("of", "von") say nothing alone about which end a sentence names


@dataclass(frozen=True)
class Span:
    start: int
    end: int  # exclusive


@dataclass(frozen=True)
class SentenceMatch:
    """The chosen sentence, the spans of the triple's ends inside it (passage offsets) and how it was found:
    "both" ends named, "one" end, "words" of the names or the predicate only."""

    sentence: Span
    mentions: tuple[Span, ...]
    how: str


def sentence_spans(text: str) -> list[Span]:
    """The sentences of a passage as offsets into it, surrounding whitespace left out."""
    out: list[Span] = []
    start = 0
    for boundary in [*_SENTENCE_END.finditer(text), None]:
        end = boundary.start() if boundary is not None else len(text)
        piece = text[start:end]
        lead = len(piece) - len(piece.lstrip())
        trail = len(piece.rstrip())
        if trail > lead:
            out.append(Span(start + lead, start + trail))
        if boundary is not None:
            start = boundary.end()
    return out


@lru_cache(maxsize=4096)
def _name_pattern(name: str) -> re.Pattern[str] | None:
    words = name.split()
    if not words:
        return None
    # Any run of whitespace between the words: passages wrap lines where names do not.
    body = r"\s+".join(re.escape(w) for w in words)
    return re.compile(rf"(?<!\w){body}(?!\w)", re.IGNORECASE)


def name_spans(text: str, names: Iterable[str], start: int = 0, end: int | None = None) -> list[Span]:
    """Where any of `names` occurs in text[start:end] (whole words, any case), as passage offsets;
    overlapping finds keep the longest."""
    stop = len(text) if end is None else end
    found: list[Span] = []
    for name in names:
        pattern = _name_pattern(name)
        if pattern is None:
            continue
        found.extend(Span(m.start(), m.end()) for m in pattern.finditer(text, start, stop))
    found.sort(key=lambda s: (s.start, -(s.end - s.start)))
    kept: list[Span] = []
    for span in found:
        if kept and span.start < kept[-1].end:
            continue
        kept.append(span)
    return kept


def _long_words(names: Iterable[str]) -> set[str]:
    return {w.casefold() for name in names for w in _WORD.findall(name) if len(w) > _SHORT}


def triple_sentence(text: str, heads: Sequence[str], tails: Sequence[str], predicate: str = "") -> SentenceMatch | None:
    """The sentence of `text` that states the triple whose ends are called `heads` and `tails` (a name and
    its aliases each). None when no sentence shares a word with the names or the predicate."""
    best: tuple[tuple[float, ...], SentenceMatch] | None = None
    head_words, tail_words = _long_words(heads), _long_words(tails)
    pred_words = _long_words([re.sub(r"(?<=[a-z])(?=[A-Z])", " ", predicate)])
    for sentence in sentence_spans(text):
        h = name_spans(text, heads, sentence.start, sentence.end)
        t = name_spans(text, tails, sentence.start, sentence.end)
        words = {w.casefold() for w in _WORD.findall(text[sentence.start:sentence.end])}
        # Word stems: "designed" carries the predicate "design".
        pred_hits = sum(1 for p in pred_words if any(w.startswith(p) for w in words))
        h_words, t_words = bool(head_words & words), bool(tail_words & words)
        named = int(bool(h)) + int(bool(t))
        partial = int(h_words and not h) + int(t_words and not t)
        if named == 0 and partial == 0 and pred_hits == 0:
            continue
        how = "both" if named == 2 else "one" if named == 1 else "words"
        # Named ends first; then the predicate's words over a partly named end (the predicate is the fact,
        # a surname alone may be another sentence about the same person); earlier sentences win ties.
        score = (float(named), pred_hits + 0.9 * partial, -float(sentence.start))
        if best is None or score > best[0]:
            mentions = tuple(sorted([*h, *t], key=lambda s: s.start))
            best = (score, SentenceMatch(sentence, mentions, how))
    return best[1] if best is not None else None
