"""Sanity checks for en_extract_heldout3.jsonl: format and surface forms only, no extraction.

Checks: every line is JSON with the eight record keys and `"labelled": "before-tuning"`; ids are unique,
no title is already in en_extract_gold.jsonl or en_extract_heldout2.jsonl, and none is a supporting-facts
title of 2wiki_heldout_qa.json or 2wiki_heldout2_qa.json; each text equals its source passage; each fact has
s, p, o, alt_p, q, kind and sym, a known kind, and `p == "isa"` exactly for kind isa; every `names`
and `aliases` entry occurs in the text; each fact's s and o, or one of its alt_ forms or alias forms,
occurs in the text (case-insensitive, with 2Wiki's "- " spacing ignored). It prints one line per
problem and a summary line of counts.

Usage: python bench/data/en_extract_heldout3_check.py
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
HELDOUT = HERE / "en_extract_heldout3.jsonl"
EARLIER = (HERE / "en_extract_gold.jsonl", HERE / "en_extract_heldout2.jsonl")
QA_SETS = (HERE / "2wiki_heldout_qa.json", HERE / "2wiki_heldout2_qa.json")
DATA = Path("/work/shared/data")
KEYS = {"id", "source", "title", "text", "labelled", "facts", "aliases", "names"}
FACT_KEYS = {"s", "p", "o", "alt_p", "q", "kind", "sym"}
KINDS = {"relation", "isa", "date", "value"}


def loose(text: str) -> str:
    """Lower case, quotes dropped, spaces collapsed and no space beside a hyphen."""
    text = text.lower().replace('"', "")
    text = re.sub(r"\s*-\s*", "-", text)
    return re.sub(r"\s+", " ", text).strip()


def source_texts() -> dict[tuple[str, str], str]:
    hotpot = json.loads((DATA / "hotpotqa" / "train_corpus.json").read_text(encoding="utf-8"))
    wiki = json.loads((DATA / "2wiki" / "corpus.json").read_text(encoding="utf-8"))
    out = {("hotpotqa", title): "".join(sents) for title, sents in hotpot.items()}
    out.update({("2wiki", e["title"]): e["text"] for e in wiki})
    return out


def occurs(forms: list[str], text: str) -> bool:
    return any(loose(f) and loose(f) in text for f in forms)


def check_record(r: dict[str, Any], sources: dict[tuple[str, str], str]) -> list[str]:
    problems = []
    where = r.get("id", "?")
    if set(r) != KEYS:
        return [f"{where}: keys {sorted(set(r) ^ KEYS)} differ from the eight record keys"]
    if r["labelled"] != "before-tuning":
        problems.append(f"{where}: labelled is {r['labelled']!r}")
    if sources.get((r["source"], r["title"])) != r["text"]:
        problems.append(f"{where}: text differs from the {r['source']} passage titled {r['title']!r}")
    text = loose(r["text"])
    groups = [[k, *v] for k, v in r["aliases"].items()]
    for name in r["names"] + [f for g in groups for f in g]:
        if loose(name) not in text:
            problems.append(f"{where}: name or alias {name!r} is not in the text")
    for n, f in enumerate(r["facts"]):
        if not set(f) >= FACT_KEYS or set(f) - FACT_KEYS - {"alt_s", "alt_o"}:
            problems.append(f"{where} fact {n}: keys {sorted(f)}")
            continue
        if f["kind"] not in KINDS or (f["kind"] == "isa") != (f["p"] == "isa"):
            problems.append(f"{where} fact {n}: kind {f['kind']!r} with p {f['p']!r}")
        for role in ("s", "o"):
            forms = [f[role], *f.get(f"alt_{role}", [])]
            forms += [x for g in groups if any(loose(y) == loose(z) for y in g for z in forms) for x in g]
            if role == "o" and f["kind"] == "isa":
                continue  # a class noun may be reduced from the text's phrase
            digits_only = role == "o" and f["kind"] in ("date", "value") and occurs(re.findall(r"\d+", f["o"]), text)
            if not occurs(forms, text) and not digits_only:
                problems.append(f"{where} fact {n}: {role} {f[role]!r} (or its other forms) is not in the text")
    return problems


def main(heldout: Path = HELDOUT, earlier_sets: tuple[Path, ...] = EARLIER, qa_sets: tuple[Path, ...] = QA_SETS) -> int:
    """Check `heldout` (later sets call this with their own file and the longer exclusion lists)."""
    records = [json.loads(line) for line in heldout.read_text(encoding="utf-8").splitlines() if line.strip()]
    earlier = [json.loads(line) for path in earlier_sets
               for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    taken = {g["title"] for g in earlier} | {g["id"] for g in earlier}
    taken |= {fact[0] for path in qa_sets for item in json.loads(path.read_text(encoding="utf-8"))
              for fact in item["supporting_facts"]}
    sources = source_texts()
    problems = []
    ids = Counter(r.get("id") for r in records)
    problems += [f"{i}: id used {c} times" for i, c in ids.items() if c > 1]
    for r in records:
        if r.get("title") in taken or r.get("id") in taken:
            problems.append(f"{r.get('id')}: title already in an earlier set or a held-out QA set's evidence")
        problems += check_record(r, sources)
    for line in problems:
        print(line)
    kinds = Counter((r["source"], f["kind"]) for r in records for f in r["facts"])
    summary = {
        "passages": dict(Counter(r["source"] for r in records)),
        "facts": sum(kinds.values()),
        "facts_by_source_kind": {f"{s}/{k}": c for (s, k), c in sorted(kinds.items())},
        "facts_with_q": sum(bool(f["q"]) for r in records for f in r["facts"]),
        "symmetric": sum(f["sym"] for r in records for f in r["facts"]),
        "alias_groups": sum(len(r["aliases"]) for r in records),
        "names": sum(len(r["names"]) for r in records),
        "problems": len(problems),
    }
    print(json.dumps(summary, ensure_ascii=False))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
