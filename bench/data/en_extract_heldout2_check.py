"""Sanity checks for en_extract_heldout2.jsonl: format and surface forms only, no extraction. The checks are
en_extract_heldout3_check.py's (written from this script), run on this file with en_extract_gold.jsonl as the
only earlier set.

Checks: every line is JSON with the eight record keys and `"labelled": "before-tuning"`; ids are unique
and no title is already in en_extract_gold.jsonl; each text equals its source passage; each fact has
s, p, o, alt_p, q, kind and sym, a known kind, and `p == "isa"` exactly for kind isa; every `names`
and `aliases` entry occurs in the text; each fact's s and o, or one of its alt_ forms or alias forms,
occurs in the text (case-insensitive, with 2Wiki's "- " spacing ignored). It prints one line per
problem and a summary line of counts.

Usage: python bench/data/en_extract_heldout2_check.py
"""

from __future__ import annotations

import sys

from en_extract_heldout3_check import HERE, main

if __name__ == "__main__":
    sys.exit(main(HERE / "en_extract_heldout2.jsonl", (HERE / "en_extract_gold.jsonl",), ()))
