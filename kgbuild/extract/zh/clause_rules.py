"""What every clause rule of the open-domain relations shares: the facts they state, the clause and the
scope a rule reads (its text, subject, period, sentence and the chunk's company), what kind of name a mention
is, and the helpers that find listed names, the actor of a verb and the name a pointer points back at.

The rules themselves are grouped by what they read: foundings (`founding_facts`), places (`place_facts`),
posts and careers (`career_facts`), deals (`deal_facts`), makers and works (`maker_facts`), parents and
subsidiaries (`owner_facts`), reports' own phrases (`report_facts`) and figures (`figure_facts`); `open_relations`
runs them clause by clause.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from kgbuild.extract.zh import word_lists as wl
from kgbuild.extract.zh.mentions import Mention
from kgbuild.extract.zh.name_rules import VALUE_RE

REFERENCE = re.compile(r"^(?:本公司|该公司|公司|本集团|该集团|集团|学校|该校|本校|本行|该行|其)")
# What may stand before a clause's own subject: a time, a frame, a conjunction.
LEAD_IN = re.compile(r"^(?:\s|于|在|截至|据|近日|目前|此外|同时|另外|其中|后|并|而|且|报告期内|本报告期|期内|"
                      r"\d{4}年(?:\d{1,2}月(?:\d{1,2}[日号])?|第[一二三四]季度|[上下]半年)?|\d{1,2}月\d{1,2}[日号])*$")
# What kind of thing a name is, said right before it (船用电池企业卡勒瓦能源公司): nothing, or a few words ending in
# a word of kinds.
KIND_BEFORE_A_NAME = re.compile(r"(?:[\u4e00-\u9fff]{0,8}(?:" + "|".join(wl.DESCRIPTOR_ENDS) + r"))?")
# A person's honorific and the comma after the name, the clause before a bio's (P博士，1975年出生)
# (and the bio's year of birth and home between: P博士，1975年出生，湖北宜昌人，毕业于…)
_CLOSES_CLAUSE = re.compile(r"(?:博士|先生|女士|教授)?[，,]\s*(?:\d{4}年(?:\d{1,2}月)?(?:出生|生)[，,]\s*)?"
                            r"(?:[\u4e00-\u9fff]{2,8}人[，,]\s*)?")
# What a writer calls a foreign body before its name (意大利企业X, 德国公司X, 法国车企X): the country's kind word.
_COUNTRY_KIND = re.compile(r"(?:的)?(?:企业|公司|集团|厂商|车企|药企|银行|机构|财团)")
# A post (with the field it is in) between an organisation and the person holding it: 大学物理学教授程嘉树.
POST_BETWEEN = re.compile(r"(?:[\u4e00-\u9fff]{1,6}?(?:学|系|专业|学院))?(?:"
                           + "|".join(sorted((*wl.EXECUTIVE_TITLES, *wl.PERSON_TITLES), key=len, reverse=True)) + ")")
# A kin word between two listed people (钟立衡与妻子苏婉清, 欧阳振邦及其配偶温雅琳): the list goes on, and they are
# spouses.
KIN = r"(?:其)?(?:妻子|丈夫|配偶|夫人)?"
# 由晋中市畜牧发展集团有限公司与自然人贾庭岳共同发起设立: a filing's word for a person (not a company) among founders
NATURAL_PERSON = r"(?:自然人)?"
# Between the names a clause is about and its verb: adverbs and a time (恒信钢铁集团和东方电气集团均于2023年荣获…).
VERB_GAP = re.compile(r"(?:均|都|也|还|分别|共同|先后|已|已经|将|正式|同时|近日|日前|此前|再次|首次|联合|"
                       r"于\d{4}年(?:\d{1,2}月(?:\d{1,2}[日号])?)?|于\d{1,2}月\d{1,2}[日号]|在[\u4e00-\u9fff]{2,6})*")
# The verbs that say who made a built or made thing after 由 (由A开发，B设计，C承建: a developer, a designer and a
# builder of one estate)
# (a standard or a book is drafted and compiled, a model trained: 该标准由A、B和C共同起草)
BUILT = (r"(?:建造|承建|施工|制造|研制|设计(?![院师所研])|开发|发明|建成|研发|起草|编制|编写|编纂|编修|训练)")
# (设计研究院 is a maker's name)
# Relations between parties (who made, bought, released, founded, works for, cooperates with, approves, owns what):
# a place or a date takes no part in them (位于江西省九江市的庐山美术馆由建筑师顾承泽设计: 江西省 designs nothing;
# 三家运营商在北京联合发布: 北京 releases nothing), whichever clause shape put it there.
BETWEEN_PARTIES = frozenset({"release", "acquire", "createdBy", "foundedBy", "worksFor", "cooperateWith", "partOf",
                              "ownedBy", "predecessor", "approvedBy", "publishedBy", "spouse",
                              "educatedAt", "basedOn"})
# Adverbs between a person and what the person does (P已出任, P同时担任, P此前曾在…), times of now included (其创始人
# P目前担任该公司总经理, P仍然担任: the post is held now, by the person before the adverb).
# (贾璞已于近日加盟X: a time of the act too)
_ACT_GAP = re.compile(r"(?:已经|已|将|同时|也|还|亦|正式|此前|再次|继续|随即|随后|曾|目前|现在|如今|仍然|仍|一直|"
                      r"于近日|近日|日前|于日前)*")
TITLE_ALT = "|".join(sorted(wl.EXECUTIVE_TITLES, key=len, reverse=True))
# Between a maker and its work: 的长篇小说《…》, 的创新药“…” (the kind of work, then the quote mark).
WORK_OF = re.compile(r"的(?:长篇|短篇|中篇|最新|首款|新款)?(?:小说|新书|著作|作品|诗集|专著|散文集|新作|代表作|"
                      r"创新药|新药|药物|产品|新品|车型|游戏|电影|影片|歌曲|专辑)")


@dataclass
class OpenFact:
    subject: Mention
    predicate: str
    object: Mention
    qualifiers: list[tuple[str, Mention]] = field(default_factory=list)
    said: str = ""  # the words of the clause the fact was read from (出生于, 撰写, 根据…设计)


# The words a clause states each predicate with, to record which of them it used (`OpenFact.said`):
# the graph's predicate vectors embed them beside the English name, so a Chinese question's relation
# words (出生, 作者, 依据) meet the path that states them.
SAID = {
    "foundedOn": r"成立|创立|创建|组建|建立|始建|设立|建校|创刊",
    "foundedBy": r"创办|创立|创建|创设|创始人|创办人|组建",
    "headquarteredIn": r"总部(?:均|也|都)?(?:位于|设在|设于|在|坐落于)", "locatedIn": r"位于|地处|坐落于|坐落在|注册地",
    "bornIn": r"出生于|生于|出生在|诞生于|出生", "bornOn": r"出生于|生于|出生在|诞生于|出生",
    "educatedAt": r"毕业于|就读于|肄业于|求学于|考入|考取|学习|留学|深造",
    "worksFor": r"担任|出任|现任|曾任|兼任|现为|任",
    "acquire": r"吸收合并|收购|并购|兼并|购入|购买", "release": r"发布|推出|上线|发行|首发|印发|颁布",
    "createdBy": r"撰写|创作|所著|编著|编写|写作|著有|建造|承建|施工|制造|研制|研发|开发|发明|设计|起草|编制|编纂|编修|"
                 r"训练",
    "basedOn": r"(?:根据|依据|基于)", "publishedBy": r"出版|发行|出品", "awardReceived": r"荣获|获得|获颁|被授予|获",
    "approvedBy": r"批准|核准|批复|许可|认证", "partOf": r"隶属于|隶属|旗下|子公司|下属",
    "cooperateWith": r"合作", "predecessor": r"前身", "listedIn": r"列入|入选|纳入|上市",
    "ownedBy": r"控股股东|实际控制人|第一大股东|所有|船东", "spouse": r"夫妇|夫妻",
}




@dataclass
class Clause:
    start: int
    end: int
    text: str
    mentions: list[Mention]
    values: list[Mention]



@dataclass
class ClauseScope:
    """What a clause rule reads: the chunk's text, the clause, its subject and period, the sentence's mentions,
    the company a report's 公司 stands for, where the sentence ends, the chunk's organisations, the period as a
    qualifier, and the clause's `add` (a fact, unless a check rejects it) and `place_at` (the most specific place
    of a run of places)."""
    text: str
    clause: Clause
    subject: Mention
    when: Mention | None
    sentence: list[Mention]
    topic_org: Mention | None
    sentence_end: int
    orgs: list[Mention]
    timed: list[tuple[str, Mention]]
    add: Callable[..., None]
    place_at: Callable[[int], Mention | None]


class ClauseRules:
    """What kind of name a mention is, and the helpers every group of clause rules uses."""

    def __init__(self, is_org: set[str], is_edu: set[str], fallback: str, *, is_award: set[str] | None = None,
                 is_country: set[str] | None = None, is_company: set[str] | None = None) -> None:
        """`is_org`: the schema's organisation classes; `is_edu`: its school classes; `fallback`: the class
        amounts and percentages get as qualifier values; `is_award`, `is_country`: its award and country
        classes (a quoted “…”称号 is an award; 德国西门子公司 is in that country)."""
        self.is_org = is_org
        self.is_edu = is_edu
        self.fallback = fallback
        self.is_award = is_award or set()
        self.is_country = is_country or set()
        self.is_company = is_company or set()

    # ------------------------------------------------------------------ kinds

    def _org(self, m: Mention | None) -> bool:
        return m is not None and (m.kind in ("org", "list") or m.spg_class in self.is_org)

    def _company(self, m: Mention) -> bool:
        return m.spg_class in self.is_company if self.is_company else m.spg_class not in self.is_edu

    @staticmethod
    def _person(m: Mention | None) -> bool:
        return m is not None and m.kind == "person"

    @staticmethod
    def _place(m: Mention) -> bool:
        return m.kind == "place"

    def _region(self, m: Mention) -> bool:
        return self._place(m) and m.spg_class not in self.is_country and m.start > 0

    @staticmethod
    def _date(m: Mention) -> bool:
        return m.kind == "date"

    @staticmethod
    def _where_or_when(m: Mention) -> bool:
        return m.kind in ("place", "date")

    def _larger(self, a: Mention, b: Mention) -> bool:
        """A place of a higher level than b (福建省 and 思明区): it is in no such place, whatever shape said so."""
        def level(m: Mention) -> int | None:
            if not self._place(m):
                return None
            if m.spg_class in self.is_country:
                return 0
            if m.name.endswith(("省", "自治区", "特别行政区")) or m.name in wl.PROVINCES:
                return 1
            if m.name.endswith("市"):
                return 2
            return 3 if m.name.endswith(("区", "县", "镇", "乡")) else None
        la, lb = level(a), level(b)
        return la is not None and lb is not None and la < lb


    def _after(self, clause: Clause, pos: int) -> list[Mention]:
        return [m for m in clause.mentions if m.start >= pos]

    @staticmethod
    def _described_after(text: str, clause: Clause, place: Mention) -> Mention | None:
        """位于…图尔库的卡勒瓦能源公司, 总部位于芬兰图尔库的船用电池企业卡勒瓦能源公司: the name the place describes,
        right after 的 or after a few words that say what kind of thing it is."""
        return next((x for x in clause.mentions if x.start > place.end and text[place.end:place.end + 1] == "的"
                     and KIND_BEFORE_A_NAME.fullmatch(text[place.end + 1:x.start])), None)

    def _listed(self, clause: Clause, pos: int, kind: Callable[[Mention], bool], *,
                loose: bool = False) -> list[Mention]:
        """The names of the kind listed from `pos` on (A、B和C), stopping at the first thing that is not one.
        `loose`: quoted names with their kinds after them (“云储”系列储能电站和“岭峰”户用储能设备)."""
        out: list[Mention] = []
        after = self._after(clause, pos)
        skipped: Mention | None = None  # a country said of the name after it (与意大利企业X): where, not who
        for i, x in enumerate(after):
            if not kind(x):
                nxt = after[i + 1] if i + 1 < len(after) else None
                if skipped is None and self._place(x) and nxt is not None and kind(nxt) \
                        and _COUNTRY_KIND.fullmatch(clause.text, x.end - clause.start, nxt.start - clause.start):
                    skipped = x
                    continue
                break
            gap = clause.text[out[-1].end - clause.start:(skipped or x).start - clause.start] if out else ""
            skipped = None
            joint = (r"[”」』》\"]?[\u4e00-\u9fffA-Za-z0-9]{0,10}?[、和及与以及]{1,2}[\u4e00-\u9fff]{0,10}"
                     r"[“「『《\"]?") if loose \
                else r"[、和及与以及]{1,2}" + KIN + NATURAL_PERSON
            if out and not re.fullmatch(joint, gap):
                break
            out.append(x)
        return out

    def _listed_before(self, clause: Clause, pos: int, kind: Callable[[Mention], bool]) -> list[Mention]:
        """The names of the kind listed right before `pos` (A、B和C均位于…, A和B荣获…, A、B与C签署…), an adverb or
        a time allowed between the last of them and `pos`; empty when the verb does not follow a list of them."""
        # 中国移动、中国电信和中国联通在北京联合发布: where it happened (在 PLACE) stands in the gap, it lists nothing
        before = [m for m in clause.mentions if m.end <= pos and not (
            self._place(m) and clause.text[m.start - clause.start - 1:m.start - clause.start] == "在")]
        if not before or not kind(before[-1]) or not VERB_GAP.fullmatch(clause.text[before[-1].end - clause.start:
                                                                                    pos - clause.start]):
            return []
        out = [before[-1]]
        for x in reversed(before[:-1]):
            if not kind(x) or not re.fullmatch(r"(?:[、和及与]|以及|会同)" + KIN, clause.text[x.end - clause.start:
                                                                         out[0].start - clause.start]):
                break
            out.insert(0, x)
        return out

    def _kind_of(self, text: str, clause: Clause, subject: Mention) -> None:
        """X是一家综合物流服务商 / 是…的长篇小说 / 钱学森，中国著名科学家: what the subject is, as its semantic type
        (a concept the align stage links it to with belongTo)."""
        own = [m for m in clause.mentions if m is not subject and not self._date(m)]
        head = re.search(r"(?:^|[\u4e00-\u9fff》”])是(?:一[家所个种座部本位名款支])?(?:[^，。；]*的)?"
                         r"(?P<kind>[\u4e00-\u9fff]{2,10})$", clause.text)
        if head is None and self._person(subject) and not [m for m in own if not self._place(m)]:
            # an entry's apposition: 钱学森，中国著名科学家 / 王蒙山，…，作家、翻译家
            head = re.fullmatch(r"\s*(?:中国|美国|英国|法国|德国|日本)?(?:著名|知名|杰出|当代|现代)?的?"
                                r"(?P<kind>[\u4e00-\u9fff]{2,6}?(?:家|者|师|员|人|官|长|生))(?:、[\u4e00-\u9fff]{2,6})*",
                                clause.text)
        if head is None or subject.semantic_type:
            return
        kind = head.group("kind")
        kind = re.sub(r"^(?:中国|全国|国内|世界|全球)?(?:著名|知名|领先|最大|重要)?的?", "", kind)
        if len(kind) >= 2 and not any(m.start >= clause.start + head.start("kind") for m in own) \
                and kind not in wl.STOP_NAMES:
            subject.semantic_type = kind

    def _actor(self, text: str, clause: Clause, subject: Mention, sentence: list[Mention],
               verb: int) -> Mention | None:
        """Who does what a person does at `verb` (毕业于, 创办, 现任): the clause's subject if a person; else the
        person right before the verb (小米集团创始人雷军毕业于…: not the clause's first name); else, in a clause
        with no subject of its own (…，2010年在北京创办小米公司), the person an earlier clause of the sentence
        had act (雷军毕业于). Nobody else: a company does not graduate."""
        if self._person(subject):
            return subject
        # (其原总经理P已出任X副总经理: adverbs may stand between the person and the verb)
        right = next((x for x in clause.mentions if x.end <= verb and _ACT_GAP.fullmatch(text, x.end, verb)
                      and self._person(x)), None)
        if right is not None and re.search(r"(?:接替|接任|取代|替代|代替)$", text[:right.start]):
            # 蔡崇信接替张勇出任董事会主席: the one replaced does not take the post; the one before 接替 does
            right = next((x for x in reversed(clause.mentions) if x.end <= right.start and self._person(x)), None)
        if right is not None:
            return right
        if REFERENCE.match(clause.text.lstrip()) or any(
                x.end <= verb and not self._date(x) and not self._place(x) for x in clause.mentions):
            return None
        # (公司首席科学家P博士，1975年出生，毕业于…: the person a title introduced closes the clause before)
        # (贾璞已于近日加盟X，出任该公司总经理: adverbs and a time may stand between the person and the verb)
        return next((x for x in reversed(sentence) if x.end <= clause.start and self._person(x)
                     and (text.startswith(wl.PERSON_VERBS, x.end)
                          or text.startswith(wl.PERSON_VERBS, _ACT_GAP.match(text, x.end).end())  # type: ignore[union-attr]
                          or _CLOSES_CLAUSE.fullmatch(text, x.end, clause.start))), None)

    @staticmethod
    def _cut_apart(text: str, a: Mention, b: Mention) -> bool:
        """a and b are two pieces of one organisation's name (中国科学院 | 大连 | 化学物理研究所): b follows a with
        at most a few characters and no separator or verb between."""
        gap = text[a.end:b.start]
        return a.end <= b.start and len(gap) <= 4 and re.fullmatch(r"[\u4e00-\u9fff]*", gap) is not None \
            and not re.search(r"[、和与及的在由为是向对]", gap)

    @staticmethod
    def _pointed_at(word: str, orgs: list[Mention], before: int) -> Mention | None:
        """前者 / 后者 / 该子公司: the organisation a clause points back at, among those the chunk named before it
        (each name once): 后者 and 该子公司 the last, 前者 the one before it."""
        named: list[Mention] = []
        for m in orgs:
            if m.end <= before:  # a name written again is now the last named
                named = [x for x in named if x.name != m.name] + [m]
        if word == "前者":
            return named[-2] if len(named) >= 2 else None
        return named[-1] if named else None

    @staticmethod
    def _last_org(sentence: list[Mention], before: int, not_named: str = "") -> Mention | None:
        orgs = [m for m in sentence if m.end <= before and m.kind in ("org", "list") and m.name != not_named]
        return orgs[-1] if orgs else None

    def _value(self, m: Mention) -> Mention:
        return Mention(m.name, self.fallback, m.start, m.end, m.form, kind="value")

    def _value_after(self, text: str, start: int, end: int, cue: str) -> Mention | None:
        """The amount after `cue` between `start` and `end` (交易金额约为2.4亿欧元)."""
        hit = re.search(cue + r"(" + VALUE_RE.pattern + r")", text[start:end])
        if hit is None:
            return None
        s = start + hit.start(1)
        return Mention(hit.group(1), self.fallback, s, s + len(hit.group(1)), hit.group(1), kind="value")
