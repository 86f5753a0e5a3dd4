"""The `records:` section of kgbuild.yaml: how structured files map onto the schema.

A mapped file (CSV, TSV, JSON array or JSONL) is not read as documents to extract from: each
record becomes nodes and triples of the schema directly, pointing back to `file:line`. These are
plain settings records (validated with the rest of the config); `kgbuild.records` does the work.
"""

from __future__ import annotations

import fnmatch
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Parse = Literal["text", "number", "integer", "date", "boolean", "list"]
Separators = str | list[str]


class _Setting(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PropertyColumn(_Setting):
    column: str = Field(description="the column (or JSON key) holding the value")
    property: str | None = Field(None, description="schema property it fills; default: the column name")
    parse: Parse = Field("text", description="text, number, integer, date (ISO 8601 out), boolean, or list")
    separator: Separators = Field(
        default_factory=lambda: [";", "；"], description="list items are split on these (parse: list)")


class RelationColumn(_Setting):
    column: str = Field(description="the column naming the related record(s)")
    predicate: str = Field(description="a relation of the schema")
    target: str = Field(description="the class of the related records")
    by: Literal["name", "id"] = Field("name", description="the cell holds the target's name, or its id column value")
    separator: Separators = Field(default_factory=lambda: [",", "，", "、", ";", "；"],
                                  description="several targets in one cell are split on these")


class HierarchyColumn(_Setting):
    """A path such as `内科-内分泌科`: the record is the last part; every part becomes a concept,
    each isA the one before it, and the record belongTo the concept of its last part."""

    column: str
    separator: str = Field("-", min_length=1)
    relation: str | None = Field(
        None, description="also link the record to its parent record with this relation of the schema")


class SpoColumns(_Setting):
    """Subject-predicate-object rows; `properties` holds a JSON object of the triple's qualifiers."""

    subject: str = "S"
    predicate: str = "P"
    object: str = "O"
    properties: str | None = Field("properties", description="JSON object column; null: none")
    subject_class: str | None = Field(None, description="default: the predicate's first domain class")
    object_class: str | None = Field(None, description="default: the predicate's first range class")


class FileMapping(_Setting):
    """One mapped file pattern: either a class mapping (`class`, `name` ...) or `spo`."""

    path: str = Field(description="glob matched against the file's path under the input, or its name")
    format: Literal["csv", "tsv", "json", "jsonl"] | None = Field(None, description="default: from the extension")
    delimiter: str | None = Field(None, min_length=1, max_length=1, description="default: ',' (csv) or tab (tsv)")
    class_: str | None = Field(None, alias="class", description="the schema class of each record")
    id: str | None = Field(None, description="id column: relations `by: id` look records up by it")
    name: str | None = Field(None, description="name column; default: the hierarchy's last part, else the id")
    aliases: list[str] = Field(default_factory=list, description="alias columns")
    alias_separator: Separators = Field(default_factory=lambda: [",", "，", "、", ";", "；", "|"])
    description: str | None = Field(None, description="column copied into the node's description")
    properties: list[PropertyColumn] = Field(default_factory=list)
    relations: list[RelationColumn] = Field(default_factory=list)
    hierarchy: HierarchyColumn | None = None
    text: str | None = Field(None, description="column also read as a document, extracted like any text")
    spo: SpoColumns | None = None

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    @model_validator(mode="after")
    def _one_kind(self) -> FileMapping:
        if self.spo is not None and self.class_ is not None:
            raise ValueError("a mapping is either `class` (records) or `spo` (triples), not both")
        if self.spo is None and self.class_ is None:
            raise ValueError("set `class` (records of one schema class) or `spo` (subject-predicate-object rows)")
        if self.spo is None and not (self.name or self.id or self.hierarchy):
            raise ValueError("set `name`, `id` or `hierarchy`: the column that names each record")
        return self

    def matches(self, source: str) -> bool:
        """Whether this mapping is for the file at `source` ('/'-separated, relative to the input)."""
        name = source.rsplit("/", 1)[-1]
        return fnmatch.fnmatchcase(source, self.path) or fnmatch.fnmatchcase(name, self.path)

    def columns(self) -> list[str]:
        """Every column the mapping needs (each must be in the file's header); an SPO file's
        properties column is optional (`S,P,O[,properties]`)."""
        if self.spo is not None:
            s = self.spo
            return [s.subject, s.predicate, s.object]
        cols = [self.id, self.name, self.description, self.text, *self.aliases,
                *(p.column for p in self.properties), *(r.column for r in self.relations),
                self.hierarchy.column if self.hierarchy else None]
        return list(dict.fromkeys(c for c in cols if c))


class RecordsConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    files: list[FileMapping] = Field(default_factory=list, description="mapped files, first match wins")
    missing_targets: Literal["stub", "drop"] = Field(
        "stub", description="a relation to a record no mapped file holds: keep a named stub node, or drop it")

    def mapping_for(self, source: str) -> tuple[int, FileMapping] | None:
        for index, mapping in enumerate(self.files):
            if mapping.matches(source):
                return index, mapping
        return None


# The `records:` section `kgbuild init --schema NAME` writes for a shipped schema whose example data
# has structured files (KAG's medicine example: data/medicine/*.csv).
_SHIPPED: dict[str, str] = {
    "medicine": """\
# Structured files mapped onto the schema, no model (docs/structured.md). Each record is a source
# cited as file:line; names meet the text-extracted entities in fusion.
records:
  missing_targets: stub  # a relation to a record no mapped file holds: stub (a named node) | drop
  files:
    - path: Disease.csv          # idx,title,text,alias
      class: Disease
      id: idx
      name: title
      aliases: [alias]
      text: text                 # also read as a document and extracted like any text
    - path: HospitalDepartment.csv   # 内科-内分泌科: belongTo the last part, each part isA the one before,
      class: HospitalDepartment      # and the record subDepartmentOf its parent's record
      hierarchy: {column: id, separator: "-", relation: subDepartmentOf}
    - path: HumanBodyPart.csv
      class: HumanBodyPart
      hierarchy: {column: id, separator: "-", relation: partOfBodyPart}
    - path: SPO.csv              # S,P,O,properties (a JSON object); predicates checked against the schema
      spo: {subject: S, predicate: P, object: O, properties: properties}
""",
}


def records_template(schema: str) -> str:
    """The commented `records:` section of the init template for `schema` ('' when it has none)."""
    return _SHIPPED.get(schema, "")
