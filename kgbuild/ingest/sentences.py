"""Sentence boundaries for chunking: spaCy's rule-based sentencizer, fast and model-free.

The full parser runs later, in extraction; chunking only needs boundaries and runs on every
document, so it uses the cheap pipeline (about 1M words/s).
"""

from __future__ import annotations

import spacy


class SentenceSplitter:
    def __init__(self) -> None:
        self._nlp = spacy.blank("en")
        self._nlp.add_pipe("sentencizer")
        # The sentencizer holds only tokens, so very long texts are safe to process.
        self._nlp.max_length = 100_000_000

    def spans(self, text: str) -> list[tuple[int, int]]:
        """Character spans of the sentences of `text`, covering it without gaps."""
        doc = self._nlp(text)
        starts = [sent.start_char for sent in doc.sents] or [0]
        starts[0] = 0
        ends = [*starts[1:], len(text)]
        return [(s, e) for s, e in zip(starts, ends, strict=True) if text[s:e].strip()]
