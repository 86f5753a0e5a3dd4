"""A reference manual's pages titled by their code (issue 31, second round on the CMake manual).

Each passage is real documentation installed on the development machine (CMake's manual, /usr/share/cmake-3.25/Help),
from pages that no labelled set takes a passage from (checked by script against every set's text), read end to end:
Markdown reader, chunker, offline extractor with the shipped open-domain schema. Each test failed on the code before
the rule its docstring names; the guards held before and hold after.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from test_technical_relations import extract, triples

from kgbuild.extract.code_text import section_topic
from kgbuild.extract.offline import OfflineExtractor
from kgbuild.schema import resolve_schema


@pytest.fixture(scope="module")
def extractor() -> Iterator[OfflineExtractor]:
    yield OfflineExtractor(resolve_schema("open_domain"))


def test_headings_that_only_a_title_shows_to_be_code() -> None:
    # A placeholder in angle brackets and a numbered identifier in capitals are code as a page's title; a word in
    # capitals, a protocol's name with its version are not.
    assert section_topic(["CMAKE_<LANG>_LINKER_WRAPPER_FLAG"]) == "CMAKE_<LANG>_LINKER_WRAPPER_FLAG"
    assert section_topic(["CMP0055"]) == "CMP0055"
    for heading in ("VERSION", "HTTP2", "Installation", "Kate"):
        assert section_topic([heading]) is None, heading


def test_a_policy_page_speaks_of_this_policy_and_a_versioned_release(tmp_path: Path,
                                                                      extractor: OfflineExtractor) -> None:
    # policy/CMP0055.rst: "This policy" is the page's policy, "CMake version 3.2" one release (the NER cut "CMake").
    results = extract(tmp_path, extractor, """# CMP0055

Strict checking for the :command:`break` command.

CMake 3.1 and lower allowed calls to the :command:`break` command
outside of a loop context and also ignored any given arguments.
This was undefined behavior.

This policy was introduced in CMake version 3.2.
CMake version |release| warns when the policy is not set and uses
``OLD`` behavior.  Use the :command:`cmake_policy` command to set it to ``OLD`` or
``NEW`` explicitly.
""")
    found = triples(results)
    assert ("CMP0055", "introduce in", "CMake version 3.2") in found, found
    names = {e.name for x in results for e in x.entities}
    assert "CMake version 3.2" in names, names


def test_on_a_policy_page_this_command_is_not_the_policy(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # policy/CMP0030.rst, its second paragraph: a numbered rule's page speaks of the command the rule is about;
    # "This command" is never the policy (with any kind noun standing for the page's code, this made (CMP0030,
    # supports, VTK)).
    found = triples(extract(tmp_path, extractor, """# CMP0030

This command was created in September 2001 to support VTK before
modern CMake language and custom command capabilities.  VTK has
not used it in years.
"""))
    assert not any("CMP0030" in (s, o) for s, _, o in found), found


def test_a_variable_page_with_a_placeholder_in_its_title(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # variable/CMAKE_LANG_LINKER_WRAPPER_FLAG.rst: "It" is the page's variable.
    found = triples(extract(tmp_path, extractor, """# CMAKE_<LANG>_LINKER_WRAPPER_FLAG

Defines the syntax of compiler driver option to pass options to the linker
tool. It will be used to translate the ``LINKER:`` prefix in the link options
(see :command:`add_link_options` and :command:`target_link_options`).
"""))
    assert ("CMAKE_<LANG>_LINKER_WRAPPER_FLAG", "translate", "LINKER:") in found, found


def test_code_before_a_content_noun_is_what_the_content_is_of(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # manual/cmake-buildsystem.7.rst, "Object Libraries": the `OBJECT` library's content, not a kind `OBJECT` is.
    found = triples(extract(tmp_path, extractor, """# Object Libraries

The ``OBJECT`` library type defines a non-archival collection of object files
resulting from compiling the given source files.  The object files collection
may be used as source inputs to other targets by using the syntax
``$<TARGET_OBJECTS:name>``.  This is a
:manual:`generator expression <cmake-generator-expressions(7)>` that can be
used to supply the ``OBJECT`` library content to other targets:
"""))
    assert ("OBJECT", "isA", "library content") not in found, found
    assert ("OBJECT", "define", "non-archival collection") in found, found


def test_names_with_placeholders_are_code(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # variable/CMAKE_INTERPROCEDURAL_OPTIMIZATION_CONFIG.rst: the page's variable and the property it initialises
    # are each a name for every configuration; before, inline code with `<CONFIG>` in it made no entity.
    results = extract(tmp_path, extractor, """# CMAKE_INTERPROCEDURAL_OPTIMIZATION_<CONFIG>

Default value for :prop_tgt:`INTERPROCEDURAL_OPTIMIZATION_<CONFIG>` of targets.

This variable is used to initialize the :prop_tgt:`INTERPROCEDURAL_OPTIMIZATION_<CONFIG>`
property on all the targets.  See that target property for additional
information.
""")
    found = triples(results)
    assert ("CMAKE_INTERPROCEDURAL_OPTIMIZATION_<CONFIG>", "initialize",
            "INTERPROCEDURAL_OPTIMIZATION_<CONFIG>") in found, found
    # release/3.14.rst: a family of variables written with a "*" after an underscore.
    results = extract(tmp_path, extractor, """# Changes made since CMake 3.14.0

* The :module:`FindFontconfig` module added by 3.14.0 accidentally
  used uppercase ``FONTCONFIG_*`` variable names that do not match
  our conventions.  3.14.1 revises the module to use ``Fontconfig_*``
  variable names.
""")
    names = {e.name for x in results for e in x.entities}
    assert "Fontconfig_*" in names, names


def test_a_placeholder_before_a_noun_names_no_kind(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # command/target_include_directories.rst: "the same `<target>`" is a value; "append" is the verb the parser
    # read as a noun. Once placeholders were code this made (<target>, isA, append item).
    found = triples(extract(tmp_path, extractor, """# target_include_directories

``PRIVATE`` and ``PUBLIC`` items will populate the :prop_tgt:`INCLUDE_DIRECTORIES`
property of ``<target>``. ``PUBLIC`` and ``INTERFACE`` items will populate the
:prop_tgt:`INTERFACE_INCLUDE_DIRECTORIES` property of ``<target>``.
The following arguments specify include directories.

Repeated calls for the same ``<target>`` append items in the order called.
"""))
    assert not any(s == "<target>" and p == "isA" for s, p, _ in found), found


def test_it_after_a_when_clause_is_that_clauses_subject(tmp_path: Path, extractor: OfflineExtractor) -> None:
    # manual/OPTIONS_BUILD.txt (cmake(1)'s options): "it" is CMake, the subject of the "When" clause before it.
    found = triples(extract(tmp_path, extractor, """# cmake(1)

## Options

When CMake is first run in an empty build tree, it creates a
``CMakeCache.txt`` file and populates it with customizable settings for
the project.
"""))
    assert ("CMake", "creates", "CMakeCache.txt") in found, found
