"""Common nouns as the ends of a manual's relations (issue 31, `extract/term_ends.py`).

Each passage is real documentation installed on the development machine (the Node.js API manual,
/usr/share/doc/nodejs/api; npm's manual and the READMEs of its packages, /usr/lib/node_modules/npm), in none of
the labelled sets, read end to end: Markdown reader, chunker, offline extractor with the shipped open-domain
schema. Before `term_ends` no triple here had a one-word common noun as an end, and code before a noun named
nothing; before `stated_between_terms` no term subject related to another term.
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
from kgbuild.schema import resolve_schema


@pytest.fixture(scope="module")
def extractor() -> Iterator[OfflineExtractor]:
    yield OfflineExtractor(resolve_schema("open_domain"))


def triples(tmp_path: Path, extractor: OfflineExtractor, text: str) -> set[tuple[str, str, str]]:
    path = tmp_path / "manual.md"
    path.write_text(text, encoding="utf-8")
    [doc] = list(read_sources([path]))
    assert isinstance(doc, Document)
    results: list[ChunkExtraction] = extractor.extract(
        Chunker(ChunkingConfig(max_tokens=256, min_tokens=0)).chunk(doc).chunks)
    return {(r.subject.name, r.predicate, r.object.name) for x in results for r in x.relations}


def test_a_bare_plural_object_of_a_verb_of_software(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # path.md and querystring.md: the module provides utilities (a class of things, one word).
    found = triples(tmp_path, extractor, """# Path

The `node:path` module provides utilities for working with file and directory
paths. It can be accessed using:

```cjs
const path = require('node:path');
```
""")
    assert ("node:path", "provides", "utility") in found, found
    found = triples(tmp_path, extractor, """# Query string

The `node:querystring` module provides utilities for parsing and formatting URL
query strings. It can be accessed using:
""")
    assert ("node:querystring", "provides", "utility") in found, found


def test_a_one_word_noun_that_is_no_term(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # n-api.md: "methods" and "facilities" name nothing in particular; buffer.md: "the first argument" and
    # "the type" are things the text has in mind, with a determiner, not classes of things.
    found = triples(tmp_path, extractor, """# Node-API

## Object lifetime management

Node-API provides methods for creating persistent references to values.

## Promises

Node-API provides facilities for creating `Promise` objects as described in
the specification.
""")
    assert not any(o in ("method", "facility") for _, _, o in found), found


def test_code_before_a_noun_names_its_kind(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # os.md, `os.homedir()`: the `USERPROFILE` environment variable is an environment variable.
    found = triples(tmp_path, extractor, """# OS

## `os.homedir()`

Returns the string path of the current user's home directory.

On POSIX, it uses the `$HOME` environment variable if defined. Otherwise it
uses the effective UID to look up the user's home directory.

On Windows, it uses the `USERPROFILE` environment variable if defined.
Otherwise it uses the path to the profile directory of the current user.
""")
    assert ("USERPROFILE", "isA", "environment variable") in found, found
    assert ("$HOME", "isA", "environment variable") in found, found
    # ... and what the function uses is the variable, not "variable on Windows" folded into a predicate.
    assert ("os.homedir()", "uses", "USERPROFILE") in found, found
    assert not any(o in ("Windows", "POSIX") for _, _, o in found), found


def test_code_before_what_it_does_or_its_own_kind_names_nothing(tmp_path: Path,
                                                               extractor: OfflineExtractor) -> None:
    # buffer.md: "`Buffer` initialization" is something done to a Buffer, not a kind of which it is one;
    # child_process.md: "the `shell` option" is the option itself (a kind of code structure).
    found = triples(tmp_path, extractor, """# Buffer

## `Buffer.from()`, `Buffer.alloc()`, and `Buffer.allocUnsafe()`

Because the behavior of `new Buffer()` is different depending on the type of the
first argument, security and reliability issues can be inadvertently introduced
into applications when argument validation or `Buffer` initialization is not
performed.
""")
    assert not any(p == "isA" for _, p, _ in found), found
    found = triples(tmp_path, extractor, """# Child process

