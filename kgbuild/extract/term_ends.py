"""Common nouns as the ends of a manual's relations: when a one-word noun is a term, and what code names.

A relation cannot be found between things never extracted, and the things manuals and dataset descriptions
relate are mostly common nouns: "`gh` uploads local images and videos", "This library provides utilities",
"the ``wheel`` command line tool". The technical pass took a term of two words or
more as an argument; one word alone was left out (in most sentences it is a description: "returns a value",
"is a library"). These rules say when one word is a term too, and what code written before a noun says:

- **A one-word object is a term when it names a class of things software has or does**: a bare plural
  object of a verb of software ("contains binaries", "provides utilities", "provides cryptographic recipes and
  primitives"), or listed as an owner's parts ("a type system with features such as type inference, gradual
  typing, generics"). With a determiner, a number or a quantity it refers to things the text has in mind or counts
  ("skip the check", "holds the translations", "3 classes", "many options"); a singular is one thing
  ("initiates the connection", "is a library"); after any verb it is as often a description ("can update
  credentials", "buffers chunks"). Never a generic noun ("information", "examples", "users", "services":
  `GENERIC_NOUNS`, with vocab's `VAGUE_NOUNS`), never through a pronoun ("enabled for them"); its relation is
  kept only when its subject is code, software or a name (the clause rules' own guard), so a bare noun never
  relates to a bare noun.
- **Code before a noun that is no code structure names a kind**: "the ``wheel`` command line tool" -> (wheel,
  isA, command line tool), "a ``h11.ProtocolError`` exception" -> (h11.ProtocolError, isA, exception), "For
  `.story.vue` single-file components" -> isA single-file component. Code before a kind of code structure
  ("the `--attach` flag", "the `node:net` module") is that code and says nothing more, and code before a
  relational noun is what the noun is relative to ("a particular `Agent` subclass", "`'uncaughtException'`
  listeners", "the `make` targets", "the `node-gyp` installation instructions"), and before a collective noun
  one of its members ("the `shell` option set"); "example" before the
  kind says the code is one ("the `CountsClicks` example story" -> isA story). The noun needs a determiner or
  a plural ("The speed of `zlib` compression" is what zlib does), and a plural right after code that is
  followed by what follows a verb is the code's verb misread ("`@playwright/test` exports an empty ...").
- **A term's own clause towards another term**: "The bind command tells the SOCKS proxy server to bind ..." ->
  (bind command, tell, SOCKS proxy server), "Build environments will compare `inputs` and `outputs`", "a registry
  website that implements the CommonJS Package Registry specification". A term subject was left out before (as
  often wrong as right towards any name); it is kept in a main or relative clause, active, without a modal or a
  condition ("can switch to", "If the test function receives ..."), with its whole noun phrase as the term
  ("Finalized output items" is not "output item") and an object of two words or more, code or a name.
- **A defining clause between two terms**: "A custom reporter is a module that ...", "Duplex streams are streams
  that ..." -> isA; "a range expression consists of two characters" -> consistsOf; "X contains Y". The subject is a
  class ("a"/"an" or a bare plural, nothing after it but "of" and a noun), the copula's noun "a"/"an" or a bare
  plural and no noun of manner ("is an example of"); both ends are terms only through the triple.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from kgbuild.extract.arguments import is_hyphen
from kgbuild.extract.facts import CONCEPT, Mention, Triple, related
from kgbuild.extract.vocab import NOUN_TAGS, VAGUE_NOUNS

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token


class TechArgs(Protocol):
    """What these rules read of a chunk's arguments (`tech_relations.TechArgs`, which imports this module)."""

    doc: Doc
    code_tokens: frozenset[int]
    kinds: frozenset[str]
    concept_class: str
    by_token: dict[int, Mention]

    def lemma(self, tok: Token) -> str: ...

    def resolve(self, tok: Token, role: str, subject: Mention | None = None) -> Mention | None: ...

    def phrase(self, tok: Token) -> tuple[int, str] | None: ...

    def _new(self, name: str, spg_class: str, label: str, start: int, end: int) -> Mention: ...


