"""Text normalisation: the one place that decides when two spellings are the same thing.

Each key is named for its job, because the jobs really differ ("The Beatles" / "Film Directors"):

- `identifier_key`: a model's spelling of a declared schema identifier (class, predicate, property,
  role); case, spaces and punctuation do not matter ("thebeatles" / "filmdirectors").
- `type_key`: class and type names, build and query side alike; camelCase, case, punctuation and a
  plural do not matter ("the beatle" / "film director").
- `concept_key`: identity of a concept name (free text from a semanticType); a leading article and a
  plural do not matter ("beatle" / "film director").
- `mention_key`: the dictionary key an entity's name and its mention in a question share; folded
  words, nothing dropped ("the beatles" / "film directors").

Entity resolution needs a fifth, kind-aware key (honorifics, corporate suffixes, "Turing, Alan"):
`kgbuild.align.normalize.resolution_key`, built on `fold` from here.

All plurals go through `singular`, so the build (schema class mapping, concept merging) and the
query side (type hints, graph view) can never singularise a word differently.
"""

from __future__ import annotations

import re
import unicodedata

from kgbuild.ids import normalize_name

# A lower-case letter or digit followed by an upper-case one: the seam of camelCase ("filmDirector").
# The graph writer (kgbuild.store.labels) splits class names at the same seam.
CAMEL_SEAM = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")

_WORD = re.compile(r"[^\W_]+")  # letters and digits: underscores and punctuation separate words
_NON_WORD = re.compile(r"[\W_]+")
TOKEN = re.compile(r"\w+(?:[-'’.]\w+)*", re.UNICODE)  # inner punctuation kept: "o'neil", "u.s", "well-known"
_SPACES = re.compile(r"\s+")
_CONCEPT_SPACE = re.compile(r"[\s\-_\u2010-\u2015]+")
_LEADING_ARTICLES = ("the ", "a ", "an ")
_SIBILANT_PLURALS = ("sses", "ches", "shes", "xes", "zes")


def fold(text: str) -> str:
    """NFKC, casefold, accents dropped: "Alû" and "ALU" fold alike (ASCII input skips the slow path)."""
    text = unicodedata.normalize("NFKC", text).casefold()
    if not text.isascii():
        text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return text


def search_fold(text: str) -> str:
    """Text prepared for finding names in it: NFKC, casefold, runs of whitespace as one space. Accents
    and characters stay as they are, so offsets keep their meaning and Hangul stays composed."""
    return _SPACES.sub(" ", unicodedata.normalize("NFKC", text).casefold())


def singular(word: str) -> str:
    """The one plural rule: a key that an English noun and its plural share ("addresses" and
    "address" -> "address", "companies" and "company" -> "company").

    It is a key, not a spelling: "movies" and "movie" both give "movy", "houses" and "house" both
    give "hous", which is all a comparison needs. Words of three letters or fewer ("bus", "gas"),
    non-ASCII words and words ending in "ss", "us" or "is" ("class", "status", "analysis") are
    left alone. Lower-case input is expected; the rule is idempotent.
    """
    if not word.isascii() or len(word) <= 3:
        return word
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith("ie"):
        return word[:-2] + "y"
    if word.endswith(_SIBILANT_PLURALS):
        return word[:-2]
    if word.endswith("uses"):  # "buses" -> "bus", "viruses" -> "virus"...
        return word[:-2]
    if word.endswith("use"):  # ...so "house" meets "houses" ("hous") by the same cut
        return word[:-1]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def identifier_key(name: str) -> str:
    """Case, spaces, underscores and punctuation ignored: "Geographic_Location",
    "geographic location" and "GeographicLocation" share "geographiclocation"."""
    return _NON_WORD.sub("", name.casefold())


def type_words(text: str) -> list[str]:
    """The words of a class or type name, camelCase split, folded; the last one singular."""
    words = _WORD.findall(fold(CAMEL_SEAM.sub(" ", text)))
    if words:
        words[-1] = singular(words[-1])
    return words


def type_key(text: str) -> str:
    """"Film Directors", "filmDirector" and "FilmDirector" -> "film director"; "Addresses" -> "address"."""
    return " ".join(type_words(text))


def concept_key(name: str) -> str:
    """Identity key of a concept name: case, hyphens, a leading article and a plural do not
    matter ("The film-directors" and "film director" share "film director"). Unlike `type_key`
    it keeps inner punctuation and does not split camelCase: concept names are free text."""
    text = _CONCEPT_SPACE.sub(" ", normalize_name(name)).strip()
    for article in _LEADING_ARTICLES:
        if text.startswith(article) and len(text) > len(article):
            text = text[len(article):]
            break
    words = text.split(" ")
    words[-1] = singular(words[-1])
    return " ".join(words)


def name_tokens(text: str) -> list[str]:
    """Folded word tokens with inner punctuation kept ("O'Neil" -> "o'neil", "U.S." -> "u.s")."""
    return TOKEN.findall(fold(text))


def mention_key(name: str) -> str:
    """An entity name and a mention of it share this key: folded tokens joined by one space
    ("The  Beatles." -> "the beatles"). Nothing is dropped, so "The Who" stays "the who"."""
    return " ".join(name_tokens(name))


def same_type(a: str | None, b: str | None) -> bool:
    """Both given and the same type by `type_key` (entity linking's type hints, the graph view's `o1:Film`)."""
    return bool(a and b and type_key(a) == type_key(b))
