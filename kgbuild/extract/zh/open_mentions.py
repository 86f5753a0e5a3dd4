"""Open-domain names in Chinese text, without a model: organisations, people, places, works, products,
awards and dates, plus amounts (kept apart: they become qualifier values, not entities).

Chinese writes no capitals and no spaces, and jieba's name tags are only a hint (its dictionary tags
智能化 a person name), so each kind of name is found by what marks it in the text itself:
- organisations by their ending (…股份有限公司, …集团, …银行, …大学, …研究院, …局), the name reaching back
  over the noun-like words before the ending (深圳云帆软件有限公司), stopping at a verb, a preposition or a
  descriptor (德国化工企业 | 莱茵特种材料公司), and never a bare kind (子公司, 上市公司);
- people by a title before the name (董事长徐直军, 作家周慕白), by a verb of saying or a life event after it
  (李明远表示, 雷军毕业于), or as the subject an encyclopedia entry opens with (钱学森，…); always a known
  surname and two to four characters;
- places by jieba's place tag confirmed by a list (countries, provinces), an ending (…省, …市, …区, …山)
  or jieba's dictionary knowing the place well;
- works in 《》, products in quotes after a noun that says what they are (平台“天枢”, 药物“蓝替尼”);
- short names declared in brackets (以下简称“星河智能”) as aliases, and a name that stands before an
  executive title (星河智能董事长) as an organisation.
A name found once is a mention wherever else the chunk writes it.
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
_QUOTED = re.compile(r"[“\"「『]([^“”\"「」『』\n]{1,30})[”\"」』]")
_TITLED = re.compile(r"《([^《》\n]{1,40})》")
_ALIAS = re.compile(r"(?:以下简称|以下称|下称|简称|又称|亦称|俗称|英文简称|曾用名|原名|古称|旧称)[为：:\s]*"
                    r"(?:[“\"「『《]([^“”\"「」『』《》\n]{1,30})[”\"」』》]|([\u4e00-\u9fffA-Za-z0-9]{2,12}))")
# A short name, then its full name declared: 鹤鸣酒业，全称四川鹤鸣酒业股份有限公司 / 鹤鸣酒业（全称…）.
_FULL_NAME = re.compile(r"(?:^|(?<=[，。；：！？\n]))\s*(?P<short>[\u4e00-\u9fffA-Za-z0-9]{2,10})\s*[，,（(]\s*"
                        r"(?:全称|全名)(?:为|是)?[：:\s]*")
# Tags of tokens that may stand inside a name (nouns, proper names, abbreviations, Latin words, noun-verbs
# such as 投资 and 监督管理, distinguishing words such as 特种).
_NAMEY = frozenset({"n", "nr", "nrfg", "nrt", "ns", "nt", "nz", "j", "eng", "vn", "b", "an", "l", "ng", "nl", "ag"})
_HAN = re.compile(r"^[\u4e00-\u9fff]+$")
_INDEFINITE = re.compile(r"(?:一|这|那|每)[家所个座间种位名支款]\S{0,10}$")
# What follows the name an encyclopedia entry opens with: 钱学森，中国著名科学家 / 李明远，1968年出生于.
_ENTRY_LEAD = re.compile(r"[，,（(]\s*(?:\d|[男女]|中国|著名|原名|字|号|生于|出生)")
_MODIFIERS = ("轮值", "执行", "联席")  # between an organisation and a title: 华为轮值董事长
_PERSON_CUE = re.compile("|".join(wl.PERSON_CUES))
# A place in brackets inside an organisation's name, before its ending: 海川环境（香港）有限公司.
_BRACKETED_PLACE = re.compile(r"[（(][\u4e00-\u9fff]{2,6}[）)]$")  # 金穗（哈萨克斯坦）农机有限公司
# A clause's opening: the start of the text or a clause break, then a time or frame (2023年，/ 截至报告期末，).
_CLAUSE_OPEN = re.compile(r"(?:^|(?<=[，。；：！？\n]))\s*")
_SUBJECT_CUE = re.compile(wl.SUBJECT_GAP + r"(?:" + wl.SUBJECT_CUES + r")")
# The cues only a company is the subject of (a person is never 实现营业收入): they settle a name jieba tags a person's.
_COMPANY_CUE = re.compile(wl.SUBJECT_GAP + r"(?:实现(?:营业|归属|净利|销售|销量|营收|利润|收入|产量|交付)|研发投入|"
                          r"营业收入|净利润|的控股股东|的实际控制人|的(?:主要|全资|控股)子公司|总部位于|总部设在|主营业务|"
                          r"在职员工|员工总数|第[一二三四五六七八九十\d]{1,3}届(?:董事会|监事会))")
_SUBJECT_LEAD = re.compile(r"(?:报告期内|截至报告期末|报告期末|同月|同年|此外|同时|另外)?")
_ITEMS = r"((?:[\u4e00-\u9fffA-Za-z0-9]{2,12}[、和及与]){1,12}[\u4e00-\u9fffA-Za-z0-9]{2,12})等"
# Words before a product's kind that are not part of it: 新一代工业视觉平台 -> 工业视觉平台.
_PRODUCT_LEAD = re.compile(r"^.*?(?:新一代|全新|一款|一种|一个|最新|自主研发的|研发的|的)")
# A transliterated foreign name: 约翰·冯·诺依曼, 艾伦·图灵 (the middle dot as Chinese texts write it).
_FOREIGN_NAME = re.compile(r"[\u4e00-\u9fff]{1,8}(?:[·・•‧][\u4e00-\u9fff]{1,10})+")
# Verbs a place follows: 出生于布达佩斯, 位于普林斯顿, 定居伦敦.
_PLACE_VERBS = ("出生于", "生于", "出生在", "位于", "地处", "迁往", "迁居", "移居", "定居", "前往", "来到", "抵达",
                "逝世于", "去世于", "死于", "卒于", "搬到", "迁至", "注册地为", "注册地位于", "注册于")
# ENIAC是一台计算机: what a Latin name is, said right after it.
_DEFINED = re.compile(r"\s*(?:是|为)(?:一[台种部款个家])?[^，。；]{0,12}?(?=[，。；]|$)")
# What stands before a title in an appointment without being an employer's name: a department or a body.
# The legal form after a group's name (吉利控股集团有限公司), and a department after a school's (清华大学电子工程系).
_COMPANY_FORM = re.compile(r"(?:股份有限公司|有限责任公司|有限公司)")
_DEPARTMENT = re.compile(r"[\u4e00-\u9fff]{1,8}(?:系|专业|学院|研究院|研究所)")
# A field a ministry or commission is named for, two joined by 和 (工业和信息化部): two to four characters.
_FIELD = re.compile(r"[\u4e00-\u9fff]{2,4}")
# Tags of words that never start or stand inside a company's name, and words a name starts after.
_FUNCTION_TAGS = frozenset("p c u uj ul uz ug uv r m f x d q t y e".split())
_NAME_BOUNDARY = frozenset("创办 创立 创建 收购 并购 设立 成立 新设 注销 投资 控股 在 与 和 及 对 为 由 了 是 向 "
                           "把 被 将 从 子公司 公司 旗下 拥有 包括 以及 其中 同时 "
                           "加入 入职 加盟 入股 参股 增资 出售 转让 注资 担任 现任 曾任 共建 新建 筹建 组建 "
                           "签约 合资".split())
_NOT_EMPLOYER = ("部", "处", "室", "中心", "委员会", "董事会", "监事会", "办公室", "财务", "事业部", "分公司", "本部",
                 "业务", "区域", "区", "板块", "条线", "事业群", "团队", "项目", "基地", "工厂", "门店", "分行", "支行",
                 "实验室", "研究院", "线")
_NOT_EMPLOYER_LEAD = ("华东", "华南", "华北", "华中", "西南", "西北", "东北", "海外", "国内", "国际", "第")
# A verb or adverb this frequent in jieba's dictionary (推进 4932, 积极 8844) is what a clause does to a company, not
# a word of its name; rarer ones (远航 155) may start a name.
_ACTION_MIN_FREQ = 1000
# 由 [DESCRIPTION的] A(和 B) [于 DATE] [在 PLACE] [共同] VERB, 被 / 由 A 以 PRICE 收购: the agents of a passive or of
# a founding (_agents_after_you); 由厨师出身的冉怀瑾于2011年…创办: what the agent is, said before 的, is no agent.
_AGENTS = re.compile(r"由(?:[\u4e00-\u9fff]{1,10}的)?((?:[\u4e00-\u9fff]{2,8}?[和、与及])*[\u4e00-\u9fff]{2,8}?)"
                     r"(?:于\d{4}年(?:\d{1,2}月(?:\d{1,2}日)?)?)?(?:在[\u4e00-\u9fff]{2,12}?)?(?:共同|联合|独立|自主)?"
                     r"(?:出资)?(?:创办|创立|创建|设立|新设|研发|研制|开发|设计|收购|发布|推出|出版|建造|制造)|"
                     # …100%股权被桂垣糖业以2.35亿元现金收购: the buyer between 被 and the price
                     r"被([\u4e00-\u9fff]{2,8}?)(?:以[^，。；]{1,16}?)?(?:收购|并购|兼并)|"
                     r"由([\u4e00-\u9fff]{2,8}?)(?:以[^，。；]{1,16}?)(?:收购|并购|兼并)")
TITLE_RUN = re.compile(r"(?:[、和及兼](?:常务|执行|轮值|联席)?(?:"
                       + "|".join(sorted(wl.EXECUTIVE_TITLES, key=len, reverse=True)) + r"))*")
# A given name of one or two characters after a surname, up to what people do, 的, 在 / 于, or the next
# title of a list of posts (董事长韩立新和副总经理马晓东)
_GIVEN_NAME = re.compile(r"[\u4e00-\u9fff]{1,2}?(?=" + "|".join(wl.PERSON_VERBS)
                         + "|的|在|于|[和、及](?:常务|执行)?(?:" + "|".join(wl.EXECUTIVE_TITLES) + "))")
# 接替已经退休的创始人谭松年。 (jieba: 谭松 | 年): where jieba saw a name, the clause's end ends it, or the 等 that
# closes a list of people (作曲家季南星等。 jieba: 季南 | 星等)
_GIVEN_NAME_AT_END = re.compile(r"[\u4e00-\u9fff]{1,2}?(?=[，。；！？）)]|等|$)")
_ORG_WORD_AT_END = re.compile("(?:" + "|".join(wl.ORG_NAME_WORDS) + ")$")
_ORG_WORDS_AT_END = re.compile("(?:" + "|".join(wl.ORG_NAME_WORDS) + ")+$")  # 创新科技 of 大疆创新科技
_BIRTH_ENTRY = re.compile(r"(?:^|(?<=[。！？\n]))\s*([\u4e00-\u9fff]{2,4})[，,]\s*\d{4}年(?:\d{1,2}月(?:\d{1,2}日)?)?"
                          r"(?:出生|生于)")
_LEAD_ONLY = re.compile(r"\s*")  # nothing before a sentence's subject but space
_COUNTRIES_LONGEST_FIRST = tuple(sorted(wl.COUNTRIES, key=len, reverse=True))
_TITLE_WORDS = frozenset((*wl.EXECUTIVE_TITLES, *wl.PERSON_TITLES, "理事", "委员", "成员", "会员", "常委"))
_TITLE_ENDS = tuple(_TITLE_WORDS)
_ANY_TITLE = (*wl.EXECUTIVE_TITLES, *wl.PERSON_TITLES)
# Single characters that are verbs or function words before a name, never its first characters (曾任 | 阿里巴巴…).
_VERB_CHARS = frozenset("任是在有为将会要被让给到去来说做向从把对与和及等经由于曾现原前兼历时")
_HOLDS_POST_WORDS = frozenset("现任 曾任 担任 出任 兼任 历任 接任 继任 时任 原任".split())
# Adjectives that open awards' names (最佳影片奖, 最佳女主角奖): kept where other adjectives before an award are not.
_AWARD_LEADS = frozenset({"最佳", "杰出", "优秀", "终身成就"})
_KIN_AFTER = re.compile(r"[与和及]其?(?:妻子|丈夫|配偶|夫人)")
_BEFORE_A_NAME = frozenset("由与和及、，,。；;：:为是（(\n ")
_GOVERNMENT_ENDINGS = frozenset({"委员会", "部", "局", "署", "厅", "办公室"})
_BODIES_OF_A_COMPANY = frozenset({"董事局", "董事会", "监事会", "股东大会"})
_APPOINTING = re.compile(r"聘任|聘请|任命|选举|推选")
_APPOINTED_AS = re.compile(r"为[\u4e00-\u9fff]{0,10}?(?:" + "|".join(sorted(wl.EXECUTIVE_TITLES, key=len, reverse=True))
                           + r")、")
_PLACE_LEVELS = frozenset("省市县州区")  # the level a place's name ends with, when jieba cuts it off
_BREAK = re.compile(r"[，。；：！？、,;:!?（）()\s]")

# Priority when two names overlap (lower wins), then the longer name.
_PRIORITY = {"title": 0, "quote": 0, "date": 1, "event": 1, "org": 2, "award": 2, "person": 3, "place": 4, "list": 5,
             "latin": 5}
# What opens a named event before its proper words: an edition or a year (第十届, 2025年).
_NOUN_AFTER_QUOTES = re.compile(r"(?:系列|牌)?([\u4e00-\u9fffA-Za-z]{1,10})")
_AFTER_ONCE = frozenset("在任经于为是被与担获先多")  # what follows 曾 ("once") after a person's name
_EDITION_BEFORE = re.compile(r"第[一二三四五六七八九十百零\d]+届$")  # 第四届 right before a prize's name
_EDITION = re.compile(r"(?:第[一二三四五六七八九十百零\d]+届|\d{4}年度?)$")


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


def _suffix_pattern(suffixes: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile("|".join(re.escape(s) for s in sorted(suffixes, key=len, reverse=True)))


class OpenNameFinder:
    """The rules resolved against one schema (built once per extractor)."""

    def __init__(self, resolve: Resolve, dictionary: JiebaDictionary) -> None:
        self.resolve = resolve
        self.dictionary = dictionary
        self.org_classes = {s: c for s, v in wl.ORG_SUFFIXES if (c := resolve(v)) is not None}
        self._org_re = _suffix_pattern(tuple(self.org_classes))
        self._titles_re = _suffix_pattern(wl.EXECUTIVE_TITLES + wl.PERSON_TITLES)
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

    # ------------------------------------------------------------------ helpers

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
        if _unknown_char(token):
            return True
        if token.pos not in _NAMEY and not (token.pos == "a" and len(w) == 1):
            return False
        if w in wl.STOP_NAMES or w.endswith(wl.DESCRIPTOR_ENDS) or (w.startswith(wl.LEADING_NOISE) and not (
                inside and len(w) > 1)):
            return False
        if w in _HOLDS_POST_WORDS:  # 现任 | 温州港务集团董事长: jieba tags 现任 a noun
            return False
        if w.endswith(("性", "型", "类", "式")) and len(w) > 1:  # 综合性, 研究型: what kind, not which one
            return False
        if len(w) > 1 and w.endswith(("于", "为", "在", "是", "的")) and token.pos not in ("nr", "nt", "nz", "nrt"):
            # 归属于, 人为 (jieba's cut of 控制人为); 华为 is a name jieba knows
            return False
        return not any(w == t for t in wl.EXECUTIVE_TITLES + wl.PERSON_TITLES)

    # ------------------------------------------------------------------ kinds of names

    def _orgs(self, text: str, tokens: list[Token], blocked: list[tuple[int, int]]) -> list[Found]:
        out: list[Found] = []
        for m in self._org_re.finditer(text):
            s, e = m.start(), m.end()
            j = self._token_at(tokens, s)
            if j is None or _inside(blocked, s, e):
                continue
            tok = tokens[j]
            k = j - 1
            # 国家发展和改革委员会, 工业和信息化部: a ministry's name joins two fields with 和
            joined = m.group(0) in ("部", "委员会", "局", "署") and k >= 2 and tokens[k - 1].word == "和" \
                and tokens[k].end == s and all(_FIELD.fullmatch(tokens[i].word)
                                               and tokens[i].pos in ("n", "vn", "nz", "v") for i in (k, k - 2))
            if len(m.group(0)) == 1 and not joined and tok.word != m.group(0) and (
                    self.dictionary.is_common(tok.word) or tok.pos in ("v", "f", "vn", "d")):
                continue  # 签署, 南部, 格局: the ending is the last character of an ordinary word
            if (whole := _COMPANY_FORM.match(text, e)) is not None and m.group(0) in ("集团", "控股集团"):
                e = whole.end()  # 浙江吉利控股集团有限公司: the legal form after 集团 is the end of the name
            if tok.end > e:
                tail = text[e:tok.end]
                # 银行行长: a title glued to the name by jieba is fine; 公司员工 is a common noun; 清华大学电子工程系
                # (one token to jieba) is the university and its department; 大学教授 a title too
                if not tail.startswith(_ANY_TITLE) and not _DEPARTMENT.fullmatch(tail):
                    continue
            start = tok.start
            if joined:
                start, k = tokens[k - 2].start, k - 3
                if k >= 0 and tokens[k].word == "国家":
                    start, k = tokens[k].start, k - 1
            while k >= 0 and tokens[k].end == start:
                bracket = _BRACKETED_PLACE.search(text, 0, start)  # 海川环境（香港）有限公司
                if bracket is not None and bracket.end() == start and k >= 2:
                    k = next((i for i in range(k, -1, -1) if tokens[i].end <= bracket.start()), -1)
                    start = bracket.start()
                    continue
                # 香港联合交易所: 联合 after a place is part of the name (固态电池联合实验室 names no one lab)
                joint = tokens[k].word == "联合" and k > 0 and tokens[k - 1].pos == "ns"
                # 国家 | 卫生 | 健康 | 委员会: a body of government may be named for qualities (adjectives to jieba)
                # when a name-like word still comes before them
                quality = m.group(0) in _GOVERNMENT_ENDINGS and tokens[k].pos in ("a", "an") \
                    and len(tokens[k].word) == 2 and any(
                        self._namey(tokens[i]) and tokens[i].end == tokens[i + 1].start for i in (k - 1, k - 2)
                        if i >= 0 and all(tokens[x].pos in ("a", "an") for x in range(i + 1, k)))
                if not (self._namey(tokens[k]) or tokens[k].word in wl.ORG_NAME_WORDS or joint or quality
                        or _rare_char_as_measure(tokens[k], tokens)):  # 莆田 | 闽 | 泓 (q) | 供应链管理有限公司
                    break
                start = tokens[k].start
                k -= 1
            if s - start >= 2 and self._bare(text[start:s], tokens, start):
                # 在深圳创办宏远电子有限公司, ，深圳新锐半导体股份有限公司: the walk stopped at an ordinary word (宏远,
                # 新锐) leaving only words of company names; a name runs back to where the clause or the verb
                # before it ends, over at most two more words
                back, i = start, k
                while i >= 0 and tokens[i].end == back and start - tokens[i].start <= 6 and k - i < 2 \
                        and _HAN.match(tokens[i].word) and tokens[i].pos not in _FUNCTION_TAGS | {"v"} \
                        and not tokens[i].word.endswith(("于", "为", "在")) \
                        and tokens[i].word not in _NAME_BOUNDARY:
                    back = tokens[i].start
                    i -= 1
                # (汽车零部件企业 | 莱茵 | 精密 | 技术有限公司: what kind of company it is ends what comes before
                # the name)
                if back < start and (i < 0 or tokens[i].word in _NAME_BOUNDARY or not _HAN.match(tokens[i].word)
                                     or (tokens[i].word.endswith(wl.DESCRIPTOR_ENDS) and len(tokens[i].word) >= 2)):
                    start, k = back, i
            if k >= 0 and tokens[k].end == start and (lead := self._name_lead(tokens, k)) is not None:
                start, k = lead
            # 德国化工企业莱茵特种材料公司: the descriptor the walk stopped at says what kind of organisation it is
            kind = tokens[k].word if k >= 0 and tokens[k].end == start and tokens[k].word.endswith(
                wl.DESCRIPTOR_ENDS) and len(tokens[k].word) > 2 else None
            name = text[start:e]
            kind_first = re.match(r"(?:全资|控股|参股)?子公司|(?:下属|旗下)(?:企业|公司)", name)
            if kind_first and len(name) - kind_first.end() > len(m.group(0)):  # 新设全资子公司云岭储能欧洲有限公司
                name, start = name[kind_first.end():], start + kind_first.end()
            crossed = [*re.finditer(r"(?:公司|集团|银行|大学|学院)[和与及、]", name[:-len(m.group(0))])]
            if crossed:  # 合肥华宇变压器制造有限公司和华宇电气（香港）有限公司: two names
                name, start = name[crossed[-1].end():], start + crossed[-1].end()
            if name.startswith("经") and re.match(r"(?:的)?(?:批准|核准|同意|审批|审核)", text[e:e + 3]) \
                    and len(name) - 1 > len(m.group(0)):
                name, start = name[1:], start + 1  # 经中国证券监督管理委员会核准: 经 is "by", no part of the name
            stripped = True
            while stripped:  # 本 | 季度公司: one word of noise may hide another
                stripped = False
                for noise in sorted(wl.LEADING_NOISE, key=len, reverse=True):
                    if name.startswith(noise) and len(name) - len(noise) > len(m.group(0)):
                        name, start, stripped = name[len(noise):], start + len(noise), True
            if any(name == noise + m.group(0) for noise in wl.LEADING_NOISE if len(noise) > 1):
                continue  # 本季度公司, 全称公司: a period or a declaration and a bare kind, no name
            if name.startswith(("当地", "有关", "相关", "各级")) or (len(m.group(0)) == 1 and name.startswith(
                    _NOT_EMPLOYER_LEAD)):
                continue  # 当地政府, 有关部门: which body the text does not say; 国际医疗部: a department of one
            first_word = next((wl_ for wl_ in wl.COUNTRIES if name.startswith(wl_)), None)
            if first_word and first_word != "中国" and len(name) - len(first_word) >= 4 and self.country \
                    and not _COMPANY_FORM.search(name):
                # (越南云杉纺织有限公司, a registered name with its legal form, keeps the country it was registered in)
                # 美国麻省理工学院: the country and the institution, two names
                country = Mention(first_word, self.country, start, start + len(first_word), first_word)
                out.append(Found(country, "place"))
                name, start = name[len(first_word):], start + len(first_word)
            suffix = m.group(0)
            if re.match(r"(?:系统|平台|软件|业务|产品|账户|服务|卡)", text[e:e + 2]):
                continue  # 分布式核心银行系统: the ending is inside a product's noun
            kind_end = next((k for k in ("子公司", "分公司") if name.endswith(k)), None)
            if kind_end and len(name) > len(kind_end) and self._common(name[:-len(kind_end)]):
                continue  # 销售子公司, 海外子公司: a kind of subsidiary, not its name
            too_short = len(name) <= len(suffix) and len(suffix) < 3  # 公司 alone; 新华社 is a whole name
            too_short = too_short or _COMPANY_FORM.fullmatch(name) is not None  # 改制为股份有限公司: a legal form

            if name in wl.ORG_STOP or too_short or not re.search(r"[\u4e00-\u9fff]", name):
                continue
            if any(name.startswith(k) and name[len(k):] in wl.ORG_STOP for k in ("本公司", "公司", "本集团", "集团")):
                continue  # 公司总部位于…: the company's headquarters, two kind words and no name
            if len(suffix) == 1 and len(name) - 1 < wl.SHORT_SUFFIX_MIN:
                continue
            if suffix == "厂" and (start >= tok.start
                                  or len(next((t.word for t in tokens if t.start == start), "")) < 2):
                continue  # 机床厂, 求 | 精 | 开关厂: a kind of works, or a name cut in a word; 潍坊农机修造厂 names one
            if len(suffix) == 1 and self.dictionary.is_common(name):  # 格局, 内部: words, not bodies
                continue
            if self._common(name) or _INDEFINITE.search(text[max(0, start - 14):start]) or any(
                    len(t.word) > 1 and t.word.endswith(("性", "型")) for t in tokens if start <= t.start < s):
                continue  # 一所位于成都的综合性研究型大学, 重点综合性大学: a description, not a name
            words = [t.word for t in tokens if start <= t.start < s]
            if text[start - 1:start] == "的" and words and all(self._common(w) for w in words):
                continue  # 是农业农村部直属的全国重点大学: ordinary words after 的 describe, they name nothing
            cls = self.org_classes[suffix]
            if self.government and any(w in name for w in wl.GOVERNMENT_WORDS) and cls != self.company:
                cls = self.government
            out.append(Found(Mention(name, cls, start, e, name, semantic_type=kind), "org"))
        return out

    def _person_at(self, text: str, tokens: list[Token], pos: int) -> int | None:
        """The end of a person's name starting at `pos` (a surname and one or two more characters,
        as jieba's tokens allow), or None."""
        surname = _surname_at(text, pos)
        if not surname:
            return None
        j = self._token_at(tokens, pos)
        if j is None or tokens[j].start != pos:
            return None
        tok = tokens[j]
        if tok.pos in ("nr", "nrfg", "nrt") and surname < len(tok.word) <= surname + 2:
            end = tok.end
            if len(tok.word) == surname + 1 and j + 1 < len(tokens):  # 赵国 + 平
                nxt = tokens[j + 1]
                if len(nxt.word) == 1 and nxt.pos in ("n", "ng", "nr", "a", "ag", "b") and _HAN.match(nxt.word):
                    end = nxt.end
            return end
        if len(tok.word) == surname and j + 1 < len(tokens):  # 李 + 明远
            nxt = tokens[j + 1]
            if 1 <= len(nxt.word) <= 2 and nxt.pos not in ("v", "p", "c", "u", "uj", "ul", "d", "r", "f", "x", "m", "q",
                                                           "vn", "t") and _HAN.match(nxt.word):
                return nxt.end
        return None

    def _person_after_title(self, text: str, tokens: list[Token], pos: int) -> int | None:
        """The end of the name of a person right after a title at `pos`: jieba's cut first; else, since jieba cuts
        names apart (首席技术官周靖人出席: 周靖 | 人; 董事长李想在: 李 | 想), a surname and one or two characters
        before what people do, 的, 在 / 于, or the next title of a list of posts (董事长韩立新和副总经理马晓东)."""
        end = self._person_at(text, tokens, pos)
        if (surname := _surname_at(text, pos)) and (end is None or end - pos == surname + 1):
            said = _GIVEN_NAME.match(text[pos + surname:pos + surname + 12]) or (
                _GIVEN_NAME_AT_END.match(text[pos + surname:pos + surname + 3]) if end is not None else None)
            # 董事长陈宗年表示 (jieba: 陈宗 | 年, a number word): one character more before what people do
            if said is not None and (end is None or pos + surname + said.end() == end + 1):
                end = pos + surname + said.end()
        return end

    def _cued_person(self, text: str, tokens: list[Token], pos: int) -> int | None:
        """The end of a person's name after a cue of reports (聘任, 实际控制人为): jieba's cut is the first
        guess, but after such a cue a surname and one or two characters before 为 / 、 / 夫妇 are a name
        whatever jieba made of them (聘任周立新为: 立新 an adverb; 聘任许丽为: 许丽为 one name)."""
        surname = _surname_at(text, pos)
        if not surname:
            return None
        bounded = re.match(r"[\u4e00-\u9fff]{1,2}?(?=为|担任|、|和|及|夫妇|夫妻|先生|女士|[，。；）)]|$)",
                           text[pos + surname:pos + surname + 6])
        if bounded is not None:
            return pos + surname + bounded.end()
        return self._person_at(text, tokens, pos)

    def _valid_person(self, name: str) -> bool:
        if name[1:] in _TITLE_WORDS or name[2:] in _TITLE_WORDS:
            return False  # 副会长和理事: 和 is a surname too, but 理事 is a title, not a given name
        if name[0] in "和与及" and self._common(name[1:]):
            return False  # 全体球员和球迷: and the fans
        return 2 <= len(name) <= 4 and not self._common(name) and name not in wl.PLACE_STOP \
            and name not in wl.COUNTRIES and name not in wl.PROVINCES

    def _persons(self, text: str, tokens: list[Token], blocked: list[tuple[int, int]]) -> list[Found]:
        if self.person is None:
            return []
        out: list[Found] = []
        seen: set[int] = set()

        def add(start: int, end: int | None, title: str | None = None) -> None:
            if end is None or start in seen or _inside(blocked, start, end):
                return
            if end - start == 3 and text[end - 1] == "曾" and text[end:end + 1] in _AFTER_ONCE \
                    and any(t.start == end - 1 and t.word == "曾" for t in tokens):
                end -= 1  # 创始人顾辞曾在网易游戏担任…: 曾 ("once", jieba's own cut) ends the name, 顾辞
            name = text[start:end]
            if self._valid_person(name):
                seen.add(start)
                # the title is what the person is (董事长, 作家): a concept the align stage links them to
                out.append(Found(Mention(name, self.person, start, end, name, semantic_type=title),  # type: ignore[arg-type]
                                 "person"))

        for m in self._titles_re.finditer(text):  # 董事长徐直军, 作家周慕白; 董事长为钱志远
            add(m.end(), self._person_after_title(text, tokens, m.end()), m.group(0))
            if text[m.end():m.end() + 1] == "为":
                add(m.end() + 1, self._cued_person(text, tokens, m.end() + 1), m.group(0))
        for m in _PERSON_CUE.finditer(text):  # 实际控制人为孙建国、孙晓梅夫妇; 聘任李卫东为公司总经理
            pos = m.end()
            while (end := self._cued_person(text, tokens, pos)) is not None:
                add(pos, end)
                if text[end:end + 1] not in "、和及":
                    break
                pos = end + 1
        for m in _APPOINTED_AS.finditer(text):
            # 聘任岑慧敏为公司总经理、冼家豪为董事会秘书: in a list of appointments, the next name after each post
            opened = max(text.rfind(c, 0, m.start()) for c in "。；！？\n") + 1
            if _APPOINTING.search(text, opened, m.start()):
                add(m.end(), self._cued_person(text, tokens, m.end()))
        for m in _FOREIGN_NAME.finditer(text):  # 约翰·冯·诺依曼: Chinese writes foreign people's names so
            if not _inside(blocked, m.start(), m.end()) and m.start() not in seen:
                name = _trim_foreign(text, m.start(), m.end(), tokens, self.dictionary.is_common)
                if name is not None:
                    s, e = name
                    seen.add(s)
                    out.append(Found(Mention(text[s:e], self.person, s, e, text[s:e]), "person"))
        for tok in tokens:
            if tok.word[:1] not in wl.SURNAMES and tok.word[:2] not in wl.COMPOUND_SURNAMES:
                continue
            end = self._person_at(text, tokens, tok.start)
            if end is None:
                continue
            after = text[end:end + 4]
            lead = (tok.start == 0 or text[tok.start - 1] in "。！？\n") and text[end:end + 1] in "，,（("
            opens_entry = lead and _ENTRY_LEAD.match(text[end:end + 8])
            if after.startswith(wl.PERSON_VERBS) or opens_entry:
                add(tok.start, end)
        for m in _KIN_AFTER.finditer(text):
            # 由陈远航与妻子林秋雨 (jieba: 陈 | 远航, a verb): a name right before "and his wife" is a person's, where
            # a surname opens it and what comes before it closes a clause or a list
            for size in (3, 2, 4):
                s = m.start() - size
                if s >= 0 and _surname_at(text, s) and (s == 0 or text[s - 1] in _BEFORE_A_NAME) \
                        and s not in seen and self._valid_person(text[s:m.start()]):
                    add(s, m.start())
                    break
        for m in re.finditer(r"夫妇|夫妻", text):
            # 由贺启明、任佩瑶夫妇 (jieba: 贺 | 启明, a verb): the two names listed before "husband and wife" are
            # people's, each opened by a surname, the first after what closes a clause or a list
            end = m.start()
            for size_b in (3, 2, 4):
                b = end - size_b
                if b < 1 or text[b - 1] not in "、和与及" or not _surname_at(text, b) \
                        or not self._valid_person(text[b:end]):
                    continue
                a = next((b - 1 - n for n in (3, 2, 4) if b - 1 - n >= 0 and _surname_at(text, b - 1 - n)
                          and (b - 1 - n == 0 or text[b - 2 - n] in _BEFORE_A_NAME)
                          and self._valid_person(text[b - 1 - n:b - 1])), None)
                if a is not None:
                    add(a, b - 1)
                    add(b, end)
                    break
        for m in _BIRTH_ENTRY.finditer(text):  # 钟南山，1936年出生于… (jieba: 钟南山 a place): an entry about a person
            if _surname_at(text, m.start(1)) and m.start(1) not in seen:
                add(m.start(1), m.end(1))
        return out

    def _place_class(self, word: str) -> str | None:
        if word in wl.PLACE_STOP or word in wl.STOP_NAMES or len(word) < 2:
            return None
        if word in wl.COUNTRIES:
            return self.country
        if word in ("北京", "上海", "天津", "重庆", "香港", "澳门"):
            return self.city
        if word in wl.PROVINCES or (word.endswith("省") and word[:-1] in wl.PROVINCES):
            return self.region
        for suffix, cls in self.place_classes:
            if word.endswith(suffix) and len(word) > len(suffix):
                return cls
        if 2 <= len(word) <= 4 and self.dictionary.known_place(word):
            return self.city
        return None

    def _places(self, tokens: list[Token], blocked: list[tuple[int, int]]) -> list[Found]:
        out = []
        for i, tok in enumerate(tokens):
            if _inside(blocked, tok.start, tok.end):
                continue
            if tok.pos != "ns":
                # jieba tags many foreign cities as person names (布达佩斯 nr): after 出生于 / 位于 / 定居 the
                # name is a place, unless it reads as a Chinese person's name
                # 注册地为德国慕尼黑: a country between the verb and the city
                k = i - 1 if i > 0 and tokens[i - 1].word in wl.COUNTRIES else i
                before = "".join(t.word for t in tokens[max(0, k - 2):k])
                if (tok.pos in ("nr", "nrt", "nz") and (before.endswith(_PLACE_VERBS) or (
                        k < i and before.endswith(("在", "于")))) and len(tok.word) >= 3
                        and not (tok.word[0] in wl.SURNAMES and len(tok.word) <= 3) and self.city
                        and not self._common(tok.word)):
                    out.append(Found(Mention(tok.word, self.city, tok.start, tok.end, tok.word), "place"))
                elif tok.pos in ("nr", "nrt", "nz") and i > 0 and tokens[i - 1].end == tok.start \
                        and tokens[i - 1].pos == "ns" and self._place_class(tokens[i - 1].word) is not None \
                        and re.search(r"[\u4e00-\u9fff](?:区|县|镇)$", tok.word) \
                        and (cls := self._place_class(tok.word)) is not None:
                    # 上海市 | 杨浦区 (a person's name to jieba): a district right after its city
                    out.append(Found(Mention(tok.word, cls, tok.start, tok.end, tok.word), "place"))
                continue
            cls = self._place_class(tok.word)
            nxt = tokens[i + 1] if i + 1 < len(tokens) else None
            if cls is not None and nxt is not None and nxt.start == tok.end and nxt.word in _PLACE_LEVELS \
                    and (whole := self._place_class(tok.word + nxt.word)) is not None:
                # 越南 | 平阳 | 省: jieba cut the level off a place it knows; the name written is the whole
                out.append(Found(Mention(tok.word + nxt.word, whole, tok.start, nxt.end, tok.word + nxt.word), "place"))
                continue
            if cls is None and len(tok.word) >= 4:  # 美国麻省 is not one place; 湖南长沙 is two
                for cut in range(2, len(tok.word) - 1):
                    a, b = tok.word[:cut], tok.word[cut:]
                    ca, cb = self._place_class(a), self._place_class(b)
                    if ca and cb and not self._common(b):  # 印度新建 (两座工厂): 新建 is a verb, not 新建县
                        out.append(Found(Mention(a, ca, tok.start, tok.start + cut, a), "place"))
                        out.append(Found(Mention(b, cb, tok.start + cut, tok.end, b), "place"))
                        break
                continue
            if cls is not None:
                out.append(Found(Mention(tok.word, cls, tok.start, tok.end, tok.word), "place"))
        return out + self._districts_after_cities(tokens, blocked, out)

    def _districts_after_cities(self, tokens: list[Token], blocked: list[tuple[int, int]],
                                places: list[Found]) -> list[Found]:
        """长沙市 | 望 | 城区, 厦门市 | 思明区 (jieba: a verb and a noun, a noun): right after a city, the one or two
        words up to 区 / 县 are the district's name, three or four characters that are not one ordinary word."""
        out: list[Found] = []
        ends = {f.mention.end for f in places if f.mention.name.endswith("市")}
        for i, tok in enumerate(tokens):
            if tok.start not in ends:
                continue
            for n in (1, 2):
                words = tokens[i:i + n]
                name = "".join(t.word for t in words)
                if len(words) == n and 3 <= len(name) <= 4 and _HAN.match(name) and name[-1] in "区县" \
                        and all(words[k].end == words[k + 1].start for k in range(n - 1)) \
                        and not self._common(name) and not _inside(blocked, tok.start, words[-1].end) \
                        and (cls := self._place_class(name)) is not None:
                    out.append(Found(Mention(name, cls, tok.start, words[-1].end, name), "place"))
                    break
        return out

    def _awards(self, text: str, tokens: list[Token], blocked: list[tuple[int, int]]) -> list[Found]:
        if self.award is None:
            return []
        out = []
        for i, tok in enumerate(tokens):
            if not tok.word.endswith(wl.AWARD_SUFFIXES) or _inside(blocked, tok.start, tok.end):
                continue
            start = tok.start
            k = i - 1
            inside: list[Token] = []  # 国家 | 最高 | 科学技术奖: an adjective inside an award's name, not at its start
            while k >= 0 and tokens[k].end == start and (self._namey(tokens[k]) or (
                    tokens[k].pos == "a" and _HAN.match(tokens[k].word) is not None)):
                inside.insert(0, tokens[k])
                start = tokens[k].start
                k -= 1
            while inside and not self._namey(inside[0]) and inside[0].word not in _AWARD_LEADS:
                start = inside.pop(0).end
            prev = next((t for t in tokens if t.end == start), None)
            glued = next((lead for lead in _AWARD_LEADS if prev is not None
                          and prev.word.endswith(lead) and len(prev.word) > len(lead)), None)
            if glued is not None:  # 获得最佳 | 影片奖: jieba glued the award's first word to the verb
                start -= len(glued)
            name = text[start:tok.end]
            if name.endswith(("获奖", "得奖", "颁奖")):
                continue  # 等十人获奖: the act of winning, no prize's name
            if len(name) >= 3 and name not in wl.AWARD_STOP and not self._common(name):
                out.append(Found(Mention(name, self.award, start, tok.end, name), "award"))
        return out

    def _events_named(self, text: str, tokens: list[Token], blocked: list[tuple[int, int]]) -> list[Found]:
        """第十届长白山国际电影节, 2025年全国田径锦标赛, “江汉吉金——长江中游青铜文明特展”: an event is named by the
        words before its ending, opened by an edition or a year (a bare 论坛 or 电影节 names none), or by quotes."""
        out: list[Found] = []
        for i, tok in enumerate(tokens):
            ending = next((e for e in wl.EVENT_ENDINGS if tok.word.endswith(e)), None)
            if ending is None or self.event is None or _inside(blocked, tok.start, tok.end):
                continue
            start, k = tok.start, i - 1
            # (the edition or year required before the words keeps ordinary ones out: 全国 | 田径 | 锦标赛)
            while k >= 0 and tokens[k].end == start and tok.start - tokens[k].start <= 14 and (
                    tokens[k].pos[:1] == "n" or tokens[k].pos in ("a", "vn", "f", "b", "j", "l")) \
                    and _HAN.match(tokens[k].word):
                start, k = tokens[k].start, k - 1
            edition = _EDITION.search(text, 0, start)
            if edition is None or tok.end - start < len(ending) + 2:
                continue
            start = edition.start()
            name = text[start:tok.end]
            out.append(Found(Mention(name, self.event, start, tok.end, name), "event"))
        for m in _QUOTED.finditer(text):
            ending = next((e for e in wl.EVENT_ENDINGS if m.group(1).endswith(e)), None)
            if ending is not None and self.event is not None and len(m.group(1)) > len(ending) + 1:
                out.append(Found(Mention(m.group(1), self.event, m.start(1), m.end(1), m.group(1)), "event"))
        return out

    def _head_before(self, text: str, pos: int) -> str | None:
        for head, cls in self.product_heads:
            if text[:pos].endswith(head):
                return cls
        return None

    def _head_after(self, text: str, pos: int) -> tuple[str, str] | None:
        """“北辰X5”数控机床, “云储”系列储能电站, “全国优秀企业家”称号: the class the noun right after the quotes
        gives, and that noun (up to its head: 数控机床 of 数控机床获得); None when none follows."""
        # (“云隼-3”电动垂直起降飞行器: the noun may run to nine characters or ten)
        after = _NOUN_AFTER_QUOTES.match(text[pos:pos + 14])
        if after is None:
            return None
        word = after.group(1)
        if word.startswith(("称号", "荣誉称号", "荣誉")):
            return (self.award, "") if self.award else None
        for i in range(1, len(word) + 1):
            cls = next((c for h, c in self.product_heads if word[:i].endswith(h)), None)
            if cls is not None:
                return cls, word[:i]
        return None

    def _head_in_clause(self, text: str, start: int, end: int) -> str | None:
        """The kind a work's own sentence gives it: 《长河落日》是…的长篇小说; 小说《湘江夜雨》."""
        before = self._head_before(text, start)
        if before:
            return before
        clause_end = _BREAK.search(text, end)
        clause = text[end:clause_end.start() if clause_end else len(text)]
        if clause.startswith("是"):
            for head, cls in self.product_heads:
                if clause.endswith(head) or re.search(rf"的{re.escape(head)}", clause):
                    return cls
        return None

    def _quoted(self, text: str) -> tuple[list[Found], list[tuple[int, int]]]:
        out: list[Found] = []
        spans: list[tuple[int, int]] = []
        for m in _TITLED.finditer(text):
            cls = self._head_in_clause(text, m.start(), m.end()) or self.work
            spans.append((m.start(), m.end()))
            if re.search(r"(?:简称|下称)[为：:\s]*$", text[:m.start()]):
                continue  # 《关于…的指导意见》（以下简称《意见》）: a declared short title, an alias
            if cls:
                out.append(Found(Mention(m.group(1), cls, m.start(1), m.end(1), m.group(1)), "title"))
        for m in _QUOTED.finditer(text):
            spans.append((m.start(), m.end()))
            if re.search(r"(?:简称|称|名为|又名|俗称)[为：:\s]*$", text[:m.start()]):
                continue  # a declared short name: an alias, not a thing of its own
            cls = self._head_before(text, m.start())
            if cls:
                kind = re.search(r"[\u4e00-\u9fff]{2,12}$", text[max(0, m.start() - 12):m.start()])
                phrase = _PRODUCT_LEAD.sub("", kind.group(0)) if kind else ""
            elif (after := self._head_after(text, m.end())) is not None:  # “北辰X5”数控机床: the noun after
                cls, phrase = after
            elif re.search(r"(?:发布|推出|首发|亮相)(?:了)?[^，。；“”]{0,16}$", text[:m.start()]) \
                    and re.match(r"[，。；、和及]|$", text[m.end():m.end() + 1]):
                # 在上海发布新一代石墨烯保暖面料“云暖Ⅱ”。: what a release names, whatever its noun (a noun after the
                # quotes, 发布“十四五”规划, says it is a plan, not a product)
                cls = self.resolve("ArtificialObject")
                kind = re.search(r"[\u4e00-\u9fff]{2,12}$", text[max(0, m.start() - 12):m.start()])
                phrase = _PRODUCT_LEAD.sub("", kind.group(0)) if kind else ""
            elif self.award and re.search(r"(?:荣获|获评|获授|被授予|授予|获颁|荣膺|获得|被[^，。；“”]{0,20}?评为)"
                                          r"(?:\d{4}年度?)?$", text[:m.start()]):  # 荣获2023年度“中国慈善奖”
                cls, phrase = self.award, ""  # 获评“云南省优秀企业家”: what is conferred is an award
            elif self.award and m.group(1).endswith(("奖", "奖章", "勋章")) \
                    and _EDITION_BEFORE.search(text[:m.start()]):
                cls, phrase = self.award, ""  # 第九届“江南企业家精神奖”评选结果揭晓: a prize given by edition
            if cls:
                out.append(Found(Mention(m.group(1), cls, m.start(1), m.end(1), m.group(1),
                                         semantic_type=phrase if len(phrase) >= 2 else None), "quote"))
        return out, spans

    def _org_before_title(self, text: str, tokens: list[Token], blocked: list[tuple[int, int]]) -> list[Found]:
        """星河智能董事长李明远: a name right before an executive title (with a person after it) is an organisation."""
        if self.company is None:
            return []
        out = []
        for m in _suffix_pattern(wl.EXECUTIVE_TITLES).finditer(text):
            # 理想汽车创始人、董事长李想: the person after the run of titles
            after = TITLE_RUN.match(text, m.end()).end()  # type: ignore[union-attr]
            if self._person_after_title(text, tokens, after) is None:
                continue
            # 东方航空的首席执行官陈一鸣: the name may stand before a 的, when it opens its clause
            stop = m.start() - 1 if text[m.start() - 1:m.start()] == "的" else m.start()
            # 闽泓冷链原财务总监陈立舟: a former post (原) still names the employer right before it
            direct = stop == m.start() or text[m.start() - 1:m.start()] == "原"
            if text[m.start() - 1:m.start()] == "原":
                stop = m.start() - 1
            j = next((i for i, t in enumerate(tokens) if t.end == stop), None)
            if j is None:
                continue
            if tokens[j].word in _MODIFIERS and j > 0 and tokens[j - 1].end == tokens[j].start:
                stop, j = tokens[j].start, j - 1  # 华为 | 轮值 | 董事长
            start = stop
            k = j
            while k >= 0 and self._namey(tokens[k]) and tokens[k].end == start and tokens[k].word not in _MODIFIERS:
                start = tokens[k].start
                k -= 1
            opening = re.search(r"(?:^|[，。；：！？\n])\s*([\u4e00-\u9fff]{2,6})$", text[max(0, stop - 8):stop])
            if start > stop - len(opening.group(1) if opening else "") and opening is not None and direct \
                    and not self._common(opening.group(1)) \
                    and not opening.group(1).startswith(wl.SUBJECT_STOP) and not any(
                        t.pos in _FUNCTION_TAGS and not _rare_char_as_measure(t, tokens)
                        for t in tokens if stop - len(opening.group(1)) <= t.start < stop):
                start = stop - len(opening.group(1))  # 蔚 | 来 | 汽车创始人李斌: the clause opens with the name
            name = text[start:stop]
            if not direct and (not _CLAUSE_OPEN.match(text, start) or (start > 0 and not _BREAK.match(
                    text[start - 1])) or len(name) < 3 or name.startswith(wl.SUBJECT_STOP)):
                continue
            if name.endswith(("为", "是")) and re.search(r"(?:人|者|东|方|员)$", name[:-1]):
                continue  # 实际控制人为董事长彭书远: a role and a copula stand before the post, no name (华为 is one)
            if 2 <= len(name) <= 12 and not self._common(name) and not _inside(blocked, start, stop):
                out.append(Found(Mention(name, self.company, start, stop, name), "org"))
        return out

    def _org_in_appointment(self, text: str, tokens: list[Token], blocked: list[tuple[int, int]]) -> list[Found]:
        """聘任刘海波为云岭新能总经理: between 为 and the title of an appointment stands the employer, whatever
        jieba made of it (云岭 | 新 | 能); a department (财务部, 董事会), a region or a line of business (华东区域,
        电商业务: only ordinary words) or 公司 is not one."""
        if self.company is None:
            return []
        out = []
        titles = "|".join(re.escape(t) for t in sorted(wl.EXECUTIVE_TITLES, key=len, reverse=True))
        pattern = (r"(?:聘任|聘请|任命|同意聘任|选举)[\u4e00-\u9fff·]{2,5}?为([\u4e00-\u9fff]{3,8}?)"
                   r"(?:常务|执行|轮值|联席)?(?:" + titles + r")")
        for m in re.finditer(pattern, text):
            name, start, end = m.group(1), m.start(1), m.end(1)
            if name.startswith(wl.SUBJECT_STOP) or name.endswith(_NOT_EMPLOYER) or self._common(name) \
                    or name.startswith(_NOT_EMPLOYER_LEAD) or name in wl.ORG_STOP or _inside(blocked, start, end):
                continue
            out.append(Found(Mention(name, self.company, start, end, name), "org"))
        return out

    def _org_as_subject(self, text: str, tokens: list[Token], blocked: list[tuple[int, int]]) -> list[Found]:
        """2023年，海川环境实现营业收入…; 北辰精密与德国西门子公司签署…: a report writes a company by the short
        name it declared once, often in another chunk. A run of four to eight name-like characters that
        opens a clause (after a time or frame) and is followed by what reports say of companies is one."""
        if self.company is None:
            return []
        out = []
        for opening in _CLAUSE_OPEN.finditer(text):
            lead = _SUBJECT_LEAD.match(text, opening.end())
            start = lead.end() if lead else opening.end()
            j = self._token_at(tokens, start)
            if j is None or tokens[j].start != start:
                continue
            end, k = start, j
            # 东方 | 启明: a two-character first word jieba calls a direction or a verb may start a short name
            first = tokens[j]
            first_ok = self._namey(first) or (len(first.word) == 2 and (first.pos == "s" or (
                first.pos in ("v", "a", "nz") and not self.dictionary.is_common(first.word)
                and first.word not in wl.PERSON_CUES)))
            # 宏远电子的控股股东: an ordinary word before a word of company names (电子, 科技) starts a short name
            first_ok = first_ok or (len(first.word) == 2 and _HAN.match(first.word) is not None
                                    and j + 1 < len(tokens) and tokens[j + 1].word in wl.ORG_NAME_WORDS
                                    and first.word not in wl.STOP_NAMES and first.word not in wl.SUBJECT_STOP)
            # 北辰精密, 云岭新能: jieba calls 精密 an adjective and cuts 新 | 能; inside a name they are part of it
            while k < len(tokens) and end - start < 8 and _HAN.match(tokens[k].word) and not (
                    k > j and tokens[k].pos == "v" and len(tokens[k].word) > 1 and (entry := self.dictionary.entry(
                        tokens[k].word)) is not None and entry[0] >= _ACTION_MIN_FREQ) and (  # 高校应 | 加强与…合作
                    (k == j and first_ok) or self._namey(tokens[k], inside=k > j)
                    or (k > j and _rare_char_as_measure(tokens[k], tokens))  # 闽 | 泓 (q) | 冷链实现…
                    or (k > j and (tokens[k].pos in ("a", "vn", "nz", "v") or (
                        len(tokens[k].word) == 1 and tokens[k].pos not in _FUNCTION_TAGS)))):
                end = tokens[k].end
                k += 1
                if end - start >= 3 and _SUBJECT_CUE.match(text, end):
                    break
            name = text[start:end]
            if not (3 <= len(name) <= 8) or not _SUBJECT_CUE.match(text, end) or _inside(blocked, start, end):
                continue
            # 金龙鱼实现营业收入 (金龙鱼 a person's name to jieba): what only companies do settles it
            company_only = _COMPANY_CUE.match(text, end) is not None
            if len(name) == 3 and (len(tokens[j].word) == 3 and tokens[j].pos not in ("nz", "nt", "nrt", "j")
                                   and not (company_only and tokens[j].pos == "nr")):
                continue  # 海澜湾 (海 | 澜湾) yes; a three-character word jieba knows (董事会, 研究院) is no short name
            if name.startswith(wl.SUBJECT_STOP) or self._common(name) or name in wl.ORG_STOP \
                    or (self._person_at(text, tokens, start) == end and not company_only):
                continue
            out.append(Found(Mention(name, self.company, start, end, name), "org"))
        return out

    def _org_beside_org(self, text: str, tokens: list[Token], found: list[Found]) -> list[Found]:
        """中联数科、华南理工大学与…; 远航船舶与海峡航运签署…: a short name listed with an organisation the chunk
        found (、 和 及 与 between them) is one too, when it runs from the clause's start to the joint, or from
        the joint to the next joint or to a verb of agreements, and is made of name-like words jieba does not call
        one ordinary word or a person's name."""
        if self.company is None:
            return []
        out: list[Found] = []
        taken = [(f.mention.start, f.mention.end) for f in found]
        orgs = [f.mention for f in found if f.how == "org"]
        for org in orgs:
            candidates = []
            left = re.search(r"(?:^|[，。；：！？\n])\s*((?:报告期内|近日|日前|同日|此外)?)"
                             r"([\u4e00-\u9fff]{3,8})[、和及与]$",
                             text[max(0, org.start - 20):org.start])
            if left is not None:
                start = org.start - len(left.group(0)) + left.start(2)
                candidates.append((start, start + len(left.group(2))))
            right = re.match(r"[、和及与]([\u4e00-\u9fff]{2,8}?)(?=[、和及与，。；]|签署|签订|达成|合作|共同|等)",
                             text[org.end:org.end + 12])
            if right is not None:
                candidates.append((org.end + 1, org.end + 1 + len(right.group(1))))
            for start, end in candidates:
                name = text[start:end]
                inner = [t for t in tokens if start <= t.start < end]
                if _inside(taken, start, end) or not inner or inner[0].start != start or inner[-1].end != end \
                        or not all(self._namey(t) for t in inner) \
                        or (len(inner) == 1 and inner[0].pos not in ("nz", "nt", "nrt", "j")) \
                        or any(t.pos in ("nr", "nrfg") for t in inner) or self._common(name) \
                        or name.startswith(wl.SUBJECT_STOP) or name in wl.ORG_STOP:
                    continue
                out.append(Found(Mention(name, self.company, start, end, name), "org"))
                taken.append((start, end))
        return out

    def _agents_after_you(self, text: str, tokens: list[Token], found: list[Found]) -> list[Found]:
        """由严修和张伯苓于1919年创办, 由比亚迪和丰田汽车共同出资设立, 该产品由小鹏汇天研发: who did it stands
        between 由 and the verb, a list joined by 和 / 、; each item not yet found is a person when jieba tags it
        a person's name that starts with a surname, else a company when made of name-like words that are not
        one ordinary word."""
        out: list[Found] = []
        taken = [(f.mention.start, f.mention.end) for f in found]
        for m in _AGENTS.finditer(text):
            group = next(g for g in (1, 2, 3) if m.group(g) is not None)
            pos = m.start(group)
            # 由贺启明、任佩瑶夫妇创办: a couple, two people (each opened by a surname, whatever jieba made of them),
            # no company
            couple = re.search(r"(?:夫妇|夫妻)$", m.group(group)) is not None
            for item in re.split(r"[和、与及]", m.group(group)):
                start, end = pos, pos + len(item)
                pos = end + 1
                # 由陈远航与妻子林秋雨…创办 (jieba: 陈 | 远航, a verb): a name before a kin word is a person's too
                kin = _KIN_AFTER.match(text, end) is not None
                if couple or kin:
                    item, end = re.sub(r"(?:夫妇|夫妻)$", "", item), start + len(re.sub(r"(?:夫妇|夫妻)$", "", item))
                    if self.person is not None and _surname_at(text, start) and self._valid_person(item) \
                            and not _inside(taken, start, end):
                        out.append(Found(Mention(item, self.person, start, end, item), "person"))
                        taken.append((start, end))
                    continue
                inner = [t for t in tokens if start <= t.start < end]
                over = [t for t in tokens if t.start < end and t.end > start]
                # jieba may cut across the frame (由小鹏 | 汇 | 天 | 研发): between 由 and the verb a run that jieba
                # saw a proper name in is a name all the same
                aligned = bool(inner) and inner[0].start == start and inner[-1].end == end \
                    and all(self._namey(t) for t in inner)
                seen_name = any(t.pos in ("nr", "nz", "nt", "nrt", "j") for t in over) \
                    and _HAN.match(item) is not None and not item.startswith(wl.LEADING_NOISE)
                title = next((t for t in wl.PERSON_TITLES + wl.EXECUTIVE_TITLES if item.startswith(t)), None)
                if title is not None and self.person is not None:
                    # 由建筑师顾承泽设计: the title says who the name after it is
                    at = start + len(title)
                    if self._person_at(text, tokens, at) == end and self._valid_person(item[len(title):]):
                        out.append(Found(Mention(item[len(title):], self.person, at, end, item[len(title):],
                                                 semantic_type=title), "person"))
                        taken.append((start, end))
                    continue
                if _inside(taken, start, end) or not (aligned or seen_name) or self._common(item) \
                        or item.startswith(wl.SUBJECT_STOP) or item in wl.ORG_STOP:
                    continue
                if self.person is not None and self._person_at(text, tokens, start) == end \
                        and any(t.pos in ("nr", "nrfg") for t in inner) and self._valid_person(item):
                    out.append(Found(Mention(item, self.person, start, end, item), "person"))
                elif self.company is not None and len(item) >= 3 and not any(t.pos == "ns" for t in inner[:1]
                                                                              if len(inner) == 1):
                    out.append(Found(Mention(item, self.company, start, end, item), "org"))
                taken.append((start, end))
        return out

    def _latin_names(self, text: str, tokens: list[Token], blocked: list[tuple[int, int]]) -> list[Found]:
        """EDSAC（电子延迟存储自动计算器）, ENIAC是一台计算机: a Latin name in Chinese text, typed by the noun of its
        gloss in brackets or of its 是一台/一种… definition; with neither, it is not kept."""
        out = []
        for tok in tokens:
            if tok.pos != "eng" or len(tok.word) < 3 or not tok.word[:1].isupper():
                continue
            if _inside(blocked, tok.start, tok.end):
                continue
            gloss = re.match(r"\s*[（(]([^（）()]{2,30})[）)]", text[tok.end:tok.end + 34])
            defined = _DEFINED.match(text[tok.end:tok.end + 20])
            cls = None
            for part in (gloss.group(1) if gloss else "", defined.group(0) if defined else ""):
                cls = cls or next((c for h, c in self.product_heads if part.endswith(h)), None)
            if cls is not None:
                out.append(Found(Mention(tok.word, cls, tok.start, tok.end, tok.word), "latin"))
        return out

    def _list_items(self, text: str, known: list[Found]) -> list[Found]:
        """旗下拥有远帆快运、远帆冷链等子公司: the items of a list whose head noun says what they are."""
        out = []
        for head, cls in self.list_heads:
            for m in re.finditer(_ITEMS + re.escape(head), text):
                pos = m.start(1)
                for item in re.split(r"[、和及与]", m.group(1)):
                    # the first item may carry the verb before it (拥有远帆快运): keep its last name-like part
                    s = pos
                    pos += len(item) + 1
                    # the last verb: 有限公司旗下拥有上汽大众 (the item run may start inside the owner's name)
                    cuts = [*re.finditer(r"(?:拥有|包括|包含|有|如|涵盖|设有|控股)(?=.)", item)]
                    if cuts:
                        cut = cuts[-1]
                        s, item = s + cut.end(), item[cut.end():]
                    if 2 <= len(item) <= 12 and not self._common(item) and not any(
                            f.mention.start <= s < f.mention.end for f in known):
                        out.append(Found(Mention(item, cls, s, s + len(item), item), "list"))
        return out

    def _listed_org_words(self, tokens: list[Token], known: list[Found]) -> list[Found]:
        """中国移动、中国电信和中国联通在北京联合发布…: two or more words jieba's dictionary itself lists as names of
        organisations (tag nt), listed with 、 / 和 / 及 / 与 and nothing else, are organisations. One such word alone
        is not enough (the dictionary also tags 美术馆 and 国家机关 so), nor a frequent one."""
        if self.company is None:
            return []

        def org_word(t: Token) -> bool:
            entry = self.dictionary.entry(t.word)
            return t.pos == "nt" and entry is not None and entry[1] == "nt" and len(t.word) >= 3 \
                and entry[0] < _ACTION_MIN_FREQ and t.word not in wl.STOP_NAMES
        out: list[Found] = []
        i = 0
        while i < len(tokens):
            run = [i]
            while run[-1] + 2 < len(tokens) and tokens[run[-1] + 1].word in ("、", "和", "及", "与") \
                    and org_word(tokens[run[-1] + 2]):
                run.append(run[-1] + 2)
            if len(run) >= 2 and org_word(tokens[i]):
                for k in run:
                    t = tokens[k]
                    if not any(f.mention.start < t.end and t.start < f.mention.end for f in known):
                        out.append(Found(Mention(t.word, self.company, t.start, t.end, t.word), "org"))
            i = run[-1] + 1
        return out

    # ------------------------------------------------------------------ all of them

    def find(self, text: str, tokens: list[Token]) -> OpenMentions:
        result = OpenMentions()
        quoted, spans = self._quoted(text)
        result.quoted = spans
        found: list[Found] = list(quoted)
        dates = [Found(Mention(m.group(0), self.date, m.start(), m.end(), m.group(0)), "date")
                 for m in DATE_RE.finditer(text)] if self.date else []
        found += dates
        blocked = [(f.mention.start, f.mention.end) for f in found] + spans
        found += self._orgs(text, tokens, blocked)
        found += self._org_before_title(text, tokens, blocked)
        found += self._org_in_appointment(text, tokens, blocked + [(f.mention.start, f.mention.end) for f in found])
        found += self._org_as_subject(text, tokens, blocked + [(f.mention.start, f.mention.end) for f in found])
        found += self._org_beside_org(text, tokens, found)
        found += self._agents_after_you(text, tokens, found)
        found += self._awards(text, tokens, blocked)
        found += self._events_named(text, tokens, blocked)
        found += self._persons(text, tokens, blocked)
        found += self._places(tokens, blocked)
        found += self._list_items(text, found)
        found += self._listed_org_words(tokens, found)
        found += self._latin_names(text, tokens, [(f.mention.start, f.mention.end) for f in found])
        self._unglue(text, found, tokens)
        kept = _non_overlapping(found)
        # Short names declared in brackets: 星河智能科技股份有限公司（以下简称“星河智能”）.
        for m in _ALIAS.finditer(text):
            alias = m.group(1) or m.group(2)
            owner = next((f.mention for f in reversed(kept) if f.mention.end <= m.start()
                          and m.start() - f.mention.end <= 3 and f.how != "date"), None)
            if (owner is None or m.group(0).startswith(("原名", "曾用名", "古称", "旧称"))) \
                    and re.search(r"[，,]\s*$", text[:m.start()]) and m.group(0).startswith(
                    ("原名", "曾用名", "又称", "旧称", "古称", "简称")):
                # 复旦大学创建于1905年，原名复旦公学: a clause of its own about the sentence's subject
                opened = max(text.rfind(c, 0, m.start()) for c in "。！？\n") + 1
                owner = next((f.mention for f in sorted(kept, key=lambda f: f.mention.start)
                              if opened <= f.mention.start < m.start() and f.how in ("org", "person", "place")
                              and _LEAD_ONLY.fullmatch(text[opened:f.mention.start])), None) or owner
            if owner is not None and alias and alias != owner.name:
                # 东方启明信息技术股份有限公司（以下简称“东方启明”）: jieba's 东方 | 启明 stopped the walk back at
                # 信息技术…; the short name shows where the name starts
                for back in range(1, len(alias) + 1):
                    if owner.start >= back and (text[owner.start - back:owner.start] + owner.name).startswith(alias) \
                            and not alias.startswith(owner.name):
                        owner.start -= back
                        # 浙江 | 万 | 和 | 科技开发股份有限公司（以下简称“万和科技”）: the province before the short
                        # name opens the full name, where nothing but a clause's start comes before it
                        place = next((f.mention for f in kept if f.how == "place" and f.mention.end == owner.start
                                      and (f.mention.start == 0 or _BREAK.match(text[f.mention.start - 1]))), None)
                        if place is not None:
                            owner.start = place.start
                            kept = [f for f in kept if f.mention is not place]
                        owner.name = owner.form = text[owner.start:owner.end]
                        break
                result.aliases.append((owner, alias))
                for f in kept:  # 东方启明控股有限公司: another company's name that starts with the short name
                    other = f.mention
                    if f.how == "org" and other is not owner and other.start >= len(alias) \
                            and text[other.start - len(alias):other.start] == alias:
                        other.start -= len(alias)
                        other.name = other.form = text[other.start:other.end]
                if alias not in owner.aliases:
                    owner.aliases.append(alias)
        result.aliases += self._full_names(text, kept)
        people = [f.mention for f in kept if f.how == "person" and "·" in f.mention.name]
        for f in kept:  # 冯·诺依曼 after 约翰·冯·诺依曼: the same person
            longer = next((p for p in people if p is not f.mention and p.name.endswith("·" + f.mention.name)), None)
            if f.how == "person" and longer is not None:
                f.mention.name, f.mention.aliases = longer.name, longer.aliases
        declared = {alias: owner for owner, alias in result.aliases}
        for f in kept:  # 华为轮值董事长: a name found on its own that the chunk declared a short name for
            owner = declared.get(f.mention.name)
            if owner is not None and owner is not f.mention:
                f.mention.name, f.mention.spg_class, f.mention.aliases = owner.name, owner.spg_class, owner.aliases
        kept = self._repeat(text, kept, result.aliases)
        kept = self._short_forms(text, tokens, kept)
        kept = self._stems(text, tokens, kept)
        kept = self._countries_before(text, kept)
        kept = self._joined_to_a_short_name(text, kept)
        # 深圳市大疆创新科技有限公司 cut short (or 东方启明信息技术… before its short name showed where it starts):
        # what is left of a name made only of the words of company names (科技有限公司) is a fragment, never a name
        kept = [f for f in kept if not (f.how in ("org", "repeat") and _fragment(f.mention.name, self._org_re))]
        for f in kept:
            if f.how != "repeat":
                f.mention.kind = f.how
            elif not f.mention.kind:  # a repeat is the kind of what it repeats
                f.mention.kind = next((k.how for k in kept if k.mention.name == f.mention.name
                                       and k.how != "repeat"), "")
        result.mentions = [f.mention for f in sorted(kept, key=lambda f: f.mention.start)]
        result.values = [Mention(m.group(0), "", m.start(), m.end(), m.group(0)) for m in VALUE_RE.finditer(text)
                         if not _inside([(x.mention.start, x.mention.end) for x in kept], m.start(), m.end())]
        return result

    @staticmethod
    def _full_names(text: str, kept: list[Found]) -> list[tuple[Mention, str]]:
        """鹤鸣酒业，全称四川鹤鸣酒业股份有限公司 / 鹤鸣酒业（全称…）: the name written first is the short name of the
        full name declared after it (the reverse of 以下简称), where its characters stand in the full name in order."""
        out: list[tuple[Mention, str]] = []
        for m in _FULL_NAME.finditer(text):
            full = next((f.mention for f in kept if f.mention.start == m.end() and f.how == "org"), None)
            short = m.group("short")
            chars = iter(full.name) if full is not None else iter(())
            if full is not None and short != full.name and all(c in chars for c in short):
                out.append((full, short))
                if short not in full.aliases:
                    full.aliases.append(short)
        return out

    def _unglue(self, text: str, found: list[Found], tokens: list[Token]) -> None:
        """由金穗 | 装备 | 副总裁: jieba glued the preposition to a name it did not know (a token its dictionary does
        not have); the preposition is no part of the organisation's name. 对外经济贸易大学 starts with a word the
        dictionary has (对外), so it keeps it."""
        starts = {t.start: t for t in tokens}
        for f in found:
            m, first = f.mention, starts.get(f.mention.start)
            glued = m.name[:1] in _GLUED_LEAD or (m.name[:1] == "任" and m.start > 0
                                                  and text[m.start - 1] in "起现曾兼出升转改调")
            if f.how == "org" and glued and len(m.name) >= 4 and first is not None \
                    and len(first.word) > 1 and self.dictionary.entry(first.word) is None:
                # (2016年起任 | 华澜律师事务所: 任 is the verb of holding a post after 起 / 现 / 曾…, no surname there)
                m.start += 1
                m.name = m.form = m.name[1:]

    def _name_lead(self, tokens: list[Token], k: int) -> tuple[int, int] | None:
        """远航 | 船舶股份有限公司, 创办了杭州 | 极 | 简科技有限公司: the walk back from the ending stopped at a word
        jieba calls a verb or an adverb; if at most three such words lead back to where a clause, a list or a verb
        of companies ends (，远航船舶…; 创办了杭州极简…; 与远航船舶…), they start the name. A frequent verb or
        adverb (推进, 积极, 正式) says what is done to the company, it is no part of its name; a lone character
        cannot start a name unless jieba calls it a proper name. Returns (start, index of the token before)."""
        i, chars = k, 0
        while i >= 0 and k - i < 3:
            t = tokens[i]
            if i < k and t.end != tokens[i + 1].start:
                break
            # 北方 | 重型机械集团, 中 | 芯 | 国际…: a direction word may start a name
            direction = t.pos == "f" and ((len(t.word) == 2 and t.word[0] in "东南西北") or t.word == "中")
            if not _HAN.match(t.word) or (t.pos in _FUNCTION_TAGS - {"d"} and not direction) \
                    or (len(t.word) == 1 and t.word in _VERB_CHARS) \
                    or t.word in _NAME_BOUNDARY \
                    or t.word.endswith(("于", "为", "在", "的")) or t.word in wl.STOP_NAMES \
                    or t.word.endswith(wl.DESCRIPTOR_ENDS) or (t.pos in ("nr", "nrfg") and len(t.word) > 1) \
                    or t.word in _HOLDS_POST_WORDS:
                break  # 化工企业 | 莱茵…公司: what kind; 王建华曾任 | 阿里巴巴集团: a person and a verb
            entry = self.dictionary.entry(t.word)
            if len(t.word) > 1 and t.pos in ("v", "vd", "ad", "d", "a", "vn") and entry is not None \
                    and entry[0] >= _ACTION_MIN_FREQ:
                return None
            chars += len(t.word)
            i -= 1
            if chars > 6:
                return None
            before = tokens[i] if i >= 0 else None
            if before is None or not _HAN.match(before.word) or before.word in _NAME_BOUNDARY \
                    or before.pos in ("p", "c", "ul", "uj"):
                first = tokens[i + 1]
                if len(first.word) == 1 and first.pos not in ("ns", "nr", "nz", "nt", "j") \
                        and first.word not in "中华东南西北":  # ，中 | 芯 | 国际集成电路制造有限公司
                    return None
                return first.start, i
        return None

    def _bare(self, body: str, tokens: list[Token], start: int) -> bool:
        """电子, 半导体: what the walk kept before the ending is only words of company names or ordinary words."""
        words = [t.word for t in tokens if start <= t.start < start + len(body)]
        return bool(words) and all(w in wl.ORG_NAME_WORDS or w in wl.GOVERNMENT_WORDS or self._common(w)
                                   for w in words)

    def _joined_to_a_short_name(self, text: str, kept: list[Found]) -> list[Found]:
        """北辰精密新设全资子公司北辰精密欧洲有限公司: the walk back from 有限公司 stops at 精密 (an adjective to
        jieba), leaving 欧洲有限公司; a short name the chunk found right before it is the start of the name."""
        out = list(kept)
        for f in kept:
            m = f.mention
            if f.how != "org" or not self._org_re.search(m.name) or f not in out:
                continue
            head = next((g for g in out if g is not f and g.mention.end == m.start and g.how in ("org", "repeat")
                         and g.mention.spg_class == self.company and not self._org_re.search(g.mention.form)
                         and 2 <= len(g.mention.form) <= 8), None)
            if head is None:
                continue
            out.remove(head)
            m.start = head.mention.start
            m.name = m.form = text[m.start:m.end]
        return out

    def _repeat(self, text: str, kept: list[Found], aliases: list[tuple[Mention, str]]) -> list[Found]:
        """Every other place the chunk writes a found name (or a declared short name) is a mention of it."""
        names: dict[str, Mention] = {}
        for f in kept:
            if f.how != "date" and len(f.mention.name) >= 2:
                names.setdefault(f.mention.name, f.mention)
        for owner, alias in aliases:
            if len(alias) >= 2:
                names.setdefault(alias, owner)
        for f in kept:  # 冯·诺依曼 and 诺依曼 after 约翰·冯·诺依曼: the same person, by the end of the name
            parts = re.split(r"[·・•‧]", f.mention.name)
            if f.how == "person" and len(parts) > 1:
                for i in range(1, len(parts)):
                    tail = "·".join(parts[i:])
                    if len(tail) >= 2:
                        names.setdefault(tail, f.mention)
        # 2023年11月，云岭新能收购…，该公司成为云岭新能的控股子公司: jieba cuts the second 云岭新能 as 云岭 (a
        # place) | 新能; an organisation's name the chunk found once wins over shorter names found inside it
        orgs = {id(f.mention) for f in kept if f.how == "org"} | {id(owner) for owner, _ in aliases}
        taken = [(f.mention.start, f.mention.end) for f in kept]
        out = list(kept)
        for form in sorted(names, key=len, reverse=True):
            owner = names[form]
            for m_start, m_end in _occurrences(form, text):
                inner = [f for f in out if m_start < f.mention.end and f.mention.start < m_end]
                # 欧阳振邦 written again (jieba: 欧阳 a place): a place inside a person's name is no place either
                person = owner.spg_class == self.person and all(f.how == "place" for f in inner)
                if (id(owner) in orgs or person) and inner and all(
                        f.how in ("place", "person") and m_start <= f.mention.start and f.mention.end <= m_end
                        and f.mention.end - f.mention.start < len(form) for f in inner):
                    out = [f for f in out if f not in inner]
                    taken = [(s, e) for s, e in taken if not any((s, e) == (f.mention.start, f.mention.end)
                                                                 for f in inner)]
                if any(m_start < e and s < m_end for s, e in taken):
                    continue
                taken.append((m_start, m_end))
                out.append(Found(Mention(owner.name, owner.spg_class, m_start, m_end, form,
                                         aliases=owner.aliases), "repeat"))
        return out

    def _short_forms(self, text: str, tokens: list[Token], kept: list[Found]) -> list[Found]:
        """合肥芯联存储科技股份有限公司…；芯联存储由…创办: news names a company in full once, then by its core: the
        full name without the place it opens with, its legal form and the words of company names before the form
        (科技). Where the chunk writes that core again outside any name found, or as the start of a body of the
        company (闽泰鞋业董事局), it names the company: an entity of its own, as written (the way a short name found
        as a clause's subject is)."""
        if self.company is None:
            return kept
        out = list(kept)
        for f in kept:
            m = f.mention
            form = _COMPANY_FORM.search(m.name)
            if f.how != "org" or m.spg_class != self.company or form is None:
                continue
            core = m.name[:form.start()]
            # the place it opens with: one the rules know, or a city's name without 市 that jieba keeps as one
            # noun (合肥 | 芯 | 联…)
            first = next((t for t in tokens if t.start == m.start), None)
            place = next((core[:n] for n in (3, 2) if len(core) - n >= 4 and (self._place_class(core[:n]) or (
                first is not None and first.word == core[:n] and first.pos in ("n", "ns")
                and self._place_class(first.word + "市") is not None))), "")
            shorts = [core[len(place):]]
            while (cut := _ORG_WORD_AT_END.search(shorts[-1])) is not None and cut.start() >= 4:
                shorts.append(shorts[-1][:cut.start()])  # 芯联存储科技 -> 芯联存储 (not 芯联: 存储 is a word of names)
            for short, (hit_start, hit_end) in ((x, h) for x in shorts if 4 <= len(x) <= 8 and not self._common(x)
                                                for h in _occurrences(x, text)):
                inner = [g for g in out if hit_start < g.mention.end and g.mention.start < hit_end]
                body = [g for g in inner if g.how == "org" and g.mention.start == hit_start
                        and g.mention.name[len(short):] in _BODIES_OF_A_COMPANY]
                if body:  # 闽泰鞋业董事局主席: the company's board, so the company
                    out.remove(body[0])
                    inner.remove(body[0])
                if inner:
                    continue
                out.append(Found(Mention(short, self.company, hit_start, hit_end, short), "org"))
        return out

    def _countries_before(self, text: str, kept: list[Found]) -> list[Found]:
        """赴美国特拉华大学 (jieba: 赴美国 | 特拉华 | 大学): a country written right before an organisation's name is a
        place of its own, whatever token jieba hid it in."""
        if self.country is None:
            return kept
        out = list(kept)
        taken = [(f.mention.start, f.mention.end) for f in kept]
        for f in kept:
            if f.how != "org":
                continue
            before = text[max(0, f.mention.start - 6):f.mention.start]
            country = next((c for c in _COUNTRIES_LONGEST_FIRST if before.endswith(c)), None)
            if country is None or len(country) < 2:
                continue
            s = f.mention.start - len(country)
            if not any(a < f.mention.start and s < b for a, b in taken):
                out.append(Found(Mention(country, self.country, s, f.mention.start, country), "place"))
                taken.append((s, f.mention.start))
        return out

    def _stems(self, text: str, tokens: list[Token], kept: list[Found]) -> list[Found]:
        """比亚迪股份有限公司…，1995年在深圳创办比亚迪: a company the chunk names in full is written later by its name
        without the legal form (比亚迪), or without the place it starts with too (新锐半导体 of
        深圳新锐半导体股份有限公司), undeclared; such a later stem, where jieba's words begin and end with it, is a
        mention of a company of its own (alignment may join the two; the text never said they are one)."""
        if self.company is None:
            return kept
        starts = {t.start for t in tokens}
        ends = {t.end for t in tokens}
        stems: set[str] = set()
        for f in kept:
            form = _COMPANY_FORM.search(f.mention.name)
            if f.how != "org" or form is None or form.end() != len(f.mention.name):
                continue
            stem = re.sub(r"(?:集团|控股)+$", "", f.mention.name[:form.start()])
            place = next((t for t in tokens if t.start == f.mention.start and t.pos == "ns"
                          and t.end - t.start < len(stem)), None)
            # 大疆创新科技有限公司 … 创立大疆: the words of company names after the name (创新, 科技) drop too
            bare = _ORG_WORDS_AT_END.sub("", stem)
            if len(bare) == 2 and (self._place_class(bare) is not None or self._common(bare)):
                bare = ""
            for form_ in (stem, stem[place.end - place.start:] if place else "", bare if len(bare) == 2 else ""):
                if len(form_) >= 2 and not self._common(form_) and form_ not in wl.ORG_STOP \
                        and not _fragment(form_, self._org_re):
                    stems.add(form_)
        out = list(kept)
        for stem in sorted(stems, key=len, reverse=True):
            at = text.find(stem)
            while at >= 0:  # str.find, not a pattern per stem: re's cache of compiled patterns is small
                s, e = at, at + len(stem)
                at = text.find(stem, e)
                if s not in starts or (e not in ends and _HAN.match(text[e:e + 1] or "x")):
                    continue
                inner = [f for f in out if s < f.mention.end and f.mention.start < e]
                if any(f.how not in ("place", "person") or f.mention.start < s or f.mention.end > e for f in inner):
                    continue  # inside a name found already (the full name itself)
                out = [f for f in out if f not in inner]
                out.append(Found(Mention(stem, self.company, s, e, stem), "org"))
        return out


