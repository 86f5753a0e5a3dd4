"""Check the hand-written gold sets' shape, extracting nothing: JSON loads, fields present, labels refer to
what the record names, and every QA supporting passage is in the `--corpus-slice` corpus.

`python bench/check_gold_sets.py` prints one line per set and exits 1 on the first set with a problem.
"""
from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path

DATA = Path(__file__).parent / "data"
CORPUS_2WIKI = Path("/work/shared/data/2wiki/corpus.json")


def _digits(value: str) -> str:
    """18,640,512,300.15元 -> 18,640,512,300.15; a name with no digits -> itself."""
    hit = re.match(r"-?[\d][\d,.]*", value)
    return hit.group(0) if hit else value


def check_zh(path: Path) -> list[str]:
    """A set of paragraphs, or of whole documents (the report-document sets: the same fields per document)."""
    problems = []
    data = json.loads(path.read_text(encoding="utf-8"))
    for p in data["paragraphs"] if "paragraphs" in data else data["documents"]:
        for key in ("id", "split", "genre", "text", "entities", "relations", "values", "qualifiers", "events"):
            if key not in p:
                problems.append(f"{p.get('id')}: no {key}")
        text = p["text"]
        problems += [f"{p['id']}: entity {n} not in the text" for n, _ in p["entities"] if n not in text]
        # (a table's figure keeps the unit of its label or of the 单位 line: its digits are in the text)
        problems += [f"{p['id']}: relation end not in the text: {r}" for r in p["relations"]
                     if r[0] not in text or (r[2] not in text and _digits(r[2]) not in text)]
        rels = [list(r) for r in p["relations"]]
        problems += [f"{p['id']}: qualifier of no relation: {q}" for q in p["qualifiers"] if q[:3] not in rels]
    return problems


def check_technical(path: Path) -> list[str]:
    problems = []
    for line in path.read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        names = {e["name"] for e in r["entities"]}
        problems += [f"{r['id']}: no {k}" for k in ("id", "source", "section", "text", "labelled") if k not in r]
        problems += [f"{r['id']}: relation end not an entity: {x}" for x in r["relations"]
                     if x["s"] not in names or x["o"] not in names or "p" not in x]
        # A label names what the passage writes: its name or one of its aliases is in the text or the heading
        # path (space runs collapsed, backticks dropped, case ignored).
        where = written(" ".join([r["text"], *r["section"]]))
        problems += [f"{r['id']}: entity {e['name']} not in the text" for e in r["entities"]
                     if not any(written(n) in where for n in [e["name"], *e.get("aliases", [])])]
    return problems


def written(text: str) -> str:
    return " ".join(text.replace("`", "").split()).lower()


EN_KEYS = {"id", "source", "title", "text", "labelled", "facts", "aliases", "names"}
EN_FACT_KEYS = {"s", "p", "o", "alt_p", "q", "kind", "sym"}


def check_en(path: Path) -> list[str]:
    """An English extraction set: record and fact keys, kinds, and every name and alias written in its text.

    The fuller check (each fact's ends in the text, the text equal to its corpus passage, no title reused) is
    the set's own bench/data/<set>_check.py; this one needs no corpus.
    """
    problems = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        r = json.loads(line)
        where = r.get("id", "?")
        if set(r) != EN_KEYS:
            problems.append(f"{where}: keys differ: {sorted(set(r) ^ EN_KEYS)}")
            continue
        text = loose(r["text"])
        forms = [*r["names"], *(f for k, v in r["aliases"].items() for f in [k, *v])]
        problems += [f"{where}: name {n} not in the text" for n in forms if loose(n) not in text]
        for f in r["facts"]:
            if not set(f) >= EN_FACT_KEYS or f["kind"] not in ("relation", "isa", "date", "value"):
                problems.append(f"{where}: bad fact {f}")
            elif (f["kind"] == "isa") != (f["p"] == "isa"):
                problems.append(f"{where}: kind {f['kind']} with p {f['p']}")
    return problems


