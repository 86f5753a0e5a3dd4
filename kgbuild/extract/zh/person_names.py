"""People: a surname and one or two characters after a title (董事长徐直军), before a verb of saying or a life
event (李明远表示), after a cue of reports (实际控制人为, 聘任), before a kin word or 夫妇, opening an entry
(钱学森，1911年出生于), and foreign names written with a middle dot (约翰·冯·诺依曼)."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable

from kgbuild.extract.zh import word_lists as wl
from kgbuild.extract.zh.mentions import Mention
from kgbuild.extract.zh.name_rules import (
    GLUED_LEAD,
    HAN,
    KIN_AFTER,
    Found,
    NameRules,
    overlaps,
    surname_at,
)
from kgbuild.extract.zh.segment import Token

# What follows the name an encyclopedia entry opens with: 钱学森，中国著名科学家 / 李明远，1968年出生于.
_ENTRY_LEAD = re.compile(r"[，,（(]\s*(?:\d|[男女]|中国|著名|原名|字|号|生于|出生)")
# (longest first: 其妻弟 is read as 妻弟, not as 其妻 before 弟)
_PERSON_CUE = re.compile("|".join(sorted(wl.PERSON_CUES, key=len, reverse=True)))
# A transliterated foreign name: 约翰·冯·诺依曼, 艾伦·图灵 (the middle dot as Chinese texts write it).
_FOREIGN_NAME = re.compile(r"[\u4e00-\u9fff]{1,8}(?:[·・•‧][\u4e00-\u9fff]{1,10})+")
# A given name of one or two characters after a surname, up to what people do, 的, 在 / 于, or the next
# title of a list of posts (董事长韩立新和副总经理马晓东)
# (董事长詹觉民及其配偶蒯书宁: 及其 and a kin word close the name too)
# (a report's clause goes on after the name with an adverb or a reason: 实际控制人戚望舒未减持,
# 原总经理彭立新因工作调整辞去, 贾璞已于近日加盟 (jieba: 已于 one word); a courtesy title or a degree follows it:
# 邬清扬博士, 梁砚秋女士; a list of posts held at the time: 时任董事长房守仁、时任总经理房子越)
_GIVEN_NAME = re.compile(r"[\u4e00-\u9fff]{1,2}?(?=" + "|".join(wl.PERSON_VERBS)
                         + "|的|在|于|[和与及]其(?:妻子|丈夫|配偶|夫人|妻|夫)"
                         + "|因|未|已|将|继续|仍|对|先生|女士|博士|教授"
                         # (聘任副总裁庞乐之为公司总裁 (jieba: 庞乐 | 之): the post the person is appointed to)
                         + "|为(?:本公司|该公司|公司)?(?:常务|执行)?(?:" + "|".join(wl.EXECUTIVE_TITLES) + ")"
                         + "|[和、及](?:时任|原|现任)?(?:常务|执行)?(?:" + "|".join(wl.EXECUTIVE_TITLES) + "))")
# 接替已经退休的创始人谭松年。 (jieba: 谭松 | 年): where jieba saw a name, the clause's end ends it, or the 等 that
# closes a list of people (作曲家季南星等。 jieba: 季南 | 星等)
_GIVEN_NAME_AT_END = re.compile(r"[\u4e00-\u9fff]{1,2}?(?=[，。；！？）)]|等|$)")
_BIRTH_ENTRY = re.compile(r"(?:^|(?<=[。！？\n]))\s*([\u4e00-\u9fff]{2,4})[，,]\s*\d{4}年(?:\d{1,2}月(?:\d{1,2}日)?)?"
                          r"(?:出生|生于)")
_FIELD_EXPERT = re.compile(r"[\u4e00-\u9fff]{1,4}?(?:学家|专家|学者)")
_TITLE_WORDS = frozenset((*wl.EXECUTIVE_TITLES, *wl.PERSON_TITLES, "理事", "委员", "成员", "会员", "常委"))
_TITLE_ENDS = tuple(_TITLE_WORDS)
_BEFORE_A_NAME = frozenset("由与和及、，,。；;：:为是（(\n ")
_APPOINTING = re.compile(r"聘任|聘请|任命|选举|推选")
# 任 and a post after it, the company's (任公司董事长, 任副董事长兼总经理): what a person right before it takes
# (任 alone: not the end of 现任, 担任, 出任…, whose names the rules read with those verbs)
_TAKES_POST = re.compile(r"(?<![现担出曾兼历接继聘主责信就前委此新原])任(?:本公司|该公司|公司)?(?:常务|执行)?(?:"
                         + "|".join(sorted(wl.EXECUTIVE_TITLES, key=len, reverse=True)) + ")")
_APPOINTED_AS = re.compile(r"为[\u4e00-\u9fff]{0,10}?(?:" + "|".join(sorted(wl.EXECUTIVE_TITLES, key=len, reverse=True))
                           + r")、")
_AFTER_ONCE = frozenset("在任经于为是被与担获先多")  # what follows 曾 ("once") after a person's name
# A title or an organisation's ending and 的 before a name (运营总监的…, 重工有限公司的…).
_WHOSE_PERSON = re.compile(r"(?:" + "|".join(sorted(wl.EXECUTIVE_TITLES, key=len, reverse=True))
                           + r"|公司|集团|大学|学院|医院|研究院|研究所)的")
_NOT_IN_NAME = frozenset({"v", "p", "c", "u", "uj", "ul", "ud", "uz", "d", "r", "f", "m", "x", "q", "y", "vn", "t"})
# A byline's space between a reporter's title and the name (（记者 韦晗舟）), and what closes the name there.
_BYLINE_GAP = re.compile(r"[ \u3000]{1,2}(?=[\u4e00-\u9fff])")
_BYLINE_CLOSE = frozenset("）) \u3000、")
# What closes a list of people after its last name: acting together or alike, a verb of people, or the clause's end.
_LISTED_GIVEN = re.compile(r"[\u4e00-\u9fff]{1,2}?(?=共同|均|分别|一起|二人|两人|夫妇|领衔|等|[，。；、]|"
                           + "|".join(wl.PERSON_VERBS) + ")")
# A person's name and then a post held or no longer held (靳穆川不再兼任总经理, 何立言仍担任董事长).
_ADVERB_AND_POST = re.compile(r"(?:不再|仍然|仍|继续|也|还|已|将)(?:兼任|担任|出任|任职)|兼任")
# The given name after 的 and a surname: two characters up to the clause's end or 于 and a year (的糜子骞于2016年).
_GIVEN_AFTER_DE = re.compile(r"[\u4e00-\u9fff]{2}(?=[。；]|[，,](?!\s*[的和与及])|于\d{4}年)")
# Characters that go on with the clause after a name (对, 因, 已, 将, 未, 仍), no given name's last.
_CLAUSE_GOES_ON = frozenset("对因已将未仍")
_NAME_LEAD = frozenset("由 与 和 及 被 的 将 向 对 在 把 给 为 是 据 同 跟 让 请 经 从 当 随 根据".split())


class PersonNames(NameRules):
    """People's names."""

    def _person_at(self, text: str, tokens: list[Token], pos: int) -> int | None:
        """The end of a person's name starting at `pos` (a surname and one or two more characters,
        as jieba's tokens allow), or None."""
        surname = surname_at(text, pos)
        if not surname:
            return None
        j = self._token_at(tokens, pos)
        if j is None or tokens[j].start != pos:
            return None
        tok = tokens[j]
        if tok.pos in ("nr", "nrfg", "nrt") and surname < len(tok.word) <= surname + 2:
            end = tok.end
            if len(tok.word) == surname + 1 and j + 1 < len(tokens):  # 赵国 + 平
                nxt = tokens[j + 1]
                if len(nxt.word) == 1 and nxt.pos in ("n", "ng", "nr", "a", "ag", "b") and HAN.match(nxt.word):
                    end = nxt.end
            return end
        if len(tok.word) == surname and j + 1 < len(tokens):  # 李 + 明远
            nxt = tokens[j + 1]
            if 1 <= len(nxt.word) <= 2 and nxt.pos not in ("v", "p", "c", "u", "uj", "ul", "d", "r", "f", "x", "m", "q",
                                                           "vn", "t") and HAN.match(nxt.word):
                return nxt.end
        return None

    def _person_after_title(self, text: str, tokens: list[Token], pos: int) -> int | None:
        """The end of the name of a person right after a title at `pos`: jieba's cut first; else, since jieba cuts
        names apart (首席技术官周靖人出席: 周靖 | 人; 董事长李想在: 李 | 想), a surname and one or two characters
        before what people do, 的, 在 / 于, or the next title of a list of posts (董事长韩立新和副总经理马晓东)."""
        end = self._person_at(text, tokens, pos)
        if (surname := surname_at(text, pos)) and (end is None or end - pos == surname + 1):
            said = _GIVEN_NAME.match(text[pos + surname:pos + surname + 12]) or (
                _GIVEN_NAME_AT_END.match(text[pos + surname:pos + surname + 3]) if end is not None else None)
            # 董事长陈宗年表示 (jieba: 陈宗 | 年, a number word): one character more before what people do
            if said is not None and (end is None or pos + surname + said.end() == end + 1):
                end = pos + surname + said.end()
        if surname and end is not None and end - pos == surname + 2 and text[end - 1] in _CLAUSE_GOES_ON:
            # 安全总监司马 | 骁对 (an adjective to jieba) | 事故: an adverb or a preposition jieba glued to the given
            # name goes on with the clause
            end -= 1
        return end

    def _cued_person(self, text: str, tokens: list[Token], pos: int) -> int | None:
        """The end of a person's name after a cue of reports (聘任, 实际控制人为): jieba's cut is the first
        guess, but after such a cue a surname and one or two characters before 为 / 、 / 夫妇 are a name
        whatever jieba made of them (聘任周立新为: 立新 an adverb; 聘任许丽为: 许丽为 one name)."""
        surname = surname_at(text, pos)
        if not surname:
            return None
        # (其妻弟鄢启航任公司副总经理, 之弟冼昭明控制的企业: a post taken or a company controlled closes it too)
        bounded = re.match(r"[\u4e00-\u9fff]{1,2}?(?=为|担任|、|和|及|夫妇|夫妻|先生|女士|[，。；）)]|$|"
                           r"任(?:公司|本公司)|控制的)", text[pos + surname:pos + surname + 6])
        if bounded is not None:
            return pos + surname + bounded.end()
        return self._person_at(text, tokens, pos)

    def _valid_person(self, name: str) -> bool:
        if name[1:] in _TITLE_WORDS or name[2:] in _TITLE_WORDS:
            return False  # 副会长和理事: 和 is a surname too, but 理事 is a title, not a given name
        if name[0] in "和与及" and self._common(name[1:]):
            return False  # 全体球员和球迷: and the fans
        return 2 <= len(name) <= 4 and not self._common(name) and name not in wl.PLACE_STOP \
            and name not in wl.COUNTRIES and name not in wl.PROVINCES

    def _persons(self, text: str, tokens: list[Token], blocked: list[tuple[int, int]]) -> list[Found]:
        if self.person is None:
            return []
        out: list[Found] = []
        seen: set[int] = set()

        def add(start: int, end: int | None, title: str | None = None, how: str = "person") -> None:
            if end is None or start in seen or overlaps(blocked, start, end):
                return
            if end - start == 3 and text[end - 1] == "曾" and text[end:end + 1] in _AFTER_ONCE \
                    and any(t.start == end - 1 and t.word == "曾" for t in tokens):
                end -= 1  # 创始人顾辞曾在网易游戏担任…: 曾 ("once", jieba's own cut) ends the name, 顾辞
            name = text[start:end]
            if self._valid_person(name):
                seen.add(start)
                # the title is what the person is (董事长, 作家): a concept the align stage links them to
                out.append(Found(Mention(name, self.person, start, end, name, semantic_type=title),  # type: ignore[arg-type]
                                 how))

        for m in self._titles_re.finditer(text):  # 董事长徐直军, 作家周慕白; 董事长为钱志远
            add(m.end(), self._person_after_title(text, tokens, m.end()), m.group(0))
            if (gap := _BYLINE_GAP.match(text, m.end())) is not None:
                # 本报讯（记者 韦晗舟）: a byline writes a space between the title and the name, closed by the bracket;
                # found as a byline, a name the relation rules leave alone (who wrote the news is no party to it)
                end = self._cued_person(text, tokens, gap.end())
                if end is not None and text[end:end + 1] in _BYLINE_CLOSE:
                    add(gap.end(), end, m.group(0), "byline")
            if text[m.end():m.end() + 1] == "为":
                # (馆长为文献学家P, 院长为文博专家P: what the person is, a field and 学家 / 专家, comes before the name)
                described = _FIELD_EXPERT.match(text, m.end() + 1)
                pos = described.end() if described is not None else m.end() + 1
                add(pos, self._cued_person(text, tokens, pos), m.group(0))
        for m in _PERSON_CUE.finditer(text):  # 实际控制人为孙建国、孙晓梅夫妇; 聘任李卫东为公司总经理
            pos = m.end()
            while (end := self._cued_person(text, tokens, pos)) is not None:
                add(pos, end)
                if text[end:end + 1] not in "、和及":
                    break
                pos = end + 1
        for m in _APPOINTED_AS.finditer(text):
            # 聘任岑慧敏为公司总经理、冼家豪为董事会秘书: in a list of appointments, the next name after each post
            opened = max(text.rfind(c, 0, m.start()) for c in "。；！？\n") + 1
            if _APPOINTING.search(text, opened, m.start()):
                add(m.end(), self._cued_person(text, tokens, m.end()))
        for m in _FOREIGN_NAME.finditer(text):  # 约翰·冯·诺依曼: Chinese writes foreign people's names so
            if not overlaps(blocked, m.start(), m.end()) and m.start() not in seen:
                name = _trim_foreign(text, m.start(), m.end(), tokens, self.dictionary.is_common)
                if name is not None:
                    s, e = name
                    seen.add(s)
                    out.append(Found(Mention(text[s:e], self.person, s, e, text[s:e]), "person"))
        for tok in tokens:
            if tok.word[:1] not in wl.SURNAMES and tok.word[:2] not in wl.COMPOUND_SURNAMES:
                continue
            end = self._person_at(text, tokens, tok.start)
            if end is None:
                continue
            after = text[end:end + 4]
            lead = (tok.start == 0 or text[tok.start - 1] in "。！？\n") and text[end:end + 1] in "，,（("
            opens_entry = lead and _ENTRY_LEAD.match(text[end:end + 8])
            if after.startswith(wl.PERSON_VERBS) or opens_entry or _ADVERB_AND_POST.match(text, end):
                add(tok.start, end)
        # A name right before 任 and a post (目前，廉 | 启航 (a verb) | 任公司董事长) or before "and his wife"
        # (由陈远航与妻子林秋雨, jieba: 陈 | 远航) is a person's, where a surname opens it and what comes before it
        # closes a clause or a list: the posts first, then the spouses, as the two rules were written
        for m in itertools.chain(_TAKES_POST.finditer(text), KIN_AFTER.finditer(text)):
            for size in (3, 2, 4):
                s = m.start() - size
                if s >= 0 and surname_at(text, s) and (s == 0 or text[s - 1] in _BEFORE_A_NAME) \
                        and s not in seen and self._valid_person(text[s:m.start()]):
                    add(s, m.start())
                    break
        for m in re.finditer(r"夫妇|夫妻", text):
            # 由贺启明、任佩瑶夫妇 (jieba: 贺 | 启明, a verb): the two names listed before "husband and wife" are
            # people's, each opened by a surname, the first after what closes a clause or a list
            end = m.start()
            for size_b in (3, 2, 4):
                b = end - size_b
                if b < 1 or text[b - 1] not in "、和与及" or not surname_at(text, b) \
                        or not self._valid_person(text[b:end]):
                    continue
                a = next((b - 1 - n for n in (3, 2, 4) if b - 1 - n >= 0 and surname_at(text, b - 1 - n)
                          and (b - 1 - n == 0 or text[b - 2 - n] in _BEFORE_A_NAME)
                          and self._valid_person(text[b - 1 - n:b - 1])), None)
                if a is not None:
                    add(a, b - 1)
                    add(b, end)
                    break
        for m in _BIRTH_ENTRY.finditer(text):  # 钟南山，1936年出生于… (jieba: 钟南山 a place): an entry about a person
            if surname_at(text, m.start(1)) and m.start(1) not in seen:
                add(m.start(1), m.end(1))
        for m in re.finditer("的", text):
            # 毕业于广西科技大学的覃永康。, 博士毕业的糜子骞于2016年创立: after what a person is or did, and 的, a
            # surname and two characters that end the clause or come before 于 and a year, where jieba's cut starts and
            # ends
            # there and the whole is no word of its dictionary (的张家界。: a place jieba tags as a person's name)
            pos = m.end()
            surname = surname_at(text, pos)
            given = _GIVEN_AFTER_DE.match(text, pos + surname) if surname else None
            if given is None or self.dictionary.entry(text[pos:given.end()]) is not None \
                    or not any(t.start == pos for t in tokens) \
                    or not any(t.end == given.end() for t in tokens) \
                    or any(t.start == pos and t.end == given.end() and t.pos not in ("nr", "nrfg") for t in tokens) \
                    or self._common(text[pos + surname:given.end()]):
                continue
            add(pos, given.end())
        for m in _WHOSE_PERSON.finditer(text):
            # 运营总监的彭晓东于…, 云帆科技有限公司的郝思远等: a name jieba tags as a person's, right after a title or
            # an organisation and 的, and before a list's or a clause's next word (协和医院的张伟医生: the domain's
            # rules read a name with its title)
            end = self._tagged_person(text, tokens, m.end())
            if end is not None and text[end:end + 1] in "、等于和及与，,。；;":
                add(m.end(), end)
        for f in list(out):
            # 演员司马悦、郝云舒: a name jieba tags as a person's, listed right after a person found; or
            # 校友卓一凡和车雨辰共同创立, 演员庄以宁、钱奕辰领衔主演: a surname and one or two characters listed right
            # after one, closed by what people do together or alike (共同, 均, 分别) or by the clause's end
            end = f.mention.end
            while text[end:end + 1] in "、和与及" and (
                    nxt := (self._tagged_person(text, tokens, end + 1) if text[end] == "、" else None)
                    or self._listed_person(text, end + 1)) is not None:
                add(end + 1, nxt)
                end = nxt
        return out

    def _listed_person(self, text: str, pos: int) -> int | None:
        """The end of a name at `pos` in a list of people: a surname and one or two characters before what closes
        the list (`_LIST_CLOSE`), where the whole is no ordinary word."""
        surname = surname_at(text, pos)
        if not surname:
            return None
        given = _LISTED_GIVEN.match(text, pos + surname)
        if given is None or not self._valid_person(text[pos:given.end()]):
            return None
        return given.end()

    def _tagged_person(self, text: str, tokens: list[Token], pos: int) -> int | None:
        """The end of a name at `pos` that jieba's own cut tags as a person's (nr) and a surname opens."""
        j = self._token_at(tokens, pos)
        if j is None or tokens[j].start != pos or tokens[j].pos not in ("nr", "nrfg") or len(tokens[j].word) < 2:
            return None
        return self._person_at(text, tokens, pos)


