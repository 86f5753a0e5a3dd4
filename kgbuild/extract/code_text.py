"""Code and structure in technical text, for the offline extractor: what is code is not English.

Readers keep code marked (`kgbuild.ingest.readers.markdown`: fenced blocks, backticked spans). Before
parsing, `mask_code` drops code blocks from the text the parser reads and unmarks inline code,
remembering where it was; `parse_masked` makes each inline code span one token, so
`socket.setTimeout(timeout[, callback])` is one word of the sentence and not eleven, and tags it a
proper noun for the rules (a name, as far as grammar goes). Code that prose writes without backticks but only code
is shaped like (a scoped name `Net::FTP`, a call `qv()`, a code point `U+005A`; a file `Makefile.PL` or a path
`~/lib/perl5`, an editor's command after a colon `:bwipe`) is marked the same way: Perl's POD, for one, links
modules as bare names. In a manual's chunk, what the text quotes for the reader to type or set (Vim's 'hlsearch',
a key "n") is code too (`quoted_code`). After the rules,
`technical_pass` retypes and prunes what they found:

- a mention that is inline code, or shaped like code (`net.Socket`, `setIntercept`, `nh_saddr`,
  `--cert`, `f()`), is of the schema's code class (or left out, with `code_entities=False`) and
  never a person, organisation or place; a call is named without its arguments (`socket.end()`);
- a mention that only repeats a heading of its chunk, used by no fact, is left out: a heading is
  the document's structure (the chunk's section), not an entity by itself;
- in a technical chunk (one holding code, or under a heading that is code or numbered), the NER's
  person and organisation labels are trusted only for names that are not plain English words
  ("Socket Buffer", "Precedence Constraint", "CPU", "Avoid" are terms or words, not bodies or
  people): those become concepts, or are left out when nothing uses them.

`section_topic` names what a technical section is about when its heading is code ("Class:
`net.Server`" -> `net.Server`): the extractor passes it as the chunk's document topic, so "It"
and "This method" in the section resolve to it instead of being dropped as unresolved.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kgbuild.extract.facts import PROPN, Facts, Mention, Triple, used_mentions
from kgbuild.extract.software_names import heading_names, software_by_context
from kgbuild.extract.terms import join_acronyms, term_head

if TYPE_CHECKING:
    from spacy.tokens import Doc

_FENCED_BLOCK = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})[^\n]*\n.*?(?:^[ \t]{0,3}\1[ \t]*$|\Z)", re.MULTILINE | re.DOTALL)
# A file named in prose without backticks ("the README.md file", "documented in aliased_buffer.h", "updating
# libproc.so"): code as much as "`setup.py`" is, by its extension. Lower-case stems or capitals only ("README.md",
# not "Node.js", a program's name), the common extensions of source, build, library and documentation files.
# A capitalised stem ("Makefile.PL", "Build.PL", "CMakeLists.txt", "Config.pm") only before an extension that no
# program's name ends in (not ".js" or ".ts": "Node.js", "Vue.js"). Perl's files too: modules, scripts, POD, XS.
_BARE_FILE = re.compile(
    r"(?<![\w`/.@:-])((?:[a-z_][\w-]*|[A-Z][A-Z_]+)(?:\.[\w-]+)*\.(?:md|py|js|mjs|cjs|ts|c|h|cc|cpp|hpp|so|txt|"
    r"json|ya?ml|toml|cfg|ini|sh|rst|html?|css|xml|gyp|gypi|lock|pl|PL|pm|pod|xs|rb|rs|java|php)"
    r"|[A-Z][A-Za-z0-9_-]*(?:\.[\w-]+)*\.(?:md|py|c|h|cc|cpp|hpp|txt|json|ya?ml|toml|cfg|ini|sh|rst|xml|pl|PL|pm|"
    r"pod|xs|rb|rs|java|php)"
    # A path from the root or the home folder ("/usr/share/perl", "~/lib/perl5"), not "and/or" or a URL's.
    r"|~?/[\w.+-]+(?:/[\w.+-]+)+/?|~/[\w.+-]+/?)(?![\w`/@-]|\.\w)")
# A name scoped by "::" in prose without backticks ("the module Win32::Locale", "Net::FTP uses IO::Socket", "a
# `std::vector`" written bare, Ruby's "ActiveRecord::Base"), with a method after "->" or "::" and a call's empty
# parentheses: code by its separator, which no English word has (Perl's POD links modules as bare names). Not a
# hexadecimal address ("fe80::1": a segment opens with a letter) nor a label before "::" alone.
_BARE_SCOPED = re.compile(
    r"(?<![\w`/.@:$%&*-])([A-Za-z_]\w*(?:::[A-Za-z_]\w*)+(?:->[A-Za-z_]\w*)?(?:\(\))?)(?![\w`:]|\.\w|->)")
# A call with empty parentheses written bare ("initializers to qv()", "runs the WriteMakefile() function",
# "call os.getcwd() first"): a function named as code names it. Not after "::" or "->" (the scoped name's) and not
# with arguments ("item(s)", "(see below)" are English).
_BARE_CALL = re.compile(r"(?<![\w`.:$@>/-])([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*\(\))(?![\w`(])")
# A Unicode code point ("U+005A", "U+1F600"): a character's code, not a name of anyone.
_CODE_POINT = re.compile(r"(?<![\w`+-])(U\+[0-9A-F]{4,6})(?![\w+-])")
# An editor's or pager's command typed after a colon ("wiped out with :bwipe", "the :tearoff command", less's
# ":n"): a colon before a word, after a space, is no English punctuation (a colon follows a word). Not a time
# ("10:30"), a drive or URL ("C:", "http:"), an emoji's or role's ":name:", nor code run on ("<Tab>:w"); two
# letters at least, as an emoticon (":p", ":o") has one (a one-letter command is code in backticks: `:w`).
_EX_COMMAND = re.compile(r"(?<=[\s(\[])(:[a-z][a-zA-Z]+!?)(?![\w:(`-])")
# What a manual quotes for the reader to type or set, in a manual's chunk only (`quoted_code`): an option in single
# quotes ("set the 'termencoding' option", "'hlsearch'"), and in double quotes a key or command that no English word
# is shaped like: one character ("n", "d"), letters with a digit or underscore ("4l", "_u", "write_"). A plain
# word in quotes ("exclusive", "latest") is the word, a term.
_SINGLE_QUOTED = re.compile(r"(?<![\w'`])'([a-z][a-z0-9_]*)'(?![\w'])")
_DOUBLE_QUOTED = re.compile(r"(?<![\w\"`])[\"\u201c]([^\s\"\u201c\u201d]{1,40})[\"\u201d](?![\w\"])")
_PLAIN_WORD = re.compile(r"^[A-Za-z][a-z]+(?:[-'][a-z]+)*$|^[A-Z]+$|^[aAI]$")  # "a" and "I" are words too
# An ending written right after code that makes a word of it: "`Buffer`s", "`OR`ing", "`require`d".
_PLURAL_AFTER_CODE = re.compile(r"(?:e?s|ing|e?d)\b")
_CODE_SPAN = re.compile(r"(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.DOTALL)
# Shapes no English name has: a dotted path, a call, lowerCamel, snake_case, an option, a scope.
_CODE_SHAPE = re.compile(
    r"^(?:[A-Za-z_$][\w$]*(?:(?:\.|::|->)[A-Za-z_$][\w$]*)+(?:\(.*\))?"  # net.Socket, a::b, p->q
    r"|[A-Za-z_$][\w.$]*\(.*\)"  # f(), setTimeout(ms)
    r"|[a-z]+[a-z0-9]*[A-Z][A-Za-z0-9]*"  # setIntercept, eventEmitter
    r"|_*[A-Za-z0-9]+(?:_[A-Za-z0-9]+)+_*|__\w+__"  # nh_saddr, MAX_LEN, __init__
    r"|--?[a-z][\w-]*"  # --cert, -v
    r")$"
)
# UpperCamel with two humps (`ColorScheme`, `EventEmitter`) is code in a technical chunk; in prose at
# large it is also a name (`McDonald`, `YouTube`), so it counts only there.
_UPPER_CAMEL = re.compile(r"^(?!Mc|Mac|De|La|Le|Van|Von|Di|Du|O')[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+$")
# A single word with a capital after a small letter or digits after letters: "DuckDB", "MacOS",
# "GraphQL", "urllib3", "flake8", "v2.14.3" (names of software and versions, not of people or places).
_SOFTWARE_SHAPE = re.compile(r"^(?:[A-Za-z]*[a-z][A-Z][A-Za-z0-9.+-]*|[A-Za-z][A-Za-z.-]*\d[\w.-]*)$")
_SOFTWARE_ANYWHERE = re.compile(r"^(?:[A-Z]?[a-z]{2,}[A-Z][A-Za-z0-9.+-]*|[A-Za-z]+[a-z]\d+|[A-Z]{2,}[a-z]+)$")
_PERSON_PLACE_LABELS = frozenset({"PERSON", "GPE", "LOC", "FAC", "NORP"})
# A reStructuredText hyperlink, `create an issue <https://...>`_ (or __ for an anonymous one): not code.
_REST_LINK = re.compile(r"`([^`<>\n]+?)\s*<[^`<>\s]+>`__?(?![\w`])")
# reST references without a target in the text: `Stackless`_ (a phrase), asyncio_ (a word), |examples|_ (a
# linked substitution) are the words they link, prose; a bare substitution |GitHub-Status| is a badge image.
_REST_NAMED = re.compile(r"(?<!`)`([^`<>\n]+)`__?(?![\w`])")
_REST_WORD = re.compile(r"(?<![\w`|])([A-Za-z][A-Za-z0-9.-]*[A-Za-z0-9])__?(?![\w`])")
_EMPHASIS_OPEN = re.compile(r"(?<![\w`])_[A-Za-z]")
_REST_SUBSTITUTION = re.compile(r"(?<![\w|])\|([A-Za-z][\w .-]*)\|(__?)?(?![\w|])")
# A MyST/Sphinx role before its backticked content: "{pypi}`certifi`", ":func:`len`". Not a braced name that is
# itself inside backticks ("`{digits}`", Vim's and many manuals' placeholder for an argument): that is the code.
_ROLE = re.compile(r"(?<![\w}`])\{[A-Za-z][\w:.+-]*\}(?=`)|(?<![\w`]):[A-Za-z][\w:.+-]*:(?=`)")
_CALL_ARGS = re.compile(r"\(.*\)$", re.DOTALL)
_NUMBERED_HEADING = re.compile(r"^\s*(?:(?:chapter|part|appendix|section)\s+\w+|\d+(?:\.\d+)+)\b", re.IGNORECASE)
_HEADING_LABEL = re.compile(r"^\s*(?:class|event|method|property|function|module|interface|static method"
                            r"|constructor|type|enum|option|command)\s*:\s*", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z]+")
# `Doc.user_data` key of the token indices that are inline code (set by the extractor after parsing).
CODE_TOKENS = "kgbuild_code_tokens"
# `Doc.user_data` key set when the chunk is technical (`is_technical`): the rules read "it" as a manual uses it.
TECHNICAL_CHUNK = "kgbuild_technical"
PART_OF = "partOf"  # the predicate of a structural fact: a method section inside its class's section
# Nouns for what a piece of code is: "the `node:net` module", "a `Worker` object" stand for the code.
CODE_KINDS = frozenset({
    "module", "class", "object", "event", "method", "function", "property", "option", "field", "argument",
    "parameter", "variable", "constant", "instance", "interface", "type", "header", "flag", "command", "attribute",
    "api", "package", "library", "callback", "hook", "key", "setting", "directive", "statement", "keyword",
    "macro", "struct", "enum", "file", "directory", "program", "tool", "utility", "subcommand", "operator", "block",
    "folder",
})
# Labels of names the NER is least sure of in a manual: people, bodies, places, unlabelled proper nouns.
_NAME_LABELS = frozenset({"PERSON", "ORG", "GPE", "LOC", "FAC", PROPN})
_DETERMINERS = frozenset({"the", "a", "an", "this", "that", "its", "their", "each", "every"})


@dataclass(frozen=True)
class Masked:
    """A chunk's text as the parser reads it: code blocks out, inline code unmarked at `spans`."""

    text: str
    spans: tuple[tuple[int, int], ...]  # character spans of inline code in `text`
    has_code: bool  # the chunk held a code block, inline code or reST references (software documentation's markup)
    quoted: tuple[tuple[int, int], ...] = ()  # quoted text shaped like what a manual quotes (`quoted_code`)


