"""What every rule of the open-domain names shares: the records they give (`Found`, `OpenMentions`), the
patterns of dates, amounts and runs of titles, the schema's classes the rules resolve once (`NameRules`), and
helpers over jieba's tokens (a word that may stand in a name, a surname, overlapping spans).

The rules are grouped by what they find: people (`person_names`), places (`place_names`), works, products,
awards and events (`work_names`), organisations by their endings (`org_names`) and by what the text says around
them (`org_cues`), and a chunk's other ways of writing a name it found (`short_names`); `open_mentions` runs them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from kgbuild.extract.zh import word_lists as wl
from kgbuild.extract.zh.dictionary import JiebaDictionary
from kgbuild.extract.zh.mentions import Mention
from kgbuild.extract.zh.segment import Token

Resolve = Callable[[str], "str | None"]  # class alternatives ('Company|Organization') -> the schema's class
DATE_RE = re.compile(
    r"(?<![\d])(?:\d{4}年(?:度|\d{1,2}月(?:\d{1,2}[日号])?|第[一二三四1-4]季度|[上下]半年|前三季度|[一二三四1-4]季度|年?[初末底](?![步期级]))?"
    r"|\d{1,2}月\d{1,2}[日号]|\d{4}-\d{1,2}-\d{1,2})")
VALUE_RE = re.compile(
    r"(?<![\d.,])\d[\d,]*(?:\.\d+)?(?:余|多)?(?:万亿|亿|万|千|百)?(?:余|多)?"
    r"(?:个百分点|%|％|亿元人民币|元人民币|美元|欧元|港元|港币|日元|英镑|泰铢|韩元|卢布|澳元|加元|新加坡元|林吉特|越南盾|"
    r"元|人民币|人次|人|家|名|辆|台|吨|件|户|座|所|项|倍|"
    r"平方公里|公里|平方米|万千瓦|千瓦|兆瓦)"
    r"(?![\d年月日号])")
# An amount written in Chinese numerals, as reports write counts of staff and of things sold (研发人员七百零三人,
# 销售玻纤纱四十二万吨): two numerals or more, one of them a place value (十, 百, 千, 万, 亿), and a unit of people or
# things (not 届 or 次: 第三届, 第九次 count editions and meetings).
CN_VALUE_RE = re.compile(
    r"(?<![零〇一二三四五六七八九十百千万亿两])(?=[零〇一二三四五六七八九十百千两]*[十百千万亿])"
    r"[零〇一二三四五六七八九十百千两]{2,}(?:万亿|亿|万)?(?:余|多)?"
    r"(?:亿元|万元|元|人次|人|家|名|辆|台|吨|件|户|座|所|项)"
    r"(?![\d年月日号])")
# Tags of tokens that may stand inside a name (nouns, proper names, abbreviations, Latin words, noun-verbs
# such as 投资 and 监督管理, distinguishing words such as 特种).
_NAMEY = frozenset({"n", "nr", "nrfg", "nrt", "ns", "nt", "nz", "j", "eng", "vn", "b", "an", "l", "ng", "nl", "ag"})
HAN = re.compile(r"^[\u4e00-\u9fff]+$")
# What stands before a title in an appointment without being an employer's name: a department or a body.
# The legal form after a group's name (吉利控股集团有限公司), and a department after a school's (清华大学电子工程系).
COMPANY_FORM = re.compile(r"(?:股份有限公司|有限责任公司|有限公司)")
# Tags of words that never start or stand inside a company's name, and words a name starts after.
FUNCTION_TAGS = frozenset("p c u uj ul uz ug uv r m f x d q t y e".split())
NOT_EMPLOYER_LEAD = ("华东", "华南", "华北", "华中", "西南", "西北", "东北", "海外", "国内", "国际", "第")
# A verb or adverb this frequent in jieba's dictionary (推进 4932, 积极 8844) is what a clause does to a company, not
# a word of its name; rarer ones (远航 155) may start a name.
ACTION_MIN_FREQ = 1000
TITLE_RUN = re.compile(r"(?:[、和及兼](?:常务|执行|轮值|联席)?(?:"
                       + "|".join(sorted(wl.EXECUTIVE_TITLES, key=len, reverse=True)) + r"))*")
# (拟任 | 湖州市 | 商务局: a pre-appointment notice's verb, no more a part of the body's name than 现任)
HOLDS_POST_WORDS = frozenset("现任 曾任 担任 出任 兼任 历任 接任 继任 时任 原任 拟任".split())
KIN_AFTER = re.compile(r"[与和及]其?(?:妻子|丈夫|配偶|夫人)")
BREAK = re.compile(r"[，。；：！？、,;:!?（）()\s]")
# Priority when two names overlap (lower wins), then the longer name.
_PRIORITY = {"title": 0, "quote": 0, "date": 1, "event": 1, "org": 2, "award": 2, "building": 2, "person": 3,
             "byline": 3, "place": 4, "list": 5, "latin": 5}
# Prepositions jieba may glue to the start of a name it does not know (由金穗 | 装备): never a name's first character
# there.
GLUED_LEAD = frozenset("由被在对把从向将经")


@dataclass
class Found:
    mention: Mention
    how: str  # org, person, place, title, quote, award, date, list


@dataclass
class OpenMentions:
    mentions: list[Mention] = field(default_factory=list)  # entities, dates included, in text order
    values: list[Mention] = field(default_factory=list)  # amounts and percentages (qualifier values)
    aliases: list[tuple[Mention, str]] = field(default_factory=list)  # (named entity, its declared short name)
    quoted: list[tuple[int, int]] = field(default_factory=list)  # spans of quoted and titled names


def suffix_pattern(suffixes: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile("|".join(re.escape(s) for s in sorted(suffixes, key=len, reverse=True)))


class NameRules:
    """The rules resolved against one schema (built once per extractor)."""

    def __init__(self, resolve: Resolve, dictionary: JiebaDictionary) -> None:
        self.resolve = resolve
        self.dictionary = dictionary
        self.org_classes = {s: c for s, v in wl.ORG_SUFFIXES if (c := resolve(v)) is not None}
        self._org_re = suffix_pattern(tuple(self.org_classes))
        self._org_end_re = re.compile(f"(?:{self._org_re.pattern})$")  # an organisation's ending closing a name
        self._titles_re = suffix_pattern(wl.EXECUTIVE_TITLES + wl.PERSON_TITLES)
        self.person = resolve("Person")
        self.date = resolve("Date")
        self.country = resolve("Country|GeographicLocation")
        self.region = resolve("AdministrativeRegion|GeographicLocation")
        self.city = resolve("City|GeographicLocation")
        self.award = resolve("Award")
        self.place_classes = [(s, c) for s, v in wl.PLACE_SUFFIXES if (c := resolve(v)) is not None]
        self.product_heads = [(h, c) for h, v in sorted(wl.PRODUCT_HEADS, key=lambda x: -len(x[0]))
                              if (c := resolve(v)) is not None]
        self.list_heads = [(h, c) for h, v in wl.LIST_HEADS if (c := resolve(v)) is not None]
        self.company = resolve("Company|Organization")
        self.government = resolve("GovernmentAgency|Organization")
        self.work = resolve("Work")
        self.event = resolve("Event")

    def classes(self) -> set[str]:
        """The schema classes these rules give names of organisations, people, places and dates."""
        out = {*self.org_classes.values(), *(c for _, c in self.place_classes)}
        return out | {c for c in (self.person, self.date, self.country, self.region, self.city, self.company,
                                  self.government) if c is not None}

    def _common(self, word: str) -> bool:
        return word in wl.STOP_NAMES or self.dictionary.is_common(word)

    @staticmethod
    def _token_at(tokens: list[Token], pos: int) -> int | None:
        for i, t in enumerate(tokens):
            if t.start <= pos < t.end:
                return i
        return None

    def _namey(self, token: Token, *, inside: bool = False) -> bool:
        """A word that may be part of a name; `inside` for a word after the name's first one, where the words a
        name never starts with (原, 现, 前…) are no sign of its start: 陇 | 原种 | 业 (陇原种业)."""
        w = token.word
        if unknown_char(token):
            return True
        if token.pos not in _NAMEY and not (token.pos == "a" and len(w) == 1):
            return False
        if w in wl.STOP_NAMES or w.endswith(wl.DESCRIPTOR_ENDS) or (w.startswith(wl.LEADING_NOISE) and not (
                inside and len(w) > 1)):
            return False
        if w in HOLDS_POST_WORDS:  # 现任 | 温州港务集团董事长: jieba tags 现任 a noun
            return False
        if w.endswith(("性", "型", "类", "式")) and len(w) > 1:  # 综合性, 研究型: what kind, not which one
            return False
        if len(w) > 1 and w.endswith(("于", "为", "在", "是", "的")) and token.pos not in ("nr", "nt", "nz", "nrt"):
            # 归属于, 人为 (jieba's cut of 控制人为); 华为 is a name jieba knows
            return False
        return not any(w == t for t in wl.EXECUTIVE_TITLES + wl.PERSON_TITLES)


def occurrences(form: str, text: str) -> Iterator[tuple[int, int]]:
    """Where `form` stands in `text`, left to right and not overlapping (what re.finditer(re.escape(form)) finds),
    by plain string search: a pattern per name found overflowed the `re` module's cache of 512 compiled patterns
    every chunk, so the rules' own patterns were compiled again and again."""
    if not form:
        return
    at = text.find(form)
    while at >= 0:
        yield at, at + len(form)
        at = text.find(form, at + len(form))


