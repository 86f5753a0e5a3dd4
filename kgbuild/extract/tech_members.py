"""What a manual states by naming rather than by a verb: members and examples.

- **Qualified names**: `frozenlist.FrozenList`, `colorama.init()`, `google.cloud.logging` name their own
  container. Where the chunk (its text or its heading path) names that container too, the one is part of the
  other: (colorama.init(), partOf, Colorama) under the heading "Colorama"; (FrozenList.freeze, partOf,
  frozenlist.FrozenList) with `frozenlist.FrozenList` in the text.
- **Lists of members**: "Other settings of `Option` and `Argument` ... include: `expose_value`,
  `shell_complete`, ..." and "a type system with features such as type inference, gradual typing, ...": each
  listed thing is part of the owner (a member noun, `tech_relations._MEMBER_KINDS` and "feature", with its
  owner after "of" or before "with").
- **Examples of a kind**: "Some android apps like Termux and Pydroid", "timezones such as GMT": each example
  that is a name or code is an instance of the kind (isA the kind's term); so is each piece of code a
  parenthesis lists right after a plural noun ("Immutable proxies (``MultiDictProxy`` and
  ``CIMultiDictProxy``)", "Timers (`setTimeout`, `setInterval`)", where even a bare plural is a kind).

These are read from the parse's noun phrases, not from sentences: a list is a noun's conjuncts (and the
appositions the small English model makes of a long list).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from kgbuild.extract.code_text import code_name
from kgbuild.extract.facts import CONCEPT, PROPN, Mention, Triple, related
from kgbuild.extract.term_ends import GENERIC_NOUNS
from kgbuild.extract.vocab import NOUN_TAGS, PROPER_TAGS, STOP_ADJECTIVES, VAGUE_NOUNS

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token


class TechArgs(Protocol):
    """What these rules read of a chunk's arguments (`tech_relations.TechArgs`, which imports this module)."""

    doc: Doc
    code_tokens: frozenset[int]
    section: Sequence[str]
    software_class: str
    concept_class: str
    added: list[Mention]

    def lemma(self, tok: Token) -> str: ...

    def is_word(self, word: str) -> bool: ...

    def resolve(self, tok: Token, role: str, subject: Mention | None = None) -> Mention | None: ...

    def _new(self, name: str, spg_class: str, label: str, start: int, end: int) -> Mention: ...

# Nouns for the parts of a thing whose list a manual gives ("settings of X include", "features such as").
MEMBER_NOUNS = frozenset({"method", "property", "attribute", "field", "option", "event", "member", "function",
                          "parameter", "argument", "flag", "setting", "key", "subcommand", "command", "feature",
                          "submodule", "component", "class"})
# "other", "various", "many": how many of the kind, not which kind.
VAGUE_ADJECTIVES = STOP_ADJECTIVES | frozenset({"other", "various", "many", "several", "some", "certain", "different",
                                                "similar", "such", "common", "typical", "popular", "new", "favorite",
                                                "favourite", "corresponding", "respective", "existing", "usual",
                                                "secure", "modern", "great", "good", "powerful", "fast", "simple"})
# "Class: URL", "Event: 'close'": a heading that says what kind of code it names.
_LABELLED = re.compile(r"^\s*(?:class|module|event|method|function|property|interface|type|enum|constant)s?\s*:",
                       re.IGNORECASE)
# Extensions of documents and data files: `CONTRIBUTING.rst` is a file, not a member of CONTRIBUTING.
_FILE_TYPES = frozenset("""
py pyi pyx rst md txt json toml cfg ini yaml yml js mjs cjs ts tsx jsx html htm css xml csv tsv sh bat ps1 c h cc
cpp hpp rs go java rb php lock log conf env gz zip tar whl egg so dll dylib exe png jpg svg pdf in out
com org net io dev ai edu gov
""".split())
# Words that open a list of examples of the noun before them.
# ("including" names parts as often as instances: "instructions, including Common Build Options".)
_EXAMPLE_PREPS = frozenset({"like"})