@dataclass(frozen=True)
class TechClasses:
    """Schema classes the technical pass assigns, resolved once per extractor."""

    code: str | None  # None: code identifiers are left out (`code_entities=False`)
    concept: str
    heads: Mapping[str, str]  # term head noun -> class ("protocol" -> Protocol or Concept), see `terms`
    named: frozenset[str]  # classes of people, organisations and places: never for code or terms
    software: str = ""  # programs and packages named in lower case ("python-dotenv"); "" -> concept


def mask_code(text: str, normalize: Callable[[str], str]) -> Masked:
    """`text` without code blocks (each leaves a paragraph break) and with inline code unmarked;
    `normalize` (the extractor's spacing repairs) is applied to the prose between code only."""
    had_block = False

    def drop(_: re.Match[str]) -> str:
        nonlocal had_block
        had_block = True
        return "\n\n"

    text = _FENCED_BLOCK.sub(drop, text)
    text = _ROLE.sub("", text)  # MyST and Sphinx roles: {pypi}`certifi` is the code `certifi`
    text = _REST_LINK.sub(r"\1", text)  # a reST link `text <url>`_ is its text, prose
    unlinked = unlink_rest(text)
    had_block = had_block or unlinked != text  # reST is the markup of software documentation: a manual's chunk
    text = unlinked
    pieces: list[str] = []
    spans: list[tuple[int, int]] = []
    files: list[tuple[int, int]] = []
    size = 0
    last = 0
    for m in _CODE_SPAN.finditer(text):
        prose = normalize(text[last:m.start()])
        code = " ".join(m.group(2).split())
        if code and prose[-1:].isalnum():
            prose += " "  # "a`b`": code glued to a word is a word of its own, never one token with it
        files.extend((size + f.start(1), size + f.end(1)) for f in _BARE_FILE.finditer(prose))
        spans.extend(_bare_code(prose, size))
        pieces.append(prose)
        size += len(prose)
        if code:
            spans.append((size, size + len(code)))
            pieces.append(code)
            size += len(code)
            if text[m.end():m.end() + 1].isalnum() and not _PLURAL_AFTER_CODE.match(text, m.end()):
                # "The branch `00.11.z`is a new branch": a space the writer left out; unseparated, the tokenizer
                # makes code and word one token ("00.11.zis"), an entity no text names. Not a plural's or a verb's
                # ending ("`Buffer`s", "`OR`ing"), which makes a word with the code, as manuals mean it.
                pieces.append(" ")
                size += 1
        last = m.end()
    tail = normalize(text[last:])
    files.extend((size + f.start(1), size + f.end(1)) for f in _BARE_FILE.finditer(tail))
    spans.extend(_bare_code(tail, size))
    pieces.append(tail)
    # A file named in prose makes no chunk a manual's ("README.md" is in any text about a project); a scoped name, a
    # call or a code point does, as inline code does.
    had_code = bool(spans)
    masked = "".join(pieces)
    taken = spans + files
    quoted = [(m.start(1), m.end(1)) for m in _quoted_code(masked)
              if not any(a < m.end(1) and m.start(1) < b for a, b in taken)]
    return Masked(masked, tuple(sorted(taken)), had_block or had_code, tuple(quoted))


