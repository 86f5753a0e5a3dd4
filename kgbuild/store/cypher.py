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


def _labels(label: str, extra_label: str | None) -> str:
    return quoted(label) + (f":{quoted(extra_label)}" if extra_label else "")


# New ids are created, known ids updated: MERGE on two labels cannot use the base label's index
# in ArcadeDB (measured ~10x slower), and the manifest (or, after an interruption, the store
# itself) says which ids exist. `SET n = r.props` replaces every property, so a property that
# disappeared from the row disappears from the store too.

def create_nodes(label: str, extra_label: str | None) -> str:
    """For ids the store is known not to hold (the manifest is trusted)."""
    return f"UNWIND $rows AS r CREATE (n:{_labels(label, extra_label)}) SET n = r.props"


def update_nodes(label: str) -> str:
    """For ids the store holds: matched through the base label's unique index."""
    return f"UNWIND $rows AS r MATCH (n:{quoted(label)} {{id: r.id}}) SET n = r.props"


def _ends(src_label: str, dst_label: str) -> str:
    # One MATCH with two patterns: ArcadeDB plans it ~1.5x faster than two MATCH clauses.
    return f"UNWIND $rows AS r MATCH (a:{quoted(src_label)} {{id: r.src}}), (b:{quoted(dst_label)} {{id: r.dst}}) "


def create_edges(type_: str, src_label: str, dst_label: str) -> str:
    return _ends(src_label, dst_label) + f"CREATE (a)-[e:{quoted(type_)}]->(b) SET e = r.props"


def merge_edges(type_: str, src_label: str, dst_label: str) -> str:
    return _ends(src_label, dst_label) + f"MERGE (a)-[e:{quoted(type_)} {{id: r.id}}]->(b) SET e = r.props"


def stored_nodes(label: str) -> str:
    return f"MATCH (n:{quoted(label)}) RETURN n.id AS id, labels(n) AS labels"


def stored_edges(src_label: str) -> str:
    return (f"MATCH (a:{quoted(src_label)})-[e]->(b) "
            "RETURN a.id AS src, type(e) AS type, labels(b) AS dst_labels, b.id AS dst, e.id AS id")


# Deletions match every row first and delete after (`collect` is the barrier). ArcadeDB's Cypher
# interleaves the matching and deleting of an UNWIND's rows: from 100 rows a statement on (99 work),
# later rows' matches walk edge lists that earlier rows' deletions changed and fail with
# RecordNotFoundException, which made every prune of a few hundred documents fail (issue 16).
# Neo4j plans such an eager step itself; spelling it out costs it nothing.

def delete_nodes(label: str) -> str:
    return (f"UNWIND $ids AS id MATCH (n:{quoted(label)} {{id: id}}) "
            "WITH collect(n) AS doomed UNWIND doomed AS n DETACH DELETE n")


def delete_edges(type_: str, src_label: str) -> str:
    return (f"UNWIND $rows AS r MATCH (a:{quoted(src_label)} {{id: r.src}})-[e:{quoted(type_)} {{id: r.id}}]->() "
            "WITH collect(e) AS doomed UNWIND doomed AS e DELETE e")


def count_nodes() -> str:
    return "MATCH (n) RETURN count(n) AS n"

