"""Finding the entity mentions of a Chinese sentence in its jieba tokens.

A run of noun-like tokens (慢性 炎症性 皮肤病) is one candidate term. It is a mention of a dictionary
term when its text is a dictionary form; else of a compound typed by its last word (皮肤病 ->
Disease) or, for a lone proper name, by jieba's tag (nr person, ns place, nt organisation); else the
dictionary terms inside it are the mentions (甲状腺 in 甲状腺功能). Other runs are kept untyped for
the relation rules, which may type them from their context (the items after 症状包括 are symptoms);
untyped, they are dropped: without a model, a noun of unknown class is more often noise than an entity.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kgbuild.extract.zh.classes import GENERIC_WORDS, RUN_BREAKERS, ClassRules
from kgbuild.extract.zh.lexicon import Lexicon, Term
from kgbuild.extract.zh.segment import Token

# Tags that continue a noun compound: nouns, proper nouns (卡比 马唑: a drug name jieba does not
# know), noun-verbs (代谢), distinguishing words (慢性), idioms jieba tags l (甲状腺), abbreviations
# (j) and Latin words inside Chinese (eng).
_NOUNISH = frozenset({"n", "nz", "ng", "vn", "b", "l", "j", "eng", "an", "nr", "nrfg", "nrt", "ns", "nt"})
_HAS_DIGIT = re.compile(r"\d")
# Leading words of a run that describe the passage, not the thing (人体脑垂体 -> 脑垂体).
_DROP_LEADING = frozenset({"人体", "机体", "临床", "常见", "一般", "部分", "其他", "其它", "各种", "多种", "目前"})


@dataclass
class Mention:
    name: str
    spg_class: str  # "" while untyped
    start: int
    end: int
    form: str  # the text as written
    semantic_type: str | None = None
    aliases: list[str] = field(default_factory=list)
    from_lexicon: bool = False
    from_tag: bool = False  # typed by jieba's proper-name tag alone (the open-domain rules replace these)
    kind: str = ""  # what the open-domain rules found it as: org, person, place, date, title, quote, award, list,
    # byline (a reporter's name: a person no relation rule reads)


def _term_mention(term: Term, tokens: list[Token], rules: ClassRules, fallback: str) -> Mention:
    form = "".join(t.word for t in tokens)
    cls = term.spg_class or rules.by_suffix(term.name) or fallback
    aliases = [a for a in term.aliases if a != form]
    if term.name != form:
        aliases.append(form)
    return Mention(term.name, cls, tokens[0].start, tokens[-1].end, form, term.semantic_type, aliases,
                   from_lexicon=True)


def _run_mentions(run: list[Token], lexicon: Lexicon, rules: ClassRules, fallback: str) -> list[Mention]:
    while len(run) > 1 and run[0].word in _DROP_LEADING:
        run = run[1:]
    text = "".join(t.word for t in run)
    if (term := lexicon.get(text)) is not None:
        return [_term_mention(term, run, rules, fallback)]
    if len(run) == 1 and run[0].pos in ("nr", "nrfg", "nrt", "ns", "nt"):
        cls = rules.by_suffix(text) or rules.by_pos(run[0].pos, text)
        return [Mention(text, cls, run[0].start, run[-1].end, text, from_tag=True)] if cls else []
    inner = [(i, t) for i, t in enumerate(run) if (len(t.word) > 1 or t.pos in ("n", "ng")) and lexicon.get(t.word)]
    if text in GENERIC_WORDS or len(text) < 2:
        return []
    cls = rules.by_suffix(text)
    if cls is not None:
        return [Mention(text, cls, run[0].start, run[-1].end, text)]
    if inner:
        return [_term_mention(lexicon.get(t.word), [t], rules, fallback)  # type: ignore[arg-type]
                for _, t in inner]
    return [Mention(text, "", run[0].start, run[-1].end, text)]


def find_mentions(tokens: list[Token], lexicon: Lexicon, rules: ClassRules, fallback: str) -> list[Mention]:
    mentions: list[Mention] = []
    run: list[Token] = []

    def close_run() -> None:
        if run:
            mentions.extend(_run_mentions(list(run), lexicon, rules, fallback))
        run.clear()

    for token in tokens:
        if token.pos in ("t", "m") and _HAS_DIGIT.search(token.word) and token.word.endswith(("年", "月", "日")):
            close_run()
            if (cls := rules.by_pos("t", token.word)) is not None:
                mentions.append(Mention(token.word, cls, token.start, token.end, token.word))
            continue
        if token.word in RUN_BREAKERS:
            close_run()
            continue
        if (token.pos in _NOUNISH and (run or token.word not in GENERIC_WORDS)) or lexicon.get(token.word):
            run.append(token)
            continue
        close_run()
    close_run()
    return mentions