def _quoted_code(text: str) -> list[re.Match[str]]:
    found = list(_SINGLE_QUOTED.finditer(text))
    # What a manual quotes for the reader to type is ASCII; a quoted word with other letters is a word of another
    # language an encyclopedia glosses ("ghilmān", "qādī"), which _PLAIN_WORD's ASCII classes do not cover.
    found += [m for m in _DOUBLE_QUOTED.finditer(text)
              if m.group(1).isascii() and not _PLAIN_WORD.match(m.group(1))]
    return found


def quoted_code(masked: Masked) -> Masked:
    """`masked` with its quoted code (`_SINGLE_QUOTED`, `_DOUBLE_QUOTED`) read as inline code: for a manual's chunk
    (`is_technical`), whose quotes mark what the reader types or sets (Vim's 'options', a key "n" or command "4l",
    a pager's "q"); elsewhere a quoted word is a word ('the boss'). The result holds inline code, so it is as
    technical as `masked` was (`is_technical`)."""
    if not masked.quoted:
        return masked
    return Masked(masked.text, tuple(sorted(masked.spans + masked.quoted)), True)


def _bare_code(prose: str, offset: int) -> list[tuple[int, int]]:
    """Spans (from `offset`) of code that prose writes without backticks and only code is shaped like: a scoped
    name (`_BARE_SCOPED`), a call with empty parentheses (`_BARE_CALL`), a Unicode code point, a command typed
    after a colon (`_EX_COMMAND`)."""
    return [(offset + m.start(1), offset + m.end(1))
            for pattern in (_BARE_SCOPED, _BARE_CALL, _CODE_POINT, _EX_COMMAND) for m in pattern.finditer(prose)]


