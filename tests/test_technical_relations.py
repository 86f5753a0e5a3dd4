"""Relations in technical prose (issue 31): what code, software and terms do to each other.

Each passage is real documentation text installed on the development machine (the Node.js API
manual, a package README), read end to end: Markdown reader, chunker, offline extractor with a
shipped schema. Before `extract/tech_relations.py` none of these triples was made (the subjects were
code, lower-case software or "this object", the modal "may" dropped a clause as hedged).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kgbuild.config import ChunkingConfig
from kgbuild.extract.offline import OfflineExtractor
from kgbuild.ingest.chunking import Chunker
from kgbuild.ingest.readers import read_sources
from kgbuild.model import ChunkExtraction, Document
from kgbuild.schema import Schema, resolve_schema


@pytest.fixture(scope="module")
def extractor() -> Iterator[OfflineExtractor]:
    """The shipped open-domain schema: what a project gets without `--schema software`."""
    yield OfflineExtractor(resolve_schema("open_domain"))


def extract(tmp_path: Path, extractor: OfflineExtractor, text: str) -> list[ChunkExtraction]:
    path = tmp_path / "manual.md"
    path.write_text(text, encoding="utf-8")
    [doc] = list(read_sources([path]))
    assert isinstance(doc, Document)
    return extractor.extract(Chunker(ChunkingConfig(max_tokens=256, min_tokens=0)).chunk(doc).chunks)


def triples(results: list[ChunkExtraction]) -> set[tuple[str, str, str]]:
    return {(r.subject.name, r.predicate, r.object.name) for x in results for r in x.relations}


def pairs(results: list[ChunkExtraction]) -> set[frozenset[str]]:
    return {frozenset((r.subject.name, r.object.name)) for x in results for r in x.relations}


def classes(results: list[ChunkExtraction]) -> dict[str, str]:
    return {e.name: e.spg_class for x in results for e in x.entities}


def test_code_subject_with_a_modal_and_an_object_pronoun(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # net.md: "may" states what the function does, "it" is the socket just named.
    found = triples(extract(tmp_path, extractor, """# Net

## IPC support

For example,
[`net.createServer()`][] may create a Unix domain socket and
[`server.close()`][] will unlink it.
"""))
    assert ("net.createServer()", "creates", "Unix domain socket") in found
    assert ("server.close()", "unlink", "Unix domain socket") in found


def test_this_object_is_the_class_of_its_section(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # http.md: "This object ... returned from X" under "Class: `http.ClientRequest`".
    found = triples(extract(tmp_path, extractor, """# HTTP

## Class: `http.ClientRequest`

This object is created internally and returned from [`http.request()`][]. It
represents an _in-progress_ request whose header has already been queued.
"""))
    assert ("http.request()", "returns", "http.ClientRequest") in found


def test_responsible_for_managing(tmp_path: Path, extractor: OfflineExtractor) -> None:
    found = triples(extract(tmp_path, extractor, """# HTTP

## Class: `http.Agent`

An `Agent` is responsible for managing connection persistence
and reuse for HTTP clients.
"""))
    assert ("Agent", "manages", "connection persistence") in found


def test_lower_case_software_and_the_object_of_its_object(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # python-dotenv's README: the package, written in lower case, is the subject.
    results = extract(tmp_path, extractor, """# python-dotenv

python-dotenv reads key-value pairs from a `.env` file and can set them as
environment variables.
""")
    assert ("python-dotenv", "read from", ".env") in triples(results)
    assert classes(results)["python-dotenv"] == "Software"


def test_call_with(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # net.md, `socket.resetAndDestroy()`.
    found = triples(extract(tmp_path, extractor, """# Net

## Class: `net.Socket`

### `socket.resetAndDestroy()`

Close the TCP connection by sending an RST packet and destroy the stream.
Otherwise, it will call `socket.destroy` with an `ERR_SOCKET_CLOSED` Error.
"""))
    assert ("socket.destroy", "calledWith", "ERR_SOCKET_CLOSED") in found
    assert ("socket.resetAndDestroy()", "calls", "socket.destroy") in found


def test_a_standard_published_by_the_body_in_its_name(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # buffer.md.
    found = triples(extract(tmp_path, extractor, """# Buffer

## Buffers and character encodings

Modern Web browsers follow the [WHATWG Encoding Standard][] which aliases
both `'latin1'` and `'ISO-8859-1'` to `'win-1252'`. This means that while doing
something like `http.get()`, if the returned charset is one of those listed in
the WHATWG specification it is possible that the server actually returned
`'win-1252'`-encoded data.
"""))
    assert ("WHATWG Encoding Standard", "developedBy", "WHATWG") in found


def test_software_predicates_and_negation(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # events.md: the class implements an API and is *not* an instance of another class.
    results = extract(tmp_path, extractor, """# Events

## Class: `NodeEventTarget`

