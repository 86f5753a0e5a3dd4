"""Code and what holds it: "`BaseHTTPServer`, which is in `http.server`", "the ``FOO`` property in the depender".

A manual rarely says "X is part of Y" of its code; it places the code with a preposition: a folder *in* the source
tree, a property *on* the error instance or *in* the depender, a method *on* responses, a flag *of* the binary. The
labelled technical sets read each of these as part of (`partOf`): on held-out-8 and -9 prepositions of place are
the largest group of the relations the labellers read as implied, and no clause rule reads them (no verb relates
the two). Read here, on a technical chunk's inline code only (a term "in" something says too little: on the corpus
"the ANTLR4 toolchain in `sympy/parsing/latex/_antlr`" or "static import in `my-app.js`" were as often wrong):

- code, or code right before a kind noun ("the `FOO` property", "the `--x` flag"), whose own noun phrase has "in",
  "inside", "within" or "on", or "of" after a kind noun for a part ("the `--experimental-sea-config` flag of the
  Node.js binary"; not "the `"type"` value of ..."): (code, partOf, what the preposition names);
- code as the subject of "is in Y", or of a relative "which is in Y": the same;
- after a verb's preposition ("navigate to `chrome://inspect` in the browser") "in" may say where the action is
  done: there only code in code ("stored under `head_config` in `config.json`");
- code that is the object of set, specify, define and the like, with an "in" the parser hung on the verb ("setting
  the `ftp_firewall` option in Net::Config"): code in code, the same;
- under a page titled by code (not a numbered rule's), "the `SYSTEM` option", "the optional `constructorOpt`
  argument" that the sentence gives to no other code is the page's (`_option_of_topic`).

What holds the code must be code, software, a name, or a common-noun phrase that names a thing ("the Node.js
source tree", "responses", "the Python standard library"), not a vague or generic word alone ("the output", "this
case"), a version ("in Python 3.8" says when), a platform after "on" ("on Windows", "on Unix platforms": where it
runs), a mode or state ("in development mode"), a noun with an "of"/"to" of its own ("in response to", "on top of")
or a comparison ("in the same directory as `foo.js`"). A plural kind after a single piece of code ("`Callable`
parameters") names things of that type, not the code, and gives nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from kgbuild.extract.facts import CONCEPT, Mention, Triple, related
from kgbuild.extract.term_ends import GENERIC_NOUNS
from kgbuild.extract.vocab import NOUN_TAGS, PROPER_TAGS, STOP_ADJECTIVES, VAGUE_NOUNS

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token


class TechArgs(Protocol):
    """What this rule reads of a chunk's arguments (`tech_relations.TechArgs`, which imports this module)."""

    doc: Doc
    topic: Mention | None
    code_tokens: frozenset[int]
    kinds: frozenset[str]
    concept_class: str

    def lemma(self, tok: Token) -> str: ...

    def is_code(self, mention: Mention) -> bool: ...

    def resolve(self, tok: Token, role: str, subject: Mention | None = None) -> Mention | None: ...

    def phrase(self, tok: Token) -> tuple[int, str] | None: ...

    def _new(self, name: str, spg_class: str, label: str, start: int, end: int) -> Mention: ...


# Prepositions that place a thing inside another ("of" only after a kind noun for a part: `_PART_KINDS`).
_PLACING = frozenset({"in", "inside", "within", "on"})
# Kind nouns after which "of" names the owner ("the `--cert` flag of the binary"); "the `"type"` value of
# `"module"`" gives a value, "the `foo` name of ..." a name.
_PART_KINDS = frozenset({"option", "parameter", "argument", "flag", "property", "method", "attribute", "field",
                         "setting", "key", "subcommand", "hook", "callback", "event", "member", "function", "class",
                         "header", "directory", "file", "script", "module", "submodule", "constant", "variable"})
# Kind nouns for what a command or function is given: under a page titled by that code, "the `OUTPUT_*`
# option" is one of its own.
_OPTION_KINDS = frozenset({"option", "parameter", "argument", "flag", "keyword", "subcommand"})
# Words before "of" that make it part of a compound preposition ("instead of", "because of").
_COMPOUND_PREPS = frozenset({"instead", "because", "out", "ahead", "regardless", "irrespective", "outside", "inside",
                             "part", "terms", "top", "front", "favor", "favour", "spite"})
# Nouns a preposition of place takes that say when, how or where in the text, not what holds the code.
_NOT_CONTAINERS = frozenset({"addition", "order", "practice", "general", "particular", "fact", "turn", "detail",
                             "future", "past", "mind", "effect", "return", "place", "front", "favor",
                             "favour", "terms", "top", "success", "failure", "error", "demand", "startup",
                             "shutdown", "exit", "load", "call", "invocation", "default", "scope", "production",
                             "development", "theory", "principle", "isolation", "parallel", "sequence",
                             "background", "foreground", "advance", "conjunction", "combination", "contrast",
                             "mode", "state", "case", "scenario", "situation", "circumstance", "condition",
                             "version", "release"})