# Nouns that name no particular kind of thing, alone: an object made of one of them says nothing ("gives
# information", "see the examples", "helps users"). Lemmas.
GENERIC_NOUNS = frozenset({
    "information", "info", "example", "detail", "thing", "stuff", "data", "value", "item", "user", "people",
    "person", "someone", "something", "anything", "everything", "nothing", "one", "other", "another", "aspect",
    "functionality", "behavior", "behaviour", "content", "change", "problem", "question", "answer", "purpose",
    "need", "situation", "condition", "requirement", "instruction", "reference", "link", "note", "section",
    "chapter", "page", "document", "documentation", "doc", "word", "text", "line", "character", "letter",
    "number", "amount", "level", "size", "length", "default", "option", "setting", "parameter", "argument",
    "feature", "capability", "ability", "possibility", "benefit", "advantage", "improvement", "fix", "bug",
    "error", "warning", "message", "output", "input", "result", "effect", "use", "usage", "way", "approach",
    "method", "step", "task", "job", "work", "action", "operation", "process", "activity", "event", "case",
    "instance", "object", "entity", "element", "component", "part", "piece", "unit", "version", "release",
    "time", "place", "location", "area", "field", "space", "kind", "sort", "type", "form", "style", "mode",
    "state", "status", "context", "environment", "system", "tool", "project", "package", "library", "module",
    "program", "application", "app", "code", "file", "name", "id", "key", "list", "set", "group", "collection",
    "pair", "couple", "lot", "bit", "range", "variety", "developer", "contributor", "maintainer", "author",
    "service", "product", "resource", "solution", "tip", "trick", "idea", "facility", "function",
})
# Nouns for a collection: code before one is a member, never the collection ("the `shell` option set").
_COLLECTIVE = frozenset({"set", "list", "group", "collection", "pair", "series", "family", "bundle", "batch"})
# Nouns that name a thing by what it is to another ("a subclass of Agent", "the listeners of an event", "the
# targets of make", "the installation instructions of node-gyp"): code before one is that other thing.
_RELATIONAL = frozenset({
    "subclass", "superclass", "alias", "wrapper", "implementation", "reimplementation", "replacement", "successor",
    "predecessor", "dependency", "dependent", "port", "fork", "binding", "listener", "handler", "target", "caller",
    "instruction", "repository", "repo", "timestamp", "result", "output", "owner", "author", "maintainer",
    "documentation", "docs", "installation", "source", "version", "release", "build", "test", "tutorial", "guide",
    "counterpart", "equivalent", "variant", "user", "consumer", "producer", "content",
    "singleton",  # "the Test::Builder singleton": the class's one instance, not a kind the class is
})
# Quantities that make a bare plural a count, not a class of things ("many options", "several backends").
_QUANTITIES = frozenset({"many", "several", "few", "more", "most", "various", "numerous", "multiple", "other",
                         "such", "certain", "lots", "plenty"})


def single_noun_term(tok: Token, lemma: Callable[[Token], str], verbs: frozenset[str] | None) -> bool:
    """Whether the one-word common noun `tok` is a term: a bare plural that is no generic noun, the direct
    object of one of `verbs` (of software: provide, support, implement, ...), or with `verbs` None a member of
    a list of an owner's parts ("features such as type inference, gradual typing, generics"; module
    docstring)."""
    if verbs is not None:
        verb = tok
        while verb.dep_ == "conj" and verb.head.i < verb.i and not verb.head.tag_.startswith("VB"):
            verb = verb.head  # "provides cryptographic recipes and primitives"
        head = verb.head if verb.dep_ in ("dobj", "conj") else None  # (a conjunct the parser hung on the verb)
        if head is None or not head.tag_.startswith("VB") or lemma(head) not in verbs:
            return False
    low = lemma(tok)
    if tok.tag_ != "NNS" or low == tok.lower_ or not tok.is_lower or not tok.is_alpha or len(low) < 3 or (
            low in VAGUE_NOUNS or low in GENERIC_NOUNS or tok.lower_ in GENERIC_NOUNS):
        return False
    # "the translations", "all the chunks", "3 classes", "many options", "its callbacks": things the text
    # refers to or counts, not a class of things
    return not any(c.dep_ in ("det", "predet", "nummod", "poss") or c.lower_ in _QUANTITIES for c in tok.children)


# A placeholder alone in angle brackets (`<LANG>`, `<target>`): it stands for a value, it names no instance.
_BARE_PLACEHOLDER = re.compile(r"^<[A-Za-z][\w-]*>$")


