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
The rules are grouped by what they read, one module each (see `clause_rules`); this module finds each clause's
subject and runs them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise

from kgbuild.extract.zh import word_lists as wl
from kgbuild.extract.zh.career_facts import CareerFacts
from kgbuild.extract.zh.clause_rules import (
    BETWEEN_PARTIES,
    BUILT,
    LEAD_IN,
    REFERENCE,
    SAID,
    TITLE_ALT,
    WORK_OF,
    Clause,
    ClauseScope,
    OpenFact,
)
from kgbuild.extract.zh.deal_facts import DealFacts
from kgbuild.extract.zh.figure_facts import FigureFacts
from kgbuild.extract.zh.founding_facts import FoundingFacts
from kgbuild.extract.zh.maker_facts import WORK_MAKER, MakerFacts
from kgbuild.extract.zh.mentions import Mention
from kgbuild.extract.zh.own_company import beside_own
from kgbuild.extract.zh.owner_facts import OwnerFacts
from kgbuild.extract.zh.place_facts import PlaceFacts
from kgbuild.extract.zh.report_facts import ReportFacts
from kgbuild.extract.zh.report_reference import LIST_NUMBER

_SENTENCE_END = re.compile(r"(?<=[。！？!?\n])")
# A comma or colon between digits is part of a number (6,423亿元; 10:30).
_CLAUSE_END = re.compile(r"[，；;：]|(?<!\d)[,:]|[,:](?!\d)")
# A sentence about a thing it does not name (该项目, 此次交易, 该产品): 该 / 此 before a word that is no company's
_UNNAMED_TOPIC = re.compile(r"\s*(?:[^，。；]{0,12}[，,])?\s*(?:该|此|此次|本次)(?!公司|集团|企业|行|校|院|机构)"
                            r"(?P<noun>[\u4e00-\u9fff])")
# A clause that opens by pointing at such a thing (…整车工厂正式投产，该工厂总投资62亿元): the sentence speaks of it
# from there on
_UNNAMED_CLAUSE = re.compile(r"\s*(?:该|此|此次|本次)(?!公司|集团|企业|行|校|院|机构)(?P<noun>[\u4e00-\u9fff])")
_CHILD_AFTER = re.compile(r"(?:旗下的|下属的|的(?:全资|控股|参股)?(?:子公司|下属企业)|(?:全资|控股)子公司)"
                          r"(?!(?:则|还|另|主要)?(?:包括|有|为|是)|共|分别|[，。；、])")
# 公司全资子公司X / 本公司控股子公司X: a report's own subsidiary named right after 公司.
_OWN_CHILD = re.compile(r"的?(?:全资|控股|参股)?(?:子公司|下属企业|孙公司)")
# A company's holder named right after the company and the role (X控股股东Y, X的实际控制人Y): not the company a
# chunk's 公司 stands for (公司控股股东Y is `own_company.beside_own`'s)
_HOLDER_OF_ANOTHER = re.compile(r"的?(?:控股股东|间接控股股东|第一大股东|实际控制人)$")
# A named product's own figure right after its name (“X”系列实现销售收入, 《Y》的销量, “Z”产品营收)
_WORK_FIGURE = re.compile(r"[”」』\"》]?(?:系列|产品|品牌|系列产品)?(?:实现|的|全年|年度)?"
                          r"(?:销售收入|销售额|营业收入|营收|收入|销量|票房|发行量)")
# 其代表著作《…》: a work of the person the chunk is about.
_ITS_WORK = re.compile(r"\s*其(?:代表|主要|最新|第一部|首部|成名)?"
                       r"(?P<kind>著作|作品|代表作|长篇小说|小说|专著|诗集|论文集|"
                       r"散文集|新作|成名作|前作|旧作|遗作|处女作)")  # (其前作《湖风》曾获…: the one before it)