def is_fragment(name: str, endings: re.Pattern[str]) -> bool:
    """科技有限公司, 信息技术股份有限公司: an ending after nothing but words of company names."""
    hit = endings.search(name)
    if hit is not None and hit.group(0).endswith(("大学", "学院")):
        return False  # 电子科技大学: a school is named for its fields
    body = name[:hit.start()] if hit is not None else ""
    return bool(body) and bool(re.fullmatch("(?:" + "|".join(sorted(wl.ORG_NAME_WORDS, key=len, reverse=True)) + ")+",
                                            body))


def surname_at(text: str, pos: int) -> int:
    """The length of the surname starting at `pos` (2 for a compound one), 0 when none does."""
    if text[pos:pos + 2] in wl.COMPOUND_SURNAMES:
        return 2
    return 1 if text[pos:pos + 1] in wl.SURNAMES else 0


def overlaps(spans: list[tuple[int, int]], start: int, end: int) -> bool:
    return any(start < e and s < end for s, e in spans)


def non_overlapping(found: list[Found]) -> list[Found]:
    ranked = sorted(found, key=lambda f: (_PRIORITY.get(f.how, 9), -(f.mention.end - f.mention.start), f.mention.start))
    kept: list[Found] = []
    for f in ranked:
        if not any(f.mention.start < k.mention.end and k.mention.start < f.mention.end for k in kept):
            kept.append(f)
    return kept


