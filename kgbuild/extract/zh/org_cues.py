"""Organisations by what the text says around them, where no ending marks them: a name before an executive title
(星河智能董事长), between 为 and the title of an appointment, a short name opening a clause before what reports say
of companies (海川环境实现营业收入), one listed with an organisation found, the agents after 由 / 被, the items of a
list whose head says what they are, and jieba's own organisation words listed together."""

from __future__ import annotations

import re

from kgbuild.extract.zh import word_lists as wl
from kgbuild.extract.zh.mentions import Mention
from kgbuild.extract.zh.name_rules import (
    ACTION_MIN_FREQ,
    BREAK,
    FUNCTION_TAGS,
    HAN,
    KIN_AFTER,
    NOT_EMPLOYER_LEAD,
    TITLE_RUN,
    Found,
    overlaps,
    rare_char_as_measure,
    suffix_pattern,
    surname_at,
)
from kgbuild.extract.zh.person_names import PersonNames
from kgbuild.extract.zh.segment import Token

_MODIFIERS = ("轮值", "执行", "联席")
# How a text describes a person before the name, beyond the titles of word_lists (归国学者, 青年企业家, 文献学家).
# (由自然人卢静姝创办: a party that is a natural person, as deals and registrations say)
_DESCRIBED_AS = ("学者", "专家", "企业家", "学家", "音乐人", "自然人")
# A clause's opening: the start of the text or a clause break, then a time or frame (2023年，/ 截至报告期末，).
_CLAUSE_OPEN = re.compile(r"(?:^|(?<=[，。；：！？\n]))\s*")
_SUBJECT_CUE = re.compile(wl.SUBJECT_GAP + r"(?:" + wl.SUBJECT_CUES + r")")
# The cues only a company is the subject of (a person is never 实现营业收入): they settle a name jieba tags a person's.
_COMPANY_CUE = re.compile(wl.SUBJECT_GAP + r"(?:实现(?:营业|归属|净利|销售|销量|营收|利润|收入|产量|交付)|研发投入|"
                          r"营业收入|净利润|的控股股东|的实际控制人|的(?:主要|全资|控股)子公司|总部位于|总部设在|主营业务|"
                          r"在职员工|员工总数|第[一二三四五六七八九十\d]{1,3}届(?:董事会|监事会)|控股股东|主要经营|"
                          r"合并报表实现)")
# Under this many uses in jieba's dictionary a character it tags a measure word is a rare one (泓 86, 个 125,538).
_RARE_MEASURE = 1000
# (2024年度澄源气体合并报表实现…: a report year may open the clause before the name, as a frame does)
_SUBJECT_LEAD = re.compile(r"(?:报告期内|截至报告期末|报告期末|同月|同年|此外|同时|另外|\d{4}年度)?")
_ITEMS = r"((?:[\u4e00-\u9fffA-Za-z0-9]{2,12}[、和及与]){1,12}[\u4e00-\u9fffA-Za-z0-9]{2,12})等"
_NOT_EMPLOYER = ("部", "处", "室", "中心", "委员会", "董事会", "监事会", "办公室", "财务", "事业部", "分公司", "本部",
                 "业务", "区域", "区", "板块", "条线", "事业群", "团队", "项目", "基地", "工厂", "门店", "分行", "支行",
                 "实验室", "研究院", "线")
# 由 [DESCRIPTION的] A(和 B) [于 DATE] [在 PLACE] [共同] VERB, 被 / 由 A 以 PRICE 收购: the agents of a passive or of
# a founding (_agents_after_you); 由厨师出身的冉怀瑾于2011年…创办: what the agent is, said before 的, is no agent.
_AGENTS = re.compile(r"由(?:[\u4e00-\u9fff]{1,10}的)?((?:[\u4e00-\u9fff]{2,8}?[和、与及])*[\u4e00-\u9fff]{2,8}?)"
                     r"(?:于\d{4}年(?:\d{1,2}月(?:\d{1,2}日)?)?)?(?:在[\u4e00-\u9fff]{2,12}?)?(?:共同|联合|独立|自主)?"
                     r"(?:出资)?(?:创办|创立|创建|设立|新设|研发|研制|开发|设计|收购|发布|推出|出版|建造|制造)|"
                     # …100%股权被桂垣糖业以2.35亿元现金收购: the buyer between 被 and the price
                     r"被([\u4e00-\u9fff]{2,8}?)(?:以[^，。；]{1,16}?)?(?:收购|并购|兼并)|"
                     r"由([\u4e00-\u9fff]{2,8}?)(?:以[^，。；]{1,16}?)(?:收购|并购|兼并)")


