"""Works, products, awards and events: titles in 《》, quoted names typed by the noun before or after the quotes
(平台“天枢”, “北辰X5”数控机床) or by a release, awards by their endings (…奖, …勋章), events by an edition or year and
their ending (第十届…电影节), and Latin names glossed or defined (EDSAC（电子延迟存储自动计算器）)."""

from __future__ import annotations

import re

from kgbuild.extract.zh import word_lists as wl
from kgbuild.extract.zh.mentions import Mention
from kgbuild.extract.zh.name_rules import (
    BREAK,
    HAN,
    Found,
    NameRules,
    overlaps,
    unknown_char,
)
from kgbuild.extract.zh.segment import Token

_QUOTED = re.compile(r"[“\"「『]([^“”\"「」『』\n]{1,30})[”\"」』]")
_TITLED = re.compile(r"《([^《》\n]{1,40})》")
# Papers of a company's or a regulator's business, titled in 《》 as works are: an agreement signed, a motion
# passed, a decision served (《战略合作框架协议》, 《关于回购公司股份方案的议案》, 《行政处罚决定书》). No reader asks
# who wrote them, and the labelled sets leave them out (13 of 15 such titles); the title still keeps its words from
# other names.
_BUSINESS_PAPER = re.compile(r"(?:协议|合同|议案|决定书|决议|通知书|问询函|监管函|警示函|关注函|承诺函|告知书)$")
# A law the text says is followed (严格按照《公司法》《证券法》的规定): a statute, not a work of anyone's.
_LAW = re.compile(r"[\u4e00-\u9fff]{1,16}法$")
_FOLLOWING_RULES = re.compile(r"(?:按照|依据|根据|依照|违反|遵守|符合|遵循|执行)(?:《[^《》\n]{1,40}》[、和及与]?)*$")
# Words before a product's kind that are not part of it: 新一代工业视觉平台 -> 工业视觉平台.
_PRODUCT_LEAD = re.compile(r"^.*?(?:新一代|全新|一款|一种|一个|最新|自主研发的|研发的|的)")
# ENIAC是一台计算机: what a Latin name is, said right after it.
_DEFINED = re.compile(r"\s*(?:是|为)(?:一[台种部款个家])?[^，。；]{0,12}?(?=[，。；]|$)")
# Adjectives that open awards' names (最佳影片奖, 最佳女主角奖): kept where other adjectives before an award are not.
_AWARD_LEADS = frozenset({"最佳", "杰出", "优秀", "终身成就"})
# What opens a named event before its proper words: an edition or a year (第十届, 2025年).
_NOUN_AFTER_QUOTES = re.compile(r"(?:系列|牌)?([\u4e00-\u9fffA-Za-z]{1,10})")
# A maker's verb and 的, then at most a description, right before the quotes (联合研制的…主轴承“…”).
_MADE_BEFORE = re.compile(r"(?:研制|研发|开发|设计|生产|制造|打造)的[^，。；、“”《》\n]{0,24}$")
_EDITION_BEFORE = re.compile(r"第[一二三四五六七八九十百零\d]+届$")  # 第四届 right before a prize's name
# The verbs of naming right before quotes (命名为, 更名为, 名称为): the quoted name is given to a thing or a body.
_NAMING_BEFORE = re.compile(r"(?:命名为|更名为|改名为|定名为|名称为|名称变更为|冠名为)[：:\s]*$")
_EDITION = re.compile(r"(?:第[一二三四五六七八九十百零\d]+届|\d{4}年度?)$")


