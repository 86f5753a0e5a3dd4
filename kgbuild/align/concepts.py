"""Concept linking (KAG §2.4): instances belongTo their semanticType concepts.

Every entity with a `semantic_type` is linked (`belongTo`) to a concept node of that name;
concept nodes naming the same thing ("Film directors", "film director") are merged; an
expert-made domain concept set is added as concept nodes, and entities named like one of its
concepts are linked to it too.

Provenance: a concept, or a belongTo link, that comes from entities carries those entities'
chunk_ids (the chunks where the type was stated). Concepts that only come from the domain
file or the schema carry no chunk_ids: no text of the corpus supports them, the expert does.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from kgbuild.align.semantic import BELONG_TO, semantic_relation
from kgbuild.extract.domain_concepts import DomainConcept, DomainConcepts
from kgbuild.lists import union_into
from kgbuild.model import Concept, Entity, Ref, Relation
from kgbuild.schema import Schema
from kgbuild.text import concept_key


@dataclass
class ConceptLinkResult:
    concepts: list[Concept]
    relations: list[Relation]  # belongTo links, entity -> concept
    links: int  # belongTo relations
    merged_concepts: int  # concept ids folded into another
    domain_links: int  # belongTo relations whose concept is a domain concept
    id_map: dict[str, str] = field(default_factory=dict)  # every concept id seen -> its id now


@dataclass
class _Group:
    """The spellings and evidence of one concept while linking."""

    order: int
    fixed_name: str = ""  # a domain or schema spelling: authoritative, keeps their ids stable
    spellings: Counter[str] = field(default_factory=Counter)
    first_seen: dict[str, int] = field(default_factory=dict)
    description: str = ""  # from the domain or the schema
    extracted_description: str = ""
    chunk_ids: list[str] = field(default_factory=list)
    parents: list[str] = field(default_factory=list)  # ids as seen, re-pointed at the end
    member_ids: list[str] = field(default_factory=list)
    domain: DomainConcept | None = None

    def spell(self, name: str) -> None:
        self.spellings[name] += 1
        self.first_seen.setdefault(name, len(self.first_seen))

    @property
    def name(self) -> str:
        if self.fixed_name:
            return self.fixed_name
        return max(self.spellings, key=lambda s: (self.spellings[s], -self.first_seen[s]))

    def add_member(self, concept_id: str) -> None:
        if concept_id not in self.member_ids:
            self.member_ids.append(concept_id)


class _Linker:
    def __init__(self, schema: Schema | None) -> None:
        self.schema = schema
        self.groups: list[_Group] = []
        self.by_key: dict[str, _Group] = {}

    def _new(self, fixed_name: str = "") -> _Group:
        g = _Group(order=len(self.groups), fixed_name=fixed_name)
        self.groups.append(g)
        return g

    def _schema_node(self, name: str) -> tuple[str, str] | None:
        """(node name, description) of the schema taxonomy node called `name`, if any."""
        if self.schema is None:
            return None
        paths = self.schema.find_concept(name) or self.schema.find_concept(concept_key(name))
        if not paths:
            return None
        return paths[0][-1], self.schema.concept_node(paths[0]).description

    def add_domain(self, domain: DomainConcepts) -> None:
        """All names first, then aliases: a concept's name beats another concept's alias."""
        for d in domain:
            key = concept_key(d.name)
            g = self.by_key.get(key)  # "Fracture" and "Fractures" are one concept here
            if g is None:
                g = self.by_key[key] = self._new(fixed_name=d.name)
                g.domain = d
            g.description = g.description or d.description
            g.add_member(d.id)
            union_into(g.parents, [Concept.make_id(p) for p in d.parents])
        for d in domain:
            g = self.by_key[concept_key(d.name)]
            for alias in d.aliases:
                self.by_key.setdefault(concept_key(alias), g)

    def group_for(self, name: str) -> _Group | None:
        """The group of a concept name, created when new; None for an empty name."""
        key = concept_key(name)
        if not key:
            return None
        g = self.by_key.get(key)
        if g is None:
            node = self._schema_node(name)
            if node is not None:
                g = self.by_key.get(concept_key(node[0]))
                if g is None:
                    g = self._new(fixed_name=node[0])
                    self.by_key[concept_key(node[0])] = g
                g.description = g.description or node[1]
                g.add_member(Concept.make_id(node[0]))
            else:
                g = self._new()
            self.by_key[key] = g
        g.spell(name.strip())
        g.add_member(Concept.make_id(name))
        return g

    def results(self) -> tuple[list[Concept], dict[str, str], dict[int, str]]:
        ids = {g.order: Concept.make_id(g.name) for g in self.groups}
        id_map = {m: ids[g.order] for g in self.groups for m in g.member_ids}
        concepts = []
        for g in self.groups:
            cid = ids[g.order]
            if not g.description and (node := self._schema_node(g.name)) is not None:
                g.description = node[1]
            parents: list[str] = []
            union_into(parents, (id_map.get(p, p) for p in g.parents))
            concepts.append(Concept(id=cid, name=g.name, description=g.description or g.extracted_description,
                                    parents=[p for p in parents if p != cid], chunk_ids=list(g.chunk_ids)))
        return concepts, id_map, ids


def link_concepts(entities: list[Entity], concepts: list[Concept], schema: Schema | None = None,
                  domain: DomainConcepts | None = None) -> ConceptLinkResult:
    """Concept nodes (deduplicated, described) and the belongTo links of the entities.

    Authoritative spellings win over frequency: a concept the domain or the schema names keeps
    their spelling (so its id is the one they use); otherwise the most frequent spelling wins,
    the first seen on a tie. A description from the domain or the schema beats an extracted
    one. Parent ids are re-pointed to the merged concepts (`id_map`); a parent id naming no
    known concept is kept as it is. Domain concepts come first in the output, then the rest in
    the order first seen.
    """
    linker = _Linker(schema)
    if domain is not None:
        linker.add_domain(domain)
    for c in concepts:
        g = linker.group_for(c.name)
        if g is None:
            continue
        g.add_member(c.id)
        g.extracted_description = g.extracted_description or c.description
        union_into(g.chunk_ids, c.chunk_ids)
        union_into(g.parents, c.parents)

    links: list[tuple[Entity, _Group]] = []
    for e in entities:
        targets: list[_Group] = []
        for semantic_type in e.semantic_types():  # several when a definition coordinates them
            if (g := linker.group_for(semantic_type)) is not None and g not in targets:
                union_into(g.chunk_ids, e.chunk_ids)
                targets.append(g)
        if domain is not None:
            for label in [e.name, *e.aliases]:
                g = linker.by_key.get(concept_key(label))
                if g is not None and g.domain is not None and g not in targets:
                    targets.append(g)
        links.extend((e, g) for g in targets)

    out, id_map, ids = linker.results()
    by_id = {c.id: c for c in out}
    relations: dict[str, Relation] = {}
    domain_links = 0
    for e, g in links:
        c = by_id[ids[g.order]]
        r = semantic_relation(e.ref(), BELONG_TO, Ref(kind="concept", id=c.id, name=c.name), e.chunk_ids)
        if r.id not in relations:
            relations[r.id] = r
            domain_links += g.domain is not None
    seen_ids = set(id_map)
    return ConceptLinkResult(concepts=out, relations=list(relations.values()), links=len(relations),
                             merged_concepts=len(seen_ids) - len(out), domain_links=domain_links, id_map=id_map)