def _trim_foreign(text: str, start: int, end: int, tokens: list[Token],
                  common: Callable[[str], bool]) -> tuple[int, int] | None:
    """The foreign name in a ·-joined run, by jieba's tokens: each part is the name-like tokens next to a dot,
    so 由莫里斯·威尔克斯及其团队 gives 莫里斯·威尔克斯 and 冯·诺依曼撰写了 gives 冯·诺依曼."""
    dots = [i for i in range(start, end) if text[i] in "·・•‧"]
    inside = [t for t in tokens if start <= t.start and t.end <= end and t.word not in "·・•‧"]

    def name_like(t: Token) -> bool:  # 冯·诺依曼结构: 结构 is a word, not part of the name
        # 国际业务副总裁托马斯·韦伯: a title before the name is no part of it
        return t.pos not in _NOT_IN_NAME and t.word not in _NAME_LEAD and len(t.word) <= 4 and not common(t.word) \
            and not t.word.endswith(_TITLE_ENDS)

    left = [t for t in inside if t.end <= dots[0]]
    s = dots[0]
    for t in reversed(left):
        if not name_like(t) or dots[0] - t.start > 6:
            break
        s = t.start
    if text[s] in GLUED_LEAD and dots[0] - s > 2:
        s += 1  # 由托 | 比亚斯·施泰因出任: a preposition jieba glued to a transliteration opens no foreign name
    right = [t for t in inside if t.start > dots[-1]]
    e = dots[-1] + 1
    for t in right:
        if not name_like(t) or t.end - dots[-1] > 7:
            break
        e = t.end
    return (s, e) if s < dots[0] and e > dots[-1] + 1 else None
