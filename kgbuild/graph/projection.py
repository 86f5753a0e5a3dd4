"""The built graph in memory, for the graph strategies (FRAG, SubgraphRAG, Chain of Explorations, FastToG).

One directed multigraph over four node kinds, read from the workspace tables a build wrote (the rows
the stores were synced from, with the same ids):

    entity, concept   extracted nodes (Entity, Concept in docs/graph_model.md)
    event             an extracted event; its name is "Type: trigger"
    chunk             a passage of text (Chunk); the mutual index joins it to what it supports

and three edge kinds, each an (head, predicate, tail) triple with the chunks that support it:

    relation          an extracted relation (belongTo and isA included); hypernodes that qualify it
                      ("on February 11, 1814") ride on the edge as qualifiers, not as nodes
    role              event -> argument, the predicate is the role ("creator", "time", "place")
    mention           chunk -> node it supports (SUPPORTED_BY read backwards), predicate "mentions"

Mention edges make passages first-class steps of a path ("EDSAC -mentioned in-> [EDSAC §1] -mentions->
First Draft of a Report on the EDVAC"): an offline build extracts few relations per passage, and
without them most questions' answers are unreachable from the entities they name. A strategy can
leave them out (`EdgeKind`).

It is the one graph an engine loads: hybrid retrieval's mutual index (query/retrieval/index.py) is
derived from it, and the explorer (serve/data.py) indexes it for search.

The graph steps over it are in kgbuild/graph/walks.py (scipy; bench/graph_library.py measured the
choice against igraph and rustworkx); `graph` gives an igraph view for community detection. The
projection is immutable once loaded; `signature` says when the tables changed on disk (the engine
reloads) and `fingerprint` identifies the graph's content (trained models record it).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from kgbuild.ids import unescape_article_id
from kgbuild.merge import SAID_SEPARATOR
from kgbuild.query_settings import EdgeKind  # defined with the settings that name edge kinds
from kgbuild.text import CAMEL_SEAM, mention_key

if TYPE_CHECKING:
    import igraph

    from kgbuild.workspace import Workspace

NodeKind = Literal["entity", "concept", "event", "chunk"]
ENTITY: NodeKind = "entity"
CONCEPT: NodeKind = "concept"
EVENT: NodeKind = "event"
CHUNK: NodeKind = "chunk"
RELATION: EdgeKind = "relation"
ROLE: EdgeKind = "role"
MENTION: EdgeKind = "mention"
MENTIONS = "mentions"  # the predicate of a mention edge
# Nodes no passage-mention edge leads to: every passage naming "1986" would otherwise be two hops
# from every other, and walks (and PageRank) would flow through the year. A date is still reached
# through the facts that state it ("released in 1986", a hypernode qualifier) and keeps its
# supporting chunks (`node_chunks`); hybrid retrieval's mutual index, derived from this projection,
# keeps its own node -- chunk matrix where dates stay joined to their chunks.
UNWALKED_MENTIONS = frozenset({"date", "time"})

# Tables the projection reads; a change to any of them (a rebuild) invalidates it.
TABLES = ("chunks", "documents", "entities", "concepts", "relations", "events", "hypernodes")


MAX_PREDICATE_WORDS = 4  # the text's words kept per predicate: enough for its common forms


def said_words(properties: object) -> str:
    """A relation's "said" property (the text's words for its predicate), from the dict or the JSON
    string the relations table stores; "" when it has none."""
    if isinstance(properties, str):
        # Read at every graph load, for every relation: most have no "said" (all English ones), so
        # the key is looked for in the text before any JSON is parsed (the table writes keys as is).
        if '"said"' not in properties:
            return ""
        try:
            properties = json.loads(properties)
        except ValueError:
            return ""
    said = properties.get("said") if isinstance(properties, dict) else None
    return said if isinstance(said, str) else ""


# "Body and Soul (1927 film)": the brackets tell two articles apart; they are not part of the name.
_DISAMBIGUATION = re.compile(r"\s*\([^()]*\)\s*$")


def title_key(title: str) -> str:
    """A document title as the name of what the document is about, keyed as names are (`mention_key`):
    "Body and Soul (1927 film)" -> "body and soul"."""
    return mention_key(_DISAMBIGUATION.sub("", title))


def predicate_text(predicate: str) -> str:
    """A predicate as words, for embedding and prompts: "bornIn" -> "born in", "based_in" -> "based in"."""
    return " ".join(CAMEL_SEAM.sub(" ", predicate).replace("_", " ").split()).lower()


@dataclass(frozen=True)
class Qualifier:
    """A hypernode on a triple: ((head, p, tail), predicate, value)."""

    predicate: str
    value: str
    value_id: str
    # The value is kept as a literal on the hypernode (graph/literals.py): `value_id` names no node.
    literal: bool = False


@dataclass
class GraphProjection:
    """Nodes and edges as parallel arrays; node and edge indices are positions in them."""

    node_ids: list[str]
    node_names: list[str]
    node_kind: list[NodeKind]
    node_class: list[str | None]  # spg_class of an entity, "Concept", the event type, "Chunk"
    node_chunks: list[tuple[int, ...]]  # supporting chunk nodes (a chunk node: itself)
    node_text: list[str]  # what is embedded for the node: as the vector store does ("name: description")
    edge_head: np.ndarray  # int32, node index
    edge_tail: np.ndarray  # int32, node index
    edge_pred: np.ndarray  # int32, index into `predicates`
    edge_kind: list[EdgeKind]
    edge_ids: list[str]
    edge_chunks: list[tuple[int, ...]]  # supporting chunk nodes
    predicates: list[str]
    qualifiers: dict[int, list[Qualifier]]  # edge index -> its hypernode qualifiers
    chunk_doc: dict[int, str]  # chunk node -> document id
    chunk_text: dict[int, str]
    doc_titles: dict[str, str]
    node_aliases: dict[int, tuple[str, ...]] = field(default_factory=dict)  # entity node -> its aliases
    # predicate index -> the words the text used for it, most frequent first (a relation's "said" property:
    # the Chinese rules record 出生于 for bornIn), embedded beside the name (graph/vectors.py)
    predicate_words: dict[int, tuple[str, ...]] = field(default_factory=dict)
    # relation edge index -> its own "said" words (董事会秘书 on one worksFor, 控股股东 on one ownedBy):
    # what one fact's sentence called the link, which the answer from graph facts matches to a question
    edge_said: dict[int, str] = field(default_factory=dict)
    fingerprint: str = ""
    signature: tuple[tuple[str, int, int], ...] = ()
    node_pos: dict[str, int] = field(init=False)
    pred_pos: dict[str, int] = field(init=False)

    def __post_init__(self) -> None:
        self.node_pos = {nid: i for i, nid in enumerate(self.node_ids)}
        self.pred_pos = {p: i for i, p in enumerate(self.predicates)}
        if not self.fingerprint:
            self.fingerprint = content_fingerprint(self.node_ids, self.edge_ids)

    # ---------------------------------------------------------------- sizes and lookups

    @cached_property
    def title_docs(self) -> dict[str, frozenset[str]]:
        """`title_key` of a document title -> those documents (made on first use: only FRAG asks)."""
        titled: dict[str, set[str]] = {}
        for doc, title in self.doc_titles.items():
            titled.setdefault(title_key(title), set()).add(doc)
        return {key: frozenset(docs) for key, docs in titled.items() if key}

    def home_chunks(self, node: int) -> tuple[int, ...]:
        """The node's own article: those of its supporting chunks whose document's title names it (its
        name or an alias, as `title_key` reads a title); none for a node no document is about."""
        docs: set[str] = set()
        for name in (self.node_names[node], *self.node_aliases.get(node, ())):
            docs |= self.title_docs.get(mention_key(name), frozenset())
        return tuple(c for c in self.node_chunks[node] if self.chunk_doc.get(c) in docs) if docs else ()

    @property
    def n_nodes(self) -> int:
        return len(self.node_ids)

    @property
    def n_edges(self) -> int:
        return len(self.edge_ids)

    def predicate(self, edge: int) -> str:
        return self.predicates[int(self.edge_pred[edge])]

    def other_end(self, edge: int, node: int) -> int:
        head, tail = int(self.edge_head[edge]), int(self.edge_tail[edge])
        return tail if head == node else head

    def title_of(self, doc_id: str) -> str:
        return self.doc_titles.get(doc_id) or unescape_article_id(doc_id)

    def chunk_id(self, chunk_node: int) -> str:
        return self.node_ids[chunk_node]

    @cached_property
    def incident(self) -> list[list[int]]:
        """node -> the edges that touch it, either direction (insertion order)."""
        out: list[list[int]] = [[] for _ in range(self.n_nodes)]
        for e, (h, t) in enumerate(zip(self.edge_head.tolist(), self.edge_tail.tolist(), strict=True)):
            out[h].append(e)
            if t != h:
                out[t].append(e)
        return out

    @cached_property
    def graph(self) -> igraph.Graph:
        """The igraph view (directed; edge i of igraph is edge i here). Built on first use."""
        import igraph

        edges = np.column_stack([self.edge_head, self.edge_tail]) if self.n_edges else np.zeros((0, 2), np.int32)
        return igraph.Graph(n=self.n_nodes, edges=edges.tolist(), directed=True)

    def edge_mask(self, kinds: Iterable[EdgeKind]) -> np.ndarray:
        """Boolean mask over edges of the given kinds."""
        wanted = set(kinds)
        return np.fromiter((k in wanted for k in self.edge_kind), dtype=bool, count=self.n_edges)

    # ---------------------------------------------------------------- loading

    @classmethod
    def load(cls, workspace: Workspace) -> GraphProjection:
        """Read the tables of a build. Tables a build did not write (no events) count as empty."""

        def rows(name: str, columns: list[str]) -> list[dict[str, Any]]:
            if not workspace.has_table(name):
                return []
            table = workspace.read_table(name)
            present = [c for c in columns if c in table.column_names]
            selected: list[dict[str, Any]] = table.select(present).to_pylist()
            return selected

        projection = cls.from_rows(
            chunks=rows("chunks", ["id", "doc_id", "text"]),
            documents=rows("documents", ["id", "title"]),
            entities=rows("entities", ["id", "name", "spg_class", "description", "aliases", "chunk_ids"]),
            concepts=rows("concepts", ["id", "name", "chunk_ids"]),
            relations=rows("relations", ["id", "subject_id", "predicate", "object_id", "chunk_ids", "properties"]),
            events=rows("events", ["id", "type", "trigger", "arguments", "time_id", "place_id", "chunk_ids"]),
            hypernodes=rows("hypernodes", ["id", "subject_id", "subject_kind", "predicate", "object_id",
                                           "object_name", "subject_name", "object_kind"]),
        )
        projection.signature = table_signature(workspace)
        return projection

    @classmethod
    def from_rows(cls, *, chunks: Sequence[dict[str, Any]], entities: Sequence[dict[str, Any]] = (),
                  relations: Sequence[dict[str, Any]] = (), concepts: Sequence[dict[str, Any]] = (),
                  events: Sequence[dict[str, Any]] = (), hypernodes: Sequence[dict[str, Any]] = (),
                  documents: Sequence[dict[str, Any]] = ()) -> GraphProjection:
        node_ids: list[str] = []
        names: list[str] = []
        kinds: list[NodeKind] = []
        classes: list[str | None] = []
        supports: list[tuple[int, ...]] = []
        texts: list[str] = []
        pos: dict[str, int] = {}
        chunk_doc: dict[int, str] = {}
        chunk_text: dict[int, str] = {}
        aliases: dict[int, tuple[str, ...]] = {}

        def add(nid: str, name: str, kind: NodeKind, cls_: str | None, text: str = "") -> int:
            i = len(node_ids)
            texts.append(text or name)
            pos[nid] = i
            node_ids.append(nid)
            names.append(name)
            kinds.append(kind)
            classes.append(cls_)
            supports.append(())
            return i

        titles = {d["id"]: d.get("title") or unescape_article_id(d["id"]) for d in documents}
        order: dict[str, int] = {}
        for c in chunks:
            doc = c["doc_id"]
            n = order.get(doc, 0)
            order[doc] = n + 1
            i = add(c["id"], f"{titles.get(doc) or unescape_article_id(doc)} §{n + 1}", CHUNK, "Chunk",
                    c.get("text") or "")
            supports[i] = (i,)
            chunk_doc[i] = doc
            chunk_text[i] = c.get("text") or ""
            titles.setdefault(doc, unescape_article_id(doc))

        def chunk_nodes(ids: Iterable[str] | None) -> tuple[int, ...]:
            # A chunk id outside the table is a stale reference; it supports nothing.
            found = (pos.get(cid) for cid in ids or ())
            return tuple(dict.fromkeys(p for p in found if p is not None and kinds[p] == CHUNK))

        for e in entities:
            # The text the vector sync embeds (store/vector_sync.py), so the vectors come from its cache.
            text = f"{e['name']}: {e['description']}" if e.get("description") else e["name"]
            i = add(e["id"], e["name"], ENTITY, e.get("spg_class"), text)
            supports[i] = chunk_nodes(e.get("chunk_ids"))
            if e.get("aliases"):
                aliases[i] = tuple(e["aliases"])
        for con in concepts:
            i = add(con["id"], con["name"], CONCEPT, "Concept")
            supports[i] = chunk_nodes(con.get("chunk_ids"))
        for ev in events:
            i = add(ev["id"], f"{ev.get('type') or 'Event'}: {ev.get('trigger') or ''}".strip(), EVENT, ev.get("type"))
            supports[i] = chunk_nodes(ev.get("chunk_ids"))

        heads: list[int] = []
        tails: list[int] = []
        preds: list[int] = []
        ekinds: list[EdgeKind] = []
        eids: list[str] = []
        echunks: list[tuple[int, ...]] = []
        predicates: list[str] = []
        pred_pos: dict[str, int] = {}

        def edge(eid: str, h: int, p: str, t: int, kind: EdgeKind, sup: tuple[int, ...]) -> None:
            if p not in pred_pos:
                pred_pos[p] = len(predicates)
                predicates.append(p)
            heads.append(h)
            tails.append(t)
            preds.append(pred_pos[p])
            ekinds.append(kind)
            eids.append(eid)
            echunks.append(sup)

        edge_of: dict[str, int] = {}
        said: dict[int, Counter[str]] = {}
        edge_said: dict[int, str] = {}
        for r in relations:
            h, t = pos.get(r["subject_id"]), pos.get(r["object_id"])
            if h is None or t is None or h == t:
                continue  # an end outside the tables, or a self loop: nothing to walk
            edge_of[r["id"]] = len(eids)
            edge(r["id"], h, r["predicate"], t, RELATION, chunk_nodes(r.get("chunk_ids")))
            if words := said_words(r.get("properties")):
                said.setdefault(preds[-1], Counter()).update(words.split(SAID_SEPARATOR))
                edge_said[len(eids) - 1] = words
        for ev in events:
            h = pos[ev["id"]]
            sup = supports[h]
            args = ev.get("arguments") or {}
            if isinstance(args, str):
                args = json.loads(args) if args else {}
            roles = [(role, ref["id"]) for role, refs in sorted(args.items()) for ref in refs or ()]
            roles += [(role, ev[key]) for role, key in (("time", "time_id"), ("place", "place_id")) if ev.get(key)]
            for role, target in roles:
                t = pos.get(target)
                if t is not None and t != h:
                    edge(f"{ev['id']}:{role}:{target}", h, role, t, ROLE, sup)
        for i in range(len(node_ids)):
            if kinds[i] == CHUNK or (classes[i] or "").casefold() in UNWALKED_MENTIONS:
                continue
            for chunk in supports[i]:
                edge(f"{node_ids[chunk]}>{node_ids[i]}", chunk, MENTIONS, i, MENTION, (chunk,))

        qualifiers: dict[int, list[Qualifier]] = {}
        for hyp in hypernodes:
            # ((x, p, y), q, v) or, written the other way, (v, q, (x, p, y)): the value is the non-triple end.
            if hyp.get("subject_kind") == "relation":
                rel_id, value_id, value = hyp["subject_id"], hyp["object_id"], hyp.get("object_name") or ""
            else:
                rel_id, value_id, value = hyp["object_id"], hyp["subject_id"], hyp.get("subject_name") or ""
            target = edge_of.get(rel_id)
            if target is not None:
                # a literal (a value only hypernodes name, graph/literals.py) keeps the text the hypernode holds
                value = names[pos[value_id]] if value_id in pos else value
                qualifiers.setdefault(target, []).append(Qualifier(hyp["predicate"], value, value_id,
                                                                   literal=value_id not in pos))

        return cls(node_ids=node_ids, node_names=names, node_kind=kinds, node_class=classes, node_chunks=supports,
                   node_text=texts,
                   edge_head=np.asarray(heads, np.int32), edge_tail=np.asarray(tails, np.int32),
                   edge_pred=np.asarray(preds, np.int32), edge_kind=ekinds, edge_ids=eids, edge_chunks=echunks,
                   predicates=predicates, qualifiers=qualifiers, chunk_doc=chunk_doc, chunk_text=chunk_text,
                   doc_titles=titles, node_aliases=aliases,
                   predicate_words={p: tuple(w for w, _ in c.most_common(MAX_PREDICATE_WORDS))
                                    for p, c in said.items()},
                   edge_said=edge_said)


def content_fingerprint(node_ids: Iterable[str], edge_ids: Iterable[str]) -> str:
    """The graph's identity: ids are content-derived, so the same build gives the same fingerprint
    and any added, removed or re-extracted node or edge changes it."""
    digest = hashlib.sha256()
    for part in (sorted(node_ids), sorted(edge_ids)):
        for item in part:
            digest.update(item.encode("utf-8"))
            digest.update(b"\0")
        digest.update(b"\1")
    return digest.hexdigest()[:16]


def table_signature(workspace: Workspace) -> tuple[tuple[str, int, int], ...]:
    """(table, size, mtime) of each table the projection reads: a cheap check for a rebuild."""
    out = []
    for name in TABLES:
        path: Path = workspace.table_path(name)
        try:
            st = path.stat()
        except FileNotFoundError:
            continue
        out.append((name, st.st_size, st.st_mtime_ns))
    return tuple(out)
