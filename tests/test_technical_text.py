"""Manuals and technical books: structure is structure, code is code (issue 31).

End to end where it matters: a Markdown file goes through the reader, the chunker and the offline
extractor with the shipped open-domain schema, and the assertions are what a reader of the manual
expects of the graph (no heading, contents line, code block or inline code typed a person or an
organisation; an acronym and its expansion one entity).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kgbuild.config import ChunkingConfig
from kgbuild.extract.offline import OfflineExtractor
from kgbuild.ingest.chunking import Chunker
from kgbuild.ingest.readers import ReadProblem, read_sources
from kgbuild.model import ChunkExtraction, Document, Entity
from kgbuild.schema import Schema, resolve_schema

NAMED = ("Person", "Organization", "GeographicLocation")


@pytest.fixture(scope="module")
def schema() -> Schema:
    return resolve_schema("open_domain")


@pytest.fixture(scope="module")
def extractor(schema: Schema) -> Iterator[OfflineExtractor]:
    yield OfflineExtractor(schema)


def read_md(tmp_path: Path, text: str, name: str = "manual.md") -> Document:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    items = list(read_sources([path]))
    assert not [i for i in items if isinstance(i, ReadProblem)]
    [doc] = items
    assert isinstance(doc, Document)
    return doc


def build(tmp_path: Path, extractor: OfflineExtractor, text: str) -> tuple[Document, list[ChunkExtraction]]:
    doc = read_md(tmp_path, text)
    chunks = Chunker(ChunkingConfig(max_tokens=256, min_tokens=0)).chunk(doc).chunks
    return doc, extractor.extract(chunks)


def entities(results: list[ChunkExtraction]) -> list[Entity]:
    return [e for r in results for e in r.entities]


def named(schema: Schema, results: list[ChunkExtraction]) -> list[tuple[str, str]]:
    return [(e.name, e.spg_class) for e in entities(results) if any(schema.is_a(e.spg_class, c) for c in NAMED)]


# ---------------------------------------------------------------- the reader


def test_code_blocks_are_fenced_verbatim_and_inline_code_keeps_its_backticks(tmp_path: Path) -> None:
    doc = read_md(tmp_path, """# Sockets

