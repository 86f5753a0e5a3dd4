"""Relations in technical prose: what code, software and technical terms do to each other.

The general clause rules (`clauses`) want a named subject and object, and they drop a clause with a
modal as hedged. A manual states its facts differently: its subjects are code (`net.createServer()`),
lower-case software (`python-dotenv`), "this object" (the class its section documents), "it" (the
thing the paragraph is about) and terms ("a Unix domain socket"); its modals state what a thing does
("`net.createServer()` may create a Unix domain socket", "the server can emit"). This pass reads every
clause of a technical chunk once more with those arguments and maps the verbs of software to the
`software` schema's predicates ("extends", "implements", "dependsOn", "definedIn", "replaces",
"returns", "partOf", "instanceOf"); other verbs keep their lemma, as the general rules do.

Precision over recall, as everywhere: a triple needs both ends to be code, a named thing, a software
name or a term of at least two words; a negated clause says nothing; light verbs ("have", "see",
"note") say nothing. A pair the general rules already related keeps their triple, named with this
pass's predicate when it maps the verb to one of software's.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from kgbuild.extract.arguments import _expletive as expletive
from kgbuild.extract.arguments import is_hyphen
from kgbuild.extract.code_text import (
    CODE_KINDS,
    CODE_TOKENS,
    TechnicalPass,
    code_name,
    is_identifier,
    is_value,
    not_a_term,
    numbered_rule,
    section_topic,
    several_code_spans,
    software_shaped,
)
from kgbuild.extract.facts import CONCEPT, PROPN, Facts, Mention, Triple, related, used_mentions
from kgbuild.extract.software_names import heading_names
from kgbuild.extract.tech_containers import code_containers
from kgbuild.extract.tech_members import listed, qualified_members
from kgbuild.extract.term_ends import (
    code_names_kind,
    defined_between_terms,
    done_by_term,
    names_a_kind,
    shared_agent,
    single_noun_term,
    stated_between_terms,
    stated_plainly,
)
from kgbuild.extract.vocab import NOUN_TAGS, PROPER_TAGS, REL_PRONOUNS, STOP_ADJECTIVES, VAGUE_NOUNS

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span, Token

# Verbs of software (lemma, or "lemma preposition") -> the predicate (the `software` schema's names and
# their aliases, so a software project's validation canonicalises them).
VERB_PREDICATES: dict[str, str] = {
    "implement": "implements", "support": "supports", "provide": "provides", "expose": "provides",
    "depend on": "dependsOn", "rely on": "dependsOn", "require": "requires", "need": "requires", "use": "uses",
    "extend": "extends", "inherit from": "extends", "subclass": "extends", "derive from": "extends",
    "replace": "replaces", "supersede": "replaces", "deprecate": "deprecates", "obsolete": "replaces",
    "return": "returns", "define in": "definedIn", "declare in": "definedIn", "specify in": "definedIn",
    "document in": "documentedIn", "belong to": "partOf", "emit": "emits", "call": "calls", "invoke": "calls",
    "create": "creates", "throw": "throws", "raise": "raises", "accept": "accepts", "wrap": "wraps",
    "alias": "aliases", "manage": "manages", "run on": "runsOn", "write in": "writtenIn",
    "implement in": "writtenIn", "develop by": "developedBy", "maintain by": "developedBy",
}
# Lemmas the lemmatizer gets wrong for software's verbs ("aliases" -> "aliase").
_LEMMA_FIXES = {"aliase": "alias", "instal": "install"}
# Passive verbs whose "by"/"from" names the doer: "returned from `http.request()`" -> (http.request(),
# returns, X); "replaced by Y" -> (Y, replaces, X).
_DOER_PREPS = frozenset({"by", "from"})
# Passive verb + preposition that keeps the subject as the subject: "X is defined in Y".
_SUBJECT_KEEPING = frozenset({"define in", "declare in", "specify in", "document in", "write in", "implement in",
                              "run on", "base on", "include in", "contain in", "store in", "list in"})
# Prepositions of a passive that say where or what for, the subject staying the subject.
_PLACE_PREPS = frozenset({"in", "into", "to", "at", "for", "on", "under", "via", "within"})
# Verbs whose "to"/"on" names a value given to the subject.
_ASSIGNING = frozenset({"set", "change", "default", "initialize", "initialise", "assign", "reset", "move"})
# Verbs that say too little to relate two things on their own.
_LIGHT = frozenset({"be", "have", "do", "get", "make", "see", "note", "let", "go", "come", "give", "take",
                    "become", "seem", "say", "mean", "want", "try", "allow", "happen", "know", "show", "refer",
                    "consider", "find", "keep", "work", "like", "apply"})
# "X is an instance of Y", "X is part of Y": the noun after the copula names the relation.
NOUN_PREDICATES: dict[str, str] = {
    "instance": "instanceOf", "object": "instanceOf", "part": "partOf", "member": "partOf",
    "subclass": "extends", "extension": "extends", "alias": "aliasOf", "wrapper": "wraps",
    "implementation": "implements", "replacement": "replaces", "successor": "replaces",
    "dependency": "dependencyOf", "component": "partOf", "method": "partOf", "property": "partOf",
    "port": "portOf", "fork": "forkOf", "reimplementation": "implements", "binding": "bindsTo",
}
# Adjectives that make a phrase a description, not a term: "the available space", "a single slash",
# "equivalent functionality", "its original behavior" (with vocab's STOP_ADJECTIVES: "same", "other").
_VAGUE_ADJECTIVES = STOP_ADJECTIVES | frozenset(
    {"available", "special", "original", "equivalent", "single", "similar", "regular", "specific", "additional",
     "possible", "actual", "given", "appropriate", "simple", "common", "general", "particular", "necessary",
     "useful", "important", "good", "better", "best", "correct", "proper", "normal", "usual", "typical", "little",
     "small", "large", "big", "long", "short", "high", "low", "real", "whole", "full", "exact", "respective",
     "corresponding", "related", "relevant", "separate", "individual", "extra", "optional", "explicit",
     "maximum", "minimum", "default", "initial", "specified", "provided", "supplied", "desired", "certain"})
# Heads of terms that name a part of software ("Mypy has a powerful type system", "Node.js has two module
# systems"); "has minimal framework overhead", "has seen widespread adoption" name no part.
_PART_HEADS = frozenset({"system", "engine", "api", "interface", "module", "component", "feature", "plugin",
                         "extension", "parser", "cache", "scheduler", "runtime", "library", "backend", "frontend",
                         "cli", "server", "client", "registry", "loop", "pool", "queue", "store", "database",
                         "compiler", "interpreter"})
# Adjectives of praise a README puts before its terms ("a powerful type system", "a fast JSON parser"): left
# out of the term's name.
_PRAISE = frozenset({"powerful", "fast", "faster", "reliable", "portable", "efficient", "robust", "easy", "lightweight",
                     "flexible", "modern", "great", "seamless", "convenient", "comprehensive", "elegant", "intuitive",
                     "blazing", "performant", "scalable", "friendly", "nice", "awesome", "rich", "clean",
                     "capable", "complete", "extensive"})
# Vague nouns that name a feature once a noun says of what ("Unicode support", "file access").
_FEATURE_NOUNS = frozenset({"support", "access"})
# Nouns for a part or form of a thing: "implements a subset of the `EventEmitter` API" implements it.
_PARTITIVE = frozenset({"subset", "superset", "part", "portion", "version", "variant", "flavor", "flavour",
                        "dialect", "extension"})
# What a numbered rule's page calls the rule (`TechArgs._topic_as`).
_RULE_KINDS = frozenset({"policy", "rule", "check", "warning", "diagnostic", "proposal", "advisory"})
# What parts a README's title from its tagline: "Rich: a library for ...", "httpx -- a client", "X — Y".
_TITLE_SEPARATOR = re.compile(r"\s*(?::|\s--?\s|\s—\s)\s*")
# A release number: "3.2", "3.25.1", "v2.0", "45" (after "version" only, `TechArgs._versioned`).
_RELEASE = re.compile(r"^v?\d+(?:\.\d+)*[a-z]?$")
# Capitalised words a number follows that name a part of a document or a procedure, not a program.
_NUMBERED_PARTS = frozenset({"section", "chapter", "figure", "table", "part", "appendix", "step", "page", "rule",
                             "example", "listing", "equation", "item", "note", "level", "phase", "stage", "volume"})
# Heads of phrases that say how, not what: "in a synchronous manner", "in a similar fashion".
_VAGUE_HEADS = frozenset({"manner", "fashion", "way", "sense", "respect", "regard", "extent", "degree"})
# Prepositions that compare or exclude rather than relate: "Unlike Unix domain sockets, Windows will
# close ...", "benchmarks as the fastest library" (a role, not a second thing).
_NOT_RELATING_PREPS = frozenset({"unlike", "like", "despite", "except", "besides", "without", "than", "as",
                                 "including", "regardless", "unless", "instead"})
# Prepositions whose named thing is what a clause with a term object is about: its source or goal ("reads
# key-value pairs from a `.env` file", "writes the data to `stdout`").
_SOURCE_GOAL = frozenset({"from", "to", "into", "of"})
# Prepositions of a direct object that name the thing a clause is about ("reads pairs from X").
_OBJECT_NOUN_PREPS = frozenset({"from", "of", "for", "to", "in", "into", "on"})
# "This ensures ..." after a sentence stands for what the sentence says, not for a thing: only "it".
_THING_PRONOUNS = frozenset({"it", "its"})
_OBJECT_PRONOUNS = frozenset({"it", "them"})
_SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass"})
# Kinds of code structure a name can stand before ("the Console object"): not "program", "library", "file".
_STRUCTURE_KINDS = frozenset({"object", "class", "module", "method", "function", "property", "event", "interface",
                              "type", "struct", "enum", "attribute", "field", "option", "constant", "variable",
                              "parameter", "argument", "callback", "hook", "header", "flag", "instance"})
# Nouns a README uses for itself ("This library contains ...", "This project is intended to provide ...").
_SELF_KINDS = frozenset({"library", "package", "project", "module", "framework", "tool", "plugin", "extension"})
# Who a manual tells to do things: "allows users to specify ..." is the users' doing, not the code's.
_PEOPLE = frozenset({"users", "user", "you", "them", "us", "callers", "caller", "applications", "developers"})
# Clauses inside a sentence whose "it" is the thing just named ("..., as it allows", "so that it fits").
_SUBORDINATE = frozenset({"advcl", "ccomp", "relcl", "acl"})
# Marks of a clause of time or condition that may open a sentence (`TechArgs._leading_clause_subject`).
_LEADING_MARKS = frozenset({"when", "if", "once", "after", "whenever", "unless"})


@dataclass
class TechArgs:
    """How one technical chunk's tokens resolve to arguments (built by `technical_relations`)."""

    doc: Doc
    lemma: Callable[[Token], str]
    mentions: list[Mention]
    code_tokens: frozenset[int]
    code_class: str | None
    concept_class: str
    software_class: str
    is_word: Callable[[str], bool]  # an English word (`code_text.WordTables.known`)
    kinds: frozenset[str]  # nouns for what code is ("module", "object", "method"), with `_MORE_KINDS`
    topic: Mention | None  # the code the section's heading names ("Class: `net.Server`")
    programs: frozenset[str] = frozenset()  # English words the chunk writes as programs (`software_words`)
    heading_words: frozenset[str] = frozenset()  # the words of the heading path (`software_names.heading_names`)
    section: Sequence[str] = ()  # the heading path
    by_token: dict[int, Mention] = field(default_factory=dict)
    added: list[Mention] = field(default_factory=list)
    last_subject: Mention | None = None

    def __post_init__(self) -> None:
        for m in self.mentions:
            if m.start >= 0 and not m.is_date and not several_code_spans(m, self.code_tokens):
                for i in range(m.start, m.end):
                    self.by_token.setdefault(i, m)

    @property
    def described(self) -> Mention | None:
        """The heading's code as what "it" and a sentence opening with its verb describe. Not a numbered rule's
        ("CMP0055"): its page says "it" of CMake, of a project or of the command the rule is about, and names
        the rule itself as "this policy" (`_topic_as`)."""
        return None if self.topic is None or numbered_rule(self.topic.name) else self.topic

    def is_code(self, mention: Mention) -> bool:
        """Inline code, or the code the section's heading names."""
        return mention is self.topic or (mention.start >= 0 and any(
            i in self.code_tokens for i in range(mention.start, mention.end)))

    def _new(self, name: str, spg_class: str, label: str, start: int, end: int) -> Mention:
        mention = Mention(name, spg_class, label, start, end, class_fixed=label != CONCEPT)
        for i in range(start, end):
            self.by_token[i] = mention
        self.added.append(mention)
        return mention

    def resolve(self, tok: Token, role: str, subject: Mention | None = None) -> Mention | None:
        """The argument `tok` stands for (None: nothing a triple may hold)."""
        if tok.i in self.code_tokens:
            found = self.by_token.get(tok.i)
            if found is not None and found.label != CONCEPT:
                return found
            name = code_name(tok.text)
            if self.code_class is None or not is_identifier(name):
                return None  # a literal (`true`, `0`) is no thing a relation holds
            return self._new(name, self.code_class, PROPN, tok.i, tok.i + 1)
        versioned = self._versioned(tok)
        if versioned is not None:
            return versioned
        found = self.by_token.get(tok.i)
        if found is not None and found.label != CONCEPT and self._common_modifiers(tok, found):
            # "capable extension API": the NER named the head word alone; common nouns before it make the
            # phrase a term of its own (the API of extensions, not an organisation "API").
            term = self._term(tok, role)
            if term is not None:
                return term
        if found is not None and found.label != CONCEPT:
            if found.start == tok.i and found.end == tok.i + 1 and self.lemma(tok) in self.kinds and [
                    c.lower_ for c in tok.children if c.dep_ == "det"] == ["this"]:
                # "this API is designed for ...": the code the chunk is about, not the generic word `API`.
                return self._code_kind(tok) or found
            return found
        low = tok.lower_
        if low == "this" and tok.dep_ == "nsubj" and self.lemma(tok.head) == "be" and any(
                c.dep_ == "attr" and self.lemma(c) in _SELF_KINDS for c in tok.head.children):
            # "This is a Python package containing ..." opening a README: the README's subject, named by its title.
            return self.title()
        if tok.tag_ in ("PRP", "DT") and low in _THING_PRONOUNS | _OBJECT_PRONOUNS:
            if tok.dep_ in _SUBJECT_DEPS:
                if expletive(tok):
                    return None
                if tok.head.dep_ in _SUBORDINATE and any(
                        t.tag_ in NOUN_TAGS or t.tag_ in PROPER_TAGS for t in self.doc[tok.sent.start:tok.i]):
                    # "the `querystring` module is more general, as it allows ...": a subordinate clause's
                    # "it" is the thing just named, not the paragraph's subject.
                    return self._nearest_noun(tok, subject)
                return self._leading_clause_subject(tok) or self.last_subject or self.described
            return self._nearest_noun(tok, subject)
        if tok.tag_ not in NOUN_TAGS and tok.tag_ not in PROPER_TAGS and not (
                tok.tag_ == "VBZ" and tok.dep_ in ("conj", "nsubj", "dobj", "pobj") and any(
                    c.dep_ == "compound" and c.i in self.code_tokens for c in tok.children)):
            return None  # (a verb's form after code is a noun: "`recv()` and `recv_bytes()` calls report ...")
        kind = self._code_kind(tok)
        if kind is not None:
            return kind
        software = self._software(tok)
        if software is not None:
            return software
        if not tok.ent_type_ and tok.text[:1].isupper() and (software_shaped(tok.text, technical=True) or (
                tok.text in self.heading_words and not self.is_word(tok.lower_) and not tok.is_sent_start)):
            # "PyYAML is written in Python": a name shaped as software the NER did not see; "Vite analyzes it"
            # under "Worked example (React + Vite SPA)": a name the heading writes too.
            return self._new(tok.text, self.software_class, PROPN, tok.i, tok.i + 1)
        return self._term(tok, role)

    def _versioned(self, tok: Token) -> Mention | None:
        """ "introduced in CMake version 3.2", "CMake 3.17 and later prefer ...": a program's name with its release
        number is that release, one entity (the parser hangs the number on "version" or on the name, and the NER
        cuts the name alone or reads it as a place or date). A bare integer only after the word "version"
        ("Figure 3", "Step 2" are no releases); never a structure word's number ("Section 4.2")."""
        doc = self.doc
        if tok.i in self.code_tokens or tok.i + 1 >= len(doc):
            return None
        number = doc[tok.i + 1]
        if number.dep_ != "nummod" or number.head.i != tok.i or not _RELEASE.match(number.text) or (
                tok.lower_ != "version" and "." not in number.text):
            return None
        start = tok.i if tok.lower_ != "version" else tok.i - 1
        if start < 0 or (start != tok.i and doc[start].head.i != tok.i):
            return None
        while start > 0 and doc[start - 1].dep_ == "compound" and doc[start - 1].head.i in range(start, tok.i + 1) and (
                doc[start - 1].tag_ in PROPER_TAGS):
            start -= 1  # "Visual Studio 17.2"
        name = doc[start]
        if name.i in self.code_tokens or name.tag_ not in PROPER_TAGS or not name.text[:1].isupper() or (
                name.lower_ in _NUMBERED_PARTS):
            return None
        found = next((m for m in self.added if m.start == start and m.end == tok.i + 2), None)
        return found or self._new(doc[start:tok.i + 2].text, self.software_class, PROPN, start, tok.i + 2)

    def _leading_clause_subject(self, tok: Token) -> Mention | None:
        """ "When CMake detects such a compiler it sets this variable ...", "Once CTest has decided ..., it passes
        ...": "it" subject of a main clause that a "when"/"if"/"once" clause opens is that clause's subject, when
        a name or code is (a term there may be what the pronoun stands for or not: "When a socket closes, it ...")."""
        verb = tok.head
        for clause in (c for c in verb.children if c.dep_ == "advcl" and c.i < tok.i):
            if not any(m.dep_ == "mark" and m.lower_ in _LEADING_MARKS for m in clause.children) and not any(
                    a.dep_ == "advmod" and a.lower_ == "when" for a in clause.children):
                continue
            subject = next((c for c in clause.children if c.dep_ in _SUBJECT_DEPS), None)
            if subject is None or subject.tag_ in ("PRP", "DT", "WDT"):
                return None
            found = self.resolve(subject, "subject")
            return found if found is not None and found.label != CONCEPT and not found.is_date else None
        return None

    def _common_modifiers(self, tok: Token, found: Mention) -> bool:
        """`tok` is a one-word NER name with a common noun compounded right before it ("extension API",
        "pickle support"): the name is the head of a term, not a name. A proper noun before it ("Cloud API")
        or a name of several words ("Open Neural Network Exchange") stays the NER's."""
        if found.start != tok.i or found.end != tok.i + 1 or found.is_date or self.is_code(found):
            return False
        if tok.tag_ not in ("NN", "NNS") and not not_a_term(tok.text):
            return False  # "at midnight UTC": a proper name after a common noun is still the name
        left = self.doc[tok.i - 1] if tok.i > 0 else None
        return left is not None and left.head.i == tok.i and left.dep_ == "compound" and left.tag_ in (
            "NN", "NNS") and left.i not in self.code_tokens and left.i not in self.by_token and left.is_lower

    def _code_kind(self, tok: Token) -> Mention | None:
        """ "the `node:net` module" is the code; "this object", "the method" under a heading that is
        code ("Class: `http.ClientRequest`") is that code."""
        if self.lemma(tok) not in self.kinds:
            return None
        left = [c for c in tok.children if c.dep_ in ("compound", "amod", "nmod") and c.i == tok.i - 1]
        if left:
            if left[0].i in self.code_tokens:
                return self.resolve(left[0], "object")
            code = self._code_before_kind(tok)
            if code is not None:
                return code
            named = self.by_token.get(left[0].i)
            # "The Console object", "the Agent class": a name before a kind of code structure is that code
            # ("a Python program", "the Rust library" name a language, not the program or library).
            return named if named is not None and self.lemma(tok) in _STRUCTURE_KINDS and (
                named.label not in (CONCEPT, "PERSON", "NORP", "GPE", "LOC", "LANGUAGE")) and (
                named.end == tok.i) else None
        dets = [c.lower_ for c in tok.children if c.dep_ == "det"]
        if dets in (["this"], ["the"]) and not any(c.dep_ in ("amod", "prep", "acl", "relcl") for c in tok.children):
            return self._named_kind(tok) or self._topic_as(tok) or (self._titled(tok) if dets == ["this"] else None)
        return None

    def _topic_as(self, tok: Token) -> Mention | None:
        """The heading's code as what "this property", "the method" stands for. A numbered identifier in
        capitals ("CMP0055") titles an entry of a catalogue of rules: there "this policy" is it, while "This
        command was added ...", "the libraries" are the things the rule is about."""
        if self.topic is None or (numbered_rule(self.topic.name) and self.lemma(tok) not in _RULE_KINDS):
            return None
        return self.topic

    def _code_before_kind(self, tok: Token) -> Mention | None:
        """ "the `USERPROFILE` environment variable", "the `--as-needed` linker option": code before a kind
        of code named with a common noun is that code too (the kind itself, `term_ends.code_names_kind`)."""
        start = tok.i - 1
        while start > tok.i - 3 and start > 0 and self.doc[start].dep_ == "compound" and (
                self.doc[start].tag_ in NOUN_TAGS) and self.doc[start].is_lower and (
                self.doc[start].head.i in range(start + 1, tok.i + 1)) and start not in self.code_tokens:
            start -= 1
        code = self.doc[start]
        if start == tok.i - 1 or start not in self.code_tokens or code.head.i not in range(start + 1, tok.i + 1):
            return None
        return self.resolve(code, "object")

    def _titled(self, tok: Token) -> Mention | None:
        """ "This library contains ..." under "Mypyc runtime library", "This package" under "Certifi: Python SSL
        Certificates": a README speaks of itself, and its title (before a colon or dash) names it. Only "this" and
        a noun for a whole piece of software; a long title is a sentence, not a name."""
        if self.lemma(tok) not in _SELF_KINDS or not self.section:
            return None
        return self.title()

    def title(self) -> Mention | None:
        """The README's title as the name of what it documents (None: the title is a topic or a sentence)."""
        if not self.section:
            return None
        title = _TITLE_SEPARATOR.split(self.section[0].replace("`", ""))[0].strip()
        words = title.split()
        if not words or len(words) > 4 or (not any(c.isupper() or c.isdigit() for c in title) and all(
                self.is_word(w.lower()) for w in words) and not (len(words) == 1 and title.isalpha())):
            # "Installation", "usage notes": a topic, not a name; one word all in small letters ("packaging",
            # "wheel") is how a package's README titles it, the way no topic heading is written.
            return None
        found = next((m for m in self.added if m.name == title and m.start < 0), None)
        if found is None:
            found = Mention(title, self.software_class, PROPN, -1, -1, class_fixed=True)
            self.added.append(found)
        return found

    def _named_kind(self, tok: Token) -> Mention | None:
        """ "an `on_reconnecting` callback was supplied. The callback controls retry": "the callback" is the
        latest code the chunk wrote before the same kind noun (before the heading's code, which "the method"
        stands for only where the text named no method of its own)."""
        kind = self.lemma(tok)
        for near in reversed(self.doc[:tok.i]):
            if near.i == tok.i or near.tag_ not in NOUN_TAGS or self.lemma(near) != kind:
                continue
            code = [c for c in near.children if c.dep_ in ("compound", "amod", "nmod") and c.i == near.i - 1
                    and c.i in self.code_tokens]
            if code:
                return self.resolve(code[0], "object")
        return None

    def _software(self, tok: Token) -> Mention | None:
        """A lower-case name that is no English word, written without an article: "python-dotenv
        reads ...", "certifi", "orjson" (a program or package as its users type it)."""
        start, end = tok.i, tok.i + 1
        doc = self.doc
        while start > 0 and not doc[start - 1].whitespace_ and (is_hyphen(doc[start - 1]) or is_hyphen(doc[start])):
            start -= 1
        while end < len(doc) and not doc[end - 1].whitespace_ and (is_hyphen(doc[end]) or is_hyphen(doc[end - 1])):
            end += 1
        if any(t.i != tok.i and t.head.i not in range(start, end) for t in doc[start:end]):
            return None  # the pieces of one hyphenated word hang on each other
        words = [t.text for t in doc[start:end] if not is_hyphen(t)]
        if not words or any(not w.isalnum() or not w.islower() for w in words) or any(
                c.dep_ == "det" or (c.dep_ in ("amod", "compound", "nmod") and c.i < start) for c in tok.children) or (
                end - start == 1 and tok.is_stop):
            # ("Shell android apps": a common noun the lemma tables miss, with its modifiers, is no program's name)
            return None  # ("anything", "whatever": stop words the lemma tables do not list)
        if (all(self.is_word(w) for w in words) and "".join(words) not in self.programs) or len("".join(words)) < 3:
            return None
        name = doc[start:end].text
        return self._new(name, self.software_class, PROPN, start, end)

    def _term(self, tok: Token, role: str = "object") -> Mention | None:
        """A technical term of at least two words: "Unix domain socket", "connection persistence",
        "CA certificate store" (compounds and adjectives before a noun, names among them); of one word, a bare
        plural that a verb of software takes or a list of parts names ("provides utilities", `term_ends`)."""
        found = self.phrase(tok)
        if found is None:
            return None
        if found[0] == tok.i and not (
                (role == "object" and single_noun_term(tok, self.lemma, _OBJECT_VERBS)) or (
                    role == "member" and single_noun_term(tok, self.lemma, None))):
            return None
        if self.lemma(tok) in _VAGUE_HEADS or any(t.lower_ in _VAGUE_ADJECTIVES for t in self.doc[found[0]:tok.i]):
            return None  # "a single slash", "the available space": a description, not a term
        if role == "subject" and any(c.dep_ == "amod" and c.lower_ in _VAGUE_ADJECTIVES for c in tok.children):
            # "Many Python projects use ...", "Most asynchronous methods accept ...": a generalisation, not a
            # fact about the term; as an object, "catch many programming errors" names the term.
            return None
        return self._new(found[1], self.concept_class, CONCEPT, found[0], tok.i + 1)

    def phrase(self, tok: Token) -> tuple[int, str] | None:
        """Where the noun phrase of a common noun starts and its name (modifiers as written, the head in
        its singular), or None for a vague or relative one ("its pending write queue", "this socket")."""
        head = self.lemma(tok)
        if len(head) < 3 or not head.isalpha() or (head in VAGUE_NOUNS and not self._qualified_vague(tok)) or any(
                c.dep_ == "poss" or (c.dep_ == "det" and c.lower_ not in ("a", "an", "the")) for c in tok.children):
            return None
        doc = self.doc
        start = tok.i
        while start > 0:
            left = doc[start - 1]
            if left.head.i not in range(start, tok.i + 1) or left.i in self.code_tokens:
                break
            glued = not left.whitespace_ and is_hyphen(left)
            if glued or (left.dep_ == "compound" and (left.tag_ in NOUN_TAGS or left.tag_ in PROPER_TAGS)) or (
                    left.dep_ == "amod" and left.tag_ == "JJ" and left.lower_ not in STOP_ADJECTIVES | _PRAISE):
                start -= 1
            elif is_hyphen(doc[start]) and not left.whitespace_:
                start -= 1
            else:
                break
        while start < tok.i and is_hyphen(doc[start]):
            start += 1
        # Words as written ("Unix", "CA" keep their case), the head in its singular: one term per chunk.
        if head != tok.lower_ and tok.lower_.endswith("a"):
            head = tok.lower_  # "data" stays data, not "datum"
        if tok.is_upper and len(tok.text) > 1:
            head = tok.text  # "extension API": an acronym keeps its capitals
        name = "".join((t.text if t.tag_ in PROPER_TAGS or t.is_upper else t.lower_) + t.whitespace_
                       for t in doc[start:tok.i]) + head
        return start, name

    def _qualified_vague(self, tok: Token) -> bool:
        """ "Unicode support", "pickle support", "local file access": a vague noun (`support`, `access`) with
        a noun or name compounded before it names a feature of software; alone ("for support") it does not."""
        left = self.doc[tok.i - 1] if tok.i > 0 else None
        return self.lemma(tok) in _FEATURE_NOUNS and left is not None and left.head.i == tok.i and (
            left.dep_ == "compound") and (left.tag_ in NOUN_TAGS or left.tag_ in PROPER_TAGS)

    def _nearest_noun(self, tok: Token, subject: Mention | None) -> Mention | None:
        """A pronoun: the nearest noun or code before it, in its sentence or the one before, that is not its
        own clause's subject, when that noun is an argument ("`net.createServer()` may create a Unix domain
        socket and `server.close()` will unlink it": the socket). When the nearest noun is nothing a triple
        may hold ("If you log a collection (a dict or a list) Rich will pretty print it"), the pronoun is
        nothing either: an argument further back is not what "it" stands for."""
        sent = tok.sent
        floor = self.doc[sent.start - 1].sent.start if sent.start > 0 else 0
        plural = tok.lower_ == "them"
        for i in range(tok.i - 1, floor - 1, -1):
            near = self.doc[i]
            if subject is not None and self.by_token.get(i) is subject:
                continue
            if i not in self.code_tokens and not (near.tag_ in NOUN_TAGS or near.tag_ in PROPER_TAGS):
                continue
            if i not in self.code_tokens and (near.tag_ in ("NNS", "NNPS")) != plural:
                return None
            if i in self.code_tokens and plural and near.dep_ not in ("compound", "nmod", "amod"):
                continue  # "them" is no one piece of code ("until `writable.uncork()` is called, which will pass them")
            if near.dep_ == "compound" or near.dep_ == "poss":
                continue  # a modifier: its head noun, further on, was the candidate
            found = self.by_token.get(i)
            if found is None or found.label == CONCEPT:
                # (an antecedent, not an object: a one-word noun is no term through a pronoun, "enabled for them")
                found = self.resolve(near, "antecedent", subject)
            if found is None or found is subject or found.is_date or found.label in ("PERSON", "NORP"):
                return None
            return found
        return None