def qualified_members(args: TechArgs, ours: list[Triple]) -> None:
    """ `colorama.init()` under "Colorama", `FrozenList.freeze` beside `frozenlist.FrozenList`: a dotted name is
    part of each container it names that the chunk names too (every one of them, "google.cloud.logging" is
    part of `google.cloud` and of `google`)."""
    resolved = (args.resolve(args.doc[i], "object") for i in sorted(args.code_tokens))
    code = [m for m in resolved if m is not None and not m.is_date and m.label != CONCEPT]
    by_name: dict[str, Mention] = {}
    for m in code:
        by_name.setdefault(_bare(m.name), m)
    # Plain headings only: "Class: URL" names a class, which `url.parse()` (a module's function) is no part of.
    headings = {h.strip(" `"): h.strip(" `") for h in args.section if not _LABELLED.match(h)}
    for m in code:
        parts = _bare(m.name).split(".")
        if len(parts) < 2 or not all(p.isidentifier() for p in parts) or parts[-1].lower() in _FILE_TYPES:
            continue  # `setup.py`, `CONTRIBUTING.rst`: a file name, not a qualified one
        for n in range(len(parts) - 1, 0, -1):
            prefix = ".".join(parts[:n])
            # Code is case-sensitive: `stream.push()` is no member of `Stream`; `FrozenList.freeze` is one of
            # `frozenlist.FrozenList`.
            owner = by_name.get(prefix)
            if owner is None and prefix != prefix.lower():
                # `FrozenList.freeze` beside `frozenlist.FrozenList`: a class written without its module. Not a
                # lower-case prefix: `datetime.date` is no member of `datetime.datetime`.
                owner = next((x for key, x in by_name.items() if key.endswith("." + prefix) and x is not m), None)
            if owner is None and n == 1 and prefix[:1].islower() and prefix.isalnum():
                # `eventEmitter.on()` beside `EventEmitter`, `socket.connect()` beside `net.Socket`: a manual names
                # an instance after its class, with a small first letter.
                cls = prefix[:1].upper() + prefix[1:]
                owner = by_name.get(cls) or next((x for key, x in by_name.items() if key.endswith("." + cls)), None)
            if owner is not None and owner.name.endswith(")"):
                owner = None  # `request.end()` beside `http.request()`: a variable named for a call, not its member
            title = next((h for h in headings if h[:1].lower() + h[1:] == prefix[:1].lower() + prefix[1:]), None)
            if owner is None and title is not None and not args.is_word(prefix.lower()):
                # The heading writes the container, capitalised as a title may be ("Colorama" over
                # `colorama.init()`); not an acronym written in capitals ("DNS" over `dns.lookup()`), nor an
                # English word, which titles a topic ("Stream" over `stream.push()`, where `stream` is a variable).
                owner = _heading_mention(args, title)
            if owner is None or owner is m or related(ours, m.name, owner.name):
                continue
            ours.append(Triple(m, "partOf", owner))


_CALL_PARENS = re.compile(r"\(.*\)$")


def _bare(name: str) -> str:
    """`colorama.init()` -> colorama.init: the qualified name without a call's arguments."""
    return _CALL_PARENS.sub("", code_name(name))


def _heading_mention(args: TechArgs, name: str) -> Mention:
    found = next((x for x in args.added if x.name == name and x.start < 0), None)
    if found is not None:
        return found
    mention = Mention(name, args.software_class, PROPN, -1, -1, class_fixed=True)
    args.added.append(mention)
    return mention


def listed(args: TechArgs, ours: list[Triple], tok: Token) -> None:
    """A list hanging on `tok` (a noun): members of an owner, or examples of a kind."""
    lemma = args.lemma(tok)
    if tok.tag_ not in NOUN_TAGS:
        return
    examples = _examples(tok)
    shown = [] if examples else _parenthesised(args, tok)
    if lemma in MEMBER_NOUNS and tok.tag_ == "NNS":
        owners = _owners(args, tok)
        items = examples or _included(args, tok)
        # ("member": a bare plural listed among an owner's parts is a term of one word, `term_ends`)
        for item in (args.resolve(t, "member") for t in items):
            if item is not None and not item.is_date:
                for owner in owners:
                    _add(ours, item, "partOf", owner)
        return
    kind = _plural_kind(args, tok) if (examples or shown) and tok.tag_ == "NNS" else None
    if kind is None and shown and lemma not in VAGUE_NOUNS and lemma not in GENERIC_NOUNS and lemma.isalpha():
        # "Timers (`setTimeout`, `setInterval`)": code shown in parentheses makes even a bare plural a kind
        kind = args._new(lemma, args.concept_class, CONCEPT, tok.i, tok.i + 1)
    if kind is None:
        return
    for item in (args.resolve(t, "object") for t in examples or shown):
        if item is not None and item.label != CONCEPT and not item.is_date:
            _add(ours, item, "isA", kind)


def _add(ours: list[Triple], s: Mention | None, p: str, o: Mention | None) -> None:
    if s is None or o is None or s.name == o.name or related(ours, s.name, o.name):
        return
    ours.append(Triple(s, p, o))


