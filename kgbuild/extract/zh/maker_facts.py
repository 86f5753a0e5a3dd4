"""Makers and works: 发布 / 推出 (release), 由 X 建造 / 研发 (createdBy), 船东为 / 归 X 所有 (ownedBy), 根据 X 设计
(basedOn), 由 X 出版 (publishedBy), 创作 / 著有 / 自主研发的, 荣获 AWARD (awardReceived), 获 X 批准 (approvedBy)."""

from __future__ import annotations

import re
from itertools import pairwise

from kgbuild.extract.zh.clause_rules import BUILT, POST_BETWEEN, WORK_OF, ClauseRules, ClauseScope
from kgbuild.extract.zh.mentions import Mention

# The verb that makes a work -> the relation to its maker, where it is not plain authorship.
WORK_MAKER = {"执导": "directedBy", "主演": "performedBy", "领衔主演": "performedBy", "创作": "createdBy",
              "作曲": "createdBy"}
_MAKES_WORK = re.compile(r"(?:创作|撰写|所著|编著|编写|写作|执导|作曲|领衔主演|主演|著(?![名称作]))的?")
# The kind of work between 执导的 and the title (纪录片, 电影, 长篇小说): a few characters and an opening mark.
_KIND_BEFORE_WORK = re.compile(r"[\u4e00-\u9fff]{0,6}[《“\"「]?")
_BUILT_BY = re.compile(r"由(.{2,40}?)" + BUILT)
_OWNED_AS = re.compile(r"归(.{2,24}?)所有")  # “桂海明珠”轮归桂海航运所有
# A researcher's job between an institute and the researcher's name (研究所研究员P, 大学化学系教授P).
_JOB_THERE = re.compile(r"[\u4e00-\u9fff]{0,6}?(?:研究员|教授|副教授|院士|工程师|博士)")
# 与Y联合研制的 / 和Y共同开发的: Y developed the thing with the subject.
_JOINTLY = re.compile(r"[与和同](?P<partner>[^，。；、与和]{2,30}?)(?:联合|共同|合作)(?:研制|研发|开发|设计)的")
# 获得X批准; 获得X颁发的…注册证 (a registration or licence the body issues approves the product); 取得X出具的…合格
# 证书 (a test or conformity certificate the body issues; an honorary one, 荣誉证书, is a prize, no approval).
_APPROVED = re.compile(r"(?:获得|经|获)(.{2,24}?)(?:的)?(?:批准|核准|批复|许可|认证)|"
                       r"(?:获得|取得|获)(.{2,24}?)(?:颁发|核发|出具)的[^，。；]{0,16}?"
                       r"(?:注册证|许可证|批件|(?<!荣誉)证书)")
_WON = re.compile(r"(?:等[一二三四五六七八九十百\d]*[人位部名项]?)?(?:获奖|摘奖|获此殊荣|获此荣誉|荣获此奖)")
_SHIP_OWNER = re.compile(r"船东为|船东是")