The `NodeEventTarget` object implements a modified subset of the
`EventEmitter` API that allows it to closely _emulate_ an `EventEmitter` in
certain situations. A `NodeEventTarget` is _not_ an instance of `EventEmitter`
and cannot be used in place of an `EventEmitter` in most cases.
""")
    found = triples(results)
    assert any(s == "NodeEventTarget" and p.startswith("implement") and o == "EventEmitter" for s, p, o in found)
    assert not any(p == "instanceOf" for _, p, _ in found)


def test_a_term_subject_states_nothing_and_this_is_no_thing(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # events.md: "listener functions can switch ..." is an example, "This ensures" a sentence's claim.
    results = extract(tmp_path, extractor, """# Events

## Asynchronous vs. synchronous

The `EventEmitter` calls all listeners synchronously in the order in which
they were registered. This ensures the proper sequencing of
events and helps avoid race conditions and logic errors. When appropriate,
listener functions can switch to an asynchronous mode of operation using
the `setImmediate()` or `process.nextTick()` methods:
""")
    subjects = {s for s, _, _ in triples(results)}
    assert "listener function" not in subjects
    assert frozenset(("EventEmitter", "proper sequencing")) not in pairs(results)


def test_software_names_are_never_people_or_places(tmp_path: Path, extractor: OfflineExtractor) -> None:
    schema: Schema = resolve_schema("open_domain")
    # narwhals' README lists talks; the NER calls DuckDB and GraphQL people and places.
    results = extract(tmp_path, extractor, """# Narwhals

## Appears on

PyCon DE & PyData 2025 How Narwhals is silently bringing pandas, Polars, DuckDB, PyArrow, and more together.
GraphQL was developed by Facebook in 2012, and DuckDB is developed by the DuckDB Foundation.
""")
    found = classes(results)
    for name in ("DuckDB", "GraphQL"):
        if name in found:
            assert not any(schema.is_a(found[name], c) for c in ("Person", "GeographicLocation")), (name, found[name])


def test_a_class_heading_names_code(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # globals.md: "Class: Blob" without backticks.
    found = classes(extract(tmp_path, extractor, """# Globals

## Class: Blob

A Blob encapsulates immutable, raw data that can be safely shared across
multiple worker threads.
"""))
    assert found.get("Blob") == "CodeElement"


def test_software_schema_predicates(tmp_path: Path) -> None:
    # With the software schema, the mapped predicates are the schema's own names (process.md, modules.md,
    # buffer.md, console.md).
    results = extract(tmp_path, OfflineExtractor(resolve_schema("software")), """# Process

## `process.allowedNodeEnvironmentFlags`

`process.allowedNodeEnvironmentFlags` extends `Set`, but overrides
`Set.prototype.has` to recognize several different possible flag representations.

The `square` module is defined in `square.js`.

The `Buffer` class is a subclass of JavaScript's [`Uint8Array`][] class.

The `console.debug()` function is an alias for [`console.log()`][].
""")
    found = triples(results)
    assert ("process.allowedNodeEnvironmentFlags", "extends", "Set") in found
    assert ("square", "definedIn", "square.js") in found
    assert ("Buffer", "extends", "Uint8Array") in found
    assert ("console.debug()", "aliasOf", "console.log()") in found


def test_a_reference_sentence_without_subject_is_about_its_heading(tmp_path: Path,
                                                                    extractor: OfflineExtractor) -> None:
    # buffer.md: API references open with the verb; a literal (`true`) is no object.
    found = triples(extract(tmp_path, extractor, """# Buffer

## Class: `Blob`

### `blob.stream()`

Returns a new `ReadableStream` that allows the content of the `Blob` to be read.

### `Buffer.isBuffer(obj)`

Returns `true` if `obj` is a `Buffer`, `false` otherwise.
"""))
    assert ("blob.stream()", "returns", "ReadableStream") in found
    assert not any(o in ("true", "false") for _, _, o in found)


def test_roles_generic_abbreviations_and_pointers(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # pip's https-certificates.md (a MyST role before the code) and http.md, net.md.
    names = set(classes(extract(tmp_path, extractor, """# HTTPS Certificates

By default, pip will perform SSL certificate verification for network
connections it makes over HTTPS. This does not use the system certificate
store but, instead, uses a bundled CA certificate store from {pypi}`certifi`.

The header is still mutable using the [`setHeader(name, value)`][],
[`getHeader(name)`][], [`removeHeader(name)`][] API. See [`'end'`][]
event and [RFC 1122][half-closed] (section 4.2.2.13) for more information.
""")))
    assert "certifi" in names
    assert not names & {"API", "section 4.2.2.13", "pypi}certifi", "{pypi}certifi"}


def test_a_defined_term_is_an_entity_with_its_type(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # test.md, "Custom reporters": "A custom reporter is a module ..." (a term, not a name).
    results = extract(tmp_path, extractor, """# Test runner

### Custom reporters

[`--test-reporter`][] can be used to specify a path to custom reporter.
A custom reporter is a module that exports a value
accepted by [stream.compose][]. The reporter should transform
events emitted by a `TestsStream`.
""")
    found = {e.name: e for x in results for e in x.entities}
    assert found["custom reporter"].semantic_type == "module"
    assert found["custom reporter"].spg_class == "Concept"
