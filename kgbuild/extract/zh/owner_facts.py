"""Parents and subsidiaries: 隶属于, 旗下, X的全资子公司Y, 拥有A、B和C三家子公司, 成为 X 的子公司 (partOf); holders
of a company: 由 X 全资控股 / 持有 (ownedBy)."""

from __future__ import annotations

import re

from kgbuild.extract.zh.clause_rules import ClauseRules, ClauseScope
from kgbuild.extract.zh.own_company import HELD_BY_OWN

# S由X(全资)控股 / 由X全资持有: X holds S. The holders stand right after 由; a stake's kind or 共同 may come before
# the verb (由X持有的股份 is a stake, not the subject, held; 不再由X控股 says the opposite, so a negation before 由
# reads nothing: 不, 未, 非, 不再).
_HELD_BY = re.compile(r"(?<![不未非再])由([^，。；]{2,40}?)(?:共同|合计)?(?:全资|绝对|相对|直接|间接)?"
                      r"(?:控股(?![股子公])|持股(?!比例)|持有(?![的其\d]))")

# A clause that announces subsidiaries and stops (公司另有两家全资子公司：A和B / 拥有三家控股子公司，分别为A、B和C):
# the next clause lists them, from its start or after 分别为 / 即 / 包括.
_SUBSIDIARIES_ANNOUNCED = re.compile(r"(?:有|拥有|设有|下设|另有|还有|共有|包括)(?:[一二三四五六七八九十两\d]+家)?"
                                     r"(?:全资|控股|直属)?(?:子公司|下属企业|下属公司)(?:如下)?\s*[，,：:]\s*$")
# A subsidiary named beside its parent: 本公司及全资子公司X, 公司通过控股子公司X (the parent right before the joint
# word)
# (or what the parent does for it: 为全资子公司A、B提供担保, 向控股子公司X增资, 对全资子公司X借款)
# (or where the parent says it has one more, or has it run something: 公司另有一家全资子公司X, 分别由全资子公司A和B运营)
_SUBSIDIARY_BESIDE = re.compile(r"(?:及|和|与|以及|通过|借助|携|为|向|对|(?P<by>分别由|由)|"
                                r"(?:另有|还有|拥有|设有|下设)(?:一家|[一二三四五六七八九十两\d]+家)?)"
                                r"(?:其|旗下)?(?:全资|控股)(?:子公司|孙公司)")
# What may open a clause before 通过 / 由 when the clause goes on with the sentence's subject (…，并通过控股子公司X经营)
_CARRIED_OPEN = re.compile(r"\s*(?:并|并且|还|同时|主要|另外|此外|则|也|已|将|另|其中)*\s*")
_LIST_OPENS = re.compile(r"\s*(?:分别为|分别是|即|包括|为|是)?\s*")


# X的全资子公司Y, X全资子公司Y, and a clause's opening 公司(的)全资子公司Y (group 1: the report's own company)
_CHILD_OF = re.compile(r"(?:^\s*(本公司|公司|本集团|本行))?(?:的(?:全资|控股|参股)?|(?:全资|控股|参股))子公司")


# Between the one who set a subsidiary up and 的全资子公司: when and where, then the verb (于2022年在埃及苏伊士省设立)
_SET_UP_BY = re.compile(r"(?:于[^，。；]{0,16}?)?(?:在[^，。；]{0,14}?)?(?:共同|独资|全资)?(?:出资|投资|新)?"
                        r"(?:设立|成立|组建|创立|注册成立)")
# A short name declared in brackets right after a name (（以下简称“中筑赣建”）)
_SHORT_NAME_SAID = re.compile(r"[（(](?:以下简称|以下称|下称|简称)[^）)]{1,40}[）)]")
# 成为X的全资子公司, 成为其子公司, 成为公司控股子公司 (group 3: a report's own company, written without 的)
_BECOMES_CHILD = re.compile(r"(?:成为|是|为)(?:(.{0,16}?)的|(其)|(本公司|公司|本集团|本行))"
                            r"(?:全资|控股|参股)?(?:子公司|下属企业|下属公司)")


