"""Organisations by their endings (…股份有限公司, …集团, …银行, …大学, …研究院, …局): the name reaches back over
the noun-like words before the ending, stopping at a verb, a preposition or a descriptor (德国化工企业 |
莱茵特种材料公司), and is never a bare kind (子公司, 上市公司)."""

from __future__ import annotations

import re

from kgbuild.extract.zh import word_lists as wl
from kgbuild.extract.zh.mentions import Mention
from kgbuild.extract.zh.name_rules import (
    ACTION_MIN_FREQ,
    COMPANY_FORM,
    FUNCTION_TAGS,
    GLUED_LEAD,
    HAN,
    HOLDS_POST_WORDS,
    NOT_EMPLOYER_LEAD,
    Found,
    NameRules,
    overlaps,
    rare_char,
    rare_char_as_measure,
    unknown_char,
)
from kgbuild.extract.zh.segment import Token

_INDEFINITE = re.compile(r"(?:一|这|那|每)[家所个座间种位名支款]\S{0,10}$")
# A place in brackets inside an organisation's name, before its ending: 海川环境（香港）有限公司.
_BRACKETED_PLACE = re.compile(r"[（(][\u4e00-\u9fff]{2,6}[）)]$")  # 金穗（哈萨克斯坦）农机有限公司
_DEPARTMENT = re.compile(r"[\u4e00-\u9fff]{1,8}(?:系|专业|学院|研究院|研究所)")
# A field a ministry or commission is named for, two joined by 和 (工业和信息化部): two to four characters.
_FIELD = re.compile(r"[\u4e00-\u9fff]{2,4}")
_NAME_BOUNDARY = frozenset("创办 创立 创建 收购 并购 设立 成立 新设 注销 投资 控股 在 与 和 及 对 为 由 了 是 向 "
                           "把 被 将 从 子公司 公司 旗下 拥有 包括 以及 其中 同时 "
                           "加入 入职 加盟 入股 参股 增资 出售 转让 注资 担任 现任 曾任 共建 新建 筹建 组建 "
                           "签约 合资".split())
_ANY_TITLE = (*wl.EXECUTIVE_TITLES, *wl.PERSON_TITLES)
_TITLE_NEXT = re.compile(r"(?:常务|执行)?(?:" + "|".join(sorted(_ANY_TITLE, key=len, reverse=True)) + ")")
# Single characters that are verbs or function words before a name, never its first characters (曾任 | 阿里巴巴…).
_VERB_CHARS = frozenset("任是在有为将会要被让给到去来说做向从把对与和及等经由于曾现原前兼历时")
# What a body does that 经 before its name introduces (经X核准, 经X审计): 经 is "by", not the first character
_APPROVAL_AFTER = re.compile(r"(?:的)?(?:批准|核准|同意|审批|审核|审计|审议|审阅|鉴证)")
# 任公司 / 任本公司 closing a candidate name: the verb of taking a post and the report's company
# (有限责任公司 is a legal form)
_TAKES_POST_AT = re.compile(r"(?<!责)任本?公司$")
_PARTNERSHIP_KIND = re.compile(r"[（(](?:有限|普通|特殊普通)合伙[）)]")
# Verbs of joining a body that jieba tags a place (加盟 ns): what a person does, never a word of the body's name.
_JOINING = frozenset("加盟 加入 入职 入股".split())
_ORDINAL = re.compile(r"第[一二三四五六七八九十]{1,3}")
_BRANCH = re.compile(r"(?P<place>[\u4e00-\u9fff]{2,4}?)(?:分行|支行)")
# 越南企业河内升腾机电股份公司, 日本企业大和升降机株式会社: a country and what kind of body it is (企业, 公司, 化工企业)
# say a foreign name comes next, and the name runs from there to its ending, whatever jieba made of it (升腾 a
# verb, 大 | 和 an adjective and a conjunction)
_FOREIGN_KIND = re.compile("(?:" + "|".join(sorted(wl.COUNTRIES, key=len, reverse=True))
                           + r")[\u4e00-\u9fff]{0,4}?(?:企业|公司)(?P<name>[\u4e00-\u9fff]{2,8})$")
