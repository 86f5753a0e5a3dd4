"""Precision and recall of the offline Chinese extractor on a hand-labelled set (bench/data/zh_extract_gold.json;
how it was made: docs/chinese.md), against what the offline build gave Chinese text before (the English spaCy rules).

Run from the repo root: `python bench/zh_extract.py`. Readable lines, then one JSON object.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from shared_data import shared_data

from kgbuild.extract.offline import OfflineExtractor
from kgbuild.extract.zh.extractor import ChineseExtractor
from kgbuild.ids import normalize_name
from kgbuild.model import Chunk, ChunkExtraction
from kgbuild.schema import resolve_schema

GOLD = Path(__file__).resolve().parent / "data" / "zh_extract_gold.json"
# Schema relation names back to the rule names the gold uses.
_PREDICATE = {"subtypeOf": "isA", "locatedInBodyPart": "locatedIn"}


def chunk(i: int, text: str) -> Chunk:
    return Chunk(id=f"s{i}#0", doc_id=f"s{i}", text=text, order=0, paragraph_start=0, paragraph_end=0,
                 token_count=len(text), content_hash=str(i))


def predicted(ex: ChunkExtraction) -> tuple[dict[str, tuple[str, set[str]]], set[tuple[str, str, str]]]:
    entities = {normalize_name(e.name): (e.spg_class, {normalize_name(a) for a in e.aliases}) for e in ex.entities}
    triples = {(normalize_name(r.subject.name), _PREDICATE.get(r.predicate, r.predicate), normalize_name(r.object.name))
               for r in ex.relations}
    for e in ex.entities:
        triples |= {(normalize_name(e.name), "synonym", normalize_name(a)) for a in e.aliases}
    return entities, triples


def prf(tp: int, n_pred: int, n_gold: int) -> dict[str, float]:
    p = tp / n_pred if n_pred else 0.0
    r = tp / n_gold if n_gold else 0.0
    return {"p": round(p, 3), "r": round(r, 3), "f1": round(2 * p * r / (p + r), 3) if p + r else 0.0}


def score(sentences: Sequence[dict], extract: Callable[[list[Chunk]], list[ChunkExtraction]]) -> dict[str, object]:
    results = extract([chunk(i, s["text"]) for i, s in enumerate(sentences)])
    e_tp = e_pred = e_gold = typed = r_tp = r_pred = r_gold = 0
    misses: list[str] = []
    for s, ex in zip(sentences, results, strict=True):
        entities, triples = predicted(ex)
        gold = {normalize_name(n): c for n, c in s["entities"]}
        found = {g for g in gold if g in entities or any(g in al for _, al in entities.values())}
        matched_pred = {n for n, (_, al) in entities.items() if n in gold or al & gold.keys()}
        e_tp += len(found)
        e_pred += len(entities)
        e_gold += len(gold)
        typed += sum(1 for g in found if g in entities and entities[g][0] == gold[g])
        gold_rel = {(normalize_name(a), p, normalize_name(b)) for a, p, b in s["relations"]}
        # A synonym is one fact whichever name the rules chose as the entity's.
        sym = {(b, p, a) for a, p, b in triples if p == "synonym"}
        r_tp += len(gold_rel & (triples | sym))
        r_pred += len(triples)
        r_gold += len(gold_rel)
        misses += [f"{n}" for n in entities if n not in matched_pred][:3]
    return {"entities": prf(e_tp, e_pred, e_gold), "relations": prf(r_tp, r_pred, r_gold),
            "typed_accuracy": round(typed / e_tp, 3) if e_tp else 0.0,
            "counts": {"entities_pred": e_pred, "entities_gold": e_gold, "relations_pred": r_pred,
                       "relations_gold": r_gold}, "sample_false_entities": misses[:8]}


def main() -> None:
    data = json.loads(GOLD.read_text(encoding="utf-8"))["sentences"]
    schema = resolve_schema("medicine")
    concepts = shared_data("medicine/Disease.csv") / "medicine"
    splits = {"all": data, "dev (doc.txt + Disease.csv)": [s for s in data if not s["source"].startswith("held-out")],
              "held-out": [s for s in data if s["source"].startswith("held-out")]}
    runs: dict[str, Callable[[list[Chunk]], list[ChunkExtraction]]] = {
        "before: spaCy English rules": OfflineExtractor(schema).extract,
        "jieba-rules, schema only": ChineseExtractor(schema).extract,
        "jieba-rules, schema + medicine concept files": ChineseExtractor(schema, concepts).extract,
    }
    figures: dict[str, dict[str, object]] = {}
    for name, run in runs.items():
        started = time.perf_counter()
        for split, sentences in splits.items():
            result = score(sentences, run)
            figures[f"{name} | {split}"] = result
            e, r = result["entities"], result["relations"]
            print(f"{name:46} {split:28} entities P {e['p']:.2f} R {e['r']:.2f} F1 {e['f1']:.2f}  "  # type: ignore[index]
                  f"relations P {r['p']:.2f} R {r['r']:.2f} F1 {r['f1']:.2f}  typed {result['typed_accuracy']}")  # type: ignore[index]
        figures[f"{name} | seconds"] = {"wall_s": round(time.perf_counter() - started, 2)}
    print(f"gold: {len(data)} sentences, {sum(len(s['entities']) for s in data)} entities, "
          f"{sum(len(s['relations']) for s in data)} relations", file=sys.stderr)
    print(json.dumps({"sentences": len(data), "results": figures}, ensure_ascii=False))


if __name__ == "__main__":
    main()