class OwnerFacts(ClauseRules):
    """Parents and subsidiaries."""

    def _parents(self, scope: ClauseScope) -> None:
        """隶属于 X, X旗下(拥有) A、B, X的全资子公司Y, 拥有A、B和C三家全资子公司."""
        clause, subject, topic_org, add = scope.clause, scope.subject, scope.topic_org, scope.add
        text = scope.text
        c, cs = clause.text, clause.start
        if (m := re.search(r"(?:隶属于|隶属|归属于|从属于)", c)) is not None:
            owner = next((x for x in self._after(clause, cs + m.end()) if self._org(x)), None)
            add(subject, "partOf", owner)
        if (m := _HELD_BY.search(c)) is not None and self._org(subject) and subject.end <= cs + m.start():
            # 苏锡港务由无锡市国资委全资控股 / 该合资公司由A与B共同控股: the holders named between 由 and 控股 own it
            first = next((x for x in self._after(clause, cs + m.start(1)) if x.end <= cs + m.end(1)), None)
            owners = self._listed(clause, first.start, lambda x: self._org(x) or self._person(x)) \
                if first is not None and first.start == cs + m.start(1) else []
            for x in owners:
                if x.end <= cs + m.end(1) and x.name != subject.name:
                    add(subject, "ownedBy", x)
        if (m := HELD_BY_OWN.search(c)) is not None and self._org(subject) and subject.end <= cs + m.start() \
                and topic_org is not None and topic_org.name != subject.name:
            add(subject, "ownedBy", topic_org)  # 湖州X有限公司由公司持股60%: the report's company holds it
        if (m := re.search(r"旗下(?:拥有|有|包括|设有)?(?:的)?", c)) is not None:
            owner = next((x for x in clause.mentions if x.end == cs + m.start() and self._org(x)), None) or (
                subject if self._org(subject) else topic_org)
            # 旗下拥有A、B和C: the names listed right after; 吉利控股集团旗下的极氪…于…在纽约证券交易所上市 (极氪… not
            # found): a later name in the clause is no subsidiary
            first = next((x for x in self._after(clause, cs + m.end()) if x.start <= cs + m.end() + 1), None)
            for x in self._listed(clause, first.start, self._org) if first is not None else []:
                add(x, "partOf", owner)
        for m in _CHILD_OF.finditer(c):
            # 金穗装备的全资子公司金穗（哈萨克斯坦）农机有限公司 (or 金穗装备全资子公司…): the name right after is the
            # one before's; 公司全资子公司X: a report's 公司 is the company it stands for
            parent = next((x for x in clause.mentions if self._org(x) and (x.end == cs + m.start() or (
                x.end < cs + m.start() and _SHORT_NAME_SAID.fullmatch(text, x.end, cs + m.start())))), None) or (
                topic_org if m.group(1) else None)  # (X（以下简称“Y”）全资子公司Z: the short name said between)
            child = next((x for x in clause.mentions if x.start == cs + m.end() and self._org(x)), None)
            founder = None
            if parent is None and child is not None and c[m.start():m.start() + 1] == "的":
                # 公司于2022年在埃及苏伊士省设立的全资子公司X / Y于2021年投资设立的控股子公司X: who set it up, the
                # company named (or 公司) before the verb, is its parent and its founder
                founder = next((x for x in reversed(clause.mentions) if self._org(x) and x.end <= cs + m.start()
                                and _SET_UP_BY.fullmatch(text, x.end, cs + m.start())), None)
                if founder is None and (own := re.search(r"(?:本公司|公司|本集团)(?=[^，。；]*$)", c[:m.start()])) \
                        is not None and _SET_UP_BY.fullmatch(text, cs + own.end(), cs + m.start()):
                    founder = topic_org
                parent = founder
            for x in self._listed(clause, child.start, self._org) if child is not None else []:
                add(x, "partOf", parent)  # …的全资子公司A和B: each
                if founder is not None and founder.name != x.name:
                    add(x, "foundedBy", founder)
        for m in re.finditer(r"(?:拥有|下设|设有|包括)((?:[^，。；、和及]{2,40}[、和及])+[^，。；、和及]{2,40}?)"
                             r"(?:[等共]?[一二三四五六七八九十两\d]+家)(?:全资|控股)?(?:子公司|下属企业)", c) \
                if "家" in c else ():
            # 云杉纺织目前拥有A、B和C三家全资子公司: every listed name is the subject's
            owner = subject if self._org(subject) and subject.end <= cs + m.start() else None
            for x in clause.mentions:
                if owner is not None and self._org(x) and cs + m.start(1) <= x.start and x.end <= cs + m.end(1):
                    add(x, "partOf", owner)

    def _subsidiary_beside_its_parent(self, scope: ClauseScope) -> None:
        """本公司及全资子公司X / 公司通过控股子公司X / 与其全资子公司X: a subsidiary named beside (or through) the body
        it belongs to, inside a clause about something else: X is the subsidiary of that body (本公司, 公司, 其: the
        report's company; else the organisation right before the joint word)."""
        text, clause, topic_org, add = scope.text, scope.clause, scope.topic_org, scope.add
        subject = scope.subject
        cs = clause.start
        for m in _SUBSIDIARY_BESIDE.finditer(clause.text):
            child = next((x for x in clause.mentions if x.start == cs + m.end() and self._org(x)), None)
            if child is None:
                continue
            parent = next((x for x in clause.mentions if x.end == cs + m.start() and self._org(x)), None) \
                if m.group("by") is None else None  # (X由全资子公司Y运营: X is what Y runs, not Y's parent)
            before = text[max(0, cs + m.start() - 6):cs + m.start()]
            if parent is None and re.search(r"(?:本公司|公司|本集团|集团)(?:还|也|将|拟|另有|还有|拥有|设有|下设)?$",
                                            before):
                parent = topic_org
            if parent is None and m.group(0)[0] in "为向对" and self._org(subject) and subject.end <= cs + m.start():
                parent = subject  # X同意为全资子公司A、B提供担保: the clause's subject does it for its own
            if parent is None and _CARRIED_OPEN.fullmatch(text, cs, cs + m.start()) and self._org(subject) \
                    and subject.end <= cs:
                parent = subject  # 岚峰旅游主要经营…，并通过控股子公司X经营…: the sentence's subject, carried on
            if parent is None and m.group("by") is not None and topic_org is not None and not any(
                    self._org(x) for x in clause.mentions if x.end <= cs + m.start()):
                parent = topic_org  # …的园区分别由全资子公司A和B运营: the chunk's company's subsidiaries
            for x in self._listed(clause, child.start, self._org):
                if parent is not None and parent.name != x.name:
                    add(x, "partOf", parent)

    def _announced_subsidiaries(self, scope: ClauseScope) -> None:
        """公司另有两家全资子公司：A和B: a clause that lists only names after one that announced subsidiaries; each
        is the subsidiary of the organisation the announcing clause named before its verb (公司: the report's)."""
        text, clause, sentence, topic_org, add = scope.text, scope.clause, scope.sentence, scope.topic_org, scope.add
        cs = clause.start
        opened = max(text.rfind(e, 0, cs) for e in "。！？\n；;") + 1
        before = text[opened:cs]
        announced = _SUBSIDIARIES_ANNOUNCED.search(before)
        lead = _LIST_OPENS.match(clause.text)
        if announced is None or lead is None:
            return
        listed = self._listed(clause, cs + lead.end(), self._org)
        if not listed or listed[0].start != cs + lead.end():
            return
        # the clause that announced them: its last organisation before the verb, else the report's company
        prev = max(text.rfind(e, opened, cs - 1) for e in "，,：:") + 1
        start = max(prev, opened)
        owners = [x for x in sentence if self._org(x) and start <= x.start and x.end <= opened + announced.start()]
        owner = owners[-1] if owners else (
            topic_org if re.match(r"\s*(?:[^，。；]{0,12}?[，,])?\s*(?:本公司|该公司|公司|本集团|集团|其|我们)?",
                                  text[start:opened + announced.start()]) else None)
        if owner is None or any(x.name == owner.name for x in listed):
            return  # (a report naming no company but its subsidiaries: 公司 is none of them)
        for x in listed:
            add(x, "partOf", owner)

    def _subsidiary_of(self, scope: ClauseScope) -> None:
        """成为其全资子公司, 后者成为X的控股子公司: what becomes whose subsidiary."""
        clause, subject, sentence = scope.clause, scope.subject, scope.sentence
        topic_org, orgs, add = scope.topic_org, scope.orgs, scope.add
        c, cs = clause.text, clause.start
        # 成为其全资子公司: 其 is the organisation named before (成都云图…由华信控股…收购，成为其全资子公司)
        if (m := _BECOMES_CHILD.search(c)):
            owner = next((x for x in self._after(clause, cs + m.start(1))
                          if self._org(x) and x.end <= cs + m.end(1)), None) if m.group(1) is not None else None
            if m.group(3) is not None:
                owner = topic_org  # 该公司成为公司控股子公司: the report's own company
            elif owner is None and re.search(r"(?:集团|公司|其|本公司|该公司)$", m.group(1) or m.group(2)):
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