def _occurrences(form: str, text: str) -> Iterator[tuple[int, int]]:
    """Where `form` stands in `text`, left to right and not overlapping (what re.finditer(re.escape(form)) finds),
    by plain string search: a pattern per name found overflowed the `re` module's cache of 512 compiled patterns
    every chunk, so the rules' own patterns were compiled again and again."""
    if not form:
        return
    at = text.find(form)
    while at >= 0:
        yield at, at + len(form)
        at = text.find(form, at + len(form))


def _fragment(name: str, endings: re.Pattern[str]) -> bool:
    """科技有限公司, 信息技术股份有限公司: an ending after nothing but words of company names."""
    hit = endings.search(name)
    if hit is not None and hit.group(0).endswith(("大学", "学院")):
        return False  # 电子科技大学: a school is named for its fields
    body = name[:hit.start()] if hit is not None else ""
    return bool(body) and bool(re.fullmatch("(?:" + "|".join(sorted(wl.ORG_NAME_WORDS, key=len, reverse=True)) + ")+",
                                            body))


def _surname_at(text: str, pos: int) -> int:
    """The length of the surname starting at `pos` (2 for a compound one), 0 when none does."""
    if text[pos:pos + 2] in wl.COMPOUND_SURNAMES:
        return 2
    return 1 if text[pos:pos + 1] in wl.SURNAMES else 0


