"""The shape of a question's wording: how many unnamed entities it chains through before its answer.

FRAG's router routes by it (kgbuild/query/frag/router.py), and the answer from a graph fact
(fact_answer.py) only answers a question that asks one relation of a named entity.
"""

from __future__ import annotations

import re

WORD = re.compile(r"[A-Za-z0-9]+(?:'[A-Za-z]+)?")
_CJK = re.compile(r"[\u4e00-\u9fff]")
_RELATIVE = frozenset(("who", "whom", "whose", "which", "that", "where", "when"))
_DETERMINERS = frozenset(("the", "a", "an", "his", "her", "its", "their", "this", "that", "these", "those"))
_OPENING = 3  # tokens of the opening wh-phrase ("In which city", "Who was the"): the question's own word


def chain_markers(question: str) -> int:
    """How many unnamed intermediate entities the wording introduces.

    Each of these opens one more relation to follow before the answer:
    - a relative pronoun after the opening wh-phrase ("the woman *who* portrayed ...", "the report on
      *which* ..."): the clause describes an entity the question does not name;
    - "of" + a determiner or a lowercase word ("the author *of the* report"): a relational noun applied
      to something unnamed; "of EDSAC" is not counted, since the named entity is a seed, not a hop,
      nor "of the same ..." (a comparison of named entities);
    - a possessive on a lowercase noun ("the band's founder").
    """
    if _CJK.search(question):
        return _chain_markers_zh(question)
    words = [m.group(0) for m in WORD.finditer(question)]
    count = 0
    for i, word in enumerate(words):
        low = word.casefold()
        if low in _RELATIVE and i >= _OPENING:
            count += 1
        elif low == "of" and i + 1 < len(words):
            nxt = words[i + 1]
            # "of the same nationality" compares the named entities; it introduces no new one
            same = i + 2 < len(words) and words[i + 2].casefold() == "same"
            if (nxt.casefold() in _DETERMINERS or nxt[:1].islower()) and not same:
                count += 1
        elif low.endswith("'s") and word[:1].islower():
            count += 1
    return count


def _chain_markers_zh(question: str) -> int:
    """The same count for a Chinese question, where a modifier comes before its noun with 的: the first
    的 attaches what is asked to the named entity (星河智能的董事长, as "the chairman of X": no hop), each
    further 的 to something unnamed (EDSAC的设计者所依据的报告的作者: the designer, the report)."""
    return max(0, question.count("的") - 1)