# What "on" names when it says where something runs, not what holds it ("a `Makefile` on Unix platforms").
_PLATFORMS = frozenset({"platform", "system", "machine", "host", "device", "server", "computer", "os", "architecture",
                        "hardware", "cpu", "node", "cluster", "cloud", "desktop", "mobile", "phone", "browser"})
# Where code read as a verb hangs: its "in" is its clause's.
_VERBAL = frozenset({"pcomp", "xcomp", "ccomp", "advcl", "acl", "relcl", "ROOT"})
# Determiners that point into the text ("in this case", "in that example"), not at a container.
_POINTING = frozenset({"this", "that", "these", "those", "each", "every", "any", "some", "no"})


# Verbs that put a setting or a name into something ("set X in Y", "define X in Y"), and the prepositions that say
# where it goes.
_SETTING_VERBS = frozenset({
    "set", "specify", "define", "declare", "configure", "enable", "disable", "list", "register"})
_INSIDE = frozenset({"in", "inside", "within"})


def code_containers(args: TechArgs, ours: list[Triple], code: Token) -> None:
    """(code, partOf, container) for inline `code` placed in something by a preposition (module docstring)."""
    if code.dep_ in _VERBAL or (code.dep_ == "conj" and code.tag_.startswith("VB")):
        return  # code the parser read as a verb: its "in" is its clause's
    # "navigate to `chrome://inspect` in the browser": after a verb's preposition, "in" may say where the action
    # is done; only code in code ("stored under `head_config` in `config.json`") is then what holds it
    code_only = code.dep_ == "pobj" and code.head.head.tag_.startswith("VB")
    member = args.resolve(code, "subject")
    if member is None or not args.is_code(member):
        return
    head = code
    if code.dep_ in ("compound", "amod", "nmod", "nummod") and code.head.i == code.i + 1 and (
            args.lemma(code.head) in args.kinds):
        # "the `FOO` property in the depender": the preposition hangs on the kind noun (which the tagger may take
        # code for an adjective or a number before)
        head = code.head
        if head.tag_ in ("NNS", "NNPS"):
            return  # "`Callable` parameters in type representations": parameters of that type, not the code itself
    preps = [c for c in head.children if c.dep_ == "prep" and _placing(args, head, c)]
    for clause in (c for c in head.children if c.dep_ == "relcl" and args.lemma(c) == "be"):
        # "`BaseHTTPServer`, which is in `http.server`"
        if any(s.dep_ == "nsubj" and s.tag_ == "WDT" for s in clause.children):
            preps += [c for c in clause.children if c.dep_ == "prep" and c.lower_ in _PLACING]
    if head.dep_ == "dobj" and args.lemma(head.head) in _SETTING_VERBS:
        # "setting the `ftp_firewall` option in Net::Config", "to specify `Host` in the `headers` option": what is
        # set or specified "in" something is placed there, though the parser hangs the "in" on the verb; only code
        # in code, as after any verb's preposition
        code_only = True
        preps += [c for c in head.head.children if c.dep_ == "prep" and c.i > head.i and c.lower_ in _INSIDE]
    if head.dep_ == "nsubj" and args.lemma(head.head) == "be" and not any(
            c.dep_ in ("neg", "attr", "acomp") for c in head.head.children):
        # "`BaseHTTPServer` is in `http.server`"
        preps += [c for c in head.head.children if c.dep_ == "prep" and c.lower_ in _PLACING]
    listed = next((c for c in code.children if c.dep_ == "conj" and args.lemma(c) in _OPTION_KINDS and any(
        g.dep_ == "compound" and g.i in args.code_tokens for g in c.children)), None)
    if not preps and ((head is not code and args.lemma(head) in _OPTION_KINDS) or listed is not None):
        # ("``OUTPUT_*`` or ``ERROR_*`` option": the parser joins the first code to the kind noun)
        _option_of_topic(args, ours, code, member)
    for prep in preps:
        if any(t.text in "()[]" for t in args.doc[min(head.i, prep.i) + 1:max(head.i, prep.i)]):
            continue  # "`lint-imports` (the contracts, `[tool.importlinter]` in `pyproject.toml`)": an aside's own
        # (a list of code as the container, "on `gh pr create` and `gh pr comment`"; a term after "or" may be
        # a second subject the parser hung there: "the `x` option in the `E` constructor or the global setting")
        # ("`RemoteDirectory` in `DeploymentTool` and `RemoteExecutable` in `DebuggerTool`": a conjunct with a
        # preposition of its own is a second member, not a second container)
        for obj in (t for c in prep.children if c.dep_ == "pobj" for t in (c, *_code_conjuncts(args, c))):
            owner = _container(args, obj, member)
            if owner is None or (code_only and not args.is_code(owner)):
                continue
            if prep.lower_ == "on" and not args.is_code(owner) and (
                    owner.label != CONCEPT or args.lemma(obj) in _PLATFORMS):
                continue  # "`tcp_max_syn_backlog` on Linux": the platform it runs on, not what holds it
            if not related(ours, member.name, owner.name):
                ours.append(Triple(member, "partOf", owner))