# A clause that opens by pointing back at a name: the former, the latter, the said subsidiary.
_POINTER = re.compile(r"\s*(前者|后者|该子公司|该(?:全资|控股)子公司)")
# 该厂 / 该校 / 该院…: a clause pointing back at the body of that kind the chunk named last, as the names' endings
# say (…的前身为湛江市南珠水产加工厂，该厂始建于1992年: the works, not the company).
_KIND_POINTER = re.compile(r"\s*该(厂|校|院|所|馆|医院|中学|学校|大学|书院)")
# 该陵园 / 该矿 / 该景区 / 该项目…: a clause about a site of that kind (a cemetery, a mine, a park, a project); the
# body named before whose name ends with the kind, or with the kind and a company's ending (该医院 after 台州X妇产医院
# 有限公司); where none was named (木尔岗锂辉石矿…，该矿位于…), the clause speaks of a thing with no name, not of the
# sentence's company.
_SITE_POINTER = re.compile(r"\s*该(医院|陵园|墓园|矿山|矿井|矿|园区|景区|乐园|公园|酒店|宾馆|项目|电站|水厂|"
                           r"港口|码头|机场|门店|商场|楼盘)(?![\u4e00-\u9fff]{0,2}(?:公司|集团))")
_COMPANY_ENDING = r"(?:[（(][\u4e00-\u9fff]{2,6}[）)])?(?:股份有限公司|有限责任公司|有限公司|集团)?"
# 该药 / 该产品…: a clause about the work (a drug, a product, a book) the sentence named before.
# (这部作品, 这款芯片: 这 and a measure word point back as 该 does)
# (全书 / 全剧 / 全片 / 全套 / 全集: "the whole book", the work itself)
_WORK_REFERENCE = re.compile(r"\s*(?:全(?:书|剧|片|套|集)(?=由|共|于|已|将|获)|"
                             r"(?:该|这[部本款艘架首篇台辆种])(?:药|药品|新药|产品|疫苗|器械|车型|系统|软件|平台|书|"
                             r"作品|小说|"
                             r"邮轮|轮船|船舶|船|飞机|机型|卫星|火箭|设备|装备|芯片|车|款|机|"
                             r"影片|片|剧|电影|专辑|耳机|手机|舰|艇|装置|仪器|雷达|机器人|模型|游戏))")
# 该 and a word of a kind no list above holds (该望远镜, 该标准, 该模型): a clause about the work whose kind was written
# with that word where it was named (“昆仑远瞻”2.5米光学望远镜, 团体标准《…》, 大模型“蜀言”); a body's kinds are
# the organisation pointers' (`_KIND_POINTER`, REFERENCE)
_KIND_WORD_POINTER = re.compile(r"\s*该(?!公司|集团|企业|机构|单位|子公司|行|校|院|所|厂|馆|医院|中学|学校|大学|书院|"
                                r"项目|地区|市|省|县|区|镇|村|国)(?P<noun>[\u4e00-\u9fff]{1,4})")
# 新银行, 新公司, 新集团: "the new bank" after a sentence that formed one, no name of its own (`_new_body_named`)
_NEW_BODY = re.compile(r"新(银行|公司|集团|企业|医院|学校|大学|学院|律所|事务所|机构)")
# What a person does at a body named right after 在 (2010年在X获得博士学位, 长期在X工作): the body is where it was
# done, not who did it.
_CAREER_AT = re.compile(r"[^，。；]{0,4}?(?:获得|获|取得|攻读|担任|出任|任职|工作|从事|学习|深造|进修|访学|任教)")
# A clause that is only the next maker of such a list: 华岳建筑设计院有限公司设计 after 由宛澜置业有限公司开发
# (…，东海海洋研究院负责总体设计: the part of the work it did may stand between 负责 and the verb)
_NEXT_MAKER = re.compile(r"\s*(?:再)?由?(?P<maker>[^，。；]{2,30}?)(?:负责(?:总体|整体|主体|结构|工程)?)?" + BUILT
                         + r"\s*[。！？]?\s*")
# (该船由A建造，B负责总体设计: a pointer at the made thing may stand before 由)
_BY_OPENS = re.compile(r"\s*(?:(?:该|此|这)[\u4e00-\u9fff]{1,4}?)?由")
# A clause of only people and a work's verb (尹冬禾执导; 演员A、B主演) after one that named a work's maker.
_NEXT_WORK_MAKER = re.compile(r"\s*由?(?P<maker>[^，。；]{2,16}?)(?P<verb>执导|领衔主演|主演|创作|作曲)\s*[。！？]?\s*")
_WORK_MAKERS = frozenset({"publishedBy", "createdBy", "directedBy", "performedBy"})
# A quoted ship, building or project opening its clause after the noun of its kind (首航船舶“桂海明珠”轮归…): the
# clause's subject, not the chunk's company
_BUILT_KIND_BEFORE = re.compile(r"\s*[\u4e00-\u9fff]{0,6}(?:船舶|船|货轮|邮轮|舰|飞机|客机|楼盘|大厦|大桥)[“\"「『]")


