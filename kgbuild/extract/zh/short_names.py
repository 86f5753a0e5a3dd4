"""A chunk's other ways of writing a name it found: a full name declared after a short one (鹤鸣酒业，全称…), every
repeat of a found name or declared short name, a company's core without its place and legal form (芯联存储), its
stem (比亚迪), and a short name glued before a subsidiary's ending (北辰精密欧洲有限公司)."""

from __future__ import annotations

import re

from kgbuild.extract.zh import word_lists as wl
from kgbuild.extract.zh.mentions import Mention
from kgbuild.extract.zh.name_rules import (
    BREAK,
    COMPANY_FORM,
    HAN,
    Found,
    is_fragment,
    occurrences,
)
from kgbuild.extract.zh.place_names import PlaceNames
from kgbuild.extract.zh.segment import Token

# A short name, then its full name declared: 鹤鸣酒业，全称四川鹤鸣酒业股份有限公司 / 鹤鸣酒业（全称…）.
_FULL_NAME = re.compile(r"(?:^|(?<=[，。；：！？\n]))\s*(?P<short>[\u4e00-\u9fffA-Za-z0-9]{2,10})\s*[，,（(]\s*"
                        r"(?:全称|全名)(?:为|是)?[：:\s]*")
# What a company makes, at the end of its name's core (景祺户外用品股份有限公司, 景祺户外 after): news drops it as it
# drops the words of company names; only the short form a chunk writes again is taken, never a name's walk
_GOODS = wl.ORG_NAME_WORDS | {"用品", "制品", "器材", "设备", "装备", "服饰"}
_GOODS_AT_END = re.compile("(?:" + "|".join(sorted(_GOODS, key=len, reverse=True)) + ")$")
_ORG_WORDS_AT_END = re.compile("(?:" + "|".join(wl.ORG_NAME_WORDS) + ")+$")  # 创新科技 of 大疆创新科技
_BODIES_OF_A_COMPANY = frozenset({"董事局", "董事会", "监事会", "股东大会"})
# An industry word written right after a group's stem (四川蜀醍集团有限公司…；蜀醍酒业拟以…): the name of a company of
# its own (the group's listed arm), not the group's stem and a word. Only words that name an industry and seldom
# stand alone after a brand as a common noun (比亚迪汽车销量: 汽车 is left out).
_INDUSTRY_AFTER_STEM = re.compile(r"(?:医药|药业|生物|乳业|酒业|钢铁|重工|化工|食品|纺织|家居|电器|航运|证券|地产|"
                                  r"文旅|科技|电子|物流|传媒|置业|实业|矿业|水务|环保|股份)")


