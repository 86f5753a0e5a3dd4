"""Render a manual page written with the man(7) macros as Markdown, for the technical passage picker's `--man` mode.

Only the common macros are read: `.TH` gives the title `# name(section)`; `.SH` / `.SS` headings of levels 2 / 3; `.PP`,
`.P`, `.LP` end a paragraph; `.TP` makes its tag line a list item (`- tag`) and the lines after it a paragraph, as does
`.IP tag` (`.IP` with no tag only breaks the paragraph); `.B`, `.I` and the alternating `.BR`, `.IR`, `.RB`, `.RI`,
`.BI`, `.IB` set fonts, as do `\\fB`, `\\fI`, `\\fR`, `\\fP`: bold text (command and option names) becomes inline code
and italic text (placeholders) `*x*`; `.nf`..`.fi`, `.EX`..`.EE` and pod2man's `.Vb`..`.Ve` are fenced code blocks. `.if
n` / `.ie n` lines and the `.el` of an `.ie t` (the terminal branch) are read, other conditions give nothing; `.br` is a
hard line break (a line ending in a backslash); `.ds` strings are put in place; `.RS` / `.RE` end a paragraph (a
one-line paragraph right before `.RS` is a tag, as DocBook writes definitions); `.de` / `.ig` blocks up to `..` and tbl
tables (`.TS`..`.TE`) are skipped; a call of a macro the page defines itself is kept as an HTML comment (`<!-- .QW
-->`), so its paragraph, whose text would be incomplete, is never eligible; every other request or macro line (`.sp`,
`.in`, ...) gives nothing. Escapes become their characters (`\\-` -> `-`, `\\(em` -> an em dash, `\\e` -> a backslash,
...). A page written with the mdoc macros (`.Dd`, `.Nm`) or one that only points elsewhere (`.so`) gives "".
"""
from __future__ import annotations

import re

NAMED = {"em": "\u2014", "en": "\u2013", "hy": "-", "aq": "'", "dq": '"', "lq": "\u201c", "rq": "\u201d",
         "oq": "\u2018", "cq": "\u2019", "bu": "\u2022", "co": "\u00a9", "rg": "\u00ae", "tm": "\u2122",
         ">=": "\u2265", "<=": "\u2264", "mu": "\u00d7", "->": "\u2192", "<-": "\u2190", "ti": "~", "ha": "^",
         "rs": "\\", "sl": "/", "ba": "|", "or": "|", "pl": "+", "mi": "-", "eq": "=", "de": "\u00b0",
         "Fo": "\u00ab", "Fc": "\u00bb", "fo": "\u2039", "fc": "\u203a", "dg": "\u2020", "sc": "\u00a7",
         "lB": "[", "rB": "]", "lC": "{", "rC": "}", "at": "@", "sh": "#", "Do": "$", "ga": "`", "aa": "\u00b4",
         "ua": "\u2191", "da": "\u2193", "+-": "\u00b1", "!=": "\u2260", "ss": "\u00df", "e'": "\u00e9",
         "a\"": "\u00e4", "o\"": "\u00f6", "u\"": "\u00fc"}
STRINGS = {"lq": "\u201c", "rq": "\u201d", "R": "\u00ae", "Tm": "\u2122", "(lq": "\u201c", "(rq": "\u201d"}
# One escape: a font change, a named character, a string, a size or motion request (dropped), or a single character.
ESCAPE = re.compile(r"\\(f(?:\(..|\[[^\]]*\]|.)|\((..)|\[([^\]]*)\]|\*(?:\((..)|\[([^\]]*)\]|(.))"
                    r"|[shvwmnlLbDoxXHSNCkzZ](?:'[^']*'|\[[^\]]*\]|\(..|[-+]?\d|.)|.)")
FONT_MACROS = {"B": "B", "I": "I", "SB": "B", "SM": "R", "BR": "BR", "RB": "RB", "IR": "IR", "RI": "RI",
               "BI": "BI", "IB": "IB"}
SKIP_BLOCK = {"de": "..", "de1": "..", "ig": "..", "am": "..", "TS": ".TE", "EQ": ".EN"}