def _examples(noun: Token) -> list[Token]:
    """ "apps like Termux and Pydroid", "features such as type inference, gradual typing and generics": the
    listed tokens."""
    out: list[Token] = []
    for prep in (c for c in noun.children if c.dep_ == "prep"):
        low = prep.lower_
        if low in _EXAMPLE_PREPS or (low == "as" and any(c.lower_ == "such" for c in prep.children)) or (
                low == "as" and prep.i > 0 and noun.doc[prep.i - 1].lower_ == "such"):
            for pobj in (c for c in prep.children if c.dep_ == "pobj"):
                out += _chain(pobj)
    return out


# What may stand between the pieces of code a parenthesis lists ("(`a`, `b` and `c`)", "(e.g. `a`)").
_LIST_WORDS = frozenset({",", "and", "or", "e.g.", "e.g", "eg", "i.e.", "etc", "etc.", "."})


def _parenthesised(args: TechArgs, noun: Token) -> list[Token]:
    """ "Immutable proxies (``MultiDictProxy`` and ``CIMultiDictProxy``)", "Timers (`setTimeout`,
    `setInterval`)": a parenthesis right after a plural noun that lists only code shows instances of it."""
    doc = noun.doc
    if noun.i + 1 >= len(doc) or doc[noun.i + 1].text != "(":
        return []
    if noun.i + 2 < len(doc) and doc[noun.i + 2].lower_ in ("and", "or"):
        return []  # "per-test props (and `update()`)": one more thing, not an example
    items: list[Token] = []
    for tok in doc[noun.i + 2:]:
        if tok.text == ")":
            return items
        if tok.i in args.code_tokens:
            items.append(tok)
        elif tok.lower_ not in _LIST_WORDS:
            return []  # words of its own: an aside, not a list ("(the default)", "(CPU, memory, disks)")
    return []


def _chain(tok: Token) -> list[Token]:
    """A list's items: the token, its conjuncts and the appositions the parser makes of a long list."""
    out = [tok]
    for c in tok.children:
        if c.dep_ in ("conj", "appos") and (c.tag_ in NOUN_TAGS or c.tag_ in PROPER_TAGS):
            out += _chain(c)
    return out


def _included(args: TechArgs, noun: Token) -> list[Token]:
    """ "Other settings of `Option` ... include: `expose_value`, `shell_complete`, ...": the objects of
    "include" whose subject is the member noun."""
    verb = noun.head
    if noun.dep_ != "nsubj" or args.lemma(verb) not in ("include", "be") or any(c.dep_ == "neg" for c in verb.children):
        return []
    return [t for c in verb.children if c.dep_ in ("dobj", "attr") for t in _chain(c)]


def _owners(args: TechArgs, noun: Token) -> list[Mention]:
    """Whose members they are: "settings of `Option` and `Argument`", "a type system with features"."""
    found: list[Token] = [t for prep in noun.children if prep.dep_ == "prep" and prep.lower_ == "of"
                          for p in prep.children if p.dep_ == "pobj" for t in (p, *p.conjuncts)]
    if not found and noun.dep_ == "pobj" and noun.head.lower_ == "with" and noun.head.head.tag_ in NOUN_TAGS:
        found = [noun.head.head]
    if not found:
        # "`Object` methods such as `obj.toString()`": the code the member noun is written with.
        found = [c for c in noun.children if c.dep_ in ("compound", "nmod") and c.i in args.code_tokens]
    out = [args.resolve(t, "object") for t in found]
    return [m for m in out if m is not None and (m.label != CONCEPT or len(m.name.split()) > 1)]


def _plural_kind(args: TechArgs, noun: Token) -> Mention | None:
    """ "Some android apps" as a kind: the noun phrase when it has a modifier, in its singular ("some" is a
    quantity of the examples, not of the kind); a bare plural ("things like") is too vague a kind."""
    doc = noun.doc
    start = noun.i
    while start > 0 and doc[start - 1].head.i == noun.i and doc[start - 1].i not in args.code_tokens and (
            doc[start - 1].dep_ in ("compound", "amod") and doc[start - 1].lower_ not in VAGUE_ADJECTIVES):
        start -= 1
    if start > 0 and start < noun.i and not doc[start - 1].whitespace_ and doc[start - 1].text == "-":
        return None  # "NumPy-based libraries": a piece of a hyphenated modifier is no kind
    if start == noun.i or args.lemma(noun) in VAGUE_NOUNS:
        return None
    name = " ".join([*(t.text if t.tag_ in PROPER_TAGS else t.lower_ for t in doc[start:noun.i]), args.lemma(noun)])
    return args._new(name, args.concept_class, CONCEPT, start, noun.i + 1)


__all__ = ["MEMBER_NOUNS", "listed", "qualified_members"]
