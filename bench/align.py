"""Entity fusion: quality on the labelled alias set, and time/memory at scale.

Run from the repo root: `python bench/align.py [--sizes 25000,50000,100000,200000]`.

1. Quality: every entity of tests/data/alias_groups.jsonl in one pool, fused offline (no
   embedder, no judge); pairwise precision/recall of the induced same-cluster pairs against
   the gold pairs, next to an exact-key-only baseline (same class, same `resolution_key`).
   Then the review queue (kgbuild/curate/review.py, issue 27) decided by the gold labels, as a
   person would: an item whose two entities are one thing is approved (a merge correction),
   else rejected (never_merge); the fusion re-run with the corrections is scored the same way.
2. Scale: synthetic but realistic names (people with initials, surname-only mentions,
   honorifics, case/punctuation variants and typos; organisations with suffixes and
   acronyms; places) with about one relation per entity. Each size runs in a fresh
   subprocess so its peak RSS (ru_maxrss, generation included) is its own; the time is
   `fuse_entities` alone. Last line: one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kgbuild.align.evaluate import load_labelled, pairwise_scores  # noqa: E402
from kgbuild.align.fusion import fuse_entities  # noqa: E402
from kgbuild.align.normalize import resolution_key  # noqa: E402
from kgbuild.model import Entity, Ref, Relation  # noqa: E402
from kgbuild.schema import builtin_schema_path, load_schema  # noqa: E402

FIRST = """James Mary John Patricia Robert Jennifer Michael Linda William Elizabeth David Barbara Richard Susan Joseph
Jessica Thomas Sarah Charles Karen Christopher Nancy Daniel Lisa Matthew Betty Anthony Margaret Mark Sandra Donald
Ashley Steven Kimberly Paul Emily Andrew Donna Joshua Michelle Kenneth Dorothy Kevin Carol Brian Amanda George
Melissa Edward Deborah Ronald Stephanie Timothy Rebecca Jason Sharon Jeffrey Laura Ryan Cynthia Jacob Kathleen
Gary Amy Nicholas Shirley Eric Angela Jonathan Helen Stephen Anna Larry Brenda Justin Pamela Scott Nicole Brandon
Emma Benjamin Samantha Samuel Katherine Gregory Christine Frank Debra Alexander Rachel Raymond Catherine Patrick
Carolyn Jack Janet Dennis Ruth Jerry Maria Tyler Heather Aaron Diane Jose Virginia Adam Julie Henry Joyce Nathan
Victoria Douglas Olivia Zachary Kelly Peter Christina Kyle Lauren Walter Joan Ethan Evelyn Jeremy Judith Harold
Megan Keith Cheryl Christian Andrea Roger Hannah Noah Martha Gerald Jacqueline Carl Frances Terry Gloria Sean Ann
Austin Teresa Arthur Kathryn Lawrence Sara Jesse Janice Dylan Jean Bryan Alice Joe Madison Jordan Doris Billy
Abigail Bruce Julia Albert Judy Willie Grace Gabriel Denise Logan Amber Alan Marilyn Juan Beverly Wayne Danielle
Roy Theresa Ralph Sophia Randy Marie Eugene Diana Vincent Brittany Russell Natalie Elijah Isabella Louis Charlotte
Bobby Rose Philip Alexis Johnny Kayla Hiroshi Yuki Wei Ming Olga Ivan Fatima Omar Priya Arjun Lars Ingrid Pierre
Sophie Giovanni Chiara Pablo Lucia Mehmet Ayse Kwame Amara""".split()
LAST = """Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez Gonzalez Wilson
Anderson Thomas Taylor Moore Jackson Martin Lee Perez Thompson White Harris Sanchez Clark Ramirez Lewis Robinson
Walker Young Allen King Wright Scott Torres Nguyen Hill Flores Green Adams Nelson Baker Hall Rivera Campbell Mitchell
Carter Roberts Gomez Phillips Evans Turner Diaz Parker Cruz Edwards Collins Reyes Stewart Morris Morales Murphy Cook
Rogers Gutierrez Ortiz Morgan Cooper Peterson Bailey Reed Kelly Howard Ramos Kim Cox Ward Richardson Watson Brooks
Chavez Wood James Bennett Gray Mendoza Ruiz Hughes Price Alvarez Castillo Sanders Patel Myers Long Ross Foster
Jimenez Powell Jenkins Perry Russell Sullivan Bell Coleman Butler Henderson Barnes Gonzales Fisher Vasquez Simmons
Romero Jordan Patterson Alexander Hamilton Graham Reynolds Griffin Wallace Moreno West Cole Hayes Bryant Herrera
Gibson Ellis Tran Medina Aguilar Stevens Murray Ford Castro Marshall Owens Harrison Fernandez McDonald Woods
Washington Kennedy Wells Vargas Henry Chen Freeman Webb Tucker Guzman Burns Crawford Olson Simpson Porter Hunter
Gordon Mendez Silva Shaw Snyder Mason Dixon Munoz Hunt Hicks Holmes Palmer Wagner Black Robertson Boyd Rose Stone
Salazar Fox Warren Mills Meyer Rice Schmidt Garza Daniels Ferguson Nichols Stephens Soto Weaver Ryan Gardner Payne
Grant Dunn Kelley Spencer Hawkins Arnold Pierce Hansen Peters Santos Hart Bradley Knight Elliott Cunningham Duncan
Armstrong Hudson Carroll Lane Riley Andrews Alvarado Ray Delgado Berry Perkins Hoffman Johnston Matthews Pena
Richards Willis Carrillo Watkins Yamamoto Tanaka Suzuki Wang Zhang Novak Kowalski Petrov Ivanova Larsen Johansson
Dubois Lefebvre Rossi Bianchi Muller Schneider Fischer Weber Okafor Mensah Haddad Nakamura Kaur Singh Sharma""".split()
SYLL = ("ka lo mi ra ten vo za qui bel dor fen gar hul ix jun kel mar nor pel qua ros sil tor ul vex wen xan yor "
        "zed").split()
ORG_TAIL = ["Inc.", "Corporation", "Ltd", "LLC", "Group", "Holdings", "Systems", "Labs", "Partners", "Foundation"]
ORG_HEAD = ["National", "United", "General", "Pacific", "Northern", "Global", "First", "Royal", "Central", "Atlantic"]
ORG_MID = ["Bank", "Motors", "Energy", "Airlines", "Insurance", "Software", "Pharmaceuticals", "Steel", "Foods",
           "Media"]
PLACE_TAIL = ["", "", "City", "River", "Lake", "Valley", "County", "Bay", "Springs", "Heights"]


def _typo(rng: random.Random, word: str) -> str:
    if len(word) < 5:
        return word
    i = rng.randrange(1, len(word) - 2)
    return word[:i] + word[i + 1] + word[i] + word[i + 2:]  # transposition


def _pseudo(rng: random.Random, parts: int) -> str:
    return "".join(rng.choice(SYLL) for _ in range(parts)).capitalize()


def synthetic(n: int, seed: int = 7) -> tuple[list[Entity], list[Relation], dict[str, str]]:
    """About n entities: 60% person mentions, 25% organisations, 15% places; ~1 relation each.
    The third value labels each entity with the round that generated it: a rough gold (two rounds
    may draw the same name, and a name seen before keeps its first round), for precision only."""
    rng = random.Random(seed)
    seen: set[str] = set()
    entities: list[Entity] = []
    label: dict[str, str] = {}

    def add(name: str, cls: str, description: str = "") -> None:
        eid = Entity.make_id(name, cls)
        if eid not in seen:
            seen.add(eid)
            label[eid] = f"{cls}:{rounds[0]}"
            entities.append(Entity(id=eid, name=name, spg_class=cls, description=description,
                                   chunk_ids=[f"doc{len(entities) // 20}#p{len(entities) % 20:05d}#0"]))

    rounds = [0]
    while len(entities) < int(n * 0.6):
        rounds[0] += 1
        first, last = rng.choice(FIRST), rng.choice(LAST)
        middle = rng.choice(FIRST) if rng.random() < 0.4 else None
        year = rng.randrange(1900, 2005)
        desc = f"born {year}" if rng.random() < 0.3 else ""
        full = f"{first} {middle} {last}" if middle else f"{first} {last}"
        add(full, "Person", desc)
        variants = [f"{first[0]}. {last}", f"{first} {last}", f"{rng.choice(['Mr.', 'Dr.', 'Prof.', 'Ms.'])} {last}",
                    f"{last}, {first}", full.upper(), f"{_typo(rng, first)} {last}", f"{first} {_typo(rng, last)}"]
        if middle:
            variants.append(f"{first[0]}. {middle[0]}. {last}")
        for v in rng.sample(variants, rng.randint(1, 3)):
            add(v, "Person", desc if rng.random() < 0.5 else "")
    while len(entities) < int(n * 0.85):
        rounds[0] += 1
        words = [rng.choice(ORG_HEAD), _pseudo(rng, rng.randint(2, 3)), rng.choice(ORG_MID)]
        stem = " ".join(words if rng.random() < 0.5 else words[1:])
        cls = "Company"
        add(f"{stem} {rng.choice(ORG_TAIL)}", cls)
        for v in rng.sample([stem, stem.upper(), stem.replace(" ", "-"), "".join(w[0] for w in stem.split()).upper(),
                             f"The {stem}", _typo(rng, stem)], rng.randint(1, 2)):
            add(v, cls)
    while len(entities) < n:
        rounds[0] += 1
        base = _pseudo(rng, rng.randint(2, 4))
        tail = rng.choice(PLACE_TAIL)
        name = f"{base} {tail}".strip()
        add(name, "City")
        spellings = [name.upper(), f"{base}, {rng.choice(LAST)}", _typo(rng, name), f"St. {base}"]
        for v in rng.sample(spellings, rng.randint(0, 2)):
            add(v, "City")
    entities = entities[:n]
    relations: list[Relation] = []
    for i, e in enumerate(entities):
        nearby = rng.random() >= 0.7
        other = entities[max(0, i - rng.randint(1, 5))] if nearby else entities[rng.randrange(len(entities))]
        if other.id == e.id:
            continue
        pred = rng.choice(["works_for", "located_in", "knows", "founded", "member_of"])
        relations.append(Relation(id=Relation.make_id(e.id, pred, other.id),
                                  subject=Ref(kind="entity", id=e.id, name=e.name), predicate=pred,
                                  object=Ref(kind="entity", id=other.id, name=other.name),
                                  chunk_ids=list(e.chunk_ids)))
    return entities, relations, {e.id: label[e.id] for e in entities}


def scale_run(n: int) -> dict:
    schema = load_schema(builtin_schema_path("open_domain"))
    entities, relations, gold = synthetic(n)
    t = time.perf_counter()
    result = fuse_entities(entities, relations, schema)
    seconds = time.perf_counter() - t
    steps: dict[str, int] = {}
    for m in result.merges:
        steps[m.step] = steps.get(m.step, 0) + 1
    peak_mb = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    synthetic_precision = pairwise_scores(result.id_map, gold)["precision"]
    return {"n": n, "synthetic_precision": round(synthetic_precision, 4), "seconds": round(seconds, 2),
            "peak_rss_mb": peak_mb, "entities_out": len(result.entities),
            "relations_in": len(relations), "relations_out": len(result.relations), "merges_by_step": steps}


def reviewed(entities: list[Entity], gold: dict[str, str], schema) -> tuple[dict[str, str], int, int]:
    """The id map after the review queue's items are decided by `gold`; (map, items, approved)."""
    from kgbuild.assemble import Graph
    from kgbuild.curate.apply import MANUAL_STEP, apply_corrections
    from kgbuild.curate.constraints import apart_constraints
    from kgbuild.curate.file import Entry, make
    from kgbuild.curate.review import review_queue

    fused = fuse_entities(entities, [], schema)
    queue = review_queue(fused.entities, fused.merges, schema, names={e.id: e.name for e in entities})
    entries = []
    for n, item in enumerate(queue, start=1):
        kind, target = item.correction(gold[item.a_id] == gold[item.b_id])
        entries.append(Entry(n, 0, make(kind, target, author="gold")))
    again = fuse_entities(entities, [], schema, apart=apart_constraints(entities, entries))
    done = apply_corrections(Graph(entities=again.entities), again.merges, entries, schema)
    id_map = dict(again.id_map)
    for m in done.merges:
        if m.step == MANUAL_STEP:
            folded = next(i for i in m.merged_ids if i != m.canonical_id)
            id_map = {k: (m.canonical_id if v == folded else v) for k, v in id_map.items()}
    approved = sum(1 for e in entries if e.correction.kind == "merge")
    return id_map, len(queue), approved