def unlink_rest(text: str) -> str:
    """reST references as the words they link: "a spin-off of `Stackless`_", "run on either asyncio_ or Trio_",
    "the |examples|_ directory" (not code, not a word with an underscore); a badge "|GitHub-Status|" is left
    out. Markdown writes none of these shapes (`x`_ is no Markdown, a word's trailing underscore is rare)."""
    text = _REST_NAMED.sub(r"\1", text)
    text = _REST_SUBSTITUTION.sub(lambda m: m.group(1) if m.group(2) else "", text)

    def word(m: re.Match[str]) -> str:
        line = text[text.rfind("\n", 0, m.start()) + 1:m.start()]
        # "_path parameter_": the close of a Markdown emphasis opened earlier on the line, not a reference.
        return m.group(0) if _EMPHASIS_OPEN.search(line) else m.group(1)

    return _REST_WORD.sub(word, text)


def code_name(text: str) -> str:
    """The entity name of a piece of code: a call without its arguments (`socket.end()`), quotes kept
    off an event or string name (`'close'` -> close)."""
    text = " ".join(text.split())
    if _CALL_ARGS.search(text) and not text.startswith("("):
        text = _CALL_ARGS.sub("()", text)
    return text.strip("'\"") or text


_CELTIC_NAME = re.compile(r"^(?:Mc|Mac|O')[A-Z]")  # "McCartney", "MacLeod", "O'Brien": a person's camel case


def software_shaped(name: str, technical: bool) -> bool:
    """Written as software is and no person or place is (`_SOFTWARE_SHAPE`); Mc/Mac/O' names excepted.
    Outside a manual only the shapes no name of a person has ("DuckDB", "GraphQL", "urllib3", "MLflow";
    not "DiCaprio", "LeBron")."""
    if not _SOFTWARE_SHAPE.match(name) or _CELTIC_NAME.match(name):
        return False
    return technical or bool(_SOFTWARE_ANYWHERE.match(name))


# Abbreviations every manual uses for kinds of things, never the name of one: left out unless a fact uses them.
_GENERIC_ABBREVIATIONS = frozenset({"api", "apis", "cpu", "gpu", "os", "url", "urls", "uri", "id", "ids", "ui", "io",
                                    "i/o", "ram", "kb", "mb", "gb", "tb", "ms", "cli", "gui", "faq", "etc", "e.g.",
                                    "i.e.", "n/a", "tbd", "todo", "readme"})
_POINTER = re.compile(r"^(?:section|chapter|figure|fig\.|table|page|appendix|example|step|listing|part)\s+"
                      r"[\dA-Z][\d.]*$", re.IGNORECASE)


_SHORT_ACRONYM = re.compile(r"[A-Z]{2,5}")


def _modifying_acronym(doc: Doc, m: Mention) -> bool:
    """A short acronym written only as the first word of a longer noun phrase ("an RST packet", "the JS
    object", "a CA certificate store"): the phrase names the thing, the acronym alone names nothing here."""
    if m.start < 0 or m.end - m.start != 1 or not _SHORT_ACRONYM.fullmatch(m.name):
        return False
    tok = doc[m.start]
    return tok.dep_ == "compound" and tok.head.i > tok.i and tok.head.tag_.startswith("NN")


