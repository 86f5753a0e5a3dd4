"""The workspace tables as graph rows: typed nodes and relationships, ready for any writer.

This is the one place that decides what the graph looks like (docs/graph_model.md); the Cypher
writer, the exports and the store benchmark all read the same rows. Every row carries a content
hash, so a sync can tell unchanged rows from changed ones without asking the store.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kgbuild.ids import content_hash
from kgbuild.model import Chunk, Concept, Entity, Event, HyperNode, Ref, Relation
from kgbuild.store.labels import STRUCTURAL_TYPES, class_label, relationship_type
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


def row_owner(kind: str, key: str) -> str:
    """The table row a graph row comes from, by its manifest key: a node is its own row; a
    relationship belongs to its relation ("RELATION" type) or else to the node it starts at (a
    chunk's PART_OF and NEXT, an item's SUPPORTED_BY, an event's roles, a hypernode's ends). A sync
    after a few table rows changed compares only the manifest rows of those owners (`owned_rows`)."""
    if kind == "node":
        return key.split("\t", 1)[1]
    type_, _, src, _, _, id_ = key.split("\t")
    return src if type_ in STRUCTURAL_TYPES else id_


def rows_code() -> str:
    """A hash of the code that decides the rows (this module and the labels): part of what a sync
    records as synced, so after an upgrade that changes the rows the next sync compares them all."""
    from kgbuild.store import labels

    return content_hash(Path(__file__).read_text(encoding="utf-8") + Path(labels.__file__).read_text(encoding="utf-8"))


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
    # A literal end (a value only this hypernode names, graph/literals.py) is no node: the hypernode's
    # own properties are all the graph holds of it, its kind saying so (other ends: no kind, as before).
    kind = {f"{prefix}_kind": ref.kind} if ref.kind == "value" else {}
    return {f"{prefix}_id": ref.id, f"{prefix}_name": ref.name, **kind}


def read_graph_rows(workspace: Workspace, type_of: Callable[[str], str] = relationship_type) -> GraphRows:
    """`type_of` maps a predicate to its relationship type (see labels.schema_typer)."""
    items = TableItems(documents=list(document_nodes(workspace)), chunks=list(workspace.records("chunks", Chunk)),
                   entities=list(workspace.records("entities", Entity)),
                   events=list(workspace.records("events", Event)),
                   concepts=list(workspace.records("concepts", Concept)),
                   hypernodes=list(workspace.records("hypernodes", HyperNode)),
                   relations=list(workspace.records("relations", Relation)))
    chunk_ids = {c.id for c in items.chunks}
    rel_ends = {r.id: r for r in items.relations}
    return build_graph_rows(items, type_of, None, chunk_ids.__contains__, rel_ends.get)


@dataclass
class TableItems:
    """Table rows whose graph rows are wanted: all of them (a full read) or a few (`owned_rows`)."""

    documents: list[NodeRow] = field(default_factory=list)
    chunks: list[Chunk] = field(default_factory=list)
    entities: list[Entity] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    concepts: list[Concept] = field(default_factory=list)
    hypernodes: list[HyperNode] = field(default_factory=list)
    relations: list[Relation] = field(default_factory=list)


def build_graph_rows(items: TableItems, type_of: Callable[[str], str], label_of: Callable[[str], str | None] | None,
                has_chunk: Callable[[str], bool], triple_of: Callable[[str], Relation | None]) -> GraphRows:
    """The nodes of `items` and the relationships they own (see `edge_owner`). `label_of`: the base
    label of any node id an edge may end at (None: only the nodes of `items`, i.e. a full read);
    `triple_of`: the relation a hypernode's subject names."""
    rows = GraphRows()
    rows.nodes.extend(items.documents)
    rows.nodes.extend(chunk_node(c) for c in items.chunks)
    for e in items.entities:
        rows.nodes.append(NodeRow("Entity", e.id, _clean({
            "id": e.id, "name": e.name, "spg_class": e.spg_class, "semantic_type": e.semantic_type,
            "description": e.description, "summary": e.summary, "aliases": e.aliases,
            "properties": _json(e.properties),
        }), class_label(e.spg_class)))
    for ev in items.events:
        rows.nodes.append(NodeRow("Event", ev.id, _clean({"id": ev.id, "type": ev.type, "trigger": ev.trigger})))
    for c in items.concepts:
        rows.nodes.append(NodeRow("Concept", c.id, _clean({"id": c.id, "name": c.name, "description": c.description})))
    for h in items.hypernodes:
        props = {"id": h.id, "predicate": h.predicate,
                 **_ref_props("subject", h.subject), **_ref_props("object", h.object)}
        if h.subject.kind == "relation":
            props["relation_id"] = h.subject.id
        rows.nodes.append(NodeRow("HyperNode", h.id, _clean(props)))

    if label_of is None:
        label_of = {n.id: n.label for n in rows.nodes}.get

    def edge(type_: str, src: str, dst: str | None, id_: str, props: dict[str, Any] | None = None) -> None:
        if dst is None:
            return
        src_label, dst_label = label_of(src), label_of(dst)
        if src_label is None or dst_label is None:
            rows.dangling += 1
            return
        rows.edges.append(EdgeRow(type_, src_label, src, dst_label, dst, id_, _clean(props or {})))

    for chunk in items.chunks:
        edge("PART_OF", chunk.id, chunk.doc_id, f"{chunk.id}>PART_OF")
    for chunk in items.chunks:
        edge("NEXT", chunk.id, chunk.next_id, f"{chunk.id}>NEXT")
    supported: list[Entity | Event | Concept | HyperNode] = [
        *items.entities, *items.events, *items.concepts, *items.hypernodes]
    for item in supported:
        for cid in item.chunk_ids:
            if has_chunk(cid):
                edge("SUPPORTED_BY", item.id, cid, f"{item.id}>SUPPORTED_BY>{cid}")
    for r in items.relations:
        edge(type_of(r.predicate), r.subject.id, r.object.id, r.id,
             {"id": r.id, "predicate": r.predicate, "properties": _json(r.properties), "chunk_ids": r.chunk_ids})
    for ev in items.events:
        for role, refs in sorted(ev.arguments.items()):
            for ref in refs:
                edge("ARGUMENT", ev.id, ref.id, f"{ev.id}>ARGUMENT>{role}>{ref.id}", {"role": role})
        edge("TIME", ev.id, ev.time.id if ev.time else None, f"{ev.id}>TIME")
        edge("PLACE", ev.id, ev.place.id if ev.place else None, f"{ev.id}>PLACE")
    for h in items.hypernodes:
        if h.subject.kind == "relation":
            triple = triple_of(h.subject.id)
            if triple is None:
                rows.dangling += 1
            else:
                edge("TRIPLE_SUBJECT", h.id, triple.subject.id, f"{h.id}>TRIPLE_SUBJECT")
                edge("TRIPLE_OBJECT", h.id, triple.object.id, f"{h.id}>TRIPLE_OBJECT")
        elif h.subject.kind != "value":
            edge("SUBJECT", h.id, h.subject.id, f"{h.id}>SUBJECT")
        if h.object.kind != "value":  # a literal is a property of the HyperNode node, not an edge's end
            edge("QUALIFIER", h.id, h.object.id, f"{h.id}>QUALIFIER", {"predicate": h.predicate})
    return rows


def document_nodes(workspace: Workspace) -> Iterator[NodeRow]:
    # Columns, not `Document` records: a document record holds its whole text (`paragraphs`),
    # which the node does not carry and which is the largest column of the table.
    cols = ["id", "title", "source", "format", "content_hash", "word_count"]
    for d in workspace.read_table("documents", columns=cols).to_pylist():
        yield NodeRow("Document", d["id"], _clean(d))


def chunk_node(c: Chunk) -> NodeRow:
    return NodeRow("Chunk", c.id, _clean({
        "id": c.id, "doc_id": c.doc_id, "text": c.text, "order": c.order, "section": c.section,
        "token_count": c.token_count, "summary": c.summary, "content_hash": c.content_hash,
    }))
