"""Figures and amounts: 营业收入128.6亿元 -> (subject, 营业收入, 128.6亿元) with the period, and 同比增长12.4% as a
qualifier of the figure before it."""

from __future__ import annotations

import re

from kgbuild.extract.zh import word_lists as wl
from kgbuild.extract.zh.clause_rules import Clause, ClauseRules, OpenFact
from kgbuild.extract.zh.mentions import Mention

_CHANGE = re.compile(r"(?P<base>同比|比上年(?:末|同期)?|较上年(?:末|同期)?|较去年(?:同期|末)?|比去年(?:同期)?|"
                     r"较年初|环比)?"
                     r"(?P<way>增长|上升|提高|增加|上涨|提升|下降|减少|下滑|降低|下跌|回落)了?(?:约|达)?$")
_METRIC_STRIP_LEAD = re.compile(r"^(?:实现|完成|录得|取得|达到|共有|现有|拥有|累计|全年|全球|合计|总计|其中|单季|当季|"
                                r"目前|当前|截至目前|该子公司|该公司|"
                                r"同期|同年|集团|公司|本公司|"
                                r"本集团|学校|本行|该行|报告期内|本期|当期|共|全年实现|累计实现|新增|获得|获|新获)+")
_METRIC_STRIP_TAIL = re.compile(r"(?:达到|达|为|约为|约|共计|共|合计|总计|是|超过|逾|近|实现|突破)+$")
_METRIC = re.compile(r"^[\u4e00-\u9fffA-Za-z]{2,10}$")
# A 的 that defines another figure, not whose it is: 扣除非经常性损益的净利润 is not 净利润, 经营活动产生的现金流量净额
# not any cash flow (归属于上市公司股东的净利润 is the company's 净利润)
_DEFINED_FIGURE = re.compile(r"(?:扣除非经常性损益(?:后)?的|(?:经营|投资|筹资)活动产生的)[\u4e00-\u9fff]{2,8}$")


