"""The project's domain schema as the `schema()` tool returns it: every class and relation in one flat
list with its description, so an agent can phrase questions and read predicates in the graph's terms."""

from __future__ import annotations

from collections.abc import Iterator

from kgbuild.mcp.records import SchemaClass, SchemaRelation, SchemaView
from kgbuild.schema import ConceptType, Schema


def schema_view(schema: Schema) -> SchemaView:
    classes = [SchemaClass(name=name, kind="entity", description=t.description, parent=t.parent,
                           aliases=list(t.aliases), properties={k: p.type for k, p in t.properties.items()})
               for name, t in schema.entity_types.items()]
    classes += [SchemaClass(name=name, kind="event", description=t.description, aliases=list(t.aliases),
                            roles={role: list(r.range) for role, r in t.roles.items()})
                for name, t in schema.event_types.items()]
    for name, concept in schema.concept_types.items():
        classes.extend(_concepts(name, concept, None))
    relations = [SchemaRelation(name=name, description=r.description, domain=list(r.domain), range=list(r.range),
                                inverse=r.inverse, aliases=list(r.aliases))
                 for name, r in schema.relation_types.items()]
    return SchemaView(name=schema.name, description=schema.description, language=schema.language,
                      fallback_class=schema.fallback_class, classes=classes, relations=relations)


def _concepts(name: str, concept: ConceptType, parent: str | None) -> Iterator[SchemaClass]:
    """A concept taxonomy top-down, each node naming its isA parent."""
    yield SchemaClass(name=name, kind="concept", description=concept.description, parent=parent,
                      aliases=list(concept.aliases))
    for child, node in concept.children.items():
        yield from _concepts(child, node, name)
