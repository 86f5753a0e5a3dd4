"""Chinese word segmentation and part-of-speech tags by jieba (MIT licence; its dictionary and
HMM tables ship inside the package, so nothing is downloaded at run time).

Each `Segmenter` owns its own jieba tokenizer, so the domain words added to one never leak into
another (jieba's module-level tokenizer is shared by the whole process).
"""

from __future__ import annotations

import logging
import tempfile
import warnings
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Token:
    word: str
    pos: str  # jieba's ICTCLAS-style tag: n noun, nr person, ns place, nt organisation, v verb, x punctuation...
    start: int
    end: int


def _jieba() -> tuple[Any, Any]:
    # jieba logs "Building prefix dict..." at DEBUG to stderr on every load, and its resource
    # helper imports the deprecated pkg_resources: neither is news to a kgbuild user.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import jieba
        import jieba.posseg
    logging.getLogger("jieba").setLevel(logging.WARNING)  # after the import, which sets it to DEBUG
    return jieba, jieba.posseg


def jieba_version() -> str:
    import importlib.metadata

    try:
        return importlib.metadata.version("jieba")
    except importlib.metadata.PackageNotFoundError:
        return "missing"


class Segmenter:
    def __init__(self, words: Iterable[tuple[str, str]] = ()) -> None:
        """`words`: (word, POS tag) pairs jieba must keep whole, such as the domain's concept names."""
        jieba, posseg = _jieba()
        tokenizer = jieba.Tokenizer()
        # The prefix-dictionary cache goes to the system temp directory, as jieba's own default does.
        tokenizer.tmp_dir = tempfile.gettempdir()
        for word, tag in words:
            if len(word) > 1:
                # No frequency: jieba gives the word just enough to be cut out whole (脂溢性皮炎), not so much
                # that it splits a longer word around it (肾上腺皮质激素 must not become 肾上腺 + 皮质激素).
                tokenizer.add_word(word, None, tag)
        self._pos = posseg.POSTokenizer(tokenizer)

    def tokens(self, text: str) -> list[Token]:
        out: list[Token] = []
        offset = 0
        for pair in self._pos.cut(text):
            word, flag = pair.word, pair.flag
            start = text.find(word, offset)
            if start < 0:  # jieba never rewrites text, but do not trust offsets blindly
                start = offset
            out.append(Token(word, flag, start, start + len(word)))
            offset = start + len(word)
        return out
