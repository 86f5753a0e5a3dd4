"""New corrections applied to the written tables, reading only the rows they touch.

Loading a corpus-sized graph as records takes seconds (2Wiki: 40k entities, 30k relations, ~20 s
on a loaded 2-core machine), while a correction touches a handful of rows. So the targets are
resolved on a few Arrow columns (ids, names, aliases), the rows that point at them are selected by
id with Arrow kernels, and `curate.apply.apply_corrections` -- the function the build stage uses --
runs on that small graph. Every entity sharing a target's name is in it, so a name that names several
entities is refused here as it is in a build. The tables are then rewritten as the rows kept plus
the rows the corrections made, in id order like a build writes them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from kgbuild.align.fusion import Merge
from kgbuild.assemble import Graph
from kgbuild.curate.apply import Applied, apply_corrections
from kgbuild.curate.file import Entry
from kgbuild.ids import normalize_name
from kgbuild.model import Concept, Entity, Event, HyperNode, Relation
from kgbuild.schema import Schema
from kgbuild.store.changed_rows import note_changed, tables_state
from kgbuild.tables import SCHEMAS, TableCodec, entity_row, event_row, hypernode_row, merge_row, relation_row
from kgbuild.workspace import Workspace

# The fields of a correction that name an entity or a concept (`reject` by id names a triple).
_NAMING = ("a", "b", "entity", "subject", "object")


# The stage records (not the row records, which carry the row-only columns): what `apply` edits.
_CODECS: dict[str, TableCodec[Any]] = {"entities": TableCodec.of(Entity), "relations": TableCodec.of(Relation),
                                      "events": TableCodec.of(Event), "hypernodes": TableCodec.of(HyperNode)}


def _records(table: pa.Table, name: str) -> list[Any]:
    codec = _CODECS[name]
    return [codec.from_row(row) for row in table.to_pylist()]


def _in(table: pa.Table, column: str, values: Iterable[str]) -> pa.Array:
    return pc.is_in(table.column(column), value_set=pa.array(sorted(set(values)), type=pa.string()))


def apply_to_tables(ws: Workspace, entries: Sequence[Entry], schema: Schema | None) -> Applied:
    """`entries` applied to the workspace's tables, which are rewritten; what they applied and what was
    stale. The rows replaced and written are noted for the next store sync (`store.changed_rows`)."""
    before = tables_state(ws)
    # The columns the targets are found by; the whole table only when entity rows change (a
    # reject leaves it alone, and it is the widest table: descriptions, summaries, properties).
    entities = ws.read_table("entities", ["id", "name", "aliases", "spg_class"])
    # Columns, not records: a corpus has thousands of merges, and a record each cost more than the rest.
    merges = [Merge(m["canonical_id"], tuple(m["merged_ids"] or ()), m["step"], m["reason"])
              for m in ws.read_table("merges", ["canonical_id", "merged_ids", "step", "reason"]).to_pylist()]
    folded = {mid: m.canonical_id for m in merges for mid in m.merged_ids if mid != m.canonical_id}
    wanted_names = {normalize_name(c.target[f]) for e in entries for f in _NAMING if f in (c := e.correction).target}
    wanted_ids = {c.target[f] for e in entries for f in _NAMING if f in (c := e.correction).target}
    for target in list(wanted_ids):
        seen: set[str] = set()
        while target in folded and target not in seen:
            seen.add(target)
            target = folded[target]
            wanted_ids.add(target)
    # Entities named (by id, name or alias) by any correction.
    ids, names = entities.column("id").to_pylist(), entities.column("name").to_pylist()
    picked = {i for i in ids if i in wanted_ids} | _named(entities, wanted_names)
    # Triples named by id.
    # Hypernodes and events too are read whole only when a row of theirs changes.
    relations = ws.read_table("relations")
    hypernodes = ws.read_table("hypernodes", ["id", "subject_id", "object_id"])
    events = ws.read_table("events", ["id", "type", "time_id", "place_id", "arguments"])
    rel_ids = {e.correction.target["id"] for e in entries if "id" in e.correction.target}
    # What points at the picked entities (and at the relations that do, for qualifiers).
    rel_mask = pc.or_(pc.or_(_in(relations, "subject_id", picked), _in(relations, "object_id", picked)),
                      _in(relations, "id", rel_ids))
    sub_relations = relations.filter(rel_mask)
    touched_rel = set(sub_relations.column("id").to_pylist())
    ends = picked | touched_rel | rel_ids
    hyp_mask = pc.or_(pc.or_(_in(hypernodes, "subject_id", ends), _in(hypernodes, "object_id", ends)),
                      _in(hypernodes, "id", rel_ids))
    ev_mask = pc.or_(_in(events, "time_id", picked), _in(events, "place_id", picked))
    for eid in picked:  # role arguments are a JSON column: the id as a quoted string in it
        ev_mask = pc.or_(ev_mask, pc.match_substring(events.column("arguments"), f'"{eid}"'))
    sub_events = events.filter(ev_mask)
    event_ids = set(sub_events.column("id").to_pylist())
    if event_ids:  # relations ending at an event that a merge re-keys follow it
        more = pc.or_(_in(relations, "subject_id", event_ids), _in(relations, "object_id", event_ids))
        rel_mask = pc.or_(rel_mask, more)
        sub_relations = relations.filter(rel_mask)
    sub_hyps = hypernodes.filter(hyp_mask)
    if sub_hyps.num_rows:
        hypernodes = ws.read_table("hypernodes")
        sub_hyps = hypernodes.filter(_in(hypernodes, "id", sub_hyps.column("id").to_pylist()))
    if sub_events.num_rows:
        events = ws.read_table("events")
        sub_events = events.filter(_in(events, "id", event_ids))
    concepts = ws.read_table("concepts", ["id", "name"]).to_pylist()
    if picked:
        entities = ws.read_table("entities")
    graph = Graph(entities=_records(entities.filter(_in(entities, "id", picked)), "entities"),
                  relations=_records(sub_relations, "relations"), events=_records(sub_events, "events"),
                  hypernodes=_records(sub_hyps, "hypernodes"),
                  concepts=[Concept(id=c["id"], name=c["name"]) for c in concepts])
    done = apply_corrections(graph, merges, entries, schema)
    out = done.graph
    # Classes of every node a rewritten relation may end at, for its subject_class / object_class.
    classes: dict[str, str] = dict(zip(ids, entities.column("spg_class").to_pylist(), strict=True))
    classes.update(zip(events.column("id").to_pylist(), events.column("type").to_pylist(), strict=True))
    classes.update({c["id"]: "Concept" for c in concepts})
    classes.update(out.node_classes())
    if out.entities and not picked:  # an `add` that made a new entity
        entities = ws.read_table("entities")
    _replace(ws, "entities", entities, {e.id for e in graph.entities}, [entity_row(e) for e in out.entities])
    _replace(ws, "relations", relations, {r.id for r in graph.relations},
             [relation_row(r, classes) for r in out.relations])
    if out.events and not graph.events:
        events = ws.read_table("events")
    _replace(ws, "events", events, {e.id for e in graph.events}, [event_row(e) for e in out.events])
    if out.hypernodes and not graph.hypernodes:
        hypernodes = ws.read_table("hypernodes")
    _replace(ws, "hypernodes", hypernodes, {h.id for h in graph.hypernodes}, [hypernode_row(h) for h in out.hypernodes])
    if done.merges != merges:
        names = dict(zip(ids, names, strict=True))
        names.update({e.id: e.name for e in out.entities})
        ws.write_table("merges", [merge_row(m, names) for m in done.merges])
    note_changed(ws, before, {
        "entities": {e.id for e in graph.entities} | {e.id for e in out.entities},
        "relations": {r.id for r in graph.relations} | {r.id for r in out.relations},
        "events": {e.id for e in graph.events} | {e.id for e in out.events},
        "hypernodes": {h.id for h in graph.hypernodes} | {h.id for h in out.hypernodes}})
    return done


def _named(entities: pa.Table, wanted: set[str]) -> set[str]:
    """Ids of the entities whose name or an alias normalises to one of `wanted`. Normalising every
    name in Python is most of the cost on a corpus, so rows are first narrowed with Arrow kernels to
    those containing a wanted name's longest word (NFKC, lower case), then checked exactly. Lower
    case equals case folding only where the word has no 'ss' (German sharp s folds to it) and is
    ASCII; other names take the exact check on every row."""
    if not wanted:
        return set()
    rows = range(entities.num_rows)
    if all(w.isascii() and "ss" not in w and w.split() for w in wanted):
        def folded(column: Any) -> Any:
            return pc.utf8_lower(pc.utf8_normalize(column, "NFKC"))

        names = folded(entities.column("name"))
        aliases = entities.column("aliases")
        flat, parents = folded(pc.list_flatten(aliases)), pc.list_parent_indices(aliases)
        hit: set[int] = set()
        for w in wanted:
            needle = max(w.split(), key=len)
            hit.update(pc.indices_nonzero(pc.match_substring(names, needle)).to_pylist())
            found = pc.indices_nonzero(pc.match_substring(flat, needle))
            hit.update(pc.take(parents, found).to_pylist())
        rows = sorted(hit)  # type: ignore[assignment]
    sub = entities.take(pa.array(list(rows), type=pa.int64())).select(["id", "name", "aliases"]).to_pylist()
    return {r["id"] for r in sub if normalize_name(r["name"]) in wanted
            or any(normalize_name(a) in wanted for a in r["aliases"] or ())}


def _replace(ws: Workspace, name: str, table: pa.Table, old_ids: set[str], rows: list[dict[str, Any]]) -> None:
    """Table `name` without the rows `old_ids` and with `rows`, in id order; not rewritten when equal."""
    new = pa.Table.from_pylist(rows, schema=SCHEMAS[name])
    if not old_ids and not rows:
        return
    kept = table.filter(pc.invert(_in(table, "id", old_ids))) if old_ids else table
    merged = pa.concat_tables([kept.select(new.schema.names).cast(new.schema), new])
    merged = merged.take(pc.sort_indices(merged, sort_keys=[("id", "ascending")]))
    if merged.num_rows == table.num_rows and merged.equals(table.select(new.schema.names).cast(new.schema)):
        return
    ws.write_arrow(name, merged)