def _escape(match: re.Match[str]) -> str:
    body = match.group(1)
    if body.startswith("f"):
        font = body[1:].strip("([]")
        return {"B": "\x01B", "I": "\x01I", "R": "\x01R", "P": "\x01R", "CW": "\x01R", "CR": "\x01R",
                "BI": "\x01B", "CB": "\x01B", "1": "\x01R", "2": "\x01I", "3": "\x01B"}.get(font, "\x01R")
    if match.group(2) is not None:
        return NAMED.get(match.group(2), "")
    if match.group(3) is not None:
        name = match.group(3)
        if name.startswith("u") and re.fullmatch(r"u[0-9A-Fa-f]{4,5}", name):
            return chr(int(name[1:], 16))
        return NAMED.get(name, "")
    if body.startswith("*"):
        return STRINGS.get(match.group(4) or match.group(5) or match.group(6) or "", "")
    if body[0] in "shvwmnlLbDoxXHSNCkzZ" and len(body) > 1:
        return ""
    return {"-": "-", "e": "\\", "\\": "\\", " ": " ", "~": " ", "0": " ", "'": "\u00b4", "`": "`", ".": ".",
            "t": "\t"}.get(body, "")


STRING_REF = re.compile(r"\\\*(?:\((..)|\[([^\]]*)\]|([^(\[]))")


def _resolve(text: str, strings: dict[str, str] | None) -> str:
    """A line with its comment dropped, the page's strings put in place and its escapes read (font changes left as
    \\x01 and the font letter)."""
    text = re.sub(r'\\".*$', "", text)
    if strings:
        for _ in range(2):  # a string may be defined with another
            text = STRING_REF.sub(lambda m: strings.get(m.group(1) or m.group(2) or m.group(3), m.group(0)), text)
    return ESCAPE.sub(_escape, text)


def inline(text: str, font: str = "R", strings: dict[str, str] | None = None) -> str:
    """One line of text with its escapes resolved and its font changes as Markdown (bold -> `x`, italic -> *x*);
    `strings` are the page's own `.ds` definitions."""
    parts = _resolve(text, strings).split("\x01")
    runs: list[tuple[str, str]] = []
    for kind, run in [(font, parts[0])] + [(p[0], p[1:]) for p in parts[1:] if p]:
        if runs and runs[-1][0] == kind:  # `\fBa\fR\fBb\fR` is one code span, not two touching ones
            runs[-1] = (kind, runs[-1][1] + run)
        else:
            runs.append((kind, run))
    return "".join(_font(kind, run) for kind, run in runs)


def plain(text: str, strings: dict[str, str] | None = None) -> str:
    """A line of a code block: escapes resolved, font changes dropped (no Markdown inside a fence)."""
    return re.sub("\x01.?", "", _resolve(text, strings))


def _font(kind: str, run: str) -> str:
    core = run.strip()
    if not core or kind == "R":
        return run
    lead, trail = run[:len(run) - len(run.lstrip())], run[len(run.rstrip()):]
    return f"{lead}`{core}`{trail}" if kind == "B" else f"{lead}*{core}*{trail}"


def _args(rest: str) -> list[str]:
    """A macro line's arguments: space-separated, double quotes grouping (`""` inside a quoted one is a quote)."""
    return [a[1:-1].replace('""', '"') if a.startswith('"') else a
            for a in re.findall(r'"(?:[^"]|"")*"?|\S+', rest)]


def _font_macro(kind: str, args: list[str], strings: dict[str, str]) -> str:
    if kind in ("B", "I", "R"):
        return _font(kind, inline(" ".join(args), strings=strings))
    return "".join(_font(kind[i % 2], inline(a, strings=strings)) for i, a in enumerate(args))


