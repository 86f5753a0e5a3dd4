"""Every Cypher statement the writer runs, in the Neo4j 5 dialect (ArcadeDB understands it too).

Labels and relationship types are the only identifiers spliced in, and only after the
whitelist in `labels`; all values are `$parameters`.
"""

from __future__ import annotations

from kgbuild.store.labels import BASE_LABELS, quoted


def constraints() -> list[str]:
    """One uniqueness constraint on `id` per base label (also the index every MERGE and MATCH uses)."""
    return [
        f"CREATE CONSTRAINT {label.lower()}_id IF NOT EXISTS FOR (n:{quoted(label)}) REQUIRE n.id IS UNIQUE"
        for label in sorted(BASE_LABELS)
    ]


def merge_nodes(label: str, extra_label: str | None) -> str:
    labels = quoted(label) + (f":{quoted(extra_label)}" if extra_label else "")
    return f"UNWIND $rows AS r MERGE (n:{labels} {{id: r.id}}) SET n += r.props"


def merge_edges(type_: str, src_label: str, dst_label: str) -> str:
    return (
        f"UNWIND $rows AS r MATCH (a:{quoted(src_label)} {{id: r.src}}) MATCH (b:{quoted(dst_label)} {{id: r.dst}}) "
        f"MERGE (a)-[e:{quoted(type_)} {{id: r.id}}]->(b) SET e += r.props"
    )


def delete_nodes(label: str) -> str:
    return f"UNWIND $ids AS id MATCH (n:{quoted(label)} {{id: id}}) DETACH DELETE n"


def delete_edges(type_: str, src_label: str) -> str:
    return f"UNWIND $rows AS r MATCH (a:{quoted(src_label)} {{id: r.src}})-[e:{quoted(type_)} {{id: r.id}}]->() DELETE e"


def count_nodes() -> str:
    return "MATCH (n) RETURN count(n) AS n"


def count_edges() -> str:
    return "MATCH ()-[e]->() RETURN count(e) AS n"
