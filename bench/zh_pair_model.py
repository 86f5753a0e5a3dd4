"""Train the Chinese pair model and score it on writers it was not trained on (leave one set out).

The rules-only Chinese extractor runs on every scored open-domain gold set of bench/zh_extract.py (open, the
report sets, held-out-3 ... held-out-17, the dev-4 ... dev-13 batches); each candidate pair it yields
(`ChineseExtractor.pair_rows`: two names of one sentence) is labelled from the set's gold relations, matched
the way bench/zh_extract.py's scorer matches (an entity's aliases, the gold's own names), as "none" or a
predicate with its direction ("worksFor>": the earlier name works for the later). The model learns from every
pair, those a rule related too (how a relation is written is the same whoever found it: fifteen times the
positive rows the unrelated pairs alone give), but it is only ever asked about, and scored on, the pairs no rule
related.

Leave one set out: for each set (one writer: a held-out file, the open set, the report sets, the dev batches
together) a model is trained on all the other sets, its threshold chosen on those sets alone (an inner
three-way split by set: the threshold whose added relations give the best F1 with precision at least
`--min-precision`, counted with the rules' own figures on those sets), and the held-out set is scored by
bench/zh_extract.py's scorer, rules only and rules + model. One line per set, a pooled line, then one JSON
object. No model is shipped (docs/chinese.md, "Pair model"): this is the measurement. Needs scikit-learn
(`make setup`).

Run from the repo root: `python bench/zh_pair_model.py [--c 0.5] [--only SET]`.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from sparse_fit import fit
from zh_extract import _FOUNDING_AS_FACT, chunk, common_words, open_sets, score_open

from kgbuild.extract.linear_model import SparseLinearModel
from kgbuild.extract.zh.extractor import ChineseExtractor
from kgbuild.extract.zh.pair_model import NONE, label_for
from kgbuild.ids import normalize_name
from kgbuild.schema import resolve_schema

SCHEMA = "open_domain"
MIN_POSITIVES = 5  # a label with fewer training rows is "none": a handful of rows teaches only those sentences
THRESHOLDS = [round(0.30 + 0.05 * i, 2) for i in range(14)]  # 0.30 ... 0.95
PRUNE = 0.05  # weights smaller than this change no decision and only slow each pair


@dataclass
class Row:
    group: str
    features: tuple[str, ...]
    label: str
    related: bool  # a rule related the pair: learnt from, never scored (the model is not asked about it)


def groups() -> dict[str, list[dict]]:
    """The sets one writer wrote, by name: the dev batches and the report splits are one writer each."""
    out: dict[str, list[dict]] = {}
    for name, paragraphs in open_sets().items():
        group = "dev-4..13" if name.startswith("dev-") else "reports" if name.startswith("reports") else name
        out.setdefault(group, []).extend(paragraphs)
    return out


def label_rows(group: str, paragraphs: Sequence[dict], extractor: ChineseExtractor) -> list[Row]:
    rows: list[Row] = []
    for i, p in enumerate(paragraphs):
        ex, candidates = extractor.pair_rows(chunk(i, p["text"]))
        canon: dict[str, str] = {}
        for e in ex.entities:
            canon[normalize_name(e.name)] = normalize_name(e.name)
            for a in e.aliases:
                canon.setdefault(normalize_name(a), normalize_name(e.name))
        gold_names = {normalize_name(a) for a, _ in p["entities"]}
        gold_canon = {canon.get(g, g): g for g in gold_names}
        gold_canon.update({g: g for g in gold_names if canon.get(g) == g})

        def key(name: str, canon: dict[str, str] = canon, gold_canon: dict[str, str] = gold_canon) -> str:
            c = canon.get(normalize_name(name), normalize_name(name))
            return gold_canon.get(c, c)

        gold = {(normalize_name(a), q, normalize_name(b)) for a, q, b in p["relations"] if q.isascii()}
        # a founding's date or place the gold writes as a qualifier: the scorer neither credits nor faults it
        unsure = {(normalize_name(a), _FOUNDING_AS_FACT[d], normalize_name(e))
                  for a, b, _, d, e in p["qualifiers"] if b == "foundedBy" and d in _FOUNDING_AS_FACT}
        for c in candidates:
            a, b = key(c.first), key(c.second)
            said = sorted([label_for(q, True) for x, q, y in gold if (x, y) == (a, b)]
                          + [label_for(q, False) for x, q, y in gold if (x, y) == (b, a)])
            if not said and any({x, y} == {a, b} for x, _, y in unsure):
                continue
            rows.append(Row(group, c.features, said[0] if said else NONE, c.related))
    return rows


def class_pair(row: Row) -> str:
    return next(f[3:] for f in row.features if f.startswith("cp="))


def train(rows: Sequence[Row], c: float, threshold: float = 0.5, meta: dict | None = None) -> SparseLinearModel:
    counts = Counter(r.label for r in rows)
    labels = [r.label if counts[r.label] >= MIN_POSITIVES else NONE for r in rows]
    texts = {label: label[:-1] for label in set(labels) if label != NONE}
    # the class pairs a relation was labelled between at least twice: the extractor asks the model about no other
    # (a date and a date, a city and a date: hardly worth the time it takes on every chunk)
    seen = Counter(class_pair(r) for r, label in zip(rows, labels, strict=True) if label != NONE)
    model = fit([r.features for r in rows], labels, NONE, c=c, min_count=2, threshold=threshold, texts=texts,
                meta={"class_pairs": sorted(p for p, n in seen.items() if n >= 2), **(meta or {})})
    weights = {f: kept for f, ws in model.weights.items() if (kept := {k: w for k, w in ws.items() if abs(w) >= PRUNE})}
    return SparseLinearModel(model.labels, model.bias, weights, threshold, model.texts, model.meta)


def added(model: SparseLinearModel, rows: Sequence[Row]) -> list[tuple[float, bool]]:
    """(probability, right) for each row the model labels other than "none"."""
    out = []
    asked = set(model.meta["class_pairs"])
    for r in rows:
        if class_pair(r) not in asked:
            continue
        best = model.predict(r.features)
        if best.label != NONE:
            out.append((best.probability, best.label == r.label))
    return out


def choose_threshold(rows: Sequence[Row], rules: dict[str, dict[str, int]], c: float, min_precision: float,
                     seed: int = 0) -> tuple[float, dict[str, float]]:
    """The threshold for a model trained on `rows`' sets, from those sets alone: three inner folds by set, each
    predicted by a model of the other two; pooled with the rules' counts of those sets (`rules`: r_tp, r_pred,
    r_gold per set), the threshold with the best F1 among those whose precision is at least `min_precision`
    (the best F1 at all when none is)."""
    names = sorted({r.group for r in rows})
    random.Random(seed).shuffle(names)
    folds = [set(names[k::3]) for k in range(3)]
    scored: list[tuple[float, bool]] = []
    for fold in folds:
        model = train([r for r in rows if r.group not in fold], c)
        scored += added(model, [r for r in rows if r.group in fold and not r.related])
    tp = sum(rules[g]["r_tp"] for g in names)
    pred = sum(rules[g]["r_pred"] for g in names)
    gold = sum(rules[g]["r_gold"] for g in names)
    best: tuple[tuple[bool, float], float, dict[str, float]] | None = None
    for t in THRESHOLDS:
        right = sum(1 for p, ok in scored if p >= t and ok)
        n = sum(1 for p, _ in scored if p >= t)
        precision, recall = (tp + right) / max(1, pred + n), (tp + right) / max(1, gold)
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        rank = (precision >= min_precision, f1)
        if best is None or rank > best[0]:
            best = (rank, t, {"p": round(precision, 3), "r": round(recall, 3), "added": n, "right": right})
    assert best is not None
    return best[1], best[2]


def counts_of(result: dict[str, object]) -> dict[str, int]:
    """Relations right, extracted and in the gold, from a `score_open(..., every=True)` result (which lists every
    false and missed relation)."""
    gold = int(result["counts"]["relations_gold"])  # type: ignore[index]
    tp = gold - len(result["sample_missed_relations"])  # type: ignore[arg-type]
    return {"r_tp": tp, "r_pred": tp + len(result["sample_false_relations"]), "r_gold": gold}  # type: ignore[arg-type]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--c", type=float, default=0.5, help="inverse regularisation strength")
    parser.add_argument("--min-precision", type=float, default=0.85)
    parser.add_argument("--only", action="append", default=[], help="leave out only these sets (quicker)")
    args = parser.parse_args()
    started = time.perf_counter()
    schema = resolve_schema(SCHEMA)
    rules_only = ChineseExtractor(schema)
    common = common_words()
    sets = groups()
    rows: list[Row] = []
    rules: dict[str, dict[str, object]] = {}
    for name, paragraphs in sets.items():
        rows += label_rows(name, paragraphs, rules_only)
        rules[name] = score_open(paragraphs, rules_only.extract, common, every=True)
    counts = {name: counts_of(result) for name, result in rules.items()}
    labels = Counter(r.label for r in rows)
    print(f"{len(rows)} candidate pairs in {len(sets)} sets, {sum(n for k, n in labels.items() if k != NONE)} "
          f"labelled with a relation: {dict(labels.most_common(12))}; {time.perf_counter() - started:.0f} s",
          file=sys.stderr)
    figures: dict[str, dict[str, object]] = {}
    pooled = Counter[str]()
    for name in sets:
        if args.only and name not in args.only:
            continue
        train_rows = [r for r in rows if r.group != name]
        threshold, inner = choose_threshold(train_rows, counts, args.c, args.min_precision)
        model = train(train_rows, args.c, threshold)
        now = score_open(sets[name], ChineseExtractor(schema, pair_model=model).extract, common, every=True)
        before = rules[name]
        figures[name] = {"threshold": threshold, "inner": inner, "rules": before["relations"],
                         "model": now["relations"], "rules_rel_per_entity": before["relations_per_entity"],
                         "model_rel_per_entity": now["relations_per_entity"]}
        for tag, result in (("rules", before), ("model", now)):
            for k, v in counts_of(result).items():
                pooled[f"{tag}_{k}"] += v
            pooled[f"{tag}_rel"] += result["counts"]["relations_pred"]  # type: ignore[index]
            pooled[f"{tag}_ent"] += result["counts"]["entities_pred"]  # type: ignore[index]
        b, a = before["relations"], now["relations"]
        print(f"{name:12} threshold {threshold:.2f}  rules P {b['p']:.3f} R {b['r']:.3f} "  # type: ignore[index]
              f"{before['relations_per_entity']} rel/entity  |  rules+model P {a['p']:.3f} R {a['r']:.3f} "  # type: ignore[index]
              f"{now['relations_per_entity']} rel/entity", flush=True)

    def prf(tag: str) -> dict[str, float]:
        tp, pred, gold = pooled[f"{tag}_r_tp"], pooled[f"{tag}_r_pred"], pooled[f"{tag}_r_gold"]
        return {"p": round(tp / max(1, pred), 3), "r": round(tp / max(1, gold), 3),
                "rel_per_entity": round(pooled[f"{tag}_rel"] / max(1, pooled[f"{tag}_ent"]), 3)}

    summary: dict[str, object] = {"pooled_rules": prf("rules"), "pooled_model": prf("model"), "sets": figures}
    print(f"{'pooled':12}                 rules P {prf('rules')['p']:.3f} R {prf('rules')['r']:.3f} "
          f"{prf('rules')['rel_per_entity']} rel/entity  |  rules+model P {prf('model')['p']:.3f} "
          f"R {prf('model')['r']:.3f} {prf('model')['rel_per_entity']} rel/entity")
    summary["seconds"] = round(time.perf_counter() - started, 1)
    print(json.dumps(summary, ensure_ascii=False))


if __name__ == "__main__":
    main()
