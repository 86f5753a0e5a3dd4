"""Open-domain names in Chinese text, without a model: organisations, people, places, works, products,
awards and dates, plus amounts (kept apart: they become qualifier values, not entities).

Chinese writes no capitals and no spaces, and jieba's name tags are only a hint (its dictionary tags
智能化 a person name), so each kind of name is found by what marks it in the text itself:
- organisations by their ending (…股份有限公司, …集团, …银行, …大学, …研究院, …局), the name reaching back
  over the noun-like words before the ending (深圳云帆软件有限公司), stopping at a verb, a preposition or a
  descriptor (德国化工企业 | 莱茵特种材料公司), and never a bare kind (子公司, 上市公司);
- people by a title before the name (董事长徐直军, 作家周慕白), by a verb of saying or a life event after it
  (李明远表示, 雷军毕业于), or as the subject an encyclopedia entry opens with (钱学森，…); always a known
  surname and two to four characters;
- places by jieba's place tag confirmed by a list (countries, provinces), an ending (…省, …市, …区, …山)
  or jieba's dictionary knowing the place well;
- works in 《》, products in quotes after a noun that says what they are (平台“天枢”, 药物“蓝替尼”);
- short names declared in brackets (以下简称“星河智能”) as aliases, and a name that stands before an
  executive title (星河智能董事长) as an organisation.
A name found once is a mention wherever else the chunk writes it.

The rules are grouped by what they find, one module each (see `name_rules`); this module runs them
and joins what they found.
"""

from __future__ import annotations

import re

from kgbuild.extract.zh.mentions import Mention
from kgbuild.extract.zh.name_rules import (
    BREAK,
    CN_VALUE_RE,
    DATE_RE,
    VALUE_RE,
    Found,
    OpenMentions,
    is_fragment,
    non_overlapping,
    overlaps,
)
from kgbuild.extract.zh.org_cues import CuedOrgNames, listed_spans
from kgbuild.extract.zh.org_names import OrgNames
from kgbuild.extract.zh.segment import Token
from kgbuild.extract.zh.short_names import ShortNames
from kgbuild.extract.zh.work_names import WorkNames

_ALIAS = re.compile(r"(?:以下简称|以下称|下称|简称|又称|亦称|俗称|英文简称|曾用名|原名|古称|旧称)[为：:\s]*"
                    r"(?:[“\"「『《]([^“”\"「」『』《》\n]{1,30})[”\"」』》]|([\u4e00-\u9fffA-Za-z0-9]{2,12}))")
_LEAD_ONLY = re.compile(r"\s*")  # nothing before a sentence's subject but space


