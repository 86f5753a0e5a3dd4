"""Lemmas for the few tokens the rules read, from spaCy's English lemma tables.

The pipeline runs without its `attribute_ruler` and `lemmatizer` components: together they cost
about a fifth of en_core_web_sm's time, and the rules only need the lemma of verbs and of
plural nouns. This applies spaCy's own rule tables (exceptions, suffix rules, known-lemma
index) keyed by the fine-grained tag, with a per-instance cache.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Token

_BE_FORMS = frozenset({"am", "are", "is", "was", "were", "be", "been", "being", "'s", "'re", "'m", "’s", "’re"})
# Tags whose word is already its own lemma (spaCy's is_base_form does the same with morphology).
_BASE_TAGS = frozenset({"VB", "VBP", "NN", "NNP"})


class Lemmatizer:
    def __init__(self, nlp: Language | None) -> None:
        self._tables: dict[str, tuple[Any, Any, Any]] = {}
        lookups = None
        if nlp is not None and "lemmatizer" in nlp.component_names:
            lookups = getattr(nlp.get_pipe("lemmatizer"), "lookups", None)
        if lookups is not None:
            index = lookups.get_table("lemma_index", {})
            exc = lookups.get_table("lemma_exc", {})
            rules = lookups.get_table("lemma_rules", {})
            for pos in ("verb", "noun"):
                # The index is stored as a list: a set makes each membership test O(1).
                self._tables[pos] = (frozenset(index.get(pos, ())), exc.get(pos, {}), rules.get(pos, []))
        self._cache: dict[tuple[str, str], str] = {}

    def __call__(self, token: Token) -> str:
        text = token.lower_
        tag = token.tag_
        if text in _BE_FORMS and tag.startswith("VB"):
            return "be"
        if text in ("'ve", "’ve"):
            return "have"
        if tag in _BASE_TAGS or not (tag.startswith("VB") or tag == "NNS"):
            return text
        key = (text, tag)
        cached = self._cache.get(key)
        if cached is None:
            cached = self._rule_lemma(text, "verb" if tag.startswith("VB") else "noun")
            self._cache[key] = cached
        return cached

    def _rule_lemma(self, text: str, pos: str) -> str:
        # Mirrors spacy.pipeline.Lemmatizer.rule_lemmatize, returning its first form.
        if pos not in self._tables:
            return text
        if text.startswith("co-") and len(text) > 5:
            return "co-" + self._rule_lemma(text[3:], pos)  # "co-wrote" -> "co-write", "co-founded" -> "co-found"
        index, exceptions, rules = self._tables[pos]
        if exceptions.get(text):
            return str(exceptions[text][0])
        known: list[str] = []
        unknown: list[str] = []
        for old, new in rules:
            if text.endswith(old):
                form = text[: len(text) - len(old)] + new
                if not form:
                    continue
                if form in index:
                    known.insert(0, form)
                elif not form.isalpha():
                    known.append(form)
                else:
                    unknown.append(form)
        if known:
            return known[0]
        if unknown:
            return unknown[0]
        return text
