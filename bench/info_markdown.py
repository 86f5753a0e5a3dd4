"""Render a GNU Info file (makeinfo's plain-text output) as Markdown, for the picker's `--info` mode.

Written for `technical_heldout12.jsonl` (docs/technical_gold.md, "held-out 12"). The rule, stated once:

- Only nodes are read: the text after a `\\x1f` separator whose first line is `File: ..., Node: ...` (that line is
  dropped). The preamble before the first node, the tag tables, the `Top` node (the title page: summary and copying
  permission), index nodes (a node name with "Index") and copying/licence nodes (a node name with "Copying",
  "Copyright", "License", "Licence", "GPL", "LGPL" or "FDL") give nothing.
- A title line underlined by a line of `*`, `=`, `-` or `.` of its length is a heading of level 1, 2, 3 or 4.
- Not prose, so never a passage: a `* Menu:` line and everything after it in its node (the menu's `* Item::` lines
  and their comments); a run of lines indented by 5 or more spaces after a blank line (an example block) becomes a
  fenced code block; any other indented line (a table's or list's body, a `-- Function:` definition, a footnote)
  is kept as written, so the paragraph that holds it is not eligible (the picker's list rule), except makeinfo's
  paragraph indent: a line indented by exactly 3 spaces after a blank line loses the indent.
- Inline: Info's quotes around code, `‘x’` and the older `` `x' ``, become backticks; a cross reference
  `*Note X::` / `*note X::` becomes "See X" / "see X", and `*Note LABEL: NODE.` becomes "See LABEL." (the
  printed manual's wording; the terminator is dropped before a closing parenthesis), line breaks kept.
"""
from __future__ import annotations

import re

UNDERLINE_LEVEL = {"*": 1, "=": 2, "-": 3, ".": 4}
UNDERLINE = re.compile(r"^([*=\-.])\1+$")
NODE_LINE = re.compile(r"^File: [^,]+,\s+Node: ([^,\n]+)")
NOT_PROSE_NODE = re.compile(r"Index|Copying|Copyright|Licen[cs]e|\bL?GPL\b|\bFDL\b", re.I)
CODE_QUOTE = re.compile(r"‘([^‘’]+)’|`([^`'\n]+)'")
# *Note NODE:: (the node is the text) or *Note LABEL: NODE. / , (the label is the text; NODE may name a manual).
XREF_NODE = re.compile(r"\*([Nn])ote(\s+)([^:*]+?)::")
XREF_LABEL = re.compile(r"\*([Nn])ote(\s+)([^:*]+?):\s+(\([^)]*\))?[^.,:*]*?([.,])")


def nodes(info: str) -> list[tuple[str, str]]:
    """(node name, body) of every node of one Info file, in order."""
    out = []
    for chunk in info.split("\x1f")[1:]:
        chunk = chunk.lstrip("\n")
        first, _, body = chunk.partition("\n")
        found = NODE_LINE.match(first)
        if found:
            out.append((found.group(1).strip(), body))
    return out


def inline(text: str) -> str:
    text = XREF_NODE.sub(lambda m: ("See" if m.group(1) == "N" else "see") + m.group(2) + m.group(3), text)
    text = XREF_LABEL.sub(lambda m: ("See" if m.group(1) == "N" else "see") + m.group(2) + m.group(3)
                          + ("" if text[m.end():m.end() + 1] == ")" else m.group(5)), text)
    return CODE_QUOTE.sub(lambda m: f"`{m.group(1) or m.group(2)}`", text)


def node_markdown(body: str) -> list[str]:
    lines = body.splitlines()
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if line.startswith("* Menu:"):
            break
        if line.strip() and not line.startswith(" ") and UNDERLINE.match(nxt) \
                and abs(len(nxt) - len(line)) <= 2:
            out += ["", "#" * UNDERLINE_LEVEL[nxt[0]] + " " + line.strip(), ""]
            i += 2
            continue
        if line.startswith("     ") and (not out or not out[-1].strip()):
            block = []
            while i < len(lines) and (lines[i].startswith("     ") or not lines[i].strip()):
                block.append(lines[i])
                i += 1
            while block and not block[-1].strip():
                block.pop()
            out += ["```", *block, "```", ""]
            continue
        if re.match(r"^ {3}\S", line) and (not out or not out[-1].strip()):
            line = line[3:]  # makeinfo's paragraph indent: the paragraph is prose all the same
        out.append(line)
        i += 1
    return out


def inline_outside_code(lines: list[str]) -> list[str]:
    """`inline` over each run of lines outside code fences as one text, since a cross reference may span lines."""
    out: list[str] = []
    run: list[str] = []
    fenced = False
    for line in [*lines, "```"]:
        if line == "```":
            if not fenced:
                out += inline("\n".join(run)).split("\n") if run else []
                run = []
            out.append(line)
            fenced = not fenced
        elif fenced:
            out.append(line)
        else:
            run.append(line)
    return out[:-1]


def info_to_markdown(info: str) -> str:
    """One Info file (decompressed) as Markdown: its nodes' headings and prose, menus and examples as above."""
    out: list[str] = []
    for name, body in nodes(info):
        if name == "Top" or NOT_PROSE_NODE.search(name):
            continue
        out += [*inline_outside_code(node_markdown(body)), ""]
    return "\n".join(out) + "\n"
