"""The mutual index in memory: graph nodes, the chunks that support them, and the edges between them.

Derived from the engine's one graph in memory (`from_projection`: the workspace tables' rows, the
ones the stores were synced from, keyed by the same ids). Personalized PageRank runs on one sparse
matrix over nodes + chunks:

    node -- chunk   an entity/concept is supported by the chunk (SUPPORTED_BY, the mutual index)
    node -- node    an extracted relation between two nodes (each direction, weight per relation)
    title -- chunk  optionally, a document's title as a node over its chunks (the Document node)

Holding this in memory keeps a question's graph walk to a few sparse products (~1 ms) instead of
round trips to the graph store; a corpus of 10^5 chunks and 10^6 nodes still fits in tens of MB.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import scipy.sparse as sp

from kgbuild.ids import unescape_article_id
from kgbuild.query.retrieval.text import STOPWORDS, words
from kgbuild.text import mention_key

if TYPE_CHECKING:
    from kgbuild.graph.projection import GraphProjection

# Node kinds in `MutualIndex.node_kind`.
ENTITY, CONCEPT, TITLE = "entity", "concept", "title"

_DISAMBIGUATION = re.compile(r"\s*\([^()]*\)\s*$")  # "Lilu (mythology)" is also called "Lilu"


@dataclass(frozen=True)
class RelationRow:
    id: str
    subject: int  # node index
    predicate: str
    object: int  # node index
    chunks: tuple[int, ...]  # chunk indices
    said: str = ""  # the text's words for this link ("控股股东"), when the extractor kept them
    qualifiers: tuple[str, ...] = ()  # its hypernodes as "predicate: value" ("时间: 2025年上半年")


@dataclass
class NameDictionary:
    """Folded name -> node indices, with the longest name length per first token.

    Mention extraction walks the question once: at each token it only tries the lengths that
    names starting with that token actually have, so a question costs O(tokens x longest name)
    dictionary probes whatever the number of entities.
    """

    exact: dict[str, list[int]] = field(default_factory=dict)  # from the node's own name
    alias: dict[str, list[int]] = field(default_factory=dict)  # from aliases and title variants
    max_len: dict[str, int] = field(default_factory=dict)  # first token -> longest name in tokens

    def add(self, key: str, node: int, *, is_alias: bool) -> None:
        if not key:
            return
        parts = key.split(" ")
        if all(p in STOPWORDS for p in parts):
            return  # "The", "It": never a useful mention
        target = self.alias if is_alias else self.exact
        bucket = target.setdefault(key, [])
        if node not in bucket:
            bucket.append(node)
        self.max_len[parts[0]] = max(self.max_len.get(parts[0], 0), len(parts))

    def lookup(self, key: str) -> tuple[list[int], list[int]]:
        return self.exact.get(key, []), self.alias.get(key, [])


@dataclass
class MutualIndex:
    chunk_ids: list[str]
    chunk_doc: list[str]
    chunk_text: list[str]
    node_ids: list[str]
    node_names: list[str]
    node_types: list[str | None]
    node_kind: list[str]
    node_chunks: sp.csr_matrix  # nodes x chunks, 1 where the node is supported by the chunk
    node_edges: sp.csr_matrix  # nodes x nodes, symmetric, summed relation weights
    relations: list[RelationRow]
    node_relations: list[list[int]]  # node index -> indices into `relations`
    doc_titles: dict[str, str]
    names: NameDictionary
    chunk_pos: dict[str, int] = field(init=False)
    node_pos: dict[str, int] = field(init=False)

    def __post_init__(self) -> None:
        self.chunk_pos = {cid: i for i, cid in enumerate(self.chunk_ids)}
        self.node_pos = {nid: i for i, nid in enumerate(self.node_ids)}
        self._chunk_nodes = self.node_chunks.T.tocsr()
        self._degree = np.asarray(self.node_chunks.sum(axis=1)).ravel()
        self._idf: tuple[dict[str, float], float] | None = None

    def idf(self) -> tuple[dict[str, float], float]:
        """Token -> IDF over the chunks, and the IDF of a token no chunk has; computed once per index
        (the extractive answer weighs candidate spans by it on every question)."""
        if self._idf is None:
            df: Counter[str] = Counter()
            for text in self.chunk_text:
                df.update(set(words(text)))
            n = len(self.chunk_text)
            self._idf = {t: math.log((n + 1) / (c + 0.5)) for t, c in df.items()}, math.log((n + 1) / 0.5)
        return self._idf

    # ---------------------------------------------------------------- building

    @classmethod
    def from_projection(cls, projection: GraphProjection, *, title_nodes: bool = True) -> MutualIndex:
        """The mutual index of the engine's one graph in memory: the tables' rows in table order (chunks,
        entities with their aliases, concepts, relations between them, document titles), taken from
        the projection rather than read from the tables a second time."""
        p = projection
        ids = p.node_ids
        chunks = [{"id": ids[i], "doc_id": p.chunk_doc[i], "text": p.chunk_text[i]} for i in sorted(p.chunk_doc)]
        entities: list[dict[str, Any]] = []
        concepts: list[dict[str, Any]] = []
        for i, kind in enumerate(p.node_kind):
            if kind == "entity":
                entities.append({"id": ids[i], "name": p.node_names[i], "spg_class": p.node_class[i],
                                 "aliases": p.node_aliases.get(i, ()),
                                 "chunk_ids": [ids[c] for c in p.node_chunks[i]]})
            elif kind == "concept":
                concepts.append({"id": ids[i], "name": p.node_names[i],
                                 "chunk_ids": [ids[c] for c in p.node_chunks[i]]})
        relations = [{"id": p.edge_ids[e], "subject_id": ids[int(p.edge_head[e])], "predicate": p.predicate(e),
                      "object_id": ids[int(p.edge_tail[e])], "chunk_ids": [ids[c] for c in p.edge_chunks[e]],
                      "said": p.edge_said.get(e, ""),
                      "qualifiers": [f"{q.predicate}: {q.value}" for q in p.qualifiers.get(e, ())]}
                     for e in range(p.n_edges) if p.edge_kind[e] == "relation"]
        documents = [{"id": doc, "title": title} for doc, title in p.doc_titles.items()]
        return cls.from_rows(chunks, entities, relations, concepts, documents, title_nodes=title_nodes)

    @classmethod
    def from_rows(cls, chunks: Sequence[dict[str, Any]], entities: Sequence[dict[str, Any]],
                  relations: Sequence[dict[str, Any]], concepts: Sequence[dict[str, Any]] = (),
                  documents: Sequence[dict[str, Any]] = (), *, title_nodes: bool = True,
                  concept_edge_weight: float = 0.5) -> MutualIndex:
        chunk_ids = [c["id"] for c in chunks]
        chunk_pos = {cid: i for i, cid in enumerate(chunk_ids)}
        chunk_doc = [c["doc_id"] for c in chunks]
        titles = {d["id"]: d.get("title") or unescape_article_id(d["id"]) for d in documents}
        for doc in chunk_doc:
            titles.setdefault(doc, unescape_article_id(doc))

        node_ids: list[str] = []
        names: list[str] = []
        types: list[str | None] = []
        kinds: list[str] = []
        rows: list[int] = []
        cols: list[int] = []
        vals: list[float] = []
        dictionary = NameDictionary()

        def add_node(nid: str, name: str, typ: str | None, kind: str, supports: Iterable[str], weight: float) -> int:
            index = len(node_ids)
            node_ids.append(nid)
            names.append(name)
            types.append(typ)
            kinds.append(kind)
            for cid in supports:
                pos = chunk_pos.get(cid)
                if pos is not None:  # a chunk outside the table is a stale reference; skip it
                    rows.append(index)
                    cols.append(pos)
                    vals.append(weight)
            return index

        for e in entities:
            i = add_node(e["id"], e["name"], e.get("spg_class"), ENTITY, e.get("chunk_ids") or (), 1.0)
            dictionary.add(mention_key(e["name"]), i, is_alias=False)
            for alias in e.get("aliases") or ():
                dictionary.add(mention_key(alias), i, is_alias=True)
        for c in concepts:
            # Concepts ("comedy film") are hubs; their edges carry less so they do not drown the walk.
            i = add_node(c["id"], c["name"], "Concept", CONCEPT, c.get("chunk_ids") or (), concept_edge_weight)
            dictionary.add(mention_key(c["name"]), i, is_alias=False)
        # Title node -- entity of the same name: "Charmed" mentioned in an actor's passage leads to
        # the passage titled "Charmed (TV series)". This is the bridge of most two-hop questions.
        same_name: list[tuple[int, int]] = []
        if title_nodes:
            by_doc: dict[str, list[str]] = {}
            for cid, doc in zip(chunk_ids, chunk_doc, strict=True):
                by_doc.setdefault(doc, []).append(cid)
            for doc, cids in by_doc.items():
                title = titles[doc]
                i = add_node(f"doc:{doc}", title, "Document", TITLE, cids, 1.0)
                keys = {mention_key(title)}
                dictionary.add(mention_key(title), i, is_alias=False)
                short = _DISAMBIGUATION.sub("", title)
                if short != title:
                    dictionary.add(mention_key(short), i, is_alias=True)
                    keys.add(mention_key(short))
                for key in keys:
                    for other in dictionary.exact.get(key, []):
                        if kinds[other] == ENTITY:
                            same_name.append((i, other))

        n_nodes, n_chunks = len(node_ids), len(chunk_ids)
        node_chunks = sp.csr_matrix((np.asarray(vals, dtype=np.float32), (rows, cols)), shape=(n_nodes, n_chunks))
        node_chunks.sum_duplicates()
        node_chunks.data[:] = np.minimum(node_chunks.data, 1.0)

        node_pos = {nid: i for i, nid in enumerate(node_ids)}
        rel_rows: list[RelationRow] = []
        node_relations: list[list[int]] = [[] for _ in range(n_nodes)]
        er: list[int] = []
        ec: list[int] = []
        ev: list[float] = []
        for r in relations:
            s, o = node_pos.get(r["subject_id"]), node_pos.get(r["object_id"])
            if s is None or o is None or s == o:
                continue  # events and hypernodes are not walked; self loops carry nothing
            rel = RelationRow(r["id"], s, r["predicate"], o,
                              tuple(chunk_pos[c] for c in r.get("chunk_ids") or () if c in chunk_pos),
                              r.get("said") or "", tuple(r.get("qualifiers") or ()))
            node_relations[s].append(len(rel_rows))
            node_relations[o].append(len(rel_rows))
            rel_rows.append(rel)
            w = concept_edge_weight if CONCEPT in (kinds[s], kinds[o]) else 1.0
            er += [s, o]
            ec += [o, s]
            ev += [w, w]
        for a, b in same_name:
            er += [a, b]
            ec += [b, a]
            ev += [1.0, 1.0]
        node_edges = sp.csr_matrix((np.asarray(ev, dtype=np.float32), (er, ec)), shape=(n_nodes, n_nodes))
        node_edges.sum_duplicates()
        return cls(chunk_ids=chunk_ids, chunk_doc=chunk_doc, chunk_text=[c["text"] for c in chunks],
                   node_ids=node_ids, node_names=names, node_types=types, node_kind=kinds,
                   node_chunks=node_chunks, node_edges=node_edges, relations=rel_rows,
                   node_relations=node_relations, doc_titles=titles, names=dictionary)

    # ---------------------------------------------------------------- queries

    @property
    def n_nodes(self) -> int:
        return len(self.node_ids)

    @property
    def n_chunks(self) -> int:
        return len(self.chunk_ids)

    def degree(self, node: int) -> float:
        """How many chunks support the node: a specificity measure (a year or a country is everywhere)."""
        return float(self._degree[node])

    def nodes_of_chunk(self, chunk: int) -> list[int]:
        row = self._chunk_nodes
        nodes: list[int] = row.indices[row.indptr[chunk]:row.indptr[chunk + 1]].tolist()
        return nodes

    def title_of(self, doc_id: str) -> str:
        return self.doc_titles.get(doc_id) or unescape_article_id(doc_id)