def exact_baseline(entities: list[Entity]) -> dict[str, str]:
    first: dict[tuple[str, str], str] = {}
    return {e.id: first.setdefault((e.spg_class, resolution_key(e.name)), e.id) for e in entities}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="25000,50000,100000,200000")
    ap.add_argument("--scale", type=int, help=argparse.SUPPRESS)  # child mode: one size, JSON out
    args = ap.parse_args()
    if args.scale:
        print(json.dumps(scale_run(args.scale)))
        return

    entities, gold = load_labelled(ROOT / "tests" / "data" / "alias_groups.jsonl")
    schema = load_schema(builtin_schema_path("open_domain"))
    ours = pairwise_scores(fuse_entities(entities, [], schema).id_map, gold)
    base = pairwise_scores(exact_baseline(entities), gold)
    print(f"labelled set: {len(entities)} entities, {ours['gold_pairs']} gold pairs")
    print(f"  cascade      precision {ours['precision']:.3f}  recall {ours['recall']:.3f}  f1 {ours['f1']:.3f}")
    print(f"  exact-key    precision {base['precision']:.3f}  recall {base['recall']:.3f}  f1 {base['f1']:.3f}")
    review_map, items, approved = reviewed(entities, gold, schema)
    rev = pairwise_scores(review_map, gold)
    print(f"  + review     precision {rev['precision']:.3f}  recall {rev['recall']:.3f}  f1 {rev['f1']:.3f}  "
          f"({items} review items decided by the gold labels: {approved} approved, {items - approved} rejected)")

    runs = []
    for n in [int(s) for s in args.sizes.split(",")]:
        out = subprocess.run([sys.executable, __file__, "--scale", str(n)], capture_output=True, text=True, check=True)
        run = json.loads(out.stdout.strip().splitlines()[-1])
        runs.append(run)
        print(f"  n={n:>7}: fuse {run['seconds']:6.2f} s  peak RSS {run['peak_rss_mb']:5d} MB  "
              f"{run['entities_out']} entities out  relations {run['relations_in']}->{run['relations_out']}  "
              f"merges {run['merges_by_step']}  synthetic precision {run['synthetic_precision']:.4f}")
    for a, b in itertools.pairwise(runs):
        print(f"  {a['n']} -> {b['n']}: time x{b['seconds'] / max(a['seconds'], 1e-9):.2f} "
              f"for x{b['n'] / a['n']:.1f} entities")
    figures = {"precision": round(ours["precision"], 4), "recall": round(ours["recall"], 4),
               "baseline_exact_precision": round(base["precision"], 4),
               "baseline_exact_recall": round(base["recall"], 4),
               "reviewed_precision": round(rev["precision"], 4), "reviewed_recall": round(rev["recall"], 4),
               "review_items": items, "review_approved": approved}
    for run in runs:
        figures[f"fuse_{run['n'] // 1000}k_s"] = run["seconds"]
        figures[f"peak_rss_{run['n'] // 1000}k_mb"] = run["peak_rss_mb"]
        figures[f"synthetic_precision_{run['n'] // 1000}k"] = run["synthetic_precision"]
    figures["peak_rss_mb"] = max(r["peak_rss_mb"] for r in runs) if runs else 0
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