def _inside(spans: list[tuple[int, int]], start: int, end: int) -> bool:
    return any(start < e and s < end for s, e in spans)


def _non_overlapping(found: list[Found]) -> list[Found]:
    ranked = sorted(found, key=lambda f: (_PRIORITY.get(f.how, 9), -(f.mention.end - f.mention.start), f.mention.start))
    kept: list[Found] = []
    for f in ranked:
        if not any(f.mention.start < k.mention.end and k.mention.start < f.mention.end for k in kept):
            kept.append(f)
    return kept


_NOT_IN_NAME = frozenset({"v", "p", "c", "u", "uj", "ul", "ud", "uz", "d", "r", "f", "m", "x", "q", "y", "vn", "t"})


def _unknown_char(t: Token) -> bool:
    """鄂 | 凇 (x) | 电气, 襄阳 | 凇 | 源控股, 皖 | 燚 (yg) | 新材: a Chinese character jieba's dictionary lacks is
    tagged by its character model alone, as punctuation (x) or a bare morpheme (yg, g); such a rare character stands
    in names (companies, people), hardly ever in ordinary words."""
    return t.pos in ("x", "yg", "g") and len(t.word) == 1 and "\u4e00" <= t.word <= "\u9fff"


def _rare_char_as_measure(t: Token, tokens: list[Token]) -> bool:
    """闽 | 泓 | 冷链: jieba tags a rare character of a short name as a measure word (q); a measure word follows a
    number (三家, 200辆), so one that does not is part of a name."""
    if t.pos != "q" or len(t.word) != 1:
        return False
    before = next((x for x in reversed(tokens) if x.end <= t.start), None)
    return before is not None and before.end == t.start and before.pos not in ("m", "r")