# A post in a clause (董事长, 副总经理, 董事会秘书); 董事 of 董事会 (the board, a body) is none.
_POST = re.compile("(?:" + TITLE_ALT + ")(?!会)")


def _posts(clause: str) -> str:
    """The posts a clause names, in its order ("任本公司董事、总经理" -> 董事、总经理), joined by 、; "" when it
    names none. A worksFor relation keeps them as the text's words for the link (its "said"), which a
    question such as "…的董事长是谁？" is matched against."""
    found = [m.group(0) for m in _POST.finditer(clause)]
    return "、".join(dict.fromkeys(found[:4]))


@dataclass
class OpenEvent:
    type: str  # rule names: Birth, Founding, Acquisition, Creation (the schema's where it has them)
    trigger: str
    arguments: dict[str, list[Mention]]
    time: Mention | None = None
    place: Mention | None = None



# 经X会计师事务所（特殊普通合伙）审计 / 经公司第四届董事会第十二次会议审议: a clause that frames the sentence with who
# audited or reviewed it
_AUDIT_FRAME = re.compile(r"\s*经[^，。；]{2,40}?(?:审计|审议|审阅|鉴证)\s*")
# A clause that opens with a subsidiary's kind and then its name (控股子公司X…, 全资子公司X…)
_CHILD_OPENS = re.compile(r"\s*(?:全资|控股|参股)子公司")
# A list item's number opening a clause (report_reference.LIST_NUMBER: 3、 / （四）…), not an amount (1.5亿元)
_LIST_NUMBER = re.compile(r"\s*" + LIST_NUMBER + r"\s*")


def _split(text: str, start: int, end: int, mentions: list[Mention], values: list[Mention]) -> list[Clause]:
    out: list[Clause] = []
    pos = start
    for m in [*_CLAUSE_END.finditer(text, start, end), None]:
        if (number := _LIST_NUMBER.match(text, pos)) is not None:
            pos = number.end()  # 3、公司全资子公司X…: an item's number says nothing; the clause opens after it
        stop = m.start() if m else end
        if stop > pos:
            out.append(Clause(pos, stop, text[pos:stop], [x for x in mentions if pos <= x.start and x.end <= stop],
                               [v for v in values if pos <= v.start and v.end <= stop]))
        pos = m.end() if m else end
    return out



