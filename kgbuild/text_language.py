"""Which script a corpus is written in.

Two decisions hang on this: the dense embedding model (the bundled MiniLM only knows English)
and the full-text tokeniser (Chinese has no spaces, so a whitespace tokeniser turns a whole
clause into one "word" that no question ever repeats; kgbuild/query/retrieval/text.py cuts CJK
runs into words). Both need only a cheap guess: the share of CJK ideographs among the letters of
a sample of the documents.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

Language = Literal["zh", "other"]

# Of the letters (ideographs + word characters) in the sample, this share of CJK ideographs
# makes the corpus Chinese. Chinese prose with English names and numbers sits well above 0.5;
# English with a few quoted Chinese names sits far below 0.1.
CHINESE_RATIO = 0.3
# A sample this long decides as well as the whole corpus and keeps the check cheap.
SAMPLE_CHARS = 50_000

# CJK Unified Ideographs, Extension A and the compatibility block: the characters of Chinese
# (and of Japanese kanji, which the multilingual model and jieba's fallback also serve).
CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_CJK_CHAR = re.compile(f"[{CJK}]")
_LETTER = re.compile(r"\w", re.UNICODE)


@dataclass(frozen=True)
class LanguageGuess:
    """The guess and what it rests on, so a report can say why a model was chosen."""

    language: Language
    cjk_ratio: float  # CJK ideographs / letters in the sample
    sampled_chars: int

    def describe(self) -> str:
        name = "Chinese" if self.language == "zh" else "not Chinese"
        return f"{name} ({self.cjk_ratio:.0%} CJK of {self.sampled_chars:,} sampled characters)"


def cjk_ratio(text: str) -> float:
    """Share of CJK ideographs among the letters of `text` (0.0 for text without letters)."""
    letters = len(_LETTER.findall(text))
    return len(_CJK_CHAR.findall(text)) / letters if letters else 0.0


def guess_language(texts: Iterable[str], *, sample_chars: int = SAMPLE_CHARS) -> LanguageGuess:
    """Chinese when CJK ideographs make up at least `CHINESE_RATIO` of the letters in the first
    `sample_chars` characters of `texts` (taken from every text in turn, so one long English
    preface does not hide a Chinese corpus behind it)."""
    parts: list[str] = []
    budget = sample_chars
    for text in texts:
        if budget <= 0:
            break
        part = text[: min(budget, 2000)]
        parts.append(part)
        budget -= len(part)
    sample = "\n".join(parts)
    ratio = cjk_ratio(sample)
    return LanguageGuess("zh" if ratio >= CHINESE_RATIO else "other", ratio, len(sample))


def has_cjk(text: str) -> bool:
    return _CJK_CHAR.search(text) is not None
