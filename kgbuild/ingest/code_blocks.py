"""Cutting a fenced code block that is over the token budget: at line ends, every piece fenced again.

Readers write a code block as one paragraph in Markdown fences (`readers.markdown.code_block`). Cut by
sentences, as prose is, a long block would leave its middle pieces without fences, and the extractor
would read that code as English; cut here, every chunk that holds code holds it fenced.
"""

from __future__ import annotations

import re

from kgbuild.tokens import TokenCounter

_FENCED = re.compile(r"\A(`{3,}|~{3,})([^\n]*)\n(.*)\n\1\s*\Z", re.DOTALL)


def fenced_body(text: str) -> tuple[str, str, str] | None:
    """(fence, info string, body) of a paragraph that is exactly one fenced code block, else None."""
    m = _FENCED.match(text.strip())
    return (m.group(1), m.group(2), m.group(3)) if m else None


def split_code_block(text: str, counter: TokenCounter, limit: int) -> list[tuple[str, int, bool]] | None:
    """Pieces (text, tokens, a line had to be cut) of an over-budget code block, or None when `text`
    is not one. Lines are packed greedily; a line longer than the budget alone is cut at tokens."""
    parts = fenced_body(text)
    if parts is None:
        return None
    fence, info, body = parts
    overhead = counter.count(f"{fence}{info}\n\n{fence}")
    room = max(1, limit - overhead)
    pieces: list[tuple[str, int, bool]] = []
    current: list[str] = []
    used = 0

    def close(cut: bool = False) -> None:
        nonlocal used
        if current and any(line.strip() for line in current):
            piece = f"{fence}{info}\n" + "\n".join(current) + f"\n{fence}"
            pieces.append((piece, counter.count(piece), cut))
        current.clear()
        used = 0

    for line in body.split("\n"):
        n = counter.count(line + "\n")
        if n > room:
            close()
            for start, end in counter.cut_spans(line, room):
                current.append(line[start:end])
                close(cut=True)
            continue
        if used + n > room:
            close()
        current.append(line)
        used += n
    close()
    return pieces
