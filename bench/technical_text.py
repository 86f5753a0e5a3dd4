"""Offline extraction on technical Markdown (manuals, API docs, READMEs): old code and new code in one run.

Run from the repo root: `python bench/technical_text.py [--base 1909190 | --no-base] [--max-chunks 2000]
[--per-doc 15] [--gold bench/data/technical_gold.jsonl bench/data/technical_heldout.jsonl ...] [--rounds 2]
[--show-dev | --show]`.

The corpus is real technical Markdown already on this machine, nothing is downloaded: the Node.js API
manual (`/usr/share/doc/nodejs/api/*.md`), pip's topic pages (`/usr/share/doc/python3-pip/html/**/*.md`)
and the Markdown long descriptions of the packages in this interpreter's site-packages (`*.dist-info/
METADATA` whose Description-Content-Type is text/markdown, the header block cut off). Missing sources
are skipped with a line; files are taken in sorted order, the first `--per-doc` chunks of each, until
`--max-chunks` chunks.

1. `git worktree add --detach` of `--base` (default 1909190, main before the third issue-31 session) in a
   temp folder; this
   script runs itself there in a subprocess with PYTHONPATH=<worktree>, then with PYTHONPATH=<repo root>
   (the working tree as it is), old and new alternating `--rounds` times (each side's speed is its fastest
   round; the other figures do not change between rounds). Each subprocess checks that it imported kgbuild
   from the root it was given.
2. In each subprocess, the whole path a build takes: `read_sources` (that version's Markdown reader), the
   rules chunker with the default settings, `OfflineExtractor` with the default shipped schema
   (open_domain). Figures over the corpus (ids are content-derived, so distinct ids approximate the
   assembled graph): chunks; extraction chunks/s (one process, model loaded and warmed first); distinct
   entities and relations, relations per entity; share of entities typed Person or Organization (or a
   subclass); share of entities whose name is exactly a heading of the corpus; code-like names (inline
   code of the source, or shaped like code: `a.b`, `f()`, camelCase, snake_case, `--option`) typed
   Person, Organization or GeographicLocation; relations dropped as "pronoun unresolved" (and all drops
   by reason).
3. The labelled sets (`--gold`, each scored on its own; docs/technical_gold.md): each passage is written
   as a Markdown file under its heading path and goes through the same reader -> chunker -> extractor.
   The scoring rules are `bench/technical_scoring.py` (written out in docs/technical_gold.md, "Scoring"):
   entity precision, class right, recall; relation precision/recall three ways: `pair` (unordered
   subject-object pair, the earlier rule), `directed`, and `strict` (direction and a predicate-equivalence
   rule, for sets whose relations have predicates); `*_in_text` figures count only what the passage's text
   writes. The first set is also scored per half (dev: even line index, the rules were tuned looking at
   it; test: odd). `--show-dev` prints the new code's output on the dev half, `--show` on every set given
   except those in NEVER_SHOWN (sets to be scored once with frozen rules: the thirteenth held-out set; the
   first twelve were scored and read as development data, docs/technical_gold.md). With several sets, their
   relation figures are also added up ("all N sets": the strictest way each set supports, and pairs).

Last line: one JSON object of figures, old and new (`old_*`, `new_*`, `speed_ratio_new_over_old`).
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from technical_scoring import GoldRelation, Predicates, entity_aliases, forms, same, score, union

REPO = Path(__file__).resolve().parents[1]
GOLD = REPO / "bench" / "data" / "technical_gold.jsonl"
HELDOUT = REPO / "bench" / "data" / "technical_heldout.jsonl"
# Sets to be scored once with the rules frozen: their extracted output is never printed (docs/technical_gold.md;
# the first twelve held-out sets were, and have been read since).
NEVER_SHOWN: frozenset[str] = frozenset({"technical_heldout13"})
DEFAULT_BASE = "1909190"  # main before the third issue-31 session (precision, honest scoring)
_CODE_SHAPE = re.compile(
    r"^(?:[\w$]+(?:\.[\w$]+)+(?:\(.*\))?|[\w.$]+\(.*\)|[a-z]+[A-Z]\w*|\w*_\w+|--?[a-z][\w-]*|[A-Z][a-z]+[A-Z]\w*)$")
_INLINE_CODE = re.compile(r"`([^`\n]+)`")


# ---------------------------------------------------------------- corpus


def corpus_files(workdir: Path) -> list[Path]:
    """Node.js manual, pip docs, Markdown package descriptions (written out without their headers)."""
    files = sorted(Path("/usr/share/doc/nodejs/api").glob("*.md"))
    files += sorted(Path(p) for p in glob.glob("/usr/share/doc/python3-pip/html/**/*.md", recursive=True))
    site = Path(sysconfig.get_paths()["purelib"])
    readmes = workdir / "readmes"
    readmes.mkdir(exist_ok=True)
    for meta in sorted(site.glob("*.dist-info/METADATA")):
        text = meta.read_text(encoding="utf-8", errors="replace")
        head, _, body = text.partition("\n\n")
        if "Description-Content-Type: text/markdown" not in head or len(body) < 2000:
            continue
        out = readmes / f"{meta.parent.name.split('-')[0]}.md"
        out.write_text(body, encoding="utf-8")
        files.append(out)
    if not files:
        sys.exit("no technical Markdown found (/usr/share/doc/nodejs, pip docs, site-packages METADATA)")
    return files


def gold_docs(workdir: Path, name: str, gold: list[dict[str, Any]]) -> list[Path]:
    """One Markdown file per labelled passage: its heading path, then the passage as in its source."""
    folder = workdir / "gold" / name
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for record in gold:
        lines = [f"{'#' * (depth + 1)} {heading}\n" for depth, heading in enumerate(record["section"])]
        path = folder / f"{record['id']}.md"
        path.write_text("\n".join([*lines, record["text"], ""]), encoding="utf-8")
        paths.append(path)
    return paths


# ---------------------------------------------------------------- extraction (runs in the subprocess)


def build_chunks(paths: list[Path], max_chunks: int, per_doc: int) -> tuple[list[Any], dict[str, Any]]:
    """The first `per_doc` chunks of each document, until `max_chunks`: every kind of page is sampled."""
    from kgbuild.config import ChunkingConfig
    from kgbuild.ingest.chunking import Chunker
    from kgbuild.ingest.readers import ReadProblem, read_sources

    chunker = Chunker(ChunkingConfig())
    chunks: list[Any] = []
    docs: dict[str, Any] = {}
    for item in read_sources(paths):
        if isinstance(item, ReadProblem):
            print(f"skipped {item}", file=sys.stderr)
            continue
        docs[item.id] = item
        chunks.extend(chunker.chunk(item).chunks[:per_doc])
        if len(chunks) >= max_chunks:
            break
    return chunks[:max_chunks], docs


def extract_only(args: argparse.Namespace) -> None:
    import kgbuild

    root = Path(args.root).resolve()
    where = Path(kgbuild.__file__).resolve()
    if root not in where.parents:
        sys.exit(f"[{args.label}] expected kgbuild under {root}, got {where}: check PYTHONPATH")
    print(f"[{args.label}] kgbuild from {where}", file=sys.stderr)
    from kgbuild.extract.offline import OfflineExtractor
    from kgbuild.schema import resolve_schema

    schema = resolve_schema("open_domain")
    extractor = OfflineExtractor(schema)
    extractor.load()
    workdir = Path(args.workdir)
    corpus, _ = build_chunks(corpus_files(workdir), args.max_chunks, args.per_doc)
    extractor.extract(corpus[:20])  # warm-up
    start = time.process_time()
    results = extractor.extract(corpus)
    seconds = time.process_time() - start

    def is_a(cls: str, *names: str) -> bool:
        return any(schema.is_a(cls, n) for n in names if schema.resolve_class(n))

    headings = {h.lower() for c in corpus for h in c.section}
    headings |= {_INLINE_CODE.sub(r"\1", h).lower() for c in corpus for h in c.section}
    code_names = {m.lower() for c in corpus for m in _INLINE_CODE.findall(c.text)}
    entities: dict[str, Any] = {}
    relations: set[str] = set()
    drops: Counter[str] = Counter()
    for result in results:
        for e in result.entities:
            entities.setdefault(e.id, e)
        relations.update(r.id for r in result.relations)
        drops.update(d.reason.value for d in result.drops)
    ents = list(entities.values())
    person_org = [e for e in ents if is_a(e.spg_class, "Person", "Organization")]
    heading_like = [e for e in ents if e.name.lower() in headings]
    code_like = [e for e in ents if e.name.lower() in code_names or _CODE_SHAPE.match(e.name)]
    code_bad = [e for e in code_like if is_a(e.spg_class, "Person", "Organization", "GeographicLocation")]
    classes = Counter(e.spg_class for e in ents)
    corpus_figures = {
        "chunks": len(corpus),
        "chunks_per_s": len(corpus) / seconds if seconds else None,
        "entities": len(ents),
        "relations": len(relations),
        "relations_per_entity": len(relations) / len(ents) if ents else None,
        "share_person_org": len(person_org) / len(ents) if ents else None,
        "share_heading": len(heading_like) / len(ents) if ents else None,
        "code_like_entities": len(code_like),
        "code_like_person_org_place": len(code_bad),
        "person_org_heading_or_code_share": (
            sum(1 for e in person_org if e.name.lower() in headings or e in code_like) / len(person_org)
            if person_org else None),
        "pronoun_unresolved_drops": drops.get("pronoun unresolved", 0),
        "drops": dict(drops.most_common()),
        "classes": dict(classes.most_common(12)),
        "sample_person_org": sorted(e.name for e in person_org)[:: max(1, len(person_org) // 15)][:15],
        "sample_code_bad": sorted(e.name for e in code_bad)[:10],
    }
    sets: dict[str, Any] = {}
    for gold_file in args.gold:
        gold = load_gold(gold_file)
        chunks, docs = build_chunks(gold_docs(workdir, Path(gold_file).stem, gold), 10**9, 10**9)
        by_doc: dict[str, list[Any]] = {}
        for chunk, result in zip(chunks, extractor.extract(chunks), strict=True):
            by_doc.setdefault(chunk.doc_id, []).append(result)
        passages = {}
        for doc_id, doc_results in by_doc.items():
            names = {e.id: e for r in doc_results for e in r.entities}
            passages[Path(docs[doc_id].source).name] = {
                "entities": [{"name": e.name, "class": e.spg_class,
                              "ancestors": [e.spg_class, *schema.ancestors(e.spg_class)]} for e in names.values()],
                "relations": [[r.subject.name, r.predicate, r.object.name] for x in doc_results for r in x.relations],
            }
        sets[gold_file] = passages
    Path(args.out).write_text(json.dumps({"corpus": corpus_figures, "gold": sets}), encoding="utf-8")


# ---------------------------------------------------------------- scoring (runs here)


def load_gold(path: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]


def show(gold: list[dict[str, Any]], extracted: dict[str, Any], predicates: Predicates, dev_only: bool) -> None:
    """The new code's entities and relations, marked against the labels (`dev_only`: even line index only)."""
    for index, record in enumerate(gold):
        if dev_only and index % 2:
            continue
        ex = extracted.get(f"{record['id']}.md", {"entities": [], "relations": []})
        aliases = entity_aliases(record)
        gold_ents = [aliases[next(iter(forms(e["name"])))] for e in record["entities"]]
        rels = [GoldRelation(r, aliases) for r in record["relations"]]
        print(f"-- {record['id']}")
        for e in ex["entities"]:
            mark = "ok" if any(same(e["name"], names) for names in gold_ents) else "??"
            print(f"   {mark} {e['name']} [{e['class']}]")
        missed = [e["name"] for e, names in zip(record["entities"], gold_ents, strict=True)
                  if not any(same(x["name"], names) for x in ex["entities"])]
        print(f"   missed: {missed}")
        for s, p, o in ex["relations"]:
            mark = ("ok" if any(g.strict(s, p, o, predicates) for g in rels) else
                    "dir" if any(g.directed(s, p, o) for g in rels) else "??")
            print(f"   rel {mark} ({s}, {p}, {o})")
        print(f"   gold rels: {[(r['s'], r.get('p', '-'), r['o']) for r in record['relations']]}")


