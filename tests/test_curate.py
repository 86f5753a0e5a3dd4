"""Issue 27: the corrections file and applying it to a graph (no stores; see test_curate_build.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kgbuild.align.fusion import Merge, fuse_entities
from kgbuild.assemble import Graph
from kgbuild.curate.apply import MANUAL_STEP, PROVENANCE, apply_corrections
from kgbuild.curate.constraints import apart_constraints
from kgbuild.curate.file import (
    Entry,
    append_correction,
    make,
    read_corrections,
    remove_correction,
)
from kgbuild.curate.review import review_queue
from kgbuild.errors import InputError
from kgbuild.model import Concept, Entity, Event, HyperNode, Ref, Relation
from kgbuild.schema import builtin_schema_path, load_schema

SCHEMA = load_schema(builtin_schema_path("open_domain"))


def ent(name: str, cls: str = "Person", chunk: str = "doc#p00000#0") -> Entity:
    return Entity(id=Entity.make_id(name, cls), name=name, spg_class=cls, chunk_ids=[chunk])


def rel(s: Entity, p: str, o: Entity | Concept, chunk: str = "doc#p00000#0") -> Relation:
    oref = o.ref() if isinstance(o, Entity) else Ref(kind="concept", id=o.id, name=o.name)
    return Relation(id=Relation.make_id(s.id, p, o.id), subject=s.ref(), predicate=p, object=oref, chunk_ids=[chunk])


def entries(*corrections) -> list[Entry]:
    return [Entry(i, 0, c) for i, c in enumerate(corrections, start=1)]


@pytest.fixture
def graph() -> tuple[Graph, dict[str, Entity]]:
    e = {k: ent(n, c) for k, n, c in [("turing", "Alan Turing", "Person"), ("aturing", "A. Turing", "Person"),
                                       ("welchman", "Gordon Welchman", "Person"),
                                       ("bletchley", "Bletchley Park", "Thing"), ("hut", "Hut 8", "Thing")]}
    person = Concept(id=Concept.make_id("mathematician"), name="mathematician")
    works = rel(e["aturing"], "worksAt", e["bletchley"])
    build_at = rel(e["welchman"], "build at", e["turing"])
    relations = [rel(e["turing"], "worksAt", e["bletchley"]), works, build_at, rel(e["aturing"], "leaderOf", e["hut"]),
                 rel(e["turing"], "knows", e["aturing"]), rel(e["turing"], "belongTo", person)]
    qualifier = HyperNode(id=HyperNode.make_id(works.id, "since", e["hut"].id), subject=works.ref(), predicate="since",
                          object=e["hut"].ref())
    on_build = HyperNode(id=HyperNode.make_id(build_at.id, "in", e["hut"].id), subject=build_at.ref(), predicate="in",
                         object=e["hut"].ref())
    args = {"agent": [e["aturing"].ref()], "place": [e["bletchley"].ref()]}
    event = Event(id=Event.make_id("Work", "worked", args), type="Work", trigger="worked", arguments=args)
    g = Graph(entities=list(e.values()), relations=relations, hypernodes=[qualifier, on_build], events=[event],
              concepts=[person])
    return g, e


# ---------------------------------------------------------------- the file


def test_the_file_round_trips_and_undo_takes_an_entry_out(tmp_path: Path) -> None:
    path = tmp_path / "corrections.yaml"
    append_correction(path, make("merge", {"a": "Alan Turing", "b": "A. Turing"}, author="ann", reason="same"))
    append_correction(path, make("reject", {"subject": "Gordon Welchman", "predicate": "build at",
                                            "object": "Alan Turing"}, author="bob"))
    append_correction(path, make("add", {"subject": "Alan Turing", "predicate": "bornIn", "object": "London",
                                         "note": "biography", "object_class": "GeographicLocation"}))
    file = read_corrections(path)
    assert [e.correction.kind for e in file.entries] == ["merge", "reject", "add"]
    first = file.entries[0].correction
    assert (first.author, first.reason, first.target) == ("ann", "same", {"a": "Alan Turing", "b": "A. Turing"})
    assert first.time and file.entries[1].line > file.entries[0].line > 0
    with pytest.raises(InputError, match="already says"):
        append_correction(path, make("merge", {"a": "Alan Turing", "b": "A. Turing"}, author="carl"))
    removed = remove_correction(path, 2)
    assert removed.kind == "reject"
    assert [e.correction.kind for e in read_corrections(path).entries] == ["merge", "add"]
    assert remove_correction(path).kind == "add"  # no number: the last one
    with pytest.raises(InputError, match="no correction 5"):
        remove_correction(path, 5)


def test_a_bad_entry_is_one_line_with_its_line_number_and_the_rest_applies(tmp_path: Path) -> None:
    path = tmp_path / "corrections.yaml"
    path.write_text("corrections:\n"
                    "- merge: [Alan Turing, A. Turing]\n"
                    "- retype: {entity: Hut 8}\n"
                    "- frobnicate: [a, b]\n"
                    "- rename: {entity: Hut 8, name: Hut Eight}\n", encoding="utf-8")
    file = read_corrections(path)
    assert [e.correction.kind for e in file.entries] == ["merge", "rename"]
    assert file.problems == [
        f"{path}:3: correction 2 retype missing class; fix or remove it (left out)",
        f"{path}:4: correction 3 needs exactly one of merge, never_merge, reject, retype, rename, add "
        "(found none); fix or remove it (left out)",
    ]
    with pytest.raises(InputError, match="fix the file by hand first"):  # rewriting must not lose them
        append_correction(path, make("rename", {"entity": "x", "name": "y"}))
    path.write_text("corrections: [merge: [a\n", encoding="utf-8")
    with pytest.raises(InputError, match="not valid YAML"):
        read_corrections(path)


# ---------------------------------------------------------------- applying


def test_merge_folds_the_second_into_the_first_and_repoints_everything(graph) -> None:
    g, e = graph
    c = make("merge", {"a": "alan turing", "b": e["aturing"].id}, author="ann", reason="same person")
    done = apply_corrections(g, [], entries(c), SCHEMA)
    assert done.applied == {"merge": 1} and not done.stale
    out = done.graph
    ids = {x.id for x in out.entities}
    assert e["aturing"].id not in ids and e["turing"].id in ids
    turing = next(x for x in out.entities if x.id == e["turing"].id)
    assert turing.name == "Alan Turing" and "A. Turing" in turing.aliases
    triples = {(r.subject.name, r.predicate, r.object.name) for r in out.relations}
    # The two worksAt triples are one now; the knows self-loop made by the merge is gone.
    assert ("Alan Turing", "worksAt", "Bletchley Park") in triples
    assert ("Alan Turing", "leaderOf", "Hut 8") in triples
    assert not any(r.predicate == "knows" for r in out.relations)
    assert len([r for r in out.relations if r.predicate == "worksAt"]) == 1
    for r in out.relations:  # ids stay content-derived
        assert r.id == Relation.make_id(r.subject.id, r.predicate, r.object.id)
    # The qualifier of the re-keyed relation follows it; the event's argument is re-pointed.
    works = next(r for r in out.relations if r.predicate == "worksAt")
    since = next(h for h in out.hypernodes if h.predicate == "since")
    assert since.subject.id == works.id and since.id == HyperNode.make_id(works.id, "since", e["hut"].id)
    (event,) = out.events
    assert event.arguments["agent"][0].id == e["turing"].id
    assert event.id == Event.make_id("Work", "worked", event.arguments)
    assert done.merges[-1] == Merge(e["turing"].id, tuple(sorted((e["turing"].id, e["aturing"].id))), MANUAL_STEP,
                                    "by hand (ann): same person")
    assert g.entities[1].id == e["aturing"].id and len(g.relations) == 6  # the input is untouched


def test_reject_rename_retype_and_add(graph) -> None:
    g, e = graph
    fixes = entries(
        make("reject", {"subject": "Gordon Welchman", "predicate": "Build At", "object": "Alan Turing"}),
        make("rename", {"entity": "Hut 8", "name": "Hut Eight"}),
        make("retype", {"entity": "Bletchley Park", "class": "place"}),  # the schema's spelling is found
        make("add", {"subject": "Alan Turing", "predicate": "bornIn", "object": "Maida Vale",
                     "object_class": "GeographicLocation", "note": "biography"}),
        make("reject", {"id": next(r.id for r in g.relations if r.predicate == "leaderOf")}),
    )
    done = apply_corrections(g, [], fixes, SCHEMA)
    assert not done.stale, done.stale
    assert done.applied == {"reject": 2, "rename": 1, "retype": 1, "add": 1}
    out = done.graph
    triples = {(r.subject.name, r.predicate, r.object.name) for r in out.relations}
    assert ("Gordon Welchman", "build at", "Alan Turing") not in triples
    assert not any(h.predicate == "in" for h in out.hypernodes)  # the rejected triple's qualifier goes with it
    assert not any(r.predicate == "leaderOf" for r in out.relations)
    hut = next(x for x in out.entities if x.id == e["hut"].id)  # renamed, same id
    assert (hut.name, hut.aliases) == ("Hut Eight", ["Hut 8"])
    assert next(h for h in out.hypernodes if h.predicate == "since").object.name == "Hut Eight"
    assert next(x for x in out.entities if x.id == e["bletchley"].id).spg_class == SCHEMA.resolve_class("place")
    added = next(r for r in out.relations if r.predicate == "bornIn")
    maida = next(x for x in out.entities if x.name == "Maida Vale")
    assert maida.id == Entity.make_id("Maida Vale", "GeographicLocation") and maida.chunk_ids == []
    assert added.chunk_ids == [] and added.properties["note"] == "biography"
    assert added.properties[PROVENANCE].startswith("correction cor_")


def test_a_correction_whose_target_is_gone_is_reported_stale_not_dropped(graph) -> None:
    g, e = graph
    g.entities.append(ent("Hut 8", "Organization"))  # a second "Hut 8": the name is ambiguous
    fixes = entries(
        make("merge", {"a": "Alan Turing", "b": "Joan Clarke"}),
        make("reject", {"id": "rel_0000"}),
        make("retype", {"entity": "Alan Turing", "class": "Spaceship"}),
        make("rename", {"entity": "Hut 8", "name": "Hut Eight"}),
        make("add", {"subject": "Alan Turing", "predicate": "bornIn", "object": "Maida Vale"}),
        make("rename", {"entity": "A. Turing", "name": "A. M. Turing"}),
    )
    done = apply_corrections(g, [], fixes, SCHEMA)
    assert done.applied == {"rename": 1}
    assert [s.line for s in done.stale] == [
        "correction 1 (merge 'Alan Turing' <- 'Joan Clarke'): no entity named 'Joan Clarke'",
        "correction 2 (reject rel_0000): no triple rel_0000",
        "correction 3 (retype 'Alan Turing' as Spaceship): class 'Spaceship' is not in schema open_domain",
        f"correction 4 (rename 'Hut 8' to 'Hut Eight'): 2 entities are named 'Hut 8' ({e['hut'].id} (Thing), "
        f"{Entity.make_id('Hut 8', 'Organization')} (Organization)): name one by its id",
        "correction 5 (add (Alan Turing, bornIn, Maida Vale)): no entity named 'Maida Vale'; give its class "
        "(subject_class / object_class) to create it",
    ]
    assert [s.number for s in done.stale] == [1, 2, 3, 4, 5]


def test_a_name_fusion_folded_away_still_finds_its_entity(graph) -> None:
    g, e = graph
    fused = fuse_entities(g.entities, g.relations, SCHEMA)
    folded = [m for m in fused.merges if e["aturing"].id in m.merged_ids]
    assert folded, "fusion should read 'A. Turing' as Alan Turing"
    fused_graph = g.model_copy(update={"entities": fused.entities, "relations": fused.relations})
    done = apply_corrections(fused_graph, fused.merges, entries(make("retype", {"entity": e["aturing"].id,
                                                                               "class": "Person"})), SCHEMA)
    assert done.applied == {"retype": 1}


def test_never_merge_keeps_fusion_from_joining_the_two_and_splits_a_chain(graph) -> None:
    g, e = graph
    assert fuse_entities(g.entities, g.relations, SCHEMA).id_map[e["aturing"].id] == e["turing"].id
    fixes = entries(make("never_merge", {"a": "Alan Turing", "b": "a. turing"}))
    apart = apart_constraints(g.entities, fixes)
    assert [(set(p.a), set(p.b)) for p in apart] == [({e["turing"].id}, {e["aturing"].id})]
    fused = fuse_entities(g.entities, g.relations, SCHEMA, apart=apart)
    assert fused.id_map[e["aturing"].id] == e["aturing"].id
    # Through a third name that fusion would join to both: only one of the two joins it.
    turing = ent("Turing", "Person")
    fused = fuse_entities([*g.entities, turing], g.relations, SCHEMA,
                          apart=apart_constraints([*g.entities, turing], fixes))
    assert fused.id_map[e["aturing"].id] != fused.id_map[e["turing"].id]
    after = g.model_copy(update={"entities": fused.entities})
    assert not apply_corrections(after, fused.merges, fixes, SCHEMA).stale  # still two things: not stale


def test_a_thousand_corrections_apply_in_one_pass() -> None:
    people = [ent(f"Person {i:04d} Example", "Person", f"d{i}#p00000#0") for i in range(3000)]
    relations = [rel(people[i], "knows", people[(i + 1) % 3000]) for i in range(3000)]
    g = Graph(entities=people, relations=relations)
    fixes = entries(*[make("merge", {"a": people[2 * i].id, "b": people[2 * i + 1].id}) for i in range(500)],
                    *[make("rename", {"entity": people[1000 + i].id, "name": f"Renamed {i}"}) for i in range(500)])
    done = apply_corrections(g, [], fixes, SCHEMA)
    assert done.applied == {"merge": 500, "rename": 500} and not done.stale
    assert len(done.graph.entities) == 2500
    assert all(r.subject.id in {x.id for x in done.graph.entities} for r in done.graph.relations)


# ---------------------------------------------------------------- the review queue


def test_the_review_queue_lists_near_calls_and_leaves_out_decided_ones() -> None:
    people = [ent("Jonathan Smithers"), ent("Jonathon Smithe"), ent("Marie Curie"), ent("Pierre Curie")]
    fused = fuse_entities(people, [], SCHEMA)
    queue = review_queue(fused.entities, fused.merges, SCHEMA)
    pairs = {frozenset((it.a_name, it.b_name)): it for it in queue}
    near = pairs.get(frozenset(("Jonathan Smithers", "Jonathon Smithe")))
    assert near is not None and near.kind == "apart" and 0.5 <= near.score < 0.65  # refused by the edit distance
    curie = pairs[frozenset(("Marie Curie", "Pierre Curie"))]
    assert curie.kind == "apart" and 0.35 <= curie.score < 0.5  # just under the Jaccard threshold
    assert near.correction(True) == ("merge", {"a": near.a_id, "b": near.b_id})
    assert near.correction(False)[0] == "never_merge"
    assert all(it.id.startswith("rev_") for it in queue)
    again = review_queue(fused.entities, fused.merges, SCHEMA,
                         corrections=[make("never_merge", {"a": near.a_name.lower(), "b": near.b_id})])
    assert near.id not in {it.id for it in again}


def write_tables(ws, graph: Graph) -> None:
    """The graph tables as persist writes them."""
    from kgbuild.tables import concept_row, entity_row, event_row, hypernode_row, relation_row

    classes = graph.node_classes()
    ws.write_table("entities", [entity_row(x) for x in sorted(graph.entities, key=lambda x: x.id)])
    ws.write_table("relations", [relation_row(x, classes) for x in sorted(graph.relations, key=lambda x: x.id)])
    ws.write_table("events", [event_row(x) for x in sorted(graph.events, key=lambda x: x.id)])
    ws.write_table("hypernodes", [hypernode_row(x) for x in sorted(graph.hypernodes, key=lambda x: x.id)])
    ws.write_table("concepts", [concept_row(x) for x in graph.concepts])
    ws.write_table("merges", [])


def test_syncs_in_a_row_stay_on_the_table_path(graph, tmp_path: Path) -> None:
    """A reject rewrites no entity row; the rename synced after it must still be applied to the tables
    (before, the untouched entities table looked older than the record and forced a re-alignment)."""
    import asyncio

    from kgbuild.build.corrections import record_applied
    from kgbuild.build.corrections_sync import apply_pending
    from kgbuild.config import load_config
    from kgbuild.workspace import Workspace

    g, e = graph
    (tmp_path / "kgbuild.yaml").write_text("workspace: ws\n", encoding="utf-8")
    config = load_config(tmp_path / "kgbuild.yaml", env={})
    ws = Workspace(config.workspace_path())
    record_applied(ws, [])  # as a build's corrections stage does, before persist writes the tables
    write_tables(ws, g)
    path = tmp_path / "corrections.yaml"
    append_correction(path, make("reject", {"id": next(r.id for r in g.relations if r.predicate == "leaderOf")}))
    assert asyncio.run(apply_pending(config, SCHEMA)).how == "tables"
    append_correction(path, make("rename", {"entity": e["hut"].id, "name": "Hut Eight"}))
    done = asyncio.run(apply_pending(config, SCHEMA))
    assert (done.how, done.applied) == ("tables", {"rename": 1})
    assert asyncio.run(apply_pending(config, SCHEMA)).how == "none"
    assert "Hut Eight" in ws.read_table("entities").column("name").to_pylist()


def test_applying_to_the_written_tables_gives_the_rows_a_whole_graph_gives(graph, tmp_path: Path) -> None:
    """`kgbuild sync`'s path (only the touched rows read) against the build's (the whole graph)."""
    from kgbuild.build.corrections_tables import apply_to_tables
    from kgbuild.workspace import Workspace

    g, _ = graph
    fixes = entries(
        make("merge", {"a": "Alan Turing", "b": "a. turing"}, author="ann"),
        make("reject", {"subject": "Gordon Welchman", "predicate": "build at", "object": "Alan Turing"}),
        make("rename", {"entity": "Hut 8", "name": "Hut Eight"}),
        make("retype", {"entity": "Bletchley Park", "class": "Place"}),
        make("add", {"subject": "Alan Turing", "predicate": "bornIn", "object": "Maida Vale",
                     "object_class": "GeographicLocation"}),
        make("rename", {"entity": "Joan Clarke", "name": "x"}),  # stale
    )

    tables, whole = Workspace(tmp_path / "tables"), Workspace(tmp_path / "whole")
    for ws in (tables, whole):
        ws.ensure()
        write_tables(ws, g)
    done = apply_to_tables(tables, fixes, SCHEMA)
    expected = apply_corrections(g, [], fixes, SCHEMA)
    write_tables(whole, expected.graph)
    assert [s.line for s in done.stale] == [s.line for s in expected.stale] and len(done.stale) == 1
    for name in ("entities", "relations", "events", "hypernodes"):
        assert tables.rows(name) == whole.rows(name), name
    assert [r["step"] for r in tables.rows("merges")] == [MANUAL_STEP]


# ---------------------------------------------------------------- the commands, on the file alone


def test_curate_commands_write_list_and_undo_with_one_line_errors(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from kgbuild.cli import main

    (tmp_path / "kgbuild.yaml").write_text("workspace: ws\n", encoding="utf-8")

    def run(*args: str) -> tuple[int, str]:
        result = CliRunner().invoke(main, ["-c", str(tmp_path / "kgbuild.yaml"), "curate", *args])
        return result.exit_code, result.output

    assert run("merge", "Alan Turing", "A. Turing", "-m", "same", "--author", "ann")[0] == 0
    assert run("never-merge", "Henry VII", "Henry VIII")[0] == 0
    assert run("reject", "rel_0123")[0] == 0
    assert run("reject", "Gordon Welchman", "build at", "Alan Turing")[0] == 0
    assert run("retype", "Bletchley Park", "Place")[0] == 0
    assert run("rename", "Hut 8", "Hut Eight")[0] == 0
    code, out = run("add", "ENIAC", "designedBy", "John Mauchly", "--note", "press release")
    assert code == 0 and "7: add (ENIAC, designedBy, John Mauchly)" in out and "kgbuild sync" in out
    code, out = run("list")
    assert code == 0 and out.splitlines()[0].startswith("   1  merge 'Alan Turing' <- 'A. Turing' -- same  (ann, ")
    assert len(out.splitlines()) == 7
    code, out = run("reject", "Gordon Welchman", "build at")
    assert code == 2 and "give a triple id, or subject, predicate and object" in out
    code, out = run("merge", "Alan Turing", "A. Turing")
    assert code == 2 and out.startswith("error: ") and "already says merge" in out and len(out.splitlines()) == 1
    code, out = run("undo", "9")
    assert code == 2 and "no correction 9 (the file holds 7)" in out
    code, out = run("undo", "2")
    assert code == 0 and "removed: never merge 'Henry VII' and 'Henry VIII'" in out
    kinds = [e.correction.kind for e in read_corrections(tmp_path / "corrections.yaml").entries]
    assert kinds == ["merge", "reject", "reject", "retype", "rename", "add"]
    code, out = run("review")
    assert code == 0 and "nothing to review" in out  # no build yet: an empty queue, not an error
