"""The graph rows of a few table rows, read without loading the tables as records.

`graph_rows.read_graph_rows` builds every row of the graph; after a correction only the rows of the
table rows it changed can differ, plus the relationships that point at a node it changed (a
relabelled node is deleted and written again in the store, with every relationship at it; a node
that disappears or appears takes the relationships to it along). `with_referrers` adds the rows
those come from, `owned_rows` builds their graph rows with the same code as the full read, looking
up only the ids they name. Each graph row belongs to one table row (`graph_rows.row_owner`), so
what the store held of them is the manifest's rows of the same owners.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as ds
from pydantic import BaseModel

from kgbuild.model import Entity, Event, HyperNode, Relation
from kgbuild.store.changed_rows import OWNER_TABLES, Owners
from kgbuild.store.graph_rows import GraphRows, TableItems, build_graph_rows
from kgbuild.tables import TableCodec
from kgbuild.workspace import Workspace

M = TypeVar("M", bound=BaseModel)

# Base label of the nodes of each table, in the order the full read lists them (a later one wins).
_NODE_TABLES = (("documents", "Document"), ("chunks", "Chunk"), ("entities", "Entity"), ("events", "Event"),
                ("concepts", "Concept"), ("hypernodes", "HyperNode"))


def _where(ws: Workspace, name: str, columns: list[str] | None, expr: ds.Expression) -> pa.Table:
    path = ws.table_path(name)
    if not path.exists():
        return pa.table({})
    dataset = ds.dataset(path, format="parquet")
    if columns is not None:
        columns = [c for c in columns if c in dataset.schema.names]
    return dataset.to_table(columns=columns, filter=expr)


def _isin(column: str, ids: Iterable[str]) -> ds.Expression:
    return ds.field(column).isin(pa.array(sorted(set(ids)), type=pa.string()))


def _records(ws: Workspace, name: str, model: type[M], ids: set[str]) -> list[M]:
    if not ids:
        return []
    codec = TableCodec.of(model)
    return [codec.from_row(r) for r in _where(ws, name, codec.columns(), _isin("id", ids)).to_pylist()]


def _ids(table: pa.Table) -> set[str]:
    return set(table.column("id").to_pylist()) if table.num_rows else set()


def with_referrers(ws: Workspace, owners: Owners) -> Owners:
    """`owners` and the rows whose relationships end at one of its nodes (relations, hypernodes and
    events naming an entity, event or hypernode of it), with the hypernodes qualifying one of the
    relations in the result (their TRIPLE_SUBJECT/OBJECT follow that relation's ends)."""
    out = {t: set(owners.get(t, ())) for t in OWNER_TABLES}
    nodes = out["entities"] | out["events"] | out["hypernodes"]
    if nodes:
        at_nodes = _isin("subject_id", nodes) | _isin("object_id", nodes)
        out["relations"] |= _ids(_where(ws, "relations", ["id"], at_nodes))
        expr = _isin("time_id", nodes) | _isin("place_id", nodes)
        for node in sorted(nodes):  # role arguments are a JSON column: the id as a quoted string in it
            expr = expr | pc.match_substring(ds.field("arguments"), f'"{node}"')
        out["events"] |= _ids(_where(ws, "events", ["id"], expr))
    ends = nodes | out["relations"]
    if ends:
        at_ends = _isin("subject_id", ends) | _isin("object_id", ends)
        out["hypernodes"] |= _ids(_where(ws, "hypernodes", ["id"], at_ends))
    return out


def owned_rows(ws: Workspace, owners: Owners, type_of: Callable[[str], str]) -> GraphRows:
    """The graph rows of the table rows `owners` names, as `read_graph_rows` makes them."""
    items = TableItems(entities=_records(ws, "entities", Entity, owners.get("entities", set())),
                       events=_records(ws, "events", Event, owners.get("events", set())),
                       hypernodes=_records(ws, "hypernodes", HyperNode, owners.get("hypernodes", set())),
                       relations=_records(ws, "relations", Relation, owners.get("relations", set())))
    triples = {r.id: r for r in _records(ws, "relations", Relation,
                                         {h.subject.id for h in items.hypernodes if h.subject.kind == "relation"})}
    named: set[str] = set()
    for e in items.entities:
        named.update([e.id, *e.chunk_ids])
    for r in [*items.relations, *triples.values()]:
        named.update([r.subject.id, r.object.id])
    for ev in items.events:
        named.update([ev.id, *ev.chunk_ids, *(ref.id for refs in ev.arguments.values() for ref in refs)])
        named.update(ref.id for ref in (ev.time, ev.place) if ref is not None)
    for h in items.hypernodes:
        named.update([h.id, *h.chunk_ids, h.subject.id, h.object.id])
    labels: dict[str, str] = {}
    chunks: set[str] = set()
    for table, label in _NODE_TABLES:
        found = _ids(_where(ws, table, ["id"], _isin("id", named))) if named else set()
        labels.update(dict.fromkeys(sorted(found), label))
        chunks = found if table == "chunks" else chunks
    return build_graph_rows(items, type_of, labels.get, chunks.__contains__, triples.get)

