"""Mapping of spaCy NER labels (OntoNotes) to domain-schema classes."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Protocol


class ClassResolver(Protocol):
    """What the extractor needs of a schema (implemented by `kgbuild.schema.Schema`)."""

    @property
    def fallback_class(self) -> str: ...  # read-only: a frozen schema's field satisfies it

    def resolve_class(self, name: str) -> str | None: ...


# A value may list alternatives separated by '|': the first one the schema knows wins, so one
# default map works with richer and poorer schemas. An empty value means "not an entity".
# NORP (nationalities, religions) is not an entity: it becomes a `nationality` property.
# Numbers, amounts and ordinals are not entities either: on their own they say nothing.
DEFAULT_LABEL_MAP: Mapping[str, str] = MappingProxyType({
    "PERSON": "Person",
    "ORG": "Organization",
    "GPE": "GeographicLocation",
    "LOC": "GeographicLocation",
    "FAC": "Building|Facility|GeographicLocation",
    "DATE": "Date",
    "TIME": "Date",
    "EVENT": "Event",
    "WORK_OF_ART": "Work",
    "LAW": "Work",
    "PRODUCT": "Product|Artifact",
    "LANGUAGE": "Language|Concept",
    "NORP": "",
    "CARDINAL": "",
    "ORDINAL": "",
    "QUANTITY": "",
    "PERCENT": "",
    "MONEY": "",
})

# Labels whose spans can qualify a triple with "where" or "when".
PLACE_LABELS = frozenset({"GPE", "LOC", "FAC"})
DATE_LABELS = frozenset({"DATE", "TIME"})


def merged_label_map(overrides: Mapping[str, str] | None) -> dict[str, str]:
    """The default map updated with `overrides` (map a label to "" to stop extracting it)."""
    merged = dict(DEFAULT_LABEL_MAP)
    if overrides:
        merged.update({label.upper(): value for label, value in overrides.items()})
    return merged


def resolve_alternatives(schema: ClassResolver, value: str) -> str | None:
    """The first class of an 'A|B|C' value that the schema knows, or None."""
    for candidate in value.split("|"):
        candidate = candidate.strip()
        if candidate:
            resolved = schema.resolve_class(candidate)
            if resolved is not None:
                return resolved
    return None


def resolve_label_classes(schema: ClassResolver, label_map: Mapping[str, str]) -> dict[str, str]:
    """NER label -> schema class for every label that yields entities.

    A label whose classes the schema does not know falls back to the schema's root class,
    so entities are kept (typed loosely) rather than silently lost.
    """
    classes: dict[str, str] = {}
    for label, value in label_map.items():
        if value.strip():
            classes[label] = resolve_alternatives(schema, value) or schema.fallback_class
    return classes
