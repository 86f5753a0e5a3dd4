"""Question-answering evaluation: QA file readers, metrics, and runs over retrieval modes.

Readers take the three multi-hop formats as published:

    HotpotQA   JSON list of {_id, question, answer, supporting_facts: [[title, sent_idx]...], context}
    2Wiki      the same shape (supporting_facts [[title, idx]])
    MuSiQue    JSONL (or a JSON list) of {id, question, answer, answer_aliases,
               paragraphs: [{idx, title, paragraph_text, is_supporting}]}

A record that cannot be used becomes one line naming the file and the record; the others are read.

Metrics: EM and F1 with SQuAD answer normalisation (HotpotQA's yes/no rule for F1); Recall@k of
supporting passages, where a passage is a document: the retrieved chunks are mapped to their
document titles in rank order, duplicates dropped, and the first k titles are compared with the
supporting titles. Latency is the wall time of one whole answer (retrieval + answer), p50/p90/p99.
"""

from __future__ import annotations

import json
import re
import string
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, Field

from kgbuild.errors import InputError, KgbuildError
from kgbuild.ids import normalize_name
from kgbuild.llm.types import LLMCallError
from kgbuild.query.retrieval.answer_check import UNCHECKED, WITHHELD
from kgbuild.query.types import Answer

QAFormat = Literal["auto", "hotpotqa", "2wiki", "musique"]
RECALL_DEPTHS = (2, 5)  # the k of every Recall@k reported; keys and columns follow from it


def recall_key(k: int) -> str:
    return f"recall_at_{k}"


class QAItem(BaseModel):
    id: str
    question: str
    answer: str
    aliases: list[str] = Field(default_factory=list)  # other accepted answers (MuSiQue answer_aliases)
    supporting: list[str] = Field(default_factory=list)  # titles of the supporting passages, file order


class QAFile(BaseModel):
    path: str
    items: list[QAItem] = Field(default_factory=list)
    problems: list[str] = Field(default_factory=list)  # one line per unusable record


# ---------------------------------------------------------------- readers


class _Bad(Exception):
    pass


def _text(record: Mapping[str, Any], key: str) -> str:
    value = record.get(key)
    if isinstance(value, bool) or not isinstance(value, (str, int, float)) or not str(value).strip():
        raise _Bad(f"missing or empty '{key}'")
    return str(value).strip()


def _hotpot_item(record: Any, number: int) -> QAItem:
    if not isinstance(record, dict):
        raise _Bad(f"expected an object, got {type(record).__name__}")
    facts = record.get("supporting_facts")
    if not isinstance(facts, list) or not all(
            isinstance(f, (list, tuple)) and f and isinstance(f[0], str) for f in facts):
        raise _Bad("'supporting_facts' must be a list of [title, sentence index] pairs")
    titles = list(dict.fromkeys(f[0] for f in facts))
    rid = record.get("_id", record.get("id", number))
    # Not in HotpotQA's own files: a set written in its shape may name other forms of the answer
    # ("United States" / "American"), as MuSiQue's answer_aliases do.
    aliases = record.get("aliases") or []
    if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
        raise _Bad("'aliases' must be a list of strings")
    return QAItem(id=str(rid), question=_text(record, "question"), answer=_text(record, "answer"),
                  aliases=list(aliases), supporting=titles)


def _musique_item(record: Any, number: int) -> QAItem:
    if not isinstance(record, dict):
        raise _Bad(f"expected an object, got {type(record).__name__}")
    paragraphs = record.get("paragraphs")
    if not isinstance(paragraphs, list) or not all(
            isinstance(p, dict) and isinstance(p.get("title"), str) for p in paragraphs):
        raise _Bad("'paragraphs' must be a list of objects with a 'title'")
    titles = list(dict.fromkeys(p["title"] for p in paragraphs if p.get("is_supporting")))
    aliases = record.get("answer_aliases") or []
    if not isinstance(aliases, list):
        raise _Bad("'answer_aliases' must be a list")
    return QAItem(id=str(record.get("id", record.get("_id", number))), question=_text(record, "question"),
                  answer=_text(record, "answer"), aliases=[str(a) for a in aliases], supporting=titles)


