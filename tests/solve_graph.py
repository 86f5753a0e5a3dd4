"""A small film graph in a real embedded ArcadeDB, and a retriever over it, for the solver tests.

Written with the same labels, relationship types, properties and id constraints as the store
writer (docs/graph_model.md): Entity + class label, Concept, Chunk, SUPPORTED_BY, extracted
relations with a `predicate` property and (most of them) their own `chunk_ids` (one stored
"backwards": The Big Sleep -directed by-> Howard Hawks), and HyperNodes qualifying triples:
((Humphrey Bogart, joined, Warner Bros.), in, 1936) (one year, 1932, is a literal on its HyperNode). Most ids
are short names, which say nothing about their label; the ones of the studio part carry the writer's prefixes
(ent_, rel_, hyp_).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from kgbuild.query.solver.graph_view import GraphView
from kgbuild.query.types import LinkedEntity, RetrievalMode, RetrievalResult, ScoredChunk
from kgbuild.store import cypher
from kgbuild.store.arcade import ArcadeGraphStore
from kgbuild.store.types import GraphStore

ENTITIES = [  # id, name, class, aliases
    ("curtiz", "Michael Curtiz", "Person", ["Mihály Kertész"]),
    ("hawks", "Howard Hawks", "Person", []),
    ("bogart", "Humphrey Bogart", "Person", []),
    ("casablanca", "Casablanca", "Film", []),
    ("yankee", "Yankee Doodle Dandy", "Film", []),
    ("mildred", "Mildred Pierce", "Film", []),
    ("bigsleep", "The Big Sleep", "Film", []),
    ("d1943", "1943-01-23", "Date", []),
    ("d1942", "1942-05-29", "Date", []),
    ("d1945", "1945-09-28", "Date", []),
    ("d1946", "1946-08-23", "Date", []),
    ("ent_warner", "Warner Bros.", "Organization", ["Warner Brothers"]),
    ("ent_davis", "Bette Davis", "Person", []),
    ("ent_1936", "1936", "Date", []),
    ("ent_rick", "Rick Blaine", "Character", []),
]
CONCEPTS = [("k_director", "film director"), ("k_person", "person")]
RELATIONS = [  # id, subject, predicate, type, object, the triple's own chunks (None: not stored)
    ("r1", "curtiz", "directed", "DIRECTED", "casablanca", ["films#0#0"]),
    ("r2", "curtiz", "directed", "DIRECTED", "yankee", ["films#0#1"]),
    ("r3", "curtiz", "directed", "DIRECTED", "mildred", ["films#0#1"]),
    ("r4", "bigsleep", "directed by", "DIRECTED_BY", "hawks", ["hawks#0#0"]),
    ("r5", "casablanca", "release date", "RELEASE_DATE", "d1943", None),
    ("r6", "yankee", "release date", "RELEASE_DATE", "d1942", None),
    ("r7", "mildred", "release date", "RELEASE_DATE", "d1945", None),
    ("r8", "bigsleep", "release date", "RELEASE_DATE", "d1946", None),
    ("r9", "casablanca", "starring", "STARRING", "bogart", ["films#0#0"]),
    ("r10", "bigsleep", "starring", "STARRING", "bogart", ["hawks#0#0"]),
    ("b1", "curtiz", "belongTo", "BELONG_TO", "k_director", None),
    ("b2", "hawks", "belongTo", "BELONG_TO", "k_director", None),
    ("i1", "k_director", "isA", "IS_A", "k_person", None),
    ("rel_j1", "bogart", "joined", "JOINED", "ent_warner", ["bogart#0#0"]),
    ("rel_j2", "ent_davis", "joined", "JOINED", "ent_warner", ["bogart#0#0"]),
]
# A value only a hypernode names is a literal on it (kgbuild/graph/literals.py): its text is the HyperNode's.
LITERALS = {"ent_1932": "1932"}
HYPERNODES = [  # id, qualified relation (None: an old graph without relation_id), predicate, value
    ("hyp_j1", "rel_j1", "in", "ent_1936"),
    ("hyp_j2", "rel_j2", "in", "ent_1932"),  # 1932: a value kept as a literal on it (no node, no QUALIFIER)
    ("hyp_role", None, "role", "ent_rick"),  # ((Casablanca, starring, Humphrey Bogart), role, Rick Blaine)
]
_HYPER_ENDS = {"hyp_j1": ("bogart", "ent_warner"), "hyp_j2": ("ent_davis", "ent_warner"),
               "hyp_role": ("casablanca", "bogart")}
CHUNKS = {
    "films#0#0": ("films",
                  "Michael Curtiz directed Casablanca, released on 23 January 1943, starring Humphrey Bogart."),
    "films#0#1": ("films", "Curtiz also directed Yankee Doodle Dandy (1942) and Mildred Pierce (1945)."),
    "curtiz#0#0": ("curtiz", "Michael Curtiz was born in Budapest in 1886 as Mihály Kertész."),
    "hawks#0#0": ("hawks", "Howard Hawks directed The Big Sleep, released in 1946, starring Humphrey Bogart."),
    "bogart#0#0": ("bogart", "Humphrey Bogart, the star of Casablanca as Rick Blaine, joined Warner Bros. in 1936; "
                             "Bette Davis had joined the studio in 1932."),
}
SUPPORT = {
    "curtiz": ["films#0#0", "films#0#1", "curtiz#0#0"], "casablanca": ["films#0#0"], "d1943": ["films#0#0"],
    "yankee": ["films#0#1"], "mildred": ["films#0#1"], "d1942": ["films#0#1"], "d1945": ["films#0#1"],
    "bogart": ["films#0#0", "hawks#0#0", "bogart#0#0"], "hawks": ["hawks#0#0"], "bigsleep": ["hawks#0#0"],
    "d1946": ["hawks#0#0"],
    **{n: ["bogart#0#0"] for n in ("ent_warner", "ent_davis", "ent_1936", "ent_1932", "ent_rick", "hyp_j1", "hyp_j2",
                                   "hyp_role")},
}
SUPPORT["casablanca"] = ["films#0#0", "bogart#0#0"]  # so "chunks supporting both ends" of r9 is not exact


def build_graph(path: Path) -> ArcadeGraphStore:
    store = ArcadeGraphStore(path)
    write_graph(store)
    return store


def write_graph(store: GraphStore) -> None:
    """The film graph into any graph store (embedded, or a server over Bolt)."""
    for statement in cypher.constraints():  # the id indexes the writer creates
        store.execute(statement)
    statements: list[tuple[str, dict[str, Any]]] = []
    for id_, name, cls, aliases in ENTITIES:
        # the class label is a constant of this test data, as the writer's whitelist would produce
        statements.append((f"CREATE (n:Entity:{cls} {{id: $id, name: $name, spg_class: $cls, aliases: $aliases, "
                           "properties: '{}'})", {"id": id_, "name": name, "cls": cls, "aliases": aliases}))
    for id_, name in CONCEPTS:
        statements.append(("CREATE (n:Concept {id: $id, name: $name})", {"id": id_, "name": name}))
    for id_, (doc, text) in CHUNKS.items():
        statements.append(("CREATE (n:Chunk {id: $id, doc_id: $doc, text: $text})",
                           {"id": id_, "doc": doc, "text": text}))
    for id_, rel, pred, value in HYPERNODES:
        s, o = _HYPER_ENDS[id_]
        props = {"id": id_, "predicate": pred, "subject_id": rel or "", "object_id": value}
        if rel:
            props["relation_id"] = rel
        if value in LITERALS:
            props.update(object_kind="value", object_name=LITERALS[value])
        statements.append(("CREATE (n:HyperNode) SET n = $props", {"props": props}))
    store.execute_many(statements)
    edges: list[tuple[str, dict[str, Any]]] = []
    for id_, s, pred, type_, o, chunk_ids in RELATIONS:
        props: dict[str, Any] = {"id": id_, "predicate": pred, "properties": "{}"}
        if chunk_ids is not None:
            props["chunk_ids"] = chunk_ids
        edges.append((f"MATCH (a {{id: $s}}), (b {{id: $o}}) CREATE (a)-[r:{type_}]->(b) SET r = $props",
                      {"s": s, "o": o, "props": props}))
    for node, chunks in SUPPORT.items():
        for c in chunks:
            edges.append(("MATCH (a {id: $n}), (c:Chunk {id: $c}) CREATE (a)-[:SUPPORTED_BY {id: $id}]->(c)",
                          {"n": node, "c": c, "id": f"{node}>{c}"}))
    for id_, _, pred, value in HYPERNODES:
        s, o = _HYPER_ENDS[id_]
        for type_, end in (("TRIPLE_SUBJECT", s), ("TRIPLE_OBJECT", o)):
            edges.append((f"MATCH (h:HyperNode {{id: $h}}), (x {{id: $x}}) CREATE (h)-[:{type_} {{id: $id}}]->(x)",
                          {"h": id_, "x": end, "id": f"{id_}>{type_}"}))
        if value in LITERALS:
            continue
        # as the writer does, the qualifier's predicate is on the QUALIFIER relationship too
        edges.append(("MATCH (h:HyperNode {id: $h}), (v {id: $v}) "
                      "CREATE (h)-[:QUALIFIER {id: $id, predicate: $p}]->(v)",
                      {"h": id_, "v": value, "id": f"{id_}>QUALIFIER", "p": pred}))
    store.execute_many(edges)


class GraphRetriever:
    """The Retriever protocol over the test graph: exact linking, word-overlap chunk ranking."""

    def __init__(self, graph: GraphView) -> None:
        self.graph = graph
        self.retrieved: list[tuple[str, list[str] | None]] = []

    def link(self, mention: str, type_hint: str | None = None, k: int = 5) -> list[LinkedEntity]:
        out = []
        for n in self.graph.find_entities(mention, type_hint, limit=k):
            how = "concept" if n.kind == "Concept" else ("exact" if n.name.lower() == mention.lower() else "alias")
            out.append(LinkedEntity(id=n.id, name=n.name, type=n.type, score=1.0, how=how))
        return out

    def retrieve(self, question: str, k: int = 5, *, seeds: list[str] | None = None,
                 mode: RetrievalMode = "hybrid") -> RetrievalResult:
        self.retrieved.append((question, seeds))
        words = set(re.findall(r"\w+", question.lower()))
        scored = []
        for id_, (doc, text) in CHUNKS.items():
            overlap = len(words & set(re.findall(r"\w+", text.lower())))
            if overlap:
                scored.append(ScoredChunk(id=id_, doc_id=doc, text=text, score=overlap / max(1, len(words)),
                                          signals={"bm25": float(overlap)}))
        scored.sort(key=lambda c: (-c.score, c.id))
        return RetrievalResult(chunks=scored[:k])

    def unavailable_modes(self) -> dict[RetrievalMode, str]:
        return {}

    def title_of(self, doc_id: str) -> str:
        return doc_id
