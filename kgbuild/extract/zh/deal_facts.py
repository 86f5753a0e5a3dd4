"""Deals between parties: 向 X 出售 Y, 收购 / 对 X 的收购 (with its price and stake), 由 X 收购 / 发布 (passive),
与 X 合作 and the co-hosts of an event (cooperateWith)."""

from __future__ import annotations

import re

from kgbuild.extract.zh.clause_rules import ClauseRules, ClauseScope
from kgbuild.extract.zh.mentions import Mention

# What a 由 clause says an agent did to the subject: 成都云图…由华信控股…以4.5亿元收购, 《报告》由研究院发布.
_PASSIVE = re.compile(r"[由被](?P<agent>[^，。；]{2,30}?)(?:以[^，。；]{1,16}?)?(?:共同|联合|正式|首次)?"
                      r"(?P<verb>收购|并购|兼并|发布|推出|首发)")
# A deal called off or not made before its verb (终止筹划以现金方式收购X, 放弃收购, 未能完成对X的收购): no acquisition.
_CALLED_OFF = re.compile(r"(?:终止|中止|放弃|取消|未能|未获|不再)[^，。；]{0,12}$")
# What may stand between a buyer and its verb (X拟以现金方式收购, X换股吸收合并Y, X已正式收购): a plan, a time
# adverb, the way it pays.
_BUYER_GAP = re.compile(r"(?:拟|将|已|已经|正式|成功|计划|宣布|同意|决定|换股|现金|以现金方式|以现金|发行股份|"
                        r"以发行股份方式|方式|及支付现金)*")


class DealFacts(ClauseRules):
    """Sales, acquisitions and cooperation."""

    def _sale(self, scope: ClauseScope) -> None:
        """公司向X出售了所持有的Y全部股权: X buys Y."""
        clause, timed, add = scope.clause, scope.timed, scope.add
        c, cs = clause.text, clause.start
        if (m := re.search(r"向(.{2,30}?)(?:出售|转让)(?:了)?", c)) is not None:
            # 公司向X出售了所持有的Y全部股权: X buys Y
            buyer_to = next((x for x in self._after(clause, cs + m.start(1)) if self._org(x)
                             and x.end <= cs + m.end(1)), None)
            sold = next((x for x in self._after(clause, cs + m.end()) if self._org(x)), None)
            if buyer_to is not None and sold is not None:
                add(buyer_to, "acquire", sold, timed)

    def _acquisitions(self, scope: ClauseScope) -> None:
        """收购 / 对 X 的收购 with its price and stake, and a passive 由 X 收购 / 发布."""
        text, clause, subject, sentence = scope.text, scope.clause, scope.subject, scope.sentence
        sentence_end, timed, add = scope.sentence_end, scope.timed, scope.add
        c, cs = clause.text, clause.start
        if (m := re.search(r"对(.{2,30}?)(?:的|进行)(?:吸收合并|收购|并购)", c)) is not None or \
                (m := re.search(r"(?:吸收合并|收购|并购|兼并|购入|购买)(?:了)?", c)) is not None:
            target = next((x for x in self._after(clause, cs + (m.start(1) if m.lastindex else m.end()))
                           if self._org(x) or x.kind in ("quote", "title")), None)
            if _CALLED_OFF.search(c, 0, m.start()):
                target = None  # 终止筹划以现金方式收购X…的重大资产重组事项: the deal is off
            buyer: Mention | None = subject
            # 监管总局…批准X收购Y股权案 / 已对X换股吸收合并Y案作出…决定: an organisation written right before the
            # verb buys, not the clause's subject (a regulator that rules on the deal)
            right_before = next((x for x in reversed(clause.mentions) if not m.lastindex and self._org(x)
                                 and x.end <= cs + m.start() and _BUYER_GAP.fullmatch(text, x.end, cs + m.start())),
                                None)
            # 监管总局批准了晨光乳业有限公司对北方牧场…的收购: the buyer is the name right before 对
            before_dui = next((x for x in clause.mentions if m.lastindex and x.end == cs + m.start()
                               and self._org(x)), None)
            if before_dui is not None:
                buyer = before_dui
            elif right_before is not None:
                buyer = right_before
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

    def _cooperation(self, scope: ClauseScope) -> None:
        """与 X 合作 / 签署…协议: each party before 与 with each one after it."""
        clause, subject, topic_org, timed, add = scope.clause, scope.subject, scope.topic_org, scope.timed, scope.add
        c, cs = clause.text, clause.start
        # (签署…联合研发协议, 签订战略框架协议: an agreement to work together, whatever words stand before 协议)
        if re.search(r"合作|联合成立|共同成立|合资成立|合资设立|共建|联合组建|共同组建|签约(?!仪式)|"
                     r"(?:签署|签订)[^，。；]{0,12}?(?:联合|战略|框架)[^，。；]{0,8}?协议", c) \
                and (m := re.search(r"(?:与|和|(?<![共相不])同)", c)) is not None:  # 共同 is no 同
            partner = next((x for x in self._after(clause, cs + m.end()) if self._org(x)), None)
            # 中联数科、华南理工大学与黄埔区人民政府签署合作协议: each party listed before 与 with each one after it
            parties = self._listed_before(clause, cs + m.start(), self._org)
            if len(parties) < 2 or parties[-1].end != cs + m.start():
                parties = [subject]
            if self._org(subject) and subject.start > cs + m.start() \
                    and re.search(r"由[^，。；]{0,30}$", c[:m.start()]):
                parties = []  # (由公司与X合资设立的Y于…投产: Y is what they founded, no party to a cooperation)
            elif not self._org(subject) and re.search(r"由[^，。；]{0,30}$", c[:m.start()]):
                # 该药由沪渊生物与复旦大学药学院合作研发: the makers after 由 work together, not the thing they made
                # (该产品由公司与太原理工大学合作研发: a report's 公司 is its company)
                parties = [x for x in clause.mentions if x.end == cs + m.start() and self._org(x)] or (
                    [topic_org] if topic_org is not None and re.search(r"由(?:本公司|公司)$", c[:m.start()]) else [])
            partners = self._listed(clause, partner.start, self._org) if partner is not None else []
            for party in parties:
                if self._org(party):
                    for other in partners:
                        add(party, "cooperateWith", other, timed)

    def _co_hosts(self, scope: ClauseScope) -> None:
        """该展览由A与B联合主办: the hosts listed after 由 work together."""
        clause, timed, add = scope.clause, scope.timed, scope.add
        c, cs = clause.text, clause.start
        if (m := re.search(r"由(.{2,40}?)(?:联合|共同)(?:主办|举办|承办)", c)) is not None:
            # 该展览由故宫博物院与湖北省博物馆联合主办: the hosts listed after 由 work together
            first = next((x for x in self._after(clause, cs + m.start(1)) if x.start == cs + m.start(1)), None)
            hosts = [x for x in self._listed(clause, first.start, self._org) if x.end <= cs + m.end(1)] \
                if first is not None else []
            for other in hosts[1:]:
                add(hosts[0], "cooperateWith", other, timed)