def not_a_term(name: str) -> bool:
    """A generic abbreviation ("API", "CPU") or a pointer into the document ("section 4.2.2.13")."""
    return name.lower() in _GENERIC_ABBREVIATIONS or bool(_POINTER.match(name))


def looks_like_code(name: str, technical: bool) -> bool:
    name = name.strip()
    if " " in name and not name.endswith(")"):
        return False
    return bool(_CODE_SHAPE.match(name) or (technical and _UPPER_CAMEL.match(name)))


_LITERALS = frozenset({"true", "false", "null", "none", "undefined", "nan", "nil", "yes", "no", "on", "off"})
# (a path from the root or the home folder names a file or folder: "/usr/share/perl", "~/lib/perl5")
# (an editor's command after its colon names the command: ":bwipe", ":let", ":w!")
_IDENTIFIER = re.compile(
    r"^[@$.]?[A-Za-z_][\w$@./:#+-]*(?:\(\))?$|^--?[A-Za-z][\w-]*$|^\.[\w.-]+$|^~?/[\w.+-]+(?:/[\w.+-]+)*/?$"
    r"|^:[A-Za-z]\w*!?$")


# A placeholder: "<name>", and in braces "{motion}", "{digits}", "{menu-item}" (Vim's, Ruby's and URI templates').
_PLACEHOLDER = re.compile(r"<[A-Za-z][\w-]*>|\{[A-Za-z][\w-]*\}")
_WILDCARD = re.compile(r"(?<=_)\*(?=_|$)|^\*(?=_)")


_NUMBER = re.compile(r"[-+]?[\d.]+")


def is_value(name: str) -> bool:
    """A literal value written as a word or number: `true`, `null`, `None`, `0`, `'utf8'`."""
    return name.strip("'\"`").lower() in _LITERALS or bool(_NUMBER.fullmatch(name))


def is_identifier(name: str) -> bool:
    """Code that names something (a function, class, module, option, file, event), not a literal
    value or an expression: `socket.end()`, `node:net`, `--cert`, `.netrc`, `close`; not `true`,
    `0`, `{ stdio: 'ignore' }`, `a + b`."""
    # A placeholder in angle brackets stands for a word ("CMAKE_<LANG>_FLAGS", "-l<name>", "<srcfile>",
    # `Vec<T>`), a "*" after an underscore for a family of names ("OUTPUT_*"): a reference manual's way to
    # name a variable, option or argument for each value it takes.
    probe = _WILDCARD.sub("x", _PLACEHOLDER.sub("x", name))
    return len(name) <= 80 and name.lower() not in _LITERALS and bool(_IDENTIFIER.match(probe)) and any(
        c.isalnum() for c in name)  # `..`, `...`: a path segment or an ellipsis, no name


def several_code_spans(m: Mention, code_tokens: Iterable[int]) -> bool:
    """A name the NER ran over more than one inline code span ("`Option` and `Argument`" as one ORG): not
    one thing, each span is code of its own."""
    return m.start >= 0 and sum(1 for i in code_tokens if m.start <= i < m.end) > 1


def section_topic(section: Sequence[str]) -> str | None:
    """What the deepest heading names when that heading is code ("Class: `net.Server`", "`server.close(
    [callback])`"): the code's name; else None."""
    if not section:
        return None
    labelled = _HEADING_LABEL.match(section[-1])
    heading = _HEADING_LABEL.sub("", section[-1].strip())
    spans = _CODE_SPAN.findall(heading)
    if spans:
        return code_name(spans[0][1])
    heading = heading.strip()
    if labelled and is_identifier(code_name(heading)):
        return code_name(heading)  # "Class: URL", "Event: 'messageerror'": the label says it is code
    if looks_like_code(heading, technical=True) or _PLACEHOLDER_CODE.match(heading) or numbered_rule(heading):
        return code_name(heading)
    return None


def numbered_rule(name: str) -> bool:
    """A numbered identifier in capitals ("CMP0055"): an entry of a catalogue of rules or policies."""
    return bool(_NUMBERED_RULE.match(name))


_NUMBERED_RULE = re.compile(r"^[A-Z]{2,}\d{3,}$")
# Reference pages' titles that are code only a heading shows to be: a name with a placeholder in angle brackets
# ("CMAKE_<LANG>_FLAGS", "<PackageName>_ROOT") and a numbered identifier in capitals ("CMP0055"); in running text
# the first is a tag's shape and the second an acronym with a number, so `looks_like_code` leaves both out.
_PLACEHOLDER_CODE = re.compile(r"^\w*<\w+>\w*(?:<\w+>\w*)*$")


