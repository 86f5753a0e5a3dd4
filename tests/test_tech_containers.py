"""Code placed in what holds it by a preposition, and an option on its command's page (`extract/tech_containers.py`).

Every sentence is from a page that no labelled technical set draws a passage from (Node.js's `addons.md`,
`https.md`, `errors.md`, `querystring.md` and `deprecations.md`; CMake's `include_directories` page; Pygments'
`plugin.py` docstring; Perl's `HTTP/Tiny.pm` and `Exporter.pm`), checked by script against every set's `source`
field and text.
"""

from __future__ import annotations

from pathlib import Path

from kgbuild.extract.offline import OfflineExtractor
from tests.test_technical_relations import extract, extractor, triples

__all__ = ["extractor"]  # the fixture, used by name below


def test_code_in_a_term_for_what_holds_it(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # addons.md, "Native abstractions for Node.js": a folder in the source tree.
    found = triples(extract(tmp_path, extractor, """# C++ addons

## Other libraries

Node.js includes other statically linked libraries such as OpenSSL. These
other libraries are located in the `deps/` directory in the Node.js source
tree. Only the libuv, OpenSSL, V8, and zlib symbols are purposefully
re-exported by Node.js.
"""))
    assert ("deps/", "partOf", "Node.js source tree") in found


def test_code_in_code_after_a_verb(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # https.md, under a method of `https.Server`: the method of the same name in another module.
    found = triples(extract(tmp_path, extractor, """# HTTPS

## Class: `https.Server`

### `server.close([callback])`

See `server.close()` in the `node:http` module.
"""))
    assert ("server.close()", "partOf", "node:http") in found


def test_a_relative_clause_places_the_code(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # Pygments' plugin interface: "which is in" the standard library (since a version: when, not where).
    found = triples(extract(tmp_path, extractor, """# pygments.plugin

Pygments plugin interface. By default, this tries to use
``importlib.metadata``, which is in the Python standard
library since Python 3.8, or its ``importlib_metadata``
backport for earlier versions of Python.
"""))
    assert ("importlib.metadata", "partOf", "standard library") in found
    assert not any(o.startswith("Python 3") for s, p, o in found if p == "partOf")


def test_a_platform_is_not_a_container(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # deprecations.md, DEP0121: modules used "on Windows" run there, they are no part of it.
    found = triples(extract(tmp_path, extractor, """# Deprecated APIs

## DEP0121: `net._setSimultaneousAccepts()`

The undocumented `net._setSimultaneousAccepts()` function was originally
intended for debugging and performance tuning when using the
`node:child_process` and `node:cluster` modules on Windows. The function is not
generally useful and is being removed.
"""))
    assert not any(p == "partOf" and o == "Windows" for s, p, o in found)


def test_an_option_on_its_commands_page(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # CMake's include_directories page and Node's errors.md: an option or argument no other code in the
    # sentence owns is the page's.
    found = triples(extract(tmp_path, extractor, """# include_directories

If the ``SYSTEM`` option is given, the compiler will be told the
directories are meant as system include directories on some platforms.
"""))
    assert ("SYSTEM", "partOf", "include_directories") in found
    found = triples(extract(tmp_path, extractor, """# Errors

## `Error.captureStackTrace(targetObject[, constructorOpt])`

The optional `constructorOpt` argument accepts a function. If given, all frames
above `constructorOpt`, including `constructorOpt`, will be omitted from the
generated stack trace.
"""))
    assert ("constructorOpt", "partOf", "Error.captureStackTrace()") in found



def test_code_specified_in_code_after_the_verb(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # HTTP/Tiny.pm (Perl), under `request`: the parser hangs "in" on "specify"; what is specified in an option is
    # placed in it.
    found = triples(extract(tmp_path, extractor, """# HTTP::Tiny

## request

The `Host` header is generated from the URL in accordance with RFC 2616.  It
is a fatal error to specify `Host` in the `headers` option.  Other headers
may be ignored or overwritten if necessary for transport compliance.
"""))
    assert ("Host", "partOf", "headers") in found


def test_code_before_block_is_that_code(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # Exporter.pm (Perl), "AUTOLOADed Constants": a block is a structure of code, as a statement is; no isA.
    found = triples(extract(tmp_path, extractor, """# Exporter

## `AUTOLOAD`ed Constants

A workaround for this is to call the constants once in a `BEGIN` block:
"""))
    assert ("BEGIN", "isA", "block") not in found