def run_side(label: str, root: Path, args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    out = workdir / f"{label}.json"
    env = {**os.environ, "PYTHONPATH": str(root)}
    cmd = [sys.executable, str(Path(__file__).resolve()), "--extract-only", str(out), "--label", label,
           "--root", str(root), "--workdir", str(workdir), "--gold", *[str(Path(g).resolve()) for g in args.gold],
           "--max-chunks", str(args.max_chunks), "--per-doc", str(args.per_doc)]
    subprocess.run(cmd, check=True, env=env, cwd=str(root))
    result: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default=DEFAULT_BASE)
    parser.add_argument("--no-base", action="store_true")
    parser.add_argument("--max-chunks", type=int, default=2000)
    parser.add_argument("--per-doc", type=int, default=15)
    parser.add_argument("--gold", nargs="+", default=[str(GOLD), str(HELDOUT)],
                        help="labelled sets, each scored on its own (default: the first set, the first held-out set)")
    parser.add_argument("--rounds", type=int, default=2, help="old/new alternations; the fastest of each is kept")
    parser.add_argument("--extract-only")
    parser.add_argument("--label", default="new")
    parser.add_argument("--root", default=str(REPO))
    parser.add_argument("--workdir")
    parser.add_argument("--show-dev", action="store_true", help="print the new code's output on the dev half")
    parser.add_argument("--show", action="store_true",
                        help="print the new code's output on every set scored, except the ones held out (NEVER_SHOWN)")
    args = parser.parse_args()
    if args.extract_only:
        args.out = args.extract_only
        extract_only(args)
        return
    if not args.extract_only:
        args.gold = [str(Path(g).resolve()) for g in args.gold]
    workdir = Path(tempfile.mkdtemp(prefix="technical_text_"))
    sides: dict[str, dict[str, Any]] = {}
    base_tree = workdir / "base"
    try:
        roots = {"new": REPO}
        if not args.no_base:
            subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", str(base_tree), args.base],
                           check=True, capture_output=True)
            roots = {"old": base_tree, "new": REPO}
        # Old and new alternate, `--rounds` times; each side's fastest round is its speed (a shared
        # machine's load drifts over minutes: the best round is the one least disturbed).
        for round_no in range(args.rounds):
            for side, root in roots.items():
                folder = workdir / f"{side}{round_no}"
                folder.mkdir()
                result = run_side(side, root, args, folder)
                if side in sides:
                    best = max(sides[side]["corpus"]["chunks_per_s"] or 0, result["corpus"]["chunks_per_s"] or 0)
                    result["corpus"]["chunks_per_s"] = best
                sides[side] = result
    finally:
        if base_tree.exists():
            subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(base_tree)], check=False)
        shutil.rmtree(workdir, ignore_errors=True)
    figures: dict[str, Any] = {}
    keys = ("chunks", "chunks_per_s", "entities", "relations", "relations_per_entity", "share_person_org",
            "share_heading", "code_like_entities", "code_like_person_org_place", "person_org_heading_or_code_share",
            "pronoun_unresolved_drops")
    print(f"{'corpus figure':34} " + " ".join(f"{side:>12}" for side in sides))
    for key in keys:
        row = [sides[s]["corpus"][key] for s in sides]
        print(f"{key:34} " + " ".join(f"{v:>12.3f}" if isinstance(v, float) else f"{v!s:>12}" for v in row))
        for side, value in zip(sides, row, strict=True):
            figures[f"{side}_{key}"] = round(value, 4) if isinstance(value, float) else value
    for side in sides:
        print(f"[{side}] classes: {sides[side]['corpus']['classes']}")
        print(f"[{side}] drops: {sides[side]['corpus']['drops']}")
        print(f"[{side}] sample Person/Organization: {sides[side]['corpus']['sample_person_org']}")
        print(f"[{side}] code-like typed Person/Organization/place: {sides[side]['corpus']['sample_code_bad']}")
    predicates = Predicates()
    whole: dict[str, list[dict[str, Any]]] = {side: [] for side in sides}
    for gold_file in args.gold:
        gold = load_gold(gold_file)
        name = Path(gold_file).stem
        halves: tuple[str | None, ...] = (None, "dev", "test") if name == GOLD.stem else (None,)
        for half in halves:
            label = f"{name}{'' if half is None else ' ' + half + ' half'}"
            scored = {side: score(gold, sides[side]["gold"][gold_file], predicates, half) for side in sides}
            count = len(gold) if half is None else len(gold[(half == "test"):: 2])
            print(f"\n{label + ' (' + str(count) + ' passages)':48} " + " ".join(f"{s:>10}" for s in sides))
            for key in scored["new"]:
                print(f"{key:48} " + " ".join(f"{scored[s][key]!s:>10}" for s in sides))
                for side in sides:
                    figures[f"{side}_{name}{'' if half is None else '_' + half}_{key}"] = scored[side][key]
        if (args.show_dev and name == GOLD.stem) or (args.show and name not in NEVER_SHOWN):
            show(gold, sides["new"]["gold"][gold_file], predicates, dev_only=not args.show)
        for side in sides:
            whole[side].append(score(gold, sides[side]["gold"][gold_file], predicates))
    if len(args.gold) > 1:
        # All the sets together: relations by the strictest way each set supports, and by unordered pairs.
        for way, label in ((None, "strictest"), ("pair", "pair")):
            added = {side: union(whole[side], way) for side in sides}
            print(f"\n{'all ' + str(len(args.gold)) + ' sets, ' + label:48} " + " ".join(f"{s:>10}" for s in sides))
            for key in added["new"]:
                print(f"{key:48} " + " ".join(f"{added[s][key]!s:>10}" for s in sides))
                for side in sides:
                    figures[f"{side}_all_{label}_{key}"] = added[side][key]
    if "old" in sides and figures.get("old_chunks_per_s"):
        figures["speed_ratio_new_over_old"] = round(figures["new_chunks_per_s"] / figures["old_chunks_per_s"], 3)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
