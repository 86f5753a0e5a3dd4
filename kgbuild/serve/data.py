"""Read-only queries of the explorer over the engine's graph projection and the workspace tables.

`GraphIndex` holds what one loaded projection needs for fast answers (a name index for search,
degrees, the entity columns the projection leaves out); `Explorer` gives the index of the engine's
current projection, rebuilt when a new build replaced the tables, and runs queries one at a time
(a strategy is not thread-safe). Every list is paginated and every expansion capped, so no request
walks or returns the whole graph.
"""

from __future__ import annotations

import bisect
import json
import threading
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from kgbuild.errors import ConfigError
from kgbuild.graph.projection import CHUNK, CONCEPT, ENTITY, EVENT, MENTION, RELATION, ROLE, GraphProjection
from kgbuild.records.documents import RecordSources
from kgbuild.serve.records import (
    ChainLink,
    ClassCount,
    GraphEdge,
    GraphNode,
    MergeView,
    Neighbourhood,
    NodeDetail,
    NodeRef,
    QualifierView,
    QueryResult,
    SearchHit,
    SpanView,
    Stats,
    StrategyView,
    Support,
    TripleView,
)
from kgbuild.serve.spans import triple_sentence
from kgbuild.text import search_fold

if TYPE_CHECKING:
    from kgbuild.engine import Engine
    from kgbuild.health import GraphHealth
    from kgbuild.query.types import RetrievalMode, RetrievalResult
    from kgbuild.workspace import Workspace

SEARCHABLE = (ENTITY, CONCEPT, EVENT)
CHAIN_PREDICATES = ("belongTo", "isA")
MAX_CHAIN_DEPTH = 8
MAX_NODES = 200  # neighbourhood caps: the most one request may ask for
MAX_EDGES = 400
SUPPORT_SHOWN = 5  # supporting chunks per triple in a list; /api/triple gives up to SUPPORT_MAX
SUPPORT_MAX = 50
_SCAN_BUDGET = 20000
CONTEXT_ROLES = 4  # event arguments shown beside a search hit
CONTEXT_CHARS = 120
MAX_LABELS = 2000  # ids named in one query's trace
MAX_ID_CHARS = 1000  # incident edges looked at when closing a capped neighbourhood


class NotFound(LookupError):
    """An id that names nothing in this build (the API answers 404)."""


@dataclass(frozen=True)
class EntityExtras:
    """Entity columns the projection does not keep."""

    semantic_type: str | None
    summary: str
    aliases: tuple[str, ...]
    properties_json: str


def page_of(items: list[Any], total: int, offset: int, limit: int) -> dict[str, Any]:
    nxt = offset + limit if offset + limit < total else None
    return {"items": items, "total": total, "offset": offset, "limit": limit, "next_offset": nxt}


