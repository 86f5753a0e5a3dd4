"""The schema as prompt text: a compact YAML block (constrained mode) or name lists (free mode).

The block's keys are the schema's own terms (entity_types, roles, domain -> range), so it
reads the same inside an English or a Chinese prompt; the instructions around it live in
the prompt files.
"""

from __future__ import annotations

import yaml

from kgbuild.schema import Schema

# Enough nodes to show a taxonomy's vocabulary without letting a big one (medicine has
# hundreds of body parts) crowd out the passage.
MAX_CONCEPT_NODES = 40


def _classes(names: list[str]) -> str:
    return "|".join(names) if names else "any"


def schema_block(schema: Schema, *, with_events: bool = True, with_relations: bool = True) -> str:
    data: dict[str, object] = {}
    entity_types: dict[str, object] = {}
    for name, et in schema.entity_types.items():
        entry: dict[str, object] = {}
        if et.description:
            entry["description"] = et.description
        if et.parent:
            entry["parent"] = et.parent
        if et.properties:
            entry["properties"] = {p: prop.type + (" (multi)" if prop.multi_value else "")
                                   for p, prop in et.properties.items()}
        entity_types[name] = entry or ""
    data["entity_types"] = entity_types
    if schema.concept_types:
        concepts: dict[str, object] = {}
        for name, ct in schema.concept_types.items():
            nodes = [p[-1] for p in schema.concept_paths() if p[0] == name and len(p) > 1]
            entry = {"description": ct.description} if ct.description else {}
            if nodes:
                entry["nodes"] = nodes[:MAX_CONCEPT_NODES] + (["..."] if len(nodes) > MAX_CONCEPT_NODES else [])
            concepts[name] = entry or ""
        data["concept_types"] = concepts
    if with_events and schema.event_types:
        events: dict[str, object] = {}
        for name, ev in schema.event_types.items():
            roles = {r: _classes(list(role.range)) + (" (required)" if role.required else "")
                     for r, role in ev.roles.items()}
            events[name] = {**({"description": ev.description} if ev.description else {}), "roles": roles}
        data["event_types"] = events
    if with_relations and schema.relation_types:
        data["relation_types"] = {
            name: f"{_classes(list(rt.domain))} -> {_classes(list(rt.range))}"
            + (f": {rt.description}" if rt.description else "")
            for name, rt in schema.relation_types.items()
        }
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=10_000, default_flow_style=None).rstrip()


def preferred_names(schema: Schema) -> dict[str, str]:
    """Values of the schema-free fragment: comma-separated class, event type and predicate names."""
    return {
        "classes": ", ".join([*schema.entity_types, *schema.concept_types]),
        "event_types": ", ".join(schema.event_types) or "-",
        "predicates": ", ".join(schema.relation_types) or "-",
    }
