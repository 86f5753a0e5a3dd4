"""How `bench/technical_text.py` scores extracted entities and relations against a technical gold set.

The rules are written down in docs/technical_gold.md ("Scoring"); this module is them. Kept apart from the
bench's extraction code so the rules read in one place.

- Names: `norm` (case, quotes, backticks, emphasis, a call's arguments, runs of space) and `forms` (a plural
  read as its singular: `-ies` -> `-y`, `-es`, `-s`), on both sides. A gold entity's `aliases` and a relation's
  `alt_s` / `alt_o` are other forms of the same end.
- Classes: a gold class (or any class of a gold list) allows the open-domain classes of `GOLD_CLASSES`.
- Relations, three ways, each printed:
  * `pair`: the earlier rule, the unordered (subject, object) pair, the predicate ignored (kept for comparison);
  * `directed`: the subject must match the gold `s` and the object the gold `o`; an extracted predicate of
    the passive "by" shape (`developedBy`, `maintained by`) is read with its ends swapped;
  * `strict` (only for gold relations with a `p`): directed, and the predicate matches by `Predicates.match`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from extract_quality import Scorer  # bench/ is on the path: these scripts run as `python bench/NAME.py`

# Gold class -> open_domain classes that count as right (the class or a subclass of one of them).
GOLD_CLASSES = {
    "code": ("CodeElement",),
    "software": ("Software",),
    "concept": ("Concept", "Thing"),
    "protocol": ("Concept", "Software", "Thing"),
    "organization": ("Organization",),
    "person": ("Person",),
    "place": ("GeographicLocation",),
}

# Words a predicate's first content lemma skips ("is part of" -> part, "has value" -> value).
_NOT_CONTENT = frozenset("be is was are were been being has have had the a an its their also can may will".split())
_ISA = frozenset({"isa", "belongto", "instanceof", "typeof", "kindof"})
# Predicates that say the same relation in other words (first content lemmas). A group holds paraphrases,
# never a different relation: "uses" and "requires" are two groups, "returns" and "creates" too.
PREDICATE_GROUPS: tuple[frozenset[str], ...] = tuple(frozenset(g.split()) for g in (
    "isa instance type kind",
    "part member belong component option property method attribute",
    "depend rely require need",
    "use utilize employ",
    "extend inherit subclass derive",
    "replace supersede successor obsolete",
    "return give yield",
    "create make generate produce construct build",
    "implement implementation",
    "define declare specify",
    "store save keep persist",
    "call invoke",
    "raise throw",
    "emit fire",
    "provide expose offer supply",
    "develop maintain",
    "read load parse",
    "accept take",
    "run execute launch",
    "configure configuration",
    "report signal",
))
_GROUP = {word: n for n, group in enumerate(PREDICATE_GROUPS) for word in group}


def norm(name: str) -> str:
    """Case, quotes, backticks, emphasis and a call's arguments ignored: `socket.connect(options)` is
    socket.connect."""
    name = name.replace("`", "").replace("*", "").strip(" \t'\".,:;").lower()
    name = re.sub(r"\(.*\)$", "", name, flags=re.DOTALL)
    return " ".join(name.split())


def forms(name: str) -> frozenset[str]:
    """The normalised name and its singular readings (`masked arrays` -> `masked array`, `dependencies` ->
    `dependency`): one of them equal on both sides is a match."""
    # A name made of punctuation only (Vim's `:` command) normalises to nothing: it is then its own form.
    key = norm(name) or name.replace("`", "").strip(" \t'\"").lower()
    out = {key}
    if key.endswith("ies") and len(key) > 4:
        out.add(key[:-3] + "y")
    if key.endswith("es") and len(key) > 3:
        out.add(key[:-2])
    if key.endswith("s") and not key.endswith("ss") and len(key) > 2:
        out.add(key[:-1])
    return frozenset(out - {""})


def same(extracted: str, gold_forms: frozenset[str]) -> bool:
    return bool(forms(extracted) & gold_forms)


def gold_classes(value: str | Sequence[str]) -> set[str]:
    names = [value] if isinstance(value, str) else list(value)
    return {cls for name in names for cls in GOLD_CLASSES[name]}


class Predicates(Scorer):
    """A predicate reduced to its first content lemma (camelCase split, lower case, `_NOT_CONTENT` skipped,
    the word lemmatised as bench/extract_quality.py does; isA, belongTo, instanceOf -> "isa"); two predicates
    match when their lemmas are equal or in one group of `PREDICATE_GROUPS` (extract_quality's `Scorer`
    with this file's tables)."""

    isa = _ISA
    not_content = _NOT_CONTENT
    groups = _GROUP

    def match(self, extracted: str, gold: Sequence[str]) -> bool:
        return self.pred_match(extracted, gold)


def by_shaped(predicate: str) -> bool:
    """ "developedBy", "maintained by": the extracted subject is the doer's object (read swapped)."""
    return bool(re.search(r"(?:By|[\s_]by)$", predicate))


class GoldRelation:
    """One labelled relation with the forms each end may take in its passage."""

    def __init__(self, raw: dict[str, Any], aliases: dict[str, frozenset[str]]) -> None:
        self.raw = raw
        self.s = self._ends(raw["s"], raw.get("alt_s", []), aliases)
        self.o = self._ends(raw["o"], raw.get("alt_o", []), aliases)
        self.p: list[str] = [raw["p"], *raw.get("alt_p", [])] if raw.get("p") else []
        # A passive "by" entry ("developedBy") is met by the "by" rule; by its lemma it would also accept the
        # active verb the wrong way round ("Jansson maintains Microsoft"), so it is left out here.
        self.inv_p: list[str] = [p for p in raw.get("inv_p", []) if not by_shaped(p)]

    @staticmethod
    def _ends(name: str, alts: Sequence[str], aliases: dict[str, frozenset[str]]) -> frozenset[str]:
        out = set(forms(name))
        for alt in alts:
            out |= forms(alt)
        for key in list(out):
            out |= aliases.get(key, frozenset())
        return frozenset(out)

    def pair(self, s: str, o: str) -> bool:
        return (same(s, self.s) and same(o, self.o)) or (same(s, self.o) and same(o, self.s))

    def directed(self, s: str, p: str, o: str) -> bool:
        if by_shaped(p):
            s, o = o, s
        return same(s, self.s) and same(o, self.o)

    def strict(self, s: str, p: str, o: str, predicates: Predicates) -> bool:
        if not self.p:
            return False
        if same(s, self.s) and same(o, self.o) and not by_shaped(p) and predicates.match(p, self.p):
            return True
        # Read the other way round: a passive "by" predicate, or one the gold lists as the inverse.
        swapped = same(o, self.s) and same(s, self.o)
        return swapped and ((by_shaped(p) and predicates.match(re.sub(r"(?:By|[\s_]by)$", "", p), self.p))
                            or (bool(self.inv_p) and predicates.match(p, self.inv_p)))


def in_text(record: dict[str, Any]) -> Callable[[str], bool]:
    """Whether a name is written in the passage's text (not only in its heading path), as `norm` reads both."""
    text = " ".join(record["text"].replace("`", "").replace("*", "").lower().split())

    def written(name: str) -> bool:
        key = norm(name)
        return bool(key) and key in text

    return written


def entity_aliases(record: dict[str, Any]) -> dict[str, frozenset[str]]:
    """Every form of a gold entity -> all the forms of it and its aliases."""
    out: dict[str, frozenset[str]] = {}
    for e in record["entities"]:
        group = set(forms(e["name"]))
        for alias in e.get("aliases", []):
            group |= forms(alias)
        for key in group:
            out[key] = out.get(key, frozenset()) | frozenset(group)
    return out


def score(gold: list[dict[str, Any]], extracted: dict[str, Any], predicates: Predicates,
          half: str | None = None) -> dict[str, float | int | None]:
    """Figures over the labelled passages; `half` "dev" (even line index) or "test" (odd) only."""
    t: Counter[str] = Counter()
    strict_set = any(r.get("p") for record in gold for r in record["relations"])
    for index, record in enumerate(gold):
        if half is not None and (index % 2 == 0) != (half == "dev"):
            continue
        ex = extracted.get(f"{record['id']}.md", {"entities": [], "relations": []})
        aliases = entity_aliases(record)
        gold_ents = [(frozenset(aliases[next(iter(forms(e["name"])))]), e["class"]) for e in record["entities"]]
        found: set[int] = set()
        written = in_text(record)
        for e in ex["entities"]:
            if e["class"] == "Date":
                continue  # dates are not labelled here
            t["ent_extracted"] += 1
            t["ent_extracted_in_text"] += written(e["name"])
            hit = next((n for n, (names, _) in enumerate(gold_ents) if same(e["name"], names)), None)
            if hit is None:
                continue
            t["ent_right"] += 1
            t["ent_right_in_text"] += written(e["name"])
            found.add(hit)
            if gold_classes(gold_ents[hit][1]) & set(e["ancestors"]):
                t["ent_class_right"] += 1
        t["ent_gold"] += len(gold_ents)
        t["ent_found"] += len(found)
        rels = [GoldRelation(r, aliases) for r in record["relations"]]
        triples = {tuple(r) for r in ex["relations"]}
        hits: dict[str, set[int]] = {"pair": set(), "directed": set(), "strict": set()}
        for s, p, o in triples:
            t["rel_extracted"] += 1
            t["rel_extracted_in_text"] += written(s) and written(o)
            for way in hits:
                matched = [n for n, g in enumerate(rels) if (
                    g.pair(s, o) if way == "pair" else g.directed(s, p, o) if way == "directed"
                    else g.strict(s, p, o, predicates))]
                if matched:
                    t[f"rel_right_{way}"] += 1
                    t[f"rel_right_{way}_in_text"] += written(s) and written(o)
                    hits[way].update(matched)
        t["rel_gold"] += len(rels)
        for way, found_rels in hits.items():
            t[f"rel_found_{way}"] += len(found_rels)

    def ratio(a: str, b: str) -> float | None:
        return round(t[a] / t[b], 3) if t[b] else None

    figures: dict[str, float | int | None] = {
        "entity_precision": ratio("ent_right", "ent_extracted"),
        "entity_class_right": ratio("ent_class_right", "ent_right"),
        "entity_recall": ratio("ent_found", "ent_gold"),
    }
    for way in ("strict", "directed", "pair") if strict_set else ("directed", "pair"):
        figures[f"relation_precision_{way}"] = ratio(f"rel_right_{way}", "rel_extracted")
        figures[f"relation_recall_{way}"] = ratio(f"rel_found_{way}", "rel_gold")
    # Only what the passage's text writes (a name from the heading path alone is left out on both sides of
    # the ratio): the first set's labels cover the passage, not its headings (docs/technical_gold.md).
    figures["entity_precision_in_text"] = ratio("ent_right_in_text", "ent_extracted_in_text")
    for way in ("strict", "directed", "pair") if strict_set else ("directed", "pair"):
        figures[f"relation_precision_{way}_in_text"] = ratio(f"rel_right_{way}_in_text", "rel_extracted_in_text")
    figures["entities_extracted"] = t["ent_extracted"]
    figures["relations_extracted"] = t["rel_extracted"]
    figures["relations_gold"] = t["rel_gold"]
    figures["relations_extracted_in_text"] = t["rel_extracted_in_text"]
    for way in ("strict", "directed", "pair") if strict_set else ("directed", "pair"):
        # Counts behind the ratios, so sets can be added up (bench/technical_text.py's "all sets" lines).
        figures[f"relations_right_{way}"] = t[f"rel_right_{way}"]
        figures[f"relations_right_{way}_in_text"] = t[f"rel_right_{way}_in_text"]
        figures[f"relations_found_{way}"] = t[f"rel_found_{way}"]
    return figures


def union(per_set: list[dict[str, float | int | None]], way: str | None = None) -> dict[str, float | None]:
    """Relation precision and recall over several scored sets together: each set by `way`, or (None) by the
    strictest way it supports (`strict` where its relations carry predicates, else `directed`)."""
    right = found = extracted = gold = right_in_text = extracted_in_text = 0
    for figures in per_set:
        use = way or ("strict" if "relations_right_strict" in figures else "directed")
        right += int(figures[f"relations_right_{use}"] or 0)
        right_in_text += int(figures[f"relations_right_{use}_in_text"] or 0)
        found += int(figures[f"relations_found_{use}"] or 0)
        extracted += int(figures["relations_extracted"] or 0)
        extracted_in_text += int(figures["relations_extracted_in_text"] or 0)
        gold += int(figures["relations_gold"] or 0)
    return {"relation_precision": round(right / extracted, 3) if extracted else None,
            "relation_recall": round(found / gold, 3) if gold else None,
            "relation_precision_in_text": round(right_in_text / extracted_in_text, 3) if extracted_in_text else None,
            "relations_extracted": extracted, "relations_gold": gold}
