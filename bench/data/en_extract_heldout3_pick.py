"""Pick the passages of en_extract_heldout3.jsonl: a seeded draw, not a reader's choice.

It only reads and samples JSON (no extractor is imported or run). Rule, per source: candidates are the
passages with 2 to 6 sentences whose title is not in en_extract_gold.jsonl or en_extract_heldout2.jsonl
(any source) and is not a supporting-facts title of 2wiki_heldout_qa.json or 2wiki_heldout2_qa.json,
sorted by title; random.Random(2028).sample(candidates, 20) picks them, in that order.

- hotpotqa: /work/shared/data/hotpotqa/train_corpus.json, one title's stored sentence list; the
  passage is the sentences joined with "" (each carries its own leading space), as in the gold set.
- 2wiki: /work/shared/data/2wiki/corpus.json, one {title, text} entry's text; sentences are counted by
  splitting after . ! or ? followed by white space and an upper-case letter, a digit, a quote or "(".
  A title that occurs more than once in the corpus is left out (its passage would be ambiguous).

Usage: python bench/data/en_extract_heldout3_pick.py  (prints one JSON line per picked passage).
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from pathlib import Path

DATA = Path("/work/shared/data")
HERE = Path(__file__).parent
EARLIER_SETS = ("en_extract_gold.jsonl", "en_extract_heldout2.jsonl")
QA_SETS = ("2wiki_heldout_qa.json", "2wiki_heldout2_qa.json")
SEED = 2028
PER_SOURCE = 20
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"(])")


def excluded_titles(earlier_sets: tuple[str, ...] = EARLIER_SETS, qa_sets: tuple[str, ...] = QA_SETS) -> set[str]:
    """Titles already labelled in an earlier English set, or used as evidence by a held-out QA set."""
    titles: set[str] = set()
    for name in earlier_sets:
        lines = (HERE / name).read_text(encoding="utf-8").splitlines()
        titles |= {json.loads(line)["title"] for line in lines if line.strip()}
    for name in qa_sets:
        for item in json.loads((HERE / name).read_text(encoding="utf-8")):
            titles |= {fact[0] for fact in item["supporting_facts"]}
    return titles


def hotpotqa_candidates(taken: set[str]) -> list[tuple[str, str]]:
    corpus = json.loads((DATA / "hotpotqa" / "train_corpus.json").read_text(encoding="utf-8"))
    return sorted((title, "".join(sents)) for title, sents in corpus.items()
                  if 2 <= len(sents) <= 6 and title not in taken)


def wiki_candidates(taken: set[str]) -> list[tuple[str, str]]:
    corpus = json.loads((DATA / "2wiki" / "corpus.json").read_text(encoding="utf-8"))
    counts = Counter(e["title"] for e in corpus)
    return sorted((e["title"], e["text"]) for e in corpus
                  if counts[e["title"]] == 1 and e["title"] not in taken
                  and 2 <= len(SENTENCE_END.split(e["text"].strip())) <= 6)


def main(seed: int = SEED, earlier_sets: tuple[str, ...] = EARLIER_SETS, qa_sets: tuple[str, ...] = QA_SETS) -> None:
    """Print the draw (later sets call this with their own seed and the longer exclusion lists)."""
    taken = excluded_titles(earlier_sets, qa_sets)
    for source, candidates in (("hotpotqa", hotpotqa_candidates(taken)), ("2wiki", wiki_candidates(taken))):
        for title, text in random.Random(seed).sample(candidates, PER_SOURCE):
            print(json.dumps({"source": source, "title": title, "text": text, "candidates": len(candidates)},
                             ensure_ascii=False))


if __name__ == "__main__":
    main()
