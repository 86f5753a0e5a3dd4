"""The retrieval-only answer: evidence with provenance and an extractive answer, no model.

The answer is cut from the retrieved text by a typed span extractor:

1. the question's wording gives the expected answer type (`answer_types.expected`): yes/no, one
   of two compared names, a date or year, a number, a place, a person, an organisation, a work;
2. candidate spans come from the sentences of the top chunks: graph entities supported by the
   chunk whose names occur in the sentence (typed by their spg_class), dates and numbers found by
   pattern, and capitalised runs; spans the question already contains are left out;
3. a span scores by how many rare question words its sentence and chunk share (IDF over the
   indexed chunks), how close it sits to those words, the chunk's rank, and whether its type is
   the expected one; the best span is the answer. Chinese text has no spaces: its words are
   jieba's (`text.word_spans`), so a question and a passage share "总部" and "位于" as English
   ones share "headquarters".

A yes/no "both"/"same" question checks each compared name's own passage for the asked property;
a "which first, A or B" question compares the first year of each name's passage; other two-name
comparisons take the name whose passage shares most question words. Any other yes/no question
gets "no" when the best sentence negates, else "yes". This is a floor to compare model answers
against, not a reader.

Such an answer is never `resolved`: nothing checked that the sentence answers the question (a
word overlap does not), so it is reported as an extractive answer from the top chunks.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass

from kgbuild.query.retrieval import answer_types as at
from kgbuild.query.retrieval.fact_answer import FactAnswer, fact_answer
from kgbuild.query.retrieval.index import MutualIndex
from kgbuild.query.retrieval.text import (
    STOPWORDS,
    content_tokens,
    content_words,
    spans,
    tokens,
    word_spans,
    words,
)
from kgbuild.query.types import Answer, Citation, RetrievalMode, Retriever
from kgbuild.text import fold, mention_key
from kgbuild.text_language import has_cjk

# Chinese sentences end in 。！？ with no space after them.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[]?[A-Z0-9])|(?<=[。！？；])\s*")
_YES_NO = at.YES_NO
_NEGATION = {"not", "no", "never", "neither", "nor", "n't"}
_JOINERS = {"of", "the", "and", "de", "von", "van", "la", "le", "da", "del", "&"}
# Question words that say nothing about where the answer is.
_GENERIC = frozenset({"also", "both", "same", "one", "two", "name", "known", "based", "located", "first"})


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(text) if s.strip()]


def best_sentence(question: str, texts: list[str]) -> tuple[int, str, float]:
    """(text index, sentence, score) with the highest question-word overlap; ties go to earlier texts."""
    wanted = set(content_words(question))
    best = (0, "", -1.0)
    for rank, text in enumerate(texts):
        for sent in sentences(text):
            said = content_words(sent)
            if not said:
                continue
            overlap = len(wanted & set(said))
            # Short sentences that hit many question words win; rank damps lower chunks.
            score = overlap / math.sqrt(len(said)) / (1.0 + 0.2 * rank)
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
        kept = [w for w in run if w.casefold() not in STOPWORDS]
        if kept and not set(content_tokens(" ".join(kept))) <= asked:
            return " ".join(run)
    return sentence


# ---------------------------------------------------------------- corpus statistics


def idf_table(index: MutualIndex | None) -> tuple[dict[str, float], float]:
    """Token -> IDF over the index's chunks (and the IDF of an unseen token); ({}, 1.0) without an index."""
    if index is None or not index.chunk_text:
        return {}, 1.0
    return index.idf()


# ---------------------------------------------------------------- candidate spans


@dataclass
class Candidate:
    text: str
    kind: str  # "entity", "pattern", "run"
    classes: frozenset[str]
    rank: int
    sentence: str
    score: float = 0.0


