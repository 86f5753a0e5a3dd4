"""The retrieval-only answer: evidence with provenance and an extractive answer, no model.

The answer is cut from the retrieved text: the sentence of the top chunks that shares the most
content words with the question (earlier chunks preferred), then inside it the first name or
number the question does not already contain. A yes/no question gets "yes" or "no" from whether
the best sentence negates. This is a floor to compare model answers against, not a reader.

Such an answer is never `resolved`: nothing checked that the sentence answers the question (a
word overlap does not), so it is reported as an extractive answer from the top chunks.
"""

from __future__ import annotations

import math
import re
import time

from kgbuild.solve.retrieval.text import STOPWORDS, content_tokens, spans
from kgbuild.solve.types import Answer, Citation, RetrievalMode, Retriever

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[]?[A-Z0-9])")
_YES_NO = {"is", "are", "was", "were", "do", "does", "did", "can", "could", "has", "have", "had", "will", "would"}
_NEGATION = {"not", "no", "never", "neither", "nor", "n't"}
_JOINERS = {"of", "the", "and", "de", "von", "van", "la", "le", "da", "del", "&"}


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(text) if s.strip()]


def best_sentence(question: str, texts: list[str]) -> tuple[int, str, float]:
    """(text index, sentence, score) with the highest question-word overlap; ties go to earlier texts."""
    wanted = set(content_tokens(question))
    best = (0, "", -1.0)
    for rank, text in enumerate(texts):
        for sent in sentences(text):
            words = content_tokens(sent)
            if not words:
                continue
            overlap = len(wanted & set(words))
            # Short sentences that hit many question words win; rank damps lower chunks.
            score = overlap / math.sqrt(len(words)) / (1.0 + 0.2 * rank)
            if score > best[2]:
                best = (rank, sent, score)
    return best


def answer_span(question: str, sentence: str) -> str:
    """The first capitalised run or number in `sentence` that the question does not mention."""
    asked = set(content_tokens(question))
    raw = spans(sentence)
    runs: list[list[str]] = []
    current: list[str] = []
    for i, (word, _, _) in enumerate(raw):
        starts_upper = word[:1].isupper() or word[:1].isdigit()
        joiner = word.casefold() in _JOINERS and current and i + 1 < len(raw) and raw[i + 1][0][:1].isupper()
        if (starts_upper and (i > 0 or word.casefold() not in STOPWORDS)) or joiner:
            current.append(word)
        elif current:
            runs.append(current)
            current = []
    if current:
        runs.append(current)
    for run in runs:
        words = [w for w in run if w.casefold() not in STOPWORDS]
        if words and not set(content_tokens(" ".join(words))) <= asked:
            return " ".join(run)
    return sentence


def answer_offline(question: str, retriever: Retriever, k: int = 5, *, mode: RetrievalMode = "hybrid") -> Answer:
    start = time.perf_counter()
    result = retriever.retrieve(question, k, mode=mode)
    texts = [c.text for c in result.chunks]
    rank, sentence, _ = best_sentence(question, texts)
    opener = question.strip().split(" ", 1)[0].casefold()
    if opener in _YES_NO:
        said = set(re.findall(r"\w+(?:'\w+)?", sentence.casefold()))
        text = "no" if said & _NEGATION or "n't" in sentence else "yes"
    else:
        text = answer_span(question, sentence) if sentence else ""
    citations = [Citation(chunk_id=c.id, doc_id=c.doc_id, text=sentence if i == rank and sentence else c.text)
                 for i, c in enumerate(result.chunks)]
    return Answer(question=question, answer=text, resolved=False, mode="retrieval", citations=citations,
                  triples=result.triples, chunks=result.chunks, notes=result.notes,
                  seconds=time.perf_counter() - start)
