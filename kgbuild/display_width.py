"""Wrapping text for a terminal by the columns it takes, not by its characters.

A Chinese character takes two columns and a line of Chinese has no spaces, so a wrapper that breaks at
spaces either leaves a whole paragraph as one "word" (a table cell then shows its first few characters
and an ellipsis) or cuts it at a count of characters that is twice the screen. `wrap` breaks between
CJK characters, keeps Latin words and numbers (2009年's 2009, 128.6) whole, and never starts a line with
closing punctuation (，。、）》…), as Chinese typesetting requires.
"""

from __future__ import annotations

import re
import unicodedata

# Units a line is built from: a Latin word or number (with its inner punctuation), a run of spaces, or
# any other single character (each CJK character is a place a line may break).
# Latin letters and digits are spelled out: `\w` would take the Chinese characters after a number too
# ("2009年在深圳..." as one unit).
_LATIN = "A-Za-z0-9_\u00c0-\u024f"
_UNIT = re.compile(rf"[{_LATIN}](?:[{_LATIN}.,'’%\-/]*[{_LATIN}%])?|\s+|.", re.DOTALL)
# Marks that belong to the character before them: a line never starts with one.
_CLOSING = frozenset("，。、；：！？）》」』”’〕】〉,.;:!?)]}%…·")


def char_width(ch: str) -> int:
    if unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def display_width(text: str) -> int:
    """Terminal columns `text` takes (a CJK character two)."""
    return sum(char_width(ch) for ch in text)


def _split_long(unit: str, width: int) -> list[str]:
    """A word wider than a whole line, in pieces that fit."""
    pieces, cur, cur_w = [], "", 0
    for ch in unit:
        w = char_width(ch)
        if cur and cur_w + w > width:
            pieces.append(cur)
            cur, cur_w = "", 0
        cur += ch
        cur_w += w
    return [*pieces, cur] if cur else pieces


def wrap(text: str, width: int, indent: str = "", first_indent: str | None = None) -> list[str]:
    """The lines of `text` (whitespace runs collapsed) at most `width` columns wide, each starting with
    `indent` (the first with `first_indent` when given)."""
    first = indent if first_indent is None else first_indent
    units: list[str] = []
    for m in _UNIT.finditer(" ".join(text.split())):
        unit = m.group(0)
        room = max(1, width - max(display_width(first), display_width(indent)))
        units.extend(_split_long(unit, room) if display_width(unit) > room else [unit])
    lines: list[list[str]] = [[]]
    used = display_width(first)
    for unit in units:
        w = display_width(unit)
        line = lines[-1]
        if unit.isspace():
            if line:  # a space at the start of a line is dropped
                line.append(" ")
                used += 1
            continue
        if used + w > width and line:
            while line and line[-1] == " ":
                line.pop()
            carried: list[str] = []
            if unit[0] in _CLOSING:
                # Take what it closes down with it: the unit before, and before a run of closing marks
                # ("nodes" of "nodes):", "年" of "年）。") the unit before them all.
                while len(line) > 1 and (not carried or carried[0][0] in _CLOSING) and line[-1] != " ":
                    carried.insert(0, line.pop())
            lines.append(carried)
            line = lines[-1]
            used = display_width(indent) + sum(display_width(u) for u in carried)
        line.append(unit)
        used += w
    out = ["".join(line).rstrip() for line in lines]
    return [(first if i == 0 else indent) + line for i, line in enumerate(out) if line or i == 0]
