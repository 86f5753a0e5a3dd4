"""Code that prose writes without backticks, by shapes only code has (`extract/code_text.py`): scoped names
(`Net::FTP`), calls (`WriteMakefile()`), file names with a capitalised stem (`Makefile.PL`), Unicode code points
(`U+FFFD`), and a manual's quoted constants (`"BDAT"`); and the guards that reading them needed (`term_ends`).

Every sentence is from a page that no labelled technical set draws a passage from (Perl's `version.pod`,
`Encode/PerlIO.pod`, `ExtUtils/MakeMaker/Tutorial.pod`, `Net/SMTP.pm`, `Pod/Usage.pm`, `Test/Builder.pm` and
`Math/Trig.pm`, rendered as `bench/pod_markdown.py` does; Node's `util.md` and `modules.md`), checked by script
against every set's `source` field and text.
"""

from __future__ import annotations

from pathlib import Path

from kgbuild.extract.offline import OfflineExtractor
from tests.test_technical_relations import classes, extract, extractor, triples

__all__ = ["extractor"]  # the fixture, used by name below


def test_scoped_module_names_in_prose_are_code(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # version.pod, "How to declare() a dotted-decimal version": modules linked by L<>, bare in the text.
    found = classes(extract(tmp_path, extractor, """# version

## How to `declare()` a dotted-decimal version

The `declare()` method always creates dotted-decimal version objects.  When
used in a module, you **must** put it on the same line as "use version" to
ensure that $VERSION is read correctly by PAUSE and installer tools.  You
should also add 'version' to the 'configure_requires' section of your
module metadata file.  See instructions in ExtUtils::MakeMaker or
Module::Build for details.
"""))
    assert found.get("ExtUtils::MakeMaker") == "CodeElement"
    assert found.get("Module::Build") == "CodeElement"


def test_scoped_names_make_a_manual_chunk(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # Encode/PerlIO.pod: the classes named bare, beside inline code.
    found = classes(extract(tmp_path, extractor, """# How does it work?

## How can I tell whether my encoding fully supports PerlIO ?

As of this writing, any encoding whose class belongs to Encode::XS and
Encode::Unicode works.  The Encode module has a `perlio_ok` method
which you can use before applying PerlIO encoding to the filehandle.
"""))
    assert found.get("Encode::XS") == "CodeElement"
    assert found.get("Encode::Unicode") == "CodeElement"


def test_a_file_with_a_capitalised_stem(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # ExtUtils/MakeMaker/Tutorial.pod, under the list of a module's files.
    results = extract(tmp_path, extractor, """# ExtUtils::MakeMaker::Tutorial

## DESCRIPTION

When you run Makefile.PL, it makes a Makefile.  That's the whole point of
MakeMaker.  The Makefile.PL is a simple program which loads
ExtUtils::MakeMaker and runs the WriteMakefile() function to generate a
Makefile.
""")
    found = classes(results)
    assert found.get("Makefile.PL") == "CodeElement"
    assert "PL" not in found and "Makefile" not in {k for k, v in found.items() if v == "Organization"}
    assert found.get("ExtUtils::MakeMaker") == "CodeElement"
    assert found.get("WriteMakefile()") == "CodeElement"  # a call written bare
    assert ("Makefile.PL", "load", "ExtUtils::MakeMaker") in triples(results)


def test_a_code_point_is_code(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # util.md, `util.toUSVString(string)`.
    found = classes(extract(tmp_path, extractor, """# Util

## `util.toUSVString(string)`

Returns the `string` after replacing any surrogate code points
(or equivalently, any unpaired surrogate code units) with the
Unicode "replacement character" U+FFFD.
"""))
    assert found.get("U+FFFD") == "CodeElement"


def test_a_quoted_constant_in_a_manual_is_code(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # Net/SMTP.pm, under `bdat`: a command the reader sends, quoted; never a work's title.
    found = classes(extract(tmp_path, extractor, """# Net::SMTP

## Methods

Use the alternate `$data` command "BDAT" of the data chunking service extension
defined in RFC1830 for efficiently sending large MIME messages.
"""))
    assert found.get("BDAT") == "CodeElement"


def test_quoted_section_names_are_terms(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # Pod/Usage.pm, EXAMPLES: quoted capitals before "sections" name parts of a page, not code and not works.
    found = classes(extract(tmp_path, extractor, """# Pod::Usage

## EXAMPLES

Each of the following invocations of `pod2usage()` will print the
"SYNOPSIS" section and any "OPTIONS" and/or "ARGUMENTS" sections to
`STDOUT` and will exit with a status of 1:
"""))
    assert found.get("SYNOPSIS") == "Concept"
    assert found.get("ARGUMENTS") == "Concept"


def test_the_class_singleton_is_no_kind_of_the_class(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # Test/Builder.pm, `reset`: once the bare scoped name is code, "the Test::Builder singleton" reads as code before
    # a noun; a singleton is the class's one instance, not a kind the class is one of (fails without the guard).
    found = triples(extract(tmp_path, extractor, """# Test::Builder

## Construction

Reinitializes the Test::Builder singleton to its original state.
Mostly useful for tests run in persistent environments where the same
test might be run multiple times in the same process.
"""))
    assert ("Test::Builder", "isA", "singleton") not in found


def test_a_verb_after_code_before_many(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # Math/Trig.pm, DESCRIPTION: "defines" before "many" is the code's verb, not a kind ("define").
    results = extract(tmp_path, extractor, """# Math::Trig

## DESCRIPTION

`Math::Trig` defines many trigonometric functions not defined by the
core Perl which defines only the `sin()` and `cos()`.  The constant
**pi** is also defined as are a few convenience functions for angle
conversions, and *great circle formulas* for spherical movement.
""")
    assert not any(p == "isA" for s, p, o in triples(results) if s == "Math::Trig")


def test_a_path_in_backticks_is_code_and_a_folder_no_kind(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # modules.md, "Package manager tips": a path is an identifier now; "folder" is a kind of code structure, as
    # "directory" is, so the path before it is that folder (no isA).
    results = extract(tmp_path, extractor, """# Modules

## Package manager tips

In order to make modules available to the Node.js REPL, it might be useful to
also add the `/usr/lib/node_modules` folder to the `$NODE_PATH` environment
variable. Since the module lookups using `node_modules` folders are all
relative, and based on the real path of the files making the calls to
`require()`, the packages themselves can be anywhere.
""")
    assert classes(results).get("/usr/lib/node_modules") == "CodeElement"
    assert ("/usr/lib/node_modules", "isA", "folder") not in triples(results)
