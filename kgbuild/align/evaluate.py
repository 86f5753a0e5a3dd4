"""Pairwise precision and recall of a fusion against a labelled alias file.

The file (tests/data/alias_groups.jsonl) holds alias groups (all names one thing) and
look-alike sets (each entity a different thing); see its first line for the format.
"""

from __future__ import annotations

import json
from collections import defaultdict
from itertools import combinations
from pathlib import Path

from kgbuild.model import Entity


def load_labelled(path: Path) -> tuple[list[Entity], dict[str, str]]:
    """Entities of every line, and the gold cluster label of each entity id."""
    entities: list[Entity] = []
    gold: dict[str, str] = {}

    def add(name: str, cls: str, label: str, description: str = "", semantic_type: str | None = None,
            docs: list[str] | None = None) -> None:
        eid = Entity.make_id(name, cls)
        if eid in gold:
            raise ValueError(f"{path}: {name!r} ({cls}) appears twice")
        gold[eid] = label
        n = len(entities)
        # Without "docs" every entity is in one document ("gold"), as the older lines assume.
        chunks = [f"{doc}#p{n:05d}#0" for doc in docs or ["gold"]]
        entities.append(Entity(id=eid, name=name, spg_class=cls, description=description,
                               semantic_type=semantic_type, chunk_ids=chunks))

    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line) if line.strip() else {}
        if "group" in row:
            for item in row["names"]:  # a name, or {name, class?, docs?} for a member of another class
                if isinstance(item, str):
                    add(item, row["class"], f"group:{row['group']}")
                else:
                    add(item["name"], item.get("class", row["class"]), f"group:{row['group']}",
                        docs=item.get("docs"))
        elif "apart" in row:
            for k, ent in enumerate(row["entities"]):
                add(ent["name"], ent["class"], f"apart:{row['apart']}:{k}", ent.get("description", ""),
                    ent.get("semantic_type"), ent.get("docs"))
    return entities, gold


def _pairs(cluster_of: dict[str, str]) -> set[tuple[str, str]]:
    members: dict[str, list[str]] = defaultdict(list)
    for eid, label in cluster_of.items():
        members[label].append(eid)
    return {tuple(sorted(p)) for ids in members.values() for p in combinations(ids, 2)}  # type: ignore[misc]


def pairwise_scores(id_map: dict[str, str], gold: dict[str, str]) -> dict[str, float]:
    """Precision/recall/F1 of the same-cluster pairs induced by `id_map` vs the gold pairs."""
    predicted = _pairs({eid: id_map.get(eid, eid) for eid in gold})
    truth = _pairs(gold)
    tp = len(predicted & truth)
    precision = tp / len(predicted) if predicted else 1.0
    recall = tp / len(truth) if truth else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": precision, "recall": recall, "f1": f1, "predicted_pairs": len(predicted),
            "gold_pairs": len(truth), "true_pairs": tp}


def false_pairs(id_map: dict[str, str], gold: dict[str, str],
                names: dict[str, str]) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(wrongly merged, missed) pairs as names, for reading the errors."""
    predicted = _pairs({eid: id_map.get(eid, eid) for eid in gold})
    truth = _pairs(gold)

    def show(pairs: set[tuple[str, str]]) -> list[tuple[str, str]]:
        return sorted((names[a], names[b]) for a, b in pairs)

    return show(predicted - truth), show(truth - predicted)
