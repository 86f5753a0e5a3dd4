"""What the solver reads from the graph store (docs/graph_model.md), through parameterised Cypher.

Every statement is assembled only from fixed fragments of this module and the fixed labels of the
graph model (Entity, Concept, Event, HyperNode, Chunk; SUPPORTED_BY, BELONG_TO, IS_A,
TRIPLE_SUBJECT, TRIPLE_OBJECT, QUALIFIER); names, predicates and ids from the plan (that is, from
the model) travel as parameters. Extracted relations are matched on their `predicate` property,
never on their type, so a predicate the model invents cannot reach a statement.

Index use: the store has one uniqueness constraint (an index) on `id` per base label, and a node
pattern without a label (`MATCH (n) WHERE n.id IN $ids`) can use none of them. So every lookup by
id starts with a labelled anchor, `MATCH (n:Entity) WHERE n.id IN $ids`, one statement per label;
the label comes from the id's prefix (kgbuild.ids: `ent_`, `con_`, `evt_`, `hyp_`, chunk ids
contain `#`), and an id without a known prefix (written by another tool) is looked up under every
label it could have.

Concept reasoning (KAG §2.4.2) helps where a plan's type or mention does not match the graph
literally: an entity "is a" Director if it belongs to the concept "film director" whose isA
ancestors include "director", and a mention that names a concept stands for the concept's members.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterable, Sequence
from typing import Any, Literal

from pydantic import BaseModel, Field

from kgbuild.errors import StoreError
from kgbuild.store.types import GraphStore
from kgbuild.text import CAMEL_SEAM, type_key

Direction = Literal["out", "in"]

# Base labels with an id index that the solver looks ids up under, and the ones an extracted
# relation can start or end at (docs/graph_model.md).
NODE_LABELS = ("Entity", "Concept", "Event", "HyperNode", "Chunk")
RELATION_ENDS = ("Entity", "Concept", "Event")
_ID_PREFIXES = (("ent_", "Entity"), ("con_", "Concept"), ("evt_", "Event"), ("hyp_", "HyperNode"))
_RELATION_PREFIX = "rel_"  # a relationship's id: no node has it


def labels_for(node_id: str, candidates: Sequence[str] = NODE_LABELS) -> tuple[str, ...]:
    """The labels to look `node_id` up under: the one its prefix names (if it is a candidate),
    none for a relation id, every candidate for an id that does not say."""
    if "#" in node_id:
        label: str | None = "Chunk"
    elif node_id.startswith(_RELATION_PREFIX):
        return ()
    else:
        label = next((lab for prefix, lab in _ID_PREFIXES if node_id.startswith(prefix)), None)
    if label is None:
        return tuple(candidates)
    return (label,) if label in candidates else ()


def group_by_label(ids: Iterable[str], candidates: Sequence[str] = NODE_LABELS) -> dict[str, list[str]]:
    """label -> the ids to look up under it, in first-seen order."""
    groups: dict[str, list[str]] = {}
    for node_id in dict.fromkeys(ids):
        for label in labels_for(node_id, candidates):
            groups.setdefault(label, []).append(node_id)
    return groups


def _anchor(var: str, label: str, param: str) -> str:
    """`MATCH (var:Label) WHERE var.id IN $param`: the index seek every id lookup starts from."""
    if label not in NODE_LABELS:  # defence in depth: only the fixed labels reach a statement
        raise ValueError(f"not a base label: {label!r}")
    return f"MATCH ({var}:{label}) WHERE {var}.id IN ${param} "


def _per_label(template: str, labels: Sequence[str] = NODE_LABELS) -> dict[str, str]:
    """One statement per label from a template whose `{anchor:var:param}` marks the anchor."""

    def fill(label: str) -> str:
        return re.sub(r"\{anchor:(\w+):(\w+)\}", lambda m: _anchor(m.group(1), label, m.group(2)), template)

    return {label: fill(label) for label in labels}


# Fields of a node, returned under a prefix: `{p}id`, `{p}name`, ...
_NODE_FIELDS = ("id", "name", "spg_class", "semantic_type", "aliases", "properties", "description", "type", "trigger")


def _fields(var: str, prefix: str) -> str:
    cols = [f"{var}.{f} AS {prefix}{f}" for f in _NODE_FIELDS]
    return ", ".join([*cols, f"labels({var}) AS {prefix}labels"])


# The normalised predicate: case, spaces, underscores and hyphens do not matter ("born in" = "bornIn").
_NORM_PRED = "replace(replace(replace(toLower(r.predicate), ' ', ''), '_', ''), '-', '')"
_NAME_OR_ALIAS = "(toLower(n.name) = $name OR any(a IN coalesce(n.aliases, []) WHERE toLower(a) = $name))"

# Names are not indexed; a label scan of the two labels that carry names is the best there is.
FIND_BY_NAME = {label: f"MATCH (n:{label}) WHERE {_NAME_OR_ALIAS} RETURN {_fields('n', '')} LIMIT $limit"
                for label in ("Entity", "Concept")}
NODES_BY_ID = _per_label(f"{{anchor:n:ids}}RETURN {_fields('n', '')}")
# Extracted relations carry a `predicate`; structural ones (SUPPORTED_BY, NEXT, ...) do not, except
# QUALIFIER, which repeats its HyperNode's predicate and is read through `qualifiers` instead.
_EXTRACTED = "r.predicate IS NOT NULL AND type(r) <> 'QUALIFIER'"
_EDGE_MATCH = f"MATCH (s)-[r]->(o) WHERE {_EXTRACTED}"
_EDGE_RETURN = (f"RETURN r.id AS rid, r.predicate AS predicate, r.properties AS rprops, r.chunk_ids AS rchunks, "
                f"{_fields('s', 's_')}, {_fields('o', 'o_')} LIMIT $limit")
_PREDICATES_RETURN = "RETURN DISTINCT r.predicate AS predicate LIMIT 500"
PREDICATES_FROM = _per_label(f"{{anchor:s:ids}}{_EDGE_MATCH} {_PREDICATES_RETURN}", RELATION_ENDS)
PREDICATES_TO = _per_label(f"{{anchor:o:ids}}{_EDGE_MATCH} {_PREDICATES_RETURN}", RELATION_ENDS)
PREDICATES_ALL = f"{_EDGE_MATCH} RETURN DISTINCT r.predicate AS predicate LIMIT 2000"
# Chains of extracted relations between two anchored ends. Variable-length bounds cannot be
# parameters; the hop count is an int checked in `paths`. The relationship filter sits inside the
# quantified path pattern (GQL / Neo4j 5.9+, ArcadeDB), so the expansion never steps onto a
# SUPPORTED_BY, NEXT, PART_OF or BELONG_TO edge: a chunk or a concept joins hundreds of nodes, and
# a pattern filtered only after expansion walks all of them (samples build, Alan Turing ->
# Colossus in 1..4 hops: 800 ms filtered after, 55 ms inside; the gap grows with the graph).
_EXTRACTED_E = "e.predicate IS NOT NULL AND type(e) <> 'QUALIFIER'"
_PATH_RETURN = ("RETURN [x IN relationships(p) | {{rid: x.id, predicate: x.predicate, chunk_ids: x.chunk_ids, "
                "sid: startNode(x).id, oid: endNode(x).id}}] AS rels LIMIT $limit")
_PATH_MATCH = f"MATCH p=(a)(()-[e]-() WHERE {_EXTRACTED_E}){{{{1,{{hops}}}}}}(b) " + _PATH_RETURN
# A store without quantified path patterns (Neo4j before 5.9) gets the filter after expansion,
# with at most FALLBACK_HOPS hops so that it cannot run away.
FALLBACK_HOPS = 2
_PATH_MATCH_FILTERED = ("MATCH p=(a)-[*1..{hops}]-(b) WHERE all(x IN relationships(p) WHERE "
                        "x.predicate IS NOT NULL AND type(x) <> 'QUALIFIER') " + _PATH_RETURN)
# An entity's concepts, and their isA ancestors (depth 0 = the concept itself).
CONCEPTS_OF = _per_label("{anchor:e:ids}MATCH (e)-[:BELONG_TO]->(c:Concept)-[:IS_A*0..3]->(a:Concept) "
                         "RETURN DISTINCT e.id AS entity, a.id AS id, a.name AS name", RELATION_ENDS)
ANCESTORS = (f"{_anchor('c', 'Concept', 'ids')}MATCH (c)-[:IS_A*1..3]->(a:Concept) "
             f"RETURN DISTINCT {_fields('a', '')}")
DESCENDANTS = (f"{_anchor('c', 'Concept', 'ids')}MATCH (c)<-[:IS_A*1..3]-(d:Concept) "
               f"RETURN DISTINCT {_fields('d', '')}")
MEMBERS = (f"{_anchor('c', 'Concept', 'ids')}MATCH (c)<-[:IS_A*0..3]-(d:Concept)<-[:BELONG_TO]-(n:Entity) "
           f"RETURN DISTINCT {_fields('n', '')} LIMIT $limit")
SUPPORTING = _per_label("{anchor:n:ids}MATCH (n)-[:SUPPORTED_BY]->(c:Chunk) RETURN n.id AS node, c.id AS chunk",
                        ("Entity", "Concept", "Event", "HyperNode"))
CHUNKS = f"{_anchor('c', 'Chunk', 'ids')}RETURN c.id AS id, c.doc_id AS doc_id, c.text AS text"
# Qualifiers of triples, ((x, p, y), q, v): the HyperNode points at both ends of the triple it
# qualifies and at the qualifier value; `relation_id` names the triple. Anchored on one end.
QUALIFIERS = _per_label(
    "{anchor:x:ids}MATCH (h:HyperNode)-[:TRIPLE_SUBJECT]->(x) MATCH (h)-[:TRIPLE_OBJECT]->(y) "
    "MATCH (h)-[q:QUALIFIER]->(v) "
    f"RETURN h.id AS hid, h.relation_id AS rid, x.id AS sid, y.id AS oid, coalesce(q.predicate, h.predicate) AS qpred, "
    f"{_fields('v', 'v_')}", RELATION_ENDS)
# The same for a value kept as a literal on the HyperNode (graph/literals.py): no QUALIFIER edge, the
# value is the HyperNode's own object_id / object_name.
LITERAL_QUALIFIERS = _per_label(
    "{anchor:x:ids}MATCH (h:HyperNode)-[:TRIPLE_SUBJECT]->(x) MATCH (h)-[:TRIPLE_OBJECT]->(y) "
    "WHERE h.object_kind = 'value' "
    "RETURN h.id AS hid, h.relation_id AS rid, x.id AS sid, y.id AS oid, h.predicate AS qpred, "
    "h.object_id AS v_id, h.object_name AS v_name", RELATION_ENDS)


def normalise_predicate(text: str) -> str:
    return re.sub(r"[\s_\-]+", "", text.lower())


def _words(text: str) -> set[str]:
    # "directedBy" -> {"directed", "by"}; short suffixes trimmed so "direct" meets "directed"
    spaced = CAMEL_SEAM.sub(" ", text)
    out = set()
    for w in re.findall(r"\w+", spaced.lower()):
        for suffix in ("ing", "ed", "es", "s"):
            if len(w) > len(suffix) + 3 and w.endswith(suffix):
                w = w[: -len(suffix)]
                break
        out.add(w)
    return out


class GNode(BaseModel):
    id: str
    name: str
    kind: str  # Entity, Concept, Event, HyperNode, Chunk, Document; Value: a literal of a HyperNode
    type: str | None = None  # spg_class of an entity
    semantic_type: str | None = None
    aliases: list[str] = Field(default_factory=list)
    properties: dict[str, Any] = Field(default_factory=dict)

    def field(self, prop: str) -> Any:
        """A property for constraints: a stored field or a key of the properties JSON."""
        fixed = {"id": self.id, "name": self.name, "type": self.type, "class": self.type,
                 "semantic_type": self.semantic_type, "kind": self.kind}
        return fixed[prop] if prop in fixed else self.properties.get(prop)


class GEdge(BaseModel):
    id: str
    predicate: str
    subject: GNode
    object: GNode
    properties: dict[str, Any] = Field(default_factory=dict)
    # The triple's own supporting chunks, as the store holds them; None when the store has none
    # (a graph written before relationships carried them).
    chunk_ids: list[str] | None = None


class GQualifier(BaseModel):
    """A qualifier of a triple, ((s, p, o), predicate, value), read from its HyperNode."""

    hypernode_id: str
    predicate: str
    value: GNode


class GChunk(BaseModel):
    id: str
    doc_id: str = ""
    text: str = ""


def _json_dict(raw: Any) -> dict[str, Any]:
    if isinstance(raw, dict):
        return raw
    if not raw:
        return {}
    try:
        value = json.loads(raw)
    except (TypeError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def _chunk_list(raw: Any) -> list[str] | None:
    if raw is None:
        return None
    if isinstance(raw, str):  # a store that flattened the list
        return [raw]
    return [str(c) for c in raw if c]


def node_from_row(row: dict[str, Any], prefix: str = "") -> GNode:
    labels = list(row.get(f"{prefix}labels") or [])
    base = ("Entity", "Concept", "Event", "HyperNode", "Chunk", "Document")
    kind = next((b for b in base if b in labels), labels[0] if labels else "Node")
    name = row.get(f"{prefix}name") or row.get(f"{prefix}trigger") or row.get(f"{prefix}type") or row[f"{prefix}id"]
    type_ = row.get(f"{prefix}spg_class") or (row.get(f"{prefix}type") if kind == "Event" else None)
    if kind == "Concept":
        type_ = "Concept"
    return GNode(id=row[f"{prefix}id"], name=str(name), kind=kind, type=type_,
                 semantic_type=row.get(f"{prefix}semantic_type"), aliases=list(row.get(f"{prefix}aliases") or []),
                 properties=_json_dict(row.get(f"{prefix}properties")))


def literal_node(row: dict[str, Any], prefix: str = "v_") -> GNode:
    """A value kept as a literal on its HyperNode, as the node a qualifier's value is read as (kind "Value")."""
    return GNode(id=row[f"{prefix}id"] or "", name=str(row.get(f"{prefix}name") or ""), kind="Value")


