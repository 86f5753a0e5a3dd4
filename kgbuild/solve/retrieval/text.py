"""Tokens shared by linking, mention extraction and the extractive answer.

One tokeniser for all of them (kgbuild.text's, which also makes `mention_key`), so a name in
the dictionary and the same words in a question always produce the same key.
"""

from __future__ import annotations

from kgbuild.text import TOKEN, name_tokens

# Function words: never a mention on their own, ignored by the answer's overlap score.
STOPWORDS = frozenset((
    """a about above after again against all also am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further had has
    have having he her here hers herself him himself his how i if in into is it its itself just me more
    most my myself no nor not now of off on once only or other our ours ourselves out over own same she
    should so some such than that the their theirs them themselves then there these they this those
    through to too under until up very was we were what when where which while who whom whose why will
    with would you your yours yourself yourselves s t don"""
).split())


def tokens(text: str) -> list[str]:
    """Folded word tokens, inner punctuation kept ("o'neil", "u.s", "well-known")."""
    return name_tokens(text)


def spans(text: str) -> list[tuple[str, int, int]]:
    """(raw token, start, end) in the original text; used to recover capitalisation."""
    return [(m.group(0), m.start(), m.end()) for m in TOKEN.finditer(text)]


def content_tokens(text: str) -> list[str]:
    return [t for t in tokens(text) if t not in STOPWORDS]
