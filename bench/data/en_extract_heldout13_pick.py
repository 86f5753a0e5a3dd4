"""Pick the passages of en_extract_heldout13.jsonl: a seeded draw, not a reader's choice. The candidates are
en_extract_heldout3_pick.py's, with the longer exclusion lists below; the draw takes every other pick.

It only reads and samples JSON (no extractor is imported or run; of the earlier sets only the titles are
read). Rule, per source: candidates are the passages with 2 to 6 sentences whose title is not in
en_extract_gold.jsonl or en_extract_heldout2.jsonl to en_extract_heldout11.jsonl (any source) and is not a
supporting-facts title of 2wiki_heldout_qa.json, 2wiki_heldout2_qa.json, 2wiki_heldout3_qa.json or
2wiki_heldout4_qa.json, sorted by title. random.Random(8444).sample(candidates, 40) draws 40, and this set keeps
the picks at odd draw indices (1, 3, ..., 39), in that order. Held-out set 12 was written at the same time from
the same seed over the same candidates and keeps the even indices, so the two sets share no passage by
construction (and neither needed to read the other's titles).

- hotpotqa: /work/shared/data/hotpotqa/train_corpus.json, one title's stored sentence list; the
  passage is the sentences joined with "" (each carries its own leading space), as in the gold set.
- 2wiki: /work/shared/data/2wiki/corpus.json, one {title, text} entry's text; sentences are counted by
  splitting after . ! or ? followed by white space and an upper-case letter, a digit, a quote or "(".
  A title that occurs more than once in the corpus is left out (its passage would be ambiguous).

Usage: python bench/data/en_extract_heldout13_pick.py  (prints one JSON line per picked passage).
"""

from __future__ import annotations

import json
import random

from en_extract_heldout3_pick import (
    EARLIER_SETS,
    PER_SOURCE,
    QA_SETS,
    excluded_titles,
    hotpotqa_candidates,
    wiki_candidates,
)

SEED = 8444
LATER_SETS = tuple(f"en_extract_heldout{n}.jsonl" for n in range(3, 12))
LATER_QA = ("2wiki_heldout3_qa.json", "2wiki_heldout4_qa.json")


def main() -> None:
    taken = excluded_titles((*EARLIER_SETS, *LATER_SETS), (*QA_SETS, *LATER_QA))
    for source, candidates in (("hotpotqa", hotpotqa_candidates(taken)), ("2wiki", wiki_candidates(taken))):
        drawn = random.Random(SEED).sample(candidates, 2 * PER_SOURCE)
        for index in range(1, len(drawn), 2):  # odd draw indices: held-out set 12 has the even ones
            title, text = drawn[index]
            print(json.dumps({"source": source, "title": title, "text": text, "candidates": len(candidates),
                              "draw_index": index}, ensure_ascii=False))


if __name__ == "__main__":
    main()