def edge_from_row(row: dict[str, Any]) -> GEdge:
    return GEdge(id=row["rid"] or "", predicate=row["predicate"], subject=node_from_row(row, "s_"),
                 object=node_from_row(row, "o_"), properties=_json_dict(row.get("rprops")),
                 chunk_ids=_chunk_list(row.get("rchunks")))


_Group = tuple[str | None, list[str] | None]  # (anchor label, ids); (None, None): no anchor


def _groups(ids: Sequence[str] | None) -> list[_Group]:
    """The anchors for one end of a relation: none without ids, one per label with them (no
    anchor at all, hence no statement, when none of the ids can be a relation end)."""
    if ids is None:
        return [(None, None)]
    return list(group_by_label(ids, RELATION_ENDS).items())


class GraphView:
    def __init__(self, store: GraphStore, *, max_rows: int = 200) -> None:
        self.store = store
        self.max_rows = max_rows
        # Set when the store rejected a quantified path pattern: paths then filter after expansion.
        self.filtered_paths = False

    def _by_label(self, statements: dict[str, str], ids: Iterable[str],
                  params: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        """Run the statement of each label with the ids that belong to it; rows of all of them."""
        rows: list[dict[str, Any]] = []
        for label, group in group_by_label(ids, tuple(statements)).items():
            rows.extend(self.store.query(statements[label], {**(params or {}), "ids": group}))
        return rows

    # ------------------------------------------------------------ nodes

    def find_entities(self, name: str, type_: str | None = None, limit: int = 10) -> list[GNode]:
        """Entities and concepts whose name or an alias is `name` (any case); with `type_`, those that
        conform to it first (see `conforms`), else all of them."""
        # With a type, the filter comes before the limit: the node of that type may be past the
        # first `limit` namesakes (a common name), so up to max_rows of them are read.
        fetch = max(limit, self.max_rows) if type_ else limit
        params = {"name": " ".join(name.split()).lower(), "limit": fetch}
        rows = [r for statement in FIND_BY_NAME.values() for r in self.store.query(statement, params)]
        found = [node_from_row(r) for r in rows]
        if type_:
            typed = self.conforms(found, type_)
            return (typed or found)[:limit]
        return found[:limit]

    def nodes(self, ids: Sequence[str]) -> list[GNode]:
        """The nodes with these ids, in the order asked (unknown ids are left out)."""
        by_id = {n.id: n for n in (node_from_row(r) for r in self._by_label(NODES_BY_ID, ids))}
        return [by_id[i] for i in dict.fromkeys(ids) if i in by_id]

    # ------------------------------------------------------------ relations

    def edges(self, *, subjects: Sequence[str] | None = None, objects: Sequence[str] | None = None,
              predicates: Sequence[str] | None = None, limit: int | None = None) -> list[GEdge]:
        """Extracted relations subject -> object, filtered by ends and by predicate (normalised).

        With ids, each end is anchored by label (one statement per label pair); with predicates
        only, the relationships are scanned: no index covers a relationship property."""
        limit = limit or self.max_rows
        where = f"{_EDGE_MATCH} AND {_NORM_PRED} IN $predicates " if predicates is not None else f"{_EDGE_MATCH} "
        params: dict[str, Any] = {"limit": limit}
        if predicates is not None:
            params["predicates"] = [normalise_predicate(p) for p in predicates]
        out: dict[tuple[str, str, str], GEdge] = {}
        for s_label, s_ids in _groups(subjects):
            for o_label, o_ids in _groups(objects):
                anchors, run = "", dict(params)
                if s_label is not None:
                    anchors += _anchor("s", s_label, "subjects")
                    run["subjects"] = s_ids
                if o_label is not None:
                    anchors += _anchor("o", o_label, "objects")
                    run["objects"] = o_ids
                for row in self.store.query(f"{anchors}{where}{_EDGE_RETURN}", run):
                    edge = edge_from_row(row)
                    out.setdefault((edge.id, edge.subject.id, edge.object.id), edge)
        return list(out.values())[:limit]

    def predicates_near(self, ids: Sequence[str] | None, direction: Direction = "out") -> list[str]:
        """Predicates present on relations leaving (or entering) the nodes; all of them without ids."""
        if ids is None:
            rows = self.store.query(PREDICATES_ALL)
        else:
            rows = self._by_label(PREDICATES_FROM if direction == "out" else PREDICATES_TO, ids)
        return sorted({r["predicate"] for r in rows if r.get("predicate")})

    @staticmethod
    def close_predicates(wanted: str, present: Iterable[str]) -> list[str]:
        """Fuzzy fallback: predicates in the graph that probably mean `wanted` (best first).

        Exact after normalisation, then shared content words ("direct" ~ "directed by"), then
        string similarity. Structural ones (belongTo, isA) only match when asked for exactly."""
        norm = normalise_predicate(wanted)
        present = [p for p in dict.fromkeys(present) if p]
        exact = [p for p in present if normalise_predicate(p) == norm]
        if exact:
            return exact
        candidates = [p for p in present if normalise_predicate(p) not in ("belongto", "isa")]
        want_words = _words(wanted) - {"by", "of", "in", "at", "the", "a", "to", "has", "is", "was"}
        scored: list[tuple[float, str]] = []
        for p in candidates:
            words = _words(p)
            overlap = len(want_words & words) / max(1, len(want_words)) if want_words else 0.0
            ratio = difflib.SequenceMatcher(None, norm, normalise_predicate(p)).ratio()
            score = max(overlap, ratio)
            if overlap >= 0.5 or ratio >= 0.75:
                scored.append((score, p))
        scored.sort(key=lambda t: (-t[0], t[1]))
        return [p for _, p in scored[:3]]

    def paths(self, sources: Sequence[str], targets: Sequence[str], max_hops: int = 3,
              limit: int = 20) -> list[list[GEdge]]:
        """Chains of extracted relations (either direction) linking a source to a target, shortest first."""
        hops = int(max_hops)
        if not 1 <= hops <= 4:
            raise ValueError("max_hops must be between 1 and 4")
        rows: list[dict[str, Any]] = []
        for a_label, a_ids in _groups(sources or []):
            for b_label, b_ids in _groups(targets or []):
                anchors = _anchor("a", str(a_label), "sources") + _anchor("b", str(b_label), "targets")
                rows.extend(self._path_rows(anchors, hops, {"sources": a_ids, "targets": b_ids, "limit": limit}))
        ids = {x for r in rows for rel in r["rels"] for x in (rel["sid"], rel["oid"])}
        by_id = {n.id: n for n in self.nodes(sorted(ids))}
        chains: dict[tuple[str, ...], list[GEdge]] = {}
        for r in rows:
            chain = [GEdge(id=rel["rid"] or "", predicate=rel["predicate"], subject=by_id[rel["sid"]],
                           object=by_id[rel["oid"]], chunk_ids=_chunk_list(rel.get("chunk_ids")))
                     for rel in r["rels"] if rel["sid"] in by_id and rel["oid"] in by_id]
            if chain:  # an undirected match finds a chain once from each side: keep one
                chains.setdefault(tuple(e.id for e in chain), chain)
        return sorted(chains.values(), key=len)[:limit]

    def _path_rows(self, anchors: str, hops: int, params: dict[str, Any]) -> list[dict[str, Any]]:
        if not self.filtered_paths:
            try:
                return self.store.query(anchors + _PATH_MATCH.format(hops=hops), params)
            except StoreError:
                # No quantified path patterns here (a syntax error; anything else fails again below).
                self.filtered_paths = True
        return self.store.query(anchors + _PATH_MATCH_FILTERED.format(hops=min(hops, FALLBACK_HOPS)), params)

    def qualifiers(self, edges: Sequence[GEdge]) -> dict[str, list[GQualifier]]:
        """edge id -> the qualifiers of that triple, ((s, p, o), q, v), from the HyperNodes pointing
        at its ends (TRIPLE_SUBJECT, TRIPLE_OBJECT) and naming it (relation_id). A HyperNode
        without relation_id qualifies any triple between the same two ends."""
        out: dict[str, list[GQualifier]] = {}
        if not edges:
            return out
        ends = [x for e in edges for x in (e.subject.id, e.object.id)]
        seen: set[tuple[str, str]] = set()
        rows = [(row, node_from_row(row, "v_")) for row in self._by_label(QUALIFIERS, ends)]
        rows += [(row, literal_node(row)) for row in self._by_label(LITERAL_QUALIFIERS, ends)]
        for row, value in rows:
            for e in edges:
                same = row["rid"] == e.id if row.get("rid") else {row["sid"], row["oid"]} == {e.subject.id, e.object.id}
                if same and (e.id, row["hid"]) not in seen:
                    seen.add((e.id, row["hid"]))
                    out.setdefault(e.id, []).append(GQualifier(hypernode_id=row["hid"], predicate=row["qpred"] or "",
                                                               value=value))
        return out

    # ------------------------------------------------------------ concepts (KAG §2.4.2)

    def concepts_of(self, entity_ids: Sequence[str]) -> dict[str, list[str]]:
        """entity id -> names of the concepts it belongs to and their isA ancestors."""
        out: dict[str, list[str]] = {}
        for r in self._by_label(CONCEPTS_OF, entity_ids):
            out.setdefault(r["entity"], []).append(r["name"])
        return out

    def ancestors(self, concept_ids: Sequence[str]) -> list[GNode]:
        if not concept_ids:
            return []
        return [node_from_row(r) for r in self.store.query(ANCESTORS, {"ids": list(concept_ids)})]

    def descendants(self, concept_ids: Sequence[str]) -> list[GNode]:
        if not concept_ids:
            return []
        return [node_from_row(r) for r in self.store.query(DESCENDANTS, {"ids": list(concept_ids)})]

    def members(self, concept_ids: Sequence[str], limit: int | None = None) -> list[GNode]:
        """Entities that belong to the concepts or to any concept below them (isA)."""
        if not concept_ids:
            return []
        rows = self.store.query(MEMBERS, {"ids": list(concept_ids), "limit": limit or self.max_rows})
        return [node_from_row(r) for r in rows]

    def conforms(self, nodes: Sequence[GNode], type_: str) -> list[GNode]:
        """The nodes that are a `type_`: by class, semantic type or label, else through the concepts
        they belong to and those concepts' ancestors. Case, spaces and plurals do not matter."""
        want = type_key(type_)
        if want in ("entity", "thing", "node", "any"):
            return list(nodes)
        direct = [n for n in nodes if want in {type_key(n.type or ""), type_key(n.semantic_type or ""),
                                               type_key(n.kind)}]
        rest = [n for n in nodes if n not in direct and n.kind == "Entity"]
        if not rest:
            return direct
        concepts = self.concepts_of([n.id for n in rest])
        # "Director" matches the concept "film director" (its head word), not "Film".
        via = [n for n in rest if any(want == type_key(c) or (" " not in want and type_key(c).split()[-1:] == [want])
                                      for c in concepts.get(n.id, []))]
        return direct + via

    # ------------------------------------------------------------ provenance

    def supporting_chunks(self, node_ids: Sequence[str]) -> dict[str, list[str]]:
        """node id -> ids of the chunks it was extracted from (SUPPORTED_BY)."""
        out: dict[str, list[str]] = {}
        for r in self._by_label(SUPPORTING, node_ids):
            out.setdefault(r["node"], []).append(r["chunk"])
        return {k: sorted(set(v)) for k, v in out.items()}

    def chunks(self, chunk_ids: Sequence[str]) -> list[GChunk]:
        if not chunk_ids:
            return []
        rows = self.store.query(CHUNKS, {"ids": list(dict.fromkeys(chunk_ids))})
        by_id = {r["id"]: GChunk(id=r["id"], doc_id=r.get("doc_id") or "", text=r.get("text") or "") for r in rows}
        return [by_id[c] for c in dict.fromkeys(chunk_ids) if c in by_id]
