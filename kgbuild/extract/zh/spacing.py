"""Spaces a PDF converter leaves in Chinese text: "营业收入 186.4 亿元", "2025 年 6 月", "采用 AI 技术".

Chinese is written without spaces, and the rules read numbers with their units and dates as one run of characters,
so a figure written "186.4 亿元" or a date "2025 年 6 月" was not read at all. A space between a digit or a Latin letter
and a Chinese character or full-width mark is dropped. One between two Chinese characters stays: there it separates,
as in a byline or a dateline ("（记者 王明）", "本报贵阳6月18日电 贵州…"); one between two Latin words or numbers
("iPhone 15 Pro") stays too.
"""

from __future__ import annotations

import re

_CJK = "\u3000-\u303f\u4e00-\u9fff\uff00-\uffef"
_LATIN = "0-9A-Za-z%.,"
_SPACE = "[ \t\u00a0]+"
_BETWEEN = re.compile(rf"(?<=[{_CJK}]){_SPACE}(?=[{_LATIN}])|(?<=[{_LATIN}]){_SPACE}(?=[{_CJK}])")


def close_up(text: str) -> str:
    """`text` without the spaces between a digit or Latin letter and a Chinese character."""
    return _BETWEEN.sub("", text)
