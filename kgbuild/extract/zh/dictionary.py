"""jieba's own dictionary (word, frequency, tag), read once per extractor: how common a word is.

A word the dictionary lists as frequent and tags as an ordinary word (a noun, verb, adjective...) is a
common word, never a name on its own; a place name it lists (杭州 ns) is a known place. jieba's tags for
names are only a hint: its dictionary tags 智能化 and 荣获 nr (person name) and 上市 ns (place name), so
the rules use tags together with the word's frequency, its ending and its context, never alone.
"""

from __future__ import annotations

import warnings
from pathlib import Path

# Tags of ordinary words in jieba's dictionary.
COMMON_TAGS = frozenset({"n", "v", "vn", "a", "ad", "an", "d", "l", "i", "j", "vd", "b", "f", "s", "t", "r", "m",
                         "q", "c", "p", "u", "z", "zg", "vg", "ng", "ag", "dg", "tg", "mq", "y", "e", "o", "k", "h"})
COMMON_MIN_FREQ = 50  # below this, a dictionary word is rare enough to be part of a name
CITY_MIN_FREQ = 20  # a city with its 市 this frequent (自贡市 24, 大连市 397); rarer: mostly counties' old names


class JiebaDictionary:
    def __init__(self) -> None:
        self._words: dict[str, tuple[int, str]] | None = None

    def _load(self) -> dict[str, tuple[int, str]]:
        if self._words is None:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # jieba 0.42 imports the deprecated pkg_resources
                import jieba
            words: dict[str, tuple[int, str]] = {}
            with open(Path(jieba.__file__).parent / "dict.txt", encoding="utf-8") as handle:
                for line in handle:
                    parts = line.split()
                    if len(parts) == 3 and parts[1].isdigit():
                        words[parts[0]] = (int(parts[1]), parts[2])
            self._words = words
        return self._words

    def entry(self, word: str) -> tuple[int, str] | None:
        return self._load().get(word)

    def is_common(self, word: str) -> bool:
        """A frequent ordinary word: never an entity on its own."""
        entry = self.entry(word)
        return entry is not None and entry[0] >= COMMON_MIN_FREQ and entry[1] in COMMON_TAGS

    def known_place(self, word: str, min_freq: int = COMMON_MIN_FREQ) -> bool:
        entry = self.entry(word)
        return entry is not None and entry[1] == "ns" and entry[0] >= min_freq

    def city_stem(self, word: str) -> bool:
        """大连, 自贡, 包头: a city's name without its 市, which the dictionary lists as a city (大连市 ns) while it
        tags the bare word as an adverb or a verb (大连 d, 自贡 v); inside a name it is the city."""
        return len(word) >= 2 and self.known_place(word + "市", CITY_MIN_FREQ)
