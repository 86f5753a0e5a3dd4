"""Candidate passage pairs for the fourth 2Wiki held-out QA set (reads JSON only; runs no kgbuild code).

A pair (A, B): passage A's text contains the exact title of passage B (on word boundaries), B's text
opens with its title and a bracket holding a year (a person with birth/death dates), A's title does not
contain B's title, and neither passage is used by 2wiki_heldout_qa.json, 2wiki_heldout2_qa.json or
2wiki_heldout3_qa.json, nor titles a record of the English extraction sets (en_extract_gold.jsonl,
en_extract_heldout2/3/4.jsonl; only their titles are read).
The candidates are shuffled with random.Random(83) and printed in that order; the writer reads them in
that order and takes a pair only when it gives a question (see 2wiki_heldout4_qa.md).

`python bench/data/2wiki_heldout4_pick.py [N]` prints the first N candidates (default 400).
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

# The third set's picker with wider exclusions and its own seed (the same rule, so one copy of it).
_SPEC = importlib.util.spec_from_file_location("heldout3_pick", Path(__file__).parent / "2wiki_heldout3_pick.py")
assert _SPEC is not None and _SPEC.loader is not None
third = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(third)

QA_SETS = ("2wiki_heldout_qa.json", "2wiki_heldout2_qa.json", "2wiki_heldout3_qa.json")
EXTRACTION_SETS = ("en_extract_gold.jsonl", "en_extract_heldout2.jsonl", "en_extract_heldout3.jsonl",
                   "en_extract_heldout4.jsonl")
SEED = 83


def candidates() -> list[tuple[str, str]]:
    return third.candidates(third.used_titles(QA_SETS, EXTRACTION_SETS), SEED)


if __name__ == "__main__":
    third.main(candidates())
