"""Sentence boundaries for chunking: spaCy's rule-based sentencizer, fast and model-free.

The full parser runs later, in extraction; chunking only needs boundaries and runs on every
document, so it uses the cheap pipeline (about 1M words/s).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spacy.language import Language

# Characters given to spaCy at a time. A spaCy Doc costs ~60 bytes of memory per input byte, so
# one Doc over a 50 MB paragraph peaked near 3 GB (issue 16); segments keep it bounded.
SEGMENT_CHARS = 100_000


class SentenceSplitter:
    def __init__(self, segment_chars: int = SEGMENT_CHARS) -> None:
        # spaCy is imported on the first split, not here: importing it pulls in thinc and, where it
        # is installed, torch (seconds), which a build with nothing to chunk must not pay.
        self._nlp: Language | None = None
        self.segment_chars = segment_chars
        self.segments_processed = 0  # segments given to spaCy: lets tests check the work stays linear

    def _pipeline(self) -> Language:
        if self._nlp is None:
            import spacy

            nlp = spacy.blank("en")
            nlp.add_pipe("sentencizer")
            # Segments are small, but a segment grows while it holds no sentence boundary.
            nlp.max_length = 2**62
            self._nlp = nlp
        return self._nlp

    def _starts(self, text: str) -> list[int]:
        self.segments_processed += 1
        return [sent.start_char for sent in self._pipeline()(text).sents]

    def iter_spans(self, text: str) -> Iterator[tuple[int, int]]:
        """Character spans of the sentences of `text`, covering it without gaps, streamed.

        The text is split in segments cut at a space; every sentence of a segment but its last
        is final, and the next segment starts at that last sentence's start. The sentencizer's
        state resets at each sentence start and spaCy tokenizes between spaces, so the spans
        are exactly those of one Doc over the whole text, with memory bounded by a segment.
        """
        base, n, size = 0, len(text), self.segment_chars
        while base < n:
            end = base + size
            if end < n:
                cut = text.rfind(" ", base + size // 2, end)
                end = cut + 1 if cut > base else end
            else:
                end = n
            starts = self._starts(text[base:end]) or [0]
            starts[0] = 0
            if end < n and len(starts) < 2:
                size *= 2  # no boundary inside: widen (doubling keeps the total work linear)
                continue
            last = len(starts) if end >= n else len(starts) - 1
            bounds = [*starts[: last + 1], end - base] if end >= n else starts[: last + 1]
            for s, e in pairwise(bounds):
                if text[base + s : base + e].strip():
                    yield base + s, base + e
            if end >= n:
                return
            base += starts[last]
            size = self.segment_chars

    def spans(self, text: str) -> list[tuple[int, int]]:
        """Character spans of the sentences of `text`, covering it without gaps."""
        return list(self.iter_spans(text))
