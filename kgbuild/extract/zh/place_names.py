"""Places: jieba's place tag confirmed by a list (countries, provinces), an ending (…省, …市, …区, …山) or jieba's
dictionary knowing the place well; districts right after their city; a country written right before an
organisation's name."""

from __future__ import annotations

import re

from kgbuild.extract.zh import word_lists as wl
from kgbuild.extract.zh.mentions import Mention
from kgbuild.extract.zh.name_rules import (
    HAN,
    Found,
    NameRules,
    overlaps,
)
from kgbuild.extract.zh.segment import Token

# Verbs a place follows: 出生于布达佩斯, 位于普林斯顿, 定居伦敦.
_PLACE_VERBS = ("出生于", "生于", "出生在", "位于", "地处", "迁往", "迁居", "移居", "定居", "前往", "来到", "抵达",
                "逝世于", "去世于", "死于", "卒于", "搬到", "迁至", "注册地为", "注册地位于", "注册于")
_COUNTRIES_LONGEST_FIRST = tuple(sorted(wl.COUNTRIES, key=len, reverse=True))
_PLACE_LEVELS = frozenset("省市县州区")  # the level a place's name ends with, when jieba cuts it off
# A count of places of a level (在江苏、浙江、安徽三省运营, 覆盖五市, 两区): how many, not a place's name
_COUNTED_LEVEL = re.compile(r"[一二三四五六七八九十两几多数百千\d]+(?:个)?(?:省|市|县|州|区|国|地|镇)(?:份|区)?")