# What kind of body a foreign name is, said between its country and the name (挪威企业北极星海事系统公司).
_KIND_WORDS = frozenset({"企业", "公司", "集团", "机构"})
# A verb and 于 before a body's name (毕业于X, 任职于X), never the name's first characters.
_VERB_AND_YU = frozenset("毕业于 就读于 肄业于 求学于 任职于 就职于 供职于 隶属于".split())
# Who runs a school or a body, words that name none of them without the country before (新加坡国立大学).
_STATUS = frozenset("国立 州立 公立 私立 市立 皇家 联邦".split())
_GOVERNMENT_ENDINGS = frozenset({"委员会", "部", "局", "署", "厅", "办公室"})
# Single-character endings a kind noun ends with (机械厂, 教育厅, 工程局), where jieba's token is the whole kind.
_KIND_NOUN_ENDS = frozenset("厂局厅")
_LISTED_AS = re.compile(wl.LISTED_AS)
# Words a party to a deal or a holding comes right after (收购X有限公司, 向关联方X有限公司采购, 持有X有限公司70%的股权).
# (a party's role in a suit or a deal, 原告X有限公司, and a copula, 系X集团有限公司的全资子公司, too)
_DEAL_BOUNDARY = re.compile(r"收购|并购|持有|采购|购买|受让|转让给|出售给|入股|参股|增资|委托|聘请|关联方|股东|"
                            r"控股股东|客户|供应商|对手方|交易对方|合作方|中标|签约|加盟|加入|子公司|孙公司|"
                            r"原告|被告|第三人|申请人|被申请人|担保人|债务人|债权人|出让方|受让方|甲方|乙方|系|为|是|即")
# What a clause does that no registered name holds (在上海注册成立有限公司, 整体变更为股份有限公司).
_CLAUSE_VERBS = frozenset("注册 成立 设立 新设 组建 改制 变更 整体 更名 作为 成为 属于 出资 合资 共同 拟 将 已 "
                          "全资 控股 参股 下属 旗下 "
                          # (汀芮传感原名常州汀芮电子有限公司: a former or short name declared before it)
                          "原名 曾用名 简称 又称 前身".split())