class GraphIndex:
    """Search keys, degrees and entity extras of one projection (built once per loaded graph)."""

    def __init__(self, projection: GraphProjection, workspace: Workspace) -> None:
        self.p = projection
        self.workspace = workspace
        p = projection
        structural = p.edge_mask((RELATION, ROLE))
        self.structural = structural
        heads, tails = p.edge_head[structural], p.edge_tail[structural]
        self.degree = (np.bincount(heads, minlength=p.n_nodes) + np.bincount(tails, minlength=p.n_nodes)).astype(int)
        self.extras: dict[int, EntityExtras] = {}
        self.descriptions: dict[int, str] = {}
        self._read_entities()
        self._read_concepts()
        # Which documents are mapped records files or a record's text: their chunks show the record's `file:line`.
        self.records = RecordSources.read(self.workspace)
        self.edge_pos = {eid: e for e, eid in enumerate(p.edge_ids)}
        self._build_search()
        _ = p.incident  # built now, not by the first neighbourhood request

    # ---------------------------------------------------------------- loading

    def _read_entities(self) -> None:
        if not self.workspace.has_table("entities"):
            return
        table = self.workspace.read_table("entities")
        wanted = [c for c in ("id", "semantic_type", "summary", "aliases", "properties", "description")
                  if c in table.column_names]
        pos = self.p.node_pos
        for batch in table.select(wanted).to_batches(max_chunksize=8192):
            for row in batch.to_pylist():
                i = pos.get(row["id"])
                if i is None:
                    continue
                self.extras[i] = EntityExtras(row.get("semantic_type"), row.get("summary") or "",
                                              tuple(row.get("aliases") or ()), row.get("properties") or "{}")
                if row.get("description"):
                    self.descriptions[i] = row["description"]

    def _read_concepts(self) -> None:
        if not self.workspace.has_table("concepts"):
            return
        table = self.workspace.read_table("concepts", columns=["id", "description"])
        for row in table.to_pylist():
            i = self.p.node_pos.get(row["id"])
            if i is not None and row.get("description"):
                self.descriptions[i] = row["description"]

    def chunk_source(self, chunk: int) -> str | None:
        """A chunk's `file:line` when it is a record (or a record's text), else None."""
        return self.records.of(self.p.chunk_doc.get(chunk, ""), self.p.node_ids[chunk])

    def _build_search(self) -> None:
        """One string of every searchable name and alias, folded and separated by NULs: a substring search
        is then one `str.find` loop in C over the whole graph, not a Python loop over its names."""
        p = self.p
        keys: list[str] = []
        owners: list[int] = []
        labels: list[str] = []
        for i in range(p.n_nodes):
            if p.node_kind[i] not in SEARCHABLE:
                continue
            names = [p.node_names[i]]
            extra = self.extras.get(i)
            if extra is not None:
                names.extend(a for a in extra.aliases if a and a != p.node_names[i])
            for name in names:
                keys.append(search_fold(name).replace("\0", " "))
                owners.append(i)
                labels.append(name)
        self.key_owner = owners
        self.key_label = labels
        self.keys = keys
        self.key_start: list[int] = []
        at = 1
        for key in keys:
            self.key_start.append(at)
            at += len(key) + 1
        self.haystack = "\0" + "\0".join(keys) + "\0"
        # Browsing without a query: the most connected nodes first.
        searchable = [i for i in range(p.n_nodes) if p.node_kind[i] in SEARCHABLE]
        self.by_degree = sorted(searchable, key=lambda i: (-int(self.degree[i]), p.node_names[i]))
        self.classes = Counter((p.node_kind[i], p.node_class[i]) for i in searchable)

    # ---------------------------------------------------------------- views

    def node(self, node_id: str) -> int:
        i = self.p.node_pos.get(node_id)
        if i is None:
            raise NotFound(f"no node with id {node_id!r} in this build")
        return i

    def ref(self, i: int) -> NodeRef:
        p = self.p
        return NodeRef(id=p.node_ids[i], name=p.node_names[i], kind=p.node_kind[i], node_class=p.node_class[i])

    def qualifiers(self, e: int) -> list[QualifierView]:
        return [QualifierView(predicate=q.predicate, value=q.value, value_id=q.value_id, literal=q.literal)
                for q in self.p.qualifiers.get(e, ())]

    def names_of(self, i: int) -> list[str]:
        """What a passage may call the node: its name and aliases; an event, its trigger word."""
        p = self.p
        if p.node_kind[i] == EVENT:
            trigger = p.node_names[i].split(":", 1)[-1].strip()
            return [trigger] if trigger else []
        extra = self.extras.get(i)
        return [p.node_names[i], *(extra.aliases if extra else ())]

    # ---------------------------------------------------------------- search

    def _matches(self, folded: str) -> Iterator[int]:
        """Key indices whose text contains `folded`, each once, in key order."""
        hay, starts = self.haystack, self.key_start
        at = hay.find(folded)
        while at >= 0:
            k = bisect.bisect_right(starts, at) - 1
            if k >= 0:
                yield k
                nxt = starts[k + 1] if k + 1 < len(starts) else len(hay)
            else:
                nxt = at + 1
            at = hay.find(folded, nxt)

    def search(self, query: str, kind: str | None, node_class: str | None, offset: int,
               limit: int) -> dict[str, Any]:
        p = self.p

        def wanted(i: int) -> bool:
            return (kind is None or p.node_kind[i] == kind) and (node_class is None or p.node_class[i] == node_class)

        folded = search_fold(query).strip().replace("\0", " ")
        if not folded:
            order = [i for i in self.by_degree if wanted(i)]
            items = [self._hit(i, p.node_names[i]) for i in order[offset:offset + limit]]
            return page_of(items, len(order), offset, limit)
        best: dict[int, tuple[int, int]] = {}  # node -> (rank, key)
        for k in self._matches(folded):
            i = self.key_owner[k]
            if not wanted(i):
                continue
            key = self.keys[k]
            # the exact name, then a name with a word starting with the query, then anywhere
            rank = 0 if key == folded else 1 if key.startswith(folded) or f" {folded}" in key else 2
            if i not in best or rank < best[i][0]:
                best[i] = (rank, k)
        ranked = sorted(best.items(), key=lambda item: (item[1][0], -int(self.degree[item[0]]), p.node_names[item[0]]))
        items = [self._hit(i, self.key_label[k]) for i, (_, k) in ranked[offset:offset + limit]]
        return page_of(items, len(ranked), offset, limit)

    def _hit(self, i: int, matched: str) -> SearchHit:
        p = self.p
        return SearchHit(id=p.node_ids[i], name=p.node_names[i], kind=p.node_kind[i], node_class=p.node_class[i],
                         matched=matched, degree=int(self.degree[i]), context=self.context(i))

    def context(self, i: int) -> str:
        """What tells the node apart from others of its name: an event's arguments ("person Alan Turing ·
        time 1912"), since every birth is named "Birth: born"; else the start of its description."""
        p = self.p
        if p.node_kind[i] == EVENT:
            roles = sorted((p.predicate(e), p.node_names[int(p.edge_tail[e])]) for e in p.incident[i]
                           if p.edge_kind[e] == ROLE and int(p.edge_head[e]) == i)
            text = " · ".join(f"{role} {name}" for role, name in roles[:CONTEXT_ROLES])
        else:
            text = " ".join(self.descriptions.get(i, "").split())
        return text if len(text) <= CONTEXT_CHARS else text[:CONTEXT_CHARS - 1] + "…"

    def label(self, some_id: str) -> str | None:
        """A node or edge id as words: a node's name, an edge as "head —predicate→ tail"; None for a string
        that is not an id of this build (the query trace mixes ids with other text)."""
        p = self.p
        i = p.node_pos.get(some_id)
        if i is not None:
            return p.node_names[i]
        e = self.edge_pos.get(some_id)
        if e is None:
            return None
        return f"{p.node_names[int(p.edge_head[e])]} —{p.predicate(e)}→ {p.node_names[int(p.edge_tail[e])]}"

    def labels(self, values: Iterable[Any]) -> dict[str, str]:
        """Labels of the ids among `values` and inside their lists and mappings (at most MAX_LABELS)."""
        out: dict[str, str] = {}
        stack = list(values)
        while stack and len(out) < MAX_LABELS:
            value = stack.pop()
            if isinstance(value, str):
                if value not in out and len(value) <= MAX_ID_CHARS:
                    found = self.label(value)
                    if found is not None:
                        out[value] = found
            elif isinstance(value, dict):
                stack.extend(value.values())
            elif isinstance(value, (list, tuple)):
                stack.extend(value)
        return out

    def class_counts(self) -> list[ClassCount]:
        return [ClassCount(kind=kind, node_class=cls, count=n)
                for (kind, cls), n in sorted(self.classes.items(), key=lambda kv: (-kv[1], kv[0][0], kv[0][1] or ""))]

    # ---------------------------------------------------------------- one node

    def detail(self, node_id: str) -> NodeDetail:
        p = self.p
        i = self.node(node_id)
        extra = self.extras.get(i)
        properties: dict[str, list[str]] = {}
        if extra is not None:
            try:
                raw = json.loads(extra.properties_json or "{}")
            except ValueError:
                raw = {}
            if isinstance(raw, dict):
                properties = {str(k): [str(x) for x in (v if isinstance(v, list) else [v])] for k, v in raw.items()}
        chunks = [p.node_ids[c] for c in p.node_chunks[i] if c != i]
        detail = NodeDetail(id=p.node_ids[i], name=p.node_names[i], kind=p.node_kind[i], node_class=p.node_class[i],
                            semantic_type=extra.semantic_type if extra else None,
                            description=self.descriptions.get(i, ""), summary=extra.summary if extra else "",
                            aliases=list(extra.aliases) if extra else [], properties=properties,
                            degree=int(self.degree[i]), chunk_ids=chunks[:50], chunk_count=len(chunks),
                            concept_chain=self.chain(i))
        if p.node_kind[i] == CHUNK:
            doc = p.chunk_doc.get(i, "")
            detail.text, detail.doc_id, detail.title = p.chunk_text.get(i, ""), doc, p.title_of(doc)
            detail.source = self.chunk_source(i)
        return detail

    def chain(self, i: int) -> list[ChainLink]:
        """belongTo and isA edges upward from the node, breadth first, each parent once."""
        p = self.p
        chain_preds = {p.pred_pos[x] for x in CHAIN_PREDICATES if x in p.pred_pos}
        if not chain_preds:
            return []
        out: list[ChainLink] = []
        seen = {i}
        frontier = [i]
        for depth in range(1, MAX_CHAIN_DEPTH + 1):
            nxt: list[int] = []
            for n in frontier:
                for e in p.incident[n]:
                    if int(p.edge_head[e]) != n or int(p.edge_pred[e]) not in chain_preds:
                        continue
                    parent = int(p.edge_tail[e])
                    if parent in seen:
                        continue
                    seen.add(parent)
                    nxt.append(parent)
                    out.append(ChainLink(child_id=p.node_ids[n], predicate=p.predicate(e), parent=self.ref(parent),
                                         depth=depth))
            if not nxt:
                break
            frontier = nxt
        return out

    # ---------------------------------------------------------------- neighbourhood

    def neighbourhood(self, node_id: str, hops: int, max_nodes: int, max_edges: int,
                      mentions: bool) -> Neighbourhood:
        """Breadth first from the node over relation and role edges (mention edges too when asked), until
        `hops`, `max_nodes` or `max_edges`; then the edges among the nodes reached (within the caps)."""
        p = self.p
        centre = self.node(node_id)
        allowed = self.structural | p.edge_mask((MENTION,)) if mentions else self.structural
        hop_of = {centre: 0}
        edges: dict[int, None] = {}
        truncated = False  # set when a cap refused a node or an edge the walk reached
        frontier = [centre]
        for hop in range(1, hops + 1):
            nxt: list[int] = []
            for n in frontier:
                for e in p.incident[n]:
                    if not allowed[e] or e in edges:
                        continue
                    other = p.other_end(e, n)
                    if other not in hop_of:
                        if len(hop_of) >= max_nodes:
                            truncated = True
                            break
                        hop_of[other] = hop
                        nxt.append(other)
                    if len(edges) >= max_edges:
                        truncated = True
                        break
                    edges[e] = None
                if truncated:
                    break
            if truncated:
                break
            frontier = nxt
        # Edges between nodes already drawn (two neighbours related to each other): a bounded scan.
        budget = _SCAN_BUDGET
        for n in list(hop_of):
            if len(edges) >= max_edges or budget <= 0:
                break
            for e in p.incident[n]:
                budget -= 1
                if budget <= 0 or len(edges) >= max_edges:
                    break
                if allowed[e] and e not in edges and p.other_end(e, n) in hop_of:
                    edges[e] = None
        nodes = [GraphNode(id=p.node_ids[n], name=p.node_names[n], kind=p.node_kind[n], node_class=p.node_class[n],
                           hop=h, degree=int(self.degree[n])) for n, h in hop_of.items()]
        return Neighbourhood(center=p.node_ids[centre], hops=hops, nodes=nodes, edges=[self.edge(e) for e in edges],
                             truncated=truncated, max_nodes=max_nodes, max_edges=max_edges)

    def edge(self, e: int) -> GraphEdge:
        p = self.p
        return GraphEdge(id=p.edge_ids[e], source=p.node_ids[int(p.edge_head[e])],
                         target=p.node_ids[int(p.edge_tail[e])], predicate=p.predicate(e),
                         kind=p.edge_kind[e], qualifiers=self.qualifiers(e))

    # ---------------------------------------------------------------- triples and their support

    def triples(self, node_id: str, offset: int, limit: int) -> dict[str, Any]:
        """The node's relations and event roles, relations first, by predicate; each with up to
        SUPPORT_SHOWN supporting chunks and the sentence stating it."""
        p = self.p
        i = self.node(node_id)
        own = [e for e in p.incident[i] if self.structural[e]]
        own.sort(key=lambda e: (p.edge_kind[e] != RELATION, p.predicate(e), p.node_names[p.other_end(e, i)]))
        items = [self.triple_view(e, SUPPORT_SHOWN) for e in own[offset:offset + limit]]
        return page_of(items, len(own), offset, limit)

    def triple(self, edge_id: str) -> TripleView:
        e = self.edge_pos.get(edge_id)
        if e is None or not self.structural[e]:
            raise NotFound(f"no relation or event role with id {edge_id!r} in this build")
        return self.triple_view(e, SUPPORT_MAX)

    def triple_view(self, e: int, support_limit: int) -> TripleView:
        p = self.p
        head, tail = int(p.edge_head[e]), int(p.edge_tail[e])
        kind = p.edge_kind[e]
        assert kind != MENTION
        chunks = p.edge_chunks[e]
        heads, tails = self.names_of(head), self.names_of(tail)
        support = [self.support(c, heads, tails, p.predicate(e)) for c in chunks[:support_limit]]
        return TripleView(id=p.edge_ids[e], kind=kind, subject=self.ref(head), predicate=p.predicate(e),
                          object=self.ref(tail), qualifiers=self.qualifiers(e), support=support,
                          support_total=len(chunks))

    def support(self, chunk: int, heads: Iterable[str], tails: Iterable[str], predicate: str) -> Support:
        p = self.p
        text = p.chunk_text.get(chunk, "")
        doc = p.chunk_doc.get(chunk, "")
        found = triple_sentence(text, list(heads), list(tails), predicate)
        view = Support(chunk_id=p.node_ids[chunk], doc_id=doc, title=p.title_of(doc), text=text,
                       source=self.chunk_source(chunk))
        if found is not None:
            view.sentence = SpanView(start=found.sentence.start, end=found.sentence.end)
            view.mentions = [SpanView(start=s.start, end=s.end) for s in found.mentions]
            view.how = found.how
        return view

    def stats(self, query_model: bool) -> Stats:
        p = self.p
        return Stats(nodes=dict(Counter(p.node_kind)), edges=dict(Counter(p.edge_kind)), fingerprint=p.fingerprint,
                     query_model=query_model)