_LISTED_AS = re.compile(wl.LISTED_AS)
# A product line or a figure opening a report's clause, which 实现收入 follows as it follows a company (分产品看，
# 速冻面米制品实现收入…; 车载业务收入占营业收入的比例…): no company's short name.
_LINE_OF_BUSINESS = re.compile(r"(?:制品|产品|系列|板块|品类|占)$|业务|收入|利润")
# The company named after where it is listed: up to what news says it did, a joint with another, or a break
# (深市上市公司沂源新材同时发布…, 创业板公司汇溪环境披露, 港股上市公司驰远汽车集团有限公司发布公告).
_AFTER_LISTED = re.compile(r"[\u4e00-\u9fff]{2,12}?(?=公告|披露|发布|宣布|与|和|及|同时|称|今日|今天|日前|近日|晚间|"
                           r"董事会|股价|股票|的|拟|将|于|[，。；：、（(\s]|\d)")


def listed_spans(text: str) -> list[tuple[int, int]]:
    """Where the text says where a company is listed (深市上市公司), less the exchange's short name at its start."""
    out = []
    for m in _LISTED_AS.finditer(text):
        short = next((x for x in wl.EXCHANGE_SHORT_NAMES if m.group(0).startswith(x)), "")
        out.append((m.start() + len(short), m.end()))
    return out


