"""The schema's parts as frozen pydantic records: properties, document structures, entity,
event, concept and relation types, and the shorthands a YAML file may use for them.

The `Schema` record that holds them all is in kgbuild.schema.model.
"""

from __future__ import annotations

import fnmatch
import re
import unicodedata
from typing import Annotated, Any, NamedTuple

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, field_validator, model_validator

PRIMITIVE_TYPES = ("text", "integer", "float", "boolean", "date", "url")
IMPLICIT_ROLES = ("time", "place")  # every event has them (Event.time / Event.place)
IDENTIFIER_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")


# ---------------------------------------------------------------- models


def _none_to_empty_str(value: Any) -> Any:
    return "" if value is None else value


def _to_list(value: Any) -> Any:
    """`range: Person` is shorthand for `range: [Person]`; an empty value is no list."""
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    return value


def _none_values_to_dicts(value: Any) -> Any:
    """`Mathematician:` with nothing after it means an entry with no keys, like `{}`."""
    if value is None:
        return {}
    if isinstance(value, dict):
        return {k: ({} if v is None else v) for k, v in value.items()}
    return value


Text = Annotated[str, BeforeValidator(_none_to_empty_str)]
Names = Annotated[list[str], BeforeValidator(_to_list)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Property(_Model):
    """An attribute of an entity type; a type name as `type` makes it an object property."""

    type: str
    description: Text = ""
    multi_value: bool = False

    @model_validator(mode="before")
    @classmethod
    def _shorthand(cls, value: Any) -> Any:
        return {"type": value} if isinstance(value, str) else value  # `birthDate: date`


# Leading numbering of a heading ("3.", "2.1 ", "(2)", "一、", "③") and a trailing colon are
# presentation, not part of its meaning: "3. Required materials:" is "Required materials".
# Applied after NFKC, so full-width forms are already ASCII; a number needs a delimiter
# after it so that "2019 report" keeps its year.
_CIRCLED_NUMBER = re.compile(r"^\s*[\u2460-\u2473]")
_HEADING_NUMBER = re.compile(
    r"^(?:[0-9]{1,3}(?:\.[0-9]{1,3})*(?:[.)、](?![0-9])\s*|\s+)|\([0-9一二三四五六七八九十]{1,3}\)\s*"
    r"|[一二三四五六七八九十]{1,3}[、.]\s*)"
)


def heading_key(heading: str) -> str:
    """A section heading as document_structure compares it: NFKC, no numbering, one space."""
    text = unicodedata.normalize("NFKC", _CIRCLED_NUMBER.sub("", heading))
    text = _HEADING_NUMBER.sub("", re.sub(r"\s+", " ", text).strip())
    return text.rstrip(" :").strip()


class DocumentMatch(_Model):
    """Which documents are of a type; when both keys are given both must hold."""

    title: str | None = None  # a regex searched in the document title
    source: str | None = None  # a glob on the document's source path ('*' also crosses '/')


class DocumentStructure(_Model):
    """Documents of a fixed layout (service guides, product sheets) whose sections are
    property values: KAG fills these from the structure without asking a model."""

    match: DocumentMatch
    sections: dict[str, str] = Field(default_factory=dict)  # heading (exact or regex) -> property

    def matches(self, title: str, source: str) -> bool:
        m = self.match
        if m.title is None and m.source is None:
            return False
        if m.title is not None and not re.search(m.title, title):
            return False
        return m.source is None or fnmatch.fnmatchcase(source, m.source)

    def property_for(self, heading: str) -> str | None:
        """The property a heading fills: an exact match (ignoring case) first, then the
        first key that matches the whole heading as a case-insensitive regex."""
        key = heading_key(heading).casefold()
        if not key:
            return None
        for pattern, prop in self.sections.items():
            if heading_key(pattern).casefold() == key:
                return prop
        for pattern, prop in self.sections.items():
            try:
                if re.fullmatch(pattern, heading_key(heading), re.IGNORECASE):
                    return prop
            except re.error:  # only a schema built without validation can hold one
                continue
        return None


class EntityType(_Model):
    description: Text = ""
    parent: str | None = None
    aliases: Names = Field(default_factory=list)
    properties: dict[str, Property] = Field(default_factory=dict)
    document_structure: DocumentStructure | None = None

    _fill = field_validator("properties", mode="before")(_none_values_to_dicts)


class DocumentType(NamedTuple):
    cls: str  # the entity type a matching document becomes
    structure: DocumentStructure


class Role(_Model):
    """An argument slot of an event type; an empty range accepts any node."""

    range: Names = Field(default_factory=list)
    required: bool = False
    description: Text = ""

    @model_validator(mode="before")
    @classmethod
    def _shorthand(cls, value: Any) -> Any:
        return {"range": value} if isinstance(value, (str, list)) else value  # `founder: [Person]`


class EventType(_Model):
    description: Text = ""
    aliases: Names = Field(default_factory=list)
    roles: dict[str, Role] = Field(default_factory=dict)

    _fill = field_validator("roles", mode="before")(_none_values_to_dicts)


class ConceptType(_Model):
    """A concept taxonomy (and, recursively, each of its nodes): children are isA-below it."""

    description: Text = ""
    aliases: Names = Field(default_factory=list)
    children: dict[str, ConceptType] = Field(default_factory=dict)

    @field_validator("children", mode="before")
    @classmethod
    def _children(cls, value: Any) -> Any:
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            if len(set(value)) != len(value):
                dup = next(v for v in value if value.count(v) > 1)
                raise ValueError(f"child '{dup}' is listed twice")
            return {v: {} for v in value}  # `children: [Physicist, Chemist]`
        return _none_values_to_dicts(value)


ConceptNode = ConceptType


class RelationType(_Model):
    """A predicate between nodes; empty domain/range accept any node."""

    domain: Names = Field(default_factory=list)
    range: Names = Field(default_factory=list)
    description: Text = ""
    inverse: str | None = None  # the same name as the relation itself means symmetric
    aliases: Names = Field(default_factory=list)
