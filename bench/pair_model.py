"""Would a learned step after the English rules add relations on writers it never saw? A classifier over the pairs
of names no rule related, trained on some gold sets and scored on another (leave one set out).

Run from the repo root: `python bench/pair_model.py [--sets NAME ...] [--c 0.5] [--target 0.8] [--fresh NAME ...]`.
Measured in the fifteenth session and left out of the extractor (docs/offline_extraction.md, "A learned pair step");
kept so the question can be asked again as gold sets grow.

1. The rules (OfflineExtractor, the default open_domain schema, as bench/extract_quality.py runs it) read every
   passage of the English gold sets; each chunk's candidate pairs (kgbuild/extract/pair_features.py) are kept with
   their features.
2. A candidate (a, b) is labelled from its passage's gold facts (relation, date and value kinds) with
   bench/extract_quality.py's name matching: the first fact whose subject is a and whose object is b (or either
   way round for a symmetric fact) gives the label, the first content lemma of the fact's predicate (the
   scorer's predicate key); no such fact: "none". Labels with fewer than `--min-label` rows in the training
   sets are left out of training. A label's text is the gold predicate written most often for it.
3. Leave one set out: each set is scored with a model trained on every other set (its writer's text never
   seen), the rules alone against the rules plus the model, with extract_quality's scorer (fact recall, triple
   precision). The threshold is chosen on the training sets only: a two-way split of them by set, each half
   predicted by a model trained on the other; the lowest threshold at which the added triples are at least
   `--target` precise (default 0.8).
4. `--fresh NAME ...`: sets outside `--sets`, each scored once by the model trained on all of `--sets` (threshold
   chosen the same way); only summary lines are printed.
5. `--silver`: instead of gold labels, the rules' own output on the shared HotpotQA and 2Wiki corpora (every
   passage whose title is in no English gold set): a pair the rules joined is labelled with the first content
   lemma of their predicate (labels with at least 20 rows), a pair they did not join "none" (a seeded 30 % of
   them, to keep the fit small; a pair joined the other way is left out). Such a model never sees a gold label,
   so every gold set is held out: it is scored on the odd-numbered sets and on the even-numbered ones, at fixed
   thresholds. Takes about 15 minutes on two cores.

Prints one line per set and a pooled line; last line one JSON object.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from extract_quality import (  # bench/ is on the path: these scripts run as `python bench/NAME.py`
    Fact,
    Passage,
    Scorer,
    dump,
    figures,
    make_chunk,
    norm_name,
    read_gold,
    score_side,
    tally,
    triple_correct,
    value_match,
)
from sparse_fit import fit

from kgbuild.extract.linear_model import SparseLinearModel

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "bench" / "data"
SILVER_THRESHOLDS = (0.5, 0.6, 0.7, 0.8, 0.9)
# Every English set that has been scored once (the fresh ones join after their first scoring).
SETS = ("en_extract_gold", *(f"en_extract_heldout{n}" for n in range(2, 15)))
NONE = "none"
THRESHOLDS = tuple(round(0.25 + 0.05 * k, 2) for k in range(15))  # 0.25 .. 0.95


@dataclass
class Row:
    set_name: str
    passage: str
    subject: str
    obj: str
    features: tuple[str, ...]
    label: str
    fact_p: str


def extract(sets: Sequence[str]) -> tuple[dict[str, list[Passage]], dict[str, dict[str, Any]], list[Row]]:
    from kgbuild.extract.offline import OfflineExtractor
    from kgbuild.schema import resolve_schema

    extractor = OfflineExtractor(resolve_schema("open_domain"))
    scorer = Scorer()
    passages: dict[str, list[Passage]] = {}
    dumps: dict[str, dict[str, Any]] = {}
    rows: list[Row] = []
    for name in sets:
        records = read_gold(DATA / f"{name}.jsonl")
        passages[name] = [Passage(r, i) for i, r in enumerate(records)]
        chunks = [make_chunk(r["id"], r.get("title") or "", r["text"]) for r in records]
        for passage, (result, pairs) in zip(passages[name], extractor.extract_with_pairs(chunks), strict=True):
            dumps[passage.record["id"]] = dump(result)
            facts = [Fact(passage, raw) for raw in passage.record.get("facts") or []]
            for cand in pairs:
                if cand.rule is not None or cand.reverse:
                    continue  # the model is for what the rules did not say
                fact = gold_fact(passage, facts, cand.subject.name, cand.object.name)
                label = scorer.first_lemma(fact.raw["p"]) if fact else NONE
                rows.append(Row(name, passage.record["id"], cand.subject.name, cand.object.name, cand.features,
                                label or NONE, str(fact.raw["p"]) if fact else ""))
    return passages, dumps, rows


def gold_fact(passage: Passage, facts: Sequence[Fact], subject: str, obj: str) -> Fact | None:
    for fact in facts:
        if fact.kind not in ("relation", "date", "value"):
            continue
        date = fact.kind == "date"
        if norm_name(subject) in fact.s and value_match(passage, obj, fact.o_names, date):
            return fact
        if fact.sym and norm_name(obj) in fact.s and value_match(passage, subject, fact.o_names, date):
            return fact
    return None


def train(rows: Sequence[Row], c: float, min_label: int, threshold: float) -> SparseLinearModel:
    counts = Counter(r.label for r in rows)
    kept = [r for r in rows if r.label == NONE or counts[r.label] >= min_label]
    texts: dict[str, Counter[str]] = defaultdict(Counter)
    for r in kept:
        if r.label != NONE:
            texts[r.label][r.fact_p.strip().lower()] += 1
    return fit([r.features for r in kept], [r.label for r in kept], NONE, c=c, threshold=threshold,
               texts={label: c_.most_common(1)[0][0] for label, c_ in texts.items()},
               meta={"sets": sorted({r.set_name for r in rows})})


def predictions(model: SparseLinearModel, rows: Sequence[Row]) -> dict[str, list[tuple[float, Row, str]]]:
    """Per passage, the model's best reading of each unordered pair that it labels a relation (any probability)."""
    best: dict[tuple[str, frozenset[str]], tuple[float, Row, str]] = {}
    for r in rows:
        pred = model.predict(r.features)
        if pred.label == NONE:
            continue
        key = (r.passage, frozenset((r.subject, r.obj)))
        if key not in best or pred.probability > best[key][0]:
            best[key] = (pred.probability, r, pred.label)
    out: dict[str, list[tuple[float, Row, str]]] = defaultdict(list)
    for (passage, _), value in best.items():
        out[passage].append(value)
    return out