def code_names_kind(args: TechArgs, ours: list[Triple], code: Token) -> None:
    """ "the ``wheel`` command line tool", "a ``h11.ProtocolError`` exception": code written right before a
    common noun phrase that is no kind of code structure is an instance of that kind (module docstring)."""
    head = code.head
    while head.dep_ == "compound" and head.head.i > head.i and head.head.tag_ in NOUN_TAGS:
        head = head.head  # "``wheel`` command line tool": the code hangs on the first noun of the phrase
    if code.dep_ not in ("compound", "nmod", "amod") or head.i <= code.i or head.tag_ not in NOUN_TAGS or (
            head.i in args.code_tokens) or not head.is_lower:
        return
    if head.tag_ == "NNS" and _verb_after_code(head):
        return  # "the `setup.py` script checks whether ...", "`@playwright/test` exports an empty ...": a verb
    if code.i + 1 < len(args.doc) and is_hyphen(args.doc[code.i + 1]) and not code.whitespace_:
        return  # "``zic``-compiled binaries": the code is a piece of a modifier, not the thing named
    if _BARE_PLACEHOLDER.match(code.text):
        return  # "the ``<LANG>`` compiler", "the same ``<target>``": a placeholder is a value the noun is for
    start = code.i + 1
    if start < head.i and args.doc[start].lower_ == "example":
        start += 1  # "the `CountsClicks` example story": one of the stories
    words = args.doc[start:head.i + 1]
    if any(t.i in args.code_tokens or not (t.is_lower or is_hyphen(t)) or (
            t.i != head.i and t.head.i not in range(start, head.i + 1)) for t in words):
        return  # another piece of code, a name or a word of another phrase between them
    if start == head.i and args.lemma(head) in args.kinds:
        return  # "the `--attach` flag", "the `node:net` module": the code itself, nothing more
    if head.tag_ != "NNS" and not any(c.dep_ == "det" for c in head.children):
        return  # "The speed of `zlib` compression": what the code does, not a kind it is one of
    low = args.lemma(head)
    if low in VAGUE_NOUNS or low in _COLLECTIVE or low in _RELATIONAL or (start == head.i and low in GENERIC_NOUNS):
        # (code before a collective noun is one of the members: "the `shell` option set"; before a relational
        # noun it is what the noun is relative to: "a particular `Agent` subclass", "`'uncaughtException'`
        # listeners", "the `make` targets")
        return
    subject = args.resolve(code, "subject")
    if subject is None or subject.label == CONCEPT:
        return
    # Words as written (a hyphen glued to its neighbours), the head in its singular ("data" stays data).
    name = "".join(t.lower_ + t.whitespace_ for t in words[:-1]) + (head.lower_ if head.lower_.endswith("a") else low)
    if related(ours, subject.name, name) or name == subject.name:
        return
    kind = args._new(name, args.concept_class, CONCEPT, start, head.i + 1)
    ours.append(Triple(subject, "isA", kind))


# Auxiliaries of what may or should happen: "listener functions can switch to an asynchronous mode" is a
# possibility the manual allows, not a fact about the term.
_MODALS = frozenset({"can", "could", "may", "might", "should", "would", "must", "ca"})
# Verbs that link a subject to a state, not to a thing: "Text deltas remain available through `recv`".
_LINKING = frozenset({"remain", "become", "stay", "seem", "appear", "look", "sound", "get", "keep", "turn"})
# A term's or name's words: letters and digits, joined by spaces, hyphens, dots, slashes or underscores.
_WORDS = re.compile(r"^[\w.+/-]+(?: [\w.+/-]+)*$")


