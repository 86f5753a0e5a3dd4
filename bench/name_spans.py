"""Are multi-word names kept whole? A self-supervised check on text nobody labelled, old code and new in one run.

Run from the repo root: `python bench/name_spans.py [--base main | --no-base] [--per-corpus 250] [--seed 23]`.

Wikipedia-style passages (HotpotQA's `train_corpus.json`, 2Wiki's `corpus.json`) open with their own
title, and many titles are multi-word names with a function word inside or a leading article
("Government Code and Cypher School", "On Body and Soul", "The Man in the Funny Suit"). So the title is
a free label for one name in the passage. For each corpus this script takes, with a fixed seed,
`--per-corpus` passages whose title (minus a parenthesised disambiguator such as "(1927 film)")

- has at least two words, no comma ("Lima, Wisconsin" is a place and its region, not one name), and a
  lower-case function word inside (of/and/for/the/in/on/at/to/de/...) or a leading "The"/"A"/"An",
- occurs verbatim in the passage text,

runs `OfflineExtractor` over each passage as a chunk with NO title (section empty, a doc id with a "/"),
so the extractor must find the name from the text alone (given the title it would be told the name),
and sorts each passage by the entities it made:

- `whole`: an entity (name or alias) equals the title (case and a leading article ignored);
- `split`: no whole one, but an entity's name is a strict contiguous sub-span of the title's words;
- `missed`: neither (nothing, or only longer names that contain it).

Old code: a detached `git worktree` of `--base` (default main), run in a subprocess with PYTHONPATH on it;
new code: this working tree. Prints per corpus and side the counts, then the titles split by the new
code and not the old and the other way round (this is unlabelled public text; it is not the extraction
gold set). Last line: one JSON object of figures.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from shared_data import shared_data  # bench/ is on the path: these scripts run as `python bench/NAME.py`

REPO = Path(__file__).resolve().parents[1]
_DISAMBIGUATOR = re.compile(r"\s*\([^)]*\)\s*$")
_INNER_WORDS = frozenset({"of", "and", "for", "the", "in", "on", "at", "to", "de", "du", "des", "del", "della",
                          "di", "da", "von", "van", "with", "from", "&"})
_ARTICLES = ("the ", "a ", "an ")
_WORD = re.compile(r"\w+(?:[-'’]\w+)*|&")


def clean_title(title: str) -> str:
    return " ".join(_DISAMBIGUATOR.sub("", title).split())


def eligible(title: str, text: str) -> bool:
    return name_shaped(title) and title in text


def load_corpus(name: str, path: Path) -> list[tuple[str, str]]:
    """(title, text) pairs in file order."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if name == "hotpotqa":
        return [(t, "".join(sentences).strip()) for t, sentences in data.items()]
    return [(row["title"], row["text"]) for row in data]


def name_shaped(title: str) -> bool:
    """A title worth checking: two words or more, no comma, a function word inside or a leading article."""
    words = title.split()
    if len(words) < 2 or "," in title:
        return False
    return words[0] in ("The", "A", "An") or any(w in _INNER_WORDS for w in words[1:-1])


def sample(name: str, path: Path, n: int, seed: int) -> list[dict[str, Any]]:
    """Passages whose own title opens them ("opening"), and passages naming another article's title after
    their start ("inside": running text, "... directed by Stewart Raffill, following Conquest of the
    Planet of the Apes"), each kind sampled with `seed`."""
    pairs = [(clean_title(raw), text) for raw, text in load_corpus(name, path)]
    opening = {title: {"corpus": name, "kind": "opening", "names": [title], "text": text}
               for title, text in pairs if eligible(title, text)}  # distinct titles: 2Wiki repeats some
    others = {t for t, _ in pairs if name_shaped(t) and sum(w.lower() not in _INNER_WORDS for w in t.split()) >= 2}
    patterns = {t: re.compile(rf"(?<!\w){re.escape(t)}(?!\w)") for t in others}
    inside = []
    for title, text in pairs:
        found = [t for t, pattern in patterns.items()
                 if t != title and t in text and any(m.start() > 0 for m in pattern.finditer(text))]
        if found:
            inside.append({"corpus": name, "kind": "inside", "names": sorted(found), "text": text})
    rng = random.Random(seed)
    chosen = rng.sample(list(opening.values()), min(n, len(opening)))
    return chosen + rng.sample(inside, min(n, len(inside)))


def norm(name: str) -> str:
    name = " ".join(name.replace("\u201c", '"').replace("\u201d", '"').strip(" \"'*").split()).lower()
    for article in _ARTICLES:
        if name.startswith(article):
            return name[len(article):]
    return name


def words(name: str) -> list[str]:
    return _WORD.findall(norm(name))


def verdict(title: str, entities: list[dict[str, Any]]) -> str:
    whole = norm(title)
    if any(norm(n) == whole for e in entities for n in [e["name"], *e["aliases"]]):
        return "whole"
    title_words = words(title)
    for e in entities:
        part = words(e["name"])
        if 0 < len(part) < len(title_words) and any(title_words[i : i + len(part)] == part
                                                    for i in range(len(title_words) - len(part) + 1)):
            return "split"
    return "missed"


# ---------------------------------------------------------------- extraction (runs in the subprocess)


