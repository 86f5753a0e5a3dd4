"""Which script a corpus is written in, and words for full-text search in scripts without spaces.

Two decisions hang on this: the dense embedding model (the bundled MiniLM only knows English)
and the full-text tokeniser (Chinese has no spaces, so a whitespace tokeniser turns a whole
clause into one "word" that no question ever repeats). Both need only a cheap guess: the share
of CJK ideographs among the letters of a sample of the documents.
"""

from __future__ import annotations

import re
import warnings
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
_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_CJK_CHAR = re.compile(f"[{_CJK}]")
_CJK_RUN = re.compile(f"[{_CJK}]+")
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


def full_text_terms(text: str) -> list[str]:
    """The words BM25 counts: kgbuild's folded word tokens (stop words dropped) for spaced
    scripts, and for runs of CJK ideographs jieba's words (search mode: a long compound also
    yields its parts, so "肾上腺皮质激素" matches a question that says "皮质激素").

    Without jieba installed, a CJK run falls back to its overlapping character pairs, which
    still match far better than the whole run as one token."""
    # Imported here: kgbuild.solve.retrieval imports this module for its in-memory store.
    from kgbuild.solve.retrieval.text import content_tokens

    if not has_cjk(text):
        return content_tokens(text)
    terms: list[str] = []
    last = 0
    for run in _CJK_RUN.finditer(text):
        terms.extend(content_tokens(text[last:run.start()]))
        terms.extend(cjk_words(run.group(0)))
        last = run.end()
    terms.extend(content_tokens(text[last:]))
    return terms


def cjk_words(run: str) -> list[str]:
    """Words of one run of CJK ideographs (no spaces or punctuation inside)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # jieba 0.42 imports pkg_resources, which warns on every start
            import jieba
    except ImportError:
        return [run] if len(run) == 1 else [run[i:i + 2] for i in range(len(run) - 1)]
    _quiet_jieba(jieba)
    return [w for w in jieba.lcut_for_search(run) if w.strip()]


def _quiet_jieba(jieba: object) -> None:
    # jieba logs "Building prefix dict..." at INFO to stderr on its first cut; kgbuild has its own progress.
    import logging

    logging.getLogger("jieba").setLevel(logging.WARNING)