def _entity_spans(sentence: str, names: Sequence[tuple[str, str | None]]) -> list[tuple[str, int, int, str | None]]:
    out = []
    low = sentence.casefold()
    for name, cls in names:
        if len(name) < 2:
            continue
        start = 0
        key = name.casefold()
        while (at_ := low.find(key, start)) >= 0:
            end = at_ + len(key)
            # A Chinese name has no spaces around it: a CJK edge needs no word boundary.
            if ((at_ == 0 or not low[at_ - 1].isalnum() or has_cjk(key[0]))
                    and (end == len(low) or not low[end].isalnum() or has_cjk(key[-1]))):
                out.append((sentence[at_:end], at_, end, cls))
                break
            start = at_ + 1
    return out


def _chunk_names(index: MutualIndex | None, chunk_id: str) -> list[tuple[str, str | None]]:
    """(name, spg_class) of the graph entities the chunk supports (none without an index)."""
    pos = index.chunk_pos.get(chunk_id) if index is not None else None
    if index is None or pos is None:
        return []
    return [(index.node_names[node], index.node_types[node]) for node in index.nodes_of_chunk(pos)
            if index.node_kind[node] == "entity"]


def _asked(question: str) -> set[str]:
    return set(content_words(question))


def _novel(span: str, asked: set[str]) -> bool:
    said = content_words(span)
    return bool(said) and not set(said) <= asked


def candidates(question: str, want: at.Expected, chunks: Sequence[tuple[str, str]], index: MutualIndex | None,
               idf: dict[str, float], unseen: float, own: frozenset[str] = frozenset()) -> list[Candidate]:
    """Scored candidate spans of the chunks `(chunk_id, text)`, in rank order. `own`: the folded names
    of the entities the question names (by any alias), which are never its answer."""
    asked = _asked(question)
    weight = {w: idf.get(w, unseen) for w in asked if w not in _GENERIC}
    out: list[Candidate] = []
    for rank, (chunk_id, text) in enumerate(chunks):
        chunk_words = set(words(text))
        chunk_rel = sum(v for w, v in weight.items() if w in chunk_words)
        names = _chunk_names(index, chunk_id)
        for sent in sentences(text):
            raw = word_spans(sent)
            folded = [fold(w) for w, _, _ in raw]
            hits = [i for i, w in enumerate(folded) if w in weight]
            sent_rel = sum(weight[w] for w in set(folded) if w in weight)
            found: list[tuple[str, int, int, str, frozenset[str]]] = []
            for span, s, e in at.pattern_spans(sent, want.kind):
                found.append((span, s, e, "pattern", want.classes))
            for span, s, e, cls in _entity_spans(sent, names):
                found.append((span, s, e, "entity", frozenset({(cls or "").casefold()})))
            for span, s, e in at.capitalised_runs(sent, skip_first=True):
                found.append((span, s, e, "run", frozenset()))
            taken: list[tuple[int, int]] = []
            for span, s, e, kind, classes in found:
                if any(s < te and ts < e for ts, te in taken) or not _novel(span, asked) or fold(span) in own:
                    continue
                taken.append((s, e))
                first = next((i for i, (_, ws, _) in enumerate(raw) if ws >= s), len(raw))
                last = next((i for i, (_, _, we) in enumerate(raw) if we >= e), len(raw) - 1)
                dist = min((min(abs(h - first), abs(h - last)) for h in hits if not first <= h <= last), default=None)
                prox = 0.0 if dist is None else max(weight[folded[h]] for h in hits
                                                    if min(abs(h - first), abs(h - last)) == dist) / (1.0 + dist / 3)
                score = (sent_rel + 0.3 * chunk_rel + prox) / (1.0 + 0.15 * rank)
                out.append(Candidate(span, kind, classes, rank, sent, score))
    return out


def _type_factor(c: Candidate, want: at.Expected) -> float:
    if want.kind in (at.DATE, at.YEAR, at.NUMBER):
        return 1.0 if c.kind == "pattern" else 0.05
    if want.classes:
        if c.classes & want.classes:
            return 1.0
        return 0.5 if c.kind == "run" or not (c.classes - {""}) else 0.25
    return 1.0