# Words of software documentation that encyclopedic prose about people, places and even old computers
# rarely uses; a chunk with at least `_CUES_NEEDED` different ones is technical (a README's prose
# without code in it, a converted book that lost its code font).
_CUES = frozenset("""
api apis sdk cli gui url urls http https json yaml xml csv html css sql regex utf-8 unicode
install installed installing installation pip npm conda configure configuration config
library libraries framework frameworks package packages module modules dependency dependencies plugin plugins
function functions parameter parameters variable variables boolean integer callback callbacks
async asynchronous synchronous socket sockets server servers client clients endpoint endpoints
runtime compiler interpreter syntax database databases schema repository repositories github commit
linux macos unix python javascript typescript golang node.js
linter linters deployment deployments
workload workloads infrastructure serialize serialization deserialize parser parsing constructor
cache caching algorithm algorithms timezone timezones localtime ssl tls certificate certificates binding bindings
annotations typing backend frontend stdin stdout multithreading multiprocessing kubernetes docker
proxy protocol protocols rfc asyncio concurrency dataclass dataclasses boilerplate
""".split())
# A README's headline: "X is a fast JSON parser", "an asynchronous networking and concurrency library".
_HEADLINE = re.compile(r"\b(?:is|are)\s+(?:a|an|the)\s+(?:[\w.+-]+[\s,]+){0,6}?(?:library|package|module|framework|"
                       r"toolkit|parser|client|server|binding|wrapper|implementation|plugin|linter|CLI|SDK|API)s?\b")
# Shapes of software names that prose never writes: capitals after a small letter ("gRPC", "PyYAML", "DuckDB"),
# digits after letters ("urllib3", "flake8"). Not one capitalised word after another ("madnessThe", a list
# glued together by a converter), nor "JavaScript"-like pairs, which such glue makes too.
_SOFTWARE_CUE = re.compile(r"^(?:[A-Za-z]*[a-z][A-Z]{2,}[A-Za-z]*|[A-Za-z]*[a-z]\d+[a-z]*)$")
_CUE_WORD = re.compile(r"[A-Za-z][A-Za-z.+-]*[A-Za-z0-9]|[A-Za-z]")
_CUES_NEEDED = 3


def is_technical(masked: Masked, section: Sequence[str]) -> bool:
    """A chunk of a manual: it holds code, a heading above it is code or numbered like a book's, its prose
    says what a library is ("X is a Python library for ..."), or it uses several words of software
    documentation (the heading path's among them) or quotes things shaped as code (`quoted_code`)."""
    if masked.has_code or any("`" in h or _NUMBERED_HEADING.match(h) for h in section) or (
            section_topic(section) is not None) or _HEADLINE.search(masked.text):
        return True
    # What the text quotes in code's shapes ('termencoding', "_u") counts as software documentation's words do.
    found: set[str] = {"\0" + masked.text[a:b] for a, b in masked.quoted}
    if len(found) >= _CUES_NEEDED:
        return True
    # The heading path is the chunk's context too ("Certifi: Python SSL Certificates" over a README's
    # paragraph that says "python deployments" and "CA trust store").
    for word in _CUE_WORD.findall(" ".join([*section, masked.text])):
        low = word.lower()
        if low in _CUES or _SOFTWARE_CUE.match(word):  # "gRPC", "PyYAML", "urllib3" are software's words
            found.add(low.rstrip("s"))
            if len(found) >= _CUES_NEEDED:
                return True
    return False


# A heading's number or part label ("Chapter 3:", "2.1.") before its words.
_HEADING_NUMBER = re.compile(r"^\s*(?:(?:chapter|part|appendix|section)\s+\w+\s*[:.]?|\d+(?:\.\d+)*\.?)\s*",
                             re.IGNORECASE)


def plain_heading(heading: str) -> str:
    text = _CODE_SPAN.sub(lambda m: m.group(2), _HEADING_LABEL.sub("", heading)).replace("`", "")
    text = _HEADING_NUMBER.sub("", text)
    return " ".join(text.split()).strip(" :.").lower()