class OpenNameFinder(OrgNames, CuedOrgNames, WorkNames, ShortNames):
    """The rules resolved against one schema (built once per extractor)."""

    def find(self, text: str, tokens: list[Token]) -> OpenMentions:
        result = OpenMentions()
        quoted, spans = self._quoted(text)
        result.quoted = spans
        found: list[Found] = list(quoted)
        dates = [Found(Mention(m.group(0), self.date, m.start(), m.end(), m.group(0)), "date")
                 for m in DATE_RE.finditer(text)] if self.date else []
        found += dates
        blocked = [(f.mention.start, f.mention.end) for f in found] + spans
        # 深市上市公司, 港股上市公司: where a company is listed names no place and no company (the exchange's short name
        # at its start is found as the exchange: org_cues._org_after_listing)
        blocked += listed_spans(text)
        found += self._orgs(text, tokens, blocked)
        found += self._org_before_title(text, tokens, blocked)
        found += self._org_in_appointment(text, tokens, blocked + [(f.mention.start, f.mention.end) for f in found])
        found += self._org_as_subject(text, tokens, blocked + [(f.mention.start, f.mention.end) for f in found])
        found += self._org_after_listing(text, blocked)
        found += self._org_beside_org(text, tokens, found)
        found += self._agents_after_you(text, tokens, found)
        found += self._buildings(text, tokens, blocked + [(f.mention.start, f.mention.end) for f in found])
        found += self._awards(text, tokens, blocked)
        found += self._events_named(text, tokens, blocked)
        found += self._persons(text, tokens, blocked)
        found += self._places(tokens, blocked)
        found += self._list_items(text, found)
        found += self._listed_org_words(tokens, found)
        found += self._latin_names(text, tokens, [(f.mention.start, f.mention.end) for f in found])
        self._unglue(text, found, tokens)
        kept = non_overlapping(found)
        # Short names declared in brackets: 星河智能科技股份有限公司（以下简称“星河智能”）.
        for m in _ALIAS.finditer(text):
            alias = m.group(1) or m.group(2)
            owner = next((f.mention for f in reversed(kept) if f.mention.end <= m.start()
                          and m.start() - f.mention.end <= 3 and f.how != "date"), None)
            if (owner is None or m.group(0).startswith(("原名", "曾用名", "古称", "旧称"))) \
                    and re.search(r"[，,]\s*$", text[:m.start()]) and m.group(0).startswith(
                    ("原名", "曾用名", "又称", "旧称", "古称", "简称")):
                # 复旦大学创建于1905年，原名复旦公学: a clause of its own about the sentence's subject
                opened = max(text.rfind(c, 0, m.start()) for c in "。！？\n") + 1
                owner = next((f.mention for f in sorted(kept, key=lambda f: f.mention.start)
                              if opened <= f.mention.start < m.start() and f.how in ("org", "person", "place")
                              and _LEAD_ONLY.fullmatch(text[opened:f.mention.start])), None) or owner
            if owner is not None and alias and alias != owner.name:
                # 东方启明信息技术股份有限公司（以下简称“东方启明”）: jieba's 东方 | 启明 stopped the walk back at
                # 信息技术…; the short name shows where the name starts
                for back in range(1, len(alias) + 1):
                    if owner.start >= back and (text[owner.start - back:owner.start] + owner.name).startswith(alias) \
                            and not alias.startswith(owner.name):
                        owner.start -= back
                        # 浙江 | 万 | 和 | 科技开发股份有限公司（以下简称“万和科技”）: the province before the short
                        # name opens the full name, where nothing but a clause's start comes before it
                        place = next((f.mention for f in kept if f.how == "place" and f.mention.end == owner.start
                                      and (f.mention.start == 0 or BREAK.match(text[f.mention.start - 1]))), None)
                        if place is not None:
                            owner.start = place.start
                            kept = [f for f in kept if f.mention is not place]
                        owner.name = owner.form = text[owner.start:owner.end]
                        break
                result.aliases.append((owner, alias))
                for f in kept:  # 东方启明控股有限公司: another company's name that starts with the short name
                    other = f.mention
                    if f.how == "org" and other is not owner and other.start >= len(alias) \
                            and text[other.start - len(alias):other.start] == alias:
                        other.start -= len(alias)
                        other.name = other.form = text[other.start:other.end]
                if alias not in owner.aliases:
                    owner.aliases.append(alias)
        result.aliases += self._full_names(text, kept)
        people = [f.mention for f in kept if f.how == "person" and "·" in f.mention.name]
        for f in kept:  # 冯·诺依曼 after 约翰·冯·诺依曼: the same person
            longer = next((p for p in people if p is not f.mention and p.name.endswith("·" + f.mention.name)), None)
            if f.how == "person" and longer is not None:
                f.mention.name, f.mention.aliases = longer.name, longer.aliases
        declared = {alias: owner for owner, alias in result.aliases}
        for f in kept:  # 华为轮值董事长: a name found on its own that the chunk declared a short name for
            owner = declared.get(f.mention.name)
            if owner is not None and owner is not f.mention:
                f.mention.name, f.mention.spg_class, f.mention.aliases = owner.name, owner.spg_class, owner.aliases
        kept = self._repeat(text, kept, result.aliases)
        kept = self._short_forms(text, tokens, kept)
        kept = self._stems(text, tokens, kept)
        kept = self._countries_before(text, kept)
        kept = self._joined_to_a_short_name(text, kept)
        # 深圳市大疆创新科技有限公司 cut short (or 东方启明信息技术… before its short name showed where it starts):
        # what is left of a name made only of the words of company names (科技有限公司) is a fragment, never a name
        kept = [f for f in kept if not (f.how in ("org", "repeat") and is_fragment(f.mention.name, self._org_re))]
        for f in kept:
            if f.how != "repeat":
                f.mention.kind = f.how
            elif not f.mention.kind:  # a repeat is the kind of what it repeats
                f.mention.kind = next((k.how for k in kept if k.mention.name == f.mention.name
                                       and k.how != "repeat"), "")
        result.mentions = [f.mention for f in sorted(kept, key=lambda f: f.mention.start)]
        amounts = sorted([*VALUE_RE.finditer(text), *CN_VALUE_RE.finditer(text)], key=lambda m: m.start())
        result.values = [Mention(m.group(0), "", m.start(), m.end(), m.group(0)) for m in amounts
                         if not overlaps([(x.mention.start, x.mention.end) for x in kept], m.start(), m.end())]
        return result
