"""The workspace tables as graph rows: typed nodes and relationships, ready for any writer.

This is the one place that decides what the graph looks like (docs/graph_model.md); the Cypher
writer, the exports and the store benchmark all read the same rows. Every row carries a content
hash, so a sync can tell unchanged rows from changed ones without asking the store.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from kgbuild.ids import content_hash
from kgbuild.model import Chunk, Concept, Entity, Event, HyperNode, Ref, Relation
from kgbuild.store.labels import class_label, relationship_type
from kgbuild.workspace import Workspace


@dataclass(frozen=True)
class NodeRow:
    label: str  # base label, one of labels.BASE_LABELS
    id: str
    props: dict[str, Any]
    extra_label: str | None = None  # the schema class of an entity, whitelisted

    @property
    def key(self) -> str:
        return f"{self.label}\t{self.id}"

    def digest(self) -> str:
        return content_hash(f"{self.extra_label}|{_canonical(self.props)}")


@dataclass(frozen=True)
class EdgeRow:
    type: str
    src_label: str
    src: str
    dst_label: str
    dst: str
    id: str
    props: dict[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> str:
        # Everything a delete needs is in the key, so removing an edge never needs its old row.
        return "\t".join((self.type, self.src_label, self.src, self.dst_label, self.dst, self.id))

    def digest(self) -> str:
        return content_hash(_canonical(self.props))

    @classmethod
    def from_key(cls, key: str) -> EdgeRow:
        type_, src_label, src, dst_label, dst, id_ = key.split("\t")
        return cls(type_, src_label, src, dst_label, dst, id_)


@dataclass
class GraphRows:
    nodes: list[NodeRow] = field(default_factory=list)
    edges: list[EdgeRow] = field(default_factory=list)
    dangling: int = 0  # relationships dropped because an end is not a node of the graph


def _canonical(props: dict[str, Any]) -> str:
    return json.dumps(props, ensure_ascii=False, sort_keys=True, default=str)


def _clean(props: dict[str, Any]) -> dict[str, Any]:
    # Cypher stores no nulls and no lists containing nulls; a missing property reads back as null anyway.
    out = {}
    for key, value in props.items():
        if value is None:
            continue
        if isinstance(value, list):
            value = [v for v in value if v is not None]
        out[key] = value
    return out


def _json(value: Any) -> str:
    # The layout of the JSON columns of the tables (kgbuild.tables), so a node's digest is the same
    # whether its properties come from a record or from the table.
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _ref_props(prefix: str, ref: Ref) -> dict[str, Any]:
    return {f"{prefix}_id": ref.id, f"{prefix}_name": ref.name}


def read_graph_rows(workspace: Workspace, type_of: Callable[[str], str] = relationship_type) -> GraphRows:
    """`type_of` maps a predicate to its relationship type (see labels.schema_typer)."""
    rows = GraphRows()
    rows.nodes.extend(_document_nodes(workspace))
    chunks = list(workspace.records("chunks", Chunk))
    chunk_ids = {c.id for c in chunks}
    rows.nodes.extend(_chunk_node(c) for c in chunks)
    entities = list(workspace.records("entities", Entity))
    for e in entities:
        rows.nodes.append(NodeRow("Entity", e.id, _clean({
            "id": e.id, "name": e.name, "spg_class": e.spg_class, "semantic_type": e.semantic_type,
            "description": e.description, "summary": e.summary, "aliases": e.aliases,
            "properties": _json(e.properties),
        }), class_label(e.spg_class)))
    events = list(workspace.records("events", Event))
    for ev in events:
        rows.nodes.append(NodeRow("Event", ev.id, _clean({"id": ev.id, "type": ev.type, "trigger": ev.trigger})))
    concepts = list(workspace.records("concepts", Concept))
    for c in concepts:
        rows.nodes.append(NodeRow("Concept", c.id, _clean({"id": c.id, "name": c.name, "description": c.description})))
    hypernodes = list(workspace.records("hypernodes", HyperNode))
    relations = list(workspace.records("relations", Relation))
    rel_ends = {r.id: r for r in relations}
    for h in hypernodes:
        props = {"id": h.id, "predicate": h.predicate,
                 **_ref_props("subject", h.subject), **_ref_props("object", h.object)}
        if h.subject.kind == "relation":
            props["relation_id"] = h.subject.id
        rows.nodes.append(NodeRow("HyperNode", h.id, _clean(props)))

    node_ids = {n.id: n.label for n in rows.nodes}

    def edge(type_: str, src: str, dst: str | None, id_: str, props: dict[str, Any] | None = None) -> None:
        if dst is None:
            return
        src_label, dst_label = node_ids.get(src), node_ids.get(dst)
        if src_label is None or dst_label is None:
            rows.dangling += 1
            return
        rows.edges.append(EdgeRow(type_, src_label, src, dst_label, dst, id_, _clean(props or {})))

    for chunk in chunks:
        edge("PART_OF", chunk.id, chunk.doc_id, f"{chunk.id}>PART_OF")
    for chunk in chunks:
        edge("NEXT", chunk.id, chunk.next_id, f"{chunk.id}>NEXT")
    supported: list[Entity | Event | Concept | HyperNode] = [*entities, *events, *concepts, *hypernodes]
    for item in supported:
        for cid in item.chunk_ids:
            if cid in chunk_ids:
                edge("SUPPORTED_BY", item.id, cid, f"{item.id}>SUPPORTED_BY>{cid}")
    for r in relations:
        edge(type_of(r.predicate), r.subject.id, r.object.id, r.id,
             {"id": r.id, "predicate": r.predicate, "properties": _json(r.properties), "chunk_ids": r.chunk_ids})
    for ev in events:
        for role, refs in sorted(ev.arguments.items()):
            for ref in refs:
                edge("ARGUMENT", ev.id, ref.id, f"{ev.id}>ARGUMENT>{role}>{ref.id}", {"role": role})
        edge("TIME", ev.id, ev.time.id if ev.time else None, f"{ev.id}>TIME")
        edge("PLACE", ev.id, ev.place.id if ev.place else None, f"{ev.id}>PLACE")
    for h in hypernodes:
        if h.subject.kind == "relation":
            triple = rel_ends.get(h.subject.id)
            if triple is None:
                rows.dangling += 1
            else:
                edge("TRIPLE_SUBJECT", h.id, triple.subject.id, f"{h.id}>TRIPLE_SUBJECT")
                edge("TRIPLE_OBJECT", h.id, triple.object.id, f"{h.id}>TRIPLE_OBJECT")
        else:
            edge("SUBJECT", h.id, h.subject.id, f"{h.id}>SUBJECT")
        edge("QUALIFIER", h.id, h.object.id, f"{h.id}>QUALIFIER", {"predicate": h.predicate})
    return rows


def _document_nodes(workspace: Workspace) -> Iterator[NodeRow]:
    # Columns, not `Document` records: a document record holds its whole text (`paragraphs`),
    # which the node does not carry and which is the largest column of the table.
    cols = ["id", "title", "source", "format", "content_hash", "word_count"]
    for d in workspace.read_table("documents", columns=cols).to_pylist():
        yield NodeRow("Document", d["id"], _clean(d))


def _chunk_node(c: Chunk) -> NodeRow:
    return NodeRow("Chunk", c.id, _clean({
        "id": c.id, "doc_id": c.doc_id, "text": c.text, "order": c.order, "section": c.section,
        "token_count": c.token_count, "summary": c.summary, "content_hash": c.content_hash,
    }))
