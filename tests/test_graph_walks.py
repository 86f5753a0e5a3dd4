"""The in-memory projection and the pure graph steps, on a small hand-built graph with known answers.

    Maurice Wilkes -design-> EDSAC -basedOn-> First Draft -writtenBy-> John von Neumann -bornIn-> Budapest
                                                                          ((.., bornIn, Budapest), on, 28 December 1903)
    passage edsac#0 supports Wilkes, EDSAC, First Draft; passage neumann#0 supports von Neumann, Budapest, the date
    Birth event: person von Neumann, time the date; Isolated is in no passage and no relation
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from kgbuild.graph import walks
from kgbuild.graph.projection import CHUNK, MENTION, RELATION, ROLE, GraphProjection, predicate_text
from kgbuild.query import graph_evidence as evidence
from kgbuild.query.graph_labels import answer_nodes, path_edges

CHUNKS = [{"id": "edsac#p0#0", "doc_id": "edsac", "text": "Wilkes based EDSAC on the First Draft."},
          {"id": "neumann#p0#0", "doc_id": "neumann", "text": "John von Neumann was born in Budapest."}]
DOCUMENTS = [{"id": "edsac", "title": "EDSAC"}, {"id": "neumann", "title": "John von Neumann"}]
ENTITIES = [
    {"id": "w", "name": "Maurice Wilkes", "spg_class": "Person", "chunk_ids": ["edsac#p0#0"]},
    {"id": "a", "name": "EDSAC", "spg_class": "Work", "chunk_ids": ["edsac#p0#0"], "description": "a computer"},
    {"id": "r", "name": "First Draft", "spg_class": "Work", "chunk_ids": ["edsac#p0#0", "gone#p0#0"]},
    {"id": "v", "name": "John von Neumann", "spg_class": "Person", "chunk_ids": ["neumann#p0#0"]},
    {"id": "b", "name": "Budapest", "spg_class": "GeographicLocation", "chunk_ids": ["neumann#p0#0"]},
    {"id": "d", "name": "28 December 1903", "spg_class": "Date", "chunk_ids": ["neumann#p0#0"]},
    {"id": "x", "name": "Isolated", "spg_class": "Thing", "chunk_ids": []},
]
RELATIONS = [
    {"id": "r1", "subject_id": "w", "predicate": "design", "object_id": "a", "chunk_ids": ["edsac#p0#0"]},
    {"id": "r2", "subject_id": "a", "predicate": "basedOn", "object_id": "r", "chunk_ids": ["edsac#p0#0"]},
    {"id": "r3", "subject_id": "r", "predicate": "writtenBy", "object_id": "v", "chunk_ids": ["neumann#p0#0"]},
    {"id": "r4", "subject_id": "v", "predicate": "bornIn", "object_id": "b", "chunk_ids": ["neumann#p0#0"]},
    {"id": "r5", "subject_id": "v", "predicate": "knows", "object_id": "missing", "chunk_ids": []},
]
HYPERNODES = [{"id": "h1", "subject_id": "r4", "subject_kind": "relation", "predicate": "on", "object_id": "d",
               "object_name": "28 December 1903", "object_kind": "entity"}]
EVENTS = [{"id": "e1", "type": "Birth", "trigger": "born", "arguments": '{"person": [{"id": "v", "kind": "entity", '
           '"name": "John von Neumann"}]}', "time_id": "d", "place_id": None, "chunk_ids": ["neumann#p0#0"]}]


def graph(**changes: list[dict[str, object]]) -> GraphProjection:
    rows: dict[str, list[dict[str, object]]] = {
        "chunks": CHUNKS, "documents": DOCUMENTS, "entities": ENTITIES, "relations": RELATIONS,
        "hypernodes": HYPERNODES, "events": EVENTS}
    rows.update(changes)
    return GraphProjection.from_rows(**rows)  # type: ignore[arg-type]


@pytest.fixture
def g() -> GraphProjection:
    return graph()


def n(g: GraphProjection, node_id: str) -> int:
    return g.node_pos[node_id]


def relations_only(g: GraphProjection) -> np.ndarray:
    return g.edge_mask([RELATION])


# ---------------------------------------------------------------- the projection


def test_nodes_edges_and_provenance(g: GraphProjection) -> None:
    assert g.n_nodes == 2 + 7 + 1  # chunks, entities, the event
    assert [g.node_kind[i] for i in range(2)] == [CHUNK, CHUNK]
    assert g.node_names[n(g, "edsac#p0#0")] == "EDSAC §1"
    # the relation to an entity outside the tables is left out; the stale chunk id supports nothing
    assert "r5" not in g.edge_ids
    assert g.node_chunks[n(g, "r")] == (n(g, "edsac#p0#0"),)
    kinds = {k: g.edge_kind.count(k) for k in (RELATION, ROLE, MENTION)}
    # mentions: 6 supported entities + the event, less the date (no passage mention leads to a date)
    assert kinds == {RELATION: 4, ROLE: 2, MENTION: 6}
    date = n(g, "d")
    assert not any(g.edge_kind[e] == MENTION and int(g.edge_tail[e]) == date for e in range(g.n_edges))
    assert g.node_chunks[date] == (n(g, "neumann#p0#0"),)  # its support is kept
    born = g.edge_ids.index("r4")
    assert [(q.predicate, q.value) for q in g.qualifiers[born]] == [("on", "28 December 1903")]
    assert g.node_text[n(g, "a")] == "EDSAC: a computer"  # what the vector sync embedded
    roles = sorted(g.predicate(e) for e in range(g.n_edges) if g.edge_kind[e] == ROLE)
    assert roles == ["person", "time"]


def test_the_fingerprint_is_the_content_not_the_row_order(g: GraphProjection) -> None:
    assert graph(entities=list(reversed(ENTITIES))).fingerprint == g.fingerprint
    more = [*RELATIONS, {"id": "r6", "subject_id": "w", "predicate": "knows", "object_id": "v", "chunk_ids": []}]
    assert graph(relations=more).fingerprint != g.fingerprint


def test_predicate_text() -> None:
    assert predicate_text("bornIn") == "born in"
    assert predicate_text("based_in") == "based in"
    assert predicate_text("released on") == "released on"


# ---------------------------------------------------------------- walks


def test_k_hop_union(g: GraphProjection) -> None:
    adj = walks.adjacency(g, relations_only(g))
    names = lambda nodes: sorted(g.node_names[i] for i in nodes)  # noqa: E731
    assert names(walks.k_hop(adj, [n(g, "a")], 1)) == ["EDSAC", "First Draft", "Maurice Wilkes"]
    assert names(walks.k_hop(adj, [n(g, "a")], 2)) == ["EDSAC", "First Draft", "John von Neumann", "Maurice Wilkes"]
    # the union of two balls
    assert names(walks.k_hop(adj, [n(g, "w"), n(g, "b")], 1)) == ["Budapest", "EDSAC", "John von Neumann",
                                                                   "Maurice Wilkes"]
    assert names(walks.k_hop(adj, [n(g, "x")], 3)) == ["Isolated"]
    # with mention edges, a passage joins everything it supports
    everything = walks.adjacency(g)
    assert n(g, "b") in walks.k_hop(everything, [n(g, "v")], 2) and n(g, "w") not in walks.k_hop(everything, [n(g, "b")], 2)


def test_personalized_pagerank_on_a_path() -> None:
    # 0 - 1 - 2 - 3 - 4: seeded at the middle, the walk is symmetric and the seed holds the most
    line = GraphProjection.from_rows(
        chunks=[], entities=[{"id": str(i), "name": str(i), "spg_class": "Thing"} for i in range(5)],
        relations=[{"id": f"e{i}", "subject_id": str(i), "predicate": "next", "object_id": str(i + 1)}
                   for i in range(4)])
    adj = walks.adjacency(line)
    scores = walks.personalized_pagerank(adj, {2: 1.0}, damping=0.8)
    assert scores.sum() == pytest.approx(1.0)
    assert scores[2] == scores.max()
    assert scores[1] == pytest.approx(scores[3]) and scores[0] == pytest.approx(scores[4])
    assert scores[1] > scores[0]
    # damping 0: all the mass stays at the seed
    assert walks.personalized_pagerank(adj, {2: 1.0}, damping=0.0)[2] == pytest.approx(1.0)
    # restricted to a subset: nodes outside score 0, inside still sum to 1
    sub = walks.personalized_pagerank(adj, {0: 1.0}, nodes=np.array([0, 1, 2]))
    assert sub[3] == sub[4] == 0 and sub[:3].sum() == pytest.approx(1.0)
    # an exact value: two nodes, seed 0, damping d: p0 = 1 / (1 + d)
    pair = GraphProjection.from_rows(chunks=[], entities=[{"id": "p", "name": "p", "spg_class": "T"},
                                                          {"id": "q", "name": "q", "spg_class": "T"}],
                                     relations=[{"id": "pq", "subject_id": "p", "predicate": "r", "object_id": "q"}])
    two = walks.personalized_pagerank(walks.adjacency(pair), {0: 1.0}, damping=0.8, iterations=200, tol=1e-12)
    assert two[0] == pytest.approx(1 / 1.8)
    assert walks.personalized_pagerank(adj, {}).sum() == 0


def test_top_nodes_keeps_the_seeds() -> None:
    scores = np.array([0.5, 0.0, 0.3, 0.1, 0.1])
    assert walks.top_nodes(scores, 1).tolist() == [0]
    assert walks.top_nodes(scores, 2, keep=[1]).tolist() == [0, 1, 2]
    assert walks.top_nodes(scores, 10).tolist() == [0, 2, 3, 4]


def test_simple_paths_breadth_first_and_capped(g: GraphProjection) -> None:
    mask = relations_only(g)
    paths, truncated = walks.simple_paths(g, [n(g, "a")], 2, mask)
    assert not truncated
    assert [[g.node_names[i] for i in p.nodes] for p in paths] == [
        ["EDSAC", "Maurice Wilkes"], ["EDSAC", "First Draft"], ["EDSAC", "First Draft", "John von Neumann"]]
    capped, truncated = walks.simple_paths(g, [n(g, "a")], 2, mask, max_paths=2)
    assert truncated and len(capped) == 2
    # no node twice, even on a cycle
    cyc = GraphProjection.from_rows(chunks=[], entities=[{"id": c, "name": c, "spg_class": "T"} for c in "pqr"],
                                    relations=[{"id": f"{a}{b}", "subject_id": a, "predicate": "to", "object_id": b}
                                               for a, b in ("pq", "qr", "rp")])
    cycle_paths, _ = walks.simple_paths(cyc, [0], 5, np.ones(3, bool))
    assert max(len(p) for p in cycle_paths) == 2 and all(len(set(p.nodes)) == len(p.nodes) for p in cycle_paths)


def test_shortest_paths_and_hop_distances(g: GraphProjection) -> None:
    mask = relations_only(g)
    paths = {g.node_names[p.end]: p for p in walks.shortest_paths(g, [n(g, "w")], mask)}
    assert set(paths) == {"EDSAC", "First Draft", "John von Neumann", "Budapest"}
    assert len(paths["Budapest"]) == 4
    assert evidence.path_text(g, paths["Budapest"]) == (
        "Maurice Wilkes -> design -> EDSAC -> basedOn -> First Draft -> writtenBy -> John von Neumann "
        "-> bornIn [on: 28 December 1903] -> Budapest")
    back = {g.node_names[p.end]: p for p in walks.shortest_paths(g, [n(g, "b")], mask)}
    assert evidence.path_text(g, back["First Draft"]) == (
        "Budapest <- bornIn [on: 28 December 1903] <- John von Neumann <- writtenBy <- First Draft")
    adj = walks.adjacency(g, mask)
    assert walks.hop_distances(adj, [n(g, "w")], [n(g, "b")]) == 4
    assert walks.hop_distances(adj, [n(g, "w")], [n(g, "w"), n(g, "b")]) == 0
    assert walks.hop_distances(adj, [n(g, "w")], [n(g, "x")]) is None
    assert walks.hop_distances(adj, [n(g, "w")], [n(g, "b")], max_hops=3) is None
    # through the passages it is closer: Wilkes -> edsac passage -> First Draft -writtenBy-> von Neumann -> ...
    assert walks.hop_distances(walks.adjacency(g), [n(g, "w")], [n(g, "b")]) == 4
    assert walks.hop_distances(walks.adjacency(g), [n(g, "r")], [n(g, "b")]) == 2


def test_allowed_edges(g: GraphProjection) -> None:
    kept = np.array([n(g, "w"), n(g, "a"), n(g, "r")])
    mask = walks.allowed_edges(g, kept, relations_only(g))
    assert sorted(g.edge_ids[e] for e in np.flatnonzero(mask)) == ["r1", "r2"]


# ---------------------------------------------------------------- evidence and labels


def test_evidence_passages_in_rank_order_and_capped(g: GraphProjection) -> None:
    r3, r1 = g.edge_ids.index("r3"), g.edge_ids.index("r1")
    ranked = [([r3], []), ([r1], [n(g, "edsac#p0#0")])]
    assert [g.node_ids[c] for c in evidence.evidence_chunks(g, ranked)] == ["neumann#p0#0", "edsac#p0#0"]
    assert len(evidence.evidence_chunks(g, ranked, limit=1)) == 1
    chunks = evidence.to_chunks(g, evidence.evidence_chunks(g, ranked))
    assert [c.doc_id for c in chunks] == ["neumann", "edsac"] and chunks[0].score > chunks[1].score
    triples = evidence.to_triples(g, [r3, r3, r1])
    assert [(t.subject, t.predicate, t.object, t.chunk_ids) for t in triples] == [
        ("First Draft", "writtenBy", "John von Neumann", ["neumann#p0#0"]),
        ("Maurice Wilkes", "design", "EDSAC", ["edsac#p0#0"])]
    assert evidence.triple_text(g, g.edge_ids.index("r4")) == "(John von Neumann, bornIn [on: 28 December 1903], Budapest)"


def test_fits_type(g: GraphProjection) -> None:
    city = "In which city was the author of the report born?"
    assert evidence.fits_type(g, n(g, "b"), city)
    assert not evidence.fits_type(g, n(g, "v"), city)
    assert evidence.fits_type(g, n(g, "v"), "Who wrote the First Draft?")
    assert evidence.fits_type(g, n(g, "d"), "When was John von Neumann born?")
    assert not evidence.fits_type(g, n(g, "edsac#p0#0"), "What is EDSAC based on?")  # a passage is no answer
    assert not evidence.fits_type(g, n(g, "e1"), "What is EDSAC based on?")


def test_answer_nodes_and_shortest_path_labels(g: GraphProjection) -> None:
    assert answer_nodes(g, ["the Budapest"]) == [n(g, "b")]
    assert answer_nodes(g, ["", "Vienna"]) == []
    mask = relations_only(g)
    labelled = path_edges(g, mask, [n(g, "a")], [n(g, "b")])
    assert sorted(g.edge_ids[e] for e in labelled) == ["r2", "r3", "r4"]
    assert path_edges(g, mask, [n(g, "a")], []) == set()


def test_walk_passages_and_text_retrieval_fuse_by_reciprocal_rank() -> None:
    from kgbuild.query.types import ScoredChunk

    def chunks(ids: str) -> list[ScoredChunk]:
        return [ScoredChunk(id=i, doc_id=i, text=f"text {i}", score=0.0) for i in ids]

    fused = evidence.with_text_ranking(chunks("ABC"), chunks("DBE"), 4)
    # B, ranked second by both, beats either list's first; first against first, the text's wins.
    assert [c.id for c in fused] == ["B", "D", "A", "E"]
    assert fused[0].signals == {"graph_rank": 2.0, "text_rank": 2.0} and fused[1].signals == {"text_rank": 1.0}
    assert [c.text for c in fused] == ["text B", "text D", "text A", "text E"]
    assert all(a.score >= b.score for a, b in itertools.pairwise(fused))
    assert [c.id for c in evidence.with_text_ranking([], chunks("DE"), 5)] == ["D", "E"]
    assert evidence.with_text_ranking(chunks("A"), [], 0) == []


def test_the_text_rankings_first_passages_stay_whatever_the_walk_ranks() -> None:
    from kgbuild.query.types import ScoredChunk

    def chunks(ids: str) -> list[ScoredChunk]:
        return [ScoredChunk(id=i, doc_id=i, text=f"text {i}", score=0.0) for i in ids]

    walk, text = chunks("WXYZ"), chunks("ABCDE")
    # Equal-weight fusion interleaves: of four slots the walk's W and X take two, text keeps A and B.
    assert [c.id for c in evidence.with_text_ranking(walk, text, 4)] == ["A", "W", "B", "X"]
    # text_kept=3: A, B, C stay; the walk's best fills the rest, all in fused order.
    assert [c.id for c in evidence.with_text_ranking(walk, text, 4, text_kept=3)] == ["A", "W", "B", "C"]
    assert [c.id for c in evidence.with_text_ranking(walk, text, 2, text_kept=3)] == ["A", "B"]
    # A walk passage text also ranked still rises above a kept one.
    both = evidence.with_text_ranking(chunks("D"), text, 4, text_kept=3)
    assert [c.id for c in both] == ["D", "A", "B", "C"]