class MakerFacts(ClauseRules):
    """Releases, makers, works, awards and approvals."""

    def _makers(self, scope: ClauseScope) -> None:
        """Releases, makers, owners of made things, sources, publishers, authors and awards."""
        text, clause, subject, sentence = scope.text, scope.clause, scope.subject, scope.sentence
        topic_org, timed, add = scope.topic_org, scope.timed, scope.add
        c, cs = clause.text, clause.start
        # (印发, 颁布: a government body issues a document)
        m = re.search(r"(?:发布|推出|上线|发行|首发|印发|颁布)(?!会)", c)  # 发布会 is the event, not a release
        if m is not None:
            product = next((x for x in self._after(clause, cs + m.end())
                            if x.kind in ("quote", "title") or (not self._org(x) and not self._person(x)
                                                                and not self._place(x) and not self._date(x))), None)
            place = next((x for x in clause.mentions if self._place(x) and x.end <= cs + m.start()
                          and text[x.start - 1:x.start] == "在"), None)
            makers = self._listed_before(clause, cs + m.start(), self._org)
            maker_said = re.search(r"由(.{2,30}?)(?:研制|研发|开发|设计|制造)的", c[:m.start()])
            if product is None and maker_said is not None and subject.kind in ("quote", "title") \
                    and cs <= subject.start and subject.end <= cs + m.start():
                # 由浙江越衡机器人有限公司研制的…“越巡S2”在杭州正式发布: the maker releases the work the clause
                # opens with
                maker = next((x for x in clause.mentions if self._org(x) and cs + maker_said.start(1) <= x.start
                              and x.end <= cs + maker_said.end(1)), None)
                add(maker, "release", subject, timed + ([("地点", place)] if place else []))
            made_before = re.search(r"(?:联合|共同|合作|自主)?(?:研制|研发|开发|设计|制造)的", c[:m.start()])
            # (公司与X联合研发的“…”…发布 in a later chunk: 公司 is the document's stand-in, written elsewhere)
            own_opens = subject is topic_org and re.match(r"\s*(?:本公司|公司|本集团)", c) is not None
            if product is None and maker_said is None and made_before is not None and self._org(subject) \
                    and (own_opens or (cs <= subject.start and subject.end <= cs + made_before.start())):
                # 嵘川轴承与郑州大学联合研发的“嵘川R9”系列主轴轴承在洛阳发布: the company the clause opens with made
                # the work after 的 and releases it (the partner after 与 made it too, and released nothing)
                work = next((x for x in clause.mentions if x.kind in ("quote", "title")
                             and _KIND_BEFORE_WORK.fullmatch(text, cs + made_before.end(), x.start)
                             and x.end <= cs + m.start()), None)
                add(subject, "release", work, timed + ([("地点", place)] if place else []))
            if product is not None and not self._person(subject):
                for one in makers if len(makers) > 1 else [subject]:  # A、B和C在北京联合发布: each of them
                    add(one, "release", product, timed + ([("地点", place)] if place else []))
                if product.kind in ("quote", "title"):  # 发布了…“开拓者Ⅱ号”和…掘进机“穿山甲”: every listed one
                    for more in self._listed(clause, product.start, lambda x: x.kind in ("quote", "title"),
                                             loose=True)[1:]:
                        add(subject, "release", more, timed + ([("地点", place)] if place else []))
        # (设计 inside a maker's name, 上海船舶研究设计院, is no verb)
        if (m := _BUILT_BY.search(c)) is not None:
            # 由中国船舶集团有限公司旗下的上海外高桥造船有限公司建造: the last name before the verb made it
            makers = [x for x in self._after(clause, cs + m.start()) if (self._person(x) or self._org(x))
                      and x.end <= cs + m.end(1)]
            maker = makers[-1] if makers and re.search(r"(?:旗下|下属|子公司)的?$", text[
                makers[0].end:makers[-1].start]) else (makers[0] if makers else None)
            post_between = len(makers) >= 2 and (_JOB_THERE.fullmatch(text, makers[0].end, makers[1].start)
                                                 or POST_BETWEEN.fullmatch(text, makers[0].end, makers[1].start))
            if len(makers) >= 2 and self._cut_apart(text, makers[0], makers[1]) and not post_between:
                # (章氏宗亲会会长P: a post between a body and a person is no name cut in two)
                maker = None  # 中国科学院 | 大连 | 化学物理研究所: one name cut in two, neither part is the maker
            if len(makers) >= 2 and maker is makers[0] and self._org(maker) and self._person(makers[1]) \
                    and post_between:
                # (由矩澜数据联合创始人P…编写: a post at the body, not the body, says who wrote it)
                # 由X研究所研究员P团队与Y公司联合开发: the researcher (and the team he leads) made it; the
                # institute is where he works
                makers = makers[1:]
                maker = makers[0]
            if not self._person(subject) and (not self._org(subject) or subject.spg_class not in self.is_org):
                # 庐山美术馆由建筑师顾承泽设计: a building is made too; 由…研发的“星图一号”于8月3日发射: the date is
                # the launch's, not the making's
                made_quals = [] if c[m.end():m.end() + 1] == "的" else timed
                add(subject, "createdBy", maker, made_quals)
                if makers and maker is makers[0]:
                    # 该车由绵驰汽车与西南科技大学共同研制: every maker listed after 由 made it
                    for one, next_one in pairwise(makers):
                        if not re.fullmatch(r"(?:团队|课题组)?(?:[、和与及]|以及)", text[one.end:next_one.start]):
                            break
                        add(subject, "createdBy", next_one, made_quals)
                if topic_org is not None and re.match(r"(?:本公司|公司)(?:与|和|、|及)", m.group(1)):
                    # 该产品由公司与太原理工大学合作研发: a report's 公司 made it too
                    add(subject, "createdBy", topic_org, made_quals)
        if (m := _SHIP_OWNER.search(c)) is not None and not self._person(subject) and not self._org(subject):
            # …散货船“明洲远航”轮在舟山交付，船东为香港明洲航运有限公司: the ship's owner
            add(subject, "ownedBy", next((x for x in self._after(clause, cs + m.end()) if self._org(x)
                                          and x.start == cs + m.end()), None), timed)
        if (m := _OWNED_AS.search(c)) is not None and not self._person(subject):
            # “桂海明珠”轮归桂海航运所有: the owner of the thing the clause is about
            add(subject, "ownedBy", next((x for x in self._after(clause, cs + m.start(1)) if (
                self._org(x) or self._person(x)) and x.end <= cs + m.end(1)), None), timed)
        if (m := re.search(r"(?:根据|依据|基于)(.{2,40}?)(?:设计|研制|建造|开发)(?:了|出)?", c)) is not None:
            source = next((x for x in self._after(clause, cs + m.start()) if x.kind in ("title", "quote")
                           and x.end <= cs + m.end(1)), None)
            made = next((x for x in self._after(clause, cs + m.end()) if not self._date(x)), None)
            if made is not None and source is not None:
                add(made, "basedOn", source)
                if self._person(subject):
                    add(made, "createdBy", subject)
        if (m := re.search(r"由(.{2,24}?)(?:出版|发行|出品)", c)) is not None:
            publisher = next((x for x in self._after(clause, cs + m.start()) if self._org(x)), None)
            # 《雪线以北》由北国影业出品: the work the clause opens with, whatever the sentence was about before
            work = next((x for x in clause.mentions if x.kind in ("title", "quote") and x.end <= cs + m.start()
                         and re.fullmatch(r"\s*[《“\"「]?", text[cs:x.start]) is not None), None)
            if work is None:
                # 青年作家P的新作《X》由Y出版: a work in 《》 named before 由 is what was published, not the person the
                # clause opens with (a person is never published)
                work = next((x for x in reversed(clause.mentions) if x.kind == "title" and x.end <= cs + m.start()),
                            None)
            add(work or (None if self._person(subject) else subject), "publishedBy", publisher, timed)
        verb_from = cs  # where the words of the verb before end: each verb credits the people named since
        for m in _MAKES_WORK.finditer(c):
            verb, at = m.group(0).rstrip("的"), cs + m.start()
            # 由编剧A创作、导演B执导，演员C、D主演: each verb its own people (every one of a list before it)
            people = [x for x in clause.mentions if self._person(x) and verb_from <= x.start and x.end <= at]
            verb_from = cs + m.end()
            work = subject if subject.kind in ("title", "quote") else next(
                (x for x in clause.mentions if x.kind in ("title", "quote")), None)
            if not people and verb == "主演":
                # 主演苗若兰凭借该片…: the cast named after the word, of the work the sentence named before
                people = [x for x in clause.mentions if self._person(x) and x.start == cs + m.end()][:1]
                work = work or next((x for x in reversed(sentence) if x.kind in ("title", "quote") and x.end <= cs),
                                    None)
            if not people and m.group(0).endswith("的") and self._person(subject) and subject.end <= at:
                # 魏某，1968年生于…，此前执导的电影《海边的冬天》: the work right after (its kind between) is the
                # person's the sentence is about
                people = [subject]
                work = next((x for x in clause.mentions if x.kind in ("title", "quote") and x.start > at
                             and _KIND_BEFORE_WORK.fullmatch(text, cs + m.end(), x.start)), None)
            for person in people if work is not None else []:
                # a film's director and cast are its own relations (the schema's directedBy, performedBy)
                add(work, WORK_MAKER.get(verb, "createdBy"), person)
        m = re.search(r"(?:凭借|凭|以)(?:其)?(?:[^，。；《“]{0,8}?)[《“]", c)
        if m is not None and self._person(subject):
            # 作家莫言凭借长篇小说《蛙》获得…: the work a person wins with is the person's
            work = next((x for x in self._after(clause, cs + m.start()) if x.kind in ("title", "quote")), None)
            if work is not None and work.start == cs + m.end():
                add(work, "createdBy", subject)
        m = re.search(r"(?:著有|创作了|写了|撰写了|出版了|代表作(?:有|为|是|包括)?)", c)
        if m is not None and self._person(subject):
            for work in self._after(clause, cs + m.end()):
                if work.kind in ("title", "quote"):
                    add(work, "createdBy", subject, timed)
        if (m := re.search(r"(?:自主)?(?:研发|研制|开发|设计)的", c)) is not None:
            product = next((x for x in self._after(clause, cs + m.end()) if x.kind in ("quote", "title")), None)
            # 中国民用航空局为翔云航空工业有限公司研制的“翔云AG50”颁发…: the name right before the verb made it, not
            # the clause's subject
            made_by = next((x for x in clause.mentions if x.end == cs + m.start() and self._org(x)), None)
            # (中国科学院大连化学物理研究所研发的: a name cut in two made it; neither part did)
            # (百济神州研发的, 神州 read as a city; 恒昌制药研发的, a name not found: a name other than the
            # subject's stands before the verb, so the subject made nothing)
            other_before = any(x.end == cs + m.start() for x in clause.mentions) or (
                re.search(r"[\u4e00-\u9fff]{2}$", text[cs:cs + m.start()]) is not None
                and not re.search(r"(?:公司|集团|联合|共同|合作|独立|团队|课题组|发布|推出|发射|首发|展示|亮相|上线|"
                                  r"了|是|为|其|所|款|种)$", text[cs:cs + m.start()]))
            maker = made_by or (subject if self._org(subject) and not other_before else None)
            lead = next((x for x in clause.mentions if maker is not None and self._person(x) and x.start > maker.end
                         and _JOB_THERE.fullmatch(text, maker.end, x.start)
                         and re.match(r"(?:团队|课题组)", text[x.end:x.end + 3])), None)
            # 由X研究所研究员P团队…开发的: the researcher whose team it was made it, not his institute
            maker = lead or maker
            if made_by is None or not any(self._org(x) and self._cut_apart(text, x, made_by) for x in clause.mentions):
                add(product, "createdBy", maker)
            if (joint := _JOINTLY.search(c)) is not None and joint.end() == m.end():
                # 公司发布了与上海交通大学联合研发的…“焊灵”: the partner made it too
                add(product, "createdBy", next((x for x in clause.mentions if self._org(x)
                                                and x.start == cs + joint.start("partner")
                                                and x.end == cs + joint.end("partner")), None))
        # (公司被工业和信息化部评为“国家级绿色工厂”: the body between 被 and 评为 confers it, the subject receives it)
        if (m := re.search(r"(?:获得|荣获|获评|获|斩获|摘得|赢得|被授予|获颁|被[^，。；“”]{0,20}?评为)(?:了)?", c)) \
                is not None:
            holder: Mention | None = next((x for x in reversed(clause.mentions) if x.end <= cs + m.start()
                                           and x.kind in ("quote", "title", "person")), None) or subject
            if holder is subject and subject.start >= cs + m.end():
                holder = None  # 获得中国建筑学会颁发的“…奖”: the body that gives it, after the verb, does not win it
            # 恒信钢铁集团和东方电气集团荣获…: every name listed right before the verb
            holders = self._listed_before(clause, cs + m.start(), lambda x: x.kind in ("quote", "title", "person")
                                          or self._org(x))
            for award in self._after(clause, cs + m.end()):
                if award.kind == "award" or award.spg_class in self.is_award:
                    for h in holders if len(holders) > 1 else [holder]:
                        add(h, "awardReceived", award, timed)
        # (获此殊荣 / 获此荣誉: "won this honour", the prize the sentence named)
        if (m := _WON.search(c)) is not None:
            # 第四届汀洲散文奖…揭晓，作家阮栖迟的散文集《汀水谣》获奖; …董事长卞如海、…创始人尤佩兰等十人获奖: the prize
            # the sentence named before wins the work right before the verb, else every person of the clause
            prize = next((x for x in reversed(sentence) if x.end <= cs + m.start()
                          and (x.kind == "award" or x.spg_class in self.is_award)), None)
            work = next((x for x in clause.mentions if x.kind in ("title", "quote")
                         and re.fullmatch(r"[》”」』\"]?", text[x.end:cs + m.start()])), None)
            for h in [work] if work is not None else [x for x in clause.mentions if self._person(x)
                                                       and x.end <= cs + m.start()]:
                add(h, "awardReceived", prize, timed)
        if (m := re.search(r"(?:发行商|发行方|出版方|出版社|出品方|出品公司)(?:为|是)", c)) is not None:
            # 单机游戏《墨川行》于7月20日正式发售，发行商为上海橙盏文化传播有限公司: the publisher of the work the
            # sentence named before
            work = next((x for x in reversed(sentence) if x.kind in ("title", "quote") and x.end <= cs + m.start()),
                        None)
            add(work, "publishedBy", next((x for x in clause.mentions if x.start == cs + m.end() and self._org(x)),
                                          None))

    def _whose_work(self, scope: ClauseScope) -> None:
        """作家林晚秋的长篇小说《雾港》, 恒瑞医药的创新药“瑞维鲁胺”: whose work it is."""
        text, clause, add = scope.text, scope.clause, scope.add
        for x in clause.mentions:  # 作家林晚秋的长篇小说《雾港》, 恒瑞医药的创新药“瑞维鲁胺”: whose work it is
            work = next((w for w in clause.mentions if w.kind in ("quote", "title") and w.start > x.end
                         and WORK_OF.fullmatch(text[x.end:w.start - 1])), None)
            if work is not None and (self._person(x) or self._org(x)):
                add(work, "createdBy", x)

    def _approvals(self, scope: ClauseScope) -> None:
        """国家药品监督管理局批准了…; 获得国家药品监督管理局批准: who approved the work."""
        clause, subject, sentence, add = scope.clause, scope.subject, scope.sentence, scope.add
        c, cs = clause.text, clause.start
        if self._org(subject) and (m := re.search(r"(?:批准|核准)了?", c)) is not None and "获" not in c[:m.start()] \
                and subject.end <= cs + m.start():
            # 国家药品监督管理局近日批准了…“瑞维鲁胺”上市: the body approves the work named after the verb
            work = next((x for x in self._after(clause, cs + m.end()) if x.kind in ("quote", "title")), None)
            add(work, "approvedBy", subject)
        if (m := _APPROVED.search(c)) is not None:
            # (获得国家药品监督管理局颁发的第三类医疗器械注册证: a registration the body issues approves the product)
            body = next((x for x in self._after(clause, cs + m.start()) if self._org(x)
                         and x.end <= cs + m.end()), None)
            approved = next((x for x in clause.mentions if x.kind in ("quote", "title") and x.end <= cs + m.start()),
                            None)
            if approved is None and re.match(r"\s*该(?:药|药品|新药|产品|疫苗|器械|车型|系统|软件|平台|书|作品)", c):
                # 华辰医药发布…新药“华替尼”，该药已于…获得国家药品监督管理局批准: the work named before, not the company
                approved = next((x for x in reversed(sentence) if x.kind in ("quote", "title") and x.end <= cs), None)
                if approved is None:
                    body = None  # what 该药 refers to is not named: say nothing rather than credit the company
            if approved is None and re.match(r"\s*其\S", c):
                body = None  # 其任职资格已获…核准: what was approved is 其's (a person's post), not the subject
            approved = approved or subject
            add(approved, "approvedBy", body)