def loose(text: str) -> str:
    """written(), with quotes dropped and no space beside a hyphen: 2Wiki writes "Nassau- Weilburg"."""
    return re.sub(r"\s*-\s*", "-", written(text.replace('"', "")))


def check_qa(path: Path, slice_others: int = 900) -> list[str]:
    qa = json.loads(path.read_text(encoding="utf-8"))
    data = json.loads(CORPUS_2WIKI.read_text(encoding="utf-8"))
    keys = [str(r.get("title", i)) for i, r in enumerate(data)]
    wanted = {t for q in qa for t, _ in q["supporting_facts"]}
    # bench/strategies.py's corpus_slice: the supporting passages plus `slice_others` drawn with seed 0
    keep = {i for i, key in enumerate(keys) if key in wanted}
    rest = [i for i in range(len(keys)) if i not in keep]
    keep |= set(random.Random(0).sample(rest, min(slice_others, len(rest))))
    in_slice = {keys[i] for i in keep}
    problems = [f"{q.get('_id')}: no {k}" for q in qa
                for k in ("_id", "question", "answer", "aliases", "type", "supporting_facts", "level") if k not in q]
    problems += [f"{q['_id']}: {t} not in the slice" for q in qa for t, _ in q["supporting_facts"] if t not in in_slice]
    return problems


def main() -> None:
    checks = [(DATA / "zh_heldout4_gold.json", check_zh), (DATA / "technical_heldout3.jsonl", check_technical),
              (DATA / "technical_dev4.jsonl", check_technical), (DATA / "technical_heldout4.jsonl", check_technical),
              (DATA / "technical_heldout5.jsonl", check_technical),
              (DATA / "technical_heldout6.jsonl", check_technical),
              (DATA / "technical_heldout7.jsonl", check_technical),
              (DATA / "technical_heldout8.jsonl", check_technical),
              (DATA / "technical_heldout9.jsonl", check_technical),
              (DATA / "technical_heldout10.jsonl", check_technical),
              (DATA / "technical_heldout11.jsonl", check_technical),
              (DATA / "technical_heldout12.jsonl", check_technical),
              (DATA / "technical_heldout13.jsonl", check_technical),
              (DATA / "en_extract_heldout7.jsonl", check_en),
              (DATA / "en_extract_heldout8.jsonl", check_en),
              (DATA / "en_extract_heldout9.jsonl", check_en),
              (DATA / "en_extract_heldout10.jsonl", check_en),
              (DATA / "en_extract_heldout11.jsonl", check_en),
              (DATA / "en_extract_heldout12.jsonl", check_en),
              (DATA / "en_extract_heldout13.jsonl", check_en),
              (DATA / "en_extract_heldout14.jsonl", check_en),
              (DATA / "zh_heldout12_gold.json", check_zh),
              (DATA / "zh_heldout13_gold.json", check_zh),
              (DATA / "zh_heldout14_gold.json", check_zh),
              (DATA / "zh_heldout15_gold.json", check_zh),
              (DATA / "zh_heldout16_gold.json", check_zh),
              (DATA / "zh_heldout17_gold.json", check_zh),
              (DATA / "zh_heldout18_gold.json", check_zh),
              (DATA / "zh_heldout19_gold.json", check_zh),
              (DATA / "zh_heldout20_gold.json", check_zh),
              (DATA / "zh_heldout21_gold.json", check_zh),
              (DATA / "zh_heldout22_gold.json", check_zh),
              (DATA / "zh_heldout23_gold.json", check_zh),
              (DATA / "zh_heldout24_gold.json", check_zh),
              *((DATA / f"zh_report_{name}_gold.json", check_zh)
                for name in ("docs", "tables", "docs2", "docs3", "docs4", "docs5")),
              (DATA / "2wiki_heldout2_qa.json", check_qa), (DATA / "2wiki_heldout3_qa.json", check_qa),
              (DATA / "2wiki_heldout4_qa.json", check_qa)]
    failed = False
    for path, check in checks:
        problems = check(path)
        print(f"{path.name}: {'ok' if not problems else '; '.join(problems[:5])}")
        failed |= bool(problems)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