def man_to_markdown(troff: str) -> str:
    lines = troff.splitlines()
    body = [ln for ln in lines if not re.match(r"^[.']\s*\\\"", ln)]
    if any(re.match(r"^\.(Dd|Nm)\b", ln) for ln in body) or (body and body[0].startswith(".so ")):
        return ""
    out: list[str] = []
    strings = dict(STRINGS)
    defined: set[str] = set()
    code = False
    pending_font: str | None = None  # a font macro with no argument applies to the next text line
    tag_next = False
    else_read = False  # the `.el` after an `.ie t` is the terminal branch
    skip_to = ""
    for line in body:
        if skip_to:
            if line.startswith(skip_to):
                skip_to = ""
            continue
        # The terminal (nroff) branch of a condition is the one read: `.if n X` and `.ie n X` are X, `.if t` / `.el`
        # give nothing.
        cond = re.match(r"^[.']\s*(if|ie|el)\s+(?:(n|t|\\n\(\.g|\\n\[\.g\])\s+)?(.*)$", line)
        if cond and (cond.group(2) in ("n", "\\n(.g", "\\n[.g]") or (cond.group(1) == "el" and else_read)):
            else_read = False
            line = cond.group(3)
        elif cond:
            else_read = cond.group(1) == "ie" and cond.group(2) == "t"
            continue
        if line.startswith((".", "'")):
            match = re.match(r"^[.']\s*(\S+)\s*(.*)$", line)
            if not match:
                continue  # an empty request (a lone `.`)
            name, rest = match.group(1), match.group(2)
            if name == "ds":
                parts = rest.split(None, 1)
                if parts:
                    strings[parts[0]] = parts[1].removeprefix('"') if len(parts) > 1 else ""
                continue
            if name in SKIP_BLOCK:
                if name.startswith("de") and rest.split():
                    defined.add(rest.split()[0])
                skip_to = SKIP_BLOCK[name]
                continue
            if name in defined and not code:
                # A macro of the page's own is not read; the comment keeps its paragraph, now incomplete, from being
                # taken as prose (a line starting with `<` is not eligible).
                out.append(f"<!-- .{name} -->")
                continue
            if name in ("nf", "EX", "Vb"):
                if not code:
                    out += ["", "```"]
                code = True
                continue
            if name in ("fi", "EE", "Ve"):
                if code:
                    out += ["```", ""]
                code = False
                continue
            if code and name not in FONT_MACROS:
                continue
            if name == "TH":
                args = _args(rest)
                if args:
                    out += [f"# {inline(args[0], strings=strings)}({args[1] if len(args) > 1 else ''})", ""]
            elif name in ("SH", "SS"):
                heading = inline(" ".join(_args(rest)), strings=strings).replace("`", "").replace("*", "")
                out += ["", ("## " if name == "SH" else "### ") + heading.strip(), ""]
                if not rest.strip():
                    out.pop()
                    out.pop()
                    pending_font = "SH" if name == "SH" else "SS"
            elif name == "br":
                if out and out[-1] and not out[-1].startswith(("#", "- ", "```")):
                    out[-1] += "\\"  # Markdown's hard line break
            elif name in ("PP", "P", "LP", "sp", "HP"):
                out.append("")
            elif name in ("RS", "RE"):
                # DocBook's pages write a definition as a one-line paragraph and its body indented by `.RS`: the
                # line is a tag, as `.TP`'s.
                start = len(out)
                while start and out[start - 1]:
                    start -= 1
                if name == "RS" and len(out) - start == 1 and not out[start].startswith(("- ", "#", "```")):
                    out[start] = f"- {out[start]}"
                out.append("")
            elif name == "TP":
                out.append("")
                tag_next = True
            elif name == "IP":
                args = _args(rest)
                out.append("")
                if args and args[0].strip():
                    out += [f"- {inline(args[0], strings=strings).strip()}", ""]
            elif name in FONT_MACROS:
                args = _args(rest)
                if not args:
                    pending_font = FONT_MACROS[name][0]
                    continue
                if code:
                    out.append(plain(" ".join(args) if len(FONT_MACROS[name]) == 1 else "".join(args), strings))
                    continue
                _text(out, _font_macro(FONT_MACROS[name], args, strings), tag_next)
                tag_next = False
            continue
        if code:
            out.append(plain(line, strings))
            continue
        if pending_font in ("SH", "SS"):
            heading = inline(line, strings=strings).replace("`", "").replace("*", "").strip()
            out += ["", ("## " if pending_font == "SH" else "### ") + heading, ""]
            pending_font = None
            continue
        text = _font(pending_font, inline(line, strings=strings)) if pending_font else inline(line, strings=strings)
        pending_font = None
        if not line.strip():
            out.append("")
            continue
        _text(out, text, tag_next)
        tag_next = False
    if code:
        out.append("```")
    markdown = "\n".join(ln.rstrip() for ln in out)
    return re.sub(r"\n{3,}", "\n\n", markdown).strip() + "\n"


def _text(out: list[str], text: str, tag: bool) -> None:
    """A line of prose, or with `tag` the tag of a `.TP` item: a list item standing alone, its body after it."""
    if tag:
        out += ["", f"- {text.strip()}", ""]
    else:
        # A prose line starting with `#` would read as a Markdown heading.
        out.append(re.sub(r"^#", r"\\#", text.strip()))
