"""The domain schema: what classes, events, taxonomies and relations a graph may hold.

KAG's builder extracts against a semi-structured schema. Here it is a YAML file (format in
docs/schema.md) loaded into frozen pydantic models. Loading is two-phase so that a user
sees every mistake at once, each with its file, line and dotted path:

1. structure: YAML syntax, duplicate keys, unknown keys, value types (pydantic);
2. meaning: references to undeclared types, parent cycles, name clashes, identifiers.

`Schema(...)` built directly in code runs both phases and raises on the first problems;
`check_schema` reports them all with line numbers; `load_schema` raises the first one.

The modules, each for one job:

- `records`: the parts of a schema as frozen pydantic records (types, roles, relations,
  concept trees, document structures) and `heading_key`;
- `names`: the lookup tables from a spelling to a declared name;
- `model`: the `Schema` record and the lookups the stages ask of it;
- `checks`: the meaning checks (phase 2), each problem with its YAML path;
- `problems`: `SchemaProblem` and pydantic structure errors (phase 1) in plain words;
- `yaml_lines`: reading the YAML file with each node's line;
- `loading`: `check_schema` and `load_schema`;
- `shipped`: the schemas shipped in kgbuild/schemas/ and which file a `schema` setting names.
"""

from kgbuild.schema.loading import check_schema, load_schema
from kgbuild.schema.model import Schema
from kgbuild.schema.problems import SchemaProblem
from kgbuild.schema.records import (
    IDENTIFIER_RE,
    IMPLICIT_ROLES,
    PRIMITIVE_TYPES,
    ConceptNode,
    ConceptType,
    DocumentMatch,
    DocumentStructure,
    DocumentType,
    EntityType,
    EventType,
    Names,
    Property,
    RelationType,
    Role,
    Text,
    heading_key,
)
from kgbuild.schema.shipped import (
    builtin_schema_names,
    builtin_schema_path,
    builtin_schemas_dir,
    resolve_schema,
    schema_path,
)

__all__ = [
    "IDENTIFIER_RE",
    "IMPLICIT_ROLES",
    "PRIMITIVE_TYPES",
    "ConceptNode",
    "ConceptType",
    "DocumentMatch",
    "DocumentStructure",
    "DocumentType",
    "EntityType",
    "EventType",
    "Names",
    "Property",
    "RelationType",
    "Role",
    "Schema",
    "SchemaProblem",
    "Text",
    "builtin_schema_names",
    "builtin_schema_path",
    "builtin_schemas_dir",
    "check_schema",
    "heading_key",
    "load_schema",
    "resolve_schema",
    "schema_path",
]