def _records(path: Path) -> Iterator[tuple[str, Any]]:
    """(where, parsed record); a JSONL line that is not JSON yields an _Bad in place of the record."""
    try:
        raw = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(str(path), f"cannot read the QA file: {exc}",
                         "pass a HotpotQA, 2Wiki or MuSiQue file") from None
    head = raw.lstrip()[:1]
    if head == "[" or (head == "{" and path.suffix != ".jsonl" and _is_whole_json(raw)):
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as err:
            raise InputError(str(path), f"invalid JSON at line {err.lineno} column {err.colno}: {err.msg}") from None
        if isinstance(data, dict):
            data = data.get("data", [data])  # a single record, or {"data": [...]}
        if not isinstance(data, list):
            raise InputError(str(path), "expected a JSON list of questions")
        for number, record in enumerate(data):
            yield f"{path}: record {number}", record
        return
    for number, line in enumerate(raw.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            yield f"{path}:{number}", json.loads(line)
        except json.JSONDecodeError as err:
            yield f"{path}:{number}", _Bad(f"invalid JSON at column {err.colno}: {err.msg}")


def _is_whole_json(raw: str) -> bool:
    try:
        json.loads(raw)
    except json.JSONDecodeError:
        return False
    return True


def read_qa(path: Path, fmt: QAFormat = "auto", limit: int | None = None) -> QAFile:
    """The usable questions of a QA file (at most `limit`) and one line per record that is not."""
    out = QAFile(path=str(path))
    for number, (where, record) in enumerate(_records(path)):
        if limit is not None and len(out.items) >= limit:
            break
        try:
            if isinstance(record, _Bad):
                raise record
            kind = fmt
            if kind == "auto":
                kind = "musique" if isinstance(record, dict) and "paragraphs" in record else "hotpotqa"
            item = _musique_item(record, number) if kind == "musique" else _hotpot_item(record, number)
        except _Bad as exc:
            rid = record.get("_id", record.get("id")) if isinstance(record, dict) else None
            out.problems.append(f"{where}{f' ({rid})' if rid is not None else ''}: {exc}")
            continue
        out.items.append(item)
    if not out.items and not out.problems:
        raise InputError(str(path), "no questions in the file")
    return out


# ---------------------------------------------------------------- metrics


def normalize_answer(text: str) -> str:
    """SQuAD normalisation: lower case, no punctuation, no articles, single spaces."""
    text = text.lower()
    text = "".join(ch for ch in text if ch not in set(string.punctuation))
    text = re.sub(r"\b(a|an|the)\b", " ", text)
    return " ".join(text.split())


def exact_match(prediction: str, golds: Sequence[str]) -> float:
    pred = normalize_answer(prediction)
    return float(any(pred == normalize_answer(g) for g in golds))


def _f1(prediction: str, gold: str) -> float:
    pred, ref = normalize_answer(prediction), normalize_answer(gold)
    # HotpotQA: a yes/no/noanswer on either side scores only on an exact match.
    if (pred in {"yes", "no", "noanswer"} or ref in {"yes", "no", "noanswer"}) and pred != ref:
        return 0.0
    p, r = pred.split(), ref.split()
    common = Counter(p) & Counter(r)
    same = sum(common.values())
    if same == 0:
        return 0.0
    precision, recall = same / len(p), same / len(r)
    return 2 * precision * recall / (precision + recall)


def f1_score(prediction: str, golds: Sequence[str]) -> float:
    return max((_f1(prediction, g) for g in golds), default=0.0)


def title_key(title: str) -> str:
    return normalize_name(title)


def ranked_titles(doc_ids: Iterable[str], title_of: Callable[[str], str]) -> list[str]:
    """Document title keys in rank order, each once."""
    return list(dict.fromkeys(title_key(title_of(d)) for d in doc_ids))


def recall_at(ranked: Sequence[str], supporting: Sequence[str], k: int) -> float:
    """Share of the supporting passages among the first k distinct retrieved passages."""
    wanted = {title_key(t) for t in supporting}
    if not wanted:
        return 0.0
    return len(wanted & set(ranked[:k])) / len(wanted)


def percentile(values: Sequence[float], q: float) -> float:
    return float(np.percentile(np.asarray(values, dtype=float), q)) if values else 0.0


# ---------------------------------------------------------------- reports


class QuestionResult(BaseModel):
    id: str
    mode: str
    answer: str
    em: float
    f1: float
    recall: dict[str, float]  # recall_key(k) -> value, for each k of RECALL_DEPTHS
    ms: float
    llm_calls: int = 0
    tokens: int = 0
    retrieved: list[str] = Field(default_factory=list)  # passage titles, rank order
    candidates: list[str] = Field(default_factory=list)  # guesses not given as the answer (retrieval/answer_check)
    error: str = ""  # why the strategy failed on this question (an exception, no usable plan, a model error)


class ModeReport(BaseModel):
    mode: str
    questions: int
    recall: dict[str, float]  # recall_key(k) -> mean Recall@k, for each k of RECALL_DEPTHS
    em: float
    f1: float
    p50_ms: float
    p90_ms: float
    p99_ms: float
    llm_calls_per_question: float = 0.0
    prompt_tokens_per_question: float = 0.0
    completion_tokens_per_question: float = 0.0
    errors: int = 0  # questions whose strategy failed (raised, no usable plan, a model error); scored as they came
    error_reasons: dict[str, int] = Field(default_factory=dict)  # why, one line each -> how many questions
    notes: list[str] = Field(default_factory=list)  # caveats the answers reported, each once

    def recall_at(self, k: int) -> float:
        return self.recall[recall_key(k)]


class EvalReport(BaseModel):
    qa_file: str
    questions: int
    problems: list[str] = Field(default_factory=list)
    skipped: list[str] = Field(default_factory=list)  # one line per strategy that could not run here, and why
    modes: list[ModeReport] = Field(default_factory=list)
    results: list[QuestionResult] = Field(default_factory=list)

    def mode(self, name: str) -> ModeReport:
        return next(m for m in self.modes if m.mode == name)


AnswerFn = Callable[[str], Answer]


def evaluate_mode(name: str, answer: AnswerFn, items: Sequence[QAItem], title_of: Callable[[str], str],
                  *, on_question: Callable[[int], None] | None = None) -> tuple[ModeReport, list[QuestionResult]]:
    """Answer every question with `answer` and score it. Errors that are a user's to fix propagate;
    anything else is counted per question, so one broken question does not void the run."""
    results: list[QuestionResult] = []
    prompt = completion = calls = 0
    errors = 0
    reasons: dict[str, int] = {}
    withheld = unchecked = 0  # model-free guesses not given (wrong kind) / given with an unchecked kind
    notes: dict[str, None] = {}  # ordered set
    for n, item in enumerate(items):
        start = time.perf_counter()
        try:
            got = answer(item.question)
        except LLMCallError as exc:  # one question's model call failed for good: count it, go on
            got = Answer(question=item.question, answer="", resolved=False, mode="retrieval",
                         failure=f"model error: {exc.line()}")
        except KgbuildError:
            raise  # a setting or store the user must fix: stop, do not score a thousand misses
        except Exception as exc:  # noqa: BLE001 - a bug on one question is scored as a miss and counted
            got = Answer(question=item.question, answer="", resolved=False, mode="retrieval",
                         failure=f"{type(exc).__name__}: {' '.join(str(exc).split())[:300]}")
        if got.failure:
            errors += 1
            reasons[_reason_key(got.failure)] = reasons.get(_reason_key(got.failure), 0) + 1
        ms = (time.perf_counter() - start) * 1000.0
        golds = [item.answer, *item.aliases]
        titles = ranked_titles((c.doc_id for c in got.chunks), title_of)
        results.append(QuestionResult(
            id=item.id, mode=name, answer=got.answer, em=exact_match(got.answer, golds), f1=f1_score(got.answer, golds),
            recall={recall_key(k): recall_at(titles, item.supporting, k) for k in RECALL_DEPTHS},
            ms=ms, llm_calls=got.llm_calls, tokens=got.prompt_tokens + got.completion_tokens, retrieved=titles,
            candidates=got.candidates if not got.answer else [], error=got.failure))
        calls += got.llm_calls
        notes.update(dict.fromkeys(n for n in got.notes if not n.startswith((WITHHELD, UNCHECKED))))
        withheld += bool(got.candidates) and not got.answer
        unchecked += any(n.startswith(UNCHECKED) for n in got.notes)
        prompt += got.prompt_tokens
        completion += got.completion_tokens
        if on_question:
            on_question(n + 1)
    # The type gate's notes name each question's guess: counted here, per question in --json.
    if withheld:
        notes[f"{withheld} of {len(results)} model-free guesses withheld: not of the kind the question asks "
              "(a yes/no is never asserted without a model); see the candidates per question with --json"] = None
    if unchecked:
        notes[f"{unchecked} of {len(results)} answers of a kind the graph does not type (unchecked)"] = None
    count = max(len(results), 1)
    ms_all = [r.ms for r in results]
    report = ModeReport(
        mode=name, questions=len(results),
        recall={recall_key(k): sum(r.recall[recall_key(k)] for r in results) / count for k in RECALL_DEPTHS},
        em=sum(r.em for r in results) / count, f1=sum(r.f1 for r in results) / count,
        p50_ms=percentile(ms_all, 50), p90_ms=percentile(ms_all, 90), p99_ms=percentile(ms_all, 99),
        llm_calls_per_question=calls / count, prompt_tokens_per_question=prompt / count,
        completion_tokens_per_question=completion / count, errors=errors, error_reasons=reasons, notes=list(notes))
    return report, results


def _reason_key(failure: str) -> str:
    """A failure line with the question-specific counts taken out, so alike failures group."""
    return re.sub(r"\b\d+ (?=question|model call)", "N ", failure)[:300]


def run_modes(qa: QAFile, answerers: Mapping[str, AnswerFn], title_of: Callable[[str], str], *,
              keep_results: bool = False, on_question: Callable[[str, int], None] | None = None) -> EvalReport:
    """Every mode over the same questions, in the order given."""
    report = EvalReport(qa_file=qa.path, questions=len(qa.items), problems=list(qa.problems))
    for name, answer in answerers.items():
        tick = (lambda n, name=name: on_question(name, n)) if on_question else None
        mode_report, results = evaluate_mode(name, answer, qa.items, title_of, on_question=tick)
        report.modes.append(mode_report)
        if keep_results:
            report.results.extend(results)
    return report
