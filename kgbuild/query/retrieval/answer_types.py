"""What kind of answer a question expects, read from its wording alone (no model).

`expected(question)` gives the answer type the extractive answer filters its candidate spans by:
a yes/no, one of two compared names, a date or year, a number, a place, a person, an
organisation, a work, or anything. The rules are global word patterns; nothing is tuned per question.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kgbuild.query.retrieval import answer_types_zh as zh
from kgbuild.query.retrieval.text import STOPWORDS, spans, tokens
from kgbuild.text_language import has_cjk

YES_NO = frozenset({"is", "are", "was", "were", "do", "does", "did", "can", "could", "has", "have", "had", "will",
                    "would"})
# A question opening like a yes/no one but asking for something ("Do Lafzon Ki Kahani, ... released in which year").
_ASKS = frozenset({"what", "which", "how", "when"})

# Kinds; the entity classes (spg_class, lower case) that satisfy each typed kind.
YESNO, CHOICE, DATE, YEAR, NUMBER, PLACE, PERSON, ORG, WORK, ANY = (
    "yesno", "choice", "date", "year", "number", "place", "person", "organization", "work", "any")
CLASSES: dict[str, frozenset[str]] = {
    PLACE: frozenset({"geographiclocation", "location", "place", "building", "facility", "city", "country"}),
    PERSON: frozenset({"person"}),
    ORG: frozenset({"organization", "organisation", "company"}),
    WORK: frozenset({"work", "product", "artifact", "event"}),
    DATE: frozenset({"date"}),
    YEAR: frozenset({"date"}),
}

_PLACE_NOUNS = {"city", "state", "country", "town", "county", "province", "location", "island", "region",
                "continent", "place", "village", "capital", "district", "nation", "area", "suburb"}
_PERSON_NOUNS = {"actor", "actress", "singer", "person", "man", "woman", "musician", "director", "writer", "author",
                 "politician", "player", "rapper", "artist", "composer", "producer", "king", "queen", "president",
                 "poet", "novelist", "footballer", "coach", "senator", "founder", "comedian", "dj", "biographer",
                 "painter", "guitarist", "drummer", "vocalist", "father", "mother", "wife", "husband", "son",
                 "daughter", "brother", "sister", "godfather", "character", "leader", "designer", "architect"}
_ORG_NOUNS = {"company", "organization", "organisation", "label", "team", "band", "network", "station", "university",
              "school", "college", "club", "group", "party", "publisher", "firm", "brand", "channel", "studio",
              "corporation", "airline", "league", "family", "academy"}
_WORK_NOUNS = {"film", "movie", "song", "album", "show", "series", "novel", "book", "game", "play", "opera", "single",
               "magazine", "episode", "sitcom", "franchise", "comedy", "drama", "documentary"}
_EARLIER = {"first", "earlier", "earliest", "older", "oldest", "before", "elder"}
_LATER = {"last", "later", "latest", "younger", "youngest", "newer", "newest", "recent", "after"}
_WH = {"what", "which", "who", "whom", "whose", "where", "when", "how"}


@dataclass(frozen=True)
class Expected:
    kind: str
    options: tuple[str, ...] = ()  # CHOICE: the two compared names as written in the question
    order: str = ""  # CHOICE: "earlier" / "later" when the comparison is about time, else ""
    focus: frozenset[str] = field(default_factory=frozenset)  # words saying what is asked ("born", "founded")

    @property
    def classes(self) -> frozenset[str]:
        return CLASSES.get(self.kind, frozenset())


def last_sentence(question: str) -> str:
    parts = [p for p in re.split(r"(?<=[.?!])\s+(?=[A-Z])", question.strip()) if p.strip()]
    return parts[-1] if parts else question


def is_yes_no(question: str) -> bool:
    words = tokens(last_sentence(question))
    return bool(words) and words[0] in YES_NO and not (set(words) & _ASKS)


def capitalised_runs(text: str, *, skip_first: bool = True) -> list[tuple[str, int, int]]:
    """(run, start, end) of capitalised words (and inner 'of'/'the'/'and' between them)."""
    raw = spans(text)
    out: list[tuple[str, int, int]] = []
    cur: list[tuple[str, int, int]] = []
    joiners = {"of", "the", "de", "von", "van", "la", "le", "da", "del", "&"}
    for i, (word, s, e) in enumerate(raw):
        upper = word[:1].isupper() or word[:1].isdigit()
        if skip_first and i == 0 and word.casefold() in STOPWORDS | _WH:
            upper = False
        joiner = (word.casefold() in joiners and cur and i + 1 < len(raw) and raw[i + 1][0][:1].isupper()
                  and text[cur[-1][2]:s].strip() == "")
        if (upper or joiner) and (not cur or text[cur[-1][2]:s].strip() in ("", "-", "'")):
            cur.append((word, s, e))
            continue
        if cur:
            out.append((text[cur[0][1]:cur[-1][2]], cur[0][1], cur[-1][2]))
            cur = []
        if upper:
            cur.append((word, s, e))
    if cur:
        out.append((text[cur[0][1]:cur[-1][2]], cur[0][1], cur[-1][2]))
    return out


def _strip_article(name: str) -> str:
    return re.sub(r"^(?:the|a|an)\s+", "", name.strip(" ,.?!\"'"), flags=re.IGNORECASE)


def choice_options(question: str) -> tuple[str, ...]:
    """The two names a 'which ... A or B' / 'between A and B' question compares, or ()."""
    runs = capitalised_runs(question)
    for joint in (" or ", " and "):
        at = question.rfind(joint)
        if at < 0 or (joint == " and " and not re.match(r"\s*between\b", question, re.IGNORECASE)):
            continue
        left = [r for r in runs if r[2] <= at and question[r[2]:at].strip(" ,\"'") == ""]
        right = [r for r in runs if r[1] >= at + len(joint)]
        if left and right:
            gap = question[at + len(joint):right[0][1]]
            if len(tokens(gap)) <= 3:
                names = (_strip_article(left[-1][0].split(" and ")[-1]), _strip_article(right[0][0]))
                if all(names):
                    return names
    return ()


def expected(question: str) -> Expected:
    if has_cjk(question):  # Chinese asks with its own question words (谁, 哪里, 多少, 哪一年...)
        reading = zh.expected_zh(question)
        return Expected(reading.kind, options=reading.options, order=reading.order,
                        focus=frozenset(w for w in tokens(question) if w not in STOPWORDS))
    words = tokens(question)
    wordset = set(words)
    focus = frozenset(w for w in words if w not in STOPWORDS)
    if is_yes_no(question):
        return Expected(YESNO, focus=focus)
    options = choice_options(question)
    if options and wordset & {"which", "who", "what", "between"}:
        order = "earlier" if wordset & _EARLIER else "later" if wordset & _LATER else ""
        return Expected(CHOICE, options=options, order=order, focus=focus)
    # the noun right after the wh-word ("what city", "which Queensland Senator" -> last noun before a verb)
    head = ""
    for i, w in enumerate(words):
        if w in {"what", "which", "whose"}:
            for nxt in words[i + 1:i + 4]:
                if nxt in _PLACE_NOUNS | _PERSON_NOUNS | _ORG_NOUNS | _WORK_NOUNS | {"year", "date", "day", "century"}:
                    head = nxt
                    break
            if head:
                break
    text = " ".join(words)
    # the first wh-word decides ("Which city was the band ... when ..." asks for a city)
    first = next((w for w in words if w in _WH), "")
    if first in {"what", "which", "whose"} and head:
        wordset = wordset - {"when", "where", "who", "whom"}
    elif first == "when":
        return Expected(DATE, focus=focus)
    elif first == "where":
        return Expected(PLACE, focus=focus)
    elif first in {"who", "whom"} and "how" not in words[:words.index(first)]:
        return Expected(PERSON, focus=focus)
    if head in {"year"} or re.search(r"\b(?:what|which) year\b|\bin what year\b", text):
        return Expected(YEAR, focus=focus)
    if head in {"date", "day"} or "when" in wordset:
        return Expected(DATE, focus=focus)
    if re.search(r"\bhow (?:many|much|old|long|tall|big)\b|\bpopulation\b", text):
        return Expected(NUMBER, focus=focus)
    if head in _PLACE_NOUNS or "where" in wordset:
        return Expected(PLACE, focus=focus)
    if head in _PERSON_NOUNS or wordset & {"who", "whom"}:
        return Expected(PERSON, focus=focus)
    if head in _ORG_NOUNS:
        return Expected(ORG, focus=focus)
    if head in _WORK_NOUNS:
        return Expected(WORK, focus=focus)
    return Expected(ANY, focus=focus)


# ---------------------------------------------------------------- typed spans found by pattern

_MONTH = (r"(?:January|February|March|April|May|June|July|August|September|October|November|December|"
          r"Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\.?")
DATE_RE = re.compile(rf"\b(?:\d{{1,2}} {_MONTH},? \d{{3,4}}|{_MONTH} \d{{1,2}},? \d{{3,4}}|{_MONTH} \d{{3,4}})\b")
YEAR_RE = re.compile(r"(?<![\d,.])(?:1[0-9]{3}|20[0-9]{2})(?![\d,])")
NUMBER_RE = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?(?:\s(?:million|billion|thousand|hundred))?(?![\w])"
                       r"|\b(?:once|twice|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b(?:-time)?",
                       re.IGNORECASE)
CENTURY_RE = re.compile(r"\b(?:(?:early|mid|late)[- ])?(?:\d{1,2}(?:st|nd|rd|th)|[a-z]+(?:th|st|nd|rd)|"
                        r"twentieth|nineteenth|eighteenth)[- ]century\b", re.IGNORECASE)


def pattern_spans(sentence: str, kind: str) -> list[tuple[str, int, int]]:
    """(span, start, end) of the dates / years / numbers of `sentence` a `kind` question wants."""
    out: list[tuple[str, int, int]] = []
    if has_cjk(sentence):  # 2022年3月1日, 128.6亿元, 8.3%: no spaces around them, so the patterns below miss them
        out += zh.zh_spans(sentence, kind)
    covered_zh = [(s, e) for _, s, e in out]
    if kind in (DATE, YEAR):
        if kind == DATE:
            out += [(m.group(0), m.start(), m.end()) for m in DATE_RE.finditer(sentence)]
            out += [(m.group(0), m.start(), m.end()) for m in CENTURY_RE.finditer(sentence)]
        covered = [(s, e) for _, s, e in out]
        out += [(m.group(0), m.start(), m.end()) for m in YEAR_RE.finditer(sentence)
                if not any(s <= m.start() < e for s, e in covered)]
    elif kind == NUMBER:
        out += [(m.group(0), m.start(), m.end()) for m in NUMBER_RE.finditer(sentence)
                if not YEAR_RE.fullmatch(m.group(0)) and not any(s <= m.start() < e for s, e in covered_zh)]
    return out