def with_model(dumps: dict[str, dict[str, Any]], preds: dict[str, list[tuple[float, Row, str]]],
               model: SparseLinearModel, threshold: float) -> dict[str, Any]:
    out = {}
    for pid, ex in dumps.items():
        added = [{"id": f"pair{k}", "s": r.subject, "p": model.texts.get(label, label), "o": r.obj}
                 for k, (p, r, label) in enumerate(preds.get(pid, [])) if p >= threshold]
        out[pid] = {**ex, "relations": [*ex["relations"], *added]}
    return {"passages": out}


def added_precision(scorer: Scorer, passages: Sequence[Passage], dumps: dict[str, dict[str, Any]],
                    preds: dict[str, list[tuple[float, Row, str]]],
                    model: SparseLinearModel) -> dict[float, tuple[int, int]]:
    """threshold -> (added triples correct, added triples) over the passages."""
    judged: list[tuple[float, bool]] = []
    for passage in passages:
        facts = [Fact(passage, raw) for raw in passage.record.get("facts") or []]
        for p, r, label in preds.get(passage.record["id"], []):
            triple = {"s": r.subject, "p": model.texts.get(label, label), "o": r.obj}
            judged.append((p, triple_correct(scorer, triple, facts)))
    return {t: (sum(ok for p, ok in judged if p >= t), sum(1 for p, _ in judged if p >= t)) for t in THRESHOLDS}


def choose_threshold(scorer: Scorer, sets: Sequence[str], passages: dict[str, list[Passage]],
                     dumps: dict[str, dict[str, Any]], rows: Sequence[Row], args: argparse.Namespace) -> float:
    """Two halves of `sets`, each predicted by a model trained on the other; the lowest threshold whose added
    triples reach the target precision over both halves (the highest threshold when none does)."""
    halves = (sets[0::2], sets[1::2])
    totals: Counter[float] = Counter()
    counts: Counter[float] = Counter()
    for train_sets, test_sets in (halves, halves[::-1]):
        model = train([r for r in rows if r.set_name in train_sets], args.c, args.min_label, 0.5)
        test_rows = [r for r in rows if r.set_name in test_sets]
        test_passages = [p for s in test_sets for p in passages[s]]
        for t, (ok, n) in added_precision(scorer, test_passages, dumps, predictions(model, test_rows), model).items():
            totals[t] += ok
            counts[t] += n
    for t in THRESHOLDS:
        if counts[t] and totals[t] / counts[t] >= args.target:
            return t
    return THRESHOLDS[-1]


