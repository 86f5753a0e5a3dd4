"""Render a Perl POD file as Markdown, so that bench/pick_technical_passages.py can split it like any other page.

Written for `technical_heldout10.jsonl` (Perl's own documentation). The rule, in full:

- `=head1` .. `=head4` become `#` .. `####` headings (the passage's section path);
- a verbatim paragraph (its first line indented) becomes a fenced code block, consecutive ones one block;
- `=item *` and `=item N.` make a bullet / numbered item of the paragraph that follows them; any other `=item text`
  is a bullet of its own (`- text`), and the paragraphs under it stay paragraphs;
- `=over`, `=back`, `=pod`, `=cut`, `=encoding` and `=for` give nothing; `=begin X` .. `=end X` and whatever follows a
  `=cut` up to the next command are skipped;
- inline codes: C<x> -> `x`, B<x> -> **x**, I<x> and F<x> -> *x*, S<x> -> x, L<text|target> -> text (L<name> ->
  name, L<name/"sec"> -> "sec" in name, L</"sec"> -> "sec"), E<lt> / E<gt> / E<verbar> / E<sol> / named and numeric
  entities -> the character, X<...> and Z<> -> nothing; doubled brackets (C<< x >>) read as POD defines them.
"""
from __future__ import annotations

import html.entities
import re

COMMAND = re.compile(r"^=([a-zA-Z]\w*)\s*(.*)\Z", re.S)
ESCAPES = {"lt": "<", "gt": ">", "verbar": "|", "sol": "/"}


def pod_to_markdown(pod: str) -> str:
    """The Markdown of a POD document (see the module's docstring for the rule)."""
    blocks: list[str] = []
    verbatim: list[str] = []
    pending_item: str | None = None  # "- " or "1. " waiting for the paragraph it marks
    in_pod = True
    begin_depth = 0

    def flush_verbatim() -> None:
        if verbatim:
            blocks.append("```\n" + "\n\n".join(verbatim) + "\n```")
            verbatim.clear()

    for para in re.split(r"\n[ \t]*\n", pod.replace("\r\n", "\n")):
        if not para.strip():
            continue
        para = para.strip("\n")
        command = COMMAND.match(para)
        if command:
            name, rest = command.group(1), command.group(2).strip()
            in_pod = name != "cut"
            if name == "begin":
                begin_depth += 1
            elif name == "end":
                begin_depth = max(0, begin_depth - 1)
            if begin_depth or name in {"begin", "end"}:
                continue
            flush_verbatim()
            if pending_item is not None:
                blocks.append(pending_item.rstrip())
                pending_item = None
            heading = re.fullmatch(r"head([1-4])", name)
            if heading:
                blocks.append("#" * int(heading.group(1)) + " " + " ".join(render(rest).split()))
            elif name == "item":
                marker = re.fullmatch(r"(\*|(\d+)\.?)?", rest)
                if marker:  # a bullet or a number: the item's text is the paragraph that follows
                    pending_item = f"{marker.group(2)}. " if marker.group(2) else "- "
                else:
                    blocks.append("- " + " ".join(render(rest).split()))
            continue
        if not in_pod or begin_depth:
            continue
        if para[0] in " \t":
            verbatim.append(dedent(para))
            continue
        flush_verbatim()
        text = render(para)
        if pending_item is not None:
            blocks.append(pending_item + text)
            pending_item = None
        else:
            blocks.append(text)
    flush_verbatim()
    if pending_item is not None:
        blocks.append(pending_item.rstrip())
    return "\n\n".join(blocks) + "\n"


def dedent(para: str) -> str:
    lines = para.expandtabs(8).split("\n")
    cut = min(len(line) - len(line.lstrip()) for line in lines if line.strip())
    return "\n".join(line[cut:].rstrip() for line in lines)


def render(text: str) -> str:
    """POD inline formatting codes as Markdown."""
    out, _ = _render(text, 0, None)
    return out


def _render(text: str, i: int, close: str | None) -> tuple[str, int]:
    """Render from `i` until `close` (">" or " >>"-style closer, None for the end); return text and end index."""
    out: list[str] = []
    while i < len(text):
        if close is not None and text.startswith(close, i):
            return "".join(out), i + len(close)
        code = re.match(r"([A-Z])(<+)", text[i:])
        if code and (len(code.group(2)) == 1 or text[i + code.end():i + code.end() + 1] in {" ", "\t", "\n"}):
            letter, opens = code.group(1), len(code.group(2))
            if opens == 1:
                inner, i = _render(text, i + code.end(), ">")
            else:  # C<< x >>: the content is everything up to whitespace plus as many ">"
                start = i + code.end()
                end = re.compile(r"\s" + ">" * opens).search(text, start)
                stop = end.start() if end else len(text)
                inner, _ = _render(text[start:stop].strip(), 0, None)
                i = end.end() if end else len(text)
            out.append(_format(letter, inner))
            continue
        out.append(text[i])
        i += 1
    return "".join(out), i


def _format(letter: str, inner: str) -> str:
    if letter == "C":
        tick = "``" if "`" in inner else "`"
        pad = " " if tick == "``" else ""
        return f"{tick}{pad}{inner}{pad}{tick}"
    if letter == "B":
        return f"**{inner}**"
    if letter in {"I", "F"}:
        return f"*{inner}*"
    if letter == "S":
        return inner
    if letter == "L":
        return _link_text(inner)
    if letter == "E":
        return _escape(inner)
    return ""  # X<index entry>, Z<>, and codes POD does not define


def _link_text(inner: str) -> str:
    """L<text|target> -> text; without a text, what perldoc shows for the target."""
    if "|" in inner:
        return inner.split("|", 1)[0]
    if re.match(r"\w+:[^:\s]\S*$", inner):  # a URL
        return inner
    name, slash, section = inner.partition("/")
    if not slash:
        return name
    section = section.strip('"')
    return f'"{section}" in {name}' if name else f'"{section}"'


def _escape(name: str) -> str:
    if name in ESCAPES:
        return ESCAPES[name]
    if re.fullmatch(r"0x[0-9a-fA-F]+", name):
        return chr(int(name, 16))
    if name.isdigit():
        return chr(int(name))
    code = html.entities.name2codepoint.get(name)
    return chr(code) if code else f"E<{name}>"