class ShortNames(PlaceNames):
    """Other ways a chunk writes a name it found."""

    @staticmethod
    def _full_names(text: str, kept: list[Found]) -> list[tuple[Mention, str]]:
        """鹤鸣酒业，全称四川鹤鸣酒业股份有限公司 / 鹤鸣酒业（全称…）: the name written first is the short name of the
        full name declared after it (the reverse of 以下简称), where its characters stand in the full name in order."""
        out: list[tuple[Mention, str]] = []
        for m in _FULL_NAME.finditer(text):
            full = next((f.mention for f in kept if f.mention.start == m.end() and f.how == "org"), None)
            short = m.group("short")
            chars = iter(full.name) if full is not None else iter(())
            if full is not None and short != full.name and all(c in chars for c in short):
                out.append((full, short))
                if short not in full.aliases:
                    full.aliases.append(short)
        return out

    def _joined_to_a_short_name(self, text: str, kept: list[Found]) -> list[Found]:
        """北辰精密新设全资子公司北辰精密欧洲有限公司: the walk back from 有限公司 stops at 精密 (an adjective to
        jieba), leaving 欧洲有限公司; a short name the chunk found right before it is the start of the name."""
        out = list(kept)
        for f in kept:
            m = f.mention
            if f.how != "org" or not self._org_re.search(m.name) or f not in out:
                continue
            head = next((g for g in out if g is not f and g.mention.end == m.start and g.how in ("org", "repeat")
                         and g.mention.spg_class == self.company and not self._org_re.search(g.mention.form)
                         and 2 <= len(g.mention.form) <= 8), None)
            if head is None:
                continue
            out.remove(head)
            m.start = head.mention.start
            m.name = m.form = text[m.start:m.end]
        return out

    def _repeat(self, text: str, kept: list[Found], aliases: list[tuple[Mention, str]]) -> list[Found]:
        """Every other place the chunk writes a found name (or a declared short name) is a mention of it."""
        names: dict[str, Mention] = {}
        for f in kept:
            if f.how != "date" and len(f.mention.name) >= 2:
                names.setdefault(f.mention.name, f.mention)
        for owner, alias in aliases:
            if len(alias) >= 2:
                names.setdefault(alias, owner)
        for f in kept:  # 冯·诺依曼 and 诺依曼 after 约翰·冯·诺依曼: the same person, by the end of the name
            parts = re.split(r"[·・•‧]", f.mention.name)
            if f.how == "person" and len(parts) > 1:
                for i in range(1, len(parts)):
                    tail = "·".join(parts[i:])
                    if len(tail) >= 2:
                        names.setdefault(tail, f.mention)
        # 2023年11月，云岭新能收购…，该公司成为云岭新能的控股子公司: jieba cuts the second 云岭新能 as 云岭 (a
        # place) | 新能; an organisation's name the chunk found once wins over shorter names found inside it
        orgs = {id(f.mention) for f in kept if f.how == "org"} | {id(owner) for owner, _ in aliases}
        taken = [(f.mention.start, f.mention.end) for f in kept]
        out = list(kept)
        for form in sorted(names, key=len, reverse=True):
            owner = names[form]
            for m_start, m_end in occurrences(form, text):
                inner = [f for f in out if m_start < f.mention.end and f.mention.start < m_end]
                # 欧阳振邦 written again (jieba: 欧阳 a place): a place inside a person's name is no place either
                person = owner.spg_class == self.person and all(f.how == "place" for f in inner)
                if (id(owner) in orgs or person) and inner and all(
                        f.how in ("place", "person") and m_start <= f.mention.start and f.mention.end <= m_end
                        and f.mention.end - f.mention.start < len(form) for f in inner):
                    out = [f for f in out if f not in inner]
                    taken = [(s, e) for s, e in taken if not any((s, e) == (f.mention.start, f.mention.end)
                                                                 for f in inner)]
                if any(m_start < e and s < m_end for s, e in taken):
                    continue
                taken.append((m_start, m_end))
                out.append(Found(Mention(owner.name, owner.spg_class, m_start, m_end, form,
                                         aliases=owner.aliases), "repeat"))
        return out

    def _short_forms(self, text: str, tokens: list[Token], kept: list[Found]) -> list[Found]:
        """合肥芯联存储科技股份有限公司…；芯联存储由…创办: news names a company in full once, then by its core: the
        full name without the place it opens with, its legal form and the words of company names before the form
        (科技). Where the chunk writes that core again outside any name found, or as the start of a body of the
        company (闽泰鞋业董事局), it names the company: an entity of its own, as written (the way a short name found
        as a clause's subject is)."""
        if self.company is None:
            return kept
        out = list(kept)
        starts = {t.start for t in tokens}
        ends = {t.end for t in tokens}
        for f in kept:
            m = f.mention
            form = COMPANY_FORM.search(m.name)
            if f.how != "org" or m.spg_class != self.company or form is None:
                continue
            core = m.name[:form.start()]
            # the place it opens with: one the rules know, or a city's name without 市 that jieba keeps as one
            # noun (合肥 | 芯 | 联…)
            first = next((t for t in tokens if t.start == m.start), None)
            place = next((core[:n] for n in (3, 2) if len(core) - n >= 4 and (self._place_class(core[:n]) or (
                first is not None and first.word == core[:n] and first.pos in ("n", "ns")
                and self._place_class(first.word + "市") is not None))), "")
            shorts = [core[len(place):]]
            while (cut := _GOODS_AT_END.search(shorts[-1])) is not None and cut.start() >= 3:
                shorts.append(shorts[-1][:cut.start()])  # 芯联存储科技 -> 芯联存储 (not 芯联: 存储 is a word of names)
            rest = shorts[0]
            at = m.start + len(place)
            if len(rest) >= 6 and at + 2 in starts and at + 6 in ends:
                # 郑州豫礼文化创意有限公司…豫礼文创, 贵州黔源国有资本运营有限公司…黔源国资: Chinese shortens a name to
                # its first word and the first character of each of the two words after it (文化创意 -> 文创), where
                # jieba's words start after the first two characters and end after the next four
                shorts.append(rest[:2] + rest[2] + rest[4])
            for short, (hit_start, hit_end) in ((x, h) for x in shorts if 3 <= len(x) <= 8 and not self._common(x)
                                                for h in occurrences(x, text)):
                # 广东粤鲜坊食品有限公司…。粤鲜坊成立于…: a core of three characters names the company only where it
                # opens a clause and jieba's words begin and end with it (粤鲜坊 in 粤鲜坊的 | 点心 would be a guess)
                if len(short) == 3 and not (hit_start in starts and hit_end in ends and (
                        hit_start == 0 or BREAK.match(text[hit_start - 1])) and hit_start != m.start):
                    continue
                placed: list[Found] = []
                if place and text[max(0, hit_start - len(place)):hit_start] == place:
                    # 收购常州运河码头有限公司…。常州运河码头将成为…: the core written again with the place the full
                    # name opens with is one name, not a city and a company
                    placed = [g for g in out if g.how == "place" and g.mention.start == hit_start - len(place)
                              and g.mention.end == hit_start]
                    hit_start -= len(place)
                    short = place + short
                inner = [g for g in out if hit_start < g.mention.end and g.mention.start < hit_end and g not in placed]
                body = [g for g in inner if g.how == "org" and g.mention.start == hit_start
                        and g.mention.name[len(short):] in _BODIES_OF_A_COMPANY]
                if body:  # 闽泰鞋业董事局主席: the company's board, so the company
                    out.remove(body[0])
                    inner.remove(body[0])
                if inner:
                    continue
                out = [g for g in out if g not in placed]
                out.append(Found(Mention(short, self.company, hit_start, hit_end, short), "org"))
        return out

    def _stems(self, text: str, tokens: list[Token], kept: list[Found]) -> list[Found]:
        """比亚迪股份有限公司…，1995年在深圳创办比亚迪: a company the chunk names in full is written later by its name
        without the legal form (比亚迪), or without the place it starts with too (新锐半导体 of
        深圳新锐半导体股份有限公司), undeclared; such a later stem, where jieba's words begin and end with it, is a
        mention of a company of its own (alignment may join the two; the text never said they are one)."""
        if self.company is None:
            return kept
        starts = {t.start for t in tokens}
        ends = {t.end for t in tokens}
        stems: set[str] = set()
        for f in kept:
            form = COMPANY_FORM.search(f.mention.name)
            if f.how != "org" or form is None or form.end() != len(f.mention.name):
                continue
            stem = re.sub(r"(?:集团|控股)+$", "", f.mention.name[:form.start()])
            place = next((t for t in tokens if t.start == f.mention.start and t.pos == "ns"
                          and t.end - t.start < len(stem)), None)
            # 大疆创新科技有限公司 … 创立大疆: the words of company names after the name (创新, 科技) drop too
            bare = _ORG_WORDS_AT_END.sub("", stem)
            if len(bare) == 2 and (self._place_class(bare) is not None or self._common(bare)):
                bare = ""
            for form_ in (stem, stem[place.end - place.start:] if place else "", bare if len(bare) == 2 else ""):
                if len(form_) >= 2 and not self._common(form_) and form_ not in wl.ORG_STOP \
                        and not is_fragment(form_, self._org_re):
                    stems.add(form_)
        out = list(kept)
        for stem in sorted(stems, key=len, reverse=True):
            at = text.find(stem)
            while at >= 0:  # str.find, not a pattern per stem: re's cache of compiled patterns is small
                s, e = at, at + len(stem)
                at = text.find(stem, e)
                if s not in starts or (e not in ends and HAN.match(text[e:e + 1] or "x")):
                    continue
                if (industry := _INDUSTRY_AFTER_STEM.match(text, e)) is not None and industry.end() in ends \
                        and text[s:industry.end()] not in stems:
                    e = industry.end()  # 蜀醍酒业, not 蜀醍 and 酒业
                inner = [f for f in out if s < f.mention.end and f.mention.start < e]
                if any(f.how not in ("place", "person") or f.mention.start < s or f.mention.end > e for f in inner):
                    continue  # inside a name found already (the full name itself)
                out = [f for f in out if f not in inner]
                out.append(Found(Mention(text[s:e], self.company, s, e, text[s:e]), "org"))
        return out