class WorkNames(NameRules):
    """Names of works, products, awards and events."""

    def _awards(self, text: str, tokens: list[Token], blocked: list[tuple[int, int]]) -> list[Found]:
        if self.award is None:
            return []
        out = []
        for i, tok in enumerate(tokens):
            if not tok.word.endswith(wl.AWARD_SUFFIXES) or overlaps(blocked, tok.start, tok.end):
                continue
            start = tok.start
            k = i - 1
            inside: list[Token] = []  # 国家 | 最高 | 科学技术奖: an adjective inside an award's name, not at its start
            while k >= 0 and tokens[k].end == start and (self._namey(tokens[k]) or (
                    tokens[k].pos == "a" and HAN.match(tokens[k].word) is not None)):
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
            if ending is None or self.event is None or overlaps(blocked, tok.start, tok.end):
                continue
            start, k = tok.start, i - 1
            # (the edition or year required before the words keeps ordinary ones out: 全国 | 田径 | 锦标赛)
            while k >= 0 and tokens[k].end == start and tok.start - tokens[k].start <= 14 and (
                    tokens[k].pos[:1] == "n" or tokens[k].pos in ("a", "vn", "f", "b", "j", "l")) \
                    and HAN.match(tokens[k].word):
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
        clause_end = BREAK.search(text, end)
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
            if _BUSINESS_PAPER.search(m.group(1)) or (_LAW.fullmatch(m.group(1)) and (
                    m.group(1).startswith("中华人民共和国")
                    or _FOLLOWING_RULES.search(text, max(0, m.start() - 60), m.start()))):
                continue  # 《行政处罚决定书》, 按照《公司法》: a paper of business or a law, no work
            if cls:
                out.append(Found(Mention(m.group(1), cls, m.start(1), m.end(1), m.group(1)), "title"))
        for m in _QUOTED.finditer(text):
            spans.append((m.start(), m.end()))
            # 被命名为“俞砚农星”, 更名为“楚味体育馆”, 名称为“衡正南粤律师事务所”: a name given, a thing or a body of its
            # own (a new name is no declared short name)
            naming = _NAMING_BEFORE.search(text, max(0, m.start() - 8), m.start()) is not None
            if not naming and re.search(r"(?:简称|称|名为|又名|俗称)[为：:\s]*$", text[:m.start()]):
                continue  # a declared short name: an alias, not a thing of its own
            cls = self._head_before(text, m.start())
            if cls:
                kind = re.search(r"[\u4e00-\u9fff]{2,12}$", text[max(0, m.start() - 12):m.start()])
                phrase = _PRODUCT_LEAD.sub("", kind.group(0)) if kind else ""
            elif (after := self._head_after(text, m.end())) is not None:  # “北辰X5”数控机床: the noun after
                cls, phrase = after
            elif (re.search(r"(?:发布|推出|首发|亮相)(?:了)?[^，。；“”]{0,16}$", text[:m.start()])
                  and re.match(r"[，。；、和及]|$", text[m.end():m.end() + 1])) \
                    or _MADE_BEFORE.search(text, max(0, m.start() - 40), m.start()) is not None:
                # 在上海发布新一代石墨烯保暖面料“云暖Ⅱ”。: what a release names, whatever its noun (a noun after the
                # quotes, 发布“十四五”规划, says it is a plan, not a product); 联合研制的高强度焊接材料“焊灵”,
                # 自主研发的“海燕”系列滑翔机: what the clause says was developed or made is a made thing, whatever
                # its noun
                cls = self.resolve("ArtificialObject")
                kind = re.search(r"[\u4e00-\u9fff]{2,12}$", text[max(0, m.start() - 12):m.start()])
                phrase = _PRODUCT_LEAD.sub("", kind.group(0)) if kind else ""
            elif self.award and re.search(r"(?:荣获|获评|获授|被授予|授予|获颁|荣膺|获得|被[^，。；“”]{0,20}?评为)"
                                          r"(?:\d{4}年度?)?$", text[:m.start()]):  # 荣获2023年度“中国慈善奖”
                cls, phrase = self.award, ""  # 获评“云南省优秀企业家”: what is conferred is an award
            elif self.award and re.search(r"(?:荣获|获得|获颁|获)[^，。；“”]{2,24}?(?:颁发|授予|评选|评定)的$",
                                          text[max(0, m.start() - 40):m.start()]):
                cls, phrase = self.award, ""  # 荣获中国轻工业联合会颁发的“创新设计奖”: the body that gives it between
            elif self.award and m.group(1).endswith(("奖", "奖章", "勋章")) \
                    and _EDITION_BEFORE.search(text[:m.start()]):
                cls, phrase = self.award, ""  # 第九届“江南企业家精神奖”评选结果揭晓: a prize given by edition
            elif (own := self._own_ending(m.group(1))) is not None:
                # “衡正南粤律师事务所”, 作品曾获“长江水墨双年展金奖”, 河海大学的“零点队”: a quoted name that ends the
                # way a body's, a prize's, a team's or a building's name ends is one, whatever the words around it
                cls, phrase = own, ""
            elif naming and not re.search(r"简称[^，。；]{0,6}$", text[max(0, m.start() - 16):m.start()]):
                cls, phrase = self.resolve("Thing"), ""  # 小行星被命名为“俞砚农星”: what is named, of no kind said
            if cls:
                out.append(Found(Mention(m.group(1), cls, m.start(1), m.end(1), m.group(1),
                                         semantic_type=phrase if len(phrase) >= 2 else None), "quote"))
        return out, spans

    def _buildings(self, text: str, tokens: list[Token], blocked: list[tuple[int, int]]) -> list[Found]:
        """潇水大桥, 长沙国际体育中心体育馆, 青岛崂山阿尔彭庭度假酒店: a building or a structure named by its ending,
        the name reaching back over the name-like words before it, at least one of them a proper name (a place, a
        person's or a rare word jieba does not know), never over a province, a country or a place written with its
        level (浙江 | 横店影视城, 弥勒市 | 鹰嘴岩水库: where it stands, not its name)."""
        cls = self.resolve("Building|ArtificialObject")
        if cls is None:
            return []
        out: list[Found] = []
        for i, tok in enumerate(tokens):
            if not tok.word.endswith(wl.STRUCTURE_ENDINGS) or overlaps(blocked, tok.start, tok.end):
                continue
            start, k, proper = tok.start, i - 1, False
            while k >= 0 and tokens[k].end == start and tok.end - tokens[k].start <= 16 \
                    and (self._namey(tokens[k]) or tokens[k].word == "度假") \
                    and not overlaps(blocked, tokens[k].start, tokens[k].end):
                w = tokens[k].word
                if w in wl.PROVINCES or w in wl.COUNTRIES or w[-1] in "省市区县":
                    break  # (弥勒 | 市 | 鹰嘴岩水库: a place's level ends where it stands, jieba's word or its own)
                proper = proper or (tokens[k].pos in ("ns", "nr", "nrt", "nz", "j") and len(w) >= 2) \
                    or unknown_char(tokens[k])
                start, k = tokens[k].start, k - 1
            name = text[start:tok.end]
            if proper and start < tok.start and not self._common(name):
                out.append(Found(Mention(name, cls, start, tok.end, name), "building"))
        return out

    def _own_ending(self, name: str) -> str | None:
        """The class a quoted name's own ending gives it: an organisation's (…律师事务所, …有限公司), a prize's (…奖), a
        team's (…队) or a building's (…体育馆); None for none, a bare kind (本公司) or an ordinary word."""
        if self._common(name) or name in wl.ORG_STOP or name in wl.AWARD_STOP:
            return None
        org = self._org_end_re.search(name)
        if org is not None and len(name) >= len(org.group(0)) + 2:
            return self.org_classes[org.group(0)]
        if name.endswith(wl.AWARD_SUFFIXES) and len(name) >= 3:
            return self.award
        if name.endswith("队") and len(name) >= 3:
            return self.resolve("SportsTeam|Organization")
        if name.endswith(wl.BUILDING_ENDINGS) and len(name) >= 4:
            return self.resolve("Building|ArtificialObject")
        return None

    def _latin_names(self, text: str, tokens: list[Token], blocked: list[tuple[int, int]]) -> list[Found]:
        """EDSAC（电子延迟存储自动计算器）, ENIAC是一台计算机: a Latin name in Chinese text, typed by the noun of its
        gloss in brackets or of its 是一台/一种… definition; with neither, it is not kept."""
        out = []
        for tok in tokens:
            if tok.pos != "eng" or len(tok.word) < 3 or not tok.word[:1].isupper():
                continue
            if overlaps(blocked, tok.start, tok.end):
                continue
            gloss = re.match(r"\s*[（(]([^（）()]{2,30})[）)]", text[tok.end:tok.end + 34])
            defined = _DEFINED.match(text[tok.end:tok.end + 20])
            cls = None
            for part in (gloss.group(1) if gloss else "", defined.group(0) if defined else ""):
                cls = cls or next((c for h, c in self.product_heads if part.endswith(h)), None)
            if cls is not None:
                out.append(Found(Mention(tok.word, cls, tok.start, tok.end, tok.word), "latin"))
        return out
