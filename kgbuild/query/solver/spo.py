"""The Retrieval operator: link the mentions, match SPO triples in the graph, else read chunks.

Order of evidence, as in KAG's hybrid reasoning: the graph first (exact predicate, then the
predicates actually present that come close, then multi-hop paths between two known ends); only
when the graph has nothing does the step fall back to text retrieval around the linked entities,
and the model answers the sub-question from those chunks.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from kgbuild.llm.prompts import PromptLibrary
from kgbuild.llm.types import Gateway
from kgbuild.query.llm_ask import AnswerReply, ask_step
from kgbuild.query.solver.graph_view import GEdge, GNode, GQualifier, GraphView, normalise_predicate
from kgbuild.query.solver.logic import Constraint, NodePattern, Retrieval, VarRef, format_constraint
from kgbuild.query.solver.state import ExecState, Value
from kgbuild.query.types import Retriever, ScoredChunk, Triple

MIN_DENSE_LINK = 0.6  # a dense-only link below this is no link at all
DENSE_MARGIN = 0.05  # dense links this close to the best one are kept too


@dataclass
class Outcome:
    """What one Retrieval found, for the trace."""

    how: str = ""  # "graph", "graph:fuzzy", "graph:path", "chunks", "nothing"
    edges: list[GEdge] = field(default_factory=list)
    chunks: list[ScoredChunk] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    qualifiers: dict[str, list[GQualifier]] | None = None  # edge id -> qualifiers, once read


def node_value(n: GNode) -> Value:
    return Value(text=n.name, id=n.id, type=n.type)


class RetrievalOp:
    def __init__(self, gateway: Gateway, retriever: Retriever | None, graph: GraphView | None,
                 prompts: PromptLibrary, k: int = 5) -> None:
        self.gateway = gateway
        self.retriever = retriever
        self.graph = graph
        self.prompts = prompts
        self.k = k

    # ------------------------------------------------------------ linking

    def link(self, mention: str, type_: str | None, out: Outcome) -> list[Value]:
        """Mention -> graph nodes: the retriever's linker (exact/alias, then dense), else the graph's
        exact name match. A concept stands for its members (belongTo, through isA)."""
        nodes: list[Value] = []
        concepts: list[str] = []
        links = self.retriever.link(mention, type_, k=5) if self.retriever is not None else []
        exact = [e for e in links if e.how in ("exact", "alias", "concept")]
        chosen = exact
        if not chosen:
            dense = [e for e in links if e.score >= MIN_DENSE_LINK]
            best = max((e.score for e in dense), default=0.0)
            chosen = [e for e in dense if e.score >= best - DENSE_MARGIN]
        for e in chosen:
            if e.type == "Concept":
                concepts.append(e.id)
            else:
                nodes.append(Value(text=e.name, id=e.id, type=e.type))
        if not chosen and self.graph is not None:
            for n in self.graph.find_entities(mention, type_):
                (concepts.append(n.id) if n.kind == "Concept" else nodes.append(node_value(n)))
        if concepts and self.graph is not None:
            members = self.graph.members(concepts)
            if type_:
                members = self.graph.conforms(members, type_) or members
            out.notes.append(f"{mention!r} is a concept: {len(members)} member(s)")
            nodes.extend(node_value(m) for m in members)
        if type_ and nodes and self.graph is not None:
            typed_ids = {n.id for n in self.graph.conforms(self.graph.nodes([v.id for v in nodes if v.id]), type_)}
            typed = [v for v in nodes if v.id in typed_ids]
            if typed:
                nodes = typed
            else:
                out.notes.append(f"no {type_} named {mention!r}; kept {len(nodes)} link(s) of other types")
        return nodes

    def resolve(self, slot: NodePattern, state: ExecState, out: Outcome) -> list[Value] | None:
        """Values a slot starts from, or None when it is the unknown."""
        if slot.var in state.bindings:
            values = state.bindings[slot.var]
            if not values:
                return None
            literal = [v for v in values if not v.id]
            if literal and self.graph is not None:  # read from text earlier: find them in the graph
                found = [node_value(n) for v in literal for n in self.graph.find_entities(v.text)]
                values = [v for v in values if v.id] + (found or literal)
            return values
        if slot.mention:
            return self.link(slot.mention, slot.type, out) or []
        return None

    # ------------------------------------------------------------ the operator

    async def run(self, action: Retrieval, question: str, state: ExecState) -> Outcome:
        out = Outcome()
        s_vals = self.resolve(action.s, state, out)
        o_vals = self.resolve(action.o, state, out)
        predicate = action.p.name
        if predicate is None and action.p.var in state.bindings:
            bound = state.bindings[action.p.var]
            predicate = bound[0].text if bound else None
        edges: list[GEdge] = []
        if self.graph is not None:
            edges, out.how = self.match(s_vals, predicate, o_vals, out)
            edges = self.filter(edges, action, s_vals, o_vals, state, out)
        if edges:
            self.bind_edges(action, edges, state, out)
            out.edges = edges
            return out
        out.how = "nothing"
        await self.from_chunks(action, question, s_vals, o_vals, state, out)
        return out

    def match(self, s_vals: list[Value] | None, predicate: str | None, o_vals: list[Value] | None,
              out: Outcome) -> tuple[list[GEdge], str]:
        assert self.graph is not None
        s_ids = [v.id for v in s_vals or [] if v.id] or None
        o_ids = [v.id for v in o_vals or [] if v.id] or None
        if (s_vals is not None and not s_ids) or (o_vals is not None and not o_ids):
            return [], "nothing"  # a mention that links to nothing: the graph cannot help
        preds = [predicate] if predicate else None
        # the relation as written, then read the other way round ("directed" stored as "directedBy")
        for subjects, objects in ((s_ids, o_ids), (o_ids, s_ids)):
            found = self.graph.edges(subjects=subjects, objects=objects, predicates=preds)
            if found:
                return found, "graph"
        if predicate:
            for subjects, objects, near, direction in ((s_ids, o_ids, s_ids or o_ids, "out" if s_ids else "in"),
                                                       (o_ids, s_ids, o_ids or s_ids, "out" if o_ids else "in")):
                close = self.graph.close_predicates(predicate, self.graph.predicates_near(near, direction))  # type: ignore[arg-type]
                if close:
                    found = self.graph.edges(subjects=subjects, objects=objects, predicates=close)
                    if found:
                        out.notes.append(f"predicate {predicate!r} matched as {', '.join(close)}")
                        return found, "graph:fuzzy"
        if s_ids and o_ids:
            chains = self.graph.paths(s_ids, o_ids)
            if chains:
                out.notes.append(f"{len(chains)} path(s) of up to 3 hops")
                return [e for chain in chains[:3] for e in chain], "graph:path"
        return [], "nothing"

    def filter(self, edges: list[GEdge], action: Retrieval, s_vals: list[Value] | None,
               o_vals: list[Value] | None, state: ExecState, out: Outcome) -> list[GEdge]:
        """Types of the unknown ends, then the constraints. Reversed edges are turned round, so
        `subject` is always the s slot."""
        assert self.graph is not None
        s_ids = {v.id for v in s_vals or [] if v.id}
        o_ids = {v.id for v in o_vals or [] if v.id}
        oriented = []
        for e in edges:
            flipped = (s_ids and e.object.id in s_ids and e.subject.id not in s_ids) or \
                      (o_ids and e.subject.id in o_ids and e.object.id not in o_ids)
            if flipped and out.how != "graph:path":
                oriented.append(e.model_copy(update={"subject": e.object, "object": e.subject}))
            else:
                oriented.append(e)
        kept = oriented
        if out.how != "graph:path":
            for slot, end in ((action.s, "subject"), (action.o, "object")):
                if slot.type and slot.var not in state.bindings and not slot.mention:
                    ok = {n.id for n in self.graph.conforms([getattr(e, end) for e in kept], slot.type)}
                    typed = [e for e in kept if getattr(e, end).id in ok]
                    # An exact predicate is strong evidence; a type the graph spells differently
                    # ("Year" for a Date entity) should not throw the answer away.
                    if typed or out.how != "graph":
                        kept = typed
                    else:
                        out.notes.append(f"no {slot.type} among the {end}s; kept them for the exact predicate")
        if not action.constraints or not kept:
            return kept
        # Qualifiers of the triples ((s, p, o), in, 1939) answer constraints the triple itself
        # does not: read them once, only when a constraint asks for more than the fixed fields.
        asks_more = any(c.prop not in _OWN_FIELDS for c in action.constraints)
        qualifiers = self.graph.qualifiers(kept) if asks_more else {}
        if asks_more:
            out.qualifiers = qualifiers
        for c in action.constraints:
            used: list[GQualifier] = []
            kept = [e for e in kept if _satisfies(e, c, state, qualifiers.get(e.id, []), used)]
            if used:
                shown = ", ".join(sorted({f"({q.predicate}, {q.value.name})" for q in used}))
                out.notes.append(f"{format_constraint(c)} matched through qualifier(s) {shown}")
        return kept

    def bind_edges(self, action: Retrieval, edges: list[GEdge], state: ExecState, out: Outcome) -> None:
        assert self.graph is not None
        triples = self.triples(edges)
        state.add_triples(triples)
        # The qualifiers go with the triples into the memory: "when" is often only there,
        # ((Colossus, arrive at, Bletchley Park), in, January 1944).
        if out.qualifiers is None:
            out.qualifiers = self.graph.qualifiers(edges)
        for edge_id, quals in out.qualifiers.items():
            state.qualifiers[edge_id] = list(dict.fromkeys(f"{q.predicate} {q.value.name}" for q in quals))
        if action.s.var not in state.bindings or action.s.mention:
            state.bind(action.s.var, [node_value(e.subject) for e in edges])
        if action.o.var not in state.bindings or action.o.mention:
            state.bind(action.o.var, [node_value(e.object) for e in edges])
        if action.p.var not in state.bindings:
            state.bind(action.p.var, [Value(text=e.predicate) for e in edges])
        state.link(action.s.var, action.o.var, [(node_value(e.subject), node_value(e.object)) for e in edges])

    def triples(self, edges: list[GEdge]) -> list[Triple]:
        """Triples with their provenance: the relationship's own chunks (`chunk_ids`, exact). A
        graph written without them gets the old approximation: the chunks supporting both ends,
        else either end."""
        assert self.graph is not None
        unsourced = [e for e in edges if not e.chunk_ids]
        support = self.graph.supporting_chunks([x for e in unsourced for x in (e.subject.id, e.object.id)])
        out = []
        for e in edges:
            chunk_ids = list(dict.fromkeys(e.chunk_ids or []))
            if not chunk_ids:
                s, o = support.get(e.subject.id, []), support.get(e.object.id, [])
                chunk_ids = [c for c in s if c in set(o)] or sorted(set(s) | set(o))
            out.append(Triple(id=e.id, subject_id=e.subject.id, subject=e.subject.name, predicate=e.predicate,
                              object_id=e.object.id, object=e.object.name, chunk_ids=chunk_ids))
        return out

    # ------------------------------------------------------------ text fallback

    async def from_chunks(self, action: Retrieval, question: str, s_vals: list[Value] | None,
                          o_vals: list[Value] | None, state: ExecState, out: Outcome) -> None:
        if not question:
            subject = action.s.mention or ", ".join(v.text for v in s_vals or []) or action.s.type or "what"
            obj = action.o.mention or ", ".join(v.text for v in o_vals or []) or action.o.type or "what"
            question = f"{subject} {action.p.name or 'related to'} {obj}?"
        seeds = [v.id for v in (s_vals or []) + (o_vals or []) if v.id]
        answers = await self.read(question, seeds, state, out)
        if answers:
            target = next((slot.var for slot, vals in ((action.o, o_vals), (action.s, s_vals)) if vals is None),
                          action.p.var)
            state.bind(target, [Value(text=a) for a in answers])

    async def read(self, question: str, seeds: list[str], state: ExecState, out: Outcome) -> list[str]:
        """Hybrid chunk retrieval around `seeds`, then the model answers from the chunks ([] if not)."""
        if self.retriever is None:
            return []
        result = self.retriever.retrieve(question, self.k, seeds=seeds or None)
        out.how, out.chunks = "chunks", result.chunks
        out.notes.extend(result.notes)  # e.g. BM25 left out on a store without full text
        state.add_chunks(result.chunks)
        state.add_triples(result.triples)
        if not result.chunks:
            out.notes.append("no passages found")
            return []
        passages = [{"id": c.id, "text": c.text} for c in result.chunks]
        reply = await ask_step(self.gateway, self.prompts, "solve_answer", "solve.answer", AnswerReply,
                               unknown=AnswerReply(found=False), question=question,
                               passages=json.dumps(passages, ensure_ascii=False, indent=1))
        answers = reply.answers
        if not reply.found or not answers:
            out.notes.append("the passages do not answer it")
            return []
        known = {c.id for c in result.chunks}
        state.cited_chunks.extend(c for c in reply.chunk_ids if c in known)
        return answers


def _scalar(value: Any, state: ExecState) -> list[Value]:
    if isinstance(value, VarRef):
        return state.bindings.get(value.name, [])
    return [Value(text=str(value))]


# Constraint properties a triple or a node answers itself; anything else may be a qualifier.
_OWN_FIELDS = frozenset({"name", "predicate", "id", "type", "class", "semantic_type", "kind"})
# `p.time = 1939` also matches a qualifier written with a preposition, ((X, join, Y), in, 1939),
# when its value is a date; `p.place` one whose value is not.
_TIME_PROPS = frozenset({"time", "date", "year", "when", "period", "时间", "日期", "年份"})
_PLACE_PROPS = frozenset({"place", "location", "where", "地点"})
_PREPOSITIONS = frozenset({"in", "on", "at", "during", "since", "until", "from", "在", "于", "於"})
_PLACE_PREPOSITIONS = frozenset({"in", "at", "在", "于", "於"})
_TIME_TYPES = frozenset({"date", "time", "year", "period"})


def _temporal(node: GNode) -> bool:
    return (node.type or "").lower() in _TIME_TYPES or Value(text=node.name).number() is not None


def qualifier_fits(prop: str, q: GQualifier) -> bool:
    """Whether a qualifier answers the constraint property `prop`: the same predicate (spelling
    aside), or a time/place word against a preposition whose value has that nature."""
    want, pred = normalise_predicate(prop), normalise_predicate(q.predicate)
    if want == pred:
        return True
    if want in _TIME_PROPS:
        return (pred in _TIME_PROPS or pred in _PREPOSITIONS) and _temporal(q.value)
    if want in _PLACE_PROPS:
        return (pred in _PLACE_PROPS or pred in _PLACE_PREPOSITIONS) and not _temporal(q.value)
    return False


def _candidates(edge: GEdge, c: Constraint, qualifiers: list[GQualifier]) -> tuple[list[Value], list[GQualifier]]:
    """The values a constraint compares: the triple's own (a property of the relation or of an end
    node) and, where the triple has none, its qualifiers that fit."""
    if c.target == "p":
        own: Any = edge.predicate if c.prop in ("name", "predicate") else edge.properties.get(c.prop)
    else:
        own = (edge.subject if c.target == "s" else edge.object).field(c.prop)
    if own is not None:
        return [Value(text=str(h)) for h in (own if isinstance(own, list) else [own])], []
    fitting = [q for q in qualifiers if qualifier_fits(c.prop, q)]
    return [Value(text=q.value.name, id=q.value.id, type=q.value.type) for q in fitting], fitting


def _satisfies(edge: GEdge, c: Constraint, state: ExecState, qualifiers: list[GQualifier],
               used: list[GQualifier]) -> bool:
    haves, fitting = _candidates(edge, c, qualifiers)
    wants = _scalar(c.value, state)
    ok = any(compare(h, c.op, w) for h in haves for w in wants)
    if ok:
        used.extend(q for q in fitting if any(compare(Value(text=q.value.name, id=q.value.id), c.op, w) for w in wants))
    return ok


def compare(left: Value, op: str, right: Value) -> bool:
    """Numbers (and dates, as years) compare as numbers; everything else as case-insensitive text."""
    if op == "~":
        return right.text.strip().lower() in left.text.strip().lower()
    a, b = left.number(), right.number()
    # A bare year against a full date compares years: (X, join, Y) in 1939-09-01 is "in 1939".
    if a is not None and b is not None and _is_year(left.text) != _is_year(right.text):
        a, b = int(a), int(b)
    if a is None or b is None:
        a, b = left.text.strip().lower(), right.text.strip().lower()  # type: ignore[assignment]
    if op == "=":
        return a == b or (left.id is not None and left.id == right.id)
    if op == "!=":
        return a != b
    try:
        return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]  # type: ignore[operator]
    except TypeError:
        return False


_BARE_YEAR = re.compile(r"^\s*[-+]?\d{3,4}\s*$")


def _is_year(text: str) -> bool:
    return bool(_BARE_YEAR.match(text))