class CuedOrgNames(PersonNames):
    """Organisations' names by the words around them."""

    def _org_after_listing(self, text: str, blocked: list[tuple[int, int]]) -> list[Found]:
        """深交所主板上市公司锦屏药业公告称, 创业板公司汇溪环境披露: news says where a company is listed right before
        its name, which is often a short name never declared in the text; what follows the description, up to what
        the company did, is the company (a registered name written whole too: 港股上市公司驰远汽车集团有限公司, which
        jieba cut as 驰 (a verb) | 远). The exchange's short name in the description is the exchange."""
        out: list[Found] = []
        exchange = self.org_classes.get("交易所")
        for m in _LISTED_AS.finditer(text):
            short = next((x for x in wl.EXCHANGE_SHORT_NAMES if m.group(0).startswith(x)), None)
            if short is not None and exchange is not None and not overlaps(blocked, m.start(), m.start() + len(short)):
                out.append(Found(Mention(short, exchange, m.start(), m.start() + len(short), short), "org"))
            after = _AFTER_LISTED.match(text, m.end())
            if self.company is None or after is None:
                continue
            name = after.group(0)
            if name.startswith(wl.SUBJECT_STOP) or name.startswith(wl.LEADING_NOISE) or self._common(name) \
                    or name in wl.ORG_STOP or overlaps(blocked, m.end(), after.end()):
                continue
            out.append(Found(Mention(name, self.company, m.end(), after.end(), name), "org"))
        return out

    def _org_before_title(self, text: str, tokens: list[Token], blocked: list[tuple[int, int]]) -> list[Found]:
        """星河智能董事长李明远: a name right before an executive title (with a person after it) is an organisation."""
        if self.company is None:
            return []
        out = []
        for m in suffix_pattern(wl.EXECUTIVE_TITLES).finditer(text):
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
            if start < stop and k >= 0 and tokens[k].end == start and len(tokens[k].word) == 2 \
                    and tokens[k].word[0] in "原前现" and HAN.match(tokens[k].word) \
                    and self.dictionary.entry(tokens[k].word) is None:
                start -= 1  # 由原豫 (a, a word jieba made up) | 锦 | 物流董事长: "former" glued to the name's first
            opening = re.search(r"(?:^|[，。；：！？\n])\s*([\u4e00-\u9fff]{2,6})$", text[max(0, stop - 8):stop])
            if start > stop - len(opening.group(1) if opening else "") and opening is not None and direct \
                    and not self._common(opening.group(1)) \
                    and not opening.group(1).startswith(wl.SUBJECT_STOP) and not any(
                        t.pos in FUNCTION_TAGS and not rare_char_as_measure(t, tokens)
                        for t in tokens if stop - len(opening.group(1)) <= t.start < stop):
                start = stop - len(opening.group(1))  # 蔚 | 来 | 汽车创始人李斌: the clause opens with the name
            name = text[start:stop]
            if not direct and (not _CLAUSE_OPEN.match(text, start) or (start > 0 and not BREAK.match(
                    text[start - 1])) or len(name) < 3 or name.startswith(wl.SUBJECT_STOP)):
                continue
            if name.endswith("兼") or name.startswith(wl.EXECUTIVE_TITLES):
                continue  # 创始人兼首席执行官P, 董事长兼总经理P: two posts of one person, no organisation before them
            if name.endswith(("为", "是")) and re.search(r"(?:人|者|东|方|员)$", name[:-1]):
                continue  # 实际控制人为董事长彭书远: a role and a copula stand before the post, no name (华为 is one)
            if re.search(r"(?:工作|事务|业务|事项|项目)$", name) or wl.is_department(name):
                continue  # 主管会计工作负责人P: the work a person is in charge of, not an employer (财务部负责人P: a
                # department of the employer)
            if 2 <= len(name) <= 12 and not self._common(name) and not overlaps(blocked, start, stop):
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
                    or name.startswith(NOT_EMPLOYER_LEAD) or name in wl.ORG_STOP or wl.is_department(name) \
                    or overlaps(blocked, start, end):
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
            first_ok = first_ok or (len(first.word) == 2 and HAN.match(first.word) is not None
                                    and j + 1 < len(tokens) and tokens[j + 1].word in wl.ORG_NAME_WORDS
                                    and first.word not in wl.STOP_NAMES and first.word not in wl.SUBJECT_STOP)
            # 泓 (q) | 岭 | 食品实现…: a rare character jieba tags a measure word opens the clause, with no number
            # before it to count; it is a name's first character (a measure word as common as 个 or 家 is not)
            first_ok = first_ok or (len(first.word) == 1 and first.pos == "q" and (
                entry := self.dictionary.entry(first.word)) is not None and entry[0] < _RARE_MEASURE
                and j + 1 < len(tokens) and tokens[j + 1].start == first.end
                and self._namey(tokens[j + 1], inside=True))
            # 北辰精密, 云岭新能: jieba calls 精密 an adjective and cuts 新 | 能; inside a name they are part of it
            while k < len(tokens) and end - start < 8 and HAN.match(tokens[k].word) and not (
                    k > j and tokens[k].pos == "v" and len(tokens[k].word) > 1 and (entry := self.dictionary.entry(
                        tokens[k].word)) is not None and entry[0] >= ACTION_MIN_FREQ) and (  # 高校应 | 加强与…合作
                    (k == j and first_ok) or self._namey(tokens[k], inside=k > j)
                    or (k > j and rare_char_as_measure(tokens[k], tokens))  # 闽 | 泓 (q) | 冷链实现…
                    or (k > j and (tokens[k].pos in ("a", "vn", "nz", "v") or (
                        len(tokens[k].word) == 1 and tokens[k].pos not in FUNCTION_TAGS)))):
                end = tokens[k].end
                k += 1
                if end - start >= 3 and _SUBJECT_CUE.match(text, end):
                    break
            name = text[start:end]
            if not (3 <= len(name) <= 8) or not _SUBJECT_CUE.match(text, end) or overlaps(blocked, start, end):
                continue
            # 金龙鱼实现营业收入 (金龙鱼 a person's name to jieba): what only companies do settles it
            company_only = _COMPANY_CUE.match(text, end) is not None
            if len(name) == 3 and (len(tokens[j].word) == 3 and tokens[j].pos not in ("nz", "nt", "nrt", "j")
                                   and not (company_only and tokens[j].pos == "nr")):
                continue  # 海澜湾 (海 | 澜湾) yes; a three-character word jieba knows (董事会, 研究院) is no short name
            if name.startswith(wl.SUBJECT_STOP) or self._common(name) or name in wl.ORG_STOP \
                    or (self._person_at(text, tokens, start) == end and not company_only) \
                    or _LINE_OF_BUSINESS.search(name):
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
                if overlaps(taken, start, end) or not inner or inner[0].start != start or inner[-1].end != end \
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
                kin = KIN_AFTER.match(text, end) is not None
                if couple or kin:
                    item, end = re.sub(r"(?:夫妇|夫妻)$", "", item), start + len(re.sub(r"(?:夫妇|夫妻)$", "", item))
                    if self.person is not None and surname_at(text, start) and self._valid_person(item) \
                            and not overlaps(taken, start, end):
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
                    and HAN.match(item) is not None and not item.startswith(wl.LEADING_NOISE)
                title = next((t for t in wl.PERSON_TITLES + wl.EXECUTIVE_TITLES if item.startswith(t)), None)
                described = None if title is not None else next(
                    (item[:n] for n in range(2, min(len(item) - 1, 7))
                     if item[:n].endswith(_DESCRIBED_AS + wl.PERSON_TITLES)
                     and self._person_at(text, tokens, start + n) == end), None)
                if described is not None and self.person is not None \
                        and self._valid_person(item[len(described):]) and not overlaps(taken, start, end):
                    # 由归国学者P于2020年创办, 由知名企业家P创立: what kind of person (a word ending as people's
                    # descriptions do) stands before the name; the mention spans the description too, written so,
                    # so that no word of it (归国, a place to jieba) is read as a name of its own
                    out.append(Found(Mention(item[len(described):], self.person, start, end, item,
                                             semantic_type=described), "person"))
                    taken.append((start, end))
                    continue
                if title is not None and self.person is not None:
                    # 由建筑师顾承泽设计: the title says who the name after it is
                    at = start + len(title)
                    if self._person_at(text, tokens, at) == end and self._valid_person(item[len(title):]):
                        out.append(Found(Mention(item[len(title):], self.person, at, end, item[len(title):],
                                                 semantic_type=title), "person"))
                        taken.append((start, end))
                    continue
                if overlaps(taken, start, end) or not (aligned or seen_name) or self._common(item) \
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
                    # the last verb: 有限公司旗下拥有上汽大众 (the item run may start inside the owner's name);
                    # 来自X、Y等企业 (where the list's members come from)
                    cuts = [*re.finditer(r"(?:拥有|包括|包含|有|如|涵盖|设有|控股|来自)(?=.)", item)]
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
                and entry[0] < ACTION_MIN_FREQ and t.word not in wl.STOP_NAMES
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
