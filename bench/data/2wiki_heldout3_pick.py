"""Candidate passage pairs for the third 2Wiki held-out QA set (reads JSON only; runs no kgbuild code).

A pair (A, B): passage A's text contains the exact title of passage B (on word boundaries), B's text
opens with its title and a bracket holding a year (a person with birth/death dates), A's title does not
contain B's title, and neither passage is used by 2wiki_heldout_qa.json or 2wiki_heldout2_qa.json.
The candidates are shuffled with random.Random(31) and printed in that order; the writer reads them in
that order and takes a pair only when it gives a question (see 2wiki_heldout3_qa.md).

`python bench/data/2wiki_heldout3_pick.py [N]` prints the first N candidates (default 400).
"""
from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path

DATA = Path(__file__).parent
CORPUS = Path("/work/shared/data/2wiki/corpus.json")
QA_SETS = ("2wiki_heldout_qa.json", "2wiki_heldout2_qa.json")  # used by the earlier sets: left out
SEED = 31
PERSON = re.compile(r"\(\s*[^()]*\b1?\d{3}\b[^()]*\)")


def used_titles(qa_sets: tuple[str, ...] = QA_SETS, extraction_sets: tuple[str, ...] = ()) -> set[str]:
    """Titles the earlier QA sets use as evidence, and the titles of the English extraction sets named."""
    used = set()
    for name in qa_sets:
        used |= {t for q in json.loads((DATA / name).read_text(encoding="utf-8")) for t, _ in q["supporting_facts"]}
    for name in extraction_sets:
        lines = (DATA / name).read_text(encoding="utf-8").splitlines()
        used |= {json.loads(line)["title"] for line in lines if line.strip()}
    return used


def candidates(used: set[str] | None = None, seed: int = SEED) -> list[tuple[str, str]]:
    corpus = json.loads(CORPUS.read_text(encoding="utf-8"))
    used = used_titles() if used is None else used
    free = [r for r in corpus if r["title"] not in used]
    people = [r["title"] for r in free
              if r["text"].startswith(r["title"]) and PERSON.match(r["text"][len(r["title"]):].lstrip())
              and " " in r["title"]]
    pairs = []
    for b in people:
        pattern = re.compile(r"(?<!\w)" + re.escape(b) + r"(?!\w)")
        pairs += [(a["title"], b) for a in free
                  if a["title"] != b and b not in a["title"] and pattern.search(a["text"])]
    pairs.sort()
    random.Random(seed).shuffle(pairs)
    return pairs


def main(pairs: list[tuple[str, str]] | None = None) -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    pairs = candidates() if pairs is None else pairs
    print(f"{len(pairs)} candidate pairs")
    for i, (a, b) in enumerate(pairs[:n]):
        print(f"{i}\t{a}\t->\t{b}")


if __name__ == "__main__":
    main()
