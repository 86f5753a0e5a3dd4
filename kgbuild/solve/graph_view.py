"""What the solver reads from the graph store (docs/graph_model.md), through parameterised Cypher.

Every statement below is a constant of this module, assembled only from fixed fragments; names,
predicates and ids from the plan (that is, from the model) travel as parameters. The only labels
and relationship types in the text are the fixed ones of the graph model: Entity, Concept, Chunk,
SUPPORTED_BY, BELONG_TO, IS_A. Extracted relations are matched on their `predicate` property,
never on their type, so a predicate the model invents cannot reach a statement.

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

from kgbuild.store.types import GraphStore

Direction = Literal["out", "in"]

# Fields of a node, returned under a prefix: `{p}id`, `{p}name`, ...
_NODE_FIELDS = ("id", "name", "spg_class", "semantic_type", "aliases", "properties", "description", "type", "trigger")


def _fields(var: str, prefix: str) -> str:
    cols = [f"{var}.{f} AS {prefix}{f}" for f in _NODE_FIELDS]
    return ", ".join(cols + [f"labels({var}) AS {prefix}labels"])


# The normalised predicate: case, spaces, underscores and hyphens do not matter ("born in" = "bornIn").
_NORM_PRED = "replace(replace(replace(toLower(r.predicate), ' ', ''), '_', ''), '-', '')"
_NAME_OR_ALIAS = "(toLower(n.name) = $name OR any(a IN coalesce(n.aliases, []) WHERE toLower(a) = $name))"

FIND_BY_NAME = f"MATCH (n) WHERE (n:Entity OR n:Concept) AND {_NAME_OR_ALIAS} RETURN {_fields('n', '')} LIMIT $limit"
NODES_BY_ID = f"MATCH (n) WHERE n.id IN $ids RETURN {_fields('n', '')}"
# Extracted relations carry a `predicate`; structural ones (SUPPORTED_BY, NEXT, ...) do not.
_EDGE_RETURN = (f"RETURN r.id AS rid, r.predicate AS predicate, r.properties AS rprops, "
                f"{_fields('s', 's_')}, {_fields('o', 'o_')} LIMIT $limit")
_EDGE_WHERE = {
    "subjects": "s.id IN $subjects",
    "objects": "o.id IN $objects",
    "predicates": f"{_NORM_PRED} IN $predicates",
}
PREDICATES_FROM = ("MATCH (s)-[r]->(o) WHERE s.id IN $ids AND r.predicate IS NOT NULL "
                   "RETURN DISTINCT r.predicate AS predicate LIMIT 500")
PREDICATES_TO = ("MATCH (s)-[r]->(o) WHERE o.id IN $ids AND r.predicate IS NOT NULL "
                 "RETURN DISTINCT r.predicate AS predicate LIMIT 500")
PREDICATES_ALL = "MATCH (s)-[r]->(o) WHERE r.predicate IS NOT NULL RETURN DISTINCT r.predicate AS predicate LIMIT 2000"
# Variable-length bounds cannot be parameters; the hop count is an int checked in `paths`.
_PATHS = ("MATCH p=(a)-[*1..{hops}]-(b) WHERE a.id IN $sources AND b.id IN $targets "
          "AND all(r IN relationships(p) WHERE r.predicate IS NOT NULL) "
          "RETURN [r IN relationships(p) | {{rid: r.id, predicate: r.predicate, sid: startNode(r).id, "
          "oid: endNode(r).id}}] AS rels LIMIT $limit")
# An entity's concepts, and their isA ancestors (depth 0 = the concept itself).
CONCEPTS_OF = ("MATCH (e)-[:BELONG_TO]->(c:Concept)-[:IS_A*0..3]->(a:Concept) WHERE e.id IN $ids "
               "RETURN DISTINCT e.id AS entity, a.id AS id, a.name AS name")
ANCESTORS = ("MATCH (c:Concept)-[:IS_A*1..3]->(a:Concept) WHERE c.id IN $ids "
             f"RETURN DISTINCT {_fields('a', '')}")
DESCENDANTS = ("MATCH (c:Concept)<-[:IS_A*1..3]-(d:Concept) WHERE c.id IN $ids "
               f"RETURN DISTINCT {_fields('d', '')}")
MEMBERS = ("MATCH (c:Concept)<-[:IS_A*0..3]-(d:Concept)<-[:BELONG_TO]-(n:Entity) WHERE c.id IN $ids "
           f"RETURN DISTINCT {_fields('n', '')} LIMIT $limit")
SUPPORTING = ("MATCH (n)-[:SUPPORTED_BY]->(c:Chunk) WHERE n.id IN $ids "
              "RETURN n.id AS node, c.id AS chunk")
CHUNKS = "MATCH (c:Chunk) WHERE c.id IN $ids RETURN c.id AS id, c.doc_id AS doc_id, c.text AS text"


def normalise_predicate(text: str) -> str:
    return re.sub(r"[\s_\-]+", "", text.lower())


def _words(text: str) -> set[str]:
    # "directedBy" -> {"directed", "by"}; short suffixes trimmed so "direct" meets "directed"
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", text)
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
    kind: str  # Entity, Concept, Event, HyperNode, Chunk, Document
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


class GraphView:
    def __init__(self, store: GraphStore, *, max_rows: int = 200) -> None:
        self.store = store
        self.max_rows = max_rows

    # ------------------------------------------------------------ nodes

    def find_entities(self, name: str, type_: str | None = None, limit: int = 10) -> list[GNode]:
        """Entities and concepts whose name or an alias is `name` (any case); with `type_`, those that
        conform to it first (see `conforms`), else all of them."""
        rows = self.store.query(FIND_BY_NAME, {"name": " ".join(name.split()).lower(), "limit": limit})
        found = [node_from_row(r) for r in rows]
        if type_:
            typed = self.conforms(found, type_)
            return typed or found
        return found

    def nodes(self, ids: Sequence[str]) -> list[GNode]:
        if not ids:
            return []
        return [node_from_row(r) for r in self.store.query(NODES_BY_ID, {"ids": list(ids)})]

    # ------------------------------------------------------------ relations

    def edges(self, *, subjects: Sequence[str] | None = None, objects: Sequence[str] | None = None,
              predicates: Sequence[str] | None = None, limit: int | None = None) -> list[GEdge]:
        """Extracted relations subject -> object, filtered by ends and by predicate (normalised)."""
        params: dict[str, Any] = {"limit": limit or self.max_rows}
        where = ["r.predicate IS NOT NULL"]
        for key, values in (("subjects", subjects), ("objects", objects), ("predicates", predicates)):
            if values is not None:
                where.append(_EDGE_WHERE[key])
                params[key] = [normalise_predicate(v) for v in values] if key == "predicates" else list(values)
        statement = f"MATCH (s)-[r]->(o) WHERE {' AND '.join(where)} {_EDGE_RETURN}"
        return [GEdge(id=r["rid"] or "", predicate=r["predicate"], subject=node_from_row(r, "s_"),
                      object=node_from_row(r, "o_"), properties=_json_dict(r.get("rprops")))
                for r in self.store.query(statement, params)]

    def predicates_near(self, ids: Sequence[str] | None, direction: Direction = "out") -> list[str]:
        """Predicates present on relations leaving (or entering) the nodes; all of them without ids."""
        if ids is None:
            rows = self.store.query(PREDICATES_ALL)
        else:
            rows = self.store.query(PREDICATES_FROM if direction == "out" else PREDICATES_TO, {"ids": list(ids)})
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
        """Chains of extracted relations (either direction) linking a source to a target."""
        hops = int(max_hops)
        if not 1 <= hops <= 4:
            raise ValueError("max_hops must be between 1 and 4")
        if not sources or not targets:
            return []
        rows = self.store.query(_PATHS.format(hops=hops), {"sources": list(sources), "targets": list(targets),
                                                           "limit": limit})
        ids = {x for r in rows for rel in r["rels"] for x in (rel["sid"], rel["oid"])}
        by_id = {n.id: n for n in self.nodes(sorted(ids))}
        out: list[list[GEdge]] = []
        for r in rows:
            chain = [GEdge(id=rel["rid"] or "", predicate=rel["predicate"], subject=by_id[rel["sid"]],
                           object=by_id[rel["oid"]]) for rel in r["rels"] if rel["sid"] in by_id and rel["oid"] in by_id]
            if chain:
                out.append(chain)
        out.sort(key=len)
        return out

    # ------------------------------------------------------------ concepts (KAG §2.4.2)

    def concepts_of(self, entity_ids: Sequence[str]) -> dict[str, list[str]]:
        """entity id -> names of the concepts it belongs to and their isA ancestors."""
        out: dict[str, list[str]] = {}
        if not entity_ids:
            return out
        for r in self.store.query(CONCEPTS_OF, {"ids": list(entity_ids)}):
            out.setdefault(r["entity"], []).append(r["name"])
        return out

    def ancestors(self, concept_ids: Sequence[str]) -> list[GNode]:
        return [node_from_row(r) for r in self.store.query(ANCESTORS, {"ids": list(concept_ids)})] if concept_ids else []

    def descendants(self, concept_ids: Sequence[str]) -> list[GNode]:
        return [node_from_row(r) for r in self.store.query(DESCENDANTS, {"ids": list(concept_ids)})] if concept_ids else []

    def members(self, concept_ids: Sequence[str], limit: int | None = None) -> list[GNode]:
        """Entities that belong to the concepts or to any concept below them (isA)."""
        if not concept_ids:
            return []
        rows = self.store.query(MEMBERS, {"ids": list(concept_ids), "limit": limit or self.max_rows})
        return [node_from_row(r) for r in rows]

    def conforms(self, nodes: Sequence[GNode], type_: str) -> list[GNode]:
        """The nodes that are a `type_`: by class, semantic type or label, else through the concepts
        they belong to and those concepts' ancestors. Case, spaces and plurals do not matter."""
        want = _type_key(type_)
        if want in ("entity", "thing", "node", "any"):
            return list(nodes)
        direct = [n for n in nodes if want in {_type_key(n.type or ""), _type_key(n.semantic_type or ""),
                                               _type_key(n.kind)}]
        rest = [n for n in nodes if n not in direct and n.kind == "Entity"]
        if not rest:
            return direct
        concepts = self.concepts_of([n.id for n in rest])
        # "Director" matches the concept "film director" (its head word), not "Film".
        via = [n for n in rest if any(want == _type_key(c) or (" " not in want and _type_key(c).split()[-1:] == [want])
                                      for c in concepts.get(n.id, []))]
        return direct + via

    # ------------------------------------------------------------ provenance

    def supporting_chunks(self, node_ids: Sequence[str]) -> dict[str, list[str]]:
        """node id -> ids of the chunks it was extracted from (SUPPORTED_BY)."""
        out: dict[str, list[str]] = {}
        if not node_ids:
            return out
        for r in self.store.query(SUPPORTING, {"ids": list(dict.fromkeys(node_ids))}):
            out.setdefault(r["node"], []).append(r["chunk"])
        return {k: sorted(set(v)) for k, v in out.items()}

    def chunks(self, chunk_ids: Sequence[str]) -> list[GChunk]:
        if not chunk_ids:
            return []
        rows = self.store.query(CHUNKS, {"ids": list(dict.fromkeys(chunk_ids))})
        by_id = {r["id"]: GChunk(id=r["id"], doc_id=r.get("doc_id") or "", text=r.get("text") or "") for r in rows}
        return [by_id[c] for c in dict.fromkeys(chunk_ids) if c in by_id]


def _type_key(text: str) -> str:
    """"Film Directors" -> "film director"; "FilmDirector" -> "film director"."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", text)
    words = re.findall(r"\w+", spaced.lower())
    if words and len(words[-1]) > 3 and words[-1].endswith("s") and not words[-1].endswith("ss"):
        words[-1] = words[-1][:-1]
    return " ".join(words)