def add_technical_relations(doc: Doc, facts: Facts, section: Sequence[str], technical: TechnicalPass,
                            lemma: Callable[[Token], str]) -> None:
    """The relations a technical chunk states between code, software and terms, added to `facts`."""
    classes = technical.classes
    topic_name = section_topic(section)
    topic = None
    if topic_name is not None and classes.code is not None:
        topic = next((m for m in facts.mentions if m.name == topic_name), None) or Mention(
            topic_name, classes.code, PROPN, -1, -1, class_fixed=True)
    code_tokens = frozenset(doc.user_data.get(CODE_TOKENS, ()))
    args = TechArgs(doc=doc, lemma=lemma, mentions=facts.mentions, code_tokens=code_tokens, code_class=classes.code,
                    concept_class=classes.concept, software_class=classes.software or classes.concept,
                    is_word=technical.words.known, kinds=CODE_KINDS | _MORE_KINDS, topic=topic,
                    programs=software_words(doc, code_tokens), heading_words=heading_names(section),
                    section=section)
    technical_relations(args, facts)
    definitions(args, facts)
    publishers(facts)
    if topic is not None and topic not in facts.mentions and any(
            topic is t.subject or topic is t.object for t in facts.triples):
        facts.mentions.append(topic)


def software_words(doc: Doc, code_tokens: frozenset[int]) -> frozenset[str]:
    """English words a chunk shows to be programs: the first word of a command line in inline code (`git help
    tutorial`, `pip install rich`), and a lower-case word opening a sentence ("pip supports loading
    credentials ..."), which only a name written in lower case does. So "git", "pip" are software there."""
    out: set[str] = set()
    for i in code_tokens:
        words = doc[i].text.split()
        if len(words) > 1 and words[0].isalpha() and words[0].islower():
            out.add(words[0])
    for sent in doc.sents:
        first = sent[0]  # the very first token: "{string} Gets ..." opens with a type, not a name
        if first.i not in code_tokens and first.text.isalpha() and first.text.islower() and (
                first.dep_ in _SUBJECT_DEPS):
            out.add(first.text)
    for tok in doc:
        # "By default, pip will perform ...": a bare lower-case subject the tagger takes for a proper noun.
        bare = not any(c.dep_ in ("det", "poss", "compound", "amod") for c in tok.children)
        if tok.tag_ == "NNP" and tok.dep_ in _SUBJECT_DEPS and tok.i not in code_tokens and tok.text.isalpha() and (
                tok.text.islower()) and bare and (
                tok.i == 0 or doc[tok.i - 1].text != "{"):  # "{string}": a type in a manual's signature line
            out.add(tok.text)
    return frozenset(out)


