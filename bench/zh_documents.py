"""Whole Chinese report documents built offline, scored against labels over each whole document.

Every other Chinese set is scored paragraph by paragraph. A company report converted from PDF is one long document:
it declares its company once (以下简称…或“公司”) and later sections call it 公司 / 本公司 / 本集团, often before naming
any other company; headings, page markers and image placeholders sit between the sections. This bench writes each
labelled document (bench/data/zh_report_docs_gold.json: six reports written and labelled by a helper who changed no
code, before any code ran on them) to a Markdown file, runs a real offline build of them (open_domain schema, no
stores), and scores what the build holds for each document with `zh_extract.score_open`: the same matching of names,
aliases, relations, qualifiers and events as the paragraph sets. Alignment's belongTo links to concepts are left
out (no label states them).

    python bench/zh_documents.py [--baseline REV] [--list] [--gold FILE] [--html-tables]

`--baseline REV` (default: main) scores the kgbuild/ of REV in the same run, unpacked into a temporary folder (the
labels and scoring stay this run's). `--list` prints every false and missed relation. `--html-tables` writes every
Markdown table of the documents as an HTML table on one line (`<table><tr><td>…`, as MinerU writes them) before the
build: the same facts in the other shape PDF converters give tables.
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
from collections.abc import Sequence
from pathlib import Path

from older_code import figures_at
from zh_extract import common_words, is_value, offline_build, score_open

from kgbuild.model import ChunkExtraction, Entity, Event, HyperNode, Relation

HERE = Path(__file__).resolve().parent
DOCS_GOLD = HERE / "data" / "zh_report_docs_gold.json"


def built(documents: Sequence[dict]) -> list[ChunkExtraction]:
    """One offline build of every document; per document, what the graph holds that one of its chunks supports."""
    from kgbuild.workspace import Workspace

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        files = []
        for d in documents:
            files.append(root / f"{d['id']}.md")
            files[-1].write_text(d["text"], encoding="utf-8")
        offline_build(root, files)
        ws = Workspace(root / "ws")
        entities = list(ws.records("entities", Entity))
        relations = [r for r in ws.records("relations", Relation)
                     if r.subject.kind != "concept" and r.object.kind != "concept"]
        hypernodes = list(ws.records("hypernodes", HyperNode))
        events = list(ws.records("events", Event))
    out = []
    for d in documents:

        def mine(chunk_ids: list[str], doc: str = d["id"]) -> bool:
            return any(c.split("#", 1)[0] == doc for c in chunk_ids)

        out.append(ChunkExtraction(chunk_id=f"{d['id']}#p00000#0", extractor="build",
                                   entities=[*(e for e in entities if mine(e.chunk_ids)),
                                             *literal_values([h for h in hypernodes if mine(h.chunk_ids)])],
                                   relations=[r for r in relations if mine(r.chunk_ids)],
                                   hypernodes=[h for h in hypernodes if mine(h.chunk_ids)],
                                   events=[e for e in events if mine(e.chunk_ids)]))
    return out


def literal_values(hypernodes: Sequence[HyperNode]) -> list[Entity]:
    """The values the build keeps as literals on hypernodes (a date or amount only a qualifier names; before
    kgbuild/graph/literals.py they were entities), as the entities the labels' lists are matched against: the
    graph still holds them, as text on their facts. Marked with the property `literal` so the build's
    relations per entity leaves them out (they are no entity rows). A literal keeps no class: a date (what
    `is_value` does not call an amount) is scored as Date, the class the build gave those."""
    seen: dict[str, Entity] = {}
    for h in hypernodes:
        for end in (h.subject, h.object):
            if end.kind == "value" and end.id not in seen:
                cls = "Thing" if is_value(end.name, "") else "Date"
                seen[end.id] = Entity(id=end.id, name=end.name, spg_class=cls, chunk_ids=h.chunk_ids,
                                      properties={"literal": ["1"]})
    return list(seen.values())


def html_tables(text: str) -> str:
    """`text` with each Markdown table (its separator row left out) written as one line of HTML."""
    out: list[str] = []
    block: list[str] = []

    def flush() -> None:
        rows = [line.strip().strip("|").split("|") for line in block if not re.match(r"^\s*\|?\s*:?-{2,}", line)]
        if rows:
            out.append("<table>" + "".join("<tr>" + "".join(f"<td>{c.strip()}</td>" for c in row) + "</tr>"
                                           for row in rows) + "</table>")
        block.clear()

    for line in text.split("\n"):
        if line.lstrip().startswith("|"):
            block.append(line)
        else:
            flush()
            out.append(line)
    flush()
    return "\n".join(out)


def figures(gold: Path, every: bool, as_html: bool = False) -> dict[str, object]:
    documents = json.loads(gold.read_text(encoding="utf-8"))["documents"]
    if as_html:
        documents = [dict(d, text=html_tables(d["text"])) for d in documents]
    results = built(documents)
    scored = score_open(documents, lambda _chunks: results, common_words(), every=every)
    per_doc = {}
    for d, ex in zip(documents, results, strict=True):
        one = score_open([d], lambda _chunks, ex=ex: [ex], set())
        per_doc[d["id"]] = {"relations": one["relations"], "entities": one["entities"]}
    named = [e for ex in results for e in ex.entities if "literal" not in e.properties]
    return {"all": scored, "documents": per_doc,
            "relations_per_entity": round(sum(len(ex.relations) for ex in results) / max(1, len(named)), 3)}


def baseline(ref: str, gold: Path, every: bool, as_html: bool = False) -> dict[str, object] | None:
    """The same figures for kgbuild/ as of `ref` (`older_code`: the labels and scoring stay this run's)."""
    return figures_at(ref, Path(__file__).resolve(),
                      ["--figures-only", f"--gold={gold.resolve()}", *(["--list"] if every else []),
                       *(["--html-tables"] if as_html else [])])


def show(label: str, figs: dict[str, object]) -> None:
    a = figs["all"]
    assert isinstance(a, dict)
    e, r, q = a["entities"], a["relations"], a["qualifiers"]
    c = a["counts"]
    print(f"{label:7} all documents  entities P {e['p']:.3f} R {e['r']:.3f}  relations P {r['p']:.3f} R {r['r']:.3f}  "
          f"qualifiers P {q['p']:.3f} R {q['r']:.3f}  typed {a['typed_accuracy']}  | {c['entities_pred']} entities, "
          f"{c['relations_pred']} relations ({c['relations_gold']} labelled), {figs['relations_per_entity']} "
          "relations per entity in the build")
    docs = figs["documents"]
    assert isinstance(docs, dict)
    for name, one in docs.items():
        print(f"{label:7} {name:14} entities P {one['entities']['p']:.3f} R {one['entities']['r']:.3f}  "
              f"relations P {one['relations']['p']:.3f} R {one['relations']['r']:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default="main", help="git commit whose kgbuild/ is scored too ('none': skip)")
    parser.add_argument("--list", action="store_true", help="print every false and missed relation")
    parser.add_argument("--gold", type=Path, default=DOCS_GOLD, help="labelled documents ({'documents': [...]})")
    parser.add_argument("--html-tables", action="store_true", help="write the documents' tables as HTML first")
    parser.add_argument("--figures-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.figures_only:
        print(json.dumps(figures(args.gold, args.list, args.html_tables), ensure_ascii=False))
        return
    now = figures(args.gold, args.list, args.html_tables)
    before = baseline(args.baseline, args.gold, args.list, args.html_tables) if args.baseline != "none" else None
    if before is not None:
        show("before", before)
    show("now", now)
    if args.list:
        a = now["all"]
        assert isinstance(a, dict)
        for kind in ("false", "missed"):
            for line in a[f"sample_{kind}_relations"]:
                print(f"{kind:6} {line}")
    out: dict[str, float] = {}
    for label, figs in (("before", before), ("now", now)):
        if figs is None:
            continue
        a = figs["all"]
        assert isinstance(a, dict)
        for kind in ("entities", "relations", "qualifiers"):
            out[f"{label}_{kind}_precision"] = a[kind]["p"]
            out[f"{label}_{kind}_recall"] = a[kind]["r"]
        out[f"{label}_relations_per_entity"] = figs["relations_per_entity"]  # type: ignore[assignment]
    print(json.dumps(out))


if __name__ == "__main__":
    main()