## Spawning `.bat` and `.cmd` files on Windows

When running on Windows, `.bat` and `.cmd` files can be invoked using
`child_process.spawn()` with the `shell` option set.
""")
    assert not any(p == "isA" and s == "shell" for s, p, _ in found), found


def test_code_before_a_relational_noun_is_what_the_noun_is_relative_to(tmp_path: Path,
                                                                       extractor: OfflineExtractor) -> None:
    # http.md, `agent.keepSocketAlive(socket)`: a subclass of `Agent`, not an `Agent` that is a subclass.
    found = triples(tmp_path, extractor, """# HTTP

## Class: `http.Agent`

### `agent.keepSocketAlive(socket)`

Called when `socket` is detached from a request and could be persisted by the
`Agent`. Default behavior is to:

```js
socket.setKeepAlive(true, this.keepAliveMsecs);
```

This method can be overridden by a particular `Agent` subclass. If this
method returns a falsy value, the socket will be destroyed instead of persisting
it for use with the next request.
""")
    assert not any(s == "Agent" and p == "isA" for s, p, _ in found), found


def test_a_term_object_stays_with_a_preposition_of_circumstance(tmp_path: Path,
                                                                extractor: OfflineExtractor) -> None:
    # querystring.md: "performs URL percent-encoding on the given `str`": the encoding is what the method
    # performs; `str` is what it is performed on (before, the named thing of the preposition replaced the term:
    # (querystring.escape(), perform encoding on, str)).
    found = triples(tmp_path, extractor, """# Query string

## `querystring.escape(str)`

* `str` {string}

The `querystring.escape()` method performs URL percent-encoding on the given
`str` in a manner that is optimized for the specific requirements of URL
query strings.
""")
    assert ("querystring.escape()", "perform", "URL percent-encoding") in found, found


def test_code_listed_in_parentheses_after_a_plural_is_an_instance(tmp_path: Path,
                                                                  extractor: OfflineExtractor) -> None:
    # packages.md, syntax detection: the CommonJS wrapper variables are listed in parentheses; the
    # parenthesis after "`import` statements" is an aside with words of its own, no list of statements.
    found = triples(tmp_path, extractor, """# Modules: Packages

## Syntax detection

ES module syntax is defined as syntax that would throw when evaluated as
CommonJS. This includes the following:

* `import` statements (but _not_ `import()` expressions, which are valid in
  CommonJS).
* `export` statements.
* `import.meta` references.
* `await` at the top level of a module.
* Lexical redeclarations of the CommonJS wrapper variables (`require`, `module`,
  `exports`, `__dirname`, `__filename`).
""")
    for name in ("require", "module", "exports", "__dirname", "__filename"):
        assert (name, "isA", "CommonJS wrapper variable") in found, found
    assert not any(s == "import()" and o == "statement" for s, _, o in found), found


def test_a_term_states_what_it_does_to_another_term(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # socks' docs/examples/typescript/associateExample.md and npm's using-npm/registry.md: a term of two words
    # as the subject of a main or relative clause whose object is another term.
    found = triples(tmp_path, extractor, """# socks examples

## Example for SOCKS 'associate' command

The associate command tells the SOCKS proxy server to establish a UDP relay. The server binds to a new UDP \
port and communicates the newly opened port back to the origin client.
""")
    assert ("associate command", "tell", "SOCKS proxy server") in found, found
    found = triples(tmp_path, extractor, """# Registry

### Description

To resolve packages by name and version, npm talks to a registry website that implements the CommonJS Package \
Registry specification for reading package info.
""")
    assert ("registry website", "implements", "CommonJS Package Registry specification") in found, found


def test_a_term_clause_of_possibility_or_condition_states_nothing(tmp_path: Path,
                                                                   extractor: OfflineExtractor) -> None:
    # tls.md ('resumeSession') and test.md: what a listener "should" do and what holds "If the test function
    # receives a callback function" are no facts about the terms (without "should" and "If", the same
    # sentences do make (event listener, perform for, sessionData) and (test function, receive, callback
    # function)).
    found = triples(tmp_path, extractor, """# TLS (SSL)

