"""Open-domain relations of Chinese sentences from clause patterns, with the amounts, percentages and
periods a sentence gives them as qualifiers, and the events a sentence states with its time.

Chinese drops a subject the sentence already named (2022年，星河智能实现营业收入…，同比增长…；净利润…) and
refers to the company a report is about as 公司 / 本公司 / 集团, so each clause takes its subject from
its own start (a name, or 公司 → the chunk's first organisation), else from the sentence, else from the
chunk. The patterns (one verb or fixed phrase each, the object the name after it):
成立于 DATE foundedOn · 创办 ORG / ORG创始人 P / 由 X 创办 foundedBy · 总部位于 P headquarteredIn ·
位于 / 地处 P, 浙江省宁波市, 海淀区的中关村 locatedIn · 出生于 / 生于 bornIn, bornOn · 毕业于 / 赴…学习
educatedAt · ORG董事长P / 担任 ORG 董事长 worksFor · 收购 / 对 X 的收购 acquire · 发布 / 推出 release ·
由 ORG 出版 publishedBy · 著有 / …创作的 / 自主研发的 createdBy · 获得 / 荣获 AWARD awardReceived ·
隶属于 / 旗下 / 成为…的子公司 partOf · 与 ORG…合作 cooperateWith · 前身为 predecessor · 列入 listedIn ·
获得 ORG 批准 approvedBy · 营业收入 3,549 亿元 (the figure's own name as the predicate) with
同比增长 / 同比下降 and the period (时间) as qualifiers; 以 12亿元 收购 金额, 60%的股权 比例, 在 P 发布 地点.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import pairwise

from kgbuild.extract.zh import word_lists as wl
from kgbuild.extract.zh.mentions import Mention
from kgbuild.extract.zh.open_mentions import TITLE_RUN as _TITLE_RUN
from kgbuild.extract.zh.open_mentions import VALUE_RE

_SENTENCE_END = re.compile(r"(?<=[。！？!?\n])")
# A comma or colon between digits is part of a number (6,423亿元; 10:30).
_CLAUSE_END = re.compile(r"[，；;：]|(?<!\d)[,:]|[,:](?!\d)")
# A sentence about a thing it does not name (该项目, 此次交易, 该产品): 该 / 此 before a word that is no company's
_UNNAMED_TOPIC = re.compile(r"\s*(?:[^，。；]{0,12}[，,])?\s*(?:该|此|此次|本次)(?!公司|集团|企业|行|校|院|机构)"
                            r"(?P<noun>[\u4e00-\u9fff])")
_CHILD_AFTER = re.compile(r"(?:旗下的|下属的|的(?:全资|控股|参股)?(?:子公司|下属企业))"
                          r"(?!(?:则|还|另|主要)?(?:包括|有|为|是)|共|分别|[，。；、])")
# 其代表著作《…》: a work of the person the chunk is about.
_ITS_WORK = re.compile(r"\s*其(?:代表|主要|最新|第一部|首部|成名)?"
                       r"(?P<kind>著作|作品|代表作|长篇小说|小说|专著|诗集|论文集|"
                       r"散文集|新作|成名作)")
# A clause that opens by pointing back at a name: the former, the latter, the said subsidiary.
_POINTER = re.compile(r"\s*(前者|后者|该子公司|该(?:全资|控股)子公司)")
# 该厂 / 该校 / 该院…: a clause pointing back at the body of that kind the chunk named last, as the names' endings
# say (…的前身为湛江市南珠水产加工厂，该厂始建于1992年: the works, not the company).
_KIND_POINTER = re.compile(r"\s*该(厂|校|院|所|馆|医院|中学|学校|大学|书院)")
_REFERENCE = re.compile(r"^(?:本公司|该公司|公司|本集团|该集团|集团|学校|该校|本校|本行|该行|其)")
# What may stand before a clause's own subject: a time, a frame, a conjunction.
_LEAD_IN = re.compile(r"^(?:\s|于|在|截至|据|近日|目前|此外|同时|另外|其中|后|并|而|且|报告期内|本报告期|期内|"
                      r"\d{4}年(?:\d{1,2}月(?:\d{1,2}[日号])?|第[一二三四]季度|[上下]半年)?|\d{1,2}月\d{1,2}[日号])*$")
_CHANGE = re.compile(r"(?P<base>同比|比上年(?:末|同期)?|较上年(?:末|同期)?|较去年(?:同期|末)?|比去年(?:同期)?|"
                     r"较年初|环比)?"
                     r"(?P<way>增长|上升|提高|增加|上涨|提升|下降|减少|下滑|降低|下跌|回落)了?(?:约|达)?$")
_METRIC_STRIP_LEAD = re.compile(r"^(?:实现|完成|录得|取得|达到|共有|现有|拥有|累计|全年|全球|合计|总计|其中|单季|当季|"
                                r"目前|当前|截至目前|该子公司|该公司|"
                                r"同期|同年|集团|公司|本公司|"
                                r"本集团|学校|本行|该行|报告期内|本期|当期|共|全年实现|累计实现|新增|获得|获|新获)+")
_METRIC_STRIP_TAIL = re.compile(r"(?:达到|达|为|约为|约|共计|共|合计|总计|是|超过|逾|近|实现|突破)+$")
# Between a maker and its work: 的长篇小说《…》, 的创新药“…” (the kind of work, then the quote mark).
_WORK_OF = re.compile(r"的(?:长篇|短篇|中篇|最新|首款|新款)?(?:小说|新书|著作|作品|诗集|专著|散文集|新作|代表作|"
                      r"创新药|新药|药物|产品|新品|车型|游戏|电影|影片|歌曲|专辑)")
# 该药 / 该产品…: a clause about the work (a drug, a product, a book) the sentence named before.
# (这部作品, 这款芯片: 这 and a measure word point back as 该 does)
_WORK_REFERENCE = re.compile(r"\s*(?:该|这[部本款艘架首篇台辆种])(?:药|药品|新药|产品|疫苗|器械|车型|系统|软件|平台|书|"
                             r"作品|小说|"
                             r"邮轮|轮船|船舶|船|飞机|机型|卫星|火箭|设备|装备|芯片|车|款|机|"
                             r"影片|片|剧|电影|专辑|耳机|手机|舰|艇|装置|仪器|雷达|机器人|模型|游戏)")
# 担任 / 现任…: holding a post (任 alone, but not inside 主任, 聘任, 责任, 任务, 任期…)
_HOLDS_POST = re.compile(r"(?:担任|出任|现任|曾任|兼任|历任|接任|继任|此前任|"
                         r"(?<![主聘责信就继前委])任(?![务期何意命职]))")
_METRIC = re.compile(r"^[\u4e00-\u9fffA-Za-z]{2,10}$")
# What kind of thing a name is, said right before it (船用电池企业卡勒瓦能源公司): nothing, or a few words ending in
# a word of kinds.
_KIND_BEFORE_A_NAME = re.compile(r"(?:[\u4e00-\u9fff]{0,8}(?:" + "|".join(wl.DESCRIPTOR_ENDS) + r"))?")
# A post (with the field it is in) between an organisation and the person holding it: 大学物理学教授程嘉树.
_POST_BETWEEN = re.compile(r"(?:[\u4e00-\u9fff]{1,6}?(?:学|系|专业|学院))?(?:"
                           + "|".join(sorted((*wl.EXECUTIVE_TITLES, *wl.PERSON_TITLES), key=len, reverse=True)) + ")")
_PLACE_HEAD = re.compile(r"(?:常务)?(?:副)?(?:市长|县长|区长|省长|州长|镇长)$")
# A field between a school and a post there (南京大学物理学教授, 复旦大学化学系博士生): no part of either.
_FIELD_BETWEEN = re.compile(r"[\u4e00-\u9fff]{1,6}?(?:学|系|专业|学院)")
# A bio's past or present job at a body (曾任X研究院研究员, 现任X学院作曲系教授, 现为X学院中文系副教授): the verb, the
# body, a department or field, and a job that is no executive post (those are read with EXECUTIVE_TITLES).
_JOB_VERB = re.compile(r"(?:曾任|现任|现为|历任|此前任|曾担任|曾是|先后任)")
_JOB_AFTER_BODY = re.compile(r"[\u4e00-\u9fff]{0,6}?(?:系|专业|学院|研究室|实验室|中心|科)?"
                             r"(?:结构|高级|资深|首席|主任|副主任|主治|助理)?"
                             r"(?:研究员|副研究员|教授|副教授|讲师|设计师|工程师|医师|医生|编辑|记者|律师|教师|教员)")
# What a person does at a body named right after 在 (2010年在X获得博士学位, 长期在X工作): the body is where it was
# done, not who did it.
_CAREER_AT = re.compile(r"[^，。；]{0,4}?(?:获得|获|取得|攻读|担任|出任|任职|工作|从事|学习|深造|进修|访学|任教)")


def _next_to(text: str, m: Mention, pos: int) -> bool:
    """`m` ends right before `pos`, or only a field of study stands between them."""
    return m.end == pos or (m.end < pos and _FIELD_BETWEEN.fullmatch(text[m.end:pos]) is not None)

# A kin word between two listed people (钟立衡与妻子苏婉清, 欧阳振邦及其配偶温雅琳): the list goes on, and they are
# spouses.
_KIN = r"(?:其)?(?:妻子|丈夫|配偶|夫人)?"
# 由晋中市畜牧发展集团有限公司与自然人贾庭岳共同发起设立: a filing's word for a person (not a company) among founders
_NATURAL_PERSON = r"(?:自然人)?"
_SPOUSES = re.compile(r"[与和及]其?(?:妻子|丈夫|配偶|夫人)$")
# The verb that makes a work -> the relation to its maker, where it is not plain authorship.
_MAKER = {"执导": "directedBy", "主演": "performedBy"}
# Between the names a clause is about and its verb: adverbs and a time (恒信钢铁集团和东方电气集团均于2023年荣获…).
_VERB_GAP = re.compile(r"(?:均|都|也|还|分别|共同|先后|已|已经|将|正式|同时|近日|日前|此前|再次|首次|联合|"
                       r"于\d{4}年(?:\d{1,2}月(?:\d{1,2}[日号])?)?|于\d{1,2}月\d{1,2}[日号]|在[\u4e00-\u9fff]{2,6})*")
# The verbs that say who made a built or made thing after 由 (由A开发，B设计，C承建: a developer, a designer and a
# builder of one estate)
_BUILT = r"(?:建造|承建|施工|制造|研制|设计(?![院师所研])|开发|发明|建成|研发)"  # (设计研究院 is a maker's name)
# A clause that is only the next maker of such a list: 华岳建筑设计院有限公司设计 after 由宛澜置业有限公司开发
_NEXT_MAKER = re.compile(r"\s*(?:再)?由?(?P<maker>[^，。；]{2,30}?)(?:负责)?" + _BUILT + r"\s*[。！？]?\s*")
_BUILT_BY = re.compile(r"由(.{2,30}?)" + _BUILT)
_BY_OPENS = re.compile(r"\s*由")
_OWNED_AS = re.compile(r"归(.{2,24}?)所有")  # “桂海明珠”轮归桂海航运所有
_SHIP_OWNER = re.compile(r"船东为|船东是")
# A quoted ship, building or project opening its clause after the noun of its kind (首航船舶“桂海明珠”轮归…): the
# clause's subject, not the chunk's company
_BUILT_KIND_BEFORE = re.compile(r"\s*[\u4e00-\u9fff]{0,6}(?:船舶|船|货轮|邮轮|舰|飞机|客机|楼盘|大厦|大桥)[“\"「『]")
# What a 由 clause says an agent did to the subject: 成都云图…由华信控股…以4.5亿元收购, 《报告》由研究院发布.
_PASSIVE = re.compile(r"[由被](?P<agent>[^，。；]{2,30}?)(?:以[^，。；]{1,16}?)?(?:共同|联合|正式|首次)?"
                      r"(?P<verb>收购|并购|兼并|发布|推出|首发)")


# Relations between parties (who made, bought, released, founded, works for, cooperates with, approves, owns what):
# a place or a date takes no part in them (位于江西省九江市的庐山美术馆由建筑师顾承泽设计: 江西省 designs nothing;
# 三家运营商在北京联合发布: 北京 releases nothing), whichever clause shape put it there.
_BETWEEN_PARTIES = frozenset({"release", "acquire", "createdBy", "foundedBy", "worksFor", "cooperateWith", "partOf",
                              "ownedBy", "predecessor", "approvedBy", "publishedBy", "spouse",
                              "educatedAt", "basedOn"})
_TITLE_ALT = "|".join(sorted(wl.EXECUTIVE_TITLES, key=len, reverse=True))
_TITLE_RUN_BEFORE = re.compile(r"(?:(?:" + _TITLE_ALT + r")[、和及兼])*$")
# Compiled once: these run on every clause, and the module's patterns outnumber `re`'s cache (512), so a
# pattern built per call was compiled again per call.
_TITLE = re.compile(_TITLE_ALT)  # longest title first
_TITLE_IN_LIST_ORDER = re.compile("|".join(wl.EXECUTIVE_TITLES))  # the first title after a post verb
# 公司董事长: a post of the report's company
_COMPANY_POST = re.compile(r"(?:^|[^该])(?:本公司|公司)(?:" + _TITLE_ALT + ")")
_COMPANY_TITLES_BEFORE = re.compile(r"(?:本公司|该公司|公司|集团|本行|该行)(?:轮值|执行|联席)?(?:(?:" + _TITLE_ALT
                                    + r")兼)*$")
_POST_HELD_BY = re.compile(r"(?:的)?(" + _TITLE_ALT + r")由(.{2,24}?)(?:担任|兼任|出任)")


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
_SAID = {
    "foundedOn": r"成立|创立|创建|组建|建立|始建|设立|建校|创刊",
    "foundedBy": r"创办|创立|创建|创设|创始人|创办人|组建",
    "headquarteredIn": r"总部(?:均|也|都)?(?:位于|设在|设于|在|坐落于)", "locatedIn": r"位于|地处|坐落于|坐落在|注册地",
    "bornIn": r"出生于|生于|出生在|诞生于|出生", "bornOn": r"出生于|生于|出生在|诞生于|出生",
    "educatedAt": r"毕业于|就读于|肄业于|求学于|考入|考取|学习|留学|深造",
    "worksFor": r"担任|出任|现任|曾任|兼任|现为|任",
    "acquire": r"收购|并购|兼并|购入|购买", "release": r"发布|推出|上线|发行|首发|印发|颁布",
    "createdBy": r"撰写|创作|所著|编著|编写|写作|著有|建造|承建|施工|制造|研制|研发|开发|发明|设计",
    "basedOn": r"(?:根据|依据|基于)", "publishedBy": r"出版|发行|出品", "awardReceived": r"荣获|获得|获颁|被授予|获",
    "approvedBy": r"批准|核准|批复|许可|认证", "partOf": r"隶属于|隶属|旗下|子公司|下属",
    "cooperateWith": r"合作", "predecessor": r"前身", "listedIn": r"列入|入选|纳入|上市",
    "ownedBy": r"控股股东|实际控制人|第一大股东|所有|船东", "spouse": r"夫妇|夫妻",
}


@dataclass
class OpenEvent:
    type: str  # rule names: Birth, Founding, Acquisition, Creation (the schema's where it has them)
    trigger: str
    arguments: dict[str, list[Mention]]
    time: Mention | None = None
    place: Mention | None = None


@dataclass
class _Clause:
    start: int
    end: int
    text: str
    mentions: list[Mention]
    values: list[Mention]


def _split(text: str, start: int, end: int, mentions: list[Mention], values: list[Mention]) -> list[_Clause]:
    out: list[_Clause] = []
    pos = start
    for m in [*_CLAUSE_END.finditer(text, start, end), None]:
        stop = m.start() if m else end
        if stop > pos:
            out.append(_Clause(pos, stop, text[pos:stop], [x for x in mentions if pos <= x.start and x.end <= stop],
                               [v for v in values if pos <= v.start and v.end <= stop]))
        pos = m.end() if m else end
    return out


class OpenRelationRules:
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

    # ------------------------------------------------------------------ the chunk

    def chunk(self, text: str, mentions: list[Mention],
              values: list[Mention]) -> tuple[list[OpenFact], list[OpenEvent]]:
        facts: list[OpenFact] = []
        # the organisation 公司 / 本公司 / 集团 stands for: a company, never a school or an agency the report names
        # (公司与清华大学、浙江大学分别共建…: 公司 is not 清华大学)
        topic_org = next((m for m in mentions if self._org(m) and m.aliases and self._company(m)), None) or next(
            (m for m in mentions if self._org(m) and self._company(m)), None)
        # what the chunk is about: its first name, unless a place after a verb (鼓浪屿位于福建省…: not 福建省)
        topic = next((m for m in mentions if not self._date(m) and not (self._place(m) and not _LEAD_IN.match(
            text[max(text.rfind(e, 0, m.start) for e in "。！？\n") + 1:m.start]))), None)
        orgs = [m for m in mentions if self._org(m)]
        works = [m for m in mentions if m.kind in ("quote", "title")]
        pos = 0
        for piece in _SENTENCE_END.split(text):
            start, end = pos, pos + len(piece)
            pos = end
            if not piece.strip():
                continue
            inside = [m for m in mentions if start <= m.start and m.end <= end]
            clauses = _split(text, start, end, inside, [v for v in values if start <= v.start and v.end <= end])
            facts += self._sentence(text, start, end, clauses, inside, topic_org, topic, orgs,
                                    [m for m in mentions if self._org(m) or self._person(m)], works)
        return _unique(facts), self._events(facts)

    def _own_subject(self, clause: _Clause, text: str) -> Mention | None:
        made = re.match(r"\s*由[^，。；]{1,30}?(?:创办|创立|创建|设立|发起|组建|研发|研制|开发|设计|建造|制造)的",
                        clause.text)
        if made is not None:
            # 由比亚迪和丰田汽车共同出资设立的比亚迪丰田…公司于2020年…: the name after the 的 is the subject, the
            # names after 由 are who made it; 由…研制的变电站巡检机器人“越巡S2”: a quoted name after the noun of
            # its kind
            return next((m for m in clause.mentions if m.start == clause.start + made.end()), None) or next(
                (m for m in clause.mentions if m.kind == "quote" and re.fullmatch(
                    r"[\u4e00-\u9fff]{1,10}[“\"「『]|\d[\d.]*[\u4e00-\u9fff]{2,12}[“\"「『]",
                    text[clause.start + made.end():m.start])), None)  # (由…建造的21万吨级散货船“明洲远航”轮)
        where = re.match(r"\s*(?:(?:位于|地处|坐落于|坐落在)[^，。；]{2,20}?|在[^，。；]{2,20}?(?:上市|挂牌))的",
                         clause.text)
        if where is not None:
            # 位于江西省九江市的庐山美术馆由…设计: the name after the 的 is the subject, not the place it is in
            # (在香港联合交易所上市的粤湾物业…宣布…收购: not the exchange it is listed on)
            named = next((m for m in clause.mentions if m.start == clause.start + where.end()), None)
            if named is not None:
                return named
        built = next((m for m in clause.mentions if m.kind == "quote"), None)
        if built is not None and _BUILT_KIND_BEFORE.fullmatch(text, clause.start, built.start - 1 + 1):
            return built
        for m in clause.mentions:
            if self._date(m) or (self._place(m) and text[m.start - 1:m.start] == "在"):
                continue  # 1993年在深圳创办…: where it happened, not who did it
            if self._org(m) and text[m.start - 1:m.start] == "在" and _CAREER_AT.match(text, m.end):
                continue  # 2010年在北京航空航天大学获得博士学位: where the sentence's person studied, not who
            if not _LEAD_IN.match(text[clause.start:m.start]):
                return None
            # 美国艺电公司宣布…收购…: the country says where the company is; the company is the subject
            return next((x for x in clause.mentions if x.start == m.end and self._org(x)), m) \
                if self._place(m) and m.spg_class in self.is_country else m
        return None

    def _sentence(self, text: str, start: int, end: int, clauses: list[_Clause], inside: list[Mention],
                  chunk_org: Mention | None, topic: Mention | None, orgs: list[Mention],
                  parties: list[Mention], works: list[Mention]) -> list[OpenFact]:
        out: list[OpenFact] = []
        dates = [m for m in inside if self._date(m)]
        lead_date = dates[0] if dates and _LEAD_IN.match(text[start:dates[0].start]) else None
        sentence_subject: Mention | None = None
        last_metric: OpenFact | None = None
        made_thing: Mention | None = None  # what the last clause said was made by someone named after 由
        for clause in clauses:
            if re.match(r"\s*(?:据|根据|援引)", clause.text):
                continue  # 据新华社报道: the source of the news, not what it is about
            # a report's 公司 points back: at the chunk's company where it was named by the end of this clause, else
            # at a company named before (…拥有授权专利213项。2024年度公司研发投入…。黄卓然此前曾任丰禾饲料集团有限公司
            # 副总裁: 公司 is not 丰禾, named only later)
            topic_org = chunk_org if chunk_org is None or chunk_org.start < clause.end else next(
                (m for m in orgs if self._company(m) and m.end <= clause.start), None)
            own = self._own_subject(clause, text)
            if own is not None and (child_at := _CHILD_AFTER.match(text, own.end)) is not None:
                # 中国石油…集团有限公司的全资子公司中国石油国际…有限公司总部设在北京: the subsidiary is the subject;
                # where its name was not found (小米集团旗下的小米汽车…位于…), the clause says nothing of the parent
                own = next((x for x in clause.mentions if x.start == child_at.end()), None)
                if own is None:
                    continue
            if own is None and (its := _ITS_WORK.match(clause.text)) is not None:
                # 其代表著作《合成纤维结构与性能》于1988年由…出版: the work is the clause's subject, and the person the
                # chunk is about (其) wrote it
                work = next((x for x in clause.mentions if x.kind in ("quote", "title")
                             and x.start in (clause.start + its.end(), clause.start + its.end() + 1)), None)
                maker = topic if self._person(topic) else next(
                    (x for x in reversed(inside) if self._person(x) and x.end <= clause.start), None)
                if work is not None and maker is not None:
                    out.append(OpenFact(work, "createdBy", maker, said=its.group("kind")))
                    own = work
            if own is None and (kind := _KIND_POINTER.match(clause.text)) is not None:
                ending = ("校", "学") if kind.group(1) == "校" else (kind.group(1),)
                own = self._pointed_at("该", [m for m in orgs if m.name.endswith(ending)], clause.start)
            if own is None and (pointed := _POINTER.match(clause.text)) is not None:
                # 前者 / 后者 point at the last two names listed together before (邵明川与总经理任晓东, A和B两家),
                # people or organisations; else at the organisations named last
                pair = next(((a, b) for a, b in reversed(list(pairwise([x for x in parties if x.end <= clause.start])))
                             if self._person(a) == self._person(b) and a.name != b.name
                             and re.fullmatch(r"[、和与及][\u4e00-\u9fff]{0,6}", text[a.end:b.start])), None)
                if pair is not None and not pointed.group(1).startswith("该"):
                    own = pair[0] if pointed.group(1) == "前者" else pair[1]
                else:
                    own = self._pointed_at(pointed.group(1), orgs, clause.start)
                if own is None:
                    continue  # 后者…: the clause speaks of a name not found, and of nothing else
            if own is None and (ref := _REFERENCE.match(text[clause.start:clause.end].lstrip())) is not None:
                # 学校 / 该校 is the chunk's school; 公司, 本行, 其… its company
                own = next((m for m in orgs if m.spg_class in self.is_edu), None) if ref.group(0).endswith("校") \
                    else topic_org
                if ref.group(0) in ("该公司", "该集团") and topic_org is not None:
                    # 甲公司收购了乙公司。该公司于2010年…上市: 该公司 is the company named last before, 公司 the
                    # report's
                    # (该公司成为桂垣糖业的全资子公司: not a company the clause names itself)
                    own = self._pointed_at("该", [m for m in orgs if self._company(m) and all(
                        m.name != x.name for x in clause.mentions)], clause.start) or topic_org
                if own is None and ref.group(0) != "其":
                    # 公司与清华大学…共建: a report's 公司 with no name in the chunk names nothing; what the clause says
                    # of it is dropped, what it says of the names in it stays (公司自主研发的“穗丰”…荣获…)
                    own = Mention(ref.group(0), "", clause.start, clause.start, ref.group(0), kind="unnamed")
            lead = own or (topic if sentence_subject is None else None)
            if lead is not None and self._person(lead) and lead in clause.mentions:
                # 作家林晚秋的长篇小说《雾港》于2023年…出版，…获得…: the work the person's 的 leads to is what the
                # sentence is about
                own = next((x for x in clause.mentions if x.kind in ("quote", "title") and x.start > lead.end
                            and _WORK_OF.fullmatch(text[lead.end:x.start - 1])), None) or own
            if own is None and _WORK_REFERENCE.match(clause.text):
                # 恒瑞医药的创新药“瑞维鲁胺”…，该药由…自主研发: the work named before is the clause's subject, in this
                # sentence or an earlier one of the chunk (…发布重型卡车“驰骋H8”。该车由…研制)
                own = next((x for x in reversed(works) if x.end <= clause.start), None)
            if made_thing is not None and (nxt := _NEXT_MAKER.fullmatch(clause.text)) is not None:
                # 由宛澜置业有限公司开发，华岳建筑设计院有限公司设计，豫建第三工程有限公司承建: each clause names one
                # more maker of the thing the first one's subject is
                maker = next((x for x in clause.mentions if self._org(x) or self._person(x)), None)
                if maker is not None and maker.start == clause.start + nxt.start("maker"):
                    out.append(OpenFact(made_thing, "createdBy", maker, said=clause.text.strip()[-2:]))
                    continue
            subject = own or sentence_subject or topic
            if sentence_subject is None and own is not None:
                sentence_subject = own
            if subject is None:
                continue
            # a period stated earlier in the sentence holds for its later clauses (2022年实现营收…，净利润…)
            clause_date = next((m for m in clause.mentions if self._date(m)), None) or lead_date or next(
                (m for m in reversed(dates) if m.end <= clause.start), None)
            new = self._clause(text, clause, subject, clause_date, inside, topic_org, end, orgs)
            out += new
            made_thing = next((f.subject for f in new if f.predicate == "createdBy" and f.subject is subject
                               and _BY_OPENS.match(clause.text)), None)
            # a figure belongs to the organisation the clause or sentence is about, or (公司, no name) the chunk's
            # 2023年广东省地区生产总值达到13.57万亿元: a region's or a city's figures are stated the same way
            if own is not None:
                # a region's own figure follows its name (广东省地区生产总值), no other name between
                right_after = not any(own.end <= x.start and not self._date(x) for x in clause.mentions)
                metric_subject = own if self._org(own) or (self._region(own) and right_after) else None
            elif (unnamed := _UNNAMED_TOPIC.match(text, start)) is not None:
                # 该项目由…负责设计，总投资约28亿元: the project's figures, and it has no name; 该馆 after 庐山美术馆 is
                # that museum
                metric_subject = next((o for o in reversed(orgs) if o.end <= start
                                       and o.name.endswith(unnamed.group("noun"))), None)
            elif sentence_subject is not None:
                metric_subject = sentence_subject if self._org(sentence_subject) else None
            else:
                metric_subject = topic_org
            if own is None and re.match(r"\s*注册资本", clause.text):
                # 新设全资子公司X，注册资本为5,000万元: a registered capital is the company's named last before
                last = self._last_org(inside, clause.start)
                opened = max(text.rfind(e, 0, clause.start) for e in "。！？\n") + 1
                if last is not None and re.search(r"由[^，。；的]*$", text[opened:last.start]):
                    last = None  # …由A与B于2021年共同出资设立，注册资本10亿元: a founder after 由 is not the company
                metric_subject = last or metric_subject
            last_metric = self._figures(text, clause, metric_subject, clause_date, out, last_metric)
        out += self._places_in_a_row(text, inside, out)
        return out

    # ------------------------------------------------------------------ clause patterns

    def _after(self, clause: _Clause, pos: int) -> list[Mention]:
        return [m for m in clause.mentions if m.start >= pos]

    def _clause(self, text: str, clause: _Clause, subject: Mention, when: Mention | None, sentence: list[Mention],
                topic_org: Mention | None, sentence_end: int, orgs: list[Mention]) -> list[OpenFact]:
        c, cs = clause.text, clause.start
        out: list[OpenFact] = []
        timed = [("时间", when)] if when is not None else []
        self._kind_of(text, clause, subject)

        def add(s: Mention | None, p: str, o: Mention | None,
                qualifiers: list[tuple[str, Mention]] | None = None) -> None:
            if s is not None and o is not None and s.name != o.name and not _same_company(s.name, o.name) \
                    and not (p in _BETWEEN_PARTIES and (self._where_or_when(s) or self._where_or_when(o))) \
                    and not (p in ("locatedIn", "headquarteredIn") and self._larger(s, o)) \
                    and "unnamed" not in (s.kind, o.kind):
                words = re.search(_SAID[p], c) if p in _SAID else None
                out.append(OpenFact(s, p, o, list(qualifiers or []), words.group(0) if words else ""))

        def place_at(pos: int) -> Mention | None:
            """The most specific place of the run of places starting at `pos` (浙江省宁波市 -> 宁波市)."""
            run = [m for m in self._after(clause, pos) if self._place(m)]
            if not run or run[0].start - pos > 1:
                return None
            last = run[0]
            for m in run[1:]:
                if m.start == last.end:
                    last = m
            return last

        if (m := re.search(r"(?:成立|创立|创建|组建|建立|始建|设立|建校|创刊|注册成立)(?:于|在)", c)) is not None:
            date = next((x for x in self._after(clause, cs + m.end()) if self._date(x)), None)
            # 其前身是创建于1902年的三江师范学堂: what the date is of is the name after 的
            founded = next((x for x in clause.mentions if date is not None and x.start == date.end + 1
                            and text[date.end] == "的" and self._org(x)), None)
            if founded is not None:
                add(founded, "foundedOn", date)
            elif date is not None and not self._person(subject):
                add(subject, "foundedOn", date)
        elif (m := re.search(r"于(\S{4,20}?)(?:正式)?(?:注册)?(?:成立|创立|创建|设立)", c)) is not None:
            date = next((x for x in clause.mentions if self._date(x) and x.start >= cs + m.start()), None)
            if date is not None and not self._person(subject):
                add(subject, "foundedOn", date)
        opened = re.search(r"(?:于)?(?P<date>\d{4}年[\d月日]*|\d{1,2}月\d{1,2}日)?(?:正式)?(?:揭牌)?"
                           r"(?:成立|建成开放|建成|落成|开馆|开业|对外开放)[\s。！？]*$", c)
        if opened is not None and not self._person(subject) and not self._date(subject) and not self._place(subject):
            # 2019年10月建成开放 (the building the sentence is about), …研究院正式揭牌成立 (on the sentence's date):
            # a clause that is only its subject, a date and the opening
            rest = c[:opened.start()] if subject.start < cs or subject.end > cs + opened.start() \
                else text[subject.end:cs + opened.start()]
            date = next((x for x in clause.mentions if self._date(x) and x.start >= cs + opened.start()), None) \
                if opened.group("date") else when
            if rest.strip() == "" and date is not None:
                add(subject, "foundedOn", date)
        m = re.search(r"(?:创办|创立|创建|创设|发起成立|组建)(?:了)?", c)
        founder = self._actor(text, clause, subject, sentence, cs + m.start()) if m is not None else None
        if m is not None and founder is not None:
            org = next((x for x in self._after(clause, cs + m.end()) if self._org(x)), None)
            if re.match(r"该(?:公司|企业|集团)", c[m.end():]):
                # 韦晗…，2018年在德阳创办该公司: the company named last before (not a school or an institute)
                org = next((x for x in reversed(orgs) if x.end <= cs + m.start() and self._org(x)
                            and self._company(x)), None)
            place = next((x for x in clause.mentions if self._place(x) and x.end <= cs + m.start()
                          and text[x.start - 1:x.start] == "在"), None)
            add(org, "foundedBy", founder, timed + ([("地点", place)] if place else []))
        # (the founders' full names may be long: 由甘肃河西农垦投资集团有限公司与张掖市祁连农业发展有限公司共同发起设立)
        m = re.search(r"由([^，。；]{1,64}?)(?:共同|联合)?(?:出资)?(?:创办|创立|创建|发起|组建|设立|新设)(?:的)?", c)
        if m is not None:
            # 由严修和张伯苓于1919年创办: every founder listed; 由A和B共同出资设立的X: X is what they founded
            # 由暨南大学毕业的赖宗翰于2015年…创办: what is said of the founder before 的 names no founder
            described = re.match(r"[\u4e00-\u9fff]{1,10}的", m.group(1))
            founders = self._listed(clause, cs + m.start(1) + (described.end() if described else -1),
                                    lambda x: self._person(x) or self._org(x))
            # 由中国科学技术大学教授程嘉树…创办: the founder is the person after the school and the post
            founders = [next((p for p in clause.mentions if self._person(p) and p.start > x.end
                              and _POST_BETWEEN.fullmatch(text[x.end:p.start])), x) for x in founders]
            founded = next((x for x in clause.mentions if x.start == cs + m.end() and self._org(x)), None) \
                if m.group(0).endswith("的") else subject
            # 由宜宾县曲酒厂改制设立: what was reorganised into the subject is its predecessor, not its founder
            reorganised = re.search(r"(?:改制|改组|整体变更|变更)$", m.group(1)) is not None
            for founder in founders:
                if founded is not None and cs + m.start() <= founded.start < cs + m.end():
                    break  # 由中国科学技术大学教授钱牧之创办 with no subject found: the school founded nothing
                add(founded, "predecessor" if reorganised else "foundedBy", founder, [] if reorganised else timed)
            # 由贺启明、任佩瑶夫妇于2009年在浙江省宁波市创办 / 后者由公司于2023年8月在上饶市新设: the date and the place
            # inside the passive are when it was founded and where it is
            inner = [x for x in clause.mentions if cs + m.start(1) <= x.start and x.end <= cs + m.end(1)]
            date = next((x for x in inner if self._date(x) and text[x.start - 1:x.start] == "于"), None)
            place = next((x for x in inner if self._place(x) and text[x.start - 1:x.start] == "在"), None)
            # (后者由公司于…在上饶市新设: the report's company set it up; it is its subsidiary, not its founder)
            if founded is not None and not reorganised and (founders or re.match(r"(?:本公司|公司|集团|本集团)",
                                                                                 m.group(1))):
                add(founded, "foundedOn", date)
                add(founded, "locatedIn", place_at(place.start) if place is not None else None)
        if (m := re.search(r"(?:是|为|系)?(?:由)?(.{2,24}?)(?:直属|主管|下属)的", c)) is not None:
            # 是教育部直属的重点大学: the body the subject belongs to
            owner = next((x for x in clause.mentions if x.end == cs + m.end(1) and self._org(x)), None)
            # (国网浙江省电力有限公司下属的12座变电站: a count after 的 says what it has, not what the subject is)
            counted = re.match(r"\s*[\d一二三四五六七八九十两几多数各]", c[m.end():]) is not None
            if owner is not None and not self._person(subject) and not counted:
                add(subject, "partOf", owner)
        for m in re.finditer(r"(?:联合)?(?:创始人|创办人)", c):
            before = [x for x in clause.mentions if x.end in (cs + m.start(), cs + m.start() - 1) and self._org(x)]
            # 创始人为罗绍堂: the founder may be said with 为 / 是 before the name
            said_as = re.match(r"(?:为|是)", text[cs + m.end():])
            after_titles = _TITLE_RUN.match(text, cs + m.end() + (said_as.end() if said_as else 0)).end()  # type: ignore[union-attr]
            after = [x for x in clause.mentions if x.start == after_titles and self._person(x)]
            if after:
                add(before[0] if before else subject if self._org(subject) else None, "foundedBy", after[0])
        if (m := re.search(r"总部(?:均|也|都)?(?:位于|设在|设于|在|坐落于)", c)) is not None:
            place = place_at(cs + m.end())
            if place is not None:
                nxt = self._described_after(text, clause, place)
                add(nxt if nxt is not None and self._org(nxt) else subject, "headquarteredIn", place)
        elif (m := re.search(r"(?:位于|地处|坐落于|坐落在)", c)) is not None:
            place = place_at(cs + m.end())
            if place is not None:
                nxt = self._described_after(text, clause, place)
                # 星海影业有限公司和星海音乐有限公司均位于…: the names listed right before the verb
                located = [nxt] if nxt is not None else self._listed_before(
                    clause, cs + m.start(), lambda x: not self._date(x) and not self._person(x)) or (
                    [subject] if subject.start < cs + m.start() else [])  # (鼓浪屿 | 位于福建省…: not 福建省)
                places = self._listed(clause, place.start, self._place)
                if c[:m.start()].endswith("分别") and len(located) == len(places) > 1:
                    for x, where in zip(located, places, strict=True):  # A和B分别位于P和Q: A in P, B in Q
                        add(x, "locatedIn", where)
                    located = []
                for x in located:
                    add(x, "locatedIn", place)
        if (m := re.search(r"(?:出生于|生于|出生在|诞生于|出生)", c)) is not None and self._person(subject):
            born = [x for x in clause.mentions if self._date(x) and x.end <= cs + m.start()]
            if born:
                add(subject, "bornOn", born[-1])
            place = place_at(cs + m.end())
            add(subject, "bornIn", place)
        elif re.fullmatch(r"\s*\d{4}年(?:\d{1,2}月(?:\d{1,2}日)?)?生人?\s*", c) and self._person(subject):
            # 鲁望舒，1972年生，经济学博士: a bio's year of birth written with 生 alone
            add(subject, "bornOn", next((x for x in clause.mentions if self._date(x)), None))
        degree = re.search(r"(?:获|获得|取得)(?P<school>[\u4e00-\u9fff]{2,20}?)(?:[\u4e00-\u9fff]{0,8}?)"
                           r"(?:学士|硕士|博士)学位", c)
        degree_at = re.search(r"在(?P<school>[\u4e00-\u9fff]{2,20}?)(?:获得|获|取得)[\u4e00-\u9fff]{0,8}?"
                              r"(?:学士|硕士|博士)学位", c)
        if degree is not None and self._person(subject):
            # 2001年获北京大学法学博士学位: the school that gave the degree
            school_at = next((x for x in clause.mentions if x.spg_class in self.is_edu
                              and x.start == cs + degree.start("school")), None)
            add(subject, "educatedAt", school_at, timed)
        elif degree_at is not None and self._person(subject):
            # 2006年在英国剑桥大学获得博士学位: the school (after its country) where the degree was earned
            school_at = next((x for x in reversed(clause.mentions) if x.spg_class in self.is_edu
                              and x.end == cs + degree_at.end("school")), None)
            add(subject, "educatedAt", school_at)
        if (joined := re.search(r"(?:加入|入职|加盟)", c)) is not None and self._person(subject) \
                and not re.search(r"(?:加入|入职|加盟)[^，。；]*(?:担任|出任|任)", c):
            # 2015年加入南京大学: the person works there (the post after 加入…，担任 is read with the post)
            body = next((x for x in clause.mentions if x.start == cs + joined.end() and self._org(x)), None)
            if body is not None and (self._company(body) or body.spg_class in self.is_edu
                                     or body.name.endswith(("研究院", "研究所", "实验室"))) \
                    and not body.name.endswith(("协会", "学会", "联合会", "联盟", "党", "委员会", "商会")):
                add(subject, "worksFor", body)  # (加入中国作家协会 is membership, no employment)
        if (worked := re.search(r"在(?P<body>[^，。；]{2,30}?)(?:从事|任职|工作|担任|出任)", c)) is not None:
            # 鲍承泽此前在立信会计师事务所从事审计工作: the body a person worked in, named right after 在 (长期在X工作,
            # 此前曾在X担任技术总监: the post needs no body after it)
            worker = self._actor(text, clause, subject, sentence, cs + worked.start())
            body = next((x for x in clause.mentions if x.start == cs + worked.start("body") and self._org(x)
                         and x.end <= cs + worked.end("body")), None)
            add(worker if self._person(worker) else None, "worksFor", body)
        if (school := re.search(r"(?:毕业于|就读于|肄业于|求学于|考入|考取|进入)", c)) is not None:
            student = self._actor(text, clause, subject, sentence, cs + school.start())
            for org in self._after(clause, cs + school.end()):
                if org.spg_class in self.is_edu:
                    add(student, "educatedAt", org, timed if "毕业" in school.group(0) else [])
        elif re.match(r"\s*(?:随后|后|之后|毕业后|并)?留校(?:任教|工作|任职)", c) and self._person(subject):
            # 1953年毕业于华东纺织工学院，随后留校任教: the school graduated from, in the sentence before the clause
            school_was = next((x for x in reversed(sentence) if x.spg_class in self.is_edu and x.end <= cs
                               and re.search(r"(?:毕业于|就读于)$", text[max(0, x.start - 3):x.start])), None)
            add(subject, "worksFor", school_was)
        elif (m := re.search(r"赴(.{1,30}?)(?:学习|留学|深造|进修|访学|读书|攻读)", c)) is not None:
            student = self._actor(text, clause, subject, sentence, cs + m.start())
            for org in self._after(clause, cs + m.start()):
                if org.spg_class in self.is_edu and org.end <= cs + m.end():
                    add(student, "educatedAt", org)
        # (任 inside a person's name, 任佩瑶任副董事长, is no verb)
        if (m := next((h for h in _HOLDS_POST.finditer(c) if not any(
                x.start <= cs + h.start() < x.end for x in clause.mentions if self._person(x))), None)) is not None:
            title_at = _TITLE_IN_LIST_ORDER.search(c[m.end():])
            holder = self._actor(text, clause, subject, sentence, cs + m.start())
            if title_at is not None and holder is not None:
                orgs = [x for x in self._after(clause, cs + m.end()) if self._org(x)
                        and x.end <= cs + m.end() + title_at.start() + 1]
                ref = re.match(r"(?:该公司|公司|本公司|该集团|集团|该行)", c[m.end():])
                # 贺启明现任公司董事长: a report's 公司 is its company where the sentence named none before
                employer = orgs[0] if orgs else ((self._last_org(sentence, cs) or (
                    topic_org if not ref.group(0).startswith("该") else None)) if ref else None)
                sentence_at = max(text.rfind(e, 0, cs) for e in "。！？\n") + 1
                if employer is None and re.fullmatch(r"\s*(?:担任|出任|现任|任)", text[holder.end:cs + m.end()]) \
                        and _TITLE.match(c[m.end():]) and _COMPANY_POST.search(text[sentence_at:cs]):
                    # 贺启明现任公司董事长，任佩瑶任副董事长: a post with no body named, in a sentence of the
                    # company's posts
                    employer = topic_org
                if employer is None and self._company(subject) and subject.end <= cs and _TITLE.match(c[m.end():]) \
                        and re.search(r"宣布|公告称|发布公告", text[sentence_at:cs]) \
                        and re.match(r"\s*(?:由)?(?:[\u4e00-\u9fff]{0,8}?(?:创始人|工程师|员工))?$",
                                     text[cs:holder.start]):
                    # 蓝溟空间科技有限公司宣布，由联合创始人P出任首席执行官，前X工程师Q担任首席技术官: the posts the
                    # company announces are its own
                    employer = subject
                if employer is None and re.fullmatch(r"\s*(?:担任|出任|任)", c[:m.end()]):
                    # 李卫东加入明德新能源有限公司，担任首席财务官: the post is at the company the person joined
                    joined = re.search(r"(?:加入|入职|加盟|进入)$", text[:next(
                        (x.start for x in reversed(sentence) if x.end <= cs and self._org(x)), 0)])
                    employer = self._last_org(sentence, cs) if joined else None
                add(holder, "worksFor", employer)
        for verb_at in _JOB_VERB.finditer(c):
            # 曾任中国运载火箭技术研究院研究员, 现为龙岩学院中文系副教授: the body right after the verb employs the
            # person, when a job (not an executive post) follows it
            job_body = next((x for x in clause.mentions if x.start == cs + verb_at.end() and self._org(x)), None)
            if job_body is not None and _JOB_AFTER_BODY.match(text, job_body.end) is not None:
                job_holder = self._actor(text, clause, subject, sentence, cs + verb_at.start())
                add(job_holder if self._person(job_holder) else None, "worksFor", job_body)
        for employee in clause.mentions:
            # 前欧洲航天局工程师马蒂亚斯·贝克尔, 华西医院副主任医师P: a body, a job there, and the person holding it
            # (or who held it: 前)
            if self._person(employee):
                add(employee, "worksFor", next((x for x in clause.mentions if self._org(x) and x.end < employee.start
                                                and (job_end := _JOB_AFTER_BODY.match(text, x.end)) is not None
                                                and job_end.end() == employee.start), None))
        last_post: tuple[Mention, Mention | None] | None = None  # (person, organisation) of the title before
        for m in _TITLE.finditer(c):
            ts, te = cs + m.start(), cs + m.end()
            # 小米集团创始人、董事长雷军: the titles of a run are all the person's after it, all the company's before it
            te = _TITLE_RUN.match(text, te).end()  # type: ignore[union-attr]
            ts -= len(_TITLE_RUN_BEFORE.search(text[cs:ts]).group(0))  # type: ignore[union-attr]
            person = next((x for x in clause.mentions if x.start in (te, te + 1) and self._person(x)
                           and text[te:x.start] in ("", "为")), None)  # 董事长为钱志远
            if person is None or m.group(0) in ("创始人", "联合创始人"):
                continue  # 小米集团创始人雷军: founding it (foundedBy, below) says nothing of working there now
            org = next((x for x in clause.mentions if x.end in (ts, ts - 1) and self._org(x)), None)
            # 公司董事长兼总经理为周明华: titles joined by 兼 after 公司 are all the company's
            if org is None and _COMPANY_TITLES_BEFORE.search(text[cs:ts]):
                org = topic_org
            if org is None:  # 星河智能轮值董事长: a modifier between the name and the title
                org = next((x for x in clause.mentions if self._org(x) and 0 < ts - x.end <= 2), None)
            if org is None and self._org(subject) and _LEAD_IN.match(text[cs:ts]) and not any(
                    x.end <= ts and not self._date(x) for x in clause.mentions):
                # a clause that opens with the title (…荣获…称号，董事长陈思远获评…; 公司董事长为钱志远，总经理为
                # 何建平) speaks of the organisation the sentence is about; 原总经理 (a former one) does not open so
                org = subject
            if org is None and last_post is not None and text[last_post[0].end:ts] in ("、", "和", "及", "以及"):
                org = last_post[1]  # 蓝鲸物流集团董事长王海涛、总裁李静: the titles of one list are one company's
            add(person, "worksFor", org)
            last_post = (person, org)
        if (m := re.search(r"向(.{2,30}?)(?:出售|转让)(?:了)?", c)) is not None:
            # 公司向X出售了所持有的Y全部股权: X buys Y
            buyer_to = next((x for x in self._after(clause, cs + m.start(1)) if self._org(x)
                             and x.end <= cs + m.end(1)), None)
            sold = next((x for x in self._after(clause, cs + m.end()) if self._org(x)), None)
            if buyer_to is not None and sold is not None:
                add(buyer_to, "acquire", sold, timed)
        for m in re.finditer(r"(?:教授|副教授|研究馆员|研究员|副研究员|馆员|讲师|主任医师|副主任医师|主治医师|医师|"
                             r"总理|副总理|总统|副总统|首相|市长|省长)", c):
            # 清华大学教授薛其坤, 湖北省博物馆研究馆员宋维泽: a school's, an institute's or a museum's teacher or
            # researcher works there
            ts, te = cs + m.start(), cs + m.end()
            teacher = next((x for x in clause.mentions if x.start == te and self._person(x)), None)
            add(teacher, "worksFor", next((x for x in clause.mentions if _next_to(text, x, ts) and (
                x.spg_class in self.is_edu or x.name.endswith(("研究院", "研究所", "博物馆", "图书馆", "美术馆",
                                                               "档案馆", "纪念馆", "医院")) or (
                    m.group(0) in ("总理", "副总理", "总统", "副总统", "首相", "市长", "省长")
                    and self._org(x)))), None))  # 国务院总理李强
        for m in re.finditer(r"(?:博士研究生|硕士研究生|研究生|博士生|硕士生|本科生|在读博士)", c):
            # 南京大学博士研究生邬星辰: a school's student studies there
            ts, te = cs + m.start(), cs + m.end()
            student = next((x for x in clause.mentions if x.start == te and self._person(x)), None)
            add(student, "educatedAt", next((x for x in clause.mentions if _next_to(text, x, ts)
                                             and x.spg_class in self.is_edu), None))
        if (m := re.search(r"对(.{2,30}?)(?:的|进行)(?:收购|并购)", c)) is not None or \
                (m := re.search(r"(?:收购|并购|兼并|购入|购买)(?:了)?", c)) is not None:
            target = next((x for x in self._after(clause, cs + (m.start(1) if m.lastindex else m.end()))
                           if self._org(x) or x.kind in ("quote", "title")), None)
            buyer: Mention | None = subject
            # 监管总局批准了晨光乳业有限公司对北方牧场…的收购: the buyer is the name right before 对
            before_dui = next((x for x in clause.mentions if m.lastindex and x.end == cs + m.start()
                               and self._org(x)), None)
            if before_dui is not None:
                buyer = before_dui
            elif not (self._org(subject) or self._person(subject)):
                # 德国汽车零部件供应商博世集团宣布，将以…收购…: a country or a place buys nothing; the organisation
                # the sentence named before does
                buyer = self._last_org(sentence, cs)
            if target is not None and buyer is not None and target.name != buyer.name:
                quals = list(timed)
                paid = re.search(r"以(?:约)?(\S{1,14}?)(?:的价格|的对价)?(?:现金)?收购", c)
                amount = next((v for v in clause.values
                               if paid and cs + paid.start(1) <= v.start < cs + paid.end(1)), None)
                amount = amount or self._value_after(text, clause.start, sentence_end,
                                                     r"(?:交易)?(?:金额|对价|价格)(?:约|约为|为|达|共计)*")
                if amount is not None:
                    quals.append(("金额", self._value(amount)))
                share = re.search(r"(\d+(?:\.\d+)?%)的(?:股权|股份)", text[target.end:target.end + 14])
                if share is not None:
                    pos = target.end + share.start(1)
                    quals.append(("比例", Mention(share.group(1), self.fallback, pos, pos + len(share.group(1)),
                                                 share.group(1), kind="value")))
                add(buyer, "acquire", target, quals)
                targets = self._listed(clause, target.start, lambda x: self._org(x) or x.kind in ("quote", "title"))
                for more in targets[1:]:
                    add(buyer, "acquire", more, timed)  # 先后收购了A和B
        if (m := _PASSIVE.search(c)) is not None and not self._person(subject) and not self._date(subject):
            agent = next((x for x in self._after(clause, cs + m.start("agent")) if (self._org(x) or self._person(x))
                          and x.end <= cs + m.end("agent")), None)
            if agent is not None and subject.start < cs + m.start() and agent is not subject:
                passive_quals = list(timed)
                price = next((v for v in clause.values if cs + m.end("agent") <= v.start < cs + m.start("verb")), None)
                if price is not None and m.group("verb") in ("收购", "并购", "兼并"):
                    passive_quals.append(("金额", self._value(price)))
                add(agent, "acquire" if m.group("verb") in ("收购", "并购", "兼并") else "release", subject,
                    passive_quals)
        # (印发, 颁布: a government body issues a document)
        m = re.search(r"(?:发布|推出|上线|发行|首发|印发|颁布)(?!会)", c)  # 发布会 is the event, not a release
        if m is not None:
            product = next((x for x in self._after(clause, cs + m.end())
                            if x.kind in ("quote", "title") or (not self._org(x) and not self._person(x)
                                                                and not self._place(x) and not self._date(x))), None)
            place = next((x for x in clause.mentions if self._place(x) and x.end <= cs + m.start()
                          and text[x.start - 1:x.start] == "在"), None)
            makers = self._listed_before(clause, cs + m.start(), self._org)
            maker_said = re.search(r"由(.{2,30}?)(?:研制|研发|开发|设计|制造)的", c[:m.start()])
            if product is None and maker_said is not None and subject.kind in ("quote", "title") \
                    and cs <= subject.start and subject.end <= cs + m.start():
                # 由浙江越衡机器人有限公司研制的…“越巡S2”在杭州正式发布: the maker releases the work the clause
                # opens with
                maker = next((x for x in clause.mentions if self._org(x) and cs + maker_said.start(1) <= x.start
                              and x.end <= cs + maker_said.end(1)), None)
                add(maker, "release", subject, timed + ([("地点", place)] if place else []))
            if product is not None and not self._person(subject):
                for one in makers if len(makers) > 1 else [subject]:  # A、B和C在北京联合发布: each of them
                    add(one, "release", product, timed + ([("地点", place)] if place else []))
                if product.kind in ("quote", "title"):  # 发布了…“开拓者Ⅱ号”和…掘进机“穿山甲”: every listed one
                    for more in self._listed(clause, product.start, lambda x: x.kind in ("quote", "title"),
                                             loose=True)[1:]:
                        add(subject, "release", more, timed + ([("地点", place)] if place else []))
        # (设计 inside a maker's name, 上海船舶研究设计院, is no verb)
        if (m := _BUILT_BY.search(c)) is not None:
            # 由中国船舶集团有限公司旗下的上海外高桥造船有限公司建造: the last name before the verb made it
            makers = [x for x in self._after(clause, cs + m.start()) if (self._person(x) or self._org(x))
                      and x.end <= cs + m.end(1)]
            maker = makers[-1] if makers and re.search(r"(?:旗下|下属|子公司)的?$", text[
                makers[0].end:makers[-1].start]) else (makers[0] if makers else None)
            if len(makers) >= 2 and self._cut_apart(text, makers[0], makers[1]):
                maker = None  # 中国科学院 | 大连 | 化学物理研究所: one name cut in two, neither part is the maker
            if not self._person(subject) and (not self._org(subject) or subject.spg_class not in self.is_org):
                # 庐山美术馆由建筑师顾承泽设计: a building is made too; 由…研发的“星图一号”于8月3日发射: the date is
                # the launch's, not the making's
                made_quals = [] if c[m.end():m.end() + 1] == "的" else timed
                add(subject, "createdBy", maker, made_quals)
                if makers and maker is makers[0]:
                    # 该车由绵驰汽车与西南科技大学共同研制: every maker listed after 由 made it
                    for one, next_one in pairwise(makers):
                        if not re.fullmatch(r"[、和与及]|以及", text[one.end:next_one.start]):
                            break
                        add(subject, "createdBy", next_one, made_quals)
                if topic_org is not None and re.match(r"(?:本公司|公司)(?:与|和|、|及)", m.group(1)):
                    # 该产品由公司与太原理工大学合作研发: a report's 公司 made it too
                    add(subject, "createdBy", topic_org, made_quals)
        if (m := _SHIP_OWNER.search(c)) is not None and not self._person(subject) and not self._org(subject):
            # …散货船“明洲远航”轮在舟山交付，船东为香港明洲航运有限公司: the ship's owner
            add(subject, "ownedBy", next((x for x in self._after(clause, cs + m.end()) if self._org(x)
                                          and x.start == cs + m.end()), None), timed)
        if (m := _OWNED_AS.search(c)) is not None and not self._person(subject):
            # “桂海明珠”轮归桂海航运所有: the owner of the thing the clause is about
            add(subject, "ownedBy", next((x for x in self._after(clause, cs + m.start(1)) if (
                self._org(x) or self._person(x)) and x.end <= cs + m.end(1)), None), timed)
        if (m := re.search(r"(?:根据|依据|基于)(.{2,40}?)(?:设计|研制|建造|开发)(?:了|出)?", c)) is not None:
            source = next((x for x in self._after(clause, cs + m.start()) if x.kind in ("title", "quote")
                           and x.end <= cs + m.end(1)), None)
            made = next((x for x in self._after(clause, cs + m.end()) if not self._date(x)), None)
            if made is not None and source is not None:
                add(made, "basedOn", source)
                if self._person(subject):
                    add(made, "createdBy", subject)
        if (m := re.search(r"由(.{2,24}?)(?:出版|发行|出品)", c)) is not None:
            publisher = next((x for x in self._after(clause, cs + m.start()) if self._org(x)), None)
            # 《雪线以北》由北国影业出品: the work the clause opens with, whatever the sentence was about before
            work = next((x for x in clause.mentions if x.kind in ("title", "quote") and x.end <= cs + m.start()
                         and re.fullmatch(r"\s*[《“\"「]?", text[cs:x.start]) is not None), None)
            add(work or subject, "publishedBy", publisher, timed)
        if (m := re.search(r"(?:创作|撰写|所著|编著|编写|写作|执导|作曲|主演|著)的?", c)) is not None:
            person = next((x for x in clause.mentions if self._person(x) and x.end <= cs + m.start()), None)
            work = subject if subject.kind in ("title", "quote") else next(
                (x for x in clause.mentions if x.kind in ("title", "quote")), None)
            if person is None and m.group(0) == "主演":
                # 主演苗若兰凭借该片…: the cast named after the word, of the work the sentence named before
                person = next((x for x in clause.mentions if self._person(x) and x.start == cs + m.end()), None)
                work = work or next((x for x in reversed(sentence) if x.kind in ("title", "quote") and x.end <= cs),
                                    None)
            if person is not None and work is not None:
                # a film's director and cast are its own relations (the schema's directedBy, performedBy)
                add(work, _MAKER.get(m.group(0).rstrip("的"), "createdBy"), person)
        m = re.search(r"(?:凭借|凭|以)(?:其)?(?:[^，。；《“]{0,8}?)[《“]", c)
        if m is not None and self._person(subject):
            # 作家莫言凭借长篇小说《蛙》获得…: the work a person wins with is the person's
            work = next((x for x in self._after(clause, cs + m.start()) if x.kind in ("title", "quote")), None)
            if work is not None and work.start == cs + m.end():
                add(work, "createdBy", subject)
        m = re.search(r"(?:著有|创作了|写了|撰写了|出版了|代表作(?:有|为|是|包括)?)", c)
        if m is not None and self._person(subject):
            for work in self._after(clause, cs + m.end()):
                if work.kind in ("title", "quote"):
                    add(work, "createdBy", subject, timed)
        if (m := re.search(r"(?:自主)?(?:研发|研制|开发|设计)的", c)) is not None:
            product = next((x for x in self._after(clause, cs + m.end()) if x.kind in ("quote", "title")), None)
            # 中国民用航空局为翔云航空工业有限公司研制的“翔云AG50”颁发…: the name right before the verb made it, not
            # the clause's subject
            made_by = next((x for x in clause.mentions if x.end == cs + m.start() and self._org(x)), None)
            # (中国科学院大连化学物理研究所研发的: a name cut in two made it; neither part did)
            if made_by is None or not any(self._org(x) and self._cut_apart(text, x, made_by) for x in clause.mentions):
                add(product, "createdBy", made_by or (subject if self._org(subject) else None))
        # (公司被工业和信息化部评为“国家级绿色工厂”: the body between 被 and 评为 confers it, the subject receives it)
        if (m := re.search(r"(?:获得|荣获|获评|获|斩获|摘得|赢得|被授予|获颁|被[^，。；“”]{0,20}?评为)(?:了)?", c)) \
                is not None:
            holder = next((x for x in reversed(clause.mentions) if x.end <= cs + m.start()
                           and x.kind in ("quote", "title", "person")), None) or subject
            # 恒信钢铁集团和东方电气集团荣获…: every name listed right before the verb
            holders = self._listed_before(clause, cs + m.start(), lambda x: x.kind in ("quote", "title", "person")
                                          or self._org(x))
            for award in self._after(clause, cs + m.end()):
                if award.kind == "award" or award.spg_class in self.is_award:
                    for h in holders if len(holders) > 1 else [holder]:
                        add(h, "awardReceived", award, timed)
        if (m := re.search(r"(?:等[一二三四五六七八九十百\d]*[人位部名项]?)?(?:获奖|摘奖)", c)) is not None:
            # 第四届汀洲散文奖…揭晓，作家阮栖迟的散文集《汀水谣》获奖; …董事长卞如海、…创始人尤佩兰等十人获奖: the prize
            # the sentence named before wins the work right before the verb, else every person of the clause
            prize = next((x for x in reversed(sentence) if x.end <= cs + m.start()
                          and (x.kind == "award" or x.spg_class in self.is_award)), None)
            work = next((x for x in clause.mentions if x.kind in ("title", "quote")
                         and re.fullmatch(r"[》”」』\"]?", text[x.end:cs + m.start()])), None)
            for h in [work] if work is not None else [x for x in clause.mentions if self._person(x)
                                                       and x.end <= cs + m.start()]:
                add(h, "awardReceived", prize, timed)
        if (m := re.search(r"(?:发行商|发行方|出版方|出版社|出品方|出品公司)(?:为|是)", c)) is not None:
            # 单机游戏《墨川行》于7月20日正式发售，发行商为上海橙盏文化传播有限公司: the publisher of the work the
            # sentence named before
            work = next((x for x in reversed(sentence) if x.kind in ("title", "quote") and x.end <= cs + m.start()),
                        None)
            add(work, "publishedBy", next((x for x in clause.mentions if x.start == cs + m.end() and self._org(x)),
                                          None))
        for x in clause.mentions:
            # 宁海县人民政府县长蒋立新: the head of a place works for its government named right before the post (a
            # place itself, 池州市市长, is no party to a relation between parties)
            head = _PLACE_HEAD.search(text, 0, x.start) if self._person(x) else None
            if head is not None:
                add(x, "worksFor", next((y for y in clause.mentions if y.end == head.start() and self._org(y)
                                         and y.name.endswith("政府")), None))
        for x in clause.mentions:  # 作家林晚秋的长篇小说《雾港》, 恒瑞医药的创新药“瑞维鲁胺”: whose work it is
            work = next((w for w in clause.mentions if w.kind in ("quote", "title") and w.start > x.end
                         and _WORK_OF.fullmatch(text[x.end:w.start - 1])), None)
            if work is not None and (self._person(x) or self._org(x)):
                add(work, "createdBy", x)
        if self._org(subject) and (m := re.search(r"(?:批准|核准)了?", c)) is not None and "获" not in c[:m.start()] \
                and subject.end <= cs + m.start():
            # 国家药品监督管理局近日批准了…“瑞维鲁胺”上市: the body approves the work named after the verb
            work = next((x for x in self._after(clause, cs + m.end()) if x.kind in ("quote", "title")), None)
            add(work, "approvedBy", subject)
        if (m := re.search(r"(?:获得|经|获)(.{2,24}?)(?:的)?(?:批准|核准|批复|许可|认证)", c)) is not None:
            body = next((x for x in self._after(clause, cs + m.start()) if self._org(x)
                         and x.end <= cs + m.end()), None)
            approved = next((x for x in clause.mentions if x.kind in ("quote", "title") and x.end <= cs + m.start()),
                            None)
            if approved is None and re.match(r"\s*该(?:药|药品|新药|产品|疫苗|器械|车型|系统|软件|平台|书|作品)", c):
                # 华辰医药发布…新药“华替尼”，该药已于…获得国家药品监督管理局批准: the work named before, not the company
                approved = next((x for x in reversed(sentence) if x.kind in ("quote", "title") and x.end <= cs), None)
                if approved is None:
                    body = None  # what 该药 refers to is not named: say nothing rather than credit the company
            if approved is None and re.match(r"\s*其\S", c):
                body = None  # 其任职资格已获…核准: what was approved is 其's (a person's post), not the subject
            approved = approved or subject
            add(approved, "approvedBy", body)
        if (m := re.search(r"(?:隶属于|隶属|归属于|从属于)", c)) is not None:
            owner = next((x for x in self._after(clause, cs + m.end()) if self._org(x)), None)
            add(subject, "partOf", owner)
        if (m := re.search(r"旗下(?:拥有|有|包括|设有)?(?:的)?", c)) is not None:
            owner = next((x for x in clause.mentions if x.end == cs + m.start() and self._org(x)), None) or (
                subject if self._org(subject) else topic_org)
            # 旗下拥有A、B和C: the names listed right after; 吉利控股集团旗下的极氪…于…在纽约证券交易所上市 (极氪… not
            # found): a later name in the clause is no subsidiary
            first = next((x for x in self._after(clause, cs + m.end()) if x.start <= cs + m.end() + 1), None)
            for x in self._listed(clause, first.start, self._org) if first is not None else []:
                add(x, "partOf", owner)
        for m in re.finditer(r"的(?:全资|控股|参股)?子公司", c):
            # 金穗装备的全资子公司金穗（哈萨克斯坦）农机有限公司: the name right after is the one before's
            parent = next((x for x in clause.mentions if x.end == cs + m.start() and self._org(x)), None)
            child = next((x for x in clause.mentions if x.start == cs + m.end() and self._org(x)), None)
            for x in self._listed(clause, child.start, self._org) if child is not None else []:
                add(x, "partOf", parent)  # …的全资子公司A和B: each
        for m in re.finditer(r"(?:拥有|下设|设有|包括)((?:[^，。；、和及]{2,40}[、和及])+[^，。；、和及]{2,40}?)"
                             r"(?:[等共]?[一二三四五六七八九十两\d]+家)(?:全资|控股)?(?:子公司|下属企业)", c) \
                if "家" in c else ():
            # 云杉纺织目前拥有A、B和C三家全资子公司: every listed name is the subject's
            owner = subject if self._org(subject) and subject.end <= cs + m.start() else None
            for x in clause.mentions:
                if owner is not None and self._org(x) and cs + m.start(1) <= x.start and x.end <= cs + m.end(1):
                    add(x, "partOf", owner)
        if (m := _POST_HELD_BY.search(c)) is not None:
            # 该公司的总经理由金穗装备副总裁朱卫东兼任, 首任院长由浙江大学教授许嘉禾担任: the person named last before
            # the verb holds the post at the organisation named before the title (该公司: the one named last before)
            holder = next((x for x in reversed(clause.mentions) if self._person(x) and x.end <= cs + m.end(2)
                           and x.start >= cs + m.start(2)), None)
            post_of = next((x for x in clause.mentions if self._org(x)
                            and x.end in (cs + m.start(), cs + m.start() - 1)), None)
            if post_of is None and re.search(r"该(?:公司|企业|院|校|机构)的?$", c[:m.start(1)]):
                post_of = self._last_org(sentence, cs)
            if post_of is None and re.fullmatch(r"\s*(?:首任|现任|新任)?", c[:m.start(1)]):
                post_of = subject if self._org(subject) else None  # …研究院正式揭牌成立，首任院长由…担任
            add(holder, "worksFor", post_of)
        # 成为其全资子公司: 其 is the organisation named before (成都云图…由华信控股…收购，成为其全资子公司)
        if (m := re.search(r"(?:成为|是|为)(?:(.{0,16}?)的|(其))(?:全资|控股|参股)?(?:子公司|下属企业|下属公司)", c)):
            owner = next((x for x in self._after(clause, cs + m.start(1))
                          if self._org(x) and x.end <= cs + m.end(1)), None) if m.group(1) is not None else None
            if owner is None and re.search(r"(?:集团|公司|其|本公司|该公司)$", m.group(1) or m.group(2)):
                owner = self._last_org(sentence, cs, not_named=subject.name) or topic_org
            held = subject
            if re.match(r"\s*后者", c):
                # 海天味业收购了广东鲜活…，后者成为其全资子公司: the latter is the name last before, 其 the one before
                held = self._last_org(sentence, cs) or held
                owner = self._last_org(sentence, held.start, not_named=held.name) if m.group(2) else owner
            if owner is not None and held.name == owner.name and held.start >= cs and m.group(1) is not None \
                    and re.fullmatch(r"(?:本公司|公司|集团|本集团)", m.group(1)):
                # 云杉纺织收购江苏锦华化纤有限公司（以下简称“锦华化纤”）…。交易完成后，锦华化纤成为公司的控股子公司: the
                # clause names the subsidiary, so 公司 is the chunk's first other organisation, not the one declared
                owner = next((x for x in orgs if x.name != held.name and held.form not in x.aliases), owner)
            if owner is not None and (held.name == owner.name or re.search(r"该(?:公司|企业)", c[:m.start()])):
                # 云岭新能收购江西恒源…，收购完成后该公司成为云岭新能的控股子公司: 该公司 is the company named last
                # before, not the clause's subject
                held = self._last_org(sentence, cs, not_named=owner.name) or held
            add(held, "partOf", owner)
        # (签署…联合研发协议, 签订战略框架协议: an agreement to work together, whatever words stand before 协议)
        if re.search(r"合作|联合成立|共同成立|合资成立|合资设立|共建|联合组建|共同组建|签约(?!仪式)|"
                     r"(?:签署|签订)[^，。；]{0,12}?(?:联合|战略|框架)[^，。；]{0,8}?协议", c) \
                and (m := re.search(r"(?:与|和|(?<![共相不])同)", c)) is not None:  # 共同 is no 同
            partner = next((x for x in self._after(clause, cs + m.end()) if self._org(x)), None)
            # 中联数科、华南理工大学与黄埔区人民政府签署合作协议: each party listed before 与 with each one after it
            parties = self._listed_before(clause, cs + m.start(), self._org)
            if len(parties) < 2 or parties[-1].end != cs + m.start():
                parties = [subject]
            if not self._org(subject) and re.search(r"由[^，。；]{0,30}$", c[:m.start()]):
                # 该药由沪渊生物与复旦大学药学院合作研发: the makers after 由 work together, not the thing they made
                # (该产品由公司与太原理工大学合作研发: a report's 公司 is its company)
                parties = [x for x in clause.mentions if x.end == cs + m.start() and self._org(x)] or (
                    [topic_org] if topic_org is not None and re.search(r"由(?:本公司|公司)$", c[:m.start()]) else [])
            partners = self._listed(clause, partner.start, self._org) if partner is not None else []
            for party in parties:
                if self._org(party):
                    for other in partners:
                        add(party, "cooperateWith", other, timed)
        held_at = re.search(r"在(?P<where>[^，。；]{2,20}?)(?:隆重|正式)?(?:举行|举办|开幕|召开|闭幕|落幕)", c)
        if (m := held_at) is not None:
            # 第十届长白山国际电影节于8月20日在吉林省长春市开幕, “…特展”在故宫博物院开幕: where a named event is held
            event = next((x for x in clause.mentions if x.kind == "event" and x.end <= cs + m.start()), None) or (
                subject if subject.kind == "event" else None)
            venue = place_at(cs + m.start("where")) or next(
                (x for x in clause.mentions if x.start == cs + m.start("where") and self._org(x)), None)
            add(event, "locatedIn", venue)
        if (m := re.search(r"由(.{2,40}?)(?:联合|共同)(?:主办|举办|承办)", c)) is not None:
            # 该展览由故宫博物院与湖北省博物馆联合主办: the hosts listed after 由 work together
            first = next((x for x in self._after(clause, cs + m.start(1)) if x.start == cs + m.start(1)), None)
            hosts = [x for x in self._listed(clause, first.start, self._org) if x.end <= cs + m.end(1)] \
                if first is not None else []
            for other in hosts[1:]:
                add(hosts[0], "cooperateWith", other, timed)
        self._report_facts(text, clause, subject, timed, sentence, topic_org, sentence_end, add, orgs)
        if (m := re.search(r"前身(?:为|是)", c)) is not None:
            # 前身是1897年创建的求是书院: the name, not the date of its founding
            former = next((x for x in self._after(clause, cs + m.end()) if not self._date(x)), None)
            add(subject, "predecessor", former)
        for m in re.finditer(r"(?:创建|创办|成立|设立|建立)的", c):  # 1897年创建的求是书院
            date = next((x for x in clause.mentions if self._date(x) and x.end == cs + m.start()), None)
            founded = next((x for x in clause.mentions if x.start == cs + m.end() and self._org(x)), None)
            add(founded, "foundedOn", date)
        if (m := re.search(r"(?:列入|入选|纳入)", c)) is not None:
            listed = next(iter(self._after(clause, cs + m.end())), None)
            # 列入2023年中国企业500强榜单: a list named with its year is one name, not the year
            named = re.match(r"((?:\d{4}年度?)?[\u4e00-\u9fff0-9]{2,20}?(?:名录|名单|榜单|目录))", c[m.end():])
            if listed is None or (named is not None and self._date(listed) and listed.start == cs + m.end()):
                listed = None
                if named is not None:
                    s = cs + m.end()
                    listed = Mention(named.group(1), self.fallback, s, s + len(named.group(1)), named.group(1),
                                     kind="list-name")
            # 伊利集团和蒙牛集团均被列入…: every name listed before the verb
            # (被 AGENT 列入: the names before 被, not the agent)
            bei = c.rfind("被", 0, m.start())
            for x in self._listed_before(clause, cs + (bei if bei >= 0 else m.start()), self._org) or [subject]:
                add(x, "listedIn", listed, timed)
        return out

    def _report_facts(self, text: str, clause: _Clause, subject: Mention, timed: list[tuple[str, Mention]],
                      sentence: list[Mention], topic_org: Mention | None, sentence_end: int,
                      add: Callable[..., None], orgs: list[Mention]) -> None:
        """What company reports state in their own phrases: shareholders (控股股东为 / 实际控制人为 → ownedBy,
        持股比例 its 比例), appointments (聘任 P 为 TITLE, 法定代表人为 P → worksFor), the listing (在 X 上市 →
        listedIn), the registered seat (在 P 注册成立 → locatedIn) and subsidiaries listed after 子公司包括."""
        c, cs = clause.text, clause.start
        org_subject = subject if self._org(subject) else topic_org
        # the sentence's shareholders: a company named as one is not the one owned (本公司控股股东为X，实际控制人为Y)
        owners = {x.name for x in sentence if re.search(r"(?:控股股东|实际控制人|第一大股东)"
                                                         r"(?:则|均|仍|亦|也)?(?:为|是)[^，。；]{0,40}$",
                                                         text[max(0, x.start - 48):x.start])}
        for m in re.finditer(r"(?:控股股东|实际控制人|第一大股东)(?:则|均|仍|亦|也)?(?:为|是)", c):
            named = [x for x in clause.mentions if self._org(x) and x.end in (cs + m.start() - 1, cs + m.start())]
            owned = named[0] if named else org_subject
            if owned is None or owned.name in owners:
                continue
            share = re.search(r"(?:持股比例|持有[^，。；]{0,16}?)(?:为|约为|达)?(" + VALUE_RE.pattern + r")",
                              text[cs + m.end():sentence_end])
            after = cs + m.end()
            if (post := _POST_BETWEEN.match(text, after)) is not None and post.end() < cs + len(c):
                after = post.end()  # 实际控制人为董事长彭书远: the owner's post stands between
            for i, owner in enumerate(self._listed(clause, after, lambda x: self._org(x) or self._person(x))):
                quals = list(timed)
                if share is not None and i == 0 and share.group(1).endswith("%"):
                    pos = cs + m.end() + share.start(1)
                    quals.append(("比例", Mention(share.group(1), self.fallback, pos, pos + len(share.group(1)),
                                                 share.group(1), kind="value")))
                add(owned, "ownedBy", owner, quals)
        self._holder_named_owner(text, clause, timed, sentence, topic_org, add)
        if (hit := re.match(r"\s*(?:为|是)(?:本公司|公司)的?(?:共同)?(?:控股股东|实际控制人|第一大股东)",
                            c)) is not None \
                and topic_org is not None:
            # 二人合计持有公司53.8%的股份，为公司的共同实际控制人: the people the sentence named and pointed back at
            # (二人 / 两人 / 双方 opening a clause before) own the report's company
            opened = max(text.rfind(e, 0, cs) for e in "。！？\n") + 1
            pointer = re.search(r"(?:^|[，；])\s*(?:二人|两人|双方|夫妇二人)", text[opened:cs])
            people = [x for x in sentence if self._person(x) and x.end <= opened + pointer.start()] \
                if pointer is not None else []
            for owner in {x.name: x for x in people[-2:]}.values() if len(people) >= 2 else []:
                add(topic_org, "ownedBy", owner)
        if (hit := re.search(r"(?:聘任|聘请|任命|选举|同意聘任)", c)) is not None:
            # every person after the verb with a post of their own (选举A继续担任董事长; 聘任B为总经理、C为董事会秘书)
            for person in [x for x in self._after(clause, cs + hit.end()) if self._person(x)]:
                # (任命方若溪教授为…院长: what the person is may stand between the name and 为)
                title = re.match(r"(?:教授|研究员|博士|院士|先生|女士|同志)?(?:继续|再次|同时)?(?:为|担任)(.{0,16}?)("
                                 + "|".join(wl.EXECUTIVE_TITLES) + ")", text[person.end:])
                if title is None:
                    continue
                employer = next((x for x in clause.mentions if self._org(x) and person.end < x.start
                                 and x.end <= person.end + title.end()), None)
                add(person, "worksFor", employer or org_subject, timed)
        if (hit := re.search(r"法定代表人(?:为|是)?", c)) is not None:
            representative = next((x for x in self._after(clause, cs + hit.end()) if self._person(x)), None)
            add(representative, "worksFor", org_subject)
        listing = (r"在(.{2,20}?)(?:主板|创业板|科创板|中小板|中小企业板|北交所)?(?:挂牌)?上市|"
                   r"登陆(.{2,20}?)(?:主板|创业板|科创板|中小板)")
        if (hit := re.search(listing, c)) is not None:
            # 2022年8月登陆深圳证券交易所创业板: listed on the exchange whose board it names
            group = 1 if hit.group(1) is not None else 2
            market = next((x for x in self._after(clause, cs + hit.start(group)) if self._org(x)
                           and x.end <= cs + hit.end(group)), None)
            listed = org_subject
            if market is not None and (listed is None or listed.name == market.name):
                # 2012年在深圳证券交易所上市: the clause's lead-in makes the exchange its subject; the company is
                # the one the sentence named before: the sentence's own subject where it opens with a company
                # (X前身为Y，…，2017年在…上市: X is listed, not its predecessor Y)
                opened = max(text.rfind(e, 0, cs) for e in "。！？\n") + 1
                # 该公司于1994年由宜宾县曲酒厂改制设立，2011年在…上市: a sentence opening with 该公司 / 公司 is about
                # the chunk's company, whatever it names after
                said = text[opened:cs].lstrip()
                opener = (self._pointed_at("该", [o for o in orgs if o.name != market.name], opened)
                          if said.startswith("该") else topic_org) if _REFERENCE.match(said) and not said.startswith(
                    "其") else next((x for x in sentence if not self._date(x)), None)
                listed = opener if opener is not None and self._org(opener) and opener.end <= cs \
                    and opener.name != market.name else None
                listed = listed or self._last_org(sentence, cs, not_named=market.name) or topic_org
            add(listed, "listedIn", market, timed)
        if (hit := re.search(r"在(.{2,16}?)(?:注册成立|注册设立|注册|登记成立|正式成立|成立)", c)) is not None:
            places = [x for x in self._after(clause, cs + hit.start(1)) if self._place(x) and x.end <= cs + hit.end(1)]
            add(org_subject, "locatedIn", places[-1] if places else None)
        if (hit := re.search(r"(?:其|与)?(?:丈夫|妻子|夫人|配偶)(?:为|是)", c)) is not None:
            # 方晓岚…，其丈夫为建筑师顾承泽: the person the sentence is about (其 of a kin word is a person's, whatever
            # company the chunk names) and the one named right after
            partner = next((x for x in clause.mentions if self._person(x) and x.start >= cs + hit.end()
                            and re.fullmatch(r"[\u4e00-\u9fff]{0,4}", text[cs + hit.end():x.start])), None)
            spouse_of = subject if self._person(subject) else next(
                (x for x in sentence if self._person(x) and x.end <= cs), None)
            add(spouse_of, "spouse", partner)
        elif (hit := re.match(r"\s*其(?:丈夫|妻子|夫人|配偶)", c)) is not None:
            # 贾庭岳现任公司董事长，其妻子卫书兰任副董事长: a clause opened by 其 and a kin word names the spouse of the
            # person named last before it
            partner = next((x for x in clause.mentions if self._person(x) and x.start == cs + hit.end()), None)
            spouse_of = next((x for x in reversed(sentence) if self._person(x) and x.end <= cs), None)
            add(spouse_of, "spouse", partner)
        people = [x for x in clause.mentions if self._person(x)]
        for a, b in itertools.pairwise(people):  # 钟立衡与妻子苏婉清, 欧阳振邦及其配偶温雅琳
            if _SPOUSES.search(text[a.end:b.start]) and len(text[a.end:b.start]) <= 5:
                add(a, "spouse", b)
        for hit in re.finditer(r"(?:夫妇|夫妻)", c):  # 孙建国、孙晓梅夫妇
            pair = [x for x in clause.mentions if self._person(x) and x.end <= cs + hit.start()][-2:]
            joined = text[pair[0].end:pair[1].start] in ("、", "和", "与") if len(pair) == 2 else False
            if joined and pair[1].end == cs + hit.start():
                add(pair[0], "spouse", pair[1])
        if (hit := re.search(r"(?:主要|核心|主营)?产品(?:主要)?(?:包括|有|为|是|涵盖)", c)) is not None \
                and org_subject is not None:
            # 云岭新能…，主要产品包括“云储”系列储能电站和“岭峰”户用储能设备: the company's own products, the quoted
            # names listed after the phrase (a list of things, not of brands, names none)
            for product in self._listed(clause, cs + hit.end(), lambda x: x.kind in ("quote", "title"), loose=True):
                add(product, "createdBy", org_subject)
        if (hit := re.search(r"(?:新设|设立|新设立|成立)(?:了)?(?:全资|控股)?子公司", c)) is not None \
                or (hit := re.match(r"\s*(?:其)?(?:全资|控股)子公司", c)) is not None:
            # 云岭新能新设全资子公司云岭储能欧洲有限公司; …；控股子公司曲靖云岭电池有限公司投资建设…
            sub = next((x for x in clause.mentions if x.start == cs + hit.end() and self._org(x)), None)
            where = re.search(r"在([^，。；]{2,12}?)(?:新设|设立|新设立|成立)", c)
            if sub is not None and where is not None:
                # 公司在德国慕尼黑设立全资子公司X: X is where it was set up, the most specific place named
                places = [x for x in clause.mentions if self._place(x) and cs + where.start(1) <= x.start
                          and x.end <= cs + where.end(1)]
                add(sub, "locatedIn", places[-1] if places else None)
            if sub is not None and org_subject is not None and sub.name != org_subject.name:
                add(sub, "partOf", org_subject, timed)
                seat = re.match(r"[，,]\s*注册地(?:址)?(?:为|位于|在)", text[clause.end:clause.end + 12])
                if seat is not None:
                    places = [x for x in sentence if self._place(x) and x.start >= clause.end + seat.end()]
                    run = places[:1]
                    for x in places[1:]:
                        if x.start == run[-1].end:
                            run.append(x)
                    if run and run[0].start == clause.end + seat.end():
                        add(sub, "headquarteredIn", run[-1])
        if (hit := re.search(r"子公司(?:则|还|另|主要)?(?:包括|有|为|是|：|:)", c)) is not None:
            parents = [x for x in clause.mentions if self._org(x) and x.end <= cs + hit.start()]
            parent = parents[-1] if parents else org_subject
            for sub in self._listed(clause, cs + hit.end(), self._org):
                add(sub, "partOf", parent)

    def _holder_named_owner(self, text: str, clause: _Clause, timed: list[tuple[str, Mention]],
                            sentence: list[Mention], topic_org: Mention | None, add: Callable[..., None]) -> None:
        """襄阳凇源控股有限公司持有公司41.6%的股份，系公司控股股东; 其董事长邬季衡为公司实际控制人: the holder named
        before 持有 in the clause before, or the name right before 系 / 为, owns the report's company (with the stake
        it holds)."""
        c, cs = clause.text, clause.start
        said = re.search(r"(?:系|为|是)(?:本公司|公司)?的?(?:控股股东|实际控制人|第一大股东)", c)
        if said is None or topic_org is None:
            return
        owner = next((x for x in clause.mentions if x.end == cs + said.start()
                      and (self._person(x) or self._org(x))), None)
        share = None
        if owner is None and re.fullmatch(r"\s*", c[:said.start()]):
            opened = max(text.rfind(e, 0, cs) for e in "。！？\n") + 1
            held = re.search(r"(?:合计|直接|间接|共)*持有(?:本公司|公司|其)(" + VALUE_RE.pattern
                             + r")?[^，。；]*[，；]\s*$", text[opened:cs])  # the clause right before
            if held is not None:
                owner = next((x for x in sentence if x.end == opened + held.start()
                              and (self._person(x) or self._org(x))), None)
                if held.group(1) is not None and held.group(1).endswith("%"):
                    at = opened + held.start(1)
                    share = Mention(held.group(1), self.fallback, at, at + len(held.group(1)), held.group(1),
                                    kind="value")
        if owner is not None and owner.name != topic_org.name:
            add(topic_org, "ownedBy", owner, [*timed, *([("比例", share)] if share is not None else [])])

    @staticmethod
    def _described_after(text: str, clause: _Clause, place: Mention) -> Mention | None:
        """位于…图尔库的卡勒瓦能源公司, 总部位于芬兰图尔库的船用电池企业卡勒瓦能源公司: the name the place describes,
        right after 的 or after a few words that say what kind of thing it is."""
        return next((x for x in clause.mentions if x.start > place.end and text[place.end:place.end + 1] == "的"
                     and _KIND_BEFORE_A_NAME.fullmatch(text[place.end + 1:x.start])), None)

    def _listed(self, clause: _Clause, pos: int, kind: Callable[[Mention], bool], *,
                loose: bool = False) -> list[Mention]:
        """The names of the kind listed from `pos` on (A、B和C), stopping at the first thing that is not one.
        `loose`: quoted names with their kinds after them (“云储”系列储能电站和“岭峰”户用储能设备)."""
        out: list[Mention] = []
        for x in self._after(clause, pos):
            if not kind(x):
                break
            gap = clause.text[out[-1].end - clause.start:x.start - clause.start] if out else ""
            joint = (r"[”」』》\"]?[\u4e00-\u9fffA-Za-z0-9]{0,10}?[、和及与以及]{1,2}[\u4e00-\u9fff]{0,10}"
                     r"[“「『《\"]?") if loose \
                else r"[、和及与以及]{1,2}" + _KIN + _NATURAL_PERSON
            if out and not re.fullmatch(joint, gap):
                break
            out.append(x)
        return out

    def _listed_before(self, clause: _Clause, pos: int, kind: Callable[[Mention], bool]) -> list[Mention]:
        """The names of the kind listed right before `pos` (A、B和C均位于…, A和B荣获…, A、B与C签署…), an adverb or
        a time allowed between the last of them and `pos`; empty when the verb does not follow a list of them."""
        # 中国移动、中国电信和中国联通在北京联合发布: where it happened (在 PLACE) stands in the gap, it lists nothing
        before = [m for m in clause.mentions if m.end <= pos and not (
            self._place(m) and clause.text[m.start - clause.start - 1:m.start - clause.start] == "在")]
        if not before or not kind(before[-1]) or not _VERB_GAP.fullmatch(clause.text[before[-1].end - clause.start:
                                                                                    pos - clause.start]):
            return []
        out = [before[-1]]
        for x in reversed(before[:-1]):
            if not kind(x) or not re.fullmatch(r"(?:[、和及与]|以及|会同)" + _KIN, clause.text[x.end - clause.start:
                                                                         out[0].start - clause.start]):
                break
            out.insert(0, x)
        return out

    def _kind_of(self, text: str, clause: _Clause, subject: Mention) -> None:
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

    def _actor(self, text: str, clause: _Clause, subject: Mention, sentence: list[Mention],
               verb: int) -> Mention | None:
        """Who does what a person does at `verb` (毕业于, 创办, 现任): the clause's subject if a person; else the
        person right before the verb (小米集团创始人雷军毕业于…: not the clause's first name); else, in a clause
        with no subject of its own (…，2010年在北京创办小米公司), the person an earlier clause of the sentence
        had act (雷军毕业于). Nobody else: a company does not graduate."""
        if self._person(subject):
            return subject
        right = next((x for x in clause.mentions if x.end == verb and self._person(x)), None)
        if right is not None and re.search(r"(?:接替|接任|取代|替代|代替)$", text[:right.start]):
            # 蔡崇信接替张勇出任董事会主席: the one replaced does not take the post; the one before 接替 does
            right = next((x for x in reversed(clause.mentions) if x.end <= right.start and self._person(x)), None)
        if right is not None:
            return right
        if _REFERENCE.match(clause.text.lstrip()) or any(
                x.end <= verb and not self._date(x) and not self._place(x) for x in clause.mentions):
            return None
        return next((x for x in reversed(sentence) if x.end <= clause.start and self._person(x)
                     and text.startswith(wl.PERSON_VERBS, x.end)), None)

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

    # ------------------------------------------------------------------ figures

    def _figures(self, text: str, clause: _Clause, subject: Mention | None, when: Mention | None,
                 out: list[OpenFact], last: OpenFact | None) -> OpenFact | None:
        """营业收入128.6亿元 -> (subject, 营业收入, 128.6亿元) [时间: 2022年]; 同比增长12.4% -> a qualifier of the
        figure before it. A figure needs an organisation to belong to."""
        pos = clause.start
        for value in clause.values:
            before = text[pos:value.start]
            pos = value.end
            change = _CHANGE.search(before)
            if change is not None:
                if last is not None:
                    way = "下降" if change.group("way") in ("下降", "减少", "下滑", "降低", "下跌", "回落") else "增长"
                    base = "环比" if (change.group("base") or "").startswith("环比") else "同比"
                    last.qualifiers.append((base + way, self._value(value)))
                continue
            if subject is None or "占" in before or before.endswith("的") or re.search(r"以[^，。；以]{0,6}$", before):
                continue
            if re.search(r"约定|承诺|预计|计划|拟|力争|目标", text[clause.start:value.start]):
                continue  # 约定未来三年供应碳酸锂不少于6万吨: what a contract or a plan promises, not a stated figure
            run = re.search(r"[\u4e00-\u9fffA-Za-z]*$", before)
            name = run.group(0) if run else ""
            # the figure's name starts after the last word that ends what comes before it
            # (2024年度公司研发投入: 年度 is the period, 公司 the report's company)
            name = re.sub(r"^本?公司", "", re.split(
                r"实现|完成|录得|取得|的|年度|年末|年底|年初|年|月末|月底|月|日|季度|期末|期内|共有|现有|拥有|累计|其中|、",
                name)[-1])
            for form in (subject.form, subject.name, *subject.aliases):
                if form and name.startswith(form):
                    name = name[len(form):]
            if re.search(r"预计|计划|拟|预期|目标|力争", name) or name.startswith("项目"):
                continue  # 预计总投资50亿元, 项目预计总投资: a plan, or a project's, not a figure the report states
            if any(w in name for w in wl.ONE_OFF_ACT_WORDS):
                continue  # 股价收涨17.5%, 募集资金9.6亿港元, 受让其55%: the figure of one act, not one the subject has
            if any(self._org(m) and name.endswith(m.form or m.name) for m in clause.mentions if m.end <= value.start):
                continue  # 收购…安明电力设备有限公司70%的股权: a stake in the company named, no figure of the subject
            if re.search(r"各[类种项个]|多[种个项]|若干", name):
                continue  # 全年销售各类农业机械4.2万台: a sum over kinds of things said in passing, not a named figure
            name = _METRIC_STRIP_TAIL.sub("", _METRIC_STRIP_LEAD.sub("", name))
            if "第" in name or re.match(r"(?:在(?!职|册|岗|建|读|手|售|营)|向|与|对|从|将|把|被|由|为|紧急|共同|继续|"
                                         r"进一步|陆续)", name) or re.search(r"(?:由|至|到|从|以|不)$", name):
                continue  # 在深圳举行第, 紧急转移群众, 将回购不超过, 注册资本由…增加至: a verb phrase, no figure
            if re.match(r"(?:持有|持股|派出|出动|调派|当地)", name) or "已" in name or name.endswith("每股") \
                    or re.search(r"持有其?$", name):  # 公司创始人杭既白持有其37.5%: a holder's stake
                continue  # 持有公司42.08%的股份 (a stake), 当地已派出120名 (a dispatch), 发行价为每股: no named figure
            name = re.sub(r"^在职(?=员工总数)", "", name)  # 在职员工总数 is the staff count, 员工总数
            if re.fullmatch(r"(?:共)?销售[\u4e00-\u9fff]{1,6}", name) and re.search(r"[吨辆台件套箱部]$", value.name):
                name = "销量"  # 销售白砂糖21.3万吨: what a company sold, counted in things, is its sales volume
            if re.search(r"(?:金额|对价|价格|售价|单价|定价|持股比例)$", name) or not _METRIC.match(name) \
                    or name in wl.STOP_NAMES - {"营业收入", "净利润", "营收", "利润", "收入", "资产", "负债", "员工",
                                                 "职工"}:
                continue
            fact = OpenFact(subject, name, self._value(value), [("时间", when)] if when is not None else [])
            out.append(fact)
            last = fact
        return last

    # ------------------------------------------------------------------ places next to places

    def _places_in_a_row(self, text: str, inside: list[Mention], stated: list[OpenFact]) -> list[OpenFact]:
        """浙江省宁波市 -> (宁波市, locatedIn, 浙江省); 海淀区的中关村科技园区 -> (中关村科技园区, locatedIn, 海淀区);
        德国化工企业莱茵特种材料公司 -> (莱茵特种材料公司, locatedIn, 德国)."""
        out = []
        for a, b in pairwise(inside):
            if not self._place(a) or any(f.subject is b and f.object is a for f in stated):
                continue  # 总部位于新加坡的星展银行: said already, as headquarteredIn
            gap = text[a.end:b.start]
            country = a.spg_class in self.is_country
            if gap == "" and self._place(b) and not country and a.name not in wl.PROVINCES and not re.search(
                    r"(?:省|自治区|特别行政区|州)$", a.name) and not re.search(r"(?:区|县|镇|乡|街道|村)$", b.name):
                continue  # 宁波舟山港: two places side by side, neither in the other (浙江省宁波市 is one in the other)
            if (gap == "" and (self._place(b) or (country and self._org(b)))) \
                    or (gap == "的" and (self._place(b) or self._org(b))):
                out.append(OpenFact(b, "locatedIn", a))
                if gap == "" and self._place(b) and (a.name.endswith(("省", "自治区")) or a.name in wl.PROVINCES):
                    out += self._listed_after_a_place(text, inside, a, b)
            elif self._org(b) and re.fullmatch(r"[\u4e00-\u9fff]{0,6}(?:" + "|".join(wl.DESCRIPTOR_ENDS) + ")", gap):
                out.append(OpenFact(b, "locatedIn", a))
        return out

    def _listed_after_a_place(self, text: str, inside: list[Mention], province: Mention,
                              first: Mention) -> list[OpenFact]:
        """连接贵州省贵阳市与遵义市: the places of the same level listed right after a province's first one are in it
        too (a municipality or another province never is)."""
        out: list[OpenFact] = []
        last = first
        level = first.name[-1:]
        for m in inside:
            if m.start <= last.end:
                continue
            if text[last.end:m.start] not in ("、", "与", "和", "及", "以及") or not self._place(m) \
                    or not m.name.endswith(level) or m.name in wl.PROVINCES or m.name.rstrip("市") in (
                        "北京", "上海", "天津", "重庆"):
                break
            out.append(OpenFact(m, "locatedIn", province))
            last = m
        return out

    # ------------------------------------------------------------------ events

    def _events(self, facts: list[OpenFact]) -> list[OpenEvent]:
        out: list[OpenEvent] = []
        for f in facts:
            when = next((m for q, m in f.qualifiers if q == "时间"), None)
            where = next((m for q, m in f.qualifiers if q == "地点"), None)
            if f.predicate == "bornOn":
                place = next((g.object for g in facts if g.predicate == "bornIn" and g.subject is f.subject), None)
                out.append(OpenEvent("Birth", "出生", {"person": [f.subject]}, f.object, place))
            elif f.predicate == "foundedBy" and when is not None:
                roles = {"organization": [f.subject], "founder": [f.object]}
                out.append(OpenEvent("Founding", "创办", roles, when, where))
            elif f.predicate == "acquire" and when is not None:
                out.append(OpenEvent("Acquisition", "收购", {"buyer": [f.subject], "acquired": [f.object]}, when))
            elif f.predicate == "release" and when is not None:
                out.append(OpenEvent("Creation", "发布", {"creator": [f.subject], "work": [f.object]}, when, where))
        return out


def _same_company(a: str, b: str) -> bool:
    """长丰电池 and 湖南长丰电池有限公司: a company's stem and its full name (the legal form and a province or city
    before the stem dropped) are one company, never related to each other."""
    short, full = sorted((a, b), key=len)
    stem = re.sub(r"(?:集团)?(?:股份有限公司|有限责任公司|有限公司)$", "", full)
    if stem == full or not stem.endswith(short):
        return False
    lead = stem[:len(stem) - len(short)]
    return lead == "" or lead in wl.PROVINCES or (re.fullmatch(r"[\u4e00-\u9fff]{1,3}(?:省|市)?", lead) is not None \
        and (lead.rstrip("省市") in wl.PROVINCES or lead.endswith(("省", "市"))))


def _unique(facts: list[OpenFact]) -> list[OpenFact]:
    seen: dict[tuple[str, str, str], OpenFact] = {}
    for f in facts:
        key = (f.subject.name, f.predicate, f.object.name)
        if key in seen:
            have = seen[key]
            said = {(a, b.name) for a, b in have.qualifiers}
            have.qualifiers += [q for q in f.qualifiers if (q[0], q[1].name) not in said]
        else:
            seen[key] = f
    return list(seen.values())