class OpenRelationRules(FoundingFacts, PlaceFacts, CareerFacts, DealFacts, MakerFacts, OwnerFacts, ReportFacts,
                        FigureFacts):
    """The clause patterns of every group, run clause by clause over a chunk's sentences."""

    # ------------------------------------------------------------------ the chunk

    def chunk_company(self, mentions: list[Mention], text: str | None = None) -> Mention | None:
        """The organisation 公司 / 本公司 / 集团 stands for in a chunk that names it: a company, never a school or an
        agency the report names (公司与清华大学、浙江大学分别共建…: 公司 is not 清华大学); one with a short name
        first. With the chunk's `text`, never a company named in a role towards 公司 (its subsidiary, holder or
        purchase: `own_company.beside_own`)."""
        if text is not None:
            written = mentions
            # (a company the chunk declares its 公司, 以下简称“公司”, stays whatever role it is named in)
            mentions = [m for m in mentions if not (self._company(m) and beside_own(text, m) and not any(
                a in ("公司", "本公司", "本集团") for a in m.aliases))]
            # 对粤美厨电股份有限公司控股股东X（以下简称“…”）…；公司时任董事长P: a company named as another's holder is
            # not the chunk's 公司, short name or not; where the company it holds is no name found (璇玑导航控股股东X…，
            # 公司实际控制人P), the chunk's 公司 is that company, which has no name here
            holders = [(m, owned) for m in written if self._company(m) and not any(
                a in ("公司", "本公司", "本集团") for a in m.aliases)
                and (owned := self._holder_of_another(text, m, written)) is not False]
            if holders:
                # (each mention of the holder: its short name written later is the holder too)
                holder_names = {h.name for h, _ in holders}
                held = [m for m in mentions if self._company(m) and m.name not in holder_names]
                if not held or (held[0].start > holders[0][0].start and holders[0][1] is None):
                    return None
                mentions = [m for m in mentions if m.name not in holder_names]
        return next((m for m in mentions if self._org(m) and m.aliases and self._company(m)), None) or next(
            (m for m in mentions if self._org(m) and self._company(m)), None)

    def _holder_of_another(self, text: str, m: Mention, mentions: list[Mention]) -> Mention | bool | None:
        """Whether company `m` is named as the holder of a company written right before the role (X控股股东m): the
        company held, where it is a name found; None where it is not (璇玑导航控股股东m); False where `m` is no such
        holder, or holds the report's own 公司 or the one 其 points at (`own_company.beside_own` reads those)."""
        role = _HOLDER_OF_ANOTHER.search(text, max(0, m.start - 12), m.start)
        if role is None:
            return False
        owned = next((x for x in mentions if x.end == role.start() and self._org(x) and self._company(x)), None)
        if owned is not None:
            return owned
        before = text[max(0, role.start() - 2):role.start()]
        if not before or before.endswith(("公司", "集团")) or before[-1] in "其为原新现前及和与，,。；;：:、 \n\t":
            return False
        return None

    def chunk(self, text: str, mentions: list[Mention], values: list[Mention],
              document_org: Mention | None = None) -> tuple[list[OpenFact], list[OpenEvent]]:
        """`document_org`: the stand-in for the document's company, where the chunk says 公司 before naming any
        (`report_reference.stand_in`)."""
        facts: list[OpenFact] = []
        topic_org = document_org or self.chunk_company(mentions, text)
        # what the chunk is about: its first name, unless a place after a verb (鼓浪屿位于福建省…: not 福建省)
        # (经容诚会计师事务所审计，2024年度X实现…: the auditor that framed the sentence is not what it is about)
        framed = [(f.start(), f.end()) for f in _AUDIT_FRAME.finditer(text)]
        topic = next((m for m in mentions if not self._date(m) and not (self._place(m) and not LEAD_IN.match(
            text[max(text.rfind(e, 0, m.start) for e in "。！？\n") + 1:m.start]))
            and not any(s <= m.start < e for s, e in framed)), None)
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
        return _unique(_new_body_named(facts, orgs)), self._events(facts)

    def _own_subject(self, clause: Clause, text: str) -> Mention | None:
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
        if (child := _CHILD_OPENS.match(clause.text)) is not None:
            # …；控股子公司福建X有限公司（公司持股60%）2024年实现营业收入…: the subsidiary the clause opens with
            named_child = next((m for m in clause.mentions if m.start == clause.start + child.end() and self._org(m)),
                               None)
            if named_child is not None:
                return named_child
        # (总部位于杭州市滨江区的篁岭物流成立于2016年: the company whose seat it is)
        where = re.match(r"\s*(?:(?:总部)?(?:位于|地处|坐落于|坐落在|设在)[^，。；]{2,20}?"
                         r"|在[^，。；]{2,20}?(?:上市|挂牌))的", clause.text)
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
            if not LEAD_IN.match(text[clause.start:m.start]):
                return None
            # 美国艺电公司宣布…收购…: the country says where the company is; the company is the subject; so does a
            # place and 的 before it (成都的锦蓉智算科技有限公司发布了…: the company releases, not the city)
            if self._place(m) and text[m.end:m.end + 1] == "的":
                return next((x for x in clause.mentions if x.start == m.end + 1 and self._org(x)), m)
            return next((x for x in clause.mentions if x.start == m.end and self._org(x)), m) \
                if self._place(m) and m.spg_class in self.is_country else m
        return None

    def _sentence(self, text: str, start: int, end: int, clauses: list[Clause], inside: list[Mention],
                  chunk_org: Mention | None, topic: Mention | None, orgs: list[Mention],
                  parties: list[Mention], works: list[Mention]) -> list[OpenFact]:
        out: list[OpenFact] = []
        dates = [m for m in inside if self._date(m)]
        lead_date = dates[0] if dates and LEAD_IN.match(text[start:dates[0].start]) else None
        sentence_subject: Mention | None = None
        last_metric: OpenFact | None = None
        made_thing: Mention | None = None  # what the last clause said was made by someone named after 由
        made_work: Mention | None = None  # the work the last clause named a maker or a publisher of
        pointing: re.Match[str] | None = None  # the last clause of the sentence that opened by pointing at a thing
        dates_from = start  # where the dates that later clauses inherit begin (a pointer to another name resets it)
        for clause in clauses:
            pointed_now = False  # whether the clause's subject is the name 前者 / 后者 / 该子公司 points at
            pointing = _UNNAMED_CLAUSE.match(clause.text) or pointing
            if re.match(r"\s*(?:据|根据|援引)", clause.text) or _AUDIT_FRAME.fullmatch(clause.text):
                continue  # 据新华社报道: the source of the news, not what it is about (经X审计: who audited it)
            # a report's 公司 points back: at the chunk's company where it was named by the end of this clause, else
            # at a company named before (…拥有授权专利213项。2024年度公司研发投入…。黄卓然此前曾任丰禾饲料集团有限公司
            # 副总裁: 公司 is not 丰禾, named only later)
            # (never a company named as 公司's holder, subsidiary or auditor: `own_company.beside_own`)
            topic_org = chunk_org if chunk_org is None or chunk_org.start < clause.end else next(
                (m for m in orgs if self._company(m) and m.end <= clause.start and not beside_own(text, m)), None)
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
            if own is None and (site := _SITE_POINTER.match(clause.text)) is not None:
                # (a name written with the kind and then a company's ending is that site: 妇产医院有限公司)
                own = self._pointed_at("该", [m for m in [*orgs, *works] if re.search(
                    site.group(1) + _COMPANY_ENDING + "$", m.name)], clause.start) or Mention(
                    site.group(0).strip(), "", clause.start, clause.start, site.group(0).strip(), kind="unnamed")
                pointed_now = True
                dates_from = clause.start
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
                pointed_now = True
                dates_from = clause.start
            if own is None and re.match(r"\s*(?:他|她)(?![们人])", clause.text):
                # …的总设计师为事务所合伙人李明哲，他毕业于同济大学: 他 / 她 is the person named last before (not the
                # clause's carried subject, a body named with the person)
                own = next((x for x in reversed(parties) if self._person(x) and x.end <= clause.start), None)
            if own is None and (ref := REFERENCE.match(text[clause.start:clause.end].lstrip())) is not None:
                # 学校 / 该校 is the chunk's school; 公司, 本行, 其… its company
                own = next((m for m in orgs if m.spg_class in self.is_edu), None) if ref.group(0).endswith("校") \
                    else topic_org
                child = _OWN_CHILD.match(text, clause.start + len(clause.text) - len(clause.text.lstrip()) + ref.end())
                if child is not None and ref.group(0) != "其":
                    # 公司全资子公司X于…收购Y: the subsidiary named after 公司 is the subject, whatever 公司 is
                    own = next((x for x in clause.mentions if x.start == child.end() and self._org(x)), None) or own
                if ref.group(0) in ("该公司", "该集团") and topic_org is not None:
                    # 甲公司收购了乙公司。该公司于2010年…上市: 该公司 is the company named last before, 公司 the
                    # report's
                    # (该公司成为桂垣糖业的全资子公司: not a company the clause names itself)
                    # (其12英寸晶圆厂于…量产。该公司由…设立: a plant is no company 该公司 points at)
                    own = self._pointed_at("该", [m for m in orgs if self._company(m) and all(
                        m.name != x.name for x in clause.mentions) and not m.name.endswith(("厂", "基地", "工厂"))],
                        clause.start) or topic_org
                    if sentence_subject is not None and own is not None and own.name != sentence_subject.name:
                        # 公司以3.6亿元收购X，该公司成立于2014年，总部位于…: 该公司 turns the sentence to X, as 后者
                        # does; the clauses after it with no subject of their own speak of X, and the dates of the
                        # earlier ones are not X's
                        pointed_now = True
                        dates_from = clause.start
                if ref.group(0) == "其" and sentence_subject is not None and self._org(sentence_subject) \
                        and sentence_subject.kind != "unnamed":
                    # 粤鲜坊成立于2015年，总部位于…，其创始人P…: 其 is the organisation the sentence is about, not the
                    # chunk's company named in an earlier sentence
                    own = sentence_subject
                if own is None and ref.group(0) != "其":
                    # 公司与清华大学…共建: a report's 公司 with no name in the chunk names nothing; what the clause says
                    # of it is dropped, what it says of the names in it stays (公司自主研发的“穗丰”…荣获…)
                    own = Mention(ref.group(0), "", clause.start, clause.start, ref.group(0), kind="unnamed")
            lead = own or (topic if sentence_subject is None else None)
            if lead is not None and self._person(lead) and lead in clause.mentions:
                # 作家林晚秋的长篇小说《雾港》于2023年…出版，…获得…: the work the person's 的 leads to is what the
                # sentence is about
                own = next((x for x in clause.mentions if x.kind in ("quote", "title") and x.start > lead.end
                            and WORK_OF.fullmatch(text[lead.end:x.start - 1])), None) or own
            if own is None and _WORK_REFERENCE.match(clause.text):
                # 恒瑞医药的创新药“瑞维鲁胺”…，该药由…自主研发: the work named before is the clause's subject, in this
                # sentence or an earlier one of the chunk (…发布重型卡车“驰骋H8”。该车由…研制)
                own = next((x for x in reversed(works) if x.end <= clause.start), None)
            if own is None and (kind_word := _KIND_WORD_POINTER.match(clause.text)) is not None:
                own = _work_of_kind(text, kind_word.group("noun"), works, clause.start)
            if made_thing is not None and (nxt := _NEXT_MAKER.fullmatch(clause.text)) is not None:
                # 由宛澜置业有限公司开发，华岳建筑设计院有限公司设计，豫建第三工程有限公司承建: each clause names one
                # more maker of the thing the first one's subject is
                maker = next((x for x in clause.mentions if self._org(x) or self._person(x)), None)
                if maker is not None and maker.start == clause.start + nxt.start("maker"):
                    out.append(OpenFact(made_thing, "createdBy", maker, said=clause.text.strip()[-2:]))
                    continue
            if made_work is not None and (nxt := _NEXT_WORK_MAKER.fullmatch(clause.text)) is not None:
                # 该片由滇映文化传媒有限公司出品，尹冬禾执导: a clause of only people and a work's verb names more
                # makers of the work the clause before was about
                people = [x for x in clause.mentions if self._person(x)]
                out += [OpenFact(made_work, WORK_MAKER[nxt.group("verb")], p, said=nxt.group("verb")) for p in people]
                if people:
                    continue
            subject = own or sentence_subject or topic
            if own is not None and self._org(own) and text[clause.start - 1:clause.start] in "；;" \
                    and clause.start > start:
                # …：A为公司全资子公司；B由公司持股60%，2024年实现净利润…: a clause after a semicolon that names its
                # own subject turns the sentence to it
                pointed_now = True
            if own is not None and (sentence_subject is None or pointed_now):
                # (前者…；后者的总部设在…，注册资本为…: a clause that points at another name turns the sentence to it,
                # so the clauses after it with no subject of their own speak of the latter)
                sentence_subject = own
            if subject is None:
                continue
            # a period stated earlier in the sentence holds for its later clauses (2022年实现营收…，净利润…)
            # (…前者于2017年在醴陵市成立；后者的总部设在…，注册资本为…: a date said of the former is not the latter's)
            clause_date = next((m for m in clause.mentions if self._date(m)), None) or lead_date or next(
                (m for m in reversed(dates) if dates_from <= m.start and m.end <= clause.start), None)
            new = self._clause(text, clause, subject, clause_date, inside, topic_org, end, orgs)
            out += new
            made_thing = next((f.subject for f in new if f.predicate == "createdBy" and f.subject is subject
                               and _BY_OPENS.match(clause.text)), None)
            made_work = subject if subject.kind in ("title", "quote") and any(
                f.subject is subject and f.predicate in _WORK_MAKERS for f in new) else None
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
            elif pointing is not None:
                # …的整车工厂正式投产，该工厂总投资62亿元，设计年产能20万辆: from the clause that points at the plant
                # on, the figures are the plant's (an organisation named before with that noun's ending, else no one's)
                metric_subject = next((o for o in reversed(orgs) if o.end <= clause.start
                                       and o.name.endswith(pointing.group("noun"))), None)
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
            if (product := next((x for x in clause.mentions if x.kind in ("quote", "title")
                                 and _WORK_FIGURE.match(text, x.end)), None)) is not None:
                # 其中高端产品“醍香·十五年”系列实现销售收入19.6亿元: the named product's figure, not the company's
                metric_subject = product
            last_metric = self._figures(text, clause, metric_subject, clause_date, out, last_metric)
        out += self._places_in_a_row(text, inside, out)
        return out

    # ------------------------------------------------------------------ clause patterns

    def _clause(self, text: str, clause: Clause, subject: Mention, when: Mention | None, sentence: list[Mention],
                topic_org: Mention | None, sentence_end: int, orgs: list[Mention]) -> list[OpenFact]:
        c = clause.text
        out: list[OpenFact] = []
        timed = [("时间", when)] if when is not None else []
        self._kind_of(text, clause, subject)

        def add(s: Mention | None, p: str, o: Mention | None,
                qualifiers: list[tuple[str, Mention]] | None = None) -> None:
            if s is not None and o is not None and s.name != o.name and not _same_company(s.name, o.name) \
                    and not (p in BETWEEN_PARTIES and (self._where_or_when(s) or self._where_or_when(o))) \
                    and not (p in ("locatedIn", "headquarteredIn") and self._larger(s, o)) \
                    and "unnamed" not in (s.kind, o.kind):
                words = re.search(SAID[p], c) if p in SAID else None
                said = words.group(0) if words else ""
                if p == "worksFor":  # the post says more of the link than the verb (任 -> 董事长)
                    said = _posts(c) or said
                out.append(OpenFact(s, p, o, list(qualifiers or []), said))

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

        scope = ClauseScope(text, clause, subject, when, sentence, topic_org, sentence_end, orgs, timed, add, place_at)
        # in the order the rules were written in (a fact stated twice keeps the first one's place and joins the
        # qualifiers of both)
        self._foundings(scope)
        self._locations(scope)
        self._births_and_schools(scope)
        self._posts(scope)
        self._sale(scope)
        self._teachers_and_students(scope)
        self._resignations(scope)
        self._acquisitions(scope)
        self._makers(scope)
        self._heads_of_places(scope)
        self._whose_work(scope)
        self._approvals(scope)
        self._parents(scope)
        self._post_held_by(scope)
        self._subsidiary_of(scope)
        self._announced_subsidiaries(scope)
        self._subsidiary_beside_its_parent(scope)
        self._cooperation(scope)
        self._held_at(scope)
        self._co_hosts(scope)
        self._report_facts(text, clause, subject, timed, sentence, topic_org, sentence_end, add, scope.orgs)
        self._predecessors_and_lists(scope)
        self._mergers(scope)
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