def pick(question: str, want: at.Expected, cands: list[Candidate]) -> Candidate | None:
    best: Candidate | None = None
    for c in cands:
        c.score *= _type_factor(c, want)
        if best is None or c.score > best.score:
            best = c
    return best


# ---------------------------------------------------------------- comparisons and yes/no


def _evidence(name: str, chunks: Sequence[tuple[str, str, str]]) -> str:
    """The text of the passage about `name`: titled by it, else the first chunk naming it."""
    key = mention_key(name)
    for _, title, text in chunks:
        tkey = mention_key(re.sub(r"\s*\([^()]*\)\s*$", "", title))
        if tkey == key:
            return text
    for _, title, text in chunks:
        if mention_key(title).startswith(key) or key.startswith(mention_key(title) or "\0"):
            return text
    for _, _, text in chunks:
        if key and key in mention_key(text):
            return text
    return ""


def _stem(word: str) -> str:
    return word[:5]


def _coverage(words: set[str], text: str) -> float:
    if not words:
        return 0.0
    have = {_stem(t) for t in tokens(" ".join(sentences(text)[:2]))}
    return sum(1 for w in words if _stem(w) in have) / len(words)


def _first_year(text: str) -> int | None:
    m = at.YEAR_RE.search(text)
    return int(m.group(0)) if m else None


def _property_words(question: str, names: Sequence[str]) -> set[str]:
    named = set().union(*(content_tokens(n) for n in names)) if names else set()
    return {w for w in content_tokens(question) if w not in named and w not in _GENERIC and w not in _YES_NO}


def choose(question: str, want: at.Expected, chunks: Sequence[tuple[str, str, str]]) -> str:
    a, b = want.options
    ea, eb = _evidence(a, chunks), _evidence(b, chunks)
    if want.order:
        ya, yb = _first_year(ea), _first_year(eb)
        if ya is not None and yb is not None and ya != yb:
            return a if (ya < yb) == (want.order == "earlier") else b
    words = _property_words(question, want.options)
    ca, cb = _coverage(words, ea), _coverage(words, eb)
    return b if cb > ca else a


def yes_no(question: str, chunks: Sequence[tuple[str, str, str]], sentence: str) -> str:
    names = [_strip(r[0]) for r in at.capitalised_runs(at.last_sentence(question))]
    names = [n for n in names if n and content_tokens(n)]
    qwords = set(tokens(question))
    if len(names) >= 2 and qwords & {"both", "same"}:
        evidence = [_evidence(n, chunks) for n in names[:2]]
        if all(evidence):
            if "same" in qwords:
                runs = [{fold(r[0]) for r in at.capitalised_runs(" ".join(sentences(e)[:2]))} - {fold(n) for n in names}
                        for e in evidence]
                return "yes" if runs[0] & runs[1] else "no"
            words = _property_words(question, names[:2])
            return "yes" if min(_coverage(words, e) for e in evidence) >= 0.5 else "no"
    said = set(re.findall(r"\w+(?:'\w+)?", sentence.casefold()))
    return "no" if said & _NEGATION or "n't" in sentence else "yes"


def _strip(name: str) -> str:
    return re.sub(r"^(?:the|a|an)\s+", "", name.strip(), flags=re.IGNORECASE)


# ---------------------------------------------------------------- the answer


def extract(question: str, chunks: Sequence[tuple[str, str, str]],
            index: MutualIndex | None = None) -> tuple[str, int, str]:
    """(answer, rank of the cited chunk, cited sentence) from `(chunk_id, title, text)` in rank order."""
    text, rank, sentence, _ = extract_ranked(question, chunks, index)
    return text, rank, sentence


