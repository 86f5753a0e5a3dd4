"""Pick held-out technical passages by position and a seeded draw, never by content.

Prints one JSON line per picked passage (source, section, index among the file's eligible paragraphs,
text); nothing here extracts anything. Written to choose `bench/data/technical_heldout3.jsonl`'s
passages; the rule is in docs/technical_gold.md ("The fourth session").

Pool: documentation shipped inside the packages of this interpreter's site-packages (`*.md`, `*.rst`,
`README*` outside `*.dist-info` and test folders) and the long descriptions of `*.dist-info/METADATA`
that are not Markdown (the Markdown ones are read by bench/technical_text.py's corpus figures), less
every file an existing technical set (`bench/data/technical_*.jsonl`) draws from, licence texts and
templates (`NOT_DOCS`). Packages are drawn in
a seeded random order; from each, one file and then one of its eligible paragraphs are drawn, until
the count is reached (with `--per-package 2`, a second round over the same order draws one more
passage from each package when the first round falls short).
"""
from __future__ import annotations

import argparse
import json
import random
import re
import site
from pathlib import Path

HEADING_UNDERLINE = re.compile(r"^([=\-~^\"'`#*+<>_:.])\1{2,}\s*$")
# Licence texts and Jinja templates are files of the pool's kinds that are not documentation prose.
NOT_DOCS = re.compile(r"(^|/)(legal|licenses?)/|(^|/)(LICEN[CS]E|COPYING|NOTICE)[^/]*$|template[^/]*$", re.I)
LIST_START = re.compile(r"^(\s|[-*+>|]\s|[-*+>|]$|\d+[.)]\s|#\.\s|\.\.\s|\.\.$|:\w[^:]*:|<)")
# The border of a reST simple table ("====  ====="): a table, which the rule leaves out like any other.
RST_TABLE_BORDER = re.compile(r"^=+( +=+)+\s*$")


def sources_used(data: Path, drawing: str) -> set[str]:
    """Files the other technical sets draw from (not the set being drawn, so the draw can be rerun)."""
    used: set[str] = set()
    for gold in sorted(data.glob("technical_*.jsonl")):
        if gold.stem == drawing:
            continue
        for line in gold.read_text(encoding="utf-8").splitlines():
            if line.strip():
                used.add(json.loads(line)["source"].split("site-packages/")[-1])
    return used


def body_of_metadata(text: str) -> str | None:
    """The long description of a METADATA file that is not Markdown, or None."""
    head, _, body = text.partition("\n\n")
    kind = re.search(r"^Description-Content-Type:\s*(\S+)", head, re.M)
    if kind and "markdown" in kind.group(1).lower():
        return None
    return body


def paragraphs(text: str) -> list[tuple[list[str], str]]:
    """Blank-line paragraphs of prose outside code fences, each with the heading path above it."""
    lines = text.splitlines()
    out: list[tuple[list[str], str]] = []
    path: list[tuple[int, str]] = []
    rst_levels: list[str] = []
    block: list[str] = []
    fenced = False

    def set_heading(level: int, title: str) -> None:
        while path and path[-1][0] >= level:
            path.pop()
        path.append((level, title.strip().strip("#").strip()))

    def flush() -> None:
        if block:
            out.append(([t for _, t in path], "\n".join(block)))
            block.clear()

    i = 0
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith("```"):
            flush()
            fenced = not fenced
            i += 1
            continue
        if fenced:
            i += 1
            continue
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if line.startswith("#") and re.match(r"^#{1,6}\s", line):
            flush()
            set_heading(len(line) - len(line.lstrip("#")), line)
            i += 1
            continue
        after = lines[i + 2] if i + 2 < len(lines) else ""
        if HEADING_UNDERLINE.match(line) and nxt.strip() and HEADING_UNDERLINE.match(after):
            flush()  # over- and underlined reST title
            key = "o" + line.strip()[0]
            if key not in rst_levels:
                rst_levels.append(key)
            set_heading(rst_levels.index(key) + 1, nxt)
            i += 3
            continue
        if line.strip() and not block and HEADING_UNDERLINE.match(nxt) and len(nxt.strip()) >= len(line.strip()) - 2:
            flush()  # underlined reST title
            key = nxt.strip()[0]
            if key not in rst_levels:
                rst_levels.append(key)
            set_heading(rst_levels.index(key) + 1, line)
            i += 2
            continue
        if line.strip():
            block.append(line)
        else:
            flush()
        i += 1
    flush()
    return out


def eligible(text: str) -> bool:
    return len(text) >= 200 and not any(LIST_START.match(line) or RST_TABLE_BORDER.match(line)
                                        for line in text.splitlines())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=20261127)
    parser.add_argument("--count", type=int, default=25)
    parser.add_argument("--drawing", default="technical_heldout3", help="the set these picks are for")
    parser.add_argument("--per-package", type=int, default=1,
                        help="most passages from one package: when one round over the packages falls short of "
                             "--count, another round draws one more passage from each, in the same order")
    args = parser.parse_args()
    sp = Path(next(p for p in site.getsitepackages() if p.endswith("site-packages")))
    used = sources_used(Path(__file__).parent / "data", args.drawing)
    files: dict[str, list[tuple[str, str]]] = {}
    for f in sorted(sp.rglob("*")):
        rel = f.relative_to(sp).as_posix()
        if not f.is_file() or rel in used or re.search(r"(^|/)tests?/", rel) or NOT_DOCS.search(rel):
            continue
        if rel.endswith(".dist-info/METADATA"):
            body = body_of_metadata(f.read_text(encoding="utf-8", errors="replace"))
            package = rel.split("-")[0].lower()
        elif ".dist-info/" not in rel and (f.suffix.lower() in {".md", ".rst"} or f.name.startswith("README")):
            body = f.read_text(encoding="utf-8", errors="replace")
            package = rel.split("/")[0].lower()
        else:
            continue
        if body:
            files.setdefault(package, []).append((rel, body))
    rng = random.Random(args.seed)
    packages = sorted(files)
    rng.shuffle(packages)
    picked: set[tuple[str, int]] = set()
    for _ in range(args.per_package):
        for package in packages:
            choices = [(rel, fresh) for rel, body in files[package]
                       if (fresh := [(n, s, t) for n, (s, t) in enumerate(p for p in paragraphs(body) if eligible(p[1]))
                                     if (rel, n) not in picked])]
            if not choices:
                continue
            rel, paras = rng.choice(choices)
            index, section, text = rng.choice(paras)
            print(json.dumps({"source": f"site-packages/{rel}", "section": section, "index": index, "text": text},
                             ensure_ascii=False))
            picked.add((rel, index))
            if len(picked) == args.count:
                return


if __name__ == "__main__":
    main()
