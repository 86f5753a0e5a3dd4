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

With `--root DIR` (written for `technical_heldout6.jsonl`, e.g. `--root /usr/lib/node_modules`) the pool is
instead the Markdown files under DIR (`*.md`, outside test folders, less licence texts, version histories and
community-policy files: `NOT_DOCS`, `NOT_NODE_DOCS`), and `source` is `node_modules/` + the path under DIR. A
"package" there is the innermost package a file sits in (the path up to the last `node_modules/<name>` or
`node_modules/@scope/<name>`), except that npm's own manual counts each of its sections as one
(`npm/docs/content/commands`, `.../using-npm`, ...). A file's YAML front matter is not prose: it is skipped,
and its `title:` is the top of the heading path. The draw is by paragraph, not by package: every eligible
paragraph of the pool, in a seeded random order, is taken in turn unless its file already gave `--per-file`
passages or its package `--per-package`, until the count is reached.

The same mode reads `--root /usr/share/doc` (written for `technical_heldout7.jsonl`): `*.rst` files count as well as
`*.md` (compressed ones are not read), news, translator lists and copyright files are left out with the histories,
`source` is `usr-share-doc/` + the path (`source_prefix`: a root other than a node_modules folder is written as its
path with hyphens), a "package" is the top folder (`python3-pip`, `nodejs`), and a file an earlier set names by its
absolute path (`/usr/share/doc/nodejs/api/net.md`) is out of the pool too.