def _trim_foreign(text: str, start: int, end: int, tokens: list[Token],
                  common: Callable[[str], bool]) -> tuple[int, int] | None:
    """The foreign name in a ·-joined run, by jieba's tokens: each part is the name-like tokens next to a dot,
    so 由莫里斯·威尔克斯及其团队 gives 莫里斯·威尔克斯 and 冯·诺依曼撰写了 gives 冯·诺依曼."""
    dots = [i for i in range(start, end) if text[i] in "·・•‧"]
    inside = [t for t in tokens if start <= t.start and t.end <= end and t.word not in "·・•‧"]

    def name_like(t: Token) -> bool:  # 冯·诺依曼结构: 结构 is a word, not part of the name
        # 国际业务副总裁托马斯·韦伯: a title before the name is no part of it
        return t.pos not in _NOT_IN_NAME and t.word not in _NAME_LEAD and len(t.word) <= 4 and not common(t.word) \
            and not t.word.endswith(_TITLE_ENDS)

    left = [t for t in inside if t.end <= dots[0]]
    s = dots[0]
    for t in reversed(left):
        if not name_like(t) or dots[0] - t.start > 6:
            break
        s = t.start
    if text[s] in _GLUED_LEAD and dots[0] - s > 2:
        s += 1  # 由托 | 比亚斯·施泰因出任: a preposition jieba glued to a transliteration opens no foreign name
    right = [t for t in inside if t.start > dots[-1]]
    e = dots[-1] + 1
    for t in right:
        if not name_like(t) or t.end - dots[-1] > 7:
            break
        e = t.end
    return (s, e) if s < dots[0] and e > dots[-1] + 1 else None


# Prepositions jieba may glue to the start of a name it does not know (由金穗 | 装备): never a name's first character
# there.
_GLUED_LEAD = frozenset("由被在对把从向将经")
_NAME_LEAD = frozenset("由 与 和 及 被 的 将 向 对 在 把 给 为 是 据 同 跟 让 请 经 从 当 随 根据".split())
