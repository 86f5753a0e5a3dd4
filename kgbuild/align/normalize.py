"""Name normalisation for entity resolution: keys, tokens, initials and name parts.

The generic keys (schema identifiers, types, concepts, mentions) live in `kgbuild.text`; this
module holds the kind-aware parsing only entity resolution needs.

Every function here is pure and cheap (one regex pass and a few set lookups), because
fusion calls them once per distinct surface name, hundreds of thousands of times.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from kgbuild.text import fold
from kgbuild.text_language import CJK

Kind = Literal["person", "org", "place", "other"]

ARTICLES = frozenset({"the", "a", "an"})
HONORIFICS = frozenset({
    "mr", "mrs", "ms", "miss", "dr", "sir", "lord", "lady", "prof", "professor", "st", "king", "queen",
    "saint", "president", "general", "dame", "rev", "reverend", "captain", "capt", "colonel", "judge",
    "madame", "mme", "mlle", "monsieur", "herr", "frau", "senator", "emperor", "empress", "prince", "princess",
})
# Only these titles are dropped from names of unknown kind: "General Electric", "St Louis" and
# "King's College" are not people, so the ambiguous titles stay for non-person kinds.
SAFE_HONORIFICS = frozenset({"mr", "mrs", "ms", "dr", "prof", "sir"})
CORPORATE_SUFFIXES = frozenset({
    "inc", "ltd", "llc", "co", "corp", "plc", "gmbh", "ag", "sa", "incorporated", "limited", "corporation",
    "company",
})
GENERATIONS = frozenset({"jr", "sr", "ii", "iii", "iv"})
SOFT_GENERATIONS = frozenset({"jr", "sr"})  # often dropped in mentions: only a different mark conflicts
# Abbreviations expanded for non-person names ("Mt. Everest", "St. Petersburg"); for people
# "St" is a title and is dropped instead.
ABBREVIATIONS = {"mt": "mount", "st": "saint", "ft": "fort", "univ": "university", "intl": "international",
                 "natl": "national", "dept": "department", "assn": "association", "bros": "brothers"}
# 冯 and 范 are how Chinese writes von and van inside a ·-joined foreign name (约翰·冯·诺依曼); a Chinese
# name is one token (冯小刚), so the lone character only arises there.
NAME_PARTICLES = frozenset({"van", "von", "de", "da", "di", "du", "der", "den", "del", "della", "le", "la", "al",
                            "bin", "ibn", "ben", "mac", "st", "冯", "范"})
ACRONYM_STOPWORDS = frozenset({"of", "and", "the", "for", "in", "on", "at", "a", "an", "to", "de"})

_PAREN = re.compile(r"[(\[]([^)\]]*)[)\]]")
# A Chinese name's parenthesis with more of the name after it is part of the name: 香港中央结算(代理人)有限公司 is
# another company than 香港中央结算有限公司, 澜汐电器(泰国)有限公司 the Thai one; only one that ends the name
# qualifies it.
_TRAILING_PAREN = re.compile(r"[(\[]([^)\]]*)[)\]]\s*$")
_CJK = re.compile(f"[{CJK}]")
_APOSTROPHES = str.maketrans("", "", "'\u2019\u2018`\u00b4")
_NON_WORD = re.compile(r"[\W_]+")
_YEAR = re.compile(r"(?<!\d)(1[0-9]{3}|20[0-9]{2})(?!\d)")
# Roman numerals of two letters or more; a lone I/V/X counts only as the last token ("Henry V").
_ROMAN = re.compile(r"^(?=[mdclxvi]{2,}$)m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$")
_ORDINAL = re.compile(r"^\d+(st|nd|rd|th)?$")
# Name tokens that happen to spell a roman numeral ("Jet Li", "Di Maria") are not numbers.
_NOT_ROMAN = frozenset({"li", "di", "mi", "mix", "dim", "mic", "mc", "cd", "cv", "dc"})


def _words(text: str) -> list[str]:
    text = text.replace("&", " and ").translate(_APOSTROPHES)
    return _NON_WORD.sub(" ", text).split()


def is_number_token(token: str, last: bool = False) -> bool:
    """Digits, ordinals ("41st"), roman numerals ("viii"), generation marks ("jr")."""
    if _ORDINAL.match(token) or token in GENERATIONS:
        return True
    if len(token) == 1:
        return last and token in "ivx"
    return token not in _NOT_ROMAN and bool(_ROMAN.match(token))


@dataclass(frozen=True, slots=True)
class NameParts:
    key: str  # normalised name without qualifiers
    tokens: tuple[str, ...]
    numbers: frozenset[str]  # digits / roman numerals / generations in the name: must agree to merge
    years: frozenset[str]  # years in the name's qualifier ("(born 1950)")
    qualifier: str  # normalised non-year text in parentheses ("planet" of "Mercury (planet)")


def name_parts(name: str, kind: Kind = "other") -> NameParts:
    """Normalise one surface name for the given kind of entity."""
    folded = fold(name)
    paren = _TRAILING_PAREN if _CJK.search(folded) else _PAREN
    quals = paren.findall(folded)
    if quals:
        folded = paren.sub(" ", folded)
    qual_text = " ".join(quals)
    years = frozenset(_YEAR.findall(qual_text))
    qualifier = " ".join(w for w in _words(_YEAR.sub(" ", qual_text)) if w not in {"born", "died", "b", "d", "c"})
    if kind == "person" and folded.count(",") == 1:
        # "Turing, Alan" -> "alan turing"; but "Smith, Jr." and "Smith, PhD" keep their order
        last, first = folded.split(",")
        lw, fw = _words(last), _words(first)
        if 1 <= len(lw) <= 2 and 1 <= len(fw) <= 3 and not any(w in GENERATIONS or w in {"phd", "md"} for w in fw):
            folded = first + " " + last
    words = _words(folded)
    words = _strip_affixes(words, kind)
    if not words:  # never normalise a name away entirely
        words = _words(folded) or [folded.strip() or name]
    numbers = frozenset(w for i, w in enumerate(words) if is_number_token(w, last=i == len(words) - 1 and i > 0))
    return NameParts(" ".join(words), tuple(words), numbers, years, qualifier)


def _strip_affixes(words: list[str], kind: Kind) -> list[str]:
    start = 0
    titles = HONORIFICS if kind == "person" else SAFE_HONORIFICS
    # a leading "A" of a person is an initial ("A. Turing"), not an article
    articles = {"the"} if kind == "person" else ARTICLES
    while start < len(words) - 1 and (words[start] in articles or words[start] in titles):
        start += 1
    end = len(words)
    if kind == "org":
        while end - 1 > start:
            if words[end - 1] in CORPORATE_SUFFIXES:
                end -= 1
            elif end - 2 > start and len(words[end - 1]) == 1 and words[end - 2] + words[end - 1] in CORPORATE_SUFFIXES:
                end -= 2  # "S.A." became "s a"
            else:
                break
    out = words[start:end]
    if kind != "person":
        out = [ABBREVIATIONS.get(w, w) for w in out]
    return out


def resolution_key(name: str, kind: Kind = "other") -> str:
    """The entity-resolution key of a name: "The Beatles" -> "beatles", "Mr. Holmes" -> "holmes"
    (person). Unlike `kgbuild.text.mention_key` it drops what does not identify the entity
    (articles, titles, corporate suffixes), because fusion asks "same entity?", not "same words?"."""
    return name_parts(name, kind).key


def tokens(name: str, kind: Kind = "other") -> list[str]:
    return list(name_parts(name, kind).tokens)


def initials(name: str, kind: Kind = "other") -> str:
    """First letters of the content words: "Massachusetts Institute of Technology" -> "mit"."""
    words = name_parts(name, kind).tokens
    content = [w for w in words if w not in ACRONYM_STOPWORDS] or list(words)
    return "".join(w[0] for w in content)


def years_in(text: str) -> frozenset[str]:
    return frozenset(_YEAR.findall(text)) if text else frozenset()


def osa_distance(a: str, b: str, limit: int = 2) -> int:
    """Optimal-string-alignment edit distance (transpositions count 1), capped at limit + 1."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            v = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                v = min(v, prev2[j - 2] + 1)
            cur[j] = v
        if min(cur) > limit:
            return limit + 1
        prev2, prev = prev, cur
    return prev[-1]


def trigram_jaccard(a: str, b: str) -> float:
    """Jaccard of character 3-grams of the space-padded strings (the grams LSH hashes)."""
    a, b = f" {a} ", f" {b} "
    sa = {a[i:i + 3] for i in range(len(a) - 2)}
    sb = {b[i:i + 3] for i in range(len(b) - 2)}
    return len(sa & sb) / len(sa | sb)
