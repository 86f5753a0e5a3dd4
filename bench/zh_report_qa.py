"""Questions over Chinese report documents, answered without a model: exact match of each strategy's answer.

    python bench/zh_report_qa.py [--baseline REV] [--strategies hybrid,frag] [--list SET]

The questions (bench/data/zh_report_qa_gold.json) were written by a helper from the documents' text alone,
before any code answered them: per document of the five report-document sets (zh_report_docs*_gold.json), five
questions a data team asks of a report (who holds a post, the controlling shareholder, where, a figure of a
period, when, which company), each with every right form of its answer as the text writes it.

All documents go into ONE project, as a user converts a folder of reports (`kgbuild init` defaults, the
graph store off because the strategies read the workspace projection; Milvus Lite for the vectors), built
offline; then each question is asked of each strategy (no model: hybrid's extractive answer, FRAG's best
node of the kind asked). An answer is right when, with spaces and punctuation folded away, it is one of the
question's answers. `--baseline REV` (default main) builds and asks again with the kgbuild/ of REV, in
the same run. `--list SET` lists the wrong answers of one set (e.g. docs3).

Last line: one JSON object, `{"now": {strategy: {set: em, "all": em}}, "before": ...}` (em as a share).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
import tempfile
import time
import unicodedata
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
QA = HERE / "data" / "zh_report_qa_gold.json"
SETS = {"docs": "zh_report_docs_gold.json", "docs2": "zh_report_docs2_gold.json", "docs3": "zh_report_docs3_gold.json",
        "docs4": "zh_report_docs4_gold.json", "docs5": "zh_report_docs5_gold.json"}
_FOLDED = re.compile(r"[\s\"'“”‘’，,。.;；:：、()（）《》？?!！]+")


def folded(text: str) -> str:
    """Spaces, punctuation and a closing 元 folded away: a table's cell is written without the unit its 单位 line
    gives (the writers' convention), while the graph's figure carries it (9,846,215,370.42 = 9,846,215,370.42元)."""
    return _FOLDED.sub("", unicodedata.normalize("NFKC", text)).casefold().removesuffix("元")


def right(answer: str, answers: Sequence[str]) -> bool:
    return bool(answer.strip()) and folded(answer) in {folded(a) for a in answers}


def build(root: Path, documents: Sequence[dict]) -> Path:
    from kgbuild.build import Builder
    from kgbuild.config import load_config
    from kgbuild.progress import QuietProgress

    corpus = root / "corpus"
    corpus.mkdir(parents=True)
    for d in documents:
        (corpus / f"{d['id']}.md").write_text(d["text"], encoding="utf-8")
    (root / "kgbuild.yaml").write_text("workspace: ws\nschema: open_domain\ngraph_store:\n  backend: none\n",
                                       encoding="utf-8")
    asyncio.run(Builder(load_config(root / "kgbuild.yaml", env={}), QuietProgress()).arun([corpus]))
    return root


def answers(project: Path, questions: Sequence[dict], strategies: Sequence[str]) -> dict[str, list[str]]:
    from kgbuild.engine import Engine

    out: dict[str, list[str]] = {s: [] for s in strategies}
    with Engine.open(project) as engine:
        for s in strategies:
            for q in questions:
                out[s].append(engine.query(q["question"], strategy=s).answer)
    return out


def figures(strategies: Sequence[str]) -> dict[str, object]:
    qa = json.loads(QA.read_text(encoding="utf-8"))["questions"]
    documents = [d for name in sorted({q["set"] for q in qa})
                 for d in json.loads((HERE / "data" / SETS[name]).read_text(encoding="utf-8"))["documents"]]
    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        project = build(Path(tmp), documents)
        built_s = time.perf_counter() - t
        got = answers(project, qa, strategies)
    em: dict[str, dict[str, float]] = {}
    for s in strategies:
        hits = [right(a, q["answers"]) for a, q in zip(got[s], qa, strict=True)]
        per = {name: [h for h, q in zip(hits, qa, strict=True) if q["set"] == name] for name in SETS}
        em[s] = {name: round(sum(h) / len(h), 3) for name, h in per.items() if h}
        em[s]["all"] = round(sum(hits) / len(hits), 3)
    return {"em": em, "answers": got, "build_s": round(built_s, 1), "documents": len(documents)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default="main", help="git commit whose kgbuild/ answers too ('none': skip)")
    parser.add_argument("--strategies", default="hybrid,frag")
    parser.add_argument("--list", dest="listed", help="list the wrong answers of this set (docs, docs2, ...)")
    parser.add_argument("--figures-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    strategies = [s.strip() for s in args.strategies.split(",") if s.strip()]
    if args.figures_only:  # the baseline's child process
        print(json.dumps(figures(strategies), ensure_ascii=False))
        return
    from older_code import figures_at

    before = (figures_at(args.baseline, Path(__file__).resolve(), ["--figures-only", f"--strategies={args.strategies}"])
              if args.baseline != "none" else None)
    now = figures(strategies)
    qa = json.loads(QA.read_text(encoding="utf-8"))["questions"]
    print(f"{len(qa)} questions over {now['documents']} report documents in one offline project "
          f"(built in {now['build_s']} s); exact match of the model-free answer")
    for label, figs in (("before", before), ("now", now)):
        if figs is None:
            continue
        for s, per in figs["em"].items():  # type: ignore[union-attr]
            sets = "  ".join(f"{name} {v:.3f}" for name, v in per.items() if name != "all")
            print(f"{label:7} {s:8} all {per['all']:.3f}  |  {sets}")
    if args.listed:
        for s in strategies:
            for i, q in enumerate(qa):
                if q["set"] != args.listed:
                    continue
                a = now["answers"][s][i]  # type: ignore[index]
                was = before["answers"][s][i] if before else None  # type: ignore[index]
                if not right(a, q["answers"]):
                    print(f"  {s} {q['doc']} {q['question']}  -> {a!r} (gold {q['answers'][0]!r}"
                          f"{'' if was is None else f'; before {was!r}'})")
    print(json.dumps({"now": now["em"], "before": before["em"] if before else None}, ensure_ascii=False))


if __name__ == "__main__":
    main()