Call [`net.createServer()`][] or `__init__` with `sun_path` set; see [the guide](http://x.org).

```c
struct sockaddr_un {
    char sun_path[108];
};
```

An indented block follows.

    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
        return fd;

- a list item
    continued, not code
""")
    texts = [p.text for p in doc.paragraphs]
    assert texts[0] == "Call `net.createServer()` or `__init__` with `sun_path` set; see the guide."
    assert texts[1] == "```c\nstruct sockaddr_un {\n    char sun_path[108];\n};\n```"
    assert texts[3] == "```\nint fd = socket(AF_UNIX, SOCK_STREAM, 0);\n    return fd;\n```"
    assert texts[4] == "a list item continued, not code"


def test_html_code_is_marked_the_same_way(tmp_path: Path) -> None:
    doc = read_md(tmp_path, "<h1>Net</h1><p>Call <code>net.connect()</code> now.</p>"
                            "<pre><code>if (a) {\n    go();\n}\n</code></pre>", name="net.html")
    assert [p.text for p in doc.paragraphs] == ["Call `net.connect()` now.", "```\nif (a) {\n    go();\n}\n```"]


def test_table_of_contents_index_and_page_furniture_are_left_out(tmp_path: Path) -> None:
    running = "Chapter 7 ■ Using Array Variables"
    pages = "\n\n".join(f"{running}\n\nArrays hold values of one type in order, page {n}.\n\n{160 + n}" for n in range(5))
    doc = read_md(tmp_path, f"""# Learning VBA

## Contents

Chapter 7: Using Array Variables ........ 160
Chapter 8: Finding the Objects, Methods, and Properties You Need ........ 181
Chapter 9: Using Built-in Functions ........ 203

## Arrays

{pages}

1.1 Declaring Arrays 161
1.2 Resizing Arrays 165
1.3 Erasing Arrays 170

# Index

array variables, 160, 165-170
ReDim statement, 165
Option Base, 162
""")
    text = doc.text
    assert "Properties You Need" not in text and "Declaring Arrays" not in text
    assert "ReDim" not in text and running not in text and "\n\n161\n\n" not in f"\n\n{text}\n\n"
    assert "Arrays hold values of one type in order, page 4." in text
    assert "table of contents" in doc.metadata["skipped"] and "index" in doc.metadata["skipped"]
    assert "page header/footer" in doc.metadata["skipped"]
    assert doc.paragraphs[0].section == ["Learning VBA", "Arrays"]


def test_a_bold_line_alone_is_a_heading(tmp_path: Path) -> None:
    doc = read_md(tmp_path, "# PowerPoint\n\n**Running Slide Shows**\n\nA slide show runs full screen.\n")
    assert [(p.section, p.text) for p in doc.paragraphs] == [
        (["PowerPoint", "Running Slide Shows"], "A slide show runs full screen.")]


def test_an_over_budget_code_block_is_cut_at_line_ends_and_every_piece_is_fenced(tmp_path: Path) -> None:
    body = "\n".join(f"    total_{i} = compute_value({i}, scale=factor_{i})  # step {i}" for i in range(120))
    doc = read_md(tmp_path, f"# Code\n\n```python\ndef run():\n{body}\n```\n")
    chunks = Chunker(ChunkingConfig(max_tokens=128, min_tokens=0)).chunk(doc).chunks
    assert len(chunks) > 3
    for chunk in chunks:
        assert chunk.text.startswith("```python\n") and chunk.text.endswith("\n```")
        assert chunk.token_count <= 128
    lines = [line for c in chunks for line in c.text.split("\n")[1:-1]]
    assert lines == ["def run():", *body.split("\n")]


# ---------------------------------------------------------------- the extractor, end to end


def test_headings_contents_and_code_never_become_people_or_organisations(
        tmp_path: Path, extractor: OfflineExtractor, schema: Schema) -> None:
    _, results = build(tmp_path, extractor, """# Office Scripting

## Contents

Chapter 7: Using Array Variables ........ 160
Chapter 8: Finding the Objects, Methods, and Properties You Need ........ 181
Chapter 9: Item-Level Events ........ 203

## Running Slide Shows

Running Slide Shows

The `ColorScheme` object sets the colours of a slide. Call `setIntercept` before the show starts.
Indicates whether the show loops.
The Socket Buffer holds the packets that `be32 nh_saddr` addresses.

```vb
Dim MsgBox As Shape
Set Presentation = Application.ActivePresentation
Sub RunShow()
    MsgBox "Precedence Constraint"
End Sub
```
""")
    names = {e.name for e in entities(results)}
    assert not named(schema, results), named(schema, results)
    assert "Running Slide Shows" not in names
    assert not {"MsgBox", "Presentation", "RunShow", "Precedence Constraint", "Properties You Need", "Indicates"} & names
    by_name = {e.name: e.spg_class for e in entities(results)}
    assert by_name.get("ColorScheme") == "CodeElement"


def test_inline_code_discussed_in_prose_is_a_code_entity(tmp_path: Path, extractor: OfflineExtractor) -> None:
    _, results = build(tmp_path, extractor, """# Events

All objects that emit events are instances of the `EventEmitter` class. The `EventEmitter` calls all
listeners synchronously in the order in which they were registered.
""")
    classes = {e.name: e.spg_class for e in entities(results)}
    assert classes.get("EventEmitter") == "CodeElement"


def test_it_under_a_code_heading_is_that_code_not_a_dropped_pronoun(tmp_path: Path, extractor: OfflineExtractor) -> None:
    _, results = build(tmp_path, extractor, """# Net

## Class: `net.Server`

It extends `EventEmitter`. It is used to create a TCP or IPC server.
""")
    drops = [d for r in results for d in r.drops if d.reason.value == "pronoun unresolved"]
    assert not drops
    relations = {(r.subject.name, r.object.name) for x in results for r in x.relations}
    assert ("net.Server", "EventEmitter") in relations


def test_an_acronym_and_its_expansion_are_one_entity(tmp_path: Path, extractor: OfflineExtractor,
                                                     schema: Schema) -> None:
    _, results = build(tmp_path, extractor, """# Networking

The Transmission Control Protocol (TCP) provides reliable delivery of a stream of bytes. TCP uses
a three-way handshake to open a connection.
""")
    found = [e for e in entities(results) if "TCP" in (e.name, *e.aliases) or "Transmission" in e.name]
    assert len({e.id for e in found}) == 1, [(e.name, e.aliases) for e in found]
    [tcp] = {e.id: e for e in found}.values()
    assert {tcp.name, *tcp.aliases} >= {"Transmission Control Protocol", "TCP"}
    assert not any(schema.is_a(tcp.spg_class, c) for c in NAMED)


def test_the_encyclopedic_reading_is_unchanged(tmp_path: Path, extractor: OfflineExtractor) -> None:
    """A page about a person, without code or a numbered heading, keeps its title hint."""
    _, results = build(tmp_path, extractor, "# Alan Turing\n\nAlan Turing was a mathematician. He joined "
                                            "Bletchley Park in 1939.\n")
    relations = {(r.subject.name, r.predicate, r.object.name) for x in results for r in x.relations}
    assert ("Alan Turing", "join", "Bletchley Park") in relations


# ---------------------------------------------------------------- the pieces


def test_code_shapes_and_names() -> None:
    from kgbuild.extract.code_text import code_name, looks_like_code, section_topic

    for code in ("net.Socket", "setIntercept", "nh_saddr", "--cert", "server.listen(port)", "__init__", "a::b"):
        assert looks_like_code(code, technical=False), code
    for name in ("Alan Turing", "McDonald", "YouTube", "Node.js v20", "IBM"):
        assert not looks_like_code(name, technical=False), name
    assert looks_like_code("ColorScheme", technical=True) and not looks_like_code("McDonald", technical=True)
    assert code_name("socket.connect(options[, connectListener])") == "socket.connect()"
    assert section_topic(["Net", "Class: net.Server"]) == "net.Server"
    assert section_topic(["Net", "socket.setTimeout(timeout[, callback])"]) == "socket.setTimeout()"
    assert section_topic(["Alan Turing", "Early life"]) is None


def test_mask_code_drops_blocks_and_unmarks_spans() -> None:
    from kgbuild.extract.code_text import mask_code

    masked = mask_code("Use `a.b()` here.\n\n```js\nconst x = a.b();\n```\n\nThen  stop.", lambda t: " ".join(
        t.split(" ")))
    assert "const" not in masked.text
    assert [masked.text[s:e] for s, e in masked.spans] == ["a.b()"]
    assert masked.has_code


def test_a_method_section_inside_a_class_section_is_part_of_the_class(
        tmp_path: Path, extractor: OfflineExtractor) -> None:
    _, results = build(tmp_path, extractor, """# Net

## Class: `net.Server`

### `server.close([callback])`

Stops the server from accepting new connections and keeps existing connections.
""")
    relations = {(r.subject.name, r.predicate, r.object.name) for x in results for r in x.relations}
    assert ("server.close()", "partOf", "net.Server") in relations


def test_code_entities_can_be_left_out(tmp_path: Path, schema: Schema) -> None:
    text = "# Events\n\nAll objects that emit events are instances of the `EventEmitter` class; call `emitter.on()`.\n"
    doc = read_md(tmp_path, text)
    chunks = Chunker(ChunkingConfig()).chunk(doc).chunks
    [without] = OfflineExtractor(schema, code_entities=False).extract(chunks)
    assert not [e for e in without.entities if e.spg_class == "CodeElement" or "EventEmitter" in e.name]
    assert not [e for e in without.entities if e.name in ("Events", "emitter.on()")]


def test_a_name_over_several_code_spans_is_each_span(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # Node's vm.md: the NER ran "`Function`, `GeneratorFunction`" into one name; each is code of its own.
    _, results = build(tmp_path, extractor, """# VM (executing JavaScript)

## Class: `vm.Script`

### `script.runInNewContext([contextObject[, options]])`

* `contextCodeGeneration` {Object}
  * `strings` {boolean} If set to false any calls to `eval` or function
    constructors (`Function`, `GeneratorFunction`, etc) will throw an
    `EvalError`. **Default:** `true`.
""")
    names = {e.name for e in entities(results)}
    assert {"Function", "GeneratorFunction"} <= names, names
    assert not any("," in n and "Function" in n for n in names), names


def test_inline_code_glued_to_a_word_stays_a_word_of_its_own(
        tmp_path: Path, extractor: OfflineExtractor) -> None:
    # Written in the style of a library's README (a space left out after the closing backtick): the code is its
    # own entity, never run into the next word ("v2.x.yis").
    _, results = build(tmp_path, extractor, """# mylib

## Branches

The branch `v2.x.y`is the maintenance line of the library, and `v3.x.y`holds the new parser.
""")
    names = {e.name for r in results for e in r.entities}
    assert "v2.x.y" in names and "v3.x.y" in names, names
    assert not any(n.startswith(("v2.x.yis", "v3.x.yholds")) for n in names), names


def test_a_plural_or_verb_ending_after_code_stays_with_it(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # dns.md's `hints` option ("Multiple flags may be passed by bitwise `OR`ing their values") and manuals' plurals
    # of code ("`Buffer`s"): an ending glued to code is no word of its own (no entity "ing" or "s").
    _, results = build(tmp_path, extractor, """# DNS

## `dns.lookup(hostname[, options], callback)`

Multiple flags may be passed by bitwise `OR`ing their values. Both `Buffer`s are copied.
""")
    names = {e.name for r in results for e in r.entities}
    assert not names & {"ing", "s"}, names
    assert not any(s == "bitwise" for r in results for t in r.relations for s in (t.subject.name,)), names


def test_a_file_named_without_backticks_is_code(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # Written in the style of a package's README (Debian's docs name files bare: "the README.md file", "updating
    # libproc.so"): a name with a source, build or library file's extension is code as "`setup.py`" is; a web
    # address is not.
    _, results = build(tmp_path, extractor, """# mytool

## Building

Please see the INSTALL.txt file that comes with the source release. The build reads
its settings from options.cfg and links against libmytool.so. Node.js is not needed;
releases are announced on www.example.org.
""")
    found = {e.name: e.spg_class for r in results for e in r.entities}
    assert all(found.get(n) == "CodeElement" for n in ("INSTALL.txt", "options.cfg", "libmytool.so")), found
    assert found.get("www.example.org") != "CodeElement", found
