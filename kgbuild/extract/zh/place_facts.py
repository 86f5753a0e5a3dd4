"""Places: 总部位于 P (headquarteredIn), 位于 / 地处 P (locatedIn), an event held 在 P, and places written side by side
(浙江省宁波市, 海淀区的中关村科技园区, 德国化工企业X)."""

from __future__ import annotations

import re
from itertools import pairwise

from kgbuild.extract.zh import word_lists as wl
from kgbuild.extract.zh.clause_rules import ClauseRules, ClauseScope, OpenFact
from kgbuild.extract.zh.mentions import Mention


class PlaceFacts(ClauseRules):
    """Where things are and events are held."""

    def _locations(self, scope: ClauseScope) -> None:
        """总部位于 P, 位于 P: where the subject, the name the place describes, or each listed name is."""
        text, clause, subject, add, place_at = scope.text, scope.clause, scope.subject, scope.add, scope.place_at
        c, cs = clause.text, clause.start
        if (m := re.search(r"总部(?:均|也|都|则|仍|现)?(?:位于|设在|设于|在|坐落于)", c)) is not None:
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
                described = re.search(r"(?:是|为|系)(?:一[家所个座种处])?$", c[:m.start()]) is not None
                if nxt is None and text[place.end:place.end + 1] == "的" and not described:
                    # 宁德X有限公司位于福建省宁德市蕉城区的动力电池基地正式投产: the place is the unnamed base's (the
                    # noun after 的), not the company's; X是位于P的一家企业 describes X itself
                    located = []
                if c[:m.start()].endswith("分别") and len(located) == len(places) > 1:
                    for x, where in zip(located, places, strict=True):  # A和B分别位于P和Q: A in P, B in Q
                        add(x, "locatedIn", where)
                    located = []
                for x in located:
                    add(x, "locatedIn", place)

    def _held_at(self, scope: ClauseScope) -> None:
        """第十届长白山国际电影节…在吉林省长春市开幕: where a named event is held."""
        clause, subject, add, place_at = scope.clause, scope.subject, scope.add, scope.place_at
        c, cs = clause.text, clause.start
        held_at = re.search(r"在(?P<where>[^，。；]{2,20}?)(?:隆重|正式)?(?:举行|举办|开幕|召开|闭幕|落幕)", c)
        if (m := held_at) is not None:
            # 第十届长白山国际电影节于8月20日在吉林省长春市开幕, “…特展”在故宫博物院开幕: where a named event is held
            event = next((x for x in clause.mentions if x.kind == "event" and x.end <= cs + m.start()), None) or (
                subject if subject.kind == "event" else None)
            venue = place_at(cs + m.start("where")) or next(
                (x for x in clause.mentions if x.start == cs + m.start("where") and self._org(x)), None)
            add(event, "locatedIn", venue)

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
