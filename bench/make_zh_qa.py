"""Build the small Chinese retrieval set bench/data/zh_qa.json from the shared data (docs/languages.md).

Passages, all by rule:
- domain_kg/doc.txt and the `text` of medicine/Disease.csv: each line is cut into sentences at
  "。", and consecutive sentences are joined until a passage holds at least 80 characters.
- medicine/HospitalDepartment.csv ("内科-内分泌科"): one passage per department with
  sub-departments, "内科下设内分泌科、消化内科……等科室。"; the departments without any go
  into one passage of their own.
- medicine/HumanBodyPart.csv ("消化系统-消化道-胃"): one passage per part with sub-parts,
  "人体消化系统的消化道包括口、咽……。"

Questions:
- by rule from the department tree: "<sub>属于哪个科室？" for every 6th sub-department whose
  name occurs in exactly one passage (its parent's);
- by rule from the body-part tree: "<part>属于人体的哪个系统？" for every 5th part whose name
  occurs in exactly one passage;
- by rule from Disease.csv: "<title>的别名是什么？" for each disease whose alias differs from it;
- hand-written (HAND below): questions a reader might ask of doc.txt and Disease.csv, each
  naming its gold passage by a phrase only that passage holds. Their wording was written
  before any model was run and was not changed after.

Every question has exactly one gold passage. Run from the repo root: python bench/make_zh_qa.py
"""

from __future__ import annotations

import csv
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from shared_data import shared_data

OUT = Path(__file__).resolve().parent / "data" / "zh_qa.json"
MIN_CHARS = 80

# (question, a phrase found in exactly one passage: the gold one)
HAND: list[tuple[str, str]] = [
    ("生长激素是由哪个腺体分泌的？", "脑垂体前叶分泌的一种肽类激素"),
    ("人生长激素由多少个氨基酸组成？", "191个氨基酸"),
    ("注射用人生长激素是怎么生产出来的？", "基因重组技术"),
    ("生长激素在儿科有什么用途？", "促进儿童的身高增长"),
    ("皮质激素按生理作用可以分成哪两类？", "可分为盐皮质激素和糖皮质激素"),
    ("临床上常用的糖皮质激素药物有哪些？", "氢化可的松"),
    ("肾上腺皮质分为哪几层？", "球状带、束状带、网状带"),
    ("糖皮质激素为什么能够抗休克？", "扩张痉挛收缩的血管"),
    ("皮质激素如何抑制免疫反应？", "抑制巨噬细胞对抗原的吞噬"),
    ("糖皮质激素对消化系统有什么影响？", "胃酸和胃蛋白酶分泌增多"),
    ("哪些人更容易得脂溢性皮炎？", "新生儿和30-60岁成年人"),
    ("脂溢性皮炎有哪些典型症状？", "黄红色斑片、瘙痒和油腻鳞屑"),
    ("脂溢性皮炎会传染吗？", "无明显传染性"),
    ("脂溢性皮炎一般用什么药治疗？", "抗组胺药和抗真菌药"),
    ("婴儿的脂溢性皮炎多久能好？", "3个月内痊愈"),
    ("甲状腺结节应该挂哪个科？", "甲状腺外科，内分泌科"),
    ("甲状腺结节会不会引起疼痛？", "颈部疼痛、咽喉部异物感"),
    ("常用的抗甲状腺药物是什么？", "硫脲类化合物"),
    ("甲状腺结节变成其他甲状腺疾病的可能性有多大？", "只有1%"),
]


def sentences(text: str) -> list[str]:
    return [s + "。" for s in (p.strip() for p in text.split("。")) if s]


def grouped(text: str) -> list[str]:
    out: list[str] = []
    current = ""
    for sentence in sentences(text):
        current += sentence
        if len(current) >= MIN_CHARS:
            out.append(current)
            current = ""
    if current:
        if out and len(current) < MIN_CHARS // 2:
            out[-1] += current
        else:
            out.append(current)
    return out