class FairLock:
    """A lock handed out in the order it was asked for. `threading.Lock` promises no order, so under many
    clients (bench/serve_load.py) a query could wait behind any number of later ones; first come, first
    served bounds its wait by the queries already queued ahead of it."""

    def __init__(self) -> None:
        self._turn = threading.Condition()
        self._next_ticket = 0
        self._serving = 0

    def acquire(self, blocking: bool = True) -> bool:
        """Wait for this caller's turn; without `blocking`, take the lock only if it is free and nobody waits."""
        with self._turn:
            if not blocking and self._next_ticket != self._serving:
                return False
            ticket = self._next_ticket
            self._next_ticket += 1
            while ticket != self._serving:
                self._turn.wait()
            return True

    def release(self) -> None:
        with self._turn:
            self._serving += 1
            self._turn.notify_all()

    def waiting(self) -> int:
        """Callers holding or waiting for the lock."""
        with self._turn:
            return self._next_ticket - self._serving


class Explorer:
    """The explorer's view of an opened engine: the current graph index, merges, report, strategies, query."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        # One engine call at a time: strategies keep state and the projection may be swapped by a rebuild.
        # In arrival order, so no query starves behind later ones.
        self._engine_lock = FairLock()
        self._index_lock = threading.Lock()
        self._index: GraphIndex | None = None

    @contextmanager
    def _engine(self, wait: bool) -> Iterator[bool]:
        got = self._engine_lock.acquire(blocking=wait)
        try:
            yield got
        finally:
            if got:
                self._engine_lock.release()

    def index(self) -> GraphIndex:
        """The index of the engine's current projection. While the tables are those it was built from,
        reads use it without waiting for the engine (a query may hold it for a model's seconds); once
        they changed (a rebuild, a correction), reads wait for the reload. Before, a read arriving
        while another request was reloading got the old graph after a correction."""
        from kgbuild.graph.projection import table_signature

        current = self._index
        if current is not None and current.p.signature == table_signature(self.engine.workspace):
            return current  # the tables it was built from: nothing to reload, no engine to wait for
        with self._engine(wait=True):
            self.engine.refresh()
            projection = self.engine.projection()
        with self._index_lock:
            if self._index is None or self._index.p is not projection:
                self._index = GraphIndex(projection, self.engine.workspace)
            return self._index

    def merges(self, query: str, offset: int, limit: int) -> dict[str, Any]:
        ws = self.engine.workspace
        rows = ws.rows("merges") if ws.has_table("merges") else []
        folded = search_fold(query).strip()
        if folded:
            rows = [r for r in rows if folded in search_fold(r.get("canonical_name") or "")
                    or folded in search_fold(r.get("reason") or "")]
        rows.sort(key=lambda r: (r.get("step") or "", search_fold(r.get("canonical_name") or "")))
        items = [MergeView(canonical_id=r["canonical_id"], canonical_name=r.get("canonical_name"),
                           merged_ids=list(r.get("merged_ids") or []), step=r.get("step") or "",
                           reason=r.get("reason") or "") for r in rows[offset:offset + limit]]
        return page_of(items, len(rows), offset, limit)

    def report(self) -> dict[str, Any] | None:
        return self.engine.workspace.latest_report()

    def health(self) -> GraphHealth:
        from kgbuild.health import graph_health

        return graph_health(self.engine.workspace)

    def strategies(self) -> list[StrategyView]:
        out: list[StrategyView] = []
        with self._engine(wait=True):
            for spec in self.engine.strategies():
                reason: str | None = None
                try:
                    self.engine.resolve(spec.name)
                    reason = spec.unavailable(self.engine) if spec.unavailable is not None else None
                except ConfigError as exc:
                    reason = exc.problem
                out.append(StrategyView(name=spec.name, description=spec.description, needs_model=spec.needs_model,
                                        training=spec.training, available=reason is None, reason=reason))
        return out

    def query(self, question: str, strategy: str, k: int | None) -> QueryResult:
        """The answer, with the node and edge ids its trace names put into words (`labels`)."""
        with self._engine(wait=True):
            answer = self.engine.query(question, strategy=strategy, k=k)
        labels = self.index().labels(step.result.model_dump() for step in answer.trace)
        return QueryResult(**answer.model_dump(exclude={"verified"}), labels=labels)

    def retrieve(self, question: str, k: int | None, mode: RetrievalMode) -> RetrievalResult:
        """Context only (passages, triples, linked entities), no model: the MCP server's `retrieve`."""
        with self._engine(wait=True):
            return self.engine.retrieve(question, k, mode=mode)

    def query_model(self) -> bool:
        return self.engine.config.llm.configured()


__all__ = ["MAX_EDGES", "MAX_NODES", "Explorer", "GraphIndex", "NotFound"]
