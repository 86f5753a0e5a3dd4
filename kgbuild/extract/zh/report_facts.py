"""What company reports state in their own phrases: shareholders, appointments, the legal representative, the
listing, the registered seat, spouses, products and subsidiaries."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable

from kgbuild.extract.zh import word_lists as wl
from kgbuild.extract.zh.clause_rules import POST_BETWEEN, REFERENCE, TITLE_ALT, Clause, ClauseRules
from kgbuild.extract.zh.mentions import Mention
from kgbuild.extract.zh.name_rules import VALUE_RE
from kgbuild.extract.zh.own_company import market_label

# 公司实际控制人、董事长P / 公司控股股东、董事长P: the owner's role and the person's posts in one run before the name
_OWNER_BEFORE_NAME = re.compile(r"(?:^|(?<=[^该]))(?:本公司|公司)(?:实际控制人|控股股东|第一大股东)(?:[、和及兼](?:"
                                + TITLE_ALT + r"))*")
_SPOUSES = re.compile(r"[与和及]其?(?:妻子|丈夫|配偶|夫人)$")


# 前十名股东中 / 前10名无限售条件股东中 / 主要股东中: a sentence listing a company's shareholders
_TOP_HOLDERS = re.compile(r"(?:前(?:十|10)名|前十大|主要)(?:无限售条件)?(?:普通股)?股东(?:中|情况|持股情况)")
# A持股比例为46.35% / B持股5.12% / C持有4.27%: a holder opening a clause with its stake
_HOLDER_STAKE = re.compile(r"\s*(?P<who>[^，。；]{2,30}?)(?:持股|持有)(?:比例)?(?:为|约为|达)?("
                           + VALUE_RE.pattern + r")")
# 控股股东 / 实际控制人 / 第一大股东 right before the owner's name (公司控股股东X通过…, 向控股股东X承租), or the
# company's largest holders listed (前两大股东分别为A和B); group who: the pointer to the owned company, if any
_ROLE_BEFORE_NAME = re.compile(r"(?:(?P<who>本公司|公司|其|该公司)的?)?(?P<role>控股股东|实际控制人|第一大股东|"
                               r"(?P<listed>前[两二三四五\d]大股东分别为|前[两二三四五\d]名股东分别为))"
                               r"(?![为是、和及兼])")
# P持有X 65%的股权，(then the clause that says whose controller P is): the company named after 持有, and the stake
_HOLDS_NAMED = re.compile(r"(?:合计|直接|间接|共)*持有(?P<held>[^，。；]{4,40}?)(?P<share>\d+(?:\.\d+)?%)的?"
                          r"(?:股权|股份)[，；]\s*$")
# 两家公司的 / 三家上市公司的 (控股股东均为…): the companies a sentence counts
_SEVERAL_COMPANIES = re.compile(r"([两二三四])家(?:上市)?公司的?(?:共同)?$")
_COUNT = {"两": 2, "二": 2, "三": 3, "四": 4}
# the signatories of a report's statements (公司负责人 / 主管会计工作负责人 / 会计机构负责人(会计主管人员)), each
# followed by the person's name
_SIGNATORY = re.compile(r"(?:公司负责人|主管会计工作(?:的)?负责人|会计机构负责人)(?:[（(]会计主管人员[）)])?")

class ReportFacts(ClauseRules):
    """Report phrases: shareholders, appointments, listings, seats, spouses, products."""

    def _report_facts(self, text: str, clause: Clause, subject: Mention, timed: list[tuple[str, Mention]],
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
            if (several := _SEVERAL_COMPANIES.search(c, 0, m.start())) is not None and not named:
                # 两家公司的实际控制人均为X: each of the companies named last before (in this chunk), not only one
                # (a short name and the full name it is in are one company, 豫锦物流 in 中原豫锦物流股份有限公司:
                # the full name stands for it)
                counted = _COUNT.get(several.group(1), 0)
                groups: list[list[Mention]] = []  # most recently named first
                for x in reversed([o for o in orgs if o.end <= cs and self._company(o) and not market_label(o)]):
                    same = next((g for g in groups if any(x.name in y.name or y.name in x.name for y in g)), None)
                    if same is None:
                        groups.append([x])
                    else:
                        same.append(x)
                before = [max(g, key=lambda y: len(y.name)) for g in groups]
                if counted and len(before) >= counted:
                    for one in before[:counted]:
                        for owner in self._listed(clause, cs + m.end(), lambda x: self._org(x) or self._person(x)):
                            add(one, "ownedBy", owner, list(timed))
                    continue
            if owned is None or owned.name in owners:
                continue
            share = re.search(r"(?:持股比例|持有[^，。；]{0,16}?)(?:为|约为|达)?(" + VALUE_RE.pattern + r")",
                              text[cs + m.end():sentence_end])
            after = cs + m.end()
            if (post := POST_BETWEEN.match(text, after)) is not None and post.end() < cs + len(c):
                after = post.end()  # 实际控制人为董事长彭书远: the owner's post stands between
            for i, owner in enumerate(self._listed(clause, after, lambda x: self._org(x) or self._person(x))):
                quals = list(timed)
                if share is not None and i == 0 and share.group(1).endswith("%"):
                    pos = cs + m.end() + share.start(1)
                    quals.append(("比例", Mention(share.group(1), self.fallback, pos, pos + len(share.group(1)),
                                                 share.group(1), kind="value")))
                add(owned, "ownedBy", owner, quals)
        for role in _OWNER_BEFORE_NAME.finditer(c) if topic_org is not None else ():
            controller = next((x for x in clause.mentions if x.start == cs + role.end() and self._person(x)), None)
            add(topic_org, "ownedBy", controller, timed)
        self._owner_after_role(text, clause, subject, sentence, topic_org, add)
        self._holder_named_owner(text, clause, timed, sentence, topic_org, add)
        self._stake_in_company(text, clause, subject, timed, topic_org, sentence_end, add)
        self._founders_stakes(text, clause, sentence, add)
        self._listed_holders(text, clause, sentence, topic_org, add)
        self._signatories(clause, subject, topic_org, add)
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
        elif re.match(r"\s*(?:二人|两人|夫妇二人|夫妇)(?:均|共同|同)?(?:为|是)(?:本公司|公司)的?(?:共同)?"
                      r"(?:控股股东|实际控制人|第一大股东)", c) is not None and topic_org is not None:
            # P与其妻子Q合计持有公司58.9%的股份，两人为公司的实际控制人: the pointer opens this clause, and the two
            # people are the last two the sentence named before it
            people = [x for x in sentence if self._person(x) and x.end <= cs]
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
                          if said.startswith("该") else topic_org) if REFERENCE.match(said) and not said.startswith(
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
            # 云岭新能新设全资子公司云岭储能欧洲有限公司; …；控股子公司曲靖云岭电池有限公司投资建设… (a bare
            # 控股子公司 opening a clause is the report's own company's: 公司全资子公司A…；控股子公司B…)
            sub = next((x for x in clause.mentions if x.start == cs + hit.end() and self._org(x)), None)
            parent = topic_org if topic_org is not None and re.match(r"\s*(?:全资|控股)子公司", c) else org_subject
            where = re.search(r"在([^，。；]{2,12}?)(?:新设|设立|新设立|成立)", c)
            if sub is not None and where is not None:
                # 公司在德国慕尼黑设立全资子公司X: X is where it was set up, the most specific place named
                places = [x for x in clause.mentions if self._place(x) and cs + where.start(1) <= x.start
                          and x.end <= cs + where.end(1)]
                add(sub, "locatedIn", places[-1] if places else None)
            if sub is not None and parent is not None and sub.name != parent.name:
                add(sub, "partOf", parent, timed)
                seat = re.match(r"[，,]\s*注册地(?:址)?(?:为|位于|在)", text[clause.end:clause.end + 12])
                if seat is not None:
                    places = [x for x in sentence if self._place(x) and x.start >= clause.end + seat.end()]
                    run = places[:1]
                    for x in places[1:]:
                        if x.start == run[-1].end:
                            run.append(x)
                    if run and run[0].start == clause.end + seat.end():
                        add(sub, "headquarteredIn", run[-1])
        # (旗下全资子公司仅有A和B两家: a notice saying which subsidiaries there are and no others)
        if (hit := re.search(r"子公司(?:则|还|另|主要|仅|只|共|目前)?(?:包括|有|为|是|：|:)", c)) is not None:
            parents = [x for x in clause.mentions if self._org(x) and x.end <= cs + hit.start()]
            parent = parents[-1] if parents else org_subject
            for sub in self._listed(clause, cs + hit.end(), self._org):
                add(sub, "partOf", parent)

    def _signatories(self, clause: Clause, subject: Mention, topic_org: Mention | None,
                     add: Callable[..., None]) -> None:
        """公司负责人P、主管会计工作负责人Q及会计机构负责人(会计主管人员)R保证…: the three who sign every Chinese
        report's statements work for its company."""
        company = subject if self._org(subject) and self._company(subject) else topic_org
        for m in _SIGNATORY.finditer(clause.text) if company is not None else ():
            signer = next((x for x in clause.mentions if x.start == clause.start + m.end() and self._person(x)), None)
            add(signer, "worksFor", company)

    def _owner_after_role(self, text: str, clause: Clause, subject: Mention, sentence: list[Mention],
                          topic_org: Mention | None, add: Callable[..., None]) -> None:
        """公司控股股东X通过…增持, 受让控股股东X持有的…, 其实际控制人P与…, 前两大股东分别为A和B: the owner's role
        written right before the owner's name (no 为) says whose owner it is: the company named right before the
        role, 公司's the report's, 其 / 该公司 the company named last before, a bare role the sentence's company."""
        c, cs = clause.text, clause.start
        for m in _ROLE_BEFORE_NAME.finditer(c):
            first = next((x for x in clause.mentions if x.start == cs + m.end()), None)
            if first is None or not (self._org(first) or self._person(first)):
                continue
            owners = self._listed(clause, first.start, lambda x: self._org(x) or self._person(x)) \
                if m.group("listed") else [first]
            pointer = m.group("who") or ""
            named = next((x for x in reversed(sentence) if self._company(x)
                          and x.end in (cs + m.start("role"), cs + m.start("role") - 1)), None)
            if named is not None:
                owned: Mention | None = named
            elif pointer in ("其", "该公司"):
                owned = self._last_org([x for x in sentence if self._company(x)], cs + m.start())
            elif pointer:
                owned = topic_org
            else:
                owned = subject if self._company(subject) and subject.end <= cs + m.start() else topic_org
            for owner in owners:
                if owned is not None and owner.name != owned.name and owner.name not in owned.aliases:
                    add(owned, "ownedBy", owner)

    def _listed_holders(self, text: str, clause: Clause, sentence: list[Mention], topic_org: Mention | None,
                        add: Callable[..., None]) -> None:
        """前十名股东中，A持股比例为46.35%，B持股5.12%: each holder listed with its stake owns the company whose
        shareholders the sentence lists (named right before 前十名股东, else the report's own)."""
        c, cs = clause.text, clause.start
        held = _HOLDER_STAKE.match(c)
        if held is None or not held.group(2).endswith("%"):
            return
        listing = _TOP_HOLDERS.search(text, max(0, cs - 200), cs)
        start = text.rfind("。", 0, cs) + 1
        if listing is None or listing.start() < start:
            return  # not a sentence that lists shareholders
        holder = next((x for x in clause.mentions if x.start == cs + held.start("who") and x.end == cs + held.end("who")
                       and (self._org(x) or self._person(x))), None)
        owned = next((x for x in sentence if self._company(x) and x.end == listing.start()), None) or topic_org
        if holder is None or owned is None or owned.name == holder.name or holder.name in owned.aliases:
            return
        at = cs + held.start(2)
        share = Mention(held.group(2), self.fallback, at, at + len(held.group(2)), held.group(2), kind="value")
        add(owned, "ownedBy", holder, [("比例", share)])

    def _founders_stakes(self, text: str, clause: Clause, sentence: list[Mention], add: Callable[..., None]) -> None:
        """A与B共同出资设立C，注册资本…，其中A持股60%: a founder's stake in the company the sentence set up makes it
        an owner of that company."""
        c, cs = clause.text, clause.start
        held = re.match(r"\s*(?:其中)?\s*(?P<who>[^，。；]{2,24}?)(?:持股|持有其|出资占比)(?:比例)?(?:为|约为|约)?("
                        + VALUE_RE.pattern + r")", c)
        if held is None or not held.group(2).endswith("%"):
            return
        holder = next((x for x in clause.mentions if x.start == cs + held.start("who") and x.end == cs + held.end("who")
                       and (self._org(x) or self._person(x))), None)
        founded = [x for x in sentence if x.end <= cs and self._company(x) and re.search(
            r"(?:设立|成立|组建)(?:了|的)?(?:一家)?(?:控股|全资|合资)?(?:子公司|合资公司)?$",
            text[max(0, x.start - 16):x.start])]
        if holder is None or not founded or founded[-1].name == holder.name \
                or holder.name in founded[-1].aliases:
            return
        at = cs + held.start(2)
        share = Mention(held.group(2), self.fallback, at, at + len(held.group(2)), held.group(2), kind="value")
        add(founded[-1], "ownedBy", holder, [("比例", share)])

    def _stake_in_company(self, text: str, clause: Clause, subject: Mention, timed: list[tuple[str, Mention]],
                          topic_org: Mention | None, sentence_end: int, add: Callable[..., None]) -> None:
        """目前，贾明远直接持有公司31.5%的股份; 交易完成后，X将持有公司8%的股权: the holder opening the clause owns
        the report's company (with the stake), whether or not the sentence goes on to call it the controlling
        shareholder (those sentences are read above as well: one fact)."""
        c, cs = clause.text, clause.start
        held = re.search(r"(?:直接|间接|合计|共|将|已|仍|目前|现|通过[^，。；持]{1,10}?)*持有(?:本公司|公司)("
                         + VALUE_RE.pattern + r")的?(?:股份|股权|股本)", c)
        if held is None or topic_org is None:
            return
        opened = re.match(r"\s*(?:目前|截至[^，。；]{2,14}|此外|同时|其中)?[，,]?\s*", c)
        holder = next((x for x in clause.mentions if opened is not None and x.start == cs + opened.end()
                       and x.end == cs + held.start() and (self._person(x) or self._org(x))), None)
        if holder is None and opened is not None and opened.end() == held.start() and self._person(subject) \
                and subject.end <= cs:
            holder = subject  # 周立群现任公司董事长，直接持有公司31.5%的股份: the person the sentence is about
        if holder is None or holder.name == topic_org.name or holder.name in topic_org.aliases:
            return
        if re.search(r"控股股东|实际控制人|第一大股东", text[cs:sentence_end]):
            return  # …持有公司41.6%的股份，为公司控股股东: read with its own cue above
        at = cs + held.start(1)
        share = held.group(1)
        quals = [*timed, *([("比例", Mention(share, self.fallback, at, at + len(share), share, kind="value"))]
                           if share.endswith("%") else [])]
        add(topic_org, "ownedBy", holder, quals)

    def _holder_named_owner(self, text: str, clause: Clause, timed: list[tuple[str, Mention]],
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
            # (持有该公司70%的股权，为公司实际控制人: whichever company 该 points at, the clause after says whose
            # controller the holder is)
            held = re.search(r"(?:合计|直接|间接|共)*持有(?:本公司|该公司|公司|其)(" + VALUE_RE.pattern
                             + r")?[^，。；]*[，；]\s*$", text[opened:cs])  # the clause right before
            if held is not None:
                owner = next((x for x in sentence if x.end == opened + held.start()
                              and (self._person(x) or self._org(x))), None)
                if held.group(1) is not None and held.group(1).endswith("%"):
                    at = opened + held.start(1)
                    share = Mention(held.group(1), self.fallback, at, at + len(held.group(1)), held.group(1),
                                    kind="value")
            elif (through := _HOLDS_NAMED.search(text, opened, cs)) is not None:
                # 郭启明持有湖北青岚投资集团有限公司65%的股权，为本公司实际控制人: the person owns the company named
                # (with the stake) and, through it, the report's company
                owner = next((x for x in sentence if x.end == through.start()
                              and (self._person(x) or self._org(x))), None)
                middle = next((x for x in sentence if x.start == through.start("held") and x.end == through.end("held")
                               and self._company(x)), None)
                if owner is not None and middle is not None and middle.name != owner.name:
                    at = through.start("share")
                    add(middle, "ownedBy", owner, [("比例", Mention(through.group("share"), self.fallback, at,
                                                                  at + len(through.group("share")),
                                                                  through.group("share"), kind="value"))])
                elif middle is None:
                    owner = None
        if owner is not None and owner.name != topic_org.name:
            add(topic_org, "ownedBy", owner, [*timed, *([("比例", share)] if share is not None else [])])