def tree(path: Path) -> list[list[str]]:
    with path.open(encoding="utf-8") as f:
        return [row["id"].split("-") for row in csv.DictReader(f) if row.get("id")]


def children(paths: list[list[str]]) -> dict[tuple[str, ...], list[str]]:
    kids: dict[tuple[str, ...], list[str]] = {}
    for p in paths:
        for depth in range(1, len(p)):
            parent = tuple(p[:depth])
            if p[depth] not in kids.setdefault(parent, []):
                kids[parent].append(p[depth])
    return kids


def main() -> None:
    data = shared_data("medicine/Disease.csv")
    passages: list[dict[str, str]] = []

    def add(pid: str, text: str) -> None:
        passages.append({"id": pid, "text": text})

    for n, line in enumerate((data / "domain_kg" / "doc.txt").read_text(encoding="utf-8").splitlines()):
        for i, text in enumerate(grouped(re.sub(r"\s*\[\d+\]", "", line))):  # citation marks "[5]" dropped
            add(f"doc:{n}:{i}", text)
    with (data / "medicine" / "Disease.csv").open(encoding="utf-8") as f:
        diseases = list(csv.DictReader(f))
    for row in diseases:
        for n, line in enumerate(row["text"].splitlines()):
            for i, text in enumerate(grouped(line)):
                add(f"disease:{row['title']}:{n}:{i}", text)

    departments = tree(data / "medicine" / "HospitalDepartment.csv")
    dept_kids = children(departments)
    tops = [p[0] for p in departments if len(p) == 1]
    for top in tops:
        if (top,) in dept_kids:
            add(f"department:{top}", f"{top}下设{'、'.join(dept_kids[(top,)])}等科室。")
    alone = [t for t in tops if (t,) not in dept_kids]
    add("department:(independent)", f"医院还设有以下独立科室：{'、'.join(alone)}。")

    body = tree(data / "medicine" / "HumanBodyPart.csv")
    for parent, kids in children(body).items():
        if len(parent) == 1:
            add(f"body:{parent[0]}", f"人体{parent[0]}由{'、'.join(kids)}组成。")
        else:
            add(f"body:{'-'.join(parent)}", f"人体{parent[0]}的{parent[-1]}包括{'、'.join(kids)}。")

    def holders(phrase: str) -> list[str]:
        return [p["id"] for p in passages if phrase in p["text"]]

    questions: list[dict[str, str]] = []
    subs = [p[-1] for p in departments if len(p) == 2 and p[-1] not in tops]
    for name in [s for s in subs if len(holders(s)) == 1][::6]:
        questions.append({"question": f"{name}属于哪个科室？", "gold": holders(name)[0], "kind": "rule:department"})
    parts = list(dict.fromkeys(p[-1] for p in body if len(p) >= 2))
    for name in [s for s in parts if len(holders(s)) == 1][::5]:
        questions.append({"question": f"{name}属于人体的哪个系统？", "gold": holders(name)[0], "kind": "rule:body"})
    for row in diseases:
        if row["alias"] and row["alias"] != row["title"]:
            gold = holders(row["alias"])
            assert len(gold) == 1, row["alias"]
            questions.append({"question": f"{row['title']}的别名是什么？", "gold": gold[0], "kind": "rule:alias"})
    for question, phrase in HAND:
        gold = holders(phrase)
        assert len(gold) == 1, (phrase, gold)
        questions.append({"question": question, "gold": gold[0], "kind": "hand"})

    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"built_by": "bench/make_zh_qa.py (docs/languages.md)", "passages": passages,
                               "questions": questions}, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    kinds = {k: sum(q["kind"] == k for q in questions) for k in dict.fromkeys(q["kind"] for q in questions)}
    print(f"{len(passages)} passages, {len(questions)} questions {kinds} -> {OUT}")


if __name__ == "__main__":
    main()
