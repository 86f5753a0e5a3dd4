"""Reading a whole graph store back, for tests that compare stores with each other."""

from __future__ import annotations

import json
from typing import Any

from kgbuild.store.types import GraphStore


def dump(store: GraphStore) -> dict[str, Any]:
    nodes = store.query("MATCH (n) RETURN n.id AS id, labels(n) AS labels, properties(n) AS props")
    edges = store.query(
        "MATCH (a)-[e]->(b) RETURN a.id AS src, type(e) AS type, b.id AS dst, e.id AS id, properties(e) AS props"
    )
    return {
        "nodes": sorted((n["id"], tuple(sorted(n["labels"])), json.dumps(_plain(n["props"]), sort_keys=True))
                        for n in nodes),
        "edges": sorted((e["src"], e["type"], e["dst"], e["id"], json.dumps(_plain(e["props"]), sort_keys=True))
                        for e in edges),
    }


def _plain(props: dict[str, Any]) -> dict[str, Any]:
    # Backends differ in internal properties (ArcadeDB exposes none over Cypher, but be safe).
    return {k: v for k, v in props.items() if not k.startswith("@")}
