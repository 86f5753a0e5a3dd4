"""The graph as RDF: Turtle (streamed) and JSON-LD (rdflib's serializer), in the KAG vocabulary.

The mapping from graph rows to triples is written once (`triples`) and both serialisations read
it. Terms and the mapping are documented in docs/vocabulary.md; the vocabulary itself ships as
kag.ttl next to this module.

Turtle is written straight to the stream, one subject block at a time, with our own escaping,
so a large graph never sits in an rdflib Graph (whose Turtle serializer sorts and indexes every
subject). JSON-LD has to go through rdflib's serializer, which needs the whole graph in memory:
use Turtle for very large exports.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any, NamedTuple, TextIO
from urllib.parse import quote

from kgbuild.store.graph_rows import EdgeRow, GraphRows, NodeRow
from kgbuild.store.labels import STRUCTURAL_TYPES

# The namespace is an identifier first: it stays the same across releases even before the w3id
# redirect exists, so exports made today keep meaning the same thing.
KAG = "https://w3id.org/kgbuild/kag#"
RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
RDFS = "http://www.w3.org/2000/01/rdf-schema#"
XSD = "http://www.w3.org/2001/XMLSchema#"
PROV = "http://www.w3.org/ns/prov#"
OWL = "http://www.w3.org/2002/07/owl#"

VOCABULARY_FILE = "kag.ttl"


class Iri(NamedTuple):
    """An IRI kept as namespace + local part, so the Turtle writer finds its prefix with one lookup."""

    ns: str
    local: str

    def full(self) -> str:
        return self.ns + self.local


class Lit(NamedTuple):
    text: str
    datatype: str | None = None  # None = xsd:string


class RdfList(NamedTuple):
    """An ordered list of literals (rdf:List), for values whose order matters (a chunk's section path)."""

    items: tuple[Lit, ...]


Obj = Iri | Lit | RdfList
Triple = tuple[Iri, Iri, Obj]


def _k(local: str) -> Iri:
    return Iri(KAG, local)


A = Iri(RDF, "type")
LABEL = Iri(RDFS, "label")
XSD_INTEGER = XSD + "integer"

# Every kag: term the mapping emits; tests check each is declared in kag.ttl.
KAG_TERMS = frozenset({
    "Document", "Chunk", "Entity", "Event", "Concept", "HyperNode", "Argument",
    "id", "partOf", "next", "supportedBy", "belongTo", "isA", "spgClass", "semanticType", "description",
    "summary", "alias", "properties", "text", "section", "order", "tokenCount", "contentHash", "source",
    "format", "wordCount", "trigger", "argument", "role", "time", "place", "qualifier", "qualifierPredicate",
    "qualifies", "qualifierValue", "qualifiesValue",
})

# Node property -> (predicate, how the value is written). Properties not listed (none today) are
# left out of RDF; GraphML and JSONL carry every property.
_TEXT, _INT, _EACH, _ORDERED, _JSON = "text", "int", "each", "ordered", "json"
_NODE_PROPS: dict[str, tuple[tuple[str, Iri, str], ...]] = {
    "Document": (("id", _k("id"), _TEXT), ("title", LABEL, _TEXT), ("source", _k("source"), _TEXT),
                 ("format", _k("format"), _TEXT), ("content_hash", _k("contentHash"), _TEXT),
                 ("word_count", _k("wordCount"), _INT)),
    "Chunk": (("id", _k("id"), _TEXT), ("text", _k("text"), _TEXT), ("order", _k("order"), _INT),
              ("section", _k("section"), _ORDERED), ("token_count", _k("tokenCount"), _INT),
              ("summary", _k("summary"), _TEXT), ("content_hash", _k("contentHash"), _TEXT)),
    "Entity": (("id", _k("id"), _TEXT), ("name", LABEL, _TEXT), ("spg_class", _k("spgClass"), _TEXT),
               ("semantic_type", _k("semanticType"), _TEXT), ("description", _k("description"), _TEXT),
               ("summary", _k("summary"), _TEXT), ("aliases", _k("alias"), _EACH),
               ("properties", _k("properties"), _JSON)),
    # The event type is its class in the schema, as an entity's spg_class is.
    "Event": (("id", _k("id"), _TEXT), ("type", _k("spgClass"), _TEXT), ("trigger", _k("trigger"), _TEXT)),
    "Concept": (("id", _k("id"), _TEXT), ("name", LABEL, _TEXT), ("description", _k("description"), _TEXT)),
    "HyperNode": (("id", _k("id"), _TEXT),),
}

# Structural relationships of docs/graph_model.md -> one property each. ARGUMENT is n-ary (it has
# a role), so it is handled on its own; extracted relations go to the relation namespace.
_EDGE_PREDICATES: dict[str, Iri] = {
    "PART_OF": _k("partOf"), "NEXT": _k("next"), "SUPPORTED_BY": _k("supportedBy"),
    "TIME": _k("time"), "PLACE": _k("place"), "SUBJECT": _k("qualifies"), "QUALIFIER": _k("qualifier"),
    "TRIPLE_SUBJECT": Iri(RDF, "subject"), "TRIPLE_OBJECT": Iri(RDF, "object"),
}

# Predicates with a meaning in KAG itself (align/semantic.py) are vocabulary terms, not text.
_KAG_PREDICATES = {"belongTo": _k("belongTo"), "isA": _k("isA")}

_SEGMENTS = {"Document": "document/", "Chunk": "chunk/", "Entity": "entity/", "Event": "event/",
             "Concept": "concept/", "HyperNode": "hypernode/"}


class Names:
    """Instance IRIs under one base: `<base><kind>/<percent-encoded id>`.

    Every character outside the RFC 3986 unreserved set is percent-encoded (UTF-8), '%' included,
    so `urllib.parse.unquote(local)` gives the id back exactly and the IRI never needs escaping.
    """

    def __init__(self, base: str) -> None:
        self.base = base
        self.node_ns = {label: base + seg for label, seg in _SEGMENTS.items()}
        self.relation_ns = base + "relation/"
        self.argument_ns = base + "argument/"
        self.statement_ns = base + "statement/"
        self._predicates: dict[str, Iri] = {}

    def prefixes(self) -> dict[str, str]:
        return {"rdf": RDF, "rdfs": RDFS, "xsd": XSD, "kag": KAG,
                "doc": self.node_ns["Document"], "chunk": self.node_ns["Chunk"], "ent": self.node_ns["Entity"],
                "evt": self.node_ns["Event"], "con": self.node_ns["Concept"], "hyp": self.node_ns["HyperNode"],
                "rel": self.relation_ns, "arg": self.argument_ns, "stmt": self.statement_ns}

    def node(self, label: str, id_: str) -> Iri:
        return Iri(self.node_ns[label], encode(id_))

    def predicate(self, text: str) -> Iri:
        found = self._predicates.get(text)
        if found is None:
            found = _KAG_PREDICATES.get(text) or Iri(self.relation_ns, encode(text))
            self._predicates[text] = found
        return found


def encode(text: str) -> str:
    return quote(text, safe="")


def vocabulary_path() -> Path:
    """The shipped vocabulary (Turtle)."""
    return Path(str(resources.files("kgbuild.export").joinpath(VOCABULARY_FILE)))


# ---------------------------------------------------------------- the mapping


def triples(rows: GraphRows, names: Names) -> Iterator[Triple]:
    """Every triple of the export: each node's block (its properties, then its outgoing
    relationships), then the argument and statement nodes those relationships introduced."""
    # Hypernodes name the relation they qualify by id; its predicate is on the relation's edge.
    relation_predicate = {e.id: e.props.get("predicate", "") for e in rows.edges if e.type not in STRUCTURAL_TYPES}
    # Outgoing edges by source, so a node's relationships join its block (one pass, no sorting).
    outgoing: dict[tuple[str, str], list[EdgeRow]] = {}
    for edge in rows.edges:
        outgoing.setdefault((edge.src_label, edge.src), []).append(edge)
    used_predicates: dict[str, Iri] = {}
    chunks = {n.id for n in rows.nodes if n.label == "Chunk"}  # relation provenance names only real chunks

    for node in rows.nodes:
        deferred: list[Triple] = []
        yield from _node_triples(node, names, relation_predicate, used_predicates)
        for edge in outgoing.pop((node.label, node.id), ()):
            yield from _edge_triples(edge, names, used_predicates, chunks, deferred)
        yield from deferred
    for edges in outgoing.values():  # sources that are not nodes: graph rows never produce them
        deferred = []
        for edge in edges:
            yield from _edge_triples(edge, names, used_predicates, chunks, deferred)
        yield from deferred
    # Predicates read from text are declared once, with their raw text as the label.
    for text, iri in used_predicates.items():
        if iri.ns == names.relation_ns:
            yield iri, A, Iri(RDF, "Property")
            yield iri, LABEL, Lit(text)


def _node_triples(node: NodeRow, names: Names, relation_predicate: dict[str, str],
                  used: dict[str, Iri]) -> Iterator[Triple]:
    s = names.node(node.label, node.id)
    props = node.props
    yield s, A, _k(node.label)
    if node.label == "HyperNode" and props.get("relation_id"):
        yield s, A, Iri(RDF, "Statement")  # it reifies the triple it qualifies
    for key, pred, how in _NODE_PROPS[node.label]:
        value = props.get(key)
        if value is None or value == "" or value == []:
            continue
        if how == _INT:
            yield s, pred, Lit(str(int(value)), XSD_INTEGER)
        elif how == _EACH:
            for item in value:
                yield s, pred, Lit(str(item))
        elif how == _ORDERED:
            yield s, pred, RdfList(tuple(Lit(str(v)) for v in value))
        elif how == _JSON:
            if value not in ("{}", "null"):
                yield s, pred, Lit(str(value))
        else:
            yield s, pred, Lit(str(value))
    if node.label == "HyperNode":
        yield from _hypernode_triples(s, props, names, relation_predicate, used)


def _hypernode_triples(s: Iri, props: dict[str, Any], names: Names, relation_predicate: dict[str, str],
                       used: dict[str, Iri]) -> Iterator[Triple]:
    # ((subject, predicate, object), qualifier, value): the hypernode is the reified statement of
    # the nested triple; its ends come with the TRIPLE_SUBJECT / TRIPLE_OBJECT edges.
    qualifier = props.get("predicate")
    yield s, LABEL, Lit(f"{props.get('subject_name', '')} {qualifier or ''} {props.get('object_name', '')}".strip())
    if qualifier:
        yield s, _k("qualifierPredicate"), _use(names, qualifier, used)
    # A value kept as a literal on the fact (graph/literals.py) has no node to point at: its text is the object.
    if props.get("object_kind") == "value":
        yield s, _k("qualifierValue"), Lit(str(props.get("object_name", "")))
    if props.get("subject_kind") == "value":
        yield s, _k("qualifiesValue"), Lit(str(props.get("subject_name", "")))
    relation_id = props.get("relation_id")
    if relation_id and relation_id in relation_predicate:
        yield s, Iri(RDF, "predicate"), _use(names, relation_predicate[relation_id], used)


def _use(names: Names, text: str, used: dict[str, Iri]) -> Iri:
    iri = names.predicate(text)
    used.setdefault(text, iri)
    return iri


def _edge_triples(edge: EdgeRow, names: Names, used: dict[str, Iri], chunks: set[str],
                  deferred: list[Triple]) -> Iterator[Triple]:
    """The edge's triple(s) about its source; triples about other subjects go to `deferred`."""
    s = names.node(edge.src_label, edge.src)
    o = names.node(edge.dst_label, edge.dst)
    fixed = _EDGE_PREDICATES.get(edge.type)
    if fixed is not None:
        yield s, fixed, o
        return
    if edge.type == "ARGUMENT":
        # n-ary: event -> argument node (role + value); the node's IRI comes from the edge id,
        # so the same build always gives the same IRI.
        arg = Iri(names.argument_ns, encode(edge.id))
        yield s, _k("argument"), arg
        deferred += [(arg, A, _k("Argument")), (arg, _k("role"), Lit(str(edge.props.get("role", "")))),
                     (arg, Iri(RDF, "value"), o)]
        return
    p = _use(names, str(edge.props.get("predicate", "")), used)
    yield s, p, o
    properties = edge.props.get("properties")
    if properties in ("{}", "null"):
        properties = None
    chunk_ids = [c for c in edge.props.get("chunk_ids") or () if c in chunks]
    if properties or chunk_ids:
        # A plain triple cannot carry the relation's properties or the chunks it was read from;
        # its reified statement can (taxonomy edges from the schema have neither and stay plain).
        st = Iri(names.statement_ns, encode(edge.id))
        deferred += [(st, A, Iri(RDF, "Statement")), (st, _k("id"), Lit(edge.id)), (st, Iri(RDF, "subject"), s),
                     (st, Iri(RDF, "predicate"), p), (st, Iri(RDF, "object"), o)]
        if properties:
            deferred.append((st, _k("properties"), Lit(str(properties))))
        deferred += [(st, _k("supportedBy"), names.node("Chunk", c)) for c in chunk_ids]


# ---------------------------------------------------------------- Turtle

# Turtle string escapes (ECHAR), and \uXXXX for every other control character so the output is
# plain printable text whatever the names contain.
_TTL_ESCAPES = {ord(c): e for c, e in (('"', '\\"'), ("\\", "\\\\"), ("\n", "\\n"), ("\r", "\\r"),
                                       ("\t", "\\t"), ("\b", "\\b"), ("\f", "\\f"))}
for _c in [*range(0x20), 0x7F, 0x85, 0x2028, 0x2029]:
    _TTL_ESCAPES.setdefault(_c, f"\\u{_c:04X}")
del _c

# A percent-encoded local part is a valid prefixed name unless it ends in '.', or holds '~'
# (which would need a backslash escape): those few are written as full <IRI>s instead.
_PN_LOCAL = re.compile(r"^[A-Za-z0-9_%](?:[A-Za-z0-9_.%-]*[A-Za-z0-9_%-])?$")


def _ttl_string(text: str) -> str:
    return '"' + text.translate(_TTL_ESCAPES) + '"'


class _TurtleWriter:
    def __init__(self, fh: TextIO, prefixes: dict[str, str]) -> None:
        self.fh = fh
        self.prefix_of = {ns: p for p, ns in prefixes.items()}
        self.subject: Iri | None = None
        self.count = 0
        for p, ns in prefixes.items():
            fh.write(f"@prefix {p}: <{ns}> .\n")

    def iri(self, iri: Iri) -> str:
        if iri == A:
            return "a"
        prefix = self.prefix_of.get(iri.ns)
        if prefix is not None and _PN_LOCAL.match(iri.local):
            return f"{prefix}:{iri.local}"
        # Local parts are percent-encoded and bases are checked, so nothing here needs escaping.
        return f"<{iri.ns}{iri.local}>"

    def term(self, obj: Obj) -> str:
        if isinstance(obj, Iri):
            return self.iri(obj)
        if isinstance(obj, Lit):
            if obj.datatype == XSD_INTEGER:
                return obj.text  # a bare integer is xsd:integer in Turtle
            if obj.datatype:
                return f"{_ttl_string(obj.text)}^^<{obj.datatype}>"
            return _ttl_string(obj.text)
        return "( " + " ".join(self.term(item) for item in obj.items) + " )"

    def add(self, s: Iri, p: Iri, o: Obj) -> None:
        if s == self.subject:
            self.fh.write(f" ;\n    {self.iri(p)} {self.term(o)}")
        else:
            if self.subject is not None:
                self.fh.write(" .\n")
            self.fh.write(f"\n{self.iri(s)} {self.iri(p)} {self.term(o)}")
            self.subject = s
        # An rdf:List of n items is 1 + 2n triples (the link to its head, rdf:first and rdf:rest each).
        self.count += 1 + 2 * len(o.items) if isinstance(o, RdfList) else 1

    def close(self) -> None:
        if self.subject is not None:
            self.fh.write(" .\n")


def write_turtle(rows: GraphRows, fh: TextIO, base: str) -> int:
    """Stream the graph as Turtle; returns the number of triples written."""
    names = Names(base)
    fh.write(f"# kgbuild graph export; vocabulary: {KAG} (kag.ttl, docs/vocabulary.md)\n")
    writer = _TurtleWriter(fh, names.prefixes())
    for s, p, o in triples(rows, names):
        writer.add(s, p, o)
    writer.close()
    return writer.count


# ---------------------------------------------------------------- JSON-LD


def write_jsonld(rows: GraphRows, fh: TextIO, base: str) -> int:
    """The graph as JSON-LD through rdflib, compacted with the same prefixes as the Turtle."""
    # rdflib is imported here, not at module level: the Turtle path does not need it.
    from rdflib import BNode, Graph, Literal, URIRef
    from rdflib.collection import Collection
    from rdflib.term import Node

    names = Names(base)
    graph = Graph()
    count = 0

    def term(obj: Obj) -> Node:
        if isinstance(obj, Iri):
            return URIRef(obj.full())
        if isinstance(obj, Lit):
            return Literal(obj.text, datatype=URIRef(obj.datatype) if obj.datatype else None)
        head = BNode()
        Collection(graph, head, [term(item) for item in obj.items])
        return head

    for s, p, o in triples(rows, names):
        graph.add((URIRef(s.full()), URIRef(p.full()), term(o)))
        count += 1 + 2 * len(o.items) if isinstance(o, RdfList) else 1
    context = names.prefixes()
    fh.write(graph.serialize(format="json-ld", context=context, indent=1))
    fh.write("\n")
    return count