def _code_conjuncts(args: TechArgs, tok: Token) -> list[Token]:
    """The code joined to a container that is a second container too (not one with a preposition of its own)."""
    return [j for j in tok.conjuncts if j.i in args.code_tokens and not any(g.dep_ == "prep" for g in j.children)]


def _placing(args: TechArgs, head: Token, prep: Token) -> bool:
    """Whether `prep`, hanging on the code's noun `head`, places it in a thing."""
    low = prep.lower_
    if low == "of":
        before = args.doc[prep.i - 1] if prep.i > 0 else None
        return head.i not in args.code_tokens and args.lemma(head) in _PART_KINDS and (
            before is None or before.lower_ not in _COMPOUND_PREPS)
    return low in _PLACING


def _container(args: TechArgs, tok: Token, member: Mention) -> Mention | None:
    """What the preposition's object names, when it is a thing that can hold code (module docstring)."""
    if tok.tag_ not in NOUN_TAGS and tok.tag_ not in PROPER_TAGS and tok.i not in args.code_tokens:
        return None
    if any(c.dep_ == "det" and c.lower_ in _POINTING for c in tok.children) or any(
            c.dep_ == "nummod" for c in tok.children) or any(ch.isdigit() for ch in tok.text):
        return None  # "in this case", "in Python 3.8" (a version says when, not where)
    if any(c.dep_ == "prep" and c.lower_ in ("to", "of") for c in tok.children):
        return None  # "in response to", "on top of", "in the root of": an idiom, or the container is further on
    if any(c.dep_ == "amod" and c.lower_ in STOP_ADJECTIVES for c in tok.children):
        return None  # "in the same directory as `foo.js`": a comparison, not a container
    after = args.doc[tok.i + 1] if tok.i + 1 < len(args.doc) else None
    if after is not None and (after.tag_ in NOUN_TAGS or after.tag_ in PROPER_TAGS) and after.head.i != tok.i:
        return None  # "dynamic `import()` in compilation APIs" cut after "compilation": the phrase is misread
    code = [c for c in tok.children if c.dep_ in ("compound", "nmod", "amod") and c.i == tok.i - 1
            and c.i in args.code_tokens]
    if code and tok.i not in args.code_tokens:
        # "the `captureRejections` option in the `EventEmitter` constructor": the code before a noun for one of
        # its parts or forms is what holds it
        found = args.resolve(code[0], "object", member)
        return found if found is not None and found.name != member.name else None
    lemma = args.lemma(tok)
    vague = tok.i not in args.code_tokens and tok.tag_ in NOUN_TAGS and (
        lemma in VAGUE_NOUNS or lemma in GENERIC_NOUNS or lemma in _NOT_CONTAINERS)
    if vague and (lemma in _NOT_CONTAINERS or not any(c.dep_ in ("compound", "amod", "nmod") for c in tok.children)):
        return None  # "in this mode", "in the output"; "the Python standard library" is a thing
    found = args.resolve(tok, "object", member)
    if found is not None and vague and found.label == CONCEPT and " " not in found.name:
        return None
    if found is None and not vague and tok.tag_ in NOUN_TAGS and tok.is_alpha and tok.is_lower and len(lemma) > 3:
        # One plain noun ("on responses", "in the depender"): the term `resolve` keeps only as a verb's object.
        spot = args.phrase(tok)
        if spot is not None:
            found = args._new(spot[1], args.concept_class, CONCEPT, spot[0], tok.i + 1)
    if found is None or found.is_date or found.name == member.name or found.label in ("PERSON", "NORP"):
        return None
    return found


def _option_of_topic(args: TechArgs, ours: list[Triple], code: Token, member: Mention) -> None:
    """ "If no ``OUTPUT_*`` or ``ERROR_*`` options are given ..." on the page of `execute_process`: an option the
    sentence gives to nothing else is the page's code's (not under a numbered rule's page: a policy has no
    options of its own, the command it is about has; not under a name in capitals, a variable's or property's)."""
    topic = args.topic
    if topic is None or topic.name == member.name or not args.is_code(topic) or (
            not any(c.islower() for c in topic.name)):
        # (a page titled in capitals documents a variable or property: "the `-static` flag" on
        # `LINK_SEARCH_START_STATIC`'s page is the linker's, not the property's; a numbered rule's name, "CMP0055",
        # is in capitals too)
        return
    sent = code.sent
    doc = args.doc
    if any(i in args.code_tokens and not _listed_with(args, i, code.i) and args.resolve(doc[i], "object") not in (
            None, member) for i in range(sent.start, sent.end) if i != code.i):
        return  # another piece of code in the sentence may be whose option it is
    if not related(ours, member.name, topic.name):
        ours.append(Triple(member, "partOf", topic))


def _listed_with(args: TechArgs, a: int, b: int) -> bool:
    """Whether code tokens `a` and `b` are items of one list ("``OUTPUT_*`` or ``ERROR_*``": nothing but code,
    commas and "and"/"or" between them)."""
    low, high = min(a, b), max(a, b)
    return all(i in args.code_tokens or args.doc[i].lower_ in (",", "or", "and") for i in range(low + 1, high))
