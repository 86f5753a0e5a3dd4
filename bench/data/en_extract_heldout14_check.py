"""Sanity checks for en_extract_heldout14.jsonl: format and surface forms only, no extraction. The checks
are en_extract_heldout3_check.py's, with this file and the longer exclusion lists below.

Checks: every line is JSON with the eight record keys and `"labelled": "before-tuning"`; ids are unique, no
title is already in en_extract_gold.jsonl or en_extract_heldout2.jsonl to en_extract_heldout13.jsonl, and none
is a supporting-facts title of 2wiki_heldout_qa.json, 2wiki_heldout2_qa.json, 2wiki_heldout3_qa.json or
2wiki_heldout4_qa.json; each text equals its source passage; each fact has s, p, o, alt_p, q, kind and sym, a
known kind, and `p == "isa"` exactly for kind isa; every `names` and `aliases` entry occurs in the text; each
fact's s and o, or one of its alt_ forms or alias forms, occurs in the text (case-insensitive, with
2Wiki's "- " spacing ignored). It prints one line per problem and a summary line of counts.

Usage: python bench/data/en_extract_heldout14_check.py
"""

from __future__ import annotations

import sys

from en_extract_heldout3_check import EARLIER, HERE, QA_SETS, main

LATER = tuple(HERE / f"en_extract_heldout{n}.jsonl" for n in range(3, 14))
LATER_QA = (HERE / "2wiki_heldout3_qa.json", HERE / "2wiki_heldout4_qa.json")

if __name__ == "__main__":
    sys.exit(main(HERE / "en_extract_heldout14.jsonl", (*EARLIER, *LATER), (*QA_SETS, *LATER_QA)))