def unknown_char(t: Token) -> bool:
    """鄂 | 凇 (x) | 电气, 襄阳 | 凇 | 源控股, 皖 | 燚 (yg) | 新材: a Chinese character jieba's dictionary lacks is
    tagged by its character model alone, as punctuation (x) or a bare morpheme (yg, g); such a rare character stands
    in names (companies, people), hardly ever in ordinary words."""
    return t.pos in ("x", "yg", "g") and len(t.word) == 1 and "\u4e00" <= t.word <= "\u9fff"


def rare_char(t: Token) -> bool:
    """A character jieba's dictionary lacks (`unknown_char`) or lists only as a bound morpheme of old or rare use
    (zg: 芃, 翀, 燊): alone between words, it is a name's character."""
    return unknown_char(t) or (t.pos == "zg" and len(t.word) == 1 and "\u4e00" <= t.word <= "\u9fff")


def rare_char_as_measure(t: Token, tokens: list[Token]) -> bool:
    """闽 | 泓 | 冷链: jieba tags a rare character of a short name as a measure word (q); a measure word follows a
    number (三家, 200辆), so one that does not is part of a name."""
    if t.pos != "q" or len(t.word) != 1:
        return False
    before = next((x for x in reversed(tokens) if x.end <= t.start), None)
    return before is not None and before.end == t.start and before.pos not in ("m", "r")