class TechnicalPass:
    """Retyping and pruning of one chunk's facts (see the module docstring)."""

    def __init__(self, classes: TechClasses, words: WordTables) -> None:
        self.classes = classes
        self.words = words

    def is_term(self, name: str, prose: str) -> bool:
        """A capitalised term rather than a name: every word is English and either the last one is a
        word no name ends in ("Socket Buffer", "Running Slide Shows") or the chunk also writes it in
        lower case ("precedence constraint"); or it is a short acronym ("CPU", "MB")."""
        if name.isupper() and len(name) <= 6:
            return True
        words = [w.lower() for w in _WORD.findall(name)]
        if not words or not all(self.words.known(w) for w in words):
            return False
        if len(words) == 1:
            return True  # "Preface", "Python", "Google": a word of the language first
        return self.words.general_word(words[-1]) or f" {name.lower()}" in prose

    def run(self, doc: Doc, facts: Facts, code_tokens: Iterable[tuple[int, int]], section: Sequence[str],
            technical: bool) -> Facts:
        classes = self.classes
        text = doc.text
        join_acronyms(doc, facts.mentions)
        spans = list(code_tokens)
        headings = {plain_heading(h) for h in section} - {""}
        # "Class: Blob", "Event: close": a heading that says what kind of code it names.
        labelled = {_HEADING_LABEL.sub("", h).strip().strip("`'\"") for h in section if _HEADING_LABEL.match(h)}
        prose = f" {text}"  # as written: a lower-case use of a capitalised phrase is what `is_term` looks for
        used = used_mentions(facts.triples, facts.events)
        code_names: set[str] = set()
        retyped: dict[str, str] = {}
        software: set[str] = set()
        heading_words = heading_names(section)
        dropped: set[int] = set()
        for m in facts.mentions:
            if m.is_date:
                continue
            inside = [s for s in spans if s[0] < m.end and m.start < s[1]] if m.start >= 0 else []
            is_code = bool(inside) or looks_like_code(m.name, technical) or m.name in labelled
            if is_code and not inside and m.name not in labelled and not _CODE_SHAPE.match(m.name) and (
                    classes.software and software_by_context(doc, m, heading_words)):
                is_code = False  # "SymPy is an open-source computer algebra system": camel-cased software
            if len(inside) > 1 and id(m) not in used:
                dropped.add(id(m))  # "`Option` and `Argument`" as one ORG: each span is its own code (below)
                continue
            if is_code and not any(c.isalnum() for c in m.name):
                dropped.add(id(m))  # `=`, `..` with a bracket the NER took in: punctuation names nothing
                continue
            if is_code:
                if len(inside) == 1 and m.end - m.start <= inside[0][1] - inside[0][0] + 2:
                    # The code itself, without a word the NER took in ("ERR_SOCKET_CLOSED Error").
                    m.name = code_name(doc[inside[0][0]:inside[0][1]].text)
                elif m.start < 0 or looks_like_code(m.name, technical):
                    m.name = code_name(m.name)
                code_names.add(m.name)
                continue
            head = term_head(m.name)
            if technical and classes.software and m.spg_class != classes.code and (
                    software_by_context(doc, m, heading_words)):
                # "Python 3.9+", "Python developers", "on Linux", "Why Ray?" over the text: software, not a
                # person, place or the English word.
                software.add(m.name)
            elif technical and m.label in _TITLE_LABELS and _quoted(text, m.name):
                # A manual quotes what the reader sees or types, not a title: "the environment variables "LANG"
                # and "LANGUAGE"" (a constant's shape: code), "the "Regional Settings" Control Panel" (a term).
                if _CONSTANT.match(m.name) and not _names_a_part(text, m.name):
                    code_names.add(m.name)
                    continue
                retyped[m.name] = classes.concept
            elif head is not None and m.spg_class in classes.named:
                # "Transmission Control Protocol", "WHATWG Encoding Standard": a kind of thing by its head.
                retyped[m.name] = classes.heads.get(head, classes.concept)
            elif technical and m.label in _NAME_LABELS and m.spg_class in classes.named and (
                    self.is_term(m.name, prose)):
                # "Socket Buffer" (PERSON), "Precedence Constraint" (ORG), "CPU" (ORG): terms.
                retyped[m.name] = classes.concept
            elif m.label in _PERSON_PLACE_LABELS and m.spg_class in classes.named and (
                    software_shaped(m.name, technical)):
                # "PyArrow" (PERSON), "GraphQL" (GPE), "urllib3" (PERSON): no person or place is written
                # with a capital inside a word or digits after letters; in a manual that is software.
                retyped[m.name] = classes.software or classes.concept
            if m.name.lower() in headings and id(m) not in used and _alone(doc, m):
                dropped.add(id(m))  # a heading repeated as a line of the text, nothing said about it
            elif technical and id(m) not in used and m.start >= 0 and m.end - m.start == 1 and (
                    doc[m.start].is_sent_start and m.label in _NAME_LABELS
                    and self.words.known(m.name.lower())):
                dropped.add(id(m))  # "Avoid", "Note", "Returns" capitalised at a sentence's start
            elif technical and id(m) not in used and not_a_term(m.name):
                dropped.add(id(m))  # "API", "section 4.2.2.13": a word of every manual, a pointer into one
            elif technical and id(m) not in used and _modifying_acronym(doc, m):
                dropped.add(id(m))  # "an RST packet", "a CA certificate store": the term is the thing named
        if classes.code is not None:
            # Inline code in a sentence is discussed in prose: an entity, whether or not a rule used it.
            covered = {i for m in facts.mentions if m.start >= 0 and id(m) not in dropped
                       for i in range(m.start, m.end)}
            for a, b in spans:
                name = code_name(doc[a:b].text)
                if not covered.intersection(range(a, b)) and is_identifier(name):
                    facts.mentions.append(Mention(name, classes.code, PROPN, a, b, class_fixed=True))
                    code_names.add(name)
        for m in facts.mentions:
            if m.is_date:
                continue
            if m.name in code_names:
                if classes.code is None:
                    dropped.add(id(m))
                else:
                    m.spg_class = classes.code
                    m.class_fixed = True
            elif m.name in software and (not m.class_fixed or m.spg_class in classes.named | {classes.concept}):
                m.spg_class = classes.software
            elif m.name in retyped and (not m.class_fixed or m.spg_class in classes.named or m.label in _TITLE_LABELS):
                m.spg_class = retyped[m.name]
        self._member_of(facts, section)
        if not dropped:
            return facts
        triples = [t for t in facts.triples if id(t.subject) not in dropped and id(t.object) not in dropped
                   and all(id(q) not in dropped for _, q in t.qualifiers)]
        events = [e for e in facts.events if all(id(a) not in dropped for ms in e.arguments.values() for a in ms)]
        kept = used_mentions(triples, events)
        mentions = [m for m in facts.mentions if id(m) not in dropped or id(m) in kept]
        return Facts(mentions, triples, events, facts.drops)

    def _member_of(self, facts: Facts, section: Sequence[str]) -> None:
        """A heading that is code under a heading that is other code ("Class: `net.Server`" >
        "`server.close([callback])`"): the structure says the one is part of the other."""
        code = self.classes.code
        topics = [section_topic([heading]) for heading in section]
        child = topics[-1] if topics else None
        parent = next((t for t in reversed(topics[:-1]) if t and t != child), None)
        if code is None or child is None or parent is None:
            return
        found = {m.name: m for m in facts.mentions if m.spg_class == code}
        subject = found.get(child) or Mention(child, code, PROPN, -1, -1, class_fixed=True)
        obj = found.get(parent) or Mention(parent, code, PROPN, -1, -1, class_fixed=True)
        facts.mentions.extend(m for m in (subject, obj) if m.name not in found)
        facts.triples.append(Triple(subject, PART_OF, obj))