# "the `getaddrinfo` call", "the `level` setting", "the `'close'` event": more nouns that stand for code.
_MORE_KINDS = frozenset({"call", "syscall", "value", "error", "code", "signal", "symbol", "script", "binding",
                         "implementation", "policy"})
def definitions(args: TechArgs, facts: Facts) -> None:
    """ "A socket buffer is a structure that holds ...": a term defined by "a/an X is a/an Y" is an
    entity of its own with Y as its type (concept linking then makes it belongTo Y).

    `term_ends.defined_between_terms` reads the same clause as a triple (X isA Y) between two terms. For this
    shape its reading is the stricter one, and its clause and kind tests win here too (`stated_plainly`,
    `names_a_kind`): on the whole technical corpus (all 7969 chunks of the documents `bench/technical_text.py`
    reads) and every technical gold set, this rule typed 10 terms, 8 in sentences that rule also read, and the 2
    it alone read were no kinds ("A custom controller must be a subclass of the `LibController` class": a
    requirement and a relation; "an ambiguous prefix is a one-line error": what it causes). Where both read a
    sentence, both are kept: the type is the term's own (with the sentence as its description), the triple is
    the relation between the two terms."""
    for sent in args.doc.sents:
        verb = sent.root
        if args.lemma(verb) != "be":
            continue
        subject = next((c for c in verb.children if c.dep_ == "nsubj" and c.tag_ == "NN"), None)
        attr = next((c for c in verb.children if c.dep_ == "attr" and c.tag_ == "NN"), None)
        if subject is None or attr is None or not (_indefinite(subject) and _indefinite(attr)):
            continue
        if not stated_plainly(verb) or not names_a_kind(args, attr):
            continue
        named = args.by_token.get(subject.i)
        if named is not None and named.label != CONCEPT:
            continue  # a name's definition is the general rules' (`nouns.copula`)
        term = args.resolve(subject, "subject")
        kind = args.phrase(attr)
        if term is None or term.label != CONCEPT or kind is None:
            continue
        term.add_type(kind[1], sent.text.strip())
        if term not in facts.mentions:
            facts.mentions.append(term)