def _new_body_named(facts: list[OpenFact], orgs: list[Mention]) -> list[OpenFact]:
    """…合并组建湖南X农村商业银行股份有限公司，新银行总部设在… / 新公司注册资本…: 新 and a body's kind is the body
    of that kind the chunk named before it (one that a fact says was formed or founded first), not a name of its
    own."""
    formed = {f.subject.name for f in facts if f.predicate in ("predecessor", "foundedOn", "foundedBy")}

    def body(m: Mention) -> Mention:
        hit = _NEW_BODY.fullmatch(m.name)
        if hit is None or not (m.kind == "org" or m in orgs):
            return m
        named = [o for o in orgs if o.end <= m.start and o.name != m.name and hit.group(1) in o.name]
        return next((o for o in reversed(named) if o.name in formed), None) or (named[-1] if named else m)

    out = []
    for f in facts:
        s, o = body(f.subject), body(f.object)
        if s.name == o.name:
            continue
        out.append(f if (s, o) == (f.subject, f.object) else OpenFact(s, f.predicate, o, f.qualifiers, f.said))
    return out


def _work_of_kind(text: str, noun: str, works: list[Mention], before: int) -> Mention | None:
    """The work named last before `before` whose kind word, written right before its name or right after it in
    the same clause (大模型“蜀言”, “昆仑远瞻”2.5米光学望远镜), begins `noun` (the words after 该: 模型由…,
    望远镜由…)."""
    for w in reversed([x for x in works if x.end <= before]):
        lead = re.search(r"[\u4e00-\u9fffA-Za-z0-9.]{0,10}[“\"「『《]?$", text[max(0, w.start - 11):w.start])
        tail = re.match(r"[”\"」』》]?[\u4e00-\u9fffA-Za-z0-9.]{0,10}", text[w.end:w.end + 11])
        kinds = (lead.group(0) if lead else "", tail.group(0) if tail else "")
        # the longest opening of `noun` that a kind word around the name holds, two characters or one ending it
        for n in range(len(noun), 0, -1):
            word = noun[:n]
            if any(word in k if n >= 2 else k.rstrip("“\"「『《”」』》").endswith(word) for k in kinds):
                return w
    return None


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