class PlaceNames(NameRules):
    """Places' names."""

    def _place_class(self, word: str) -> str | None:
        if word in wl.PLACE_STOP or word in wl.STOP_NAMES or len(word) < 2 or _COUNTED_LEVEL.fullmatch(word):
            return None
        if word in wl.COUNTRIES:
            return self.country
        if word in ("北京", "上海", "天津", "重庆", "香港", "澳门"):
            return self.city
        if word in wl.PROVINCES or (word.endswith("省") and word[:-1] in wl.PROVINCES):
            return self.region
        for suffix, cls in self.place_classes:
            if word.endswith(suffix) and len(word) > len(suffix):
                return cls
        if 2 <= len(word) <= 4 and self.dictionary.known_place(word):
            return self.city
        return None

    def _placed_city(self, tokens: list[Token], i: int, out: list[Found]) -> bool:
        """江门, 合肥, 海口, 卑尔根: a city jieba's dictionary lists rarely as a place, or lists only with its 市
        (合肥市 ns, 合肥 a noun), where the text puts it as a place: after 在 / 于 / 赴 and before the verb of what
        happened there (在合肥闭幕, 在江门发布), or listed right after a place found (广州、深圳和海口)."""
        tok = tokens[i]
        before = tokens[i - 1] if i > 0 else None
        after = tokens[i + 1] if i + 1 < len(tokens) else None
        if before is None or before.end != tok.start or not 2 <= len(tok.word) <= 4:
            return False
        at = before.word in ("在", "于", "赴") and after is not None and after.start == tok.end and after.pos == "v"
        listed = before.word in ("、", "和", "及", "与") and i >= 2 and any(
            f.mention.end == tokens[i - 2].end and f.mention.spg_class in (self.city, self.region) for f in out)
        return (at or listed) and HAN.match(tok.word) is not None and tok.word not in wl.PLACE_STOP \
            and tok.word not in wl.STOP_NAMES and (self.dictionary.city_stem(tok.word)
                                                  or self.dictionary.known_place(tok.word, 1)) \
            and self._place_class(tok.word) is None

    def _city_after_region(self, tokens: list[Token], i: int) -> int | None:
        """贵州 | 遵义 (v) | 人, 广西 | 崇左 (nrt), 福建 | 莆田人 (n): right after a province, a word jieba's
        dictionary lists as a place or as a city with its 市 (遵义市) is that city, whatever it tagged the bare word,
        and so is a native place's X人; right after a country, a word of two or three characters that is no
        ordinary word, closed by a list's joint or a clause's break, is a city of it. Returns the city's length in
        the token."""
        tok = tokens[i]
        before = tokens[i - 1] if i > 0 else None
        after = tokens[i + 1] if i + 1 < len(tokens) else None
        if before is None or before.end != tok.start or not HAN.match(tok.word) or tok.pos in ("ns", "m", "x") \
                or tok.word in wl.PLACE_STOP or tok.word in wl.STOP_NAMES:
            return None
        stem = tok.word[:-1] if len(tok.word) == 3 and tok.word.endswith("人") else tok.word
        # (the province before says it is a place: a rare listing will do, 崇左市 3, 莆田 58)
        # (海南 | 文昌 | 发射场: a noun after it goes on with a name of something there, a launch site's)
        ends = after is None or after.start != tok.end or after.word == "人" or after.pos not in (
            "n", "nz", "ns", "nr", "nt", "vn", "l", "j", "ng", "nrt", "an")
        if before.word in wl.PROVINCES and len(stem) == 2 and ends and (self.dictionary.known_place(stem + "市", 1)
                                                                or self.dictionary.known_place(stem, 1)):
            return len(stem)
        closed = after is None or (after.start == tok.end and after.word in ("、", "和", "及", "与", "，", "。", "；"))
        if before.word in wl.COUNTRIES and before.word != "中国" and 2 <= len(tok.word) <= 3 and closed \
                and tok.pos in ("n", "nr", "nrt", "nz") and not self._common(tok.word) \
                and tok.word[-1] not in "省州区县" and self._place_class(tok.word) is None:
            return len(tok.word)
        return None

    def _places(self, tokens: list[Token], blocked: list[tuple[int, int]]) -> list[Found]:
        out = []
        for i, tok in enumerate(tokens):
            if overlaps(blocked, tok.start, tok.end):
                continue
            nxt = tokens[i + 1] if i + 1 < len(tokens) else None
            if tok.pos in ("nr", "nrt", "nz") and nxt is not None and nxt.word == "市" and nxt.start == tok.end \
                    and len(tok.word) >= 3 and HAN.match(tok.word) and tok.word[0] not in wl.SURNAMES \
                    and self.city and not self._common(tok.word):
                # 阿威罗 (nr) | 市, 诺维萨德 (nrt) | 市: a foreign city jieba reads as a person's name, written with its
                # level
                out.append(Found(Mention(tok.word + "市", self.city, tok.start, nxt.end, tok.word + "市"), "place"))
                continue
            if self.city and (city := self._city_after_region(tokens, i)) is not None:
                out.append(Found(Mention(tok.word[:city], self.city, tok.start, tok.start + city, tok.word[:city]),
                                 "place"))
                continue
            if tok.pos in ("nr", "nrt") and len(tok.word) >= 4 and tok.word.endswith("市") and HAN.match(tok.word) \
                    and self.city and not self._common(tok.word):
                # 胡志明市 (nr): a foreign city jieba reads whole as a person's name, its level written in the token
                out.append(Found(Mention(tok.word, self.city, tok.start, tok.end, tok.word), "place"))
                continue
            if tok.pos != "ns" and tok.word in wl.COUNTRIES and self.country and not self._common(tok.word):
                # 塞尔维亚 (nrt), 乌克兰 (nr): a country jieba's dictionary tags as a person's name is the country
                out.append(Found(Mention(tok.word, self.country, tok.start, tok.end, tok.word), "place"))
                continue
            if tok.word.endswith("籍") and tok.word[:-1] in wl.COUNTRIES and self.country:
                # 德国籍工程师: a nationality names its country
                out.append(Found(Mention(tok.word[:-1], self.country, tok.start, tok.end - 1, tok.word[:-1]), "place"))
                continue
            if self.city and self._placed_city(tokens, i, out):
                out.append(Found(Mention(tok.word, self.city, tok.start, tok.end, tok.word), "place"))
                continue
            if tok.pos != "ns":
                # jieba tags many foreign cities as person names (布达佩斯 nr): after 出生于 / 位于 / 定居 the
                # name is a place, unless it reads as a Chinese person's name
                # 注册地为德国慕尼黑: a country between the verb and the city
                k = i - 1 if i > 0 and tokens[i - 1].word in wl.COUNTRIES else i
                before = "".join(t.word for t in tokens[max(0, k - 2):k])
                # (在斯图加特签订…: a transliterated name, jieba's foreign-name tag, between 在 and a verb of what
                # happened there is where it happened)
                at_and_verb = tok.pos == "nrt" and k == i and before.endswith("在") and nxt is not None \
                    and nxt.start == tok.end and nxt.pos == "v"
                if (tok.pos in ("nr", "nrt", "nz") and (before.endswith(_PLACE_VERBS) or (
                        k < i and before.endswith(("在", "于"))) or at_and_verb) and len(tok.word) >= 3
                        and not (tok.word[0] in wl.SURNAMES and len(tok.word) <= 3) and self.city
                        and not self._common(tok.word)):
                    out.append(Found(Mention(tok.word, self.city, tok.start, tok.end, tok.word), "place"))
                elif tok.pos in ("nr", "nrt", "nz") and i > 0 and tokens[i - 1].end == tok.start \
                        and tokens[i - 1].pos == "ns" and self._place_class(tokens[i - 1].word) is not None \
                        and re.search(r"[\u4e00-\u9fff](?:区|县|镇)$", tok.word) \
                        and (cls := self._place_class(tok.word)) is not None:
                    # 上海市 | 杨浦区 (a person's name to jieba): a district right after its city
                    out.append(Found(Mention(tok.word, cls, tok.start, tok.end, tok.word), "place"))
                continue
            cls = self._place_class(tok.word)
            if cls is not None and nxt is not None and nxt.start == tok.end and nxt.word in _PLACE_LEVELS \
                    and (whole := self._place_class(tok.word + nxt.word)) is not None:
                # 越南 | 平阳 | 省: jieba cut the level off a place it knows; the name written is the whole
                out.append(Found(Mention(tok.word + nxt.word, whole, tok.start, nxt.end, tok.word + nxt.word), "place"))
                continue
            if cls is None and len(tok.word) >= 4:  # 美国麻省 is not one place; 湖南长沙 is two
                for cut in range(2, len(tok.word) - 1):
                    a, b = tok.word[:cut], tok.word[cut:]
                    ca, cb = self._place_class(a), self._place_class(b)
                    if ca and cb and not self._common(b):  # 印度新建 (两座工厂): 新建 is a verb, not 新建县
                        out.append(Found(Mention(a, ca, tok.start, tok.start + cut, a), "place"))
                        out.append(Found(Mention(b, cb, tok.start + cut, tok.end, b), "place"))
                        break
                continue
            if cls is not None:
                out.append(Found(Mention(tok.word, cls, tok.start, tok.end, tok.word), "place"))
        out += self._foreign_regions(tokens, blocked, out)
        return out + self._districts_after_cities(tokens, blocked, out)

    def _foreign_regions(self, tokens: list[Token], blocked: list[tuple[int, int]],
                         places: list[Found]) -> list[Found]:
        """泰国 | 春 | 武里府 (nr), 越南 | 北宁 | 省, 埃及 | 苏伊士 (nr) | 省: right after a foreign country, one or two
        words ending in 省 / 府 / 州 (a province's level there), two to five characters, are a province of it,
        whatever jieba tagged them."""
        if self.region is None:
            return []
        out: list[Found] = []
        taken = [(f.mention.start, f.mention.end) for f in places]
        for i, tok in enumerate(tokens):
            if tok.word not in wl.COUNTRIES or tok.word == "中国":
                continue
            for n in (1, 2):
                words = tokens[i + 1:i + 1 + n]
                name = "".join(t.word for t in words)
                if len(words) == n and words[0].start == tok.end \
                        and all(words[x].end == words[x + 1].start for x in range(n - 1)) \
                        and 3 <= len(name) <= 5 and HAN.match(name) and name[-1] in "省府州" \
                        and not self._common(name[:-1]) and not self._common(name) \
                        and not overlaps(blocked + taken, words[0].start, words[-1].end):
                    out.append(Found(Mention(name, self.region, words[0].start, words[-1].end, name), "place"))
                    break
        return out

    def _districts_after_cities(self, tokens: list[Token], blocked: list[tuple[int, int]],
                                places: list[Found]) -> list[Found]:
        """长沙市 | 望 | 城区, 厦门市 | 思明区 (jieba: a verb and a noun, a noun): right after a city, the one to three
        words up to 区 / 县 are the district's name, three or four characters that are not one ordinary word; and
        河北省 | 保定市 (jieba: a noun): right after a province, the words up to 市 are its city's name."""
        out: list[Found] = []
        levels = {f.mention.end: "区县" for f in places if f.mention.name.endswith("市")}
        levels |= {f.mention.end: "市" for f in places if f.mention.name.endswith(("省", "自治区"))}
        for i, tok in enumerate(tokens):
            if tok.start not in levels:
                continue
            for n in (1, 2, 3):  # (无锡市 | 新 | 吴 | 区: an adjective, a surname and the level, three words)
                words = tokens[i:i + n]
                name = "".join(t.word for t in words)
                if len(words) == n and 3 <= len(name) <= 4 and HAN.match(name) and name[-1] in levels[tok.start] \
                        and all(words[k].end == words[k + 1].start for k in range(n - 1)) \
                        and not self._common(name) and not overlaps(blocked, tok.start, words[-1].end) \
                        and (cls := self._place_class(name)) is not None:
                    out.append(Found(Mention(name, cls, tok.start, words[-1].end, name), "place"))
                    break
        return out

    def _countries_before(self, text: str, kept: list[Found]) -> list[Found]:
        """赴美国特拉华大学 (jieba: 赴美国 | 特拉华 | 大学): a country written right before an organisation's name is a
        place of its own, whatever token jieba hid it in."""
        if self.country is None:
            return kept
        out = list(kept)
        taken = [(f.mention.start, f.mention.end) for f in kept]
        for f in kept:
            if f.how != "org":
                continue
            before = text[max(0, f.mention.start - 6):f.mention.start]
            country = next((c for c in _COUNTRIES_LONGEST_FIRST if before.endswith(c)), None)
            if country is None or len(country) < 2:
                continue
            s = f.mention.start - len(country)
            if not any(a < f.mention.start and s < b for a, b in taken):
                out.append(Found(Mention(country, self.country, s, f.mention.start, country), "place"))
                taken.append((s, f.mention.start))
        return out