def _indefinite(tok: Token) -> bool:
    return any(c.dep_ == "det" and c.lower_ in ("a", "an") for c in tok.children)


_PUBLISHED = frozenset({"standard", "specification", "recommendation", "spec"})


def publishers(facts: Facts) -> None:
    """ "the WHATWG Encoding Standard" with "WHATWG" named in the chunk too: the body in a standard's
    name published it."""
    by_name = {m.name: m for m in facts.mentions if not m.is_date and m.label != CONCEPT}
    joined = {frozenset((t.subject.name, t.object.name)) for t in facts.triples}
    for m in list(by_name.values()):
        words = m.name.split()
        if len(words) < 3 or words[-1].lower() not in _PUBLISHED:
            continue
        body = by_name.get(words[0])
        if body is not None and body is not m and frozenset((m.name, body.name)) not in joined:
            facts.triples.append(Triple(m, "developedBy", body))


_MAPPED = frozenset(VERB_PREDICATES.values()) | frozenset(NOUN_PREDICATES.values())


def technical_relations(args: TechArgs, facts: Facts) -> None:
    """Add the chunk's technical triples (and the mentions they need) to `facts`, in reading order.
    Where the general rules related the same two things in the same direction, a software predicate
    found here names their triple ("extend" -> extends, "alias for" -> aliasOf)."""
    general = {(t.subject.name, t.object.name): t for t in facts.triples}
    joined = {frozenset(pair) for pair in general}
    ours: list[Triple] = []
    for sent in args.doc.sents:
        for tok in sent:
            if tok.tag_ == "NNS":
                listed(args, ours, tok)  # "settings of `Option` include: ...", "apps like Termux and Pydroid"
            if (tok.tag_.startswith("VB") and tok.dep_ not in ("aux", "auxpass", "amod", "compound")) or (
                    _verb_read_as_noun(tok)) or _opening_verb_read_as_noun(args, tok):
                _clause(args, ours, tok)
            elif tok.tag_ in NOUN_TAGS and args.lemma(tok) in _MEMBER_KINDS:
                _member_of(args, ours, tok)
            elif tok.tag_ == "NNS" and tok.dep_ == "conj":
                _mistagged_verb(args, ours, tok)
            elif tok.i in args.code_tokens:
                _possessor(args, ours, tok)
                _returned(args, ours, tok)
                code_names_kind(args, ours, tok)  # "the ``wheel`` command line tool"
            if any(c.dep_ == "appos" for c in tok.children) and tok.tag_ in PROPER_TAGS:
                _apposition(args, ours, tok)
            if tok.i in args.code_tokens:
                # "`BaseHTTPServer`, which is in `http.server`" (whatever the tagger took the code for)
                code_containers(args, ours, tok)
    _command_options(args, ours)
    qualified_members(args, ours)
    for sent in args.doc.sents:
        _participle_misread(args, ours, sent)
    _instructions(args, ours)
    defined_between_terms(args, ours)  # "A simple expression is a constant": two terms, one defining clause
    for triple in ours:
        same = general.get((triple.subject.name, triple.object.name))
        if same is not None and triple.predicate in _MAPPED:
            same.predicate = triple.predicate
        elif frozenset((triple.subject.name, triple.object.name)) not in joined:
            facts.triples.append(triple)
    ours_pairs = {frozenset((t.subject.name, t.object.name)) for t in ours}
    left_out = [t for t in general.values() if not _general_kept(args, t, ours_pairs)]
    for t in general.values():
        # A kept triple of the general rules takes the software schema's name for its verb ("provide" -> provides).
        t.predicate = VERB_PREDICATES.get(t.predicate, t.predicate)
    if left_out:
        facts.triples[:] = [t for t in facts.triples if not any(t is x for x in left_out)]
        # A phrase the general rules took as an object ("the original behavior") was an entity only for that
        # triple; names stay (the technical pass types them).
        used = used_mentions(facts.triples, facts.events)
        ends = {id(m) for t in left_out for m in (t.subject, t.object)}
        facts.mentions[:] = [m for m in facts.mentions if not (
            id(m) in ends and id(m) not in used and m.label == CONCEPT and not m.types)]
    facts.mentions.extend(m for m in args.added if any(m is t.subject or m is t.object for t in facts.triples))