def stated_between_terms(verb: Token, subject: Mention, obj: Mention, lemma: Callable[[Token], str]) -> bool:
    """Whether the active clause of `verb`, whose subject is a term of two words or more ("The bind command",
    "Build environments", "A future release"), states a fact towards `obj`: a main clause or a relative one
    ("the remote host that connected to the SOCKS proxy"), not a condition or time ("If a Node.js API
    abstraction creates ...", "when a Node.js API creates ...", even where the parser made it the root), with
    no modal ("can switch to"), a verb that relates rather than links ("remain available through"), and an
    object that is code, a name or a term of two words or more ("tells the SOCKS proxy server", "will compare
    `inputs`"), never one bare noun. The subject is its whole noun phrase: a modifier the term left out
    ("Finalized output items", "Modern Web browsers") restricts what the clause is about, and the term without
    it claims more than the text. Not a caption's participle ("Spacy model uploaded to PyPi"), an object before
    the verb (a fronted "In strict assertion mode, ..."), a label or image text before a paragraph or a colon,
    nor ends that are no words (table cells, badges)."""
    clause = verb.head if verb.dep_ == "conj" and verb.head.tag_.startswith("VB") else verb
    if clause.dep_ not in ("ROOT", "relcl") or lemma(verb) in _LINKING or any(
            c.dep_ == "mark" for c in clause.children):
        return False  # (the parser makes "If the test function receives ..." the root, "If" its mark)
    if any(c.dep_ == "aux" and c.lower_ in _MODALS for t in (verb, clause) for c in t.children):
        return False
    if verb.tag_ == "VBN" and not any(c.dep_ in ("aux", "auxpass") for c in verb.children):
        return False  # "Spacy model uploaded to PyPi.": a caption's participle, passive in meaning
    if 0 <= obj.start < verb.i:
        return False  # "In strict assertion mode, error messages ... display a diff": a fronted circumstance
    if subject.start >= 0 and subject.start < verb.i and ("\n\n" in verb.doc[subject.start:verb.i].text or any(
            t.text == ":" for t in verb.doc[subject.start:verb.i])):
        return False  # "fpdf2 logo\n\n`fpdf2` is ...", "Official Integration: Directly integrates ...": a label
    if not all(_WORDS.match(m.name) for m in (subject, obj)):
        return False  # "| second", "📚 draft", "Graph, Document, Key/Value": table cells, badges, a list run together
    if subject.start < 0 or any(c.i < subject.start and c.dep_ not in ("det", "predet", "punct")
                                for c in verb.doc[subject.end - 1].lefts):
        return False
    return obj.label != CONCEPT or len(obj.name.split()) > 1


def shared_agent(verb: Token) -> list[Token]:
    """The "by" of a later passive participle joined to `verb` ("is maintained, enhanced, and distributed by the
    Tcl community": the parser hangs it on "distributed" alone), when `verb` is a participle with no preposition
    of its own ("is created in Python and maintained by ..." keeps its "in" to itself)."""
    if verb.tag_ != "VBN" or any(c.dep_ in ("prep", "agent", "dobj") for c in verb.children):
        return []
    later = [c for c in verb.conjuncts if c.i > verb.i and c.tag_ == "VBN"]
    if not later:
        return []
    return [c for c in later[-1].children if c.dep_ == "agent"]


def done_by_term(verb: Token, subject_named: bool, lemma: Callable[[Token], str]) -> bool:
    """Whether a passive clause states what a term does to a name: its grammatical subject is code, software or
    a name (`subject_named`), the doer is the term of a "by" ("Tk is maintained ... by the Tcl community" ->
    (Tcl community, maintain, Tk)), as "The Tcl community maintains Tk" would be read. Not with a modal ("can be
    called by multiple threads" is a possibility), not a linking verb, not through "from" ("is imported from the
    standard library" names a source, not a doer)."""
    if not subject_named or lemma(verb) in _LINKING:
        return False
    clause = verb
    while clause.dep_ == "conj" and clause.head.tag_.startswith("VB"):
        clause = clause.head
    if any(c.dep_ == "aux" and c.lower_ in _MODALS for t in (verb, clause) for c in t.children):
        return False
    return any(c.dep_ == "agent" for c in verb.children) or bool(shared_agent(verb))


# What follows a third-person verb the tagger read as a plural noun after code: its object or clause
# ("exports an empty ...", "checks whether ..."), or the clause's end ("before `playwright-cli` runs:").
_AFTER_VERB_TAGS = frozenset({"DT", "PRP", "PRP$", "WDT", "WP", "WRB"})
# ("most", "many": a quantity opens the verb's object, "Encode::Byte implements most single-byte encodings")
_AFTER_VERB_OPENERS = frozenset({"whether", "if", "that", "most", "many", "several"})
_CLAUSE_ENDS = frozenset({".", ":", ";", "!", "?"})