class FigureFacts(ClauseRules):
    """Named figures and their changes."""

    def _figures(self, text: str, clause: Clause, subject: Mention | None, when: Mention | None,
                 out: list[OpenFact], last: OpenFact | None) -> OpenFact | None:
        """营业收入128.6亿元 -> (subject, 营业收入, 128.6亿元) [时间: 2022年]; 同比增长12.4% -> a qualifier of the
        figure before it. A figure needs an organisation to belong to."""
        pos = clause.start
        for value in clause.values:
            before = text[pos:value.start]
            pos = value.end
            change = _CHANGE.search(before)
            if change is not None:
                if last is not None:
                    way = "下降" if change.group("way") in ("下降", "减少", "下滑", "降低", "下跌", "回落") else "增长"
                    base = "环比" if (change.group("base") or "").startswith("环比") else "同比"
                    last.qualifiers.append((base + way, self._value(value)))
                continue
            if subject is None or "占" in before or before.endswith("的") or re.search(r"以[^，。；以]{0,6}$", before):
                continue
            if re.search(r"约定|承诺|预计|计划|拟|力争|目标", text[clause.start:value.start]):
                continue  # 约定未来三年供应碳酸锂不少于6万吨: what a contract or a plan promises, not a stated figure
            opened = max(text.rfind(e, 0, clause.start) for e in "。！？\n") + 1
            if re.search(r"将[^，。；]{0,6}?(?:建设|新建|兴建|建成|投资建设)", text[opened:value.start]):
                continue  # 双方将共同建设一座…回收工厂，总投资约18亿元: the figures of what is yet to be built
            run = re.search(r"[\u4e00-\u9fffA-Za-z]*$", before)
            name = run.group(0) if run else ""
            # the figure's name starts after the last word that ends what comes before it
            # (2024年度公司研发投入: 年度 is the period, 公司 the report's company)
            defined = _DEFINED_FIGURE.search(name)
            name = defined.group(0) if defined is not None else re.sub(r"^本?公司", "", re.split(
                r"实现|完成|录得|取得|的|年度|年末|年底|年初|年|月末|月底|月|日|季度|期末|期内|共有|现有|拥有|累计|其中|、",
                name)[-1])
            for form in (subject.form, subject.name, *subject.aliases):
                if form and name.startswith(form):
                    name = name[len(form):]
            if re.search(r"预计|计划|拟|预期|目标|力争", name) or name.startswith("项目"):
                continue  # 预计总投资50亿元, 项目预计总投资: a plan, or a project's, not a figure the report states
            if re.search(r"(?:不低于|不超过|不少于|不高于|不多于)$", name):
                continue  # 回购资金总额不低于1亿元: a bound a plan sets, not a figure the report states
            if any(w in name for w in wl.ONE_OFF_ACT_WORDS):
                continue  # 股价收涨17.5%, 募集资金9.6亿港元, 受让其55%: the figure of one act, not one the subject has
            if any(self._org(m) and name.endswith(m.form or m.name) for m in clause.mentions if m.end <= value.start):
                continue  # 收购…安明电力设备有限公司70%的股权: a stake in the company named, no figure of the subject
            if "等" in name or name.startswith(("前者", "后者")):
                continue  # 张三等6人 (a count of people listed), 前者持股75% (a pointer's stake): no figure's name
            if re.search(r"各[类种项个]|多[种个项]|若干", name):
                continue  # 全年销售各类农业机械4.2万台: a sum over kinds of things said in passing, not a named figure
            name = _METRIC_STRIP_TAIL.sub("", _METRIC_STRIP_LEAD.sub("", name))
            if "第" in name or re.match(r"(?:在(?!职|册|岗|建|读|手|售|营)|向|与|对|从|将|把|被|由|为|紧急|共同|继续|"
                                         r"进一步|陆续)", name) or re.search(r"(?:由|至|到|从|以|不)$", name):
                continue  # 在深圳举行第, 紧急转移群众, 将回购不超过, 注册资本由…增加至: a verb phrase, no figure
            if re.match(r"(?:持有|持股|派出|出动|调派|当地)", name) or "已" in name or name.endswith("每股") \
                    or re.search(r"持有|持股", name):  # 创始人杭既白持有其37.5%, 直接持有公司9.2%, B持股49%: a stake
                continue  # 持有公司42.08%的股份 (a stake), 当地已派出120名 (a dispatch), 发行价为每股: no named figure
            name = re.sub(r"^在职(?=员工总数)", "", name)  # 在职员工总数 is the staff count, 员工总数
            if re.fullmatch(r"(?:共)?销售[\u4e00-\u9fff]{1,6}", name) and re.search(r"[吨辆台件套箱部]$", value.name):
                name = "销量"  # 销售白砂糖21.3万吨: what a company sold, counted in things, is its sales volume
            if "股东" in name and value.name.endswith("户"):
                continue  # 普通股股东总数48,216户, A股股东102,856户: the count of holders, no result of the company
            if name.endswith("销量") and name != "销量" and _one_volume(text, opened, value.start):
                # 公司挖掘机销量18,460台: the company's sales volume, its product said with it (two products' volumes
                # in one sentence, or a part after 其中, keep their own names)
                name = "销量"
            if re.search(r"(?:金额|对价|价格|售价|单价|定价|持股比例)$", name) \
                    or not (_METRIC.match(name) or (defined is not None and name == defined.group(0))) \
                    or name in wl.STOP_NAMES - {"营业收入", "净利润", "营收", "利润", "收入", "资产", "负债", "员工",
                                                 "职工"}:
                continue
            fact = OpenFact(subject, name, self._value(value), [("时间", when)] if when is not None else [])
            out.append(fact)
            last = fact
        return last


def _one_volume(text: str, opened: int, at: int) -> bool:
    """Whether the sentence from `opened` states one sales volume, the one at `at`, not after 其中 (a part of it)."""
    ends = [i for i in (text.find(e, at) for e in "。！？\n") if i >= 0]
    sentence = text[opened:min(ends, default=len(text))]
    return sentence.count("销量") + sentence.count("销售量") == 1 and "其中" not in text[opened:at]