# A type in braces, as API references write parameters ("`hostname` {string}").
_SIGNATURE = re.compile(r"\{[A-Za-z_.\[\]]+(?:\s*\|\s*[A-Za-z_.\[\]]+)*\}")
# NER labels of the names a general rule may relate in a manual without this pass agreeing.
_NAME_LABELS = frozenset({"PERSON", "ORG", "GPE", "LOC", "FAC", "NORP", "EVENT", "WORK_OF_ART", "LAW", "LANGUAGE"})


def _general_kept(args: TechArgs, triple: Triple, ours: set[frozenset[str]]) -> bool:
    """A triple of the general clause rules in a technical chunk: kept when this pass relates the same two
    things, when its object is a date, when both ends are names of people, organisations, places or works (a
    manual's history: "Python was created by Guido van Rossum"), or when it is grounded: its subject is code,
    software or a name of the chunk, its object code, a name or a specific term ("cryptographic recipe", not
    "the original behavior"), and its verb says more than a light verb ("`cryptography` is a package which
    provides cryptographic recipes"). The earlier rule (this pass must agree) lost about a third of true
    triples; what made the general rules' triples wrong in manuals was their vague objects and light verbs."""
    if frozenset((triple.subject.name, triple.object.name)) in ours or triple.object.is_date:
        return True
    s, o = triple.subject, triple.object
    if s.start >= 0 and _SIGNATURE.search(args.doc[s.start].sent.text):
        return False  # "`spkac` {string|ArrayBuffer|Buffer}": a reference's signature line, not prose
    if all(m.label in _NAME_LABELS and not any(i in args.code_tokens for i in range(m.start, m.end))
           for m in (s, o)):
        return True
    if s.label == "PERSON" and s.end - s.start >= 2 and o.label != CONCEPT and not o.is_date and not args.is_code(o):
        return True  # "Bryan Van de Ven, co-creator of Bokeh": a person's part in a named thing
    words = triple.predicate.split()
    if not words or len(words) > 2 or words[0] in _LIGHT or _NOT_RELATING_PREPS.intersection(words) or (
            triple.qualifiers) or (words[0] in _ASSIGNING and words[-1] in ("to", "on")):
        # "is set to `true`" gives a value; "denote family of", "level version of": a noun read as the
        # relation, which the general rules do in encyclopedic prose, misreads a manual's.
        return False
    if s.start < 0 or o.start < 0 or args.doc[s.start].sent.start != args.doc[o.start].sent.start:
        return False  # an end the general rules reached through a pronoun ("Rich will pretty print it")
    sent = args.doc[s.start].sent
    if not any(t.tag_.startswith("VB") and words[0] in (t.lower_, _LEMMA_FIXES.get(args.lemma(t), args.lemma(t)))
               for t in sent):
        return False  # "equivalent to", "collection of", "private to": an adjective or noun read as the relation
    return _grounded(args, s, subject=True) and _grounded(args, o, subject=False)


def _grounded(args: TechArgs, m: Mention, subject: bool) -> bool:
    """Code, software or a name of the chunk; as an object also a specific term of two words or more."""
    if is_value(m.name) or not any(c.isalpha() for c in m.name):
        return False  # `true`, `0`: a literal is no thing
    if args.is_code(m):
        return is_identifier(m.name)  # not "`(error, stdout, stderr)`", "`child_process.exec():`"
    if m.spg_class == args.software_class:
        return True
    if subject and m.end - m.start == 1 and (args.is_word(m.name.lower()) or len(m.name) < 3):
        return False  # "Below uses ...", "EX located in": a capitalised word or letters, not a name that acts
    if m.label != CONCEPT:
        return m.label in _NAME_LABELS and not (m.name.isupper() and subject)  # "TCP calls ...": a protocol acts not
    if subject:
        return False
    words = args.doc[m.start:m.end]
    head = words[-1]
    if len(words) < 2 or head.tag_ not in NOUN_TAGS or args.lemma(head) in _VAGUE_HEADS | VAGUE_NOUNS:
        return False
    return not any(t.lower_ in _VAGUE_ADJECTIVES or t.tag_ in ("PRP$", "WDT", "CD") or (
        t.dep_ == "det" and t.lower_ not in ("a", "an", "the")) for t in words)


# Verbs whose gerund complement their subject does ("supports loading", "starts listening"); not "avoids
# loading", "stops using".
_DOING_TOO = frozenset({"support", "enable", "start", "begin", "continue", "keep", "allow"})


def _participle_misread(args: TechArgs, ours: list[Triple], sent: Span) -> None:
    """ "`lane.recv()` preserves typed events and unknown fields": the tagger reads the verb as a plural noun
    and the participle after it ("typed") as the verb. Code opening the sentence, a word in -s that is its
    head or the participle's subject, then a participle heading the sentence with an object: code, verb,
    and the participle's objects with the participle as their first word."""
    if len(sent) < 4 or sent[0].i not in args.code_tokens:
        return
    code, word, participle = sent[0], sent[1], sent[2]
    if not (word.tag_ in ("NNS", "VBZ") and word.lower_.endswith("s") and word.dep_ == "nsubj"
            and word.head.i == participle.i and participle.tag_ in ("VBD", "VBN") and participle.dep_ == "ROOT"
            and code.head.i == word.i):
        return
    subject = args.resolve(code, "subject")
    if subject is None:
        return
    verb = args.lemma(word)
    for obj in (c for c in participle.children if c.dep_ == "dobj"):
        for noun in (obj, *obj.conjuncts):
            found = args.resolve(noun, "object", subject)
            if found is None and noun.i == obj.i == participle.i + 1:
                # The phrase starts at the participle: "typed events".
                found = args._new(f"{participle.lower_} {args.lemma(noun)}", args.concept_class, CONCEPT,
                                  participle.i, noun.i + 1)
            if found is not None and found.name != subject.name:
                ours.append(Triple(subject, VERB_PREDICATES.get(verb, verb), found))


def _verb_read_as_noun(tok: Token) -> bool:
    """ "`writable.cork()` buffers all the chunks until ...": a third-person verb after code that the tagger
    read as a plural noun, yet the parser gave a subject and an object, heading its sentence."""
    return tok.tag_ == "NNS" and tok.dep_ == "ROOT" and tok.lower_.endswith("s") and any(
        c.dep_ == "nsubj" and c.i < tok.i for c in tok.children) and any(
        c.dep_ == "dobj" and c.i > tok.i for c in tok.children)


# Verbs an API reference opens a description with ("Tests for deep equality ...", "Sets the encoding ..."), whose
# third person the tagger reads as a plural noun at a sentence's start.
_DESCRIBING = frozenset(key.split()[0] for key in VERB_PREDICATES) | frozenset({
    "test", "set", "get", "check", "compute", "calculate", "convert", "write", "read", "remove", "add", "start",
    "stop", "close", "open", "send", "parse", "encode", "decode", "compare", "register", "load", "resolve", "handle",
    "generate", "validate", "format", "print", "schedule", "update", "insert", "delete", "copy", "move", "rename",
    "list", "find", "match", "split", "join", "determine", "indicate", "specify", "enable", "disable", "store",
    "retrieve", "fetch", "install", "configure", "initialize", "initialise", "reset", "clear", "flush", "append",
    "bind", "verify", "sign", "increase", "decrease", "attach", "detach", "connect", "listen", "destroy",
    "pause", "resume", "abort", "cancel", "measure", "track", "serialize", "deserialize", "report", "log"})


def _opening_verb_read_as_noun(args: TechArgs, tok: Token) -> bool:
    """ "Tests for deep equality between the `actual` and `expected` parameters." under the heading of a
    function: the description opens with its verb, which the tagger read as a plural noun heading a sentence
    with no verb of its own; its doer is the heading's code (as for "Returns a new `Buffer`")."""
    return args.described is not None and tok.tag_ == "NNS" and tok.dep_ == "ROOT" and tok.i == tok.sent.start and (
        tok.text[:1].isupper() and tok.lower_.endswith("s") and not tok.lower_.endswith("ss")) and (
        args.lemma(tok) in _DESCRIBING) and not any(c.dep_ in ("det", "amod", "compound", "poss", "nummod")
                                                  for c in tok.children) and any(
        c.dep_ in ("prep", "dobj") and c.i > tok.i for c in tok.children)