def extract_ranked(question: str, chunks: Sequence[tuple[str, str, str]], index: MutualIndex | None = None,
                   alternatives: int = 4, own: frozenset[str] = frozenset()) -> tuple[str, int, str, list[str]]:
    """As `extract`, with the next best distinct candidate spans (at most `alternatives`). `own`: the
    folded names of the question's linked entities: "黔穹航空的控股股东是哪家公司？" is not answered by
    黔穹航空股份有限公司, whose short name the question uses."""
    texts = [t for _, _, t in chunks]
    rank, sentence, _ = best_sentence(question, texts)
    want = at.expected(question)
    if want.kind == at.YESNO:
        return yes_no(question, chunks, sentence), rank, sentence, []
    if want.kind == at.CHOICE:
        return choose(question, want, chunks), rank, sentence, []
    idf, unseen = idf_table(index)
    cands = candidates(question, want, [(c, t) for c, _, t in chunks], index, idf, unseen, own)
    best = pick(question, want, cands)
    if best is None:
        return (answer_span(question, sentence) if sentence else ""), rank, sentence, []
    clean = best.text.strip(" ,;:\"'")
    others = [c.text.strip(" ,;:\"'") for c in sorted(cands, key=lambda c: -c.score)]
    others = [o for o in dict.fromkeys(others) if o and o != clean][:alternatives]
    return clean, best.rank, best.sentence, others


def _fact_citation(index: MutualIndex, fact: FactAnswer) -> Citation | None:
    """The chunk that states the fact, cut to the sentence naming its answer where one does."""
    if not fact.relation.chunks:
        return None
    pos = fact.relation.chunks[0]
    text = index.chunk_text[pos]
    said = next((s for s in sentences(text) if fact.answer in s), text)
    return Citation(chunk_id=index.chunk_ids[pos], doc_id=index.chunk_doc[pos], text=said)


def answer_offline(question: str, retriever: Retriever, k: int = 5, *, mode: RetrievalMode = "hybrid") -> Answer:
    # Imported here: answer_check reads answer_types of this package, whose __init__ imports this module.
    from kgbuild.query.retrieval.answer_check import check_type, classes_of, settle

    start = time.perf_counter()
    result = retriever.retrieve(question, k, mode=mode)
    retrieved = time.perf_counter()
    # The hybrid retriever's mutual index lets the answer prefer graph entities of the expected type.
    index = getattr(retriever, "index", None)
    index = index if isinstance(index, MutualIndex) else None
    chunks = [(c.id, retriever.title_of(c.doc_id), c.text) for c in result.chunks]
    # Only names the question itself says (exactly or by an alias): a dense link is a guess.
    named = [e for e in result.entities if e.how in ("exact", "alias")]
    own = frozenset(fold(e.name) for e in named)
    text, rank, sentence, others = extract_ranked(question, chunks, index, own=own)
    citations = [Citation(chunk_id=c.id, doc_id=c.doc_id, text=sentence if i == rank and sentence else c.text)
                 for i, c in enumerate(result.chunks)] if text else []
    notes = list(result.notes)
    fact = None if index is None else fact_answer(
        question, index, [index.node_pos[e.id] for e in named if e.id in index.node_pos])
    if index is not None and fact is not None:
        others = [o for o in dict.fromkeys([text, *others]) if o and o != fact.answer]
        text = fact.answer
        if (cited := _fact_citation(index, fact)) is not None:
            citations = [cited, *(c for c in citations if c.chunk_id != cited.chunk_id)]
        notes.append(fact.note(index))
    answer = Answer(question=question, answer=text, resolved=False, mode="retrieval", citations=citations,
                    triples=result.triples, chunks=result.chunks, notes=notes)
    answer = settle(answer, check_type(question, text, classes_of(index, text)), others,
                    recheck=lambda name: check_type(question, name, classes_of(index, name)))
    answer.seconds = time.perf_counter() - start
    answer.timings = {"retrieval_s": round(retrieved - start, 4),
                      "answer_s": round(answer.seconds - (retrieved - start), 4)}
    return answer