def score(scorer: Scorer, passages: Sequence[Passage], extracted: dict[str, Any]) -> Counter[str]:
    return tally(score_side(scorer, passages, extracted))


def record(out: dict[str, Any], prefix: str, rules: dict[str, Any], model: dict[str, Any]) -> None:
    """The four figures of one scoring (extract_quality's `figures`, rules alone and with the model) into `out`."""
    for side, fig in (("rules", rules), ("model", model)):
        out[f"{prefix}_{side}_fact_recall"] = fig["fact recall"][0]
        out[f"{prefix}_{side}_triple_precision"] = fig["triple precision"][0]


def silver_rows(corpora: Sequence[Path], seed: int = 0, keep_none: float = 0.3) -> list[Row]:
    """Rows labelled by the rules' own triples over the corpora's passages outside every English gold set."""
    import random

    from kgbuild.extract.offline import OfflineExtractor
    from kgbuild.schema import resolve_schema

    gold_titles = {str(r.get("title") or "") for f in DATA.glob("en_extract_*.jsonl") for r in read_gold(f)}
    chunks = []
    for corpus in corpora:
        data = json.loads(corpus.read_text(encoding="utf-8"))
        items = data.items() if isinstance(data, dict) else ((r["title"], r["text"]) for r in data)
        for title, text in items:
            if title not in gold_titles:
                chunks.append(make_chunk(title, title, text if isinstance(text, str) else "".join(text)))
    scorer = Scorer()
    draw = random.Random(seed)
    rows: list[Row] = []
    extractor = OfflineExtractor(resolve_schema("open_domain"))
    for offset in range(0, len(chunks), 256):
        for (_, pairs), chunk in zip(extractor.extract_with_pairs(chunks[offset:offset + 256]),
                                     chunks[offset:offset + 256], strict=True):
            for cand in pairs:
                if cand.rule is None and (cand.reverse or draw.random() >= keep_none):
                    continue
                label = (scorer.first_lemma(cand.rule) or NONE) if cand.rule else NONE
                rows.append(Row("silver", chunk.id, cand.subject.name, cand.object.name, cand.features, label,
                                cand.rule or ""))
        print(f"  silver: {min(offset + 256, len(chunks))}/{len(chunks)} passages, {len(rows)} rows", flush=True)
    return rows


