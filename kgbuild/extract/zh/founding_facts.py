"""Foundings: 成立于 DATE, 创办 / 由 X 创办 / ORG创始人 P (foundedBy), 2019年建成开放, 是教育部直属的 (partOf), 前身为
(predecessor), 1897年创建的 X (foundedOn) and 列入 / 入选 a list (listedIn)."""

from __future__ import annotations

import re

from kgbuild.extract.zh.clause_rules import POST_BETWEEN, ClauseRules, ClauseScope
from kgbuild.extract.zh.mentions import Mention
from kgbuild.extract.zh.name_rules import TITLE_RUN as _TITLE_RUN

# A与B共同出资设立控股子公司C: founded together with the partners after 与 (and those before it); the money
# says a company was formed (联合成立研究中心 is a cooperation, the rule of 合作 reads it).
_FOUNDED_TOGETHER = re.compile(r"[与和](?P<partners>[^，。；与和]{2,40}?)(?:共同|联合)?(?:出资|投资)"
                               r"(?:设立|成立|组建|创办|新设)(?:了)?")
# What is said of a founder before 的 and the name: a former post, a school, where the person came from.
_FORMER_POST = re.compile(r"(?:曾任|曾在|毕业于|来自)[^，。；、和与及]{2,30}?的")
# What the founder is, said between 为 and the name (创始人为药学博士P, 创始人是旅美学者P): a field and a degree or a
# calling, no name
_FOUNDER_IS = re.compile(r"[\u4e00-\u9fff]{0,4}?(?:博士|硕士|教授|学者|专家|工程师|医生|律师|企业家)")
# 纳入公司合并报表范围 / 纳入本集团合并财务报表范围 / 纳入X的合并报表范围: consolidated, so a subsidiary (not a list)
_CONSOLIDATED = re.compile(r"纳入(?P<whose>本公司|公司|本集团|集团|[^，。；]{2,30}?的?|)(?:合并)(?:财务)?报表(?:范围)?")
_KIND_OF_NEW = re.compile(r"(?:一家)?(?:控股|全资|合资|参股)?(?:子公司|公司|企业)?")


# 合并组建 / 合并成立 / 合并设立 / 合并为: the names listed before are merged into the name right after (吸收合并 is
# an acquisition, read by the deal rules)
_MERGED_INTO = re.compile(r"(?<!吸收)(?:合并|整合|重组)(?:组建|成立|设立|为|成为|组成)(?:了|新的)?")