# A constant's or environment variable's name: capitals, digits and underscores, one word ("LANG", "PERL5LIB").
_CONSTANT = re.compile(r"^[A-Z][A-Z0-9_]+$")
# NER labels of titles (a work, a law): in a manual, the words it quotes.
_TITLE_LABELS = frozenset({"WORK_OF_ART", "LAW"})
_QUOTES = "\"'\u201c\u201d\u2018\u2019"
_QUOTED = f"[{_QUOTES}]"


def _quoted_ends(text: str, name: str) -> list[int]:
    """Where each writing of `name` between quotation marks ends (after the closing mark). A plain search, not a
    pattern per name: this runs for every mention of a manual's chunk."""
    ends = []
    start = text.find(name, 1)
    while start != -1:
        end = start + len(name)
        if text[start - 1] in _QUOTES and end < len(text) and text[end] in _QUOTES:
            ends.append(end + 1)
        start = text.find(name, start + 1)
    return ends


def _quoted(text: str, name: str) -> bool:
    """The chunk writes `name` between quotation marks ("LANG", 'Regional Settings')."""
    return bool(_quoted_ends(text, name))


# Nouns after a quoted name that make it a part of a document or a rule, not code: "the "SYNOPSIS" section", "any
# "OPTIONS" and/or "ARGUMENTS" sections", "all "MUST" requirements".
_PART_NOUNS = ("section", "heading", "chapter", "paragraph", "page", "requirement", "tab", "menu", "button", "dialog")
# What follows a quoted name that is a part: more quoted names in a list, then one of `_PART_NOUNS`.
_PART_AFTER_QUOTE = re.compile(f"(?:\\s*(?:,|and/or|and|or|,\\s*and|,\\s*or)\\s*{_QUOTED}[^{_QUOTES}]+{_QUOTED})*"
                               f"\\s+(?:{'|'.join(_PART_NOUNS)})s?\\b")


def _names_a_part(text: str, name: str) -> bool:
    """The quoted `name`, alone or in a list of quoted names, comes right before a noun for a part of a document or a
    rule (`_PART_NOUNS`)."""
    return any(_PART_AFTER_QUOTE.match(text, end) for end in _quoted_ends(text, name))


def _alone(doc: Doc, m: Mention) -> bool:
    """The mention is all its sentence says (punctuation aside): a heading or caption line."""
    if m.start < 0:
        return True  # the title hint's mention, not in the text at all
    sent = doc[m.start].sent
    return all(m.start <= t.i < m.end or t.is_punct or t.is_space for t in sent)


@dataclass(frozen=True)
class WordTables:
    """English words of spaCy's lemma index: `nouns` (which also holds many names, "turing", "john")
    and `general` (verbs, adjectives, adverbs: "buffer", "model", "show")."""

    nouns: frozenset[str]
    general: frozenset[str]

    @classmethod
    def from_index(cls, index: Callable[[str], Iterable[str]]) -> WordTables:
        nouns = frozenset(w for w in index("noun") if w.isalpha())
        general = frozenset(w for pos in ("verb", "adj", "adv") for w in index(pos) if w.isalpha())
        return cls(nouns, general)

    def _base(self, word: str) -> str | None:
        """The word itself or its base form ("events" -> "event", "running" -> "run") when known."""
        if word in self.nouns or word in self.general:
            return word
        for suffix, repl in (("ies", "y"), ("es", ""), ("s", ""), ("ing", ""), ("ing", "e"), ("ed", ""), ("ed", "e")):
            if word.endswith(suffix) and (base := word[: -len(suffix)] + repl) and (
                    base in self.nouns or base in self.general):
                return base
        return None

    def known(self, word: str) -> bool:
        return word in _DETERMINERS or self._base(word) is not None

    def general_word(self, word: str) -> bool:
        """A word no name is made of: a verb, adjective or adverb, or an inflected form ("shows")."""
        base = self._base(word)
        return base is not None and (base != word or base in self.general)


__all__ = ["CODE_KINDS", "CODE_TOKENS", "TECHNICAL_CHUNK", "Masked", "TechClasses", "TechnicalPass", "WordTables",
           "code_name", "is_identifier", "is_technical", "is_value", "looks_like_code", "mask_code", "numbered_rule",
           "quoted_code",
           "section_topic", "software_shaped"]