class OrgNames(NameRules):
    """Organisations' names by their endings."""

    def _orgs(self, text: str, tokens: list[Token], blocked: list[tuple[int, int]]) -> list[Found]:
        out: list[Found] = []
        for m in self._org_re.finditer(text):
            s, e = m.start(), m.end()
            j = self._token_at(tokens, s)
            if j is None or overlaps(blocked, s, e):
                continue
            tok = tokens[j]
            k = j - 1
            # 国家发展和改革委员会, 工业和信息化部: a ministry's name joins two fields with 和 (a province's department
            # too: 浙江省文化和旅游厅)
            joined = m.group(0) in ("部", "委员会", "局", "署", "厅") and k >= 2 and tokens[k - 1].word == "和" \
                and tokens[k].end == s and all(_FIELD.fullmatch(tokens[i].word)
                                               and tokens[i].pos in ("n", "vn", "nz", "v") for i in (k, k - 2))
            # 洛阳嵘川机械厂, 江西省教育厅, 铁道部第四工程局: a noun of three characters or more that ends in 厂 / 局 /
            # 厅 is a kind of works or bureau (机械厂, 教育厅), which a name before it makes one body; checked below
            # that the walk back kept a name and not only ordinary words (产业格局 is two characters' ending)
            in_word = len(m.group(0)) == 1 and not joined and tok.word != m.group(0) and (
                self.dictionary.is_common(tok.word) or tok.pos in ("v", "f", "vn", "d"))
            kind_noun = in_word and m.group(0) in _KIND_NOUN_ENDS and len(tok.word) >= 3 \
                and tok.word.endswith(m.group(0)) and tok.end == e and tok.pos in ("n", "nt", "nz") \
                and tok.word not in wl.ORG_STOP
            if in_word and not kind_noun:
                continue  # 签署, 南部, 格局: the ending is the last character of an ordinary word
            if (whole := COMPANY_FORM.match(text, e)) is not None and m.group(0) in ("集团", "控股集团"):
                e = whole.end()  # 浙江吉利控股集团有限公司: the legal form after 集团 is the end of the name
            if m.group(0) in ("合伙企业", "事务所") and (partners := _PARTNERSHIP_KIND.match(text, e)) is not None:
                e = partners.end()  # 某某投资合伙企业（有限合伙）: the kind of partnership in brackets ends the name
            # (中国建设银行股份有限公司吉安分行: a bank's registered name with its legal form, then the branch)
            bank = m.group(0).endswith("银行") or (COMPANY_FORM.fullmatch(m.group(0)) is not None
                                                   and text[max(0, s - 2):s] == "银行")
            if bank and (branch := _BRANCH.match(text, e)) is not None \
                    and self.dictionary.known_place(re.sub("[省市]$", "", branch.group("place")), 1):
                e = branch.end()  # 榕城银行福州分行 (jieba: 分行 a verb): a bank's branch in a city is named so
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
            while k >= 0 and tokens[k].end == start and tokens[k].word not in _JOINING \
                    and not (len(tokens[k].word) > 1 and _DEAL_BOUNDARY.fullmatch(tokens[k].word)):
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
                # (大连 | 辽滨 | 重型 | 轴承有限公司: a city jieba's dictionary tags as an adverb is the city;
                # 附属 | 第一 | 医院, 第二 | 人民 | 医院: an ordinal numbers one of a city's hospitals or schools)
                ordinal = _ORDINAL.fullmatch(tokens[k].word) is not None and k > 0 and tokens[k - 1].end == start - len(
                    tokens[k].word) and self._namey(tokens[k - 1])
                # 上海 | 琴屿 | 唱片 | 有限公司, 南京 | 新翼 | 自动化 (l) | 股份有限公司: the word right before a legal
                # form is the trade the company is named for, whatever jieba tags it, when a name-like word stands
                # before it
                trade = tokens[k].end == s and COMPANY_FORM.fullmatch(m.group(0)) is not None and k > 0 \
                    and tokens[k].pos in ("n", "l", "vn", "nz") and 2 <= len(tokens[k].word) <= 3 \
                    and HAN.match(tokens[k].word) is not None and tokens[k].word not in _NAME_BOUNDARY \
                    and not tokens[k].word.endswith(wl.DESCRIPTOR_ENDS) \
                    and tokens[k - 1].end == tokens[k].start and self._namey(tokens[k - 1]) \
                    and not self._common(tokens[k - 1].word)
                if not (self._namey(tokens[k]) or tokens[k].word in wl.ORG_NAME_WORDS or joint or quality or trade
                        or rare_char_as_measure(tokens[k], tokens)  # 莆田 | 闽 | 泓 (q) | 供应链管理有限公司
                        or rare_char(tokens[k]) or self._brand_char(tokens, k)
                        or self.dictionary.city_stem(tokens[k].word) or ordinal):
                    break
                start = tokens[k].start
                k -= 1
            if start == tok.start and k >= 1 and tokens[k].end == start and tokens[k].pos == "n" \
                    and len(tokens[k].word) == 2 and tokens[k - 1].end == tokens[k].start \
                    and tokens[k - 1].pos == "ns" and tokens[k - 1].word.endswith(("省", "市", "区", "县")) \
                    and self.org_classes[m.group(0)] == self.government:
                # 蚌埠市 | 市场 (a word of the stop list) | 监督管理局: a city's bureau named for its field, the
                # field an ordinary noun between the city and the ending
                start, k = tokens[k - 1].start, k - 2
            if k >= 0 and tokens[k].end == start and self._lone_first_char(tokens, k, start):
                start, k = tokens[k].start, k - 1  # 是 | 东 | 昇 | 汽车集团有限公司: 东昇, a brand jieba cut apart
            if s - start >= 2 and self._bare(text[start:s], tokens, start):
                # 在深圳创办宏远电子有限公司, ，深圳新锐半导体股份有限公司: the walk stopped at an ordinary word (宏远,
                # 新锐) leaving only words of company names; a name runs back to where the clause or the verb
                # before it ends, over at most two more words
                back, i = start, k
                while i >= 0 and tokens[i].end == back and start - tokens[i].start <= 6 and k - i < 2 \
                        and HAN.match(tokens[i].word) and tokens[i].pos not in FUNCTION_TAGS | {"v"} \
                        and not tokens[i].word.endswith(("于", "为", "在")) \
                        and tokens[i].word not in _NAME_BOUNDARY:
                    back = tokens[i].start
                    i -= 1
                # (汽车零部件企业 | 莱茵 | 精密 | 技术有限公司: what kind of company it is ends what comes before
                # the name)
                # (隶属于 | 海上 (s) | 出版集团有限公司: a verb ending in 于 / 为 / 在 ends what comes before too)
                if back < start and (i < 0 or tokens[i].word in _NAME_BOUNDARY or not HAN.match(tokens[i].word)
                                     or (len(tokens[i].word) > 1 and tokens[i].word.endswith(("于", "为", "在")))
                                     or (tokens[i].word.endswith(wl.DESCRIPTOR_ENDS) and len(tokens[i].word) >= 2)):
                    start, k = back, i
            if k >= 0 and tokens[k].end == start and (lead := self._name_lead(tokens, k)) is not None:
                start, k = lead
            if k >= 0 and tokens[k].end == start and (parent := self._parent_before(tokens, k, out)) is not None:
                # 中国科学院 | 广州 | 先进 (a) | 材料研究院: an institute of a body named with it, its city between
                start, k = parent.start, next((i for i in range(k, -1, -1) if tokens[i].end <= parent.start), -1)
            if k >= 0 and tokens[k].end == start and (COMPANY_FORM.fullmatch(m.group(0)) is not None
                                                      or m.group(0).endswith(("事务所", "厂"))) \
                    and (start in (s, tok.start) or self._bare(text[start:s], tokens, start)) \
                    and (anchor := self._place_anchor(tokens, k)) is not None:
                # (only where the walk kept no word of the brand: 电梯有限公司, 传动系统有限公司)
                start, k = anchor
            while start > 1 and text[start - 1] == "·" and (
                    dotted := next((t for t in tokens if t.end == start - 1), None)) is not None \
                    and dotted.pos in ("nrt", "nr", "nz", "ns") and HAN.match(dotted.word) and len(dotted.word) >= 2:
                # 约翰斯 (nrt) | · | 霍普金斯大学: a foreign name written with its dot runs on before the dot
                start = dotted.start
                k = next((i for i in range(len(tokens) - 1, -1, -1) if tokens[i].end <= start), -1)
            foreign = _FOREIGN_KIND.search(text, max(0, start - 24), start)
            if foreign is not None and foreign.start("name") < start and not overlaps(blocked, foreign.start("name"),
                                                                                     start):
                start = foreign.start("name")
                k = next((i for i in range(k, -1, -1) if tokens[i].end <= start), -1)
            # (the ending and what it was extended by hold a legal form: 有限公司, 集团有限公司, 合伙企业)
            if k >= 0 and tokens[k].end == start and (COMPANY_FORM.search(text, s, e) is not None
                                                      or m.group(0) == "合伙企业") \
                    and (anchored := self._from_deal_boundary(tokens, k, start, s)) is not None:
                start, k = anchored
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
            if name.startswith("经") and _APPROVAL_AFTER.match(text, e) \
                    and len(name) - 1 > len(m.group(0)):
                # 经中国证券监督管理委员会核准, 经X会计师事务所（特殊普通合伙）审计: 经 is "by", no part of the name
                name, start = name[1:], start + 1
            if name[:1] in _VERB_CHARS and re.fullmatch(r"[本该其]?", name[1:-len(m.group(0))]):
                continue  # 经 (n) | 公司第四届董事会审议通过: a preposition and the report's 公司, no name
            stripped = True
            while stripped:  # 本 | 季度公司: one word of noise may hide another
                stripped = False
                for noise in sorted(wl.LEADING_NOISE, key=len, reverse=True):
                    if name.startswith(noise) and len(name) - len(noise) > len(m.group(0)):
                        name, start, stripped = name[len(noise):], start + len(noise), True
            if _TAKES_POST_AT.search(name) and _TITLE_NEXT.match(text, e):
                continue  # 其妻弟王立新任公司副总经理 (jieba: 新任): a person takes a post at the company, no name
            if any(name == noise + m.group(0) for noise in wl.LEADING_NOISE if len(noise) > 1):
                continue  # 本季度公司, 全称公司: a period or a declaration and a bare kind, no name
            if name.startswith(("当地", "有关", "相关", "各级")) or (len(m.group(0)) == 1 and name.startswith(
                    NOT_EMPLOYER_LEAD)):
                continue  # 当地政府, 有关部门: which body the text does not say; 国际医疗部: a department of one
            first_word = next((wl_ for wl_ in wl.COUNTRIES if name.startswith(wl_)), None)
            # (瑞士证券交易所, 新加坡交易所: what follows the country is a bare kind, 证券交易所, that names no body
            # without it, so the country is part of the name)
            if first_word and first_word != "中国" and len(name) - len(first_word) >= 4 and self.country \
                    and not COMPANY_FORM.search(name) and name[len(first_word):] not in wl.ORG_STOP \
                    and not name[len(first_word):-len(m.group(0))].startswith(tuple(_STATUS)):
                # (新加坡国立大学: what stands between the country and the ending is a status, 国立, that names no
                # school without the country, so the country is part of the name)
                # (越南云杉纺织有限公司, a registered name with its legal form, keeps the country it was registered in)
                # 美国麻省理工学院: the country and the institution, two names
                country = Mention(first_word, self.country, start, start + len(first_word), first_word)
                out.append(Found(country, "place"))
                name, start = name[len(first_word):], start + len(first_word)
                kind_word = next((w for w in _KIND_WORDS if name.startswith(w)), None)
                if kind_word and len(name) - len(kind_word) >= len(m.group(0)) + 2:
                    # 挪威企业北极星海事系统公司, 日本企业丸山纤维株式会社: what kind of body it is, said between the
                    # country and the name, is no part of the name either
                    name, start = name[len(kind_word):], start + len(kind_word)
            suffix = m.group(0)
            if re.match(r"(?:系统|平台|软件|业务|产品|账户|服务|卡)", text[e:e + 2]):
                continue  # 分布式核心银行系统: the ending is inside a product's noun
            kind_end = next((k for k in ("子公司", "分公司") if name.endswith(k)), None)
            if kind_end and len(name) > len(kind_end) and self._common(name[:-len(kind_end)]):
                continue  # 销售子公司, 海外子公司: a kind of subsidiary, not its name
            too_short = len(name) <= len(suffix) and len(suffix) < 3  # 公司 alone; 新华社 is a whole name
            too_short = too_short or COMPANY_FORM.fullmatch(name) is not None  # 改制为股份有限公司: a legal form

            if name in wl.ORG_STOP or too_short or not re.search(r"[\u4e00-\u9fff]", name):
                continue
            if name.endswith("部") and wl.is_department(name):
                continue  # 财务部负责人P, 公司固定收益投资部总监: a department of the company, not a body of its own
            if _LISTED_AS.fullmatch(name):
                continue  # 深交所主板上市公司, 创业板公司: where the company named next is listed (org_cues)
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
                    len(t.word) > 1 and t.word.endswith(("性", "型")) and t.word not in wl.ORG_NAME_WORDS
                    for t in tokens if start <= t.start < s):
                continue  # 一所位于成都的综合性研究型大学, 重点综合性大学: a description, not a name
            words = [t.word for t in tokens if start <= t.start < s]
            if text[start - 1:start] == "的" and words and all(self._common(w) for w in words):
                continue  # 是农业农村部直属的全国重点大学: ordinary words after 的 describe, they name nothing
            if kind_noun and (start >= tok.start or self._bare(text[start:tok.start], tokens, start)):
                continue  # 机械厂, 新建的机械厂: a kind of works and no name before it
            cls = self.org_classes[suffix]
            if self.government and any(w in name for w in wl.GOVERNMENT_WORDS) and cls != self.company:
                cls = self.government
            out.append(Found(Mention(name, cls, start, e, name, semantic_type=kind), "org"))
        return out

    def _unglue(self, text: str, found: list[Found], tokens: list[Token]) -> None:
        """由金穗 | 装备 | 副总裁: jieba glued the preposition to a name it did not know (a token its dictionary does
        not have); the preposition is no part of the organisation's name. 对外经济贸易大学 starts with a word the
        dictionary has (对外), so it keeps it."""
        starts = {t.start: t for t in tokens}
        for f in found:
            m, first = f.mention, starts.get(f.mention.start)
            glued = m.name[:1] in GLUED_LEAD or (m.name[:1] == "任" and m.start > 0
                                                  and text[m.start - 1] in "起现曾兼出升转改调前") or (
                # 曾任职于 | 于岚霄 (nr) | 游戏有限公司: 于 after 任职 / 就职 / 供职 / 隶属 / 毕业 is the preposition
                m.name[:1] == "于" and m.start > 0 and text[m.start - 1] in "职属业")
            # 曾任鑫 (nr) | 捷 | 物流股份有限公司: jieba glued a whole post verb to a name it did not know
            lead = 2 if m.name[:2] in HOLDS_POST_WORDS else 1
            if f.how == "org" and (glued or lead == 2) and len(m.name) >= 3 + lead and first is not None \
                    and len(first.word) > lead and self.dictionary.entry(first.word) is None:
                # (2016年起任 | 华澜律师事务所: 任 is the verb of holding a post after 起 / 现 / 曾 / 此前…, no surname
                # there)
                m.start += lead
                m.name = m.form = m.name[lead:]
            elif f.how == "org" and m.name[:3] in _VERB_AND_YU and len(m.name) >= 3 + 3:
                # 毕业 (n) | 于金陵 (nr) | 大学: jieba glued the preposition to the name and the walk took the verb
                # (a noun to jieba) with it; the school is what follows 于
                m.start += 3
                m.name = m.form = m.name[3:]

    def _name_lead(self, tokens: list[Token], k: int) -> tuple[int, int] | None:
        """远航 | 船舶股份有限公司, 创办了杭州 | 极 | 简科技有限公司: the walk back from the ending stopped at a word
        jieba calls a verb or an adverb; if at most three such words lead back to where a clause, a list or a verb
        of companies ends (，远航船舶…; 创办了杭州极简…; 与远航船舶…), they start the name. A frequent verb or
        adverb (推进, 积极, 正式) says what is done to the company, it is no part of its name; a lone character
        cannot start a name unless jieba calls it a proper name. Returns (start, index of the token before)."""
        i, chars = k, 0
        first_word = tokens[k + 1] if k + 1 < len(tokens) else None
        verb = self.dictionary.entry(tokens[k].word)
        if first_word is not None and first_word.pos == "ns" and self.dictionary.known_place(first_word.word) \
                and verb is not None and verb[1] == "v" and len(tokens[k].word) > 1:
            # 并聘请 | 上海 | 盾川信息…有限公司: a verb jieba's dictionary lists, before a place that opens the name, is
            # what is done to the company (翱锋 | 欧洲 | 有限公司: a word it does not list may be the name's first)
            return None
        while i >= 0 and k - i < 3:
            t = tokens[i]
            if i < k and t.end != tokens[i + 1].start:
                break
            # 北方 | 重型机械集团, 中 | 芯 | 国际…: a direction word may start a name
            direction = t.pos == "f" and ((len(t.word) == 2 and t.word[0] in "东南西北") or t.word == "中")
            if not HAN.match(t.word) or (t.pos in FUNCTION_TAGS - {"d"} and not direction) \
                    or (len(t.word) == 1 and t.word in _VERB_CHARS) \
                    or t.word in _NAME_BOUNDARY \
                    or t.word.endswith(("于", "为", "在", "的")) or t.word in wl.STOP_NAMES \
                    or t.word.endswith(wl.DESCRIPTOR_ENDS) or (t.pos in ("nr", "nrfg") and len(t.word) > 1) \
                    or t.word in HOLDS_POST_WORDS or _DEAL_BOUNDARY.fullmatch(t.word):
                break  # 化工企业 | 莱茵…公司: what kind; 王建华曾任 | 阿里巴巴集团: a person and a verb
            entry = self.dictionary.entry(t.word)
            if len(t.word) > 1 and t.pos in ("v", "vd", "ad", "d", "a", "vn") and entry is not None \
                    and entry[0] >= ACTION_MIN_FREQ and not self.dictionary.city_stem(t.word):
                return None
            chars += len(t.word)
            i -= 1
            if chars > 6:
                return None
            before = tokens[i] if i >= 0 else None
            if before is None or not HAN.match(before.word) or before.word in _NAME_BOUNDARY \
                    or before.pos in ("p", "c", "ul", "uj"):
                first = tokens[i + 1]
                if len(first.word) == 1 and first.pos not in ("ns", "nr", "nz", "nt", "j") \
                        and first.word not in "中华东南西北":  # ，中 | 芯 | 国际集成电路制造有限公司
                    return None
                return first.start, i
        return None

    def _from_deal_boundary(self, tokens: list[Token], k: int, start: int, ending: int) -> tuple[int, int] | None:
        """收购 | 黑龙江 | 垦原 | 收获 (v) | 机械有限公司, 向关联方 | 珠海 | 宏毅 (a) | 精密 (a) |
        材料有限公司, 与 | 冀北 | 新 | 能源开发 (i) | 有限公司: a registered name stands between the legal
        form and a word that only comes before a party (a preposition, 收购 / 持有 / 采购 and the verbs
        of deals, 关联方 / 股东, a clause's start), whatever jieba made of the words between (a verb, an
        adjective or an idiom cut from a rare brand), where the name opens with a place or a word jieba
        calls a proper name or does not know, holds nothing a clause does (a pointer, a number, 的,
        注册 / 成立 / 设立…) and is at most fourteen characters before the form (股东 | 宁波 | 梅山 |
        保税 | 港区 | 晶 | 启 (v) | 投资合伙企业: a partnership's name too; 企业 | 管理 there is a trade,
        not a descriptor). Returns (start, index of
        the token before) where that reaches further back than the walk."""
        i, first = k, None
        while i >= 0 and tokens[i].end == (tokens[i + 1].start if i < k else start):
            t = tokens[i]
            if _DEAL_BOUNDARY.fullmatch(t.word) or t.pos in ("p", "c") or not HAN.match(t.word):
                break
            if t.pos in FUNCTION_TAGS or t.word in _CLAUSE_VERBS or (t.word in _NAME_BOUNDARY
                                                                     and t.word not in wl.ORG_NAME_WORDS) \
                    or t.word in HOLDS_POST_WORDS or "公司" in t.word \
                    or (t.word.endswith(wl.DESCRIPTOR_ENDS) and tokens[i + 1].word not in wl.ORG_NAME_WORDS) \
                    or ending - t.start > 14:
                return None
            first = i
            i -= 1
        if first is None:
            return None
        before = tokens[i] if i >= 0 else None
        if before is not None and before.end == tokens[first].start and HAN.match(before.word) \
                and not _DEAL_BOUNDARY.fullmatch(before.word) and before.pos not in ("p", "c"):
            return None
        opener = tokens[first]
        # (黔 | 穹 | 通用 | 航空有限公司: a province's one-character name, an abbreviation to jieba, opens one too)
        province = opener.pos == "j" and len(opener.word) == 1
        proper = opener.pos in ("ns", "nr", "nrfg", "nz", "nt", "j") or unknown_char(opener)
        # (系北疆 | 能 | 投集团有限公司: a region's name is a frequent word, and a name's first all the same)
        if not proper or opener.word in wl.COUNTRIES or (self._common(opener.word) and not province
                                                         and opener.pos != "ns"):
            return None
        return opener.start, i

    def _parent_before(self, tokens: list[Token], k: int, found: list[Found]) -> Mention | None:
        """中国科学院 | 广州 | 先进 | 材料研究院: the walk back from an ending stopped at most two words after a city
        that follows another body's name right away (a parent found before): the name is the parent's unit in that
        city, written whole. Returns the parent's mention."""
        i = k
        while i >= 0 and k - i < 2:
            t = tokens[i]
            if i < k and t.end != tokens[i + 1].start:
                return None
            if t.pos == "ns" and len(t.word) >= 2 and self.dictionary.known_place(t.word) \
                    and t.word not in wl.COUNTRIES:
                before = tokens[i - 1] if i > 0 else None
                if before is None or before.end != t.start:
                    return None
                return next((f.mention for f in found if f.how == "org" and f.mention.end == before.end
                             and f.mention.name.endswith(("院", "大学", "集团", "局"))), None)
            if not HAN.match(t.word) or t.pos in ("p", "uj", "ul", "m", "r", "v", "c") or t.word in _NAME_BOUNDARY:
                return None
            i -= 1
        return None

    def _place_anchor(self, tokens: list[Token], k: int) -> tuple[int, int] | None:
        """无锡 | 跃升 (v) | 电梯有限公司, 温州 | 瓯越 | 汽车 | 零部件 (mq) | 股份有限公司: a registered name opens
        with its city or province; when the walk back from the legal form stopped at a word jieba cut out
        of a rare brand (a verb, an adverb, a conjunction after a character it does not know, a measure word) and
        a known place stands at most eight characters before, after a boundary, the name runs from the place.
        Nothing between may be a preposition, a pointer, a number, 的 or a verb this frequent (成立, 注册, 签署: what
        is done at the place, 在上海注册成立有限公司). Returns (start, index of the token before)."""
        i, chars = k, 0
        while i >= 0 and (i == k or tokens[i].end == tokens[i + 1].start):
            t = tokens[i]
            place = t.pos == "ns" and len(t.word) >= 2 and (self.dictionary.known_place(t.word)
                                                            or self.dictionary.city_stem(t.word))
            if place and t.word in wl.COUNTRIES:
                return None  # 越南企业 | 河内…: a country and a kind are read as such (_FOREIGN_KIND)
            if place and i < k:
                before = tokens[i - 1] if i > 0 else None
                if before is None or before.end != t.start or not HAN.match(before.word) \
                        or before.word in _NAME_BOUNDARY or before.pos in ("p", "c", "v", "uj", "ul", "d", "ns") \
                        or before.word in _VERB_CHARS:
                    return t.start, i - 1
                return None
            glued_to_rare = len(t.word) == 1 and i > 0 and unknown_char(tokens[i - 1]) \
                and tokens[i - 1].end == t.start  # a rare character (x) | 和: jieba split the brand's second off it
            if not HAN.match(t.word) and not unknown_char(t):
                return None
            if not glued_to_rare and (t.pos in ("p", "uj", "ul", "m", "r") or t.word in _NAME_BOUNDARY
                                      or t.word in HOLDS_POST_WORDS or (len(t.word) == 1 and t.word in _VERB_CHARS)
                                      or t.word.endswith(wl.DESCRIPTOR_ENDS) or "公司" in t.word):
                return None
            entry = self.dictionary.entry(t.word)
            if len(t.word) > 1 and t.pos in ("v", "vd", "ad", "d", "a") and entry is not None \
                    and entry[0] >= ACTION_MIN_FREQ:
                return None
            chars += len(t.word)
            if chars > 8:
                return None
            i -= 1
        return None

    @staticmethod
    def _brand_char(tokens: list[Token], k: int) -> bool:
        """嵘 (x) | 拓 (v) | 智慧物流, 宜 (vg) | 芃 (zg) | 磷化集团: a lone character glued to a rare one (a character
        jieba's dictionary lacks or knows only as a bound morpheme) is the other half of a two-character brand, not
        a verb of its own; never a preposition, conjunction or other word of the clause (在, 与, 经, 由…)."""
        t = tokens[k]
        if len(t.word) != 1 or not HAN.match(t.word) or t.word in _VERB_CHARS or t.pos in FUNCTION_TAGS - {"x", "f"}:
            return False
        after = tokens[k + 1] if k + 1 < len(tokens) else None
        before = tokens[k - 1] if k > 0 else None
        return (after is not None and after.start == t.end and rare_char(after)) or (
            before is not None and before.end == t.start and rare_char(before))

    def _lone_first_char(self, tokens: list[Token], k: int, start: int) -> bool:
        """东 | 昇 | 汽车集团, 遂 | 芯 | 集成电路: the name begins with a character jieba left alone (a rare one or a
        word it does not know in this sense), and the walk stopped at another lone character right before it, after
        a clause's or a list's boundary: the two are the name's first word, cut apart (a direction or an adverb to
        jieba, never a verb or a function word of its own)."""
        first = next((t for t in tokens[k + 1:k + 2] if t.start == start), None)
        lone = tokens[k]
        if first is None or len(first.word) != 1 or len(lone.word) != 1 or not HAN.match(lone.word) \
                or lone.word in _VERB_CHARS or lone.pos not in ("f", "d", "zg", "ng", "yg", "g", "a", "b", "n"):
            return False
        before = tokens[k - 1] if k > 0 else None
        return before is None or before.end != lone.start or not HAN.match(before.word) \
            or before.word in _NAME_BOUNDARY or before.pos in ("p", "c", "uj", "ul")

    def _bare(self, body: str, tokens: list[Token], start: int) -> bool:
        """电子, 半导体: what the walk kept before the ending is only words of company names or ordinary words."""
        words = [t.word for t in tokens if start <= t.start < start + len(body)]
        return bool(words) and all(w in wl.ORG_NAME_WORDS or w in wl.GOVERNMENT_WORDS or self._common(w)
                                   for w in words)