## Class: `tls.Server`

### Event: `'resumeSession'`

The event listener should perform a lookup in external storage for the
`sessionData` saved by the `'newSession'` event handler using the given
`sessionId`.
""")
    assert not any(s == "event listener" for s, _, _ in found), found
    found = triples(tmp_path, extractor, """# Test runner

## Callback-style tests

If the test function receives a callback function and
also returns a `Promise`, the test will fail.
""")
    assert not any(s == "test function" for s, _, _ in found), found


def test_a_circumstance_before_the_verb_is_no_object_of_a_term(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # assert.md, strict assertion mode: "In strict assertion mode" says when the terms do what they do; it is
    # no object of "behave" or "display" (the rule took it as one before its guard: (non-strict method, behave
    # in, strict assertion mode), (error message, display in, strict assertion mode)).
    found = triples(tmp_path, extractor, """# Assert

## Strict assertion mode

In strict assertion mode, non-strict methods behave like their corresponding
strict methods. For example, [`assert.deepEqual()`][] will behave like
[`assert.deepStrictEqual()`][].

In strict assertion mode, error messages for objects display a diff. In legacy
assertion mode, error messages for objects display the objects, often truncated.
""")
    assert not any(o.endswith("assertion mode") for _, _, o in found), found


def test_a_terms_doing_in_the_passive(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # Written in the style of a package's README: the "by" of the last of several passive participles is the doer
    # of each, and a term as the doer of code's passive is what "The continuous integration service builds ..."
    # would say; before, the term doer of a passive was dropped and the first participles had no doer.
    found = triples(tmp_path, extractor, """# gdbm

The `gdbm` module is built and tested by the continuous integration service.
""")
    assert ("continuous integration service", "build", "gdbm") in found, found
    found = triples(tmp_path, extractor, """# libfoo

`libfoo` is maintained, tested and packaged by the Debian Python team.
""")
    assert ("libfoo", "developedBy", "Debian Python team") in found, found


def test_a_passive_with_a_modal_is_no_terms_doing(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # Written in the style of a manual: "may be called by" is what can happen, not what the term does.
    found = triples(tmp_path, extractor, """# Watch

The `fs.watchFile()` callback may be called by the file system watcher.
""")
    assert not any(s == "file system watcher" for s, _, _ in found), found


def test_a_defining_clause_between_two_terms(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # test.md ("Custom reporters") and stream.md ("Class: stream.Duplex"): "a/an X is a/an Y", "Xs are Ys" class a
    # term under another; both ends are terms only through this triple (`term_ends.defined_between_terms`).
    found = triples(tmp_path, extractor, """# Custom reporters

[`--test-reporter`][] can be used to specify a path to custom reporter.
A custom reporter is a module that exports a value
accepted by [stream.compose][].
Reporters should transform events emitted by a {TestsStream}
""")
    assert ("custom reporter", "isA", "module") in found, found
    found = triples(tmp_path, extractor, """# Duplex and transform streams

### Class: `stream.Duplex`

Duplex streams are streams that implement both the [`Readable`][] and
[`Writable`][] interfaces.
""")
    assert ("Duplex stream", "isA", "stream") in found, found


def test_a_copula_noun_relative_to_another_is_no_kind(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # stream.md ("Writable streams"): "an abstraction for a destination" says what the streams stand for, not a
    # class they belong to.
    found = triples(tmp_path, extractor, """# Writable streams

Writable streams are an abstraction for a _destination_ to which data is
written.

Examples of [`Writable`][] streams include:
""")
    assert not any(s == "Writable stream" for s, _, _ in found), found


def test_a_plural_with_a_singular_verb_is_a_name(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # requests' README (site-packages; its first paragraph, in no set): "Requests is" names the library, so it is
    # no class of requests defined as an HTTP library.
    found = triples(tmp_path, extractor, """# Requests

Requests is a simple, yet elegant, HTTP library.

```python
>>> import requests
>>> r = requests.get('https://httpbin.org/basic-auth/user/pass', auth=('user', 'pass'))
```
""")
    assert ("request", "isA", "HTTP library") not in found, found