def extract_only(items_path: Path, out: Path, root: Path) -> None:
    import kgbuild

    where = Path(kgbuild.__file__).resolve()
    if root not in where.parents:
        sys.exit(f"expected kgbuild under {root}, got {where}: check PYTHONPATH")
    from kgbuild.extract.offline import OfflineExtractor
    from kgbuild.model import Chunk
    from kgbuild.schema import resolve_schema

    items = json.loads(items_path.read_text(encoding="utf-8"))
    extractor = OfflineExtractor(resolve_schema("open_domain"))
    extractor.load()
    chunks = [Chunk(id=f"name_spans/{i:05d}#p00000#0", doc_id=f"name_spans/{i:05d}", text=item["text"], section=[],
                    order=0, paragraph_start=0, paragraph_end=0, token_count=len(item["text"].split()),
                    content_hash=f"{i:016x}") for i, item in enumerate(items)]
    started = time.perf_counter()
    results = extractor.extract(chunks)
    seconds = time.perf_counter() - started
    ents = [[{"name": e.name, "aliases": list(e.aliases)} for e in r.entities] for r in results]
    out.write_text(json.dumps({"version": getattr(extractor, "version", ""), "seconds": round(seconds, 2),
                               "entities": ents}, ensure_ascii=False), encoding="utf-8")


def git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(REPO), *args], check=True, capture_output=True, text=True).stdout.strip()


def run_side(root: Path, items: Path, out: Path) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(root), os.environ.get("PYTHONPATH")) if p)}
    cmd = [sys.executable, str(Path(__file__).resolve()), "--extract-only", str(items), str(out), str(root)]
    subprocess.run(cmd, env=env, cwd=REPO, check=True)
    result: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return result


def main() -> None:
    if len(sys.argv) == 5 and sys.argv[1] == "--extract-only":
        extract_only(Path(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4]).resolve())
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default="main", help="git ref of the old code (default %(default)s)")
    parser.add_argument("--no-base", action="store_true", help="run the current code only")
    parser.add_argument("--per-corpus", type=int, default=250, help="passages per corpus (default %(default)s)")
    parser.add_argument("--seed", type=int, default=23)
    args = parser.parse_args()
    data = shared_data()
    corpora = {"hotpotqa": data / "hotpotqa" / "train_corpus.json", "2wiki": data / "2wiki" / "corpus.json"}
    items: list[dict[str, str]] = []
    for name, path in corpora.items():
        if not path.is_file():
            print(f"{name}: no corpus at {path} (set KGBUILD_SHARED_DATA); skipped")
            continue
        items += sample(name, path, args.per_corpus, args.seed)
    if not items:
        sys.exit("no passages to check")
    tmp = Path(tempfile.mkdtemp(prefix="name_spans_"))
    runs: dict[str, dict[str, Any]] = {}
    try:
        items_path = tmp / "items.json"
        items_path.write_text(json.dumps(items, ensure_ascii=False), encoding="utf-8")
        if not args.no_base:
            worktree = tmp / "base"
            git("worktree", "add", "--detach", str(worktree), args.base)
            try:
                runs["old"] = run_side(worktree, items_path, tmp / "old.json")
            finally:
                git("worktree", "remove", "--force", str(worktree))
        runs["new"] = run_side(REPO, items_path, tmp / "new.json")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    checks = [(i, name) for i, item in enumerate(items) for name in item["names"]]
    verdicts = {side: [verdict(name, run["entities"][i]) for i, name in checks] for side, run in runs.items()}
    figures: dict[str, Any] = {}
    base = git("rev-parse", "--short", args.base) if not args.no_base else None
    print(f"\n{len(items)} passages, {len(checks)} names, seed {args.seed}; "
          + (f"old = {args.base} ({base}), " if base else "")
          + f"new = working tree at {git('rev-parse', '--short', 'HEAD')}")
    print(f"{'corpus':9} {'kind':8} {'side':4} {'names':>5} {'whole':>6} {'split':>6} {'missed':>7} {'split rate':>11}")
    for corpus in [*corpora, "all"]:
        for kind in ("opening", "inside", "all"):
            idx = [k for k, (i, _) in enumerate(checks)
                   if corpus in ("all", items[i]["corpus"]) and kind in ("all", items[i]["kind"])]
            if not idx:
                continue
            for side, vs in verdicts.items():
                counts = {v: sum(1 for k in idx if vs[k] == v) for v in ("whole", "split", "missed")}
                rate = round(counts["split"] / len(idx), 4)
                print(f"{corpus:9} {kind:8} {side:4} {len(idx):5} {counts['whole']:6} {counts['split']:6} "
                      f"{counts['missed']:7} {rate:11.3f}")
                figures[f"{side}_{corpus}_{kind}_split_rate"] = rate
                figures[f"{side}_{corpus}_{kind}_whole_rate"] = round(counts["whole"] / len(idx), 4)
                figures[f"{side}_{corpus}_{kind}_names"] = len(idx)
    figures["extract_seconds"] = {side: run["seconds"] for side, run in runs.items()}
    print("extraction seconds: " + ", ".join(f"{side} {run['seconds']}" for side, run in runs.items()))
    if "old" in verdicts:
        for label, a, b in (("now whole, split before", "split", "whole"),
                            ("now split, whole before", "whole", "split")):
            changed = [f"{name} ({items[i]['kind']})" for k, (i, name) in enumerate(checks)
                       if verdicts["old"][k] == a and verdicts["new"][k] == b]
            print(f"{label} ({len(changed)}): {'; '.join(changed) or 'none'}")
    still = [f"{name} ({items[i]['kind']})" for k, (i, name) in enumerate(checks) if verdicts["new"][k] == "split"]
    print(f"split by the new code ({len(still)}): {'; '.join(still) or 'none'}")
    figures["versions"] = {side: run["version"] for side, run in runs.items()}
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
