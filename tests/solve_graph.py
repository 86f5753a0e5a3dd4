"""A small film graph in a real embedded ArcadeDB, and a retriever over it, for the solver tests.

Written with the same labels, relationship types and properties as the store writer
(docs/graph_model.md): Entity + class label, Concept, Chunk, SUPPORTED_BY, extracted relations
with a `predicate` property (one stored "backwards": The Big Sleep -directed by-> Howard Hawks).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from kgbuild.solve.graph_view import GraphView
from kgbuild.solve.types import LinkedEntity, RetrievalMode, RetrievalResult, ScoredChunk
from kgbuild.store.arcade import ArcadeGraphStore

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
]
CONCEPTS = [("k_director", "film director"), ("k_person", "person")]
RELATIONS = [  # id, subject, predicate, type, object
    ("r1", "curtiz", "directed", "DIRECTED", "casablanca"),
    ("r2", "curtiz", "directed", "DIRECTED", "yankee"),
    ("r3", "curtiz", "directed", "DIRECTED", "mildred"),
    ("r4", "bigsleep", "directed by", "DIRECTED_BY", "hawks"),
    ("r5", "casablanca", "release date", "RELEASE_DATE", "d1943"),
    ("r6", "yankee", "release date", "RELEASE_DATE", "d1942"),
    ("r7", "mildred", "release date", "RELEASE_DATE", "d1945"),
    ("r8", "bigsleep", "release date", "RELEASE_DATE", "d1946"),
    ("r9", "casablanca", "starring", "STARRING", "bogart"),
    ("r10", "bigsleep", "starring", "STARRING", "bogart"),
    ("b1", "curtiz", "belongTo", "BELONG_TO", "k_director"),
    ("b2", "hawks", "belongTo", "BELONG_TO", "k_director"),
    ("i1", "k_director", "isA", "IS_A", "k_person"),
]
CHUNKS = {
    "films#0#0": ("films", "Michael Curtiz directed Casablanca, released on 23 January 1943, starring Humphrey Bogart."),
    "films#0#1": ("films", "Curtiz also directed Yankee Doodle Dandy (1942) and Mildred Pierce (1945)."),
    "curtiz#0#0": ("curtiz", "Michael Curtiz was born in Budapest in 1886 as Mihály Kertész."),
    "hawks#0#0": ("hawks", "Howard Hawks directed The Big Sleep, released in 1946, starring Humphrey Bogart."),
}
SUPPORT = {
    "curtiz": ["films#0#0", "films#0#1", "curtiz#0#0"], "casablanca": ["films#0#0"], "d1943": ["films#0#0"],
    "yankee": ["films#0#1"], "mildred": ["films#0#1"], "d1942": ["films#0#1"], "d1945": ["films#0#1"],
    "bogart": ["films#0#0", "hawks#0#0"], "hawks": ["hawks#0#0"], "bigsleep": ["hawks#0#0"], "d1946": ["hawks#0#0"],
}


def build_graph(path: Path) -> ArcadeGraphStore:
    store = ArcadeGraphStore(path)
    statements: list[tuple[str, dict[str, Any]]] = []
    for id_, name, cls, aliases in ENTITIES:
        # the class label is a constant of this test data, as the writer's whitelist would produce
        statements.append((f"CREATE (n:Entity:{cls} {{id: $id, name: $name, spg_class: $cls, aliases: $aliases, "
                           "properties: '{}'})", {"id": id_, "name": name, "cls": cls, "aliases": aliases}))
    for id_, name in CONCEPTS:
        statements.append(("CREATE (n:Concept {id: $id, name: $name})", {"id": id_, "name": name}))
    for id_, (doc, text) in CHUNKS.items():
        statements.append(("CREATE (n:Chunk {id: $id, doc_id: $doc, text: $text})", {"id": id_, "doc": doc, "text": text}))
    store.execute_many(statements)
    edges: list[tuple[str, dict[str, Any]]] = []
    for id_, s, pred, type_, o in RELATIONS:
        edges.append((f"MATCH (a {{id: $s}}), (b {{id: $o}}) CREATE (a)-[:{type_} {{id: $id, predicate: $p, "
                      "properties: '{}'}]->(b)", {"s": s, "o": o, "id": id_, "p": pred}))
    for node, chunks in SUPPORT.items():
        for c in chunks:
            edges.append(("MATCH (a {id: $n}), (c:Chunk {id: $c}) CREATE (a)-[:SUPPORTED_BY {id: $id}]->(c)",
                          {"n": node, "c": c, "id": f"{node}>{c}"}))
    store.execute_many(edges)
    return store


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
