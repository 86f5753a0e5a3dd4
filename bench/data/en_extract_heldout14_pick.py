"""Pick the passages of en_extract_heldout14.jsonl: a seeded draw, not a reader's choice. The draw is
en_extract_heldout3_pick.py's, with the seed and the longer exclusion lists below.

It only reads and samples JSON (no extractor is imported or run; of the earlier sets only the titles are
read). Rule, per source: candidates are the passages with 2 to 6 sentences whose title is not in
en_extract_gold.jsonl or en_extract_heldout2.jsonl to en_extract_heldout13.jsonl (any source) and is not a
supporting-facts title of 2wiki_heldout_qa.json, 2wiki_heldout2_qa.json, 2wiki_heldout3_qa.json or
2wiki_heldout4_qa.json, sorted by title; random.Random(9517).sample(candidates, 20) picks them, in that order.

- hotpotqa: /work/shared/data/hotpotqa/train_corpus.json, one title's stored sentence list; the
  passage is the sentences joined with "" (each carries its own leading space), as in the gold set.
- 2wiki: /work/shared/data/2wiki/corpus.json, one {title, text} entry's text; sentences are counted by
  splitting after . ! or ? followed by white space and an upper-case letter, a digit, a quote or "(".
  A title that occurs more than once in the corpus is left out (its passage would be ambiguous).

Usage: python bench/data/en_extract_heldout14_pick.py  (prints one JSON line per picked passage).
"""

from __future__ import annotations

from en_extract_heldout3_pick import EARLIER_SETS, QA_SETS, main

SEED = 9517
LATER_SETS = tuple(f"en_extract_heldout{n}.jsonl" for n in range(3, 14))
LATER_QA = ("2wiki_heldout3_qa.json", "2wiki_heldout4_qa.json")

if __name__ == "__main__":
    main(SEED, (*EARLIER_SETS, *LATER_SETS), (*QA_SETS, *LATER_QA))