def _verb_after_code(head: Token) -> bool:
    """Whether the plural noun `head`, right after code, reads as the code's verb: no determiner of its own
    and followed by what follows a verb."""
    after = head.doc[head.i + 1] if head.i + 1 < len(head.doc) else None
    if after is not None and (after.tag_ in _AFTER_VERB_TAGS or after.lower_ in _AFTER_VERB_OPENERS):
        return True
    # At a clause's end only without a determiner: "the `XDG_*` environment variables." is a noun phrase.
    return not any(c.dep_ == "det" for c in head.children) and (after is None or after.lower_ in _CLAUSE_ENDS)


__all__ = ["GENERIC_NOUNS", "code_names_kind", "done_by_term", "shared_agent", "single_noun_term",
           "stated_between_terms"]


# Nouns that say how, not what, after a copula ("is an example of such a server", "is a way to ...", "is a good
# idea"): "X is a <one of these>" classes X under nothing. Lemmas.
_NO_KIND = frozenset({
    "example", "way", "thing", "one", "kind", "sort", "type", "form", "part", "piece", "lot", "bit", "number",
    "case", "matter", "idea", "question", "problem", "answer", "result", "list", "set", "mean", "means", "reason",
    "need", "issue", "good", "choice", "option", "alternative", "subset", "superset", "copy", "instance", "member",
    "shorthand", "synonym", "alias", "abbreviation", "variant", "version", "mistake", "error", "bug", "feature",
    "difference", "exception", "rule", "requirement", "must", "plus", "minus", "no",
})
# Verbs by which a clause between two terms states what one term is made of or holds, and their predicates.
_MADE_OF = {"consist": "consistsOf", "contain": "contains", "comprise": "consistsOf"}


def defined_between_terms(args: TechArgs, ours: list[Triple]) -> None:
    """ "A simple expression is just a constant", "Lower case letters are variable names", "a range expression
    consists of two characters separated by a hyphen", "a region of text that contains folds": a clause that
    says what a class of things is, or what it is made of, between two common-noun terms. Both ends become
    Concept terms only through the triple (`args._new`: a term no clause relates is never an entity).

    The subject names a class, not a thing the text has in mind: a singular after "a"/"an" or a bare plural
    ("The output is an allocated value" is about one output); so does a copula's noun: "a"/"an" or a bare plural
    ("the native character order" says which one), never a noun of manner (`_NO_KIND`: "is an example of", "is a
    way to") nor one with an "of" of its own ("a subset of", "an example of": what it is relative to). The clause
    is a main one (or, for "contain"/"consist of", a relative one on its subject), with no negation, no modal and
    no condition; neither end is code or a name (those have rules of their own), nor a vague or generic noun
    alone ("contains information")."""
    for verb in args.doc:
        lemma = args.lemma(verb)
        made_of = _MADE_OF.get(lemma)
        if not verb.tag_.startswith("VB") or (lemma != "be" and made_of is None):
            continue
        if verb.dep_ != "ROOT" and not (made_of is not None and verb.dep_ == "relcl"):
            continue
        if not stated_plainly(verb):
            continue
        subject_tok = next((c for c in verb.children if c.dep_ == "nsubj"), None)
        if subject_tok is not None and verb.dep_ == "relcl" and subject_tok.tag_ == "WDT":
            subject_tok = verb.head  # "a region of text that contains folds"
        if lemma == "be":
            obj_tok = next((c for c in verb.children if c.dep_ == "attr"), None)
        elif lemma == "consist":
            obj_tok = next((p for c in verb.children if c.dep_ == "prep" and c.lower_ == "of"
                            for p in c.children if p.dep_ == "pobj"), None)
        else:
            obj_tok = next((c for c in verb.children if c.dep_ == "dobj"), None)
        if subject_tok is None or obj_tok is None or not (_class_noun(args, subject_tok, counted=False) and (
                _class_noun(args, obj_tok, counted=made_of is not None))):
            continue
        if made_of is None and not names_a_kind(args, obj_tok):
            continue
        if subject_tok.tag_ == "NNS" and verb.tag_ == "VBZ":
            continue  # "Requests is a simple, yet elegant, HTTP library": a singular verb says the plural is a name
        if args.lemma(subject_tok) in GENERIC_NOUNS and not any(
                c.dep_ in ("compound", "amod") for c in subject_tok.children):
            continue  # "An object which contains arrays of sockets": a generic noun alone is no term
        first, second = _whole_phrase(args, subject_tok, verb), args.phrase(obj_tok)
        if first is None or second is None or first[1].lower() == second[1].lower() or not (
                _WORDS.match(first[1]) and _WORDS.match(second[1])):
            continue
        subject = args._new(first[1], args.concept_class, CONCEPT, first[0], first[2])
        obj = args._new(second[1], args.concept_class, CONCEPT, second[0], obj_tok.i + 1)
        if not related(ours, subject.name, obj.name):
            ours.append(Triple(subject, made_of or "isA", obj))


