"""Render a Vim help file (vimdoc, `*.txt` under vim's `doc/`) as Markdown, so that
bench/pick_technical_passages.py can split it like any other page.

Written for `technical_heldout11.jsonl` (Vim's help files). The rule, in full:

- the file's first line `*name.txt*  For Vim version ...` gives the level-1 heading `name.txt` (the version stamp is
  not a title); a line of `=====` (level 2) or `-----` (level 3) followed by a heading line ("*02.1*  Running Vim",
  "1. Introduction  *intro*") gives a heading: a leading `*tag*` keeps its text (the section number), every other
  `*tag*` and any fold marker (`{{{1`) is dropped; a line at column 0 after a blank line, written in upper case after
  an optional section number ("1.10 MAPPING ALT-KEYS  *:map-alt-keys*", "THE VIM COMMAND"), is a level-3 heading; a
  line ending in " ~" (vimdoc's header mark) is a level-4 heading unless it is column-aligned (a table's header row,
  table code like the rest); a section whose heading names credits is skipped;
- in prose, `*tag*` targets are dropped, `|link|` becomes its text, and `{arg}`, `<Key>` and `CTRL-X` stay as written
  inside backticks (`{motion}`, `<Esc>`, `CTRL-W`, `CTRL-{char}`; a span already in backticks is
  left as it is);
- a line ending in ">" (alone or after a space; `>vim` too) opens a code block: the lines after it up to a line
  starting with "<" (whose rest is text again) or a non-blank line at column 0 (a dedent) are a fenced code block,
  never a passage; a line of `:command` examples (its first non-blank character ":") and a column-aligned line (tabs
  or three spaces or more between text: tables, "Topic ... |tag|" index lines) are fenced code of their own, so not
  prose;
- a line indented by one to three spaces starts a new paragraph (the user manual's paragraph indent) without its
  indent; a line indented by a tab or more spaces is kept as written (so its paragraph is not eligible).
"""
from __future__ import annotations

import re

SEPARATOR = re.compile(r"^(=|-)\1{9,}\s*$")
TAG = re.compile(r"\*[^*\s|\"]+\*")
LEADING_TAG = re.compile(r"^\*([^*\s|\"]+)\*")
LINK = re.compile(r"\|([^|\s]+)\|")
# CTRL-X (with a {char} or <Key> after the dash too), {arg}, <Key>: kept as written, in backticks.
KEYISH = re.compile(r"CTRL-(?:\{[^{}\s]+\}|<[^<>\s]+>|[A-Za-z]+|\S)|\{[^{}\s]+\}|<[A-Za-z][^<>\s]*>")
CODE_OPEN = re.compile(r"(^|\s)>[a-z]*$")
ALIGNED = re.compile(r"\S(\t+| {3,})\S")
FOLD_MARKER = re.compile(r"\{\{\{\d*|\}\}\}\d*")
# "1.10 MAPPING ALT-KEYS  *:map-alt-keys*", "THE VIM COMMAND": a subsection heading in upper case.
CAPS_HEADING = re.compile(r"^(?:\d+(?:\.\d+)+\.?\s+)?[A-Z][A-Z0-9'&/,:()+-]*(?: [A-Z0-9'&/,:()+-]+)*$")
HEADER_MARK = re.compile(r"^\S.*\s~$")


def inline(line: str) -> str:
    """A prose line's vimdoc markup as Markdown (tags dropped, links unwrapped, keys and arguments in backticks)."""
    line = LINK.sub(r"\1", TAG.sub("", line))
    # Newer help files already write some code in backticks: what is inside a backtick span is left as it is.
    parts = re.split(r"(`[^`]*`)", line)
    return "".join(part if part.startswith("`") else KEYISH.sub(lambda m: f"`{m.group(0)}`", part)
                   for part in parts).rstrip()


def heading(line: str) -> str:
    lead = LEADING_TAG.match(line)
    rest = TAG.sub("", line[lead.end():] if lead else line)
    rest = FOLD_MARKER.sub("", rest)  # netrw's headings carry fold markers ("9. Browsing {{{1")
    title = " ".join(LINK.sub(r"\1", rest).split())
    return " ".join(filter(None, [lead.group(1) if lead else "", title]))


def vimdoc_to_markdown(text: str) -> str:
    """The Markdown of a vimdoc help file (see the module's docstring for the rule)."""
    lines = text.replace("\r\n", "\n").split("\n")
    out: list[str] = []
    code: list[str] = []
    skip_level = 0  # inside a skipped (credits) section of this level, or 0

    def flush_code() -> None:
        if code:
            while code and not code[-1].strip():
                code.pop()
            out.extend(["", "```", *code, "```", ""])
            code.clear()

    def add_heading(level: int, title: str) -> None:
        nonlocal skip_level
        flush_code()
        if skip_level and level > skip_level:
            return
        skip_level = level if re.search(r"credits", title, re.I) else 0
        if not skip_level and title:
            out.extend(["", "#" * level + " " + title, ""])

    i = 0
    in_block = False
    if lines and (first := LEADING_TAG.match(lines[0])):
        add_heading(1, first.group(1))
        i = 1
    while i < len(lines):
        line = lines[i].rstrip()
        if in_block:
            if line.startswith("<"):
                in_block = False
                flush_code()
                line = line[1:].lstrip()
                if not line:
                    i += 1
                    continue
            elif line and not line[0].isspace():
                in_block = False
                flush_code()
            else:
                code.append(line)
                i += 1
                continue
        if SEPARATOR.match(line):
            j = i + 1
            while j < len(lines) and not lines[j].strip():
                j += 1
            if j < len(lines) and not SEPARATOR.match(lines[j]):
                add_heading(2 if line[0] == "=" else 3, heading(lines[j].strip()))
                i = j + 1
                continue
            i += 1
            continue
        if (not i or not lines[i - 1].strip()) and CAPS_HEADING.match(TAG.sub("", line).strip()) \
                and re.search(r"[A-Z]{3}", line) and line[:1].strip():
            add_heading(3, heading(line.strip()))
            i += 1
            continue
        if HEADER_MARK.match(line) and not ALIGNED.search(line[:-1].strip()):  # a table's header row is table
            add_heading(4, heading(line[:-1].strip()))
            i += 1
            continue
        if skip_level:
            i += 1
            continue
        opens = CODE_OPEN.search(line)
        if opens:
            line = line[:opens.start()].rstrip() if opens.group(1) else ""
        stripped = line.strip()
        if stripped.startswith(":") or (stripped and ALIGNED.search(stripped)):
            code.append(line)
        else:
            flush_code()
            indent = len(line) - len(line.lstrip(" "))
            if stripped and 1 <= indent <= 3 and not line.startswith("\t"):
                out.append("")
                line = line.lstrip(" ")
            out.append(inline(line) if stripped else "")
        if opens:
            flush_code()
            in_block = True
        i += 1
    flush_code()
    return "\n".join(out) + "\n"