def silver(args: argparse.Namespace, out: dict[str, Any]) -> None:
    from shared_data import shared_data

    started = time.perf_counter()
    rows = silver_rows([shared_data() / "hotpotqa" / "train_corpus.json", shared_data() / "2wiki" / "corpus.json"])
    print(f"{len(rows)} silver rows, {sum(r.label != NONE for r in rows)} joined by a rule "
          f"({time.perf_counter() - started:.0f} s)", flush=True)
    model = train(rows, args.c, 20, 0.5)
    print(f"fitted: {len(model.labels) - 1} labels, {len(model.weights)} features "
          f"({time.perf_counter() - started:.0f} s)", flush=True)
    passages, dumps, gold_rows = extract(args.sets)
    scorer = Scorer()
    preds = predictions(model, gold_rows)
    halves = {}
    for half, sets in (("odd", args.sets[1::2]), ("even", args.sets[0::2])):
        held = [p for s in sets for p in passages[s]]
        held_dumps = {p.record["id"]: dumps[p.record["id"]] for p in held}
        halves[half] = (held, held_dumps, figures(score(scorer, held, {"passages": held_dumps})))
    for threshold in SILVER_THRESHOLDS:
        line = []
        for half, (held, held_dumps, fr) in halves.items():
            fm = figures(score(scorer, held, with_model(held_dumps, preds, model, threshold)))
            line.append(f"{half} sets: recall {fr['fact recall'][1]} -> {fm['fact recall'][1]}, precision "
                        f"{fr['triple precision'][1]} -> {fm['triple precision'][1]}")
            record(out, f"silver_{threshold}_{half}", fr, fm)
        print(f"threshold {threshold}: " + "; ".join(line), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", nargs="+", default=list(SETS))
    parser.add_argument("--c", type=float, default=0.5, help="inverse L2 strength (default %(default)s)")
    parser.add_argument("--min-label", type=int, default=5)
    parser.add_argument("--target", type=float, default=0.8, help="added-triple precision the threshold aims at")
    parser.add_argument("--no-folds", action="store_true", help="skip the leave-one-set-out scoring")
    parser.add_argument("--fresh", nargs="*", default=[], metavar="NAME",
                        help="sets outside --sets scored once by the model trained on all of --sets (summary only)")
    parser.add_argument("--silver", action="store_true", help="train on the rules' own output instead (see 5.)")
    args = parser.parse_args()
    started = time.perf_counter()
    if args.silver:
        out: dict[str, Any] = {"sets": len(args.sets), "silver": True}
        silver(args, out)
        out["run_s"] = round(time.perf_counter() - started, 1)
        print(json.dumps(out))
        return
    passages, dumps, rows = extract(args.sets)
    positives = sum(r.label != NONE for r in rows)
    print(f"{len(rows)} candidate pairs over {sum(len(p) for p in passages.values())} passages of "
          f"{len(args.sets)} sets, {positives} labelled with a gold fact "
          f"({time.perf_counter() - started:.0f} s)", flush=True)
    scorer = Scorer()
    out = {"sets": len(args.sets), "candidate_pairs": len(rows), "labelled_pairs": positives}
    pooled: dict[str, Counter[str]] = {"rules": Counter(), "model": Counter()}
    if not args.no_folds:
        print(f"{'held-out set':24} {'threshold':>9} {'rules recall':>13} {'+model recall':>14} "
              f"{'rules P':>8} {'+model P':>9} {'added':>6} {'right':>6}")
        for held in args.sets:
            others = [s for s in args.sets if s != held]
            training = [r for r in rows if r.set_name != held]
            threshold = choose_threshold(scorer, others, passages, dumps, training, args)
            model = train(training, args.c, args.min_label, threshold)
            held_rows = [r for r in rows if r.set_name == held]
            preds = predictions(model, held_rows)
            held_dumps = {p.record["id"]: dumps[p.record["id"]] for p in passages[held]}
            rules = score(scorer, passages[held], {"passages": held_dumps})
            both = score(scorer, passages[held], with_model(held_dumps, preds, model, threshold))
            pooled["rules"] += rules
            pooled["model"] += both
            ok, n = added_precision(scorer, passages[held], held_dumps, preds, model)[threshold]
            fr, fm = figures(rules), figures(both)
            print(f"{held:24} {threshold:>9.2f} {fr['fact recall'][0]:>13.3f} {fm['fact recall'][0]:>14.3f} "
                  f"{fr['triple precision'][0]:>8.3f} {fm['triple precision'][0]:>9.3f} {n:>6} {ok:>6}", flush=True)
            record(out, held, fr, fm)
        fr, fm = figures(pooled["rules"]), figures(pooled["model"])
        print(f"{'pooled':24} {'':>9} {fr['fact recall'][0]:>13.3f} {fm['fact recall'][0]:>14.3f} "
              f"{fr['triple precision'][0]:>8.3f} {fm['triple precision'][0]:>9.3f}")
        record(out, "pooled", fr, fm)
    if args.fresh:
        threshold = choose_threshold(scorer, args.sets, passages, dumps, rows, args)
        model = train(rows, args.c, args.min_label, threshold)
        fresh_passages, fresh_dumps, fresh_rows = extract(args.fresh)
        for name in args.fresh:
            held_dumps = {p.record["id"]: fresh_dumps[p.record["id"]] for p in fresh_passages[name]}
            preds = predictions(model, [r for r in fresh_rows if r.set_name == name])
            fr = figures(score(scorer, fresh_passages[name], {"passages": held_dumps}))
            fm = figures(score(scorer, fresh_passages[name], with_model(held_dumps, preds, model, threshold)))
            print(f"fresh {name} (threshold {threshold}): fact recall {fr['fact recall'][1]} -> "
                  f"{fm['fact recall'][1]}, triple precision {fr['triple precision'][1]} -> "
                  f"{fm['triple precision'][1]}")
            record(out, f"fresh_{name}", fr, fm)
    out["run_s"] = round(time.perf_counter() - started, 1)
    print(json.dumps(out))


if __name__ == "__main__":
    sys.exit(main())
