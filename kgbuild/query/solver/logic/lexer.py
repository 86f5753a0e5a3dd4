"""Tokenizer of the logical-form language.

Most of a plan is ordinary tokens, but three pieces are free text the parser asks for
explicitly ("lexer modes"): the question after `Step N:`, an entity mention inside `[...]`, and
the expression inside `Math(...)`. The parser therefore pulls tokens one at a time and never
looks further than one token ahead before switching mode.

Newlines end an action, except inside parentheses or brackets, so long argument lists may wrap.
`#` starts a comment that runs to the end of the line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from kgbuild.query.solver.logic.errors import LogicFormError

Kind = Literal["ident", "number", "string", "punct", "newline", "eof"]

# Longest first, so "->" wins over "-" and "<=" over "<".
_PUNCT = ("->", "!=", "<=", ">=", "(", ")", "[", "]", ",", ":", "=", ".", "<", ">", "~")
_ESCAPES = {'"': '"', "\\": "\\", "n": "\n", "t": "\t"}


@dataclass(frozen=True)
class Token:
    kind: Kind
    text: str  # as written (for punctuation and identifiers, the token itself)
    value: str | int | float  # decoded: string contents, numeric value, or the text
    offset: int


def is_name_start(ch: str) -> bool:
    return ch == "_" or ch.isalpha()


def is_name_char(ch: str) -> bool:
    return ch == "_" or ch.isalnum()


class Lexer:
    def __init__(self, source: str) -> None:
        self.src = source
        self.i = 0
        self.depth = 0  # open ( and [ : newlines inside them are whitespace
        self._peeked: Token | None = None

    def error(self, offset: int, problem: str, hint: str = "") -> LogicFormError:
        return LogicFormError(self.src, offset, problem, hint)

    # ------------------------------------------------------------ tokens

    def peek(self) -> Token:
        if self._peeked is None:
            self._peeked = self._scan()
        return self._peeked

    def next(self) -> Token:
        tok = self.peek()
        self._peeked = None
        return tok

    def _skip_blanks(self) -> None:
        src = self.src
        while self.i < len(src):
            ch = src[self.i]
            if ch == "#":
                while self.i < len(src) and src[self.i] != "\n":
                    self.i += 1
            elif ch == "\n" and self.depth == 0:
                return
            elif ch.isspace():
                self.i += 1
            else:
                return

    def _scan(self) -> Token:
        self._skip_blanks()
        src, start = self.src, self.i
        if start >= len(src):
            return Token("eof", "", "", start)
        ch = src[start]
        if ch == "\n":
            self.i += 1
            return Token("newline", "\n", "\n", start)
        if is_name_start(ch):
            end = start + 1
            while end < len(src) and is_name_char(src[end]):
                end += 1
            self.i = end
            return Token("ident", src[start:end], src[start:end], start)
        if ch.isdigit() or (ch == "-" and start + 1 < len(src) and src[start + 1].isdigit()):
            return self._number(start)
        if ch == '"':
            return self._string(start)
        for p in _PUNCT:
            if src.startswith(p, start):
                self.i = start + len(p)
                if p in ("(", "["):
                    self.depth += 1
                elif p in (")", "]") and self.depth > 0:
                    self.depth -= 1
                return Token("punct", p, p, start)
        raise self.error(start, f"unexpected character {ch!r}")

    def _number(self, start: int) -> Token:
        src = self.src
        end = start + 1
        while end < len(src) and src[end].isdigit():
            end += 1
        is_float = end + 1 < len(src) and src[end] == "." and src[end + 1].isdigit()
        if is_float:
            end += 1
            while end < len(src) and src[end].isdigit():
                end += 1
        if end < len(src) and is_name_char(src[end]):
            raise self.error(end, f"unexpected {src[end]!r} after the number {src[start:end]}",
                             "names start with a letter; quote free text")
        self.i = end
        text = src[start:end]
        return Token("number", text, float(text) if is_float else int(text), start)

    def _string(self, start: int) -> Token:
        src = self.src
        out: list[str] = []
        i = start + 1
        while i < len(src):
            ch = src[i]
            if ch == '"':
                self.i = i + 1
                return Token("string", src[start:i + 1], "".join(out), start)
            if ch == "\n":
                break
            if ch == "\\":
                nxt = src[i + 1] if i + 1 < len(src) else ""
                if nxt not in _ESCAPES:
                    raise self.error(i, f"unknown escape \\{nxt}", 'use \\" \\\\ \\n or \\t')
                out.append(_ESCAPES[nxt])
                i += 2
                continue
            out.append(ch)
            i += 1
        raise self.error(start, "unterminated string", 'close it with " on the same line')

    # ------------------------------------------------------------ free text

    def _raw_start(self) -> int:
        if self._peeked is not None:  # a parser bug, not a user error
            raise RuntimeError("free text requested after a token was peeked")
        return self.i

    def raw_line(self) -> tuple[str, int]:
        """The rest of the current line (the question of a step), stripped; the newline stays."""
        start = self._raw_start()
        end = self.src.find("\n", start)
        end = len(self.src) if end < 0 else end
        self.i = end
        text = self.src[start:end]
        return text.strip(), start + (len(text) - len(text.lstrip()))

    def raw_mention(self, open_offset: int) -> tuple[str, int]:
        """After `[`: text up to the unescaped `]` on the same line (consumed); `\\]` and `\\\\` escape."""
        start = self._raw_start()
        src = self.src
        out: list[str] = []
        i = start
        while i < len(src) and src[i] != "\n":
            ch = src[i]
            if ch == "\\" and i + 1 < len(src) and src[i + 1] in "]\\":
                out.append(src[i + 1])
                i += 2
                continue
            if ch == "]":
                self.i = i + 1
                self.depth -= 1  # the "[" was counted as a token
                text = "".join(out)
                return text.strip(), start + (len(text) - len(text.lstrip()))
            out.append(ch)
            i += 1
        raise self.error(open_offset, "unclosed [ in a mention", "close the mention with ] on the same line")

    def raw_expression(self, open_offset: int) -> tuple[str, int]:
        """After `Math(`: the text up to the matching `)`, which is left for the parser."""
        start = self._raw_start()
        src = self.src
        level = 0
        i = start
        while i < len(src) and src[i] != "\n":
            if src[i] == "(":
                level += 1
            elif src[i] == ")":
                if level == 0:
                    self.i = i
                    return src[start:i], start
                level -= 1
            i += 1
        raise self.error(open_offset, "unclosed ( in Math", "a Math expression must end with ) on the same line")
