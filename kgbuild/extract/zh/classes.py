"""Typing Chinese terms: by the word they end in (Chinese compounds put the head last: 脂溢性皮炎
is a 皮炎, 甲硫咪唑 a -唑 drug), and by jieba's proper-name tags.

Each rule names class alternatives ('A|B'): the first one the schema knows wins, so the same rules
serve the medicine schema (Disease, Drug...) and the open-domain one (Medicine, Organization...).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kgbuild.extract.labels import ClassResolver, resolve_alternatives

# (suffix, classes), longest suffix first within a class; checked longest suffix first overall.
_SUFFIX_RULES: tuple[tuple[str, str], ...] = (
    # symptoms and signs before diseases: 症状 and 异物感 must not read as the 症 of a disease
    ("异物感", "Symptom"), ("压迫感", "Symptom"), ("疼痛", "Symptom"), ("瘙痒", "Symptom"), ("鳞屑", "Symptom"),
    ("斑片", "Symptom"), ("发热", "Symptom"), ("咳嗽", "Symptom"), ("头晕", "Symptom"), ("失眠", "Symptom"),
    ("乏力", "Symptom"), ("水肿", "Symptom"), ("腹泻", "Symptom"), ("呕吐", "Symptom"), ("恶心", "Symptom"),
    ("红斑", "Symptom"), ("皮疹", "Symptom"), ("出血", "Symptom"), ("胸痛", "Symptom"), ("气短", "Symptom"),
    ("综合征", "Disease|Medicine"), ("综合症", "Disease|Medicine"), ("皮肤病", "Disease|Medicine"),
    ("结节", "Disease|Medicine"), ("湿疹", "Disease|Medicine"), ("休克", "Disease|Medicine"),
    ("骨折", "Disease|Medicine"), ("中毒", "Disease|Medicine"), ("障碍", "Disease|Medicine"),
    ("病", "Disease|Medicine"), ("炎", "Disease|Medicine"), ("癌", "Disease|Medicine"), ("瘤", "Disease|Medicine"),
    ("症", "Disease|Medicine"),
    ("病毒", "Pathogen|Creature"), ("细菌", "Pathogen|Creature"), ("真菌", "Pathogen|Creature"),
    ("杆菌", "Pathogen|Creature"), ("球菌", "Pathogen|Creature"),
    ("注射液", "Drug|Medicine"), ("口服液", "Drug|Medicine"), ("胶囊", "Drug|Medicine"), ("软膏", "Drug|Medicine"),
    ("化合物", "Drug|Medicine"), ("激素", "Drug|Medicine"), ("霉素", "Drug|Medicine"), ("抑素", "Drug|Medicine"),
    ("嘧啶", "Drug|Medicine"), ("酸钠", "Drug|Medicine"), ("药物", "Drug|Medicine"), ("米松", "Drug|Medicine"),
    ("可的松", "Drug|Medicine"), ("奈德", "Drug|Medicine"), ("咪唑", "Drug|Medicine"), ("马唑", "Drug|Medicine"),
    ("药", "Drug|Medicine"), ("片", "Drug|Medicine"), ("剂", "Drug|Medicine"), ("生素", "Drug|Medicine"),
    ("蛋白酶", "Drug|Medicine"), ("碘", "Drug|Medicine"),
    ("检查", "Examination"), ("检测", "Examination"), ("造影", "Examination"), ("化验", "Examination"),
    ("活检", "Examination"),
    ("切除术", "SurgicalOperation"), ("手术", "SurgicalOperation"),
    ("疗法", "Treatment"), ("治疗", "Treatment"), ("护理", "Treatment"),
    ("因素", "RiskFactor"),
    ("新生儿", "Population"), ("成年人", "Population"), ("老年人", "Population"), ("婴儿", "Population"),
    ("儿童", "Population"), ("孕妇", "Population"), ("人群", "Population"),
    ("医院", "Hospital|Organization"), ("诊所", "Hospital|Organization"), ("卫生院", "Hospital|Organization"),
    ("公司", "Company|Organization"), ("大学", "EducationalInstitution|Organization"),
    ("研究所", "Organization"), ("研究院", "Organization"), ("协会", "Organization"), ("委员会", "Organization"),
)
_ACTION_PREFIXES = ("抗炎", "消炎", "止痒", "抗休克", "抗过敏", "防治")
# jieba's proper-name tags.
_POS_CLASSES = {"nr": "Person", "nrfg": "Person", "nrt": "Person", "ns": "City|GeographicLocation",
                "nt": "Organization", "t": "Date"}
# Words that name a class or a generic notion, not a thing: never an entity on their own.
GENERIC_WORDS = frozenset((
    "疾病 病因 症状 病症 并发症 药物 药品 外用药物 口服药物 患者 治疗 炎症 病程 病例 病人 "
    "作用 功能 手术治疗 药物治疗 临床 医生 医院 检查 因素 人体 机体 细胞 激素 人群 病变 "
    "症 病 炎 药 素 片 剂 酶 替代治疗 家庭护理 主要症状 皮肤症状 "
    "患病 发病 致病 病发 患病率 发病率 挂号 就诊 曾用名 简称 别名 常用 主要 部位 抗炎 消炎 止痒 抗休克 "
    "后者 前者 "
    "疾病表现 并发 治疗方面 病症"
).split())


# Words that end a noun run: what follows them is another phrase (甲状腺外科 | 挂号).
RUN_BREAKERS = frozenset("患者 挂号 就诊 主要 主要症状 症状 曾用名 简称 常用 部位 表现 疾病表现 作用 功能 领域".split())


@dataclass
class ClassRules:
    """The rules resolved against one schema (built once per extractor)."""

    schema: ClassResolver
    extra_suffixes: dict[str, str] = field(default_factory=dict)  # Chinese class aliases: 医院 -> Hospital

    def __post_init__(self) -> None:
        resolved: dict[str, str] = {}
        for suffix, value in _SUFFIX_RULES:
            cls = resolve_alternatives(self.schema, value)
            if cls is not None:
                resolved.setdefault(suffix, cls)
        for suffix, cls in self.extra_suffixes.items():
            resolved.setdefault(suffix, cls)
        self._suffixes = sorted(resolved.items(), key=lambda kv: -len(kv[0]))
        self._pos = {tag: cls for tag, value in _POS_CLASSES.items()
                     if (cls := resolve_alternatives(self.schema, value)) is not None}

    def by_suffix(self, term: str) -> str | None:
        """The class of a term by its last word(s), or None if no rule applies."""
        if term.startswith(_ACTION_PREFIXES):  # 抗炎, 消炎, 止痒: an action against the thing, not the thing
            return None
        for suffix, cls in self._suffixes:
            if term.endswith(suffix) and len(term) > len(suffix) - (1 if len(suffix) > 1 else 0):
                return cls
        return None

    def by_pos(self, tag: str, word: str) -> str | None:
        # jieba tags some abstract nouns ns (重大意义): a place name is short or ends as places do.
        if tag == "ns" and len(word) > 3 and not word.endswith(_PLACE_ENDS):
            return None
        if tag in ("nr", "nrfg", "nrt") and not 2 <= len(word) <= 4:
            return None
        return self._pos.get(tag)


_PLACE_ENDS = ("省", "市", "县", "区", "国", "州", "洲", "山", "河", "湖", "岛", "村", "镇", "江", "海")