def _subjects(args: TechArgs, verb: Token) -> tuple[list[Mention], bool]:
    lemma_of = args.lemma
    passive = any(c.dep_ == "auxpass" for c in verb.children)
    for child in verb.children:
        if child.dep_ in _SUBJECT_DEPS:
            if verb.dep_ == "relcl" and child.lower_ in REL_PRONOUNS and (
                    verb.head.tag_.startswith("VB") or _verb_read_as_noun(verb.head)):
                # "until `writable.uncork()` is called, which will pass them all to `writable._writev()`": a
                # clause on a verb continues that verb's subject.
                heads, _ = _subjects(args, verb.head)
                found = heads[0] if heads else None
            elif verb.dep_ == "relcl" and child.lower_ in REL_PRONOUNS:
                found = args.resolve(verb.head, "subject")
                copula = verb.head.head
                if (found is None or found.label == CONCEPT) and verb.head.dep_ == "attr" and (
                        args.lemma(copula) == "be") and not any(
                        c.dep_ == "neg" for c in copula.children) and any(
                        c.dep_ == "nsubj" and c.lower_ not in REL_PRONOUNS for c in copula.children):
                    # "`cryptography` is a package which provides ...", "Granian is an HTTP server which
                    # supports ...": what the attribute does, the copula's subject does.
                    heads, _ = _subjects(args, verb.head.head)
                    found = heads[0] if heads and heads[0].label != CONCEPT else found
            else:
                found = args.resolve(child, "subject")
            if found is None:
                return [], passive
            more = [args.resolve(c, "subject") for c in child.conjuncts]
            return [found, *(m for m in more if m is not None)], passive or child.dep_ == "nsubjpass"
    if verb.dep_ == "conj" and verb.head.dep_ in ("dobj", "attr") and verb.tag_ == "VBZ" and (
            verb.head.head.tag_.startswith("VB")) and any(c.dep_ in ("dobj", "prep") for c in verb.children):
        # "`get_final_response()` consumes remaining events and returns the terminal `Response`": the parser
        # hung the second verb on the first one's object.
        return _subjects(args, verb.head.head)
    if verb.dep_ == "ROOT" and verb.tag_ == "VBZ":
        opener = next((c for c in verb.children if c.i < verb.i and c.i == verb.sent.start), None)
        if opener is not None and opener.i in args.code_tokens and opener.dep_ in ("npadvmod", "nmod", "dep"):
            # The same sentence: code opening it and read as an adverb is its subject.
            found = args.resolve(opener, "subject")
            return ([found] if found is not None else []), passive
    if verb.dep_ == "conj" and verb.head.tag_.startswith("VB"):
        # "is created internally and returned from X": the second participle is passive too.
        if any(c.dep_ == "neg" for c in verb.head.children):
            return [], False  # "does not support PyPy, embedded Python builds ...": the negation goes on
        subjects, head_passive = _subjects(args, verb.head)
        own_aux = any(c.dep_ in ("aux", "auxpass") for c in verb.children)
        return subjects, passive or (head_passive and not own_aux and verb.tag_ in ("VBN", "VBD"))
    if verb.dep_ in ("xcomp", "advcl") and verb.tag_ == "VB" and verb.head.tag_.startswith("VB") and any(
            c.dep_ == "aux" and c.lower_ == "to" for c in verb.children) and not any(
            c.dep_ in ("dobj", "dative") and c.i < verb.i and c.lower_ in _PEOPLE for c in verb.head.children):
        # "Uses the DNS protocol to resolve pointer records": the doer of the purpose is the doer of the
        # verb ("allow users to specify ..." is the users', and they are nothing a triple holds; "it will
        # not be necessary to use this module" says nothing is done).
        if any(c.dep_ == "neg" for c in verb.head.children):
            return [], False
        subjects, _ = _subjects(args, verb.head)
        return subjects, any(c.dep_ == "auxpass" for c in verb.children)
    if verb.dep_ == "xcomp" and verb.tag_ == "VBG" and verb.head.tag_.startswith("VB") and (
            lemma_of(verb.head) in _DOING_TOO):
        # "pip supports loading credentials from a `.netrc` file": what the subject supports, it does
        # ("doesn't support debugging worker threads": not done).
        if any(c.dep_ == "neg" for c in verb.head.children):
            return [], False
        subjects, _ = _subjects(args, verb.head)
        return subjects, False
    if verb.dep_ == "acl" and verb.tag_ == "VBN":
        found = args.resolve(verb.head, "subject")  # "the object returned by X"
        return ([found] if found is not None else []), True
    if _opening_verb_read_as_noun(args, verb):
        return [args.described] if args.described is not None else [], passive
    if verb.tag_ == "VBZ" and args.described is not None and verb.dep_ == "ROOT" and all(
            t.dep_ in ("advmod", "punct") for t in verb.doc[verb.sent.start:verb.i]):
        # "Uses the DNS protocol to resolve ...", "Returns a new `Buffer`": an API reference describes the
        # code its heading names with sentences that start at the verb.
        return [args.described], passive
    return [], passive


def _in_parentheses(tok: Token) -> bool:
    depth = 0
    for t in tok.doc[tok.sent.start:tok.i]:
        depth += (t.text == "(") - (t.text == ")")
    return depth > 0


def _objects(args: TechArgs, tok: Token, subject: Mention) -> list[Mention]:
    found = [args.resolve(t, "object", subject) for t in (tok, *tok.conjuncts)]
    return [m for m in found if m is not None and m is not subject]


def _clause(args: TechArgs, ours: list[Triple], verb: Token) -> None:
    children = list(verb.children)
    if any(c.dep_ == "neg" for c in children):
        return
    subjects, passive = _subjects(args, verb)
    # A term does things in a manual's prose mostly as an example ("a listener function can switch"):
    # what a clause states is kept when its subject is code, software or a name, or when a term's clause
    # relates it to code or a name ("A nested protocol error raises `ResponsesWebSocketError`").
    if not subjects:
        return
    if (verb.dep_ == "ROOT" or (verb.dep_ == "conj" and verb.head.dep_ == "ROOT")) and any(
            c.dep_ in _SUBJECT_DEPS for c in children) and (
            not _in_parentheses(verb)) and subjects[0].label != CONCEPT:
        args.last_subject = subjects[0]  # "it" in the next clause (not a parenthesis's aside)
    lemma = args.lemma(verb)
    found: list[tuple[Mention, str, Mention]] = []
    if lemma == "be":
        for attr in (c for c in children if c.dep_ == "attr" and c.tag_ in NOUN_TAGS):
            predicate = NOUN_PREDICATES.get(args.lemma(attr))
            if predicate is None:
                found += [(s, "isA", kind) for s in subjects for kind in _kind_of(args, attr, s)]
                continue
            related_to = [p for prep in attr.children if prep.dep_ == "prep" and prep.lower_ in (
                "of", "for", "to", "around") for p in prep.children if p.dep_ == "pobj"]
            for pobj in related_to:
                found += [(s, predicate, o) for s in subjects for o in _objects(args, pobj, s)]
            if all(p.lower_ in REL_PRONOUNS for p in related_to):
                # "is a fast Python extension for parsing ...": no "extension of X", so the noun names a kind.
                found += [(s, "isA", kind) for s in subjects for kind in _kind_of(args, attr, s)]
        for acomp in (c for c in children if c.dep_ == "acomp"):  # "is responsible for managing X"
            for prep in (c for c in acomp.children if c.dep_ == "prep"):
                for pcomp in (p for p in prep.children if p.dep_ == "pcomp" and p.tag_ == "VBG"):
                    _verb_objects(args, pcomp, subjects, False, found)
    elif lemma == "have" and not passive:
        members = _members(args, verb)
        found += [(member, "partOf", s) for s in subjects for member in members]
        if not members and subjects[0].label != CONCEPT and (
                verb.dep_ in ("ROOT", "conj")) and any(
                c.dep_ == "nsubj" and c.lower_ not in REL_PRONOUNS for c in children):
            # "Mypy has a powerful type system": the term is part of the software or code (not "has no
            # effect", not "has a value": a term of two words or more).
            for noun in (c for c in children if c.dep_ == "dobj" and c.tag_ in NOUN_TAGS):
                term = args.resolve(noun, "object", subjects[0])
                if term is not None and term.label == CONCEPT and args.lemma(noun) in _PART_HEADS and not any(
                        c.dep_ == "det" and c.lower_ in ("no", "any") for c in noun.children):
                    # (appended as it is: the term is the subject of this triple, not of the clause)
                    ours.extend(Triple(term, "partOf", s) for s in subjects if not related(ours, term.name, s.name))
    elif lemma in ("take", "accept") and not passive and _members(args, verb):
        # "All `listen()` methods can take a `backlog` parameter": what the code accepts.
        found += [(s, "accepts", member) for s in subjects for member in _members(args, verb)]
    elif lemma not in _LIGHT:
        _verb_objects(args, verb, subjects, passive, found)
        _objects_read_as_verbs(args, verb, subjects, found)
    for subject, predicate, obj in found:
        if subject is obj or subject.name == obj.name or obj.is_date or related(ours, subject.name, obj.name) or (
                subject.label == CONCEPT and not _term_fact(args, verb, passive, predicate, subject, obj) and not (
                    passive and obj in subjects and done_by_term(verb, obj.label != CONCEPT, args.lemma))):
            continue
        ours.append(Triple(subject, predicate, obj))


def _objects_read_as_verbs(args: TechArgs, verb: Token, subjects: list[Mention],
                           found: list[tuple[Mention, str, Mention]]) -> None:
    """ "It supports Python 3.9+ and PyPy3 7.3.11+", "provides cryptographic recipes and primitives": the
    parser hangs the second object on the verb as a conjunct. A noun conjunct of a verb that has an object,
    with no subject, verb or object of its own, is another object of the same relation."""
    direct = [t for t in found if t[0] in subjects]
    if not direct or not any(c.dep_ == "dobj" for c in verb.children):
        return
    predicate = direct[0][1]
    for conj in (c for c in verb.children if c.dep_ == "conj" and (c.tag_ in NOUN_TAGS or c.tag_ in PROPER_TAGS)):
        if any(g.dep_ in (*_SUBJECT_DEPS, "aux", "auxpass", "neg") or g.tag_.startswith("VB") or (
                g.dep_ == "dobj" and g.tag_ != "CD") for g in conj.children) or any(
                t.dep_ == "neg" or t.lower_ in ("not", "never") for t in args.doc[verb.i + 1:conj.i]):
            continue  # a clause of its own (a version number the parser made an object is none), "but not X"
        for subject in subjects:
            obj = args.resolve(conj, "object", subject)
            if obj is not None and obj.name != subject.name and not obj.is_date:
                found.append((subject, predicate, obj))


def _apposition(args: TechArgs, ours: list[Triple], tok: Token) -> None:
    """ "`httpcore`, a minimal low-level HTTP client, ...": an indefinite apposition says what kind of thing
    code, software or a name is, as "is a" does."""
    subject = args.resolve(tok, "subject")
    if subject is None or subject.label == CONCEPT:
        return
    for appos in (c for c in tok.children if c.dep_ == "appos" and c.tag_ in NOUN_TAGS):
        for kind in _kind_of(args, appos, subject):
            if kind.name != subject.name and not related(ours, subject.name, kind.name):
                ours.append(Triple(subject, "isA", kind))


