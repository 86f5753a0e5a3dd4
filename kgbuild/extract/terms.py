"""Technical terms: an acronym and its expansion are one entity; a term is typed by its head noun.

"The Transmission Control Protocol (TCP) ... TCP uses" names one thing twice: the acronym becomes an
alias of the expansion, and every mention of the acronym in the chunk is that entity. A name whose
last word is a kind of specification or software part ("... Protocol", "... Encoding Standard",
"... Library") is never a person, organisation or place, whatever the NER said.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from kgbuild.extract.facts import Mention

if TYPE_CHECKING:
    from spacy.tokens import Doc

_WORD_BREAK = re.compile(r"[\s-]+")
_ACRONYM = re.compile(r"^[A-Z][A-Za-z0-9]*[A-Z0-9][A-Za-z0-9]*s?$")
_SMALL_WORDS = frozenset({"of", "and", "for", "the", "to", "in", "on", "a", "an", "&"})
# Head nouns of technical terms -> the classes they name, first one the schema knows (`OfflineExtractor`).
TERM_HEADS: dict[str, str] = {
    **dict.fromkeys(("protocol",), "Protocol|Concept"),
    **dict.fromkeys(("standard", "specification", "recommendation", "rfc"), "Standard|Concept"),
    **dict.fromkeys(("format", "encoding", "notation", "syntax"), "DataFormat|Concept"),
    **dict.fromkeys(("language",), "ProgrammingLanguage|Language|Concept"),
    **dict.fromkeys(("algorithm", "interface", "architecture", "constraint", "pattern", "model", "schema",
                     "principle", "principles", "method", "methodology", "mechanism", "transform"), "Concept"),
    **dict.fromkeys(("library", "framework", "api", "module", "toolkit", "sdk", "package"), "Library|Software"),
    **dict.fromkeys(("runtime", "compiler", "interpreter", "engine", "database", "server", "editor", "shell"),
                    "Software"),
}


def initials_match(words: Sequence[str], acronym: str) -> bool:
    """`acronym` spells the initials of `words` (small words may be skipped; a word may give two
    letters, as "Hypertext" gives H and T in HTTP's "Hypertext Transfer Protocol")."""
    letters = acronym.rstrip("s").upper() if len(acronym) > 2 else acronym.upper()
    parts = [w for w in _WORD_BREAK.split(" ".join(words)) if w]
    if not parts or len(letters) < 2:
        return False

    def match(i: int, j: int) -> bool:
        if j == len(letters):
            return all(p.lower() in _SMALL_WORDS for p in parts[i:])
        if i == len(parts):
            return False
        word = parts[i]
        if word.lower() in _SMALL_WORDS and match(i + 1, j):
            return True
        if word[:1].upper() != letters[j]:
            return False
        # The word gives its initial, and maybe later letters of itself ("Hyper-Text", "JavaScript").
        k = j + 1
        if match(i + 1, k):
            return True
        rest = word[1:].upper()
        while k < len(letters) and letters[k] in rest:
            rest = rest[rest.index(letters[k]) + 1:]
            k += 1
            if match(i + 1, k):
                return True
        return False

    return match(0, 0)


def join_acronyms(doc: Doc, mentions: list[Mention]) -> None:
    """Make "Expansion (ACR)" and "ACR (Expansion)" one entity named by the expansion, the acronym an
    alias; later mentions of the acronym in the chunk become that entity too."""
    by_start = {m.start: m for m in mentions if m.start >= 0 and not m.is_date}
    pairs: dict[str, Mention] = {}
    for m in list(by_start.values()):
        end = m.end
        if end + 2 >= len(doc) + 1 or end >= len(doc) or doc[end].text != "(":
            continue
        if end + 2 < len(doc) and doc[end + 2].text == ")" and _ACRONYM.match(doc[end + 1].text):
            acronym = doc[end + 1].text
            if " " in m.name and initials_match(m.name.split(), acronym):
                pairs[acronym] = m
            continue
        inner = by_start.get(end + 1)
        if inner is not None and inner.end < len(doc) and doc[inner.end].text == ")" and _ACRONYM.match(m.name) and (
                initials_match(inner.name.split(), m.name)):
            pairs[m.name] = inner
    for acronym, expansion in pairs.items():
        if acronym not in expansion.aliases:
            expansion.aliases.append(acronym)
        for m in mentions:
            if m.name == acronym and m is not expansion:
                m.name = expansion.name
                m.spg_class = expansion.spg_class
                m.class_fixed = m.class_fixed or expansion.class_fixed
                if acronym not in m.aliases:
                    m.aliases.append(acronym)


def term_head(name: str) -> str | None:
    """The head noun when the name's last word is a term head ("WHATWG Encoding Standard" -> standard)."""
    words = name.split()
    if len(words) < 2 or words[-1].lower() not in TERM_HEADS:
        return None
    return words[-1].lower()
