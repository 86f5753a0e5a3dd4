"""Tokens shared by linking, mention extraction, the extractive answer and full-text search.

One tokeniser for all of them (kgbuild.text's, which also makes `mention_key`), so a name in
the dictionary and the same words in a question always produce the same key. Runs of CJK
ideographs, which have no spaces, are cut into words by jieba for full-text search.
"""

from __future__ import annotations

import re
import warnings
from typing import Any

from kgbuild.text import TOKEN, fold, name_tokens
from kgbuild.text_language import CJK, has_cjk

_CJK_RUN = re.compile(f"[{CJK}]+")

# Function words: never a mention on their own, ignored by the answer's overlap score.
STOPWORDS = frozenset((
    """a about above after again against all also am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further had has
    have having he her here hers herself him himself his how i if in into is it its itself just me more
    most my myself no nor not now of off on once only or other our ours ourselves out over own same she
    should so some such than that the their theirs them themselves then there these they this those
    through to too under until up very was we were what when where which while who whom whose why will
    with would you your yours yourself yourselves s t don"""
).split())


def tokens(text: str) -> list[str]:
    """Folded word tokens, inner punctuation kept ("o'neil", "u.s", "well-known")."""
    return name_tokens(text)


def spans(text: str) -> list[tuple[str, int, int]]:
    """(raw token, start, end) in the original text; used to recover capitalisation."""
    return [(m.group(0), m.start(), m.end()) for m in TOKEN.finditer(text)]


def content_tokens(text: str) -> list[str]:
    return [t for t in tokens(text) if t not in STOPWORDS]


# Chinese function and question words: like STOPWORDS, they say nothing of where an answer is.
CJK_STOPWORDS = frozenset("""的 地 得 是 了 在 和 与 及 或 为 于 由 对 将 把 被 其 该 这 那 有 也 都 而 之 以 从 向
    吗 呢 吧 哪 哪里 哪儿 哪个 哪家 哪些 哪位 哪所 哪一年 哪年 什么 谁 多少 几 何时 何地 是否 怎么 如何 为什么
    请问 现任 时任 目前 当前 现在""".split())  # 现任总经理 asks for the 总经理: "current" is no word of the link


def word_spans(text: str) -> list[tuple[str, int, int]]:
    """As `spans`, with each run of CJK ideographs cut into its words (jieba) instead of being one
    token: a Chinese question and passage then share words ("总部", "位于") the way English ones do.
    Text without CJK gets exactly `spans`."""
    if not has_cjk(text):
        return spans(text)
    out: list[tuple[str, int, int]] = []
    last = 0
    for run in _CJK_RUN.finditer(text):
        out.extend((w, last + s, last + e) for w, s, e in spans(text[last:run.start()]))
        out.extend((w, run.start() + s, run.start() + e) for w, s, e in _cjk_word_spans(run.group(0)))
        last = run.end()
    out.extend((w, last + s, last + e) for w, s, e in spans(text[last:]))
    return out


def words(text: str) -> list[str]:
    """Folded words of `text` as `word_spans` cuts it; exactly `tokens` for text without CJK."""
    if not has_cjk(text):
        return tokens(text)
    return [fold(w) for w, _, _ in word_spans(text)]


def content_words(text: str) -> list[str]:
    """`words` without the stop words of either script; exactly `content_tokens` without CJK."""
    return [w for w in words(text) if w not in STOPWORDS and w not in CJK_STOPWORDS]


def full_text_terms(text: str) -> list[str]:
    """The words BM25 counts: kgbuild's folded word tokens (stop words dropped) for spaced
    scripts, and for runs of CJK ideographs jieba's words (search mode: a long compound also
    yields its parts, so "肾上腺皮质激素" matches a question that says "皮质激素").

    Without jieba installed, a CJK run falls back to its overlapping character pairs, which
    still match far better than the whole run as one token."""
    if not has_cjk(text):
        return content_tokens(text)
    terms: list[str] = []
    last = 0
    for run in _CJK_RUN.finditer(text):
        terms.extend(content_tokens(text[last:run.start()]))
        terms.extend(cjk_words(run.group(0)))
        last = run.end()
    terms.extend(content_tokens(text[last:]))
    return terms


def cjk_words(run: str) -> list[str]:
    """Words of one run of CJK ideographs (no spaces or punctuation inside)."""
    jieba = _jieba()
    if jieba is None:
        return [run] if len(run) == 1 else [run[i:i + 2] for i in range(len(run) - 1)]
    return [w for w in jieba.lcut_for_search(run) if w.strip()]


def _cjk_word_spans(run: str) -> list[tuple[str, int, int]]:
    """(word, start, end) of one run of CJK ideographs, the words not overlapping (jieba's default
    mode); without jieba, two characters at a time."""
    jieba = _jieba()
    if jieba is None:
        return [(run[i:i + 2], i, min(i + 2, len(run))) for i in range(0, len(run), 2)]
    return [(w, s, e) for w, s, e in jieba.tokenize(run) if w.strip()]


def _jieba() -> Any:
    """The jieba module, quiet; None when it is not installed."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # jieba 0.42 imports pkg_resources, which warns on every start
            import jieba
    except ImportError:
        return None
    # jieba logs "Building prefix dict..." at INFO to stderr on its first cut; kgbuild has its own progress.
    import logging

    logging.getLogger("jieba").setLevel(logging.WARNING)
    return jieba