def _term_fact(args: TechArgs, verb: Token, passive: bool, predicate: str, subject: Mention, obj: Mention) -> bool:
    """A term's clause that states a fact: its own active verb, a verb of software, code as its object ("A
    nested protocol error raises `ResponsesWebSocketError`"). Measured on the corpus, a term as the subject of
    any verb towards any name was as often wrong as right ("multiple threads" call `alloc()` in "can be called
    from multiple threads"); so beyond that, only a term's main or relative clause that states what it does to
    code, a name or another term, with no modal and its whole noun phrase ("The bind command tells the SOCKS
    proxy server ...": `term_ends.stated_between_terms`)."""
    if passive or not any(c.dep_ == "nsubj" for c in verb.children):
        return False
    if predicate in _MAPPED and args.is_code(obj):
        return True
    return stated_between_terms(verb, subject, obj, args.lemma)


def _possessor(args: TechArgs, ours: list[Triple], code: Token) -> None:
    """ "scikit-learn's `classification_report`": code owned by a named program or code is part of it (a
    pronoun's "its `event`" is left to the clause rules)."""
    owned = [code]
    if code.dep_ == "compound" and args.lemma(code.head) in args.kinds:
        owned.append(code.head)  # "Python's `itertools` library": the possessive hangs on the kind noun
    for poss in (c for t in owned for c in t.children if c.dep_ == "poss" and c.tag_ not in ("PRP$", "WP$")):
        owner = args.resolve(poss, "object")
        member = args.resolve(code, "object")
        if owner is None or member is None or owner.label == CONCEPT or owner.name == member.name or related(
                ours, owner.name, member.name):
            continue
        # A body's code is its work ("OpenAI's `tiktoken`"); a program's or module's is part of it.
        ours.append(Triple(member, "developedBy", owner) if owner.label == "ORG" and not args.is_code(owner) else (
            Triple(member, "partOf", owner)))  # ("the `AbortSignal`'s `reason` property": a class's, not a body's)


# Verbs of software whose third person the tagger reads as a plural noun after code ("`MessagePort` is an
# object ... and inherits from its global `Object` class").
_SOFTWARE_VERBS = frozenset(key.split()[0] for key in VERB_PREDICATES)
# Verbs whose bare plural object is a term of one word ("provides utilities", "contains binaries": `term_ends`):
# the software verbs that take an object, and the verbs of having that "provide" belongs with.
_OBJECT_VERBS = frozenset(key for key in VERB_PREDICATES if " " not in key) | frozenset(
    {"contain", "include", "offer", "ship"})


def _mistagged_verb(args: TechArgs, ours: list[Triple], tok: Token) -> None:
    """ "The returned `MessagePort` is an object in the target context and inherits from its global `Object`
    class": a software verb tagged a plural noun, joined to the complement of a clause and governing a
    preposition with no article of its own, is that clause's second verb."""
    lemma = args.lemma(tok)
    head = tok.head
    if not tok.lower_.endswith("s") or lemma not in _SOFTWARE_VERBS or head.dep_ not in ("attr", "dobj") or any(
            c.dep_ in ("det", "amod", "compound", "poss", "nummod") for c in tok.children) or not any(
            c.dep_ == "prep" or c.dep_ == "dobj" for c in tok.children) or not head.head.tag_.startswith("VB"):
        return
    subjects, passive = _subjects(args, head.head)
    subjects = [m for m in subjects if m.label != CONCEPT]
    if passive or not subjects:
        return
    found: list[tuple[Mention, str, Mention]] = []
    _verb_objects(args, tok, subjects, False, found)
    for subject, predicate, obj in found:
        if subject.name != obj.name and not obj.is_date and not related(ours, subject.name, obj.name):
            ours.append(Triple(subject, predicate, obj))


def _returned(args: TechArgs, ours: list[Triple], code: Token) -> None:
    """ "The returned `MessagePort` is ..." under the heading of a function: the function returns it."""
    if args.described is None or not any(c.dep_ == "amod" and c.lower_ == "returned" for c in code.children) or not any(
            c.dep_ == "det" and c.lower_ == "the" for c in code.children):
        return
    found = args.resolve(code, "object")
    if found is not None and found.name != args.described.name and not related(ours, found.name, args.described.name):
        ours.append(Triple(args.described, "returns", found))


def _command_options(args: TechArgs, ours: list[Triple]) -> None:
    """ "use the option `--with-libyaml`: `python setup.py --with-libyaml install`": a command line in
    inline code shows whose option an option is, the nearest program or script before it in the command
    that the chunk names as code of its own."""
    named: dict[str, Mention] = {}
    commands: list[list[str]] = []
    for i in sorted(args.code_tokens):
        words = args.doc[i].text.split()
        if len(words) > 1:
            commands.append(words)
            continue
        found = args.resolve(args.doc[i], "object")
        if found is not None:
            named.setdefault(found.name, found)
    for words in commands:
        for n, word in enumerate(words):
            option = named.get(word)
            if option is None or not word.startswith("-"):
                continue
            owner = next((named[w] for w in reversed(words[:n]) if w in named and not w.startswith("-")), None)
            if owner is not None and not related(ours, option.name, owner.name):
                ours.append(Triple(option, "partOf", owner))


def _instructions(args: TechArgs, ours: list[Triple]) -> None:
    """ "To skip the check and force installation of LibYAML bindings, use the option `--with-libyaml`":
    what an instruction's purpose says is what the code it tells to use does ((--with-libyaml, force,
    LibYAML bindings)). Only "use" with code as what to use; the purpose's verbs keep their lemmas."""
    for sent in args.doc.sents:
        _use_to(args, ours, sent)
        verb = sent.root
        if args.lemma(verb) != "use" or any(c.dep_ in _SUBJECT_DEPS for c in verb.children):
            continue
        purpose = next((c for c in verb.children if c.dep_ == "advcl" and c.i < verb.i and any(
            a.dep_ == "aux" and a.lower_ == "to" for a in c.children)), None)
        code = next((i for i in range(verb.i + 1, sent.end) if i in args.code_tokens), None)
        if purpose is None or code is None or any(c.dep_ == "neg" for c in purpose.children):
            continue
        tool = args.resolve(args.doc[code], "subject")
        if tool is None:
            continue
        for step in (purpose, *purpose.conjuncts):
            doer = step
            if step.tag_ == "VBG" and step.dep_ == "conj" and any(
                    c.dep_ == "dobj" and c.lower_.endswith("ing") for c in step.head.children):
                doer = step.head  # "skip building and installing X": the skipping is done to X
            for obj in (c for c in step.children if c.dep_ == "dobj"):
                # "force installation of X": a nominalised step's "of" names what it is done to.
                found = args.resolve(obj, "object", tool) or next((
                    m for prep in obj.children if prep.dep_ == "prep" and prep.lower_ == "of"
                    for p in prep.children if p.dep_ == "pobj"
                    for m in (args.resolve(p, "object", tool),) if m is not None), None)
                if found is not None and found is not tool and not related(ours, tool.name, found.name):
                    lemma = args.lemma(doer)
                    ours.append(Triple(tool, VERB_PREDICATES.get(lemma, lemma), found))


def _use_to(args: TechArgs, ours: list[Triple], sent: Span) -> None:
    """ "Use `Annotated[Model, Query()]`, `Header()`, `Cookie()`, or `Form()` to group related inputs": an
    instruction that opens with "Use", names code (a list of it) and then its purpose says what that code
    does ((Header(), group, related input)). Read from the words, since the small model often takes the
    opening "Use" for a name; the purpose verb's objects come from the parse."""
    if len(sent) < 5 or sent[0].lower_ != "use":
        return
    tools: list[Mention] = []
    n = sent.start + 1
    while n < sent.end and (n in args.code_tokens or args.doc[n].lower_ in (",", "or", "and")):
        if n in args.code_tokens:
            found = args.resolve(args.doc[n], "subject")
            if found is not None:
                tools.append(found)
        n += 1
    if not tools or n + 1 >= sent.end or args.doc[n].lower_ != "to":
        return
    verb = args.doc[n + 1]
    if verb.tag_ != "VB" or any(c.dep_ == "neg" for c in verb.children):
        return
    lemma = _LEMMA_FIXES.get(args.lemma(verb), args.lemma(verb))
    if lemma in _LIGHT:
        return
    for obj in (t for c in verb.children if c.dep_ == "dobj" for t in (c, *c.conjuncts)):
        for tool in tools:
            found = args.resolve(obj, "object", tool)
            if found is not None and found.name != tool.name and not found.is_date and not related(
                    ours, tool.name, found.name):
                ours.append(Triple(tool, VERB_PREDICATES.get(lemma, lemma), found))


