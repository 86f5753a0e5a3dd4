"""Which names of a technical chunk are software, by what the text around them says.

The NER labels "Ray", "Mypy", "Certifi" people or places, and a name that is also an English word
("Python", "Linux", "Windows", "Ray") reads as a term in a manual (`TechnicalPass.is_term`). The words
around a name say what it is: "Python 3.9+" (a version after it), "Python developers", "the Jansson
port", "HTTPX2 adapter" (a noun of software it modifies), "on Linux" (a platform), and a name that a
heading above the chunk writes ("Why Ray?", "Certifi: Python SSL Certificates": a README's subject), and the
subject of "is a <software noun>" ("Granian is an ASGI compatible Rust HTTP server").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from kgbuild.extract.facts import Mention

if TYPE_CHECKING:
    from spacy.tokens import Doc

# Nouns for software and its parts, users and uses: a name modifying one is software ("Python programs",
# "HTTPX2 adapter", "the Jansson port", "Python developers").
SOFTWARE_NOUNS = frozenset("""
program programmer developer code library package module linter deployment application app script
interpreter version project binding wrapper implementation runtime api sdk client server adapter port
plugin extension distribution release installation toolkit framework compiler ecosystem codebase
repository interface bindings syntax type types dependency parser emitter serializer tool engine database
linter cli wrapper
""".split())
_VERSION = re.compile(r"^v?\d+(?:\.\d+)*(?:\.x)?\+?$")
# Labels of names the NER gives software it does not know (PRODUCT is already software-like).
_NAME_LABELS = frozenset({"PERSON", "ORG", "GPE", "LOC", "NORP", "FAC", "PROPN"})
_WRITTEN = frozenset({"written", "implemented", "coded", "programmed", "developed", "built"})
_WORD = re.compile(r"[\w.+-]+")


def heading_names(section: Sequence[str]) -> frozenset[str]:
    """The words of the heading path, as written ("Why Ray?" -> Ray; "pyca/cryptography" -> cryptography)."""
    return frozenset(w.strip(".") for h in section for w in _WORD.findall(h.replace("/", " ")))


def software_by_context(doc: Doc, m: Mention, headings: frozenset[str]) -> bool:
    """The mention (one capitalised token, a name's label) is software by what surrounds it: a version
    after it, a software noun it modifies, "on" before it, or the heading path writing it."""
    if m.start < 0 or m.end - m.start != 1 or m.label not in _NAME_LABELS:
        return False
    tok = doc[m.start]
    if not tok.text[:1].isupper() or (tok.text.isupper() and tok.text.isalpha()):
        return False  # "WHATWG", "GMT": an acronym is a body or a term as often as software
    if tok.i + 1 < len(doc) and _VERSION.match(doc[tok.i + 1].text):
        return True  # "Python 3.9+", "Node 18" (the NER reads the version as a date)
    if tok.dep_ in ("compound", "nmod", "amod") and tok.head.i > tok.i and _software_noun(tok.head.lower_):
        return True
    if tok.dep_ == "pobj" and tok.head.lower_ == "on" and not tok.is_sent_start:
        return True  # "107 bytes on Linux", "On Windows, ...": a platform
    if tok.dep_ == "pobj" and tok.head.lower_ == "in" and tok.head.head.lower_ in _WRITTEN:
        return True  # "written in Python": a language
    if tok.dep_ in ("nsubj", "nsubjpass") and tok.head.lower_ in ("is", "was") and any(
            c.dep_ == "attr" and _software_noun(c.lower_) for c in tok.head.children):
        return True  # "Requests is an HTTP library", "PyYAML is a YAML parser"
    return tok.text in headings


def _software_noun(word: str) -> bool:
    return word in SOFTWARE_NOUNS or (word.endswith("s") and word[:-1] in SOFTWARE_NOUNS)


__all__ = ["SOFTWARE_NOUNS", "heading_names", "software_by_context"]
