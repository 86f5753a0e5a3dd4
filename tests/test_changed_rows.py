"""Issue 27: a sync after a correction compares only the graph rows of the table rows it changed.

Store-free parts: the rows read for a few owners are the full read's rows of those owners, the
chain of noted steps is trusted only unbroken, and an older manifest gains its rows' owners.
The store path (embedded ArcadeDB) is in test_curate_sync.py."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from test_curate import SCHEMA, entries, graph, write_tables  # noqa: F401 - graph is a fixture

from kgbuild.build.corrections_tables import apply_to_tables
from kgbuild.curate.file import make
from kgbuild.store.changed_rows import changed_since, note_changed, tables_state
from kgbuild.store.graph_rows import GraphRows, read_graph_rows, row_owner
from kgbuild.store.manifest import StoreManifest
from kgbuild.store.owned_rows import owned_rows, with_referrers
from kgbuild.workspace import Workspace


def rows_of(rows: GraphRows, owners: set[str]) -> tuple[set[tuple[str, str]], set[tuple[str, str]]]:
    nodes = {(n.key, f"{n.extra_label}:{n.digest()}") for n in rows.nodes if row_owner("node", n.key) in owners}
    edges = {(e.key, e.digest()) for e in rows.edges if row_owner("edge", e.key) in owners}
    return nodes, edges


def written(g, tmp_path: Path) -> Workspace:
    ws = Workspace(tmp_path / "ws")
    ws.ensure()
    write_tables(ws, g)
    return ws


def test_the_rows_of_a_few_owners_are_the_full_reads_rows_of_them(graph, tmp_path: Path) -> None:  # noqa: F811
    g, e = graph
    ws = written(g, tmp_path)
    synced = tables_state(ws)
    apply_to_tables(ws, entries(
        make("merge", {"a": "Alan Turing", "b": "A. Turing"}),
        make("retype", {"entity": "Hut 8", "class": "Place"}),
        make("reject", {"subject": "Gordon Welchman", "predicate": "build at", "object": "Alan Turing"}),
        make("add", {"subject": "Gordon Welchman", "predicate": "knows", "object": "Alan Turing"}),
    ), SCHEMA)
    changed = changed_since(ws, synced)
    assert changed is not None and e["aturing"].id in changed["entities"] and e["hut"].id in changed["entities"]
    owners = with_referrers(ws, changed)
    # Every relation, event and hypernode naming the retyped Hut 8 is compared, though none changed.
    assert {h.id for h in g.hypernodes} <= owners["hypernodes"] and {ev.id for ev in g.events} <= owners["events"]
    ids = set().union(*owners.values())
    full = read_graph_rows(ws)
    got = owned_rows(ws, owners, lambda p: p.upper())
    assert rows_of(got, ids) == rows_of(read_graph_rows(ws, lambda p: p.upper()), ids)
    assert len(got.edges) > 5 and rows_of(got, ids)[0]  # not vacuous
    assert all(row_owner("edge", edge.key) in ids for edge in got.edges)
    assert {n.key for n in got.nodes} <= {n.key for n in full.nodes}


def test_the_changed_rows_are_known_only_along_an_unbroken_chain(graph, tmp_path: Path) -> None:  # noqa: F811
    g, e = graph
    ws = written(g, tmp_path)
    s0 = tables_state(ws)
    assert changed_since(ws, s0) == {"entities": set(), "events": set(), "hypernodes": set(), "relations": set()}
    assert changed_since(ws, None) is None
    apply_to_tables(ws, entries(make("rename", {"entity": "Hut 8", "name": "Hut Eight"})), SCHEMA)
    s1 = tables_state(ws)
    apply_to_tables(ws, entries(make("rename", {"entity": "Bletchley Park", "name": "BP"})), SCHEMA)
    both, second = changed_since(ws, s0), changed_since(ws, s1)
    assert both is not None and second is not None
    assert {e["hut"].id, e["bletchley"].id} <= both["entities"]
    assert e["bletchley"].id in second["entities"] and e["hut"].id not in second["entities"]
    # A write no step noted (a build, say) breaks the chain: everything is compared again.
    write_tables(ws, g)
    assert changed_since(ws, s0) is None and changed_since(ws, s1) is None
    # Noting a step with the tables unchanged records nothing.
    s2 = tables_state(ws)
    note_changed(ws, s2, {"entities": {"x"}})
    assert changed_since(ws, s2) == {"entities": set(), "events": set(), "hypernodes": set(), "relations": set()}


def test_an_older_manifest_gains_the_owners_of_its_rows(tmp_path: Path) -> None:
    path = tmp_path / "stores.sqlite"
    db = sqlite3.connect(path)  # the layout before owners were kept
    db.execute("CREATE TABLE rows (target TEXT, kind TEXT, id TEXT, hash TEXT, PRIMARY KEY (target, kind, id))")
    edge = "\t".join(("SUPPORTED_BY", "Entity", "ent_1", "Chunk", "d#p1#0", "ent_1>SUPPORTED_BY>d#p1#0"))
    relation = "\t".join(("KNOWS", "Entity", "ent_1", "Entity", "ent_2", "rel_9"))
    db.executemany("INSERT INTO rows VALUES ('g', ?, ?, 'h')", [("node", "Entity\tent_1"), ("edge", edge),
                                                                 ("edge", relation)])
    db.commit()
    db.close()
    manifest = StoreManifest(path, "g")
    try:
        assert not manifest.all_owned("edge") and manifest.owned("edge", ["ent_1"]) == {}
        for kind in ("node", "edge"):
            manifest.fill_owners(kind, lambda k, kind=kind: row_owner(kind, k))
        assert manifest.all_owned("node") and manifest.all_owned("edge")
        assert manifest.owned("edge", ["ent_1"]) == {edge: "h"} and manifest.owned("edge", ["rel_9"]) == {relation: "h"}
        assert manifest.owned("node", ["ent_1"]) == {"Entity\tent_1": "h"}
        assert manifest.synced() is None
        manifest.set_synced({"rows": "r", "tables": {}})
        assert manifest.synced() == {"rows": "r", "tables": {}}
        manifest.begin()  # a sync that starts no longer trusts what the last one left
        assert manifest.synced() is None
    finally:
        manifest.close()


def test_the_rows_naming_a_changed_node_are_compared_with_it(graph, tmp_path: Path) -> None:  # noqa: F811
    """A writer that notes only the node it changed: what points at the node is added (a relabelled
    node is written again in the store, and every relationship at it with it)."""
    g, e = graph
    ws = written(g, tmp_path)
    owners = with_referrers(ws, {"entities": {e["hut"].id}})
    leader = next(r.id for r in g.relations if r.predicate == "leaderOf")
    assert owners["relations"] == {leader}  # a relation a hypernode qualifies does not point at Hut 8
    assert owners["hypernodes"] == {h.id for h in g.hypernodes}  # both name Hut 8 as their object
    assert owners["events"] == set()
    by_argument = with_referrers(ws, {"entities": {e["bletchley"].id}})
    assert by_argument["events"] == {ev.id for ev in g.events}  # named in the JSON of its roles
    assert with_referrers(ws, {"relations": {leader}})["hypernodes"] == set()
