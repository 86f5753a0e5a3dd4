"""Which language a text is written in, by script, and which of them the offline extractors read.

Only the script is looked at (no model): the offline extractors are chosen by it. Han characters
with kana are Japanese, Hangul is Korean, Han alone is Chinese; Latin script goes to the English
rules (spaCy's English model). Any other script has no offline extractor.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

# Languages (or scripts) an offline extractor reads.
OFFLINE_LANGUAGES = frozenset({"en", "zh"})
# A text is Chinese when at least this share of its letters are Han characters: a Chinese
# passage keeps Latin abbreviations (HGH, ACTH, PTU) well under half of its letters.
ZH_MIN_HAN_SHARE = 0.3
# Kana among Han marks Japanese even when rare (kanji carry most of a Japanese sentence's nouns).
JA_MIN_KANA_SHARE = 0.05
_NAMES = {"zh": "Chinese", "ja": "Japanese", "ko": "Korean", "ar": "Arabic", "he": "Hebrew", "ru": "Cyrillic-script",
          "el": "Greek", "th": "Thai", "hi": "Devanagari-script", "en": "English", "other": "non-Latin-script"}


def _script(ch: str) -> str | None:
    code = ord(ch)
    if 0x4E00 <= code <= 0x9FFF or 0x3400 <= code <= 0x4DBF or 0xF900 <= code <= 0xFAFF or 0x20000 <= code <= 0x2FA1F:
        return "han"
    if 0x3040 <= code <= 0x30FF or 0x31F0 <= code <= 0x31FF or 0xFF66 <= code <= 0xFF9D:
        return "kana"
    if 0xAC00 <= code <= 0xD7AF or 0x1100 <= code <= 0x11FF or 0x3130 <= code <= 0x318F:
        return "hangul"
    if not ch.isalpha():
        return None
    name = unicodedata.name(ch, "")
    for prefix, script in (("LATIN", "latin"), ("ARABIC", "arabic"), ("CYRILLIC", "cyrillic"), ("HEBREW", "hebrew"),
                           ("GREEK", "greek"), ("THAI", "thai"), ("DEVANAGARI", "devanagari")):
        if name.startswith(prefix):
            return script
    return "other"


def script_counts(text: str) -> Counter[str]:
    return Counter(s for s in map(_script, text) if s is not None)


def han_share(text: str) -> float:
    """Share of the letters of `text` that are Han characters (0.0 for a text without letters)."""
    counts = script_counts(text)
    total = sum(counts.values())
    return counts["han"] / total if total else 0.0


def detect_language(text: str) -> str:
    """'zh', 'ja', 'ko', 'en' (any Latin script), 'ar', 'he', 'ru', 'el', 'th', 'hi', 'other', or '' (no letters)."""
    counts = script_counts(text)
    total = sum(counts.values())
    if not total:
        return ""
    cjk = counts["han"] + counts["kana"]
    if counts["kana"] and counts["kana"] >= JA_MIN_KANA_SHARE * max(cjk, 1) and cjk >= 0.3 * total:
        return "ja"
    if counts["hangul"] >= 0.3 * total:
        return "ko"
    if counts["han"] >= ZH_MIN_HAN_SHARE * total:
        return "zh"
    script, _ = counts.most_common(1)[0]
    return {"latin": "en", "arabic": "ar", "hebrew": "he", "cyrillic": "ru", "greek": "el", "thai": "th",
            "devanagari": "hi"}.get(script, "other")


def language_name(code: str) -> str:
    return _NAMES.get(code, code)


@dataclass(frozen=True)
class LanguageTally:
    """How many texts of each language a corpus has, and which of them no offline extractor reads."""

    counts: dict[str, int]

    @property
    def unsupported(self) -> dict[str, int]:
        return {lang: n for lang, n in self.counts.items() if lang and lang not in OFFLINE_LANGUAGES}


def tally_languages(texts: Iterable[str]) -> LanguageTally:
    return LanguageTally(dict(Counter(detect_language(t) for t in texts)))


def unsupported_line(tally: LanguageTally, what: str = "chunk(s)") -> str | None:
    """One line naming the languages no offline extractor reads and what to do, or None."""
    if not tally.unsupported:
        return None
    found = ", ".join(f"{n} {what} in {language_name(lang)}" for lang, n in sorted(tally.unsupported.items()))
    return (f"note: the offline extractor reads only English and Chinese; {found} will yield few or no entities "
            "(configure a model: llm.base_url and llm.model, with extract.extractor: llm)")


# Plain-text inputs whose language can be told from their first characters without a reader.
_TEXT_SUFFIXES = frozenset({".txt", ".md", ".markdown", ".html", ".htm", ".json", ".jsonl", ".csv", ".tsv"})
_SAMPLE_CHARS = 4000
_MAX_FILES = 200


def sample_source_texts(sources: Iterable[Path]) -> list[str]:
    """The opening characters of up to a few hundred text files under `sources` (files or directories)."""
    texts: list[str] = []
    for source in sources:
        files = sorted(p for p in source.rglob("*") if p.is_file()) if source.is_dir() else [source]
        for file in files:
            if len(texts) >= _MAX_FILES:
                return texts
            if file.suffix.lower() in _TEXT_SUFFIXES:
                try:
                    with file.open(encoding="utf-8", errors="ignore") as handle:
                        texts.append(handle.read(_SAMPLE_CHARS))
                except OSError:
                    continue  # the reader reports it, with the file's name, during the build
    return texts


def sources_notice(sources: Iterable[Path]) -> str | None:
    """Before an offline build: one line if some inputs are in a language no offline extractor reads."""
    return unsupported_line(tally_languages(sample_source_texts(sources)), "file(s)")