def _kind_of(args: TechArgs, attr: Token, subject: Mention) -> list[Mention]:
    """ "a `po` file is a Portable Object file", "orjson is a fast, correct JSON library": what kind of thing
    the subject is, named by the nouns before the attribute's head (its adjectives are a description: "fast",
    "regular"), the head left out when it repeats the subject's own kind noun ("file"). One noun alone
    ("is a library") says too little."""
    verb = attr.head
    if not _indefinite(attr) or any(c.dep_ == "amod" and c.lower_ in _VAGUE_ADJECTIVES for c in attr.children) or any(
            c.dep_ == "mark" for c in verb.children):
        return []  # "can be a good distinguishing factor", "If the given `path` is a zero-length string"
    start = attr.i
    while start > 0:
        left = args.doc[start - 1]
        if left.head.i not in range(start, attr.i + 1) or left.i in args.code_tokens:
            break
        if left.dep_ == "compound" and (left.tag_ in NOUN_TAGS or left.tag_ in PROPER_TAGS):
            start -= 1
        elif left.dep_ == "amod" and left.text[:1].isupper() and not left.is_sent_start:
            start -= 1  # a capitalised word inside a sentence is part of a name ("a Portable Object file")
        elif (hyphenated := _hyphenated_modifier(args, start, attr.i)) is not None:
            start = hyphenated  # "a cross-platform library", "a list-like structure": a classifying modifier
        else:
            break
    while start < attr.i and start > 0 and is_hyphen(args.doc[start - 1]) and not args.doc[start - 1].whitespace_:
        start += 1  # "a zero-dependencies library": a piece of a hyphenated modifier is no part of the kind
    end = attr.i + 1
    own_kind = subject.end if 0 <= subject.end < len(args.doc) else -1
    if own_kind >= 0 and args.lemma(args.doc[own_kind]) == args.lemma(attr) and own_kind != attr.i:
        end = attr.i  # "a `po` file is a Portable Object file": a Portable Object
    words = args.doc[start:end]
    if len(words) < (1 if end == attr.i else 2) or (end == attr.i and not any(t.text[:1].isupper() for t in words)):
        return []  # without its head noun, the kind must be a name ("Portable Object", not "text")
    if args.lemma(attr) in VAGUE_NOUNS or args.lemma(attr) in _VAGUE_HEADS:
        return []
    name = "".join((t.text if t.text[:1].isupper() or t.i != attr.i else args.lemma(t)) + t.whitespace_
                   for t in words).strip()
    return [args._new(name, args.concept_class, CONCEPT, start, end)]


def _hyphenated_modifier(args: TechArgs, start: int, head: int) -> int | None:
    """Where a hyphenated word ending at or right before `start` begins, when it modifies the phrase up to
    `head` and says what kind ("cross-platform", "list-like", "third-party"), not how good ("labour-saving",
    "performance-focused", "well-tested", "general-purpose": praise and participles are a description)."""
    doc = args.doc
    if start < 1:
        return None
    # "third-party dependency": the parser may have taken "party" into the phrase already.
    last = start if is_hyphen(doc[start - 1]) and not doc[start - 1].whitespace_ else start - 1
    k = last
    while k > 0 and not doc[k - 1].whitespace_ and (is_hyphen(doc[k - 1]) or is_hyphen(doc[k])):
        k -= 1
    span = doc[k:last + 1]
    pieces = [t.lower_ for t in span if not is_hyphen(t)]
    if len(pieces) < 2 or not all(p.isalpha() for p in pieces) or any(
            t.head.i not in range(k, head + 1) for t in span) or any(t.i in args.code_tokens for t in span):
        return None
    if any(p in _PRAISE or p in _HYPHEN_PRAISE for p in pieces) or pieces[-1].endswith(("ed", "ing")):
        return None
    return k


# (and "open-source": a licence, not a kind of thing)
_HYPHEN_PRAISE = frozenset({"well", "high", "easy", "general", "best", "state", "world", "top", "fully", "open"})


# "has a `log()` method", "has an `options` property": what a thing has that is part of it.
_MEMBER_KINDS = frozenset({"method", "property", "attribute", "field", "option", "event", "member", "function",
                           "parameter", "argument", "flag", "setting", "key", "subcommand", "command"})


def _members(args: TechArgs, verb: Token) -> list[Mention]:
    """ "The Console object has a `log()` method": the code before a member noun, object of "have"."""
    out: list[Mention] = []
    for dobj in (c for c in verb.children if c.dep_ == "dobj" and args.lemma(c) in _MEMBER_KINDS):
        for noun in (dobj, *dobj.conjuncts):
            code = [c for c in noun.children if c.dep_ in ("compound", "amod", "nmod") and c.i in args.code_tokens]
            found = [args.resolve(c, "object") for c in code]
            out += [m for m in found if m is not None]
    return out


def _member_of(args: TechArgs, ours: list[Triple], noun: Token) -> None:
    """ "the `autoSelectFamily` option of `socket.connect(options)`": the one is part of the other."""
    code = [c for c in noun.children if c.dep_ in ("compound", "amod", "nmod") and c.i in args.code_tokens]
    owners = [p for prep in noun.children if prep.dep_ == "prep" and prep.lower_ == "of"
              for p in prep.children if p.dep_ == "pobj" and p.i in args.code_tokens]
    for member in (args.resolve(c, "object") for c in code):
        for owner in (args.resolve(p, "object") for p in owners):
            if member is not None and owner is not None and member.name != owner.name and not related(
                    ours, member.name, owner.name):
                ours.append(Triple(member, "partOf", owner))


def _verb_objects(args: TechArgs, verb: Token, subjects: Sequence[Mention], passive: bool,
                  found: list[tuple[Mention, str, Mention]]) -> None:
    lemma = _LEMMA_FIXES.get(args.lemma(verb), args.lemma(verb))
    particle = next((c.lower_ for c in verb.children if c.dep_ == "prt"), "")
    base = f"{lemma} {particle}" if particle else lemma
    direct: list[tuple[Mention, Mention]] = []
    by_prep: list[tuple[str, Mention, Mention]] = []
    of_object: list[tuple[str, Mention, Mention]] = []  # the direct object's own prepositions
    misread = not passive and not any(c.dep_ in ("dobj", "oprd") for c in verb.children)
    for child in verb.children:
        if misread and child.dep_ in ("intj", "dep", "npadvmod") and child.i == verb.i + 1 and (
                child.i in args.code_tokens):
            # "which implements `collections.abc.MutableSequence`": code right after a verb that has no object,
            # which the small model hung on it as an interjection, is its object.
            direct += [(s, o) for s in subjects for o in _objects(args, child, s)]
        elif child.dep_ in ("dobj", "oprd") and not passive:
            direct += [(s, o) for s in subjects for o in _objects(args, child, s)]
            of_object += [(prep.lower_, s, o) for prep in child.children if prep.dep_ == "prep"
                          and prep.lower_ in _OBJECT_NOUN_PREPS for pobj in prep.children if pobj.dep_ == "pobj"
                          for s in subjects for o in _objects(args, pobj, s)]
        elif child.dep_ in ("prep", "agent") and child.lower_ not in _NOT_RELATING_PREPS:
            for pobj in (p for p in child.children if p.dep_ == "pobj"):
                by_prep += [(child.lower_, s, o) for s in subjects for o in _objects(args, pobj, s)]
    if passive and not by_prep:
        # "Tk is maintained, enhanced, and distributed by the Tcl community": the parser hangs the "by" on the
        # last participle only; each one before it, with no preposition of its own, has the same doer.
        for agent in shared_agent(verb):
            by_prep += [("by", s, o) for pobj in agent.children if pobj.dep_ == "pobj"
                        for s in subjects for o in _objects(args, pobj, s)]
    if direct and all(o.label == CONCEPT for _, o in direct):
        # "reads key-value pairs from a `.env` file": the object's named thing is what the clause relates. Not for
        # a term's clause: "typed arrays that involve direct data modification from C++" relate the two terms (a
        # term's relation towards a name is no more what the text says than towards the term).
        # ("the Electron runtime runs multiple instances of Node.js": a part or number "of" a name is that name still)
        by_prep += [(p, s, o) for p, s, o in of_object if o.label != CONCEPT and (s.label != CONCEPT or p == "of")]
    elif not direct and not passive:
        # "implements a modified subset of the `EventEmitter` API": a part of a named thing is that thing.
        direct += [(s, o) for child in verb.children if child.dep_ == "dobj" and args.lemma(child) in _PARTITIVE
                   for prep in child.children if prep.dep_ == "prep" and prep.lower_ == "of"
                   for pobj in prep.children if pobj.dep_ == "pobj"
                   for s in subjects for o in _objects(args, pobj, s) if o.label != CONCEPT]
    if passive:
        for prep, s, o in by_prep:
            key = f"{base} {prep}"
            if key in _SUBJECT_KEEPING or key in VERB_PREDICATES:
                found.append((s, VERB_PREDICATES.get(key, key), o))
            elif prep in _DOER_PREPS:
                found.append((o, VERB_PREDICATES.get(base, base), s))  # the doer did it to the subject
            elif prep in _PLACE_PREPS and args.is_code(s) and not is_value(o.name) and not (
                    prep in ("to", "on") and lemma in _ASSIGNING):
                # "this API is designed for URL query strings", "`windowBits` is set for raw deflate streams":
                # where or what for code is done keeps it the subject (a verb of no software predicate). Only
                # code: "Support is enabled at top level", "numpy is installed in the above example" relate
                # nothing; "`keepAlive` is set to `true`" gives a value, not a thing.
                found.append((s, key, o))
        return
    strong = [(s, o) for s, o in direct if o.label != CONCEPT]
    named_preps = [(p, s, o) for p, s, o in by_prep if o.label != CONCEPT]
    if direct and not strong and any(p in _SOURCE_GOAL or (p == "for" and args.is_code(o)) for p, _, o in named_preps):
        # The named thing of a preposition rather than a term: "reads pairs from `.env`", "resolve pointer
        # records for the `hostname`". A preposition of circumstance ("uses the ... variable on Windows",
        # "contains binary wheels for Linux") says where or with what: the term is still what the verb takes.
        direct = []
    if lemma in ("replace", "substitute") and any(p == "with" for p, _, _ in by_prep):
        return  # "replaces two slashes with a single slash": a substitution in data, not one thing superseding another
    if lemma in ("call", "invoke") and strong:
        # "it will call `socket.destroy` with an `ERR_SOCKET_CLOSED` Error": what the callee gets.
        found += [(o, "calledWith", w) for _, o in strong for p, _, w in named_preps if p == "with"]
    predicate = VERB_PREDICATES.get(base, base)
    found += [(s, predicate, o) for s, o in direct]
    if not direct:
        for prep, s, o in by_prep:
            key = f"{base} {prep}"
            found.append((s, VERB_PREDICATES.get(key, key), o))


__all__ = ["NOUN_PREDICATES", "VERB_PREDICATES", "TechArgs", "add_technical_relations", "technical_relations"]