class FoundingFacts(ClauseRules):
    """Foundings, predecessors and lists."""

    def _foundings(self, scope: ClauseScope) -> None:
        """When and by whom the subject (or the name after 的) was founded, and what it belongs to."""
        text, clause, subject, when, sentence = scope.text, scope.clause, scope.subject, scope.when, scope.sentence
        orgs, timed, add, place_at = scope.orgs, scope.timed, scope.add, scope.place_at
        c, cs = clause.text, clause.start
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
            rest_at = cs if subject.start < cs or subject.end > cs + opened.start() else subject.end
            rest = text[rest_at:cs + opened.start()]
            date = next((x for x in clause.mentions if self._date(x) and x.start >= cs + opened.start()), None) \
                if opened.group("date") else when
            # (X于5月18日在北京成立 / X在北京成立: where it was founded may stand between the subject and the verb)
            at = re.fullmatch(r"\s*(?:于)?(?:\d{4}年[\d月日]*|\d{1,2}月\d{1,2}日)?在(?P<where>[^，。；]{2,12}?)"
                              r"(?:正式)?", rest)
            at_place = at is not None and any(self._place(x) and x.start == rest_at + at.start("where")
                                              for x in clause.mentions)
            if (rest.strip() == "" or at_place) and date is not None:
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
        m = re.search(r"由([^，。；]{1,64}?)(?:共同|联合)?(?:出资|合资)?"
                      r"(?:创办|创立|创建|发起|组建|设立|新设)(?:的)?", c)
        if m is not None:
            # 由严修和张伯苓于1919年创办: every founder listed; 由A和B共同出资设立的X: X is what they founded
            # 由暨南大学毕业的赖宗翰于2015年…创办: what is said of the founder before 的 names no founder
            described = re.match(r"[\u4e00-\u9fff]{1,10}的", m.group(1))
            # 由曾任X有限公司运营总监的P于2016年创立: a longer description (a former post) ends at 的 before the person
            long = _FORMER_POST.match(m.group(1))
            described_at = cs + m.start(1) + long.end() if long is not None and any(
                self._person(x) and x.start == cs + m.start(1) + long.end() for x in clause.mentions) else None
            founders = self._listed(clause, described_at if described_at is not None else cs + m.start(1) + (
                described.end() if described else -1), lambda x: self._person(x) or self._org(x))
            if re.match(r"(?:本公司|公司|本集团)[与和及]", m.group(1)) and scope.topic_org is not None:
                # 由公司与意大利企业X合资设立的Y: a report's 公司 is the first founder
                founders = [scope.topic_org, *founders]
            # 由中国科学技术大学教授程嘉树…创办: the founder is the person after the school and the post
            founders = [next((p for p in clause.mentions if self._person(p) and p.start > x.end
                              and POST_BETWEEN.fullmatch(text[x.end:p.start])), x) for x in founders]
            founded = next((x for x in clause.mentions if x.start == cs + m.end() and self._org(x)), None) \
                if m.group(0).endswith("的") else subject
            if founded is None and re.match(r"(?:股份有限公司|有限责任公司|有限公司|公司|企业)", c[m.end():]) \
                    and self._org(subject) and subject.end <= cs + m.start():
                founded = subject  # 公司系由X改制设立的股份有限公司: a bare legal form after 的 is the subject itself
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
        if (m := re.search(r"由(?:原)?([^，。；]{2,40}?)(?:整体)?(?:改制|改组|变更)(?:而来|而成)", c)) is not None \
                and self._org(subject):
            # 公司由台州琮川起重设备厂整体改制而来: what was reorganised into the subject is its predecessor
            add(subject, "predecessor", next((x for x in clause.mentions if self._org(x) and x is not subject
                                              and cs + m.start(1) <= x.start and x.end <= cs + m.end(1)), None))
        if (m := _FOUNDED_TOGETHER.search(c)) is not None:
            # 公司与X共同出资设立控股子公司Y: the parties before and after 与 founded Y, on the clause's date
            founded = next((x for x in self._after(clause, cs + m.end()) if self._org(x)
                            and _KIND_OF_NEW.fullmatch(text, cs + m.end(), x.start)), None)
            partners = self._listed(clause, cs + m.start("partners"), lambda x: self._org(x) or self._person(x))
            founders = (self._listed_before(clause, cs + m.start(), self._org) or [subject]) + partners
            for founder in founders if founded is not None and partners else []:
                if self._org(founder) or self._person(founder):
                    add(founded, "foundedBy", founder)
            add(founded, "foundedOn", when if partners else None)
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
            if said_as is None and (late := re.match(r"(?:为|是)", text[after_titles:])) is not None:
                after_titles += late.end()  # 创始人兼首席执行官为P: the titles first, then 为
            # (创始人为毕业于澳门大学的P: what is said of the founder stands between)
            said_of = _FORMER_POST.match(text, after_titles)
            described = _FOUNDER_IS.match(text, after_titles)
            after = [x for x in clause.mentions if self._person(x) and (
                x.start == after_titles or (said_of is not None and x.start == said_of.end())
                or (described is not None and x.start == described.end()))]
            if after:
                add(before[0] if before else subject if self._org(subject) else None, "foundedBy", after[0])

    def _mergers(self, scope: ClauseScope) -> None:
        """A与B合并组建C / A、B和C合并成立D: the body formed by the merger has each of the merged ones as its
        predecessor, and was founded on the clause's date."""
        clause, when, add = scope.clause, scope.when, scope.add
        c, cs = clause.text, clause.start
        m = _MERGED_INTO.search(c)
        if m is None:
            return
        formed = next((x for x in clause.mentions if x.start == cs + m.end() and self._org(x)), None)
        merged = self._listed_before(clause, cs + m.start(), self._org)
        if formed is None or len(merged) < 2:
            return  # (合并组建 with one name before it is a takeover said otherwise, or a name not found)
        for old in merged:
            add(formed, "predecessor", old)
        add(formed, "foundedOn", when)

    def _predecessors_and_lists(self, scope: ClauseScope) -> None:
        """前身为 X, 1897年创建的 X, 列入 / 入选 a list."""
        clause, subject, timed, add = scope.clause, scope.subject, scope.timed, scope.add
        text, sentence = scope.text, scope.sentence
        c, cs = clause.text, clause.start
        if (m := re.search(r"前身(?:为|是)", c)) is not None:
            # 前身是1897年创建的求是书院: the name, not the date of its founding
            former = next((x for x in self._after(clause, cs + m.end()) if not self._date(x)), None)
            add(subject, "predecessor", former)
        for m in re.finditer(r"(?:创建|创办|成立|设立|建立)的", c):  # 1897年创建的求是书院
            date = next((x for x in clause.mentions if self._date(x) and x.end == cs + m.start()), None)
            founded = next((x for x in clause.mentions if x.start == cs + m.end() and self._org(x)), None)
            add(founded, "foundedOn", date)
        if (m := _CONSOLIDATED.search(c)) is not None:
            # …收购X 70%的股权，该公司自2024年9月起纳入公司合并报表范围: the company the clause is about is the
            # consolidating company's subsidiary from then on (a report's 公司 / 本集团, or the body named before
            # 合并报表)
            parent = next((x for x in clause.mentions if self._org(x) and x.end in (cs + m.end("whose"),
                                                                                     cs + m.end("whose") - 1)),
                          None) if m.group("whose") else None
            parent = parent or (scope.topic_org if m.group("whose") in ("", "本公司", "公司", "本集团", "集团")
                                else None)
            child: Mention | None = subject
            if parent is not None and (subject is parent or subject.name == parent.name):
                # 公司以…收购X，并于…纳入合并报表范围: the clause goes on with the buyer; what it consolidates is the
                # company bought in the sentence
                child = next((x for x in reversed(sentence) if self._org(x) and x.end <= cs and x.name != parent.name
                              and re.search(r"收购[^，。；]{0,6}$", text[max(0, x.start - 12):x.start])), None)
            if child is not None and self._org(child) and self._company(child):
                # (收购浙江清源水务有限公司51%的股权，清源水务自…起纳入: the short name is the full name's company)
                child = max((x for x in sentence if self._company(x) and child.name in x.name),
                            key=lambda x: len(x.name), default=child)
                add(child, "partOf", parent, timed)
        elif (m := re.search(r"(?:列入|入选|纳入)", c)) is not None:
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