# Generic nouns that are still kinds after a copula ("is a file that ...", "is a program"): what a definition
# classes its term under.
_KIND_NOUNS = frozenset({"file", "program", "tool", "library", "module", "package", "function", "method",
                         "application", "code", "character", "line", "text", "document", "message", "option",
                         "parameter", "argument", "variable", "value", "list", "key", "name", "number"})
# Generic nouns that are no kind a term can be of (one set, not rebuilt per clause).
_GENERIC_NOT_KIND = GENERIC_NOUNS - _KIND_NOUNS


def stated_plainly(verb: Token) -> bool:
    """A clause that states what it says: no negation, no modal ("must be a subclass of" is a requirement), no
    condition or subordinating word ("if", "because")."""
    return not any(c.dep_ in ("neg", "mark") or (c.dep_ == "aux" and c.lower_ in _MODALS) for c in verb.children)


def names_a_kind(args: TechArgs, tok: Token) -> bool:
    """Whether a copula's noun names a kind its subject is of: not a noun of manner or relation (`_NO_KIND`: "an
    example of", "a way to", "a subset of", "an error"), none with an "of", "for" or "to" of its own (what it is
    relative to), no generic noun that is no kind (`_GENERIC_NOT_KIND`), nothing under three letters."""
    lemma = args.lemma(tok)
    return len(tok.lower_) >= 3 and lemma not in _NO_KIND and lemma not in _GENERIC_NOT_KIND and not any(
        c.dep_ == "prep" and c.lower_ in ("of", "for", "to") for c in tok.children)


def _class_noun(args: TechArgs, tok: Token, counted: bool) -> bool:
    """A common noun that names a class of things: a singular after "a"/"an", or a plural with no determiner,
    quantity or possessive (with `counted`, a number is allowed: "consists of two characters"); not code, not a
    name the chunk found, not a vague noun, not a pronoun."""
    if tok.tag_ not in ("NN", "NNS") or tok.i in args.code_tokens or not tok.is_alpha or (
            args.lemma(tok) in VAGUE_NOUNS):
        return False
    named = args.by_token.get(tok.i)
    if named is not None and named.label != CONCEPT:
        return False
    dets = [c for c in tok.children if c.dep_ in ("det", "predet", "poss", "nummod") or c.lower_ in _QUANTITIES]
    if tok.tag_ == "NN":
        return len(dets) == 1 and dets[0].lower_ in ("a", "an")
    return not dets or (counted and all(c.dep_ == "nummod" for c in dets))


def _whole_phrase(args: TechArgs, tok: Token, verb: Token) -> tuple[int, str, int] | None:
    """The subject's whole noun phrase (start, name, end): its modifiers before it, and an "of" with a bare noun
    after it ("a region of text that contains folds" -> "region of text"). A subject with any other words after
    it ("Bases greater than 16 are an extension", "Files created by `tar` are ...") is more than the term the
    phrase names, so the clause is not about the term alone: None."""
    found = args.phrase(tok)
    if found is None:
        return None
    name, end = found[1], tok.i + 1
    for c in tok.rights:
        if c is verb or c.dep_ == "punct":
            continue
        of_prep = c.dep_ == "prep" and c.lower_ == "of"
        pobj = next((p for p in c.children if p.dep_ == "pobj"), None) if of_prep else None
        if pobj is None or pobj.tag_ not in ("NN", "NNS") or name != found[1] or any(
                x.dep_ in ("det", "poss", "prep") for x in pobj.children):
            return None
        of = args.phrase(pobj)
        if of is None or of[0] != pobj.i:
            return None
        name, end = f"{found[1]} of {pobj.lower_}", pobj.i + 1
    return found[0], name, end