`--docs-only` (written for `technical_heldout9.jsonl`, `--root /usr/lib/google-cloud-sdk/platform`) narrows the `--root`
pool to files inside a folder named `docs` or `documentation` (a library's user documentation), leaves out READMEs and
"what's new" pages with the histories, and makes a file's "package" the folder that holds its `docs` folder
(`gsutil/third_party/urllib3`), so the per-package cap is per library. Without the flag nothing changes.

`--pod` (written for `technical_heldout10.jsonl`, `--root /usr/share/perl/5.36.0`) makes the `--root` pool Perl's POD
pages instead: the `*.pod` files under the root, each rendered as Markdown by bench/pod_markdown.py (`=head1..4` as
headings, verbatim paragraphs as code blocks, `=item` as list items, inline codes as Markdown: C<x> -> `x`, B<x> ->
**x**, I<x> / F<x> -> *x*, L<text|target> -> text, E<lt> / E<gt> -> < / >; `=begin`..`=end`, `=for`, `=cut`, `=pod`,
`=encoding` give nothing) and then split and judged eligible exactly like a Markdown page, so the passage `text` is
Markdown. Left out besides the usual histories and licences: `perldiag.pod` (a list of messages, not prose) and the
`History/` folders (CPAN::Meta's old spec versions). A "package" is the top folder under the root, or the file itself
when it lies at the top (`Locale`, `CORE.pod`). Without the flag nothing changes.

`--vimdoc` (written for `technical_heldout11.jsonl`, `--root /usr/share/vim/vim90/doc`) makes the `--root` pool Vim's
help files instead: the `*.txt` files under the root, each rendered as Markdown by bench/vimdoc_markdown.py (a line
of `=====` / `-----` followed by a heading line gives the section path, as do a column-0 upper-case line after a blank
line ("1.10 MAPPING ALT-KEYS") and a line ending in " ~"; `*tag*` targets dropped, `|link|` -> its text, `{arg}`,
`<Key>` and `CTRL-X` kept as written in backticks; the lines after a line ending in ">" up to a line starting with "<"
or a dedent are a code block, and `:command` lines and column-aligned lines (tabs or 3+ spaces between text: tables,
"Topic ... |tag|" index lines) are code too, so never prose) and then split and judged eligible exactly like a
Markdown page. Left out: the `tags` file, the histories (`version*.txt`, `todo.txt`), the index pages (`help.txt`,
`index.txt`, `quickref.txt`, `usr_toc.txt`), the licence and sponsoring pages (`uganda.txt`, `sponsor.txt`) and any
section headed credits. A "package" is the user manual (`usr_*.txt`) or the reference (every other file), so
`--per-package` caps each half. Without the flag nothing changes.

`--info` (written for `technical_heldout12.jsonl`, `--root /usr/share/info`) makes the `--root` pool the GNU manuals in
Info format: the gzip-compressed `*.info.gz` / `*.info-N.gz` files (read with Python's gzip module; `dir` and images
are not of these names), each rendered as Markdown by bench/info_markdown.py (nodes only, after the `\x1f` separator
and their `File: ..., Node: ...` line; titles underlined with `*`, `=`, `-`, `.` as headings of levels 1-4; the Top
node, index nodes and copying/licence nodes left out; a `* Menu:` block to the end of its node left out; lines indented
by 5+ spaces after a blank line as code blocks and other indented lines kept, so tables, lists and definitions are not
eligible; makeinfo's 3-space paragraph indent removed; `‘x’` / `` `x' `` -> `` `x` ``, `*Note X::` -> "See X") and then
split and judged eligible exactly like a Markdown page. A "file" is one `.gz` file (`find.info-1.gz`); a "package" is
the manual (the name before `.info`: `find`, `gnupg`), so `--per-package` caps each manual. Without the flag nothing
changes.

`--man` (written for `technical_heldout13.jsonl`, `--root /usr/share/man`) makes the `--root` pool the English manual
pages: the gzip-compressed troff pages `man1/`, `man5/`, `man7/` and `man8/*.gz` directly under the root (not the
translated folders, not man2/man3 API pages; symbolic links, perl module pages `*.3pm` / `*.1p`, pages that only point
elsewhere with `.so`, mdoc pages (`.Dd`, `.Nm`) and pages whose rendering has fewer than 40 non-blank lines are left
out), each rendered as Markdown by bench/man_markdown.py (`.TH` title, `.SH` / `.SS` headings, `.TP` / `.IP` tags as
list items and their bodies as paragraphs, bold -> `x`, italic -> *x*, `.nf`/`.EX` blocks as code) and then split and
judged eligible like a Markdown page, with two more rules so that prose is drawn, not synopses or option lists: a
paragraph is eligible only when its `.SH` section is not one of `MAN_NOT_PROSE` (NAME, SYNOPSIS, EXIT STATUS,
ENVIRONMENT, FILES, SEE ALSO, AUTHORS, BUGS, COPYRIGHT, HISTORY, EXAMPLES, ...; nor any with OPTION, COMMAND or FLAGS in
its name) and it is not the first paragraph after a list item (the body of a `.TP` / `.IP` item: an option's or a key's
description), nor a listing: a paragraph with a `.br` line break (a line ending in a backslash) or whose first line
starts with a shell prompt (`$ `, `# `); and a paragraph whose text is in more than one page (generated boilerplate:
gcloud's "This command is currently in alpha ...") is not drawn. Pages rendered from documentation an earlier set draws
from are left out (CMake's `cmake*`, `ctest`, `cpack`: held-out 8; Perl's `perl*`: held-out 10). A "package" is the
section folder (`man1`), so `--per-package` caps each section, and `--per-file` caps each program, the page name up to
its first `-`, `_` or `.` (`git-add` and `git-commit` are both `git`; the ~15000 generated `gcloud_*` pages are one
program). Without the flag nothing changes.
"""
from __future__ import annotations

import argparse
import gzip
import json
import random
import re
import site
from pathlib import Path

from info_markdown import info_to_markdown  # bench/ is on the path: this script runs as `python bench/NAME.py`
from man_markdown import man_to_markdown
from pod_markdown import pod_to_markdown
from vimdoc_markdown import vimdoc_to_markdown

HEADING_UNDERLINE = re.compile(r"^([=\-~^\"'`#*+<>_:.])\1{2,}\s*$")
# Licence texts and Jinja templates are files of the pool's kinds that are not documentation prose.
NOT_DOCS = re.compile(r"(^|/)(legal|licenses?)/|(^|/)(LICEN[CS]E|COPYING|NOTICE)[^/]*$|template[^/]*$", re.I)
LIST_START = re.compile(r"^(\s|[-*+>|]\s|[-*+>|]$|\d+[.)]\s|#\.\s|\.\.\s|\.\.$|:\w[^:]*:|<)")
# The border of a reST simple table ("====  ====="): a table, which the rule leaves out like any other.
RST_TABLE_BORDER = re.compile(r"^=+( +=+)+\s*$")
# Under --root: version histories and community-policy files are not documentation of the software.
# Under /usr/share/doc also news, translator lists and copyright files, and the hyphenated spellings of the same.
NOT_NODE_DOCS = re.compile(r"(^|/)(CHANGELOG|CHANGES|HISTORY|NEWS|SECURITY|CODE[-_]OF[-_]CONDUCT|release[-_]notes"
                           r"|TRANSLATORS|COPYRIGHT)[^/]*$", re.I)
# Under --docs-only: a file counts when a folder on its path is named docs or documentation; READMEs and "what's new"
# pages (release notes by another name) are left out.
DOCS_FOLDER = re.compile(r"(^|/)(docs|documentation)/")
NOT_USER_DOCS = re.compile(r"(^|/)(README|whats[-_]?new)[^/]*$", re.I)
# Under --pod: the message list and the CPAN::Meta spec's history are not prose documentation.
NOT_POD_DOCS = re.compile(r"(^|/)perldiag\.pod$|(^|/)History/")
# Under --vimdoc: histories, index pages, the licence and sponsoring pages are not prose documentation.
NOT_VIM_DOCS = re.compile(r"^(version\d*|todo|help|index|quickref|usr_toc|uganda|sponsor)\.txt$")
# Under --info: a manual's Info file or one of its split parts (`find.info.gz`, `find.info-1.gz`).
INFO_FILE = re.compile(r"\.info(-\d+)?\.gz$")
# Under --man: the section folders read, and the sections that are not prose (synopses, lists, references, credits).
MAN_SECTIONS = ("man1", "man5", "man7", "man8")
MAN_NOT_PROSE = re.compile(r"^(NAME|SYNOPSIS|EXIT STATUS|RETURN VALUES?|DIAGNOSTICS|ENVIRONMENT( VARIABLES)?|FILES"
                           r"|SEE ALSO|AUTHORS?|(REPORTING )?BUGS|COPYRIGHT|LICEN[CS]E|HISTORY|EXAMPLES?|COLOPHON"
                           r"|AVAILABILITY|ACKNOWLEDG[E]?MENTS?|TRANSLATORS?)$|OPTION|COMMAND|FLAGS", re.I)
# Under --man: a listing, not prose: lines joined by `.br` breaks, or a first line that is a shell prompt.
MAN_LISTING = re.compile(r"\\$|\A\\?[$#] ", re.M)
# Under --man: pages rendered from documentation an earlier set draws from (CMake's manual, held-out 8; Perl's POD,
# held-out 10) are not a new source.
MAN_EARLIER_SOURCE = re.compile(r"^(cmake|ccmake|ctest|cpack|perl)")
FRONT_MATTER = re.compile(r"\A---\n(.*?)\n---\n", re.S)


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


def paragraphs(text: str, title: str | None = None) -> list[tuple[list[str], str]]:
    """Blank-line paragraphs of prose outside code fences, each with the heading path above it (`title`, the
    page title of a front matter, above every heading)."""
    lines = text.splitlines()
    out: list[tuple[list[str], str]] = []
    path: list[tuple[int, str]] = [(0, title)] if title else []
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


def node_package(rel: str) -> str:
    """The package a file under --root belongs to: npm's manual by section, else the innermost package."""
    parts = rel.split("/")
    if parts[:3] == ["npm", "docs", "content"] and len(parts) > 4:
        return "/".join(parts[:4])
    cut = 1
    for i, part in enumerate(parts[:-1]):
        if part == "node_modules" and i + 1 < len(parts) - 1:
            cut = i + (3 if parts[i + 1].startswith("@") else 2)
    return "/".join(parts[:cut])


def source_prefix(root: Path) -> str:
    """`source`'s stable prefix for a --root file: `node_modules/` for a node_modules folder (held-out-6), else the
    root's path with its slashes as hyphens (`/usr/share/doc` -> `usr-share-doc/`), so no machine path is written."""
    if root.name == "node_modules":
        return "node_modules/"
    return "-".join(root.resolve().parts[1:]) + "/"


def docs_package(rel: str) -> str:
    """Under --docs-only: the folder that holds the file's innermost docs folder (`gsutil/third_party/urllib3`)."""
    found = list(DOCS_FOLDER.finditer(rel))
    return rel[:found[-1].start()]


def node_files(root: Path, used: set[str], docs_only: bool = False,
               pod: bool = False, vimdoc: bool = False,
               info: bool = False, man: bool = False) -> dict[str, list[tuple[str, str, str | None]]]:
    """The --root pool: package -> [(source, body without front matter, front-matter title)]. Markdown and
    reStructuredText (`*.md`, `*.rst`; compressed files are not read), or with `pod` the `*.pod` files rendered as
    Markdown; a file an earlier set names by its absolute path (the first sets' `/usr/share/doc/...`) is used too."""
    files: dict[str, list[tuple[str, str, str | None]]] = {}
    prefix = source_prefix(root)
    suffixes = {".pod"} if pod else {".txt"} if vimdoc else {".md", ".rst"}
    if man:
        return man_files(root, used)
    for f in sorted(p for p in root.rglob("*") if (INFO_FILE.search(p.name) if info else p.suffix in suffixes)):
        rel = f.relative_to(root).as_posix()
        source = f"{prefix}{rel}"
        if not f.is_file() or source in used or f.resolve().as_posix() in used or re.search(r"(^|/)tests?/", rel) \
                or NOT_DOCS.search(rel) or NOT_NODE_DOCS.search(rel):
            continue
        if docs_only and (not DOCS_FOLDER.search(rel) or NOT_USER_DOCS.search(rel)):
            continue
        if pod and NOT_POD_DOCS.search(rel):
            continue
        if vimdoc and NOT_VIM_DOCS.search(rel):
            continue
        if info:
            with gzip.open(f, "rt", encoding="utf-8", errors="replace") as compressed:
                files.setdefault(f.name.split(".info")[0], []).append((source, info_to_markdown(compressed.read()),
                                                                       None))
            continue
        body = f.read_text(encoding="utf-8", errors="replace")
        if pod:
            body = pod_to_markdown(body)
        if vimdoc:
            body = vimdoc_to_markdown(body)
            package = "user-manual" if f.name.startswith("usr_") else "reference"
            files.setdefault(package, []).append((source, body, None))
            continue
        title = None
        if front := FRONT_MATTER.match(body):
            found = re.search(r"^title:\s*(.+?)\s*$", front.group(1), re.M)
            title = found.group(1) if found else None
            body = body[front.end():]
        files.setdefault(docs_package(rel) if docs_only else node_package(rel), []).append((source, body, title))
    return files


def man_files(root: Path, used: set[str]) -> dict[str, list[tuple[str, str, str | None]]]:
    """The --man pool: section folder -> [(source, page rendered as Markdown, None)]."""
    files: dict[str, list[tuple[str, str, str | None]]] = {}
    prefix = source_prefix(root)
    for folder in MAN_SECTIONS:
        for f in sorted((root / folder).glob("*.gz")):
            source = f"{prefix}{folder}/{f.name}"
            if f.is_symlink() or not f.is_file() or source in used or re.search(r"\.(3pm|1p)\.gz$", f.name) \
                    or MAN_EARLIER_SOURCE.match(f.name):
                continue
            with gzip.open(f, "rt", encoding="utf-8", errors="replace") as compressed:
                body = man_to_markdown(compressed.read())
            if sum(1 for line in body.splitlines() if line.strip()) >= 40:
                files.setdefault(folder, []).append((source, body, None))
    return files


def man_program(source: str) -> str:
    """Under --man: the program a page documents, the page name up to its first `-`, `_` or `.` (`git-add.1.gz`,
    `gcloud_alpha_ai.1.gz`, `systemd.target.5.gz` -> `git`, `gcloud`, `systemd`); --per-file caps each program."""
    return re.split(r"[-_.]", source.rsplit("/", 1)[-1])[0]


def man_paragraphs(body: str) -> list[tuple[list[str], str]]:
    """Under --man: the eligible paragraphs of prose sections that are not the body of a list item."""
    paras = paragraphs(body)
    return [(section, text) for i, (section, text) in enumerate(paras)
            if eligible(text) and len(section) > 1 and not MAN_NOT_PROSE.search(section[1])
            and not (i and paras[i - 1][1].startswith("- ")) and not MAN_LISTING.search(text)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=20261127)
    parser.add_argument("--count", type=int, default=25)
    parser.add_argument("--drawing", default="technical_heldout3", help="the set these picks are for")
    parser.add_argument("--per-package", type=int, default=1,
                        help="most passages from one package: when one round over the packages falls short of "
                             "--count, another round draws one more passage from each, in the same order (with "
                             "--root: a cap on the paragraph draw)")
    parser.add_argument("--root", type=Path, help="draw from the Markdown files under this folder instead "
                                                  "(e.g. /usr/lib/node_modules)")
    parser.add_argument("--docs-only", action="store_true",
                        help="with --root: only files inside docs/ or documentation/ folders, READMEs and what's-new "
                             "pages left out, a package being the folder above docs/")
    parser.add_argument("--pod", action="store_true",
                        help="with --root: Perl's *.pod files, rendered as Markdown, instead of *.md / *.rst")
    parser.add_argument("--vimdoc", action="store_true",
                        help="with --root: Vim's help files (*.txt), rendered as Markdown, a package being the user "
                             "manual or the reference")
    parser.add_argument("--info", action="store_true",
                        help="with --root: GNU Info manuals (*.info.gz, *.info-N.gz), rendered as Markdown, a package "
                             "being the manual")
    parser.add_argument("--man", action="store_true",
                        help="with --root: the English manual pages (man1, man5, man7, man8 *.gz troff), rendered as "
                             "Markdown, prose sections only, a package being the section folder")
    parser.add_argument("--per-file", type=int, help="with --root: most passages from one file (default: no cap)")
    args = parser.parse_args()
    used = sources_used(Path(__file__).parent / "data", args.drawing)
    files = (node_files(args.root, used, args.docs_only, args.pod, args.vimdoc, args.info, args.man) if args.root
             else site_files(used))
    if args.root:
        draw_by_paragraph(files, args.seed, args.count, args.per_file, args.per_package, args.man)
        return
    rng = random.Random(args.seed)
    packages = sorted(files)
    rng.shuffle(packages)
    picked: set[tuple[str, int]] = set()
    for _ in range(args.per_package):
        for package in packages:
            choices = [(source, fresh) for source, body, _ in files[package]
                       if (fresh := [(n, s, t) for n, (s, t) in enumerate(p for p in paragraphs(body) if eligible(p[1]))
                                     if (source, n) not in picked])]
            if not choices:
                continue
            source, paras = rng.choice(choices)
            index, section, text = rng.choice(paras)
            print(json.dumps({"source": source, "section": section, "index": index, "text": text}, ensure_ascii=False))
            picked.add((source, index))
            if len(picked) == args.count:
                return


def draw_by_paragraph(files: dict[str, list[tuple[str, str, str | None]]], seed: int, count: int,
                      per_file: int | None, per_package: int, man: bool = False) -> None:
    """The --root draw: all eligible paragraphs shuffled, taken in turn within the per-file and per-package caps."""
    pool = [(package, source, n, section, text) for package in sorted(files) for source, body, title in files[package]
            for n, (section, text) in enumerate(man_paragraphs(body) if man else
                                                (p for p in paragraphs(body, title) if eligible(p[1])))]
    if man:  # boilerplate: a paragraph written in more than one page
        pages: dict[str, set[str]] = {}
        for _, source, _, _, text in pool:
            pages.setdefault(text, set()).add(source)
        pool = [entry for entry in pool if len(pages[entry[4]]) == 1]
    random.Random(seed).shuffle(pool)
    by_file: dict[str, int] = {}
    by_package: dict[str, int] = {}
    taken = 0
    for package, source, index, section, text in pool:
        key = man_program(source) if man else source
        if (per_file is not None and by_file.get(key, 0) >= per_file) or by_package.get(package, 0) >= per_package:
            continue
        print(json.dumps({"source": source, "section": section, "index": index, "text": text}, ensure_ascii=False))
        by_file[key] = by_file.get(key, 0) + 1
        by_package[package] = by_package.get(package, 0) + 1
        taken += 1
        if taken == count:
            return


def site_files(used: set[str]) -> dict[str, list[tuple[str, str, str | None]]]:
    """The default pool: package -> [(source, body, None)] from this interpreter's site-packages."""
    sp = Path(next(p for p in site.getsitepackages() if p.endswith("site-packages")))
    files: dict[str, list[tuple[str, str, str | None]]] = {}
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
            files.setdefault(package, []).append((f"site-packages/{rel}", body, None))
    return files


if __name__ == "__main__":
    main()
