"""Candidate pairs for the Chinese pair model, and their features as plain strings.

The rules relate names by sentence shapes; on a new writer's text most of what they miss is a relation between
two names they did find, written in a shape no rule knows (docs/chinese.md, "Pair model"). A candidate is two
mentions of one sentence, the earlier first; the model (`pair_model.py`) says whether the text relates them,
with which predicate and which way. Its features are what a reader would look at: the words between the two
names (other names between them stand as their class), the word just before and after each, the classes of both,
how far apart they are and whether a clause ends between them. Cue words (任, 持有, 位于, 创办...) need no list of
their own: they are among the words between, and the training weighs them.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from kgbuild.extract.zh.mentions import Mention
from kgbuild.extract.zh.relations import sentences
from kgbuild.extract.zh.segment import Token

_CLAUSE_END = re.compile(r"[，,；;：:]")
_DIGITS = re.compile(r"\d+(?:[.,]\d+)*")
# Pairs further apart than this are left out: a relation across a whole long sentence is rare, and each extra
# candidate costs time on every chunk.
MAX_CHARS = 90
MAX_BETWEEN = 12  # words between the two names kept as features (the nearest to either end)


@dataclass(frozen=True)
class PairCandidate:
    first: Mention  # the earlier in the text
    second: Mention
    features: tuple[str, ...]


@dataclass(frozen=True)
class PairRow:
    """A candidate as the trainer sees it: its two entities' names, its features, and whether a rule related them."""
    first: str
    second: str
    features: tuple[str, ...]
    related: bool


def _bucket(n: int) -> str:
    return str(n) if n < 3 else "3-4" if n < 5 else "5-8" if n < 9 else "9+"


class _Sentence:
    """A sentence's words (blanks left out, digits as 0) with their offsets, to find a span's words by bisection."""

    def __init__(self, tokens: Sequence[Token], start: int, end: int) -> None:
        kept = [t for t in tokens if t.start >= start and t.end <= end and t.word.strip()]
        self.words = [_DIGITS.sub("0", t.word) for t in kept]
        self.starts = [t.start for t in kept]
        self.ends = [t.end for t in kept]
        self.start = self.starts[0] if kept else start

    def span(self, start: int, end: int) -> list[str]:
        """The words wholly inside [start, end)."""
        return self.words[bisect_left(self.starts, start):bisect_right(self.ends, end)]

    def before(self, offset: int) -> str:
        k = bisect_right(self.ends, offset)
        return self.words[k - 1] if k else "^"

    def after(self, offset: int, n: int = 1) -> list[str]:
        k = bisect_left(self.starts, offset)
        return self.words[k:k + n]


def pair_candidates(text: str, tokens: Sequence[Token], mentions: Sequence[Mention],
                    keep: Callable[[Mention, Mention], bool] | None = None) -> Iterator[PairCandidate]:
    """Every pair of typed, non-overlapping mentions with different names inside one sentence, at most
    `MAX_CHARS` apart, that `keep` keeps (the extractor leaves out those a rule related before the features
    are worked out; asked as each pair comes, so a relation added for one pair counts for the next), each with
    its features."""
    typed = sorted((m for m in mentions if m.spg_class), key=lambda m: (m.start, m.end))
    for s_start, s_end in sentences(text):
        inside = [m for m in typed if m.start >= s_start and m.end <= s_end]
        if len(inside) < 2:
            continue
        sentence = _Sentence(tokens, s_start, s_end)
        for i, a in enumerate(inside):
            for b in inside[i + 1:]:
                if b.start - a.end > MAX_CHARS:
                    break
                if b.start < a.end or a.name == b.name or (keep is not None and not keep(a, b)):
                    continue
                yield PairCandidate(a, b, tuple(_features(text, sentence, inside, a, b)))


def _features(text: str, sentence: _Sentence, inside: Sequence[Mention], a: Mention, b: Mention) -> list[str]:
    """`inside`: the sentence's typed mentions."""
    ca, cb = a.spg_class, b.spg_class
    pair = f"{ca}>{cb}"
    between_mentions = [m for m in inside if m.start >= a.end and m.end <= b.start]
    # the words between, a name between standing as its class
    words: list[str] = []
    pos = a.end
    for m in [*between_mentions, None]:
        stop = m.start if m is not None else b.start
        words += sentence.span(pos, stop)
        if m is not None:
            words.append(f"<{m.spg_class}>")
            pos = m.end
    before_a = sentence.before(a.start)
    tail = sentence.after(b.end, 4)
    after_b = tail[0] if tail else "$"
    before_b = words[-1] if words else "|"
    after_a = words[0] if words else "|"
    gap = text[a.end:b.start]
    breaks = len(_CLAUSE_END.findall(gap))
    feats = [f"c1={ca}", f"c2={cb}", f"cp={pair}", f"k={a.kind or '-'}>{b.kind or '-'}",
             f"n={_bucket(len(words))}", f"cpn={pair}|{_bucket(len(words))}", f"br={_bucket(breaks)}",
             f"cpbr={pair}|{_bucket(breaks)}", f"nm={_bucket(len(between_mentions))}",
             f"b1={before_a}", f"a1={after_a}", f"b2={before_b}", f"a2={after_b}",
             f"cpb1={pair}|{before_a}", f"cpa1={pair}|{after_a}", f"cpb2={pair}|{before_b}",
             f"cpa2={pair}|{after_b}", f"b1a2={before_a}|{after_b}"]
    if len(words) <= 4:  # a short gap is a pattern of its own (X董事长P, X位于Y, P任X)
        feats.append(f"path={pair}|{' '.join(words)}")
    near = words if len(words) <= MAX_BETWEEN else words[:MAX_BETWEEN // 2] + words[-(MAX_BETWEEN // 2):]
    for w in dict.fromkeys(near):
        feats.append(f"w={w}")
        feats.append(f"cpw={pair}|{w}")
    if a.start - sentence.start <= 2:
        feats.append("lead")  # the first name opens the sentence: often its subject
    # the sentence's words after the second name, for a verb that comes after both (P与X签署…, X由P创办)
    for w in tail[1:]:
        feats.append(f"t={w}")
    return feats
