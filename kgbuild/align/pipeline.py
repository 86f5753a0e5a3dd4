"""Knowledge alignment (KAG 2.4) over an assembled graph: fusion -> concept linking -> isA completion.

Each step is a plain function from the `align` modules; this one runs them in order, re-points
what refers to merged nodes (events, hypernodes), and measures connectivity before and after.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, Field

from kgbuild.align.concepts import link_concepts
from kgbuild.align.connectivity import ConnectivityReport, connectivity
from kgbuild.align.fusion import ApartPair, Merge, afuse_entities
from kgbuild.align.taxonomy import acomplete_isa
from kgbuild.assemble import Graph
from kgbuild.merge import MergeTable
from kgbuild.model import Event, HyperNode, Ref, Relation
from kgbuild.schema import Schema


class AlignmentReport(BaseModel):
    merges_by_step: dict[str, int] = Field(default_factory=dict)  # merge decisions (each joins two or more ids)
    entities_merged: int = 0  # entities folded into another
    relations_merged: int = 0  # duplicates after re-pointing
    belong_to_links: int = 0
    domain_links: int = 0
    concepts_merged: int = 0
    isa_completions: int = 0
    isa_by_step: dict[str, int] = Field(default_factory=dict)
    isa_cycles_refused: int = 0
    before: ConnectivityReport | None = None
    after: ConnectivityReport | None = None


@dataclass
class AlignResult:
    graph: Graph
    merges: list[Merge]
    report: AlignmentReport = field(default_factory=AlignmentReport)


def graph_edges(graph: Graph) -> list[tuple[str, str]]:
    """Undirected edges for connectivity: relations, event arguments, hypernode parts."""
    edges = [(r.subject.id, r.object.id) for r in graph.relations]
    for ev in graph.events:
        for refs in ev.arguments.values():
            edges.extend((ev.id, ref.id) for ref in refs)
        edges.extend((ev.id, ref.id) for ref in (ev.time, ev.place) if ref is not None)
    edges.extend((h.subject.id, h.object.id) for h in graph.hypernodes)
    return edges


def graph_nodes(graph: Graph) -> list[str]:
    return [*(e.id for e in graph.entities), *(ev.id for ev in graph.events), *(c.id for c in graph.concepts)]


def _measure(graph: Graph) -> ConnectivityReport:
    return connectivity(graph_nodes(graph), graph_edges(graph))


def _repoint_ref(ref: Ref | None, entities: dict[str, str], relations: dict[str, str],
                 names: dict[str, str]) -> Ref | None:
    if ref is None:
        return None
    table = relations if ref.kind == "relation" else entities if ref.kind == "entity" else None
    if table is None or ref.id not in table:
        return ref
    new_id = table[ref.id]
    return Ref(kind=ref.kind, id=new_id, name=names.get(new_id, ref.name))


def _relation_map(old: list[Relation], entity_map: dict[str, str]) -> dict[str, str]:
    """Old relation id -> id after its ends were re-pointed (how fusion re-keys relations)."""
    out = {}
    for r in old:
        s, o = entity_map.get(r.subject.id, r.subject.id), entity_map.get(r.object.id, r.object.id)
        new = Relation.make_id(s, r.predicate, o)
        if new != r.id:
            out[r.id] = new
    return out


def _repoint_events(events: list[Event], emap: dict[str, str], names: dict[str, str]) -> list[Event]:
    merged: MergeTable[Event] = MergeTable()
    for ev in events:
        args = {role: [_repoint_ref(r, emap, {}, names) for r in refs] for role, refs in ev.arguments.items()}
        new = ev.model_copy(update={
            "arguments": args,
            "time": _repoint_ref(ev.time, emap, {}, names),
            "place": _repoint_ref(ev.place, emap, {}, names),
        })
        new.id = Event.make_id(new.type, new.trigger, new.arguments)
        merged.add(new)
    return merged.values()


def _repoint_hypernodes(hypernodes: list[HyperNode], emap: dict[str, str], rmap: dict[str, str],
                        names: dict[str, str], kept_relations: set[str]) -> list[HyperNode]:
    merged: MergeTable[HyperNode] = MergeTable()
    for h in hypernodes:
        s = _repoint_ref(h.subject, emap, rmap, names)
        o = _repoint_ref(h.object, emap, rmap, names)
        assert s is not None and o is not None
        # A qualifier of a relation that fusion removed (a self-loop) goes with it.
        if any(ref.kind == "relation" and ref.id not in kept_relations for ref in (s, o)):
            continue
        merged.add(h.model_copy(update={"subject": s, "object": o, "id": HyperNode.make_id(s.id, h.predicate, o.id)}))
    return merged.values()


def _repoint_concepts(r: Relation, concept_map: dict[str, str]) -> Relation:
    ends = []
    for ref in (r.subject, r.object):
        if ref.kind == "concept" and concept_map.get(ref.id, ref.id) != ref.id:
            ref = ref.model_copy(update={"id": concept_map[ref.id]})
        ends.append(ref)
    if ends[0] is r.subject and ends[1] is r.object:
        return r
    return r.model_copy(update={"subject": ends[0], "object": ends[1],
                                "id": Relation.make_id(ends[0].id, r.predicate, ends[1].id)})


async def align_graph(graph: Graph, schema: Schema, *, domain: Any = None, judge: Any = None,
                      hypernym: Any = None, embedder: Any = None, embed_threshold: float = 0.85,
                      apart: Sequence[ApartPair] = (), settled: Collection[str] = ()) -> AlignResult:
    """`apart`: entity ids fusion must keep in different clusters (the never_merge corrections);
    `settled`: ids of records no similarity step pairs with each other (`align.cascade.Cascade`)."""
    report = AlignmentReport(before=_measure(graph))

    fused = await afuse_entities(graph.entities, graph.relations, schema, embedder=embedder, judge=judge,
                                 embed_threshold=embed_threshold, apart=apart, settled=settled)
    for m in fused.merges:
        report.merges_by_step[m.step] = report.merges_by_step.get(m.step, 0) + 1
    report.entities_merged = len(graph.entities) - len(fused.entities)
    report.relations_merged = len(graph.relations) - len(fused.relations)
    names = {e.id: e.name for e in fused.entities}
    rmap = _relation_map(graph.relations, fused.id_map)
    kept = {r.id for r in fused.relations}
    events = _repoint_events(graph.events, fused.id_map, names)
    hypernodes = _repoint_hypernodes(graph.hypernodes, fused.id_map, rmap, names, kept)

    linked = link_concepts(fused.entities, graph.concepts, schema, domain)
    report.belong_to_links = linked.links
    report.domain_links = linked.domain_links
    report.concepts_merged = linked.merged_concepts

    taxonomy = await acomplete_isa(linked.concepts, fused.entities, schema, hypernym=hypernym,
                                   belong_to=linked.relations)
    report.isa_completions = taxonomy.completions
    report.isa_by_step = dict(taxonomy.by_step)
    report.isa_cycles_refused = taxonomy.cycles_broken

    # Relations the extractor pointed at concepts must follow concept merges too.
    relations: MergeTable[Relation] = MergeTable()
    for r in fused.relations:
        relations.add(_repoint_concepts(r, linked.id_map))
    for r in (*linked.relations, *taxonomy.relations):
        if r.id not in relations:  # a derived link adds nothing to an extracted one
            relations.add(r)
    aligned = Graph(
        entities=fused.entities,
        relations=relations.values(),
        events=events,
        hypernodes=hypernodes,
        concepts=taxonomy.concepts,
        drops=graph.drops,
        retypes=graph.retypes,
        repairs=graph.repairs,
        failures=graph.failures,
    )
    report.after = _measure(aligned)
    return AlignResult(aligned, fused.merges, report)
