"""How much of the text a built graph relates: the figures and warnings of `kgbuild inspect health`.

A build can look fine by its counts and still be a list of names. Users' trials saw 298 entities with
one relation (Chinese reports, offline) and 12,379 entities with 0.19 relations each (technical books),
and nothing said so. These figures are read from the workspace tables after any build, whatever the
extractor, and the build prints the warnings (`warnings`) under its report.

"Related" means the entity is an end of a relation, an argument, time or place of an event, or the
value of a hypernode's qualifier: anything else is a name the graph only links to its chunks.
Components are counted as the alignment report counts them (kgbuild.align.connectivity): entities,
events and concepts, over relations, event arguments and hypernode parts. A value kept as a literal on
its fact (a date or amount only a hypernode names, kgbuild/graph/literals.py) is no entity: it is in none
of the figures but `literal_values`.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from pydantic import BaseModel, Field

from kgbuild.align.connectivity import connectivity
from kgbuild.workspace import Workspace

# Below this many entities a build is a test or a toy: the shares say nothing, so no warning.
MIN_ENTITIES = 30
# An offline build of encyclopedic English reaches about 0.8 relations per entity and a model-built
# graph more; the trials that went unnoticed were at 0.003 and 0.19. Half is where most of what the
# text states is plainly missing.
THIN_RELATIONS_PER_ENTITY = 0.5
# More than this share of entities related to nothing: the graph is mostly a name index.
UNRELATED_SHARE = 0.6
# The largest component below this share while components outnumber a quarter of the nodes: islands.
ISLAND_LARGEST_SHARE = 0.1

SHOWN = 10  # names and documents listed by default


class NamedCount(BaseModel):
    name: str
    count: int
    detail: str = ""  # an entity's class
    id: str = ""  # the entity's id (the explorer links it); a document's name is its id


class GraphHealth(BaseModel):
    documents: int = 0
    entities: int = 0
    relations: int = 0
    events: int = 0
    hypernodes: int = 0
    literal_values: int = 0  # distinct values kept as literals on hypernodes (not entities)
    relations_per_entity: float = 0.0
    unrelated_entities: int = 0  # in no relation, event or qualifier
    unrelated_share: float = 0.0
    unrelated_by_class: dict[str, int] = Field(default_factory=dict)  # largest first
    class_shares: dict[str, float] = Field(default_factory=dict)  # of all entities, largest first
    components: int = 0
    largest_component_share: float = 0.0
    documents_without_relations: int = 0  # documents with entities and no relation
    # The unrelated names the text mentions most (by chunks), and the documents with the most entities
    # and no relation: where a reader finds what extraction missed.
    most_mentioned_unrelated: list[NamedCount] = Field(default_factory=list)
    documents_with_no_relation: list[NamedCount] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)


def _column(ws: Workspace, table: str, columns: list[str]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = ws.read_table(table, columns).to_pylist()
    return rows


def _event_refs(row: dict[str, Any]) -> list[str]:
    refs = [ref for ref in (row.get("time_id"), row.get("place_id")) if ref]
    arguments = row.get("arguments")
    decoded = json.loads(arguments) if isinstance(arguments, str) and arguments else arguments or {}
    for values in decoded.values():
        refs.extend(str(v["id"]) for v in values if isinstance(v, dict) and v.get("id"))
    return refs


def graph_health(ws: Workspace, *, shown: int = SHOWN) -> GraphHealth:
    """The figures of the graph in `ws` (as last built); `shown` names and documents of each list."""
    entities = _column(ws, "entities", ["id", "name", "spg_class", "chunk_ids", "doc_ids"])
    relations = _column(ws, "relations", ["subject_id", "object_id", "doc_ids"])
    events = _column(ws, "events", ["id", "arguments", "time_id", "place_id"])
    hypernodes = _column(ws, "hypernodes", ["subject_id", "subject_kind", "object_id", "object_kind"])
    concepts = _column(ws, "concepts", ["id"])
    health = GraphHealth(documents=ws.row_count("documents"), entities=len(entities), relations=len(relations),
                         events=len(events), hypernodes=len(hypernodes),
                         literal_values=len({h[f"{end}_id"] for h in hypernodes for end in ("subject", "object")
                                             if h.get(f"{end}_kind") == "value"}))
    if not entities:
        return health

    edges: list[tuple[str, str]] = [(r["subject_id"], r["object_id"]) for r in relations]
    for ev in events:
        edges.extend((ev["id"], ref) for ref in _event_refs(ev))
    # a literal end is text on the hypernode, not a node it links
    edges.extend((h["subject_id"], h["object_id"]) for h in hypernodes
                 if h.get("subject_kind") != "value" and h.get("object_kind") != "value")
    touched = {end for edge in edges for end in edge}
    unrelated = [e for e in entities if e["id"] not in touched]

    n = len(entities)
    classes = Counter(e["spg_class"] or "" for e in entities)
    health.relations_per_entity = round(len(relations) / n, 3)
    health.unrelated_entities = len(unrelated)
    health.unrelated_share = round(len(unrelated) / n, 3)
    health.unrelated_by_class = dict(Counter(e["spg_class"] or "" for e in unrelated).most_common())
    health.class_shares = {name: round(count / n, 3) for name, count in classes.most_common()}
    health.most_mentioned_unrelated = [
        NamedCount(name=e["name"], count=len(e["chunk_ids"] or []), detail=e["spg_class"] or "", id=e["id"])
        for e in sorted(unrelated, key=lambda e: (-len(e["chunk_ids"] or []), e["name"]))[:shown]]

    nodes = [*(e["id"] for e in entities), *(ev["id"] for ev in events), *(c["id"] for c in concepts)]
    linked = connectivity(nodes, edges, sample=0)
    health.components = linked.components
    health.largest_component_share = linked.largest_component_share

    related_docs = {d for r in relations for d in r["doc_ids"] or []}
    per_doc = Counter(d for e in entities for d in e["doc_ids"] or [])
    quiet = [(doc, count) for doc, count in per_doc.items() if doc not in related_docs]
    health.documents_without_relations = len(quiet)
    health.documents_with_no_relation = [NamedCount(name=doc, count=count) for doc, count in
                                         sorted(quiet, key=lambda item: (-item[1], item[0]))[:shown]]
    health.warnings = warnings(health, linked.nodes)
    return health


def warnings(health: GraphHealth, nodes: int) -> list[str]:
    """One line per figure past its threshold (see the constants above); none for a tiny graph."""
    if health.entities < MIN_ENTITIES:
        return []
    out: list[str] = []
    if health.relations_per_entity < THIN_RELATIONS_PER_ENTITY:
        out.append(f"{health.entities} entities but {health.relations} relations ({health.relations_per_entity:.2f} "
                   "per entity): most of what the text states is not in the graph; a model extractor "
                   "(extract.extractor: llm) states more, `kgbuild inspect health` lists what is unrelated")
    if health.unrelated_share > UNRELATED_SHARE:
        out.append(f"{health.unrelated_entities} of {health.entities} entities ({health.unrelated_share:.0%}) are in "
                   "no relation, event or qualifier: the graph only links them to their chunks")
    if health.largest_component_share < ISLAND_LARGEST_SHARE and health.components * 4 > nodes:
        out.append(f"the graph is {health.components} separate pieces (the largest holds "
                   f"{health.largest_component_share:.0%} of its nodes): walks between documents find little")
    return out
