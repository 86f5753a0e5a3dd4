from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest
from pydantic import ValidationError

from kgbuild.errors import SchemaError
from kgbuild.schema import (
    Schema,
    SchemaProblem,
    builtin_schema_names,
    builtin_schema_path,
    check_schema,
    load_schema,
    resolve_schema,
    schema_path,
)

BASE = """\
name: test
version: 1
fallback_class: Thing
entity_types:
  Thing:
    description: Anything.
  Person:
    parent: Thing
    aliases: [Human]
    properties:
      birthDate: date
      employer: {type: Organization, multi_value: true}
  Organization: {parent: Thing}
  Company: {parent: Organization}
  GeographicLocation: {parent: Thing}
  City: {parent: GeographicLocation}
event_types:
  Founding:
    aliases: [Establishment]
    roles:
      founder: [Person, Organization]
      organization: {range: [Organization], required: true}
concept_types:
  Occupation:
    children:
      Scientist:
        children: [Physicist, Mathematician]
      Artist: {}
relation_types:
  bornIn: {domain: [Person], range: [GeographicLocation], inverse: birthPlaceOf, aliases: [placeOfBirth]}
  spouse: {domain: [Person], range: [Person], inverse: spouse}
  partOf: {description: Any part of any whole.}
"""


def write(tmp_path: Path, text: str, name: str = "schema.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def line_of(text: str, needle: str) -> int:
    for number, line in enumerate(textwrap.dedent(text).splitlines(), start=1):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in text")


def one_problem(problems: list[SchemaProblem], path: str) -> SchemaProblem:
    found = [p for p in problems if p.path == path]
    assert found, f"no problem at {path!r}; got: {[p.line_text() for p in problems]}"
    return found[0]


@pytest.fixture
def schema(tmp_path: Path) -> Schema:
    return load_schema(write(tmp_path, BASE))


# ---------------------------------------------------------------- shipped schemas


@pytest.mark.parametrize("name", ["open_domain", "medicine", "government_services"])
def test_shipped_schemas_are_clean(name: str) -> None:
    path = builtin_schema_path(name)
    assert check_schema(path) == []
    loaded = load_schema(path)
    assert loaded.name == name
    assert loaded.source == str(path)
    assert loaded.fallback_class in loaded.entity_types


def test_builtin_names_and_unknown_name() -> None:
    assert {"open_domain", "medicine"} <= set(builtin_schema_names())
    with pytest.raises(SchemaError) as info:
        builtin_schema_path("nope")
    assert info.value.where == "schema"
    assert "open_domain" in info.value.hint


def test_schema_path_and_resolve_schema(tmp_path: Path) -> None:
    assert schema_path("medicine") == builtin_schema_path("medicine")
    assert schema_path("my.yaml", tmp_path) == tmp_path / "my.yaml"
    assert schema_path("sub/my", tmp_path) == tmp_path / "sub/my"
    path = write(tmp_path, BASE)
    assert resolve_schema(str(path)).name == "test"
    assert resolve_schema("open_domain").name == "open_domain"


def test_open_domain_has_kag_classes() -> None:
    s = load_schema(builtin_schema_path("open_domain"))
    for cls in ["Person", "Organization", "GeographicLocation", "Date", "Work", "Event", "Creature", "Concept"]:
        assert cls in s.entity_types
    assert s.resolve_class("Works") == "Work"  # KAG's spelling
    assert s.resolve_class("Others") == "Thing"
    assert s.is_a("City", "GeographicLocation")
    assert s.relation_allows("bornIn", "Person", "City")
    assert not s.relation_allows("bornIn", "City", "Person")


def test_medicine_matches_the_data() -> None:
    s = load_schema(builtin_schema_path("medicine"))
    assert s.resolve_relation("has_symptom") == "hasSymptom"
    assert s.resolve_relation("possible_disease") == "possibleDisease"  # the inverse rows of SPO.csv
    assert s.relation_allows("possible_disease", "Symptom", "Disease")
    assert s.resolve_class("疾病") == "Disease"
    assert s.find_concept("内分泌科") == [["HospitalDepartment", "Internal medicine", "Endocrinology"]]
    # 消化系统-消化道-咽 and 呼吸系统-呼吸道-咽: one node under two parents
    assert len(s.find_concept("咽")) == 2
    assert s.relation_allows("belongsToDepartment", "Disease", "HospitalDepartment")


# ---------------------------------------------------------------- queries


def test_resolve_class_ignores_case_spacing_and_plurals(schema: Schema) -> None:
    assert schema.resolve_class("geographic location") == "GeographicLocation"
    assert schema.resolve_class("Geographic_Location") == "GeographicLocation"
    assert schema.resolve_class("PERSON") == "Person"
    assert schema.resolve_class("human") == "Person"  # alias
    assert schema.resolve_class("Companies") == "Company"
    assert schema.resolve_class("cities") == "City"
    assert schema.resolve_class("occupation") == "Occupation"  # concept types are classes too
    assert schema.resolve_class("Spaceship") is None
    assert schema.resolve_class("") is None
    assert schema.resolve_class("Founding") is None  # an event type, not a class


def test_ancestors_and_is_a(schema: Schema) -> None:
    assert schema.ancestors("City") == ["GeographicLocation", "Thing"]
    assert schema.ancestors("Thing") == []
    assert schema.ancestors("Unknown") == []
    assert schema.is_a("Company", "Thing")
    assert schema.is_a("Company", "Company")
    assert not schema.is_a("Organization", "Company")


def test_relation_allows(schema: Schema) -> None:
    assert schema.relation_allows("bornIn", "Person", "City")  # range by inheritance
    assert schema.relation_allows("born_in", "person", "city")  # spellings resolved
    assert schema.relation_allows("placeOfBirth", "Person", "City")  # alias
    assert not schema.relation_allows("bornIn", "Organization", "City")
    assert not schema.relation_allows("bornIn", "Person", "Person")
    assert schema.relation_allows("birthPlaceOf", "City", "Person")  # inverse swaps domain/range
    assert not schema.relation_allows("birthPlaceOf", "Person", "City")
    assert schema.relation_allows("spouse", "Person", "Person")
    assert schema.relation_allows("partOf", "City", "Founding")  # no domain/range: anything
    assert schema.relation_allows("likes", "City", "Person")  # undeclared: allowed
    assert schema.relation_allows("employer", "Person", "Company")  # object property
    assert not schema.relation_allows("employer", "City", "Company")


def test_buildings_have_makers_and_products_win_awards() -> None:
    schema = resolve_schema("open_domain")
    # "The stadium was designed by A and built by B", "its air purifier won a design award": both were
    # dropped as domain violations, so the building or product stayed an entity no relation touched.
    assert schema.relation_allows("createdBy", "Building", "Company")
    assert schema.relation_allows("createdBy", "Building", "Person")
    assert schema.relation_allows("awardReceived", "ArtificialObject", "Award")
    assert schema.relation_allows("awardReceived", "Transport", "Award")
    assert not schema.relation_allows("createdBy", "City", "Person")
    assert not schema.relation_allows("awardReceived", "City", "Award")


def test_resolve_relation_and_events(schema: Schema) -> None:
    assert schema.resolve_relation("Born In") == "bornIn"
    assert schema.resolve_relation("birth_place_of") == "birthPlaceOf"
    assert schema.resolve_relation("employer") == "employer"
    assert schema.resolve_relation("likes") is None
    assert schema.resolve_event_type("establishment") == "Founding"
    assert schema.resolve_event_type("Birth") is None
    assert schema.resolve_role("Founding", "Founder") == "founder"
    assert schema.resolve_role("Founding", "time") is None


def test_properties_are_inherited(tmp_path: Path) -> None:
    s = load_schema(write(tmp_path, BASE.replace("  Company: {parent: Organization}",
                                                 "  Company: {parent: Organization, properties: {ticker: text}}")
                          .replace("  Organization: {parent: Thing}",
                                   "  Organization: {parent: Thing, properties: {website: url}}")))
    assert set(s.properties_of("Company")) == {"ticker", "website"}
    assert s.resolve_property("Company", "Web_Site") == "website"
    assert s.resolve_property("Person", "website") is None


def test_concept_paths(schema: Schema) -> None:
    assert schema.concept_paths() == [
        ["Occupation"],
        ["Occupation", "Scientist"],
        ["Occupation", "Scientist", "Physicist"],
        ["Occupation", "Scientist", "Mathematician"],
        ["Occupation", "Artist"],
    ]
    assert schema.find_concept("physicist") == [["Occupation", "Scientist", "Physicist"]]
    assert schema.concept_node(["Occupation", "Scientist"]).children.keys() == {"Physicist", "Mathematician"}


def test_fingerprint_stable_and_content_based(tmp_path: Path) -> None:
    a = load_schema(write(tmp_path, BASE))
    other_dir = tmp_path / "elsewhere"
    other_dir.mkdir()
    shutil.copy(tmp_path / "schema.yaml", other_dir / "moved.yaml")
    b = load_schema(other_dir / "moved.yaml")
    assert a.fingerprint() == b.fingerprint()  # the path is not content
    assert len(a.fingerprint()) == 32
    # reordering keys is not a change either
    reordered = BASE.replace("name: test\nversion: 1\n", "version: 1\nname: test\n")
    assert load_schema(write(tmp_path, reordered, "r.yaml")).fingerprint() == a.fingerprint()
    edited = BASE.replace("description: Anything.", "description: Anything at all.")
    assert load_schema(write(tmp_path, edited, "e.yaml")).fingerprint() != a.fingerprint()


def test_yaml_scalars_stay_text(tmp_path: Path) -> None:
    # YAML 1.1 would read `no` as false and 2020-01-01 as a date
    text = BASE + "  no: {description: 2020-01-01}\n"
    s = load_schema(write(tmp_path, text))
    assert s.relation_types["no"].description == "2020-01-01"


def test_direct_construction_checks_meaning() -> None:
    with pytest.raises(ValidationError, match="unknown type 'Persn'"):
        Schema(name="x", fallback_class="Thing", entity_types={"Thing": {}, "A": {"parent": "Persn"}})


# ---------------------------------------------------------------- problems


def test_problem_line_text_and_error() -> None:
    p = SchemaProblem("schemas/x.yaml", 12, "entity_types.Person.parent", "unknown type 'Persn'",
                      "did you mean 'Person'?")
    assert p.line_text() == (
        "schemas/x.yaml:12: entity_types.Person.parent: unknown type 'Persn' (did you mean 'Person'?)")
    err = p.to_error()
    assert isinstance(err, SchemaError)
    assert err.where == "schemas/x.yaml:12: entity_types.Person.parent"
    assert SchemaProblem("x.yaml", None, "", "empty schema").line_text() == "x.yaml: empty schema"


def test_yaml_syntax_error(tmp_path: Path) -> None:
    text = "name: x\nentity_types:\n  Person: {description: [a\n  Thing: {}\n"
    (p,) = check_schema(write(tmp_path, text))
    assert p.line is not None and p.line >= 3
    assert "YAML syntax error, column" in p.message
    assert p.file == str(tmp_path / "schema.yaml")


def test_missing_file(tmp_path: Path) -> None:
    (p,) = check_schema(tmp_path / "missing.yaml")
    assert "not found" in p.message


@pytest.mark.parametrize("text", ["", "# only a comment\n", "{}\n"])
def test_empty_schema(tmp_path: Path, text: str) -> None:
    (p,) = check_schema(write(tmp_path, text))
    assert p.message == "empty schema"


def test_top_level_not_a_mapping(tmp_path: Path) -> None:
    (p,) = check_schema(write(tmp_path, "- Person\n- Thing\n"))
    assert "top level must be a mapping" in p.message
    assert p.line == 1


def test_unknown_keys_suggest(tmp_path: Path) -> None:
    text = BASE.replace("fallback_class: Thing", "fallback_class: Thing\nentitytypes: {}") \
               .replace("birthDate: date", "birthDate: {tpye: date}")
    problems = check_schema(write(tmp_path, text))
    top = one_problem(problems, "entitytypes")
    assert top.line == line_of(text, "entitytypes")
    assert top.message == "unknown key 'entitytypes'"
    assert top.hint == "did you mean 'entity_types'?"
    prop = one_problem(problems, "entity_types.Person.properties.birthDate.tpye")
    assert prop.line == line_of(text, "tpye")
    assert prop.hint == "did you mean 'type'?"
    missing = one_problem(problems, "entity_types.Person.properties.birthDate.type")
    assert "required key 'type' is missing" in missing.message


def test_unknown_key_without_close_match_lists_allowed(tmp_path: Path) -> None:
    text = BASE.replace("  Thing:\n    description: Anything.", "  Thing:\n    colour: red")
    p = one_problem(check_schema(write(tmp_path, text)), "entity_types.Thing.colour")
    assert "allowed keys: description, parent, aliases, properties" in p.hint


def test_comma_in_inline_mapping_gets_a_hint(tmp_path: Path) -> None:
    text = BASE.replace("birthDate: date", "birthDate: {type: date, description: Day, month and year.}")
    p = one_problem(check_schema(write(tmp_path, text)), "entity_types.Person.properties.birthDate.month and year.")
    assert "quotes" in p.hint


def test_wrong_value_types(tmp_path: Path) -> None:
    text = BASE.replace("multi_value: true", "multi_value: maybe") \
               .replace("description: Anything.", "description: [Anything]") \
               .replace("version: 1", "version: [1]")
    problems = check_schema(write(tmp_path, text))
    mv = one_problem(problems, "entity_types.Person.properties.employer.multi_value")
    assert mv.message == "expected true or false, got the text 'maybe'"
    assert mv.line == line_of(text, "multi_value: maybe")
    desc = one_problem(problems, "entity_types.Thing.description")
    assert desc.message == "expected text, got a list"
    version = one_problem(problems, "version")
    assert "version must be a number or a text" in version.message


def test_section_of_wrong_type(tmp_path: Path) -> None:
    text = "name: x\nfallback_class: Thing\nentity_types: [Thing, Person]\n"
    (p,) = check_schema(write(tmp_path, text))
    assert p.path == "entity_types"
    assert p.message == "expected a mapping, got a list"
    assert p.line == 3


def test_missing_required_top_level_key(tmp_path: Path) -> None:
    text = "name: x\nentity_types:\n  Thing: {}\n"
    (p,) = check_schema(write(tmp_path, text))
    assert p.path == "fallback_class"
    assert "required key 'fallback_class' is missing" in p.message


def test_unknown_parent_with_suggestion(tmp_path: Path) -> None:
    text = BASE.replace("  Company: {parent: Organization}", "  Company: {parent: Organisation}")
    (p,) = check_schema(write(tmp_path, text))
    assert p.path == "entity_types.Company.parent"
    assert p.line == line_of(text, "Company:")
    assert p.message == "unknown type 'Organisation'"
    assert p.hint == "did you mean 'Organization'?"
    assert p.line_text().endswith(
        "entity_types.Company.parent: unknown type 'Organisation' (did you mean 'Organization'?)")


def test_parent_must_be_entity_type(tmp_path: Path) -> None:
    text = BASE.replace("  Company: {parent: Organization}", "  Company: {parent: Occupation}")
    (p,) = check_schema(write(tmp_path, text))
    assert "is not an entity type" in p.message


def test_unknown_references_everywhere(tmp_path: Path) -> None:
    text = (BASE.replace("birthDate: date", "birthDate: Dat")
            .replace("founder: [Person, Organization]", "founder: [Persn, Organization]")
            .replace("range: [GeographicLocation], inverse", "range: [GeographicLocaton], inverse")
            .replace("spouse: {domain: [Person]", "spouse: {domain: [Spaceship]"))
    problems = check_schema(write(tmp_path, text))
    assert len(problems) == 4
    prop = one_problem(problems, "entity_types.Person.properties.birthDate.type")
    assert prop.hint == "did you mean 'date'?"
    assert prop.line == line_of(text, "birthDate: Dat")
    role = one_problem(problems, "event_types.Founding.roles.founder.range[0]")
    assert role.hint == "did you mean 'Person'?"
    assert role.line == line_of(text, "founder:")
    rng = one_problem(problems, "relation_types.bornIn.range[0]")
    assert rng.hint == "did you mean 'GeographicLocation'?"
    dom = one_problem(problems, "relation_types.spouse.domain[0]")
    assert dom.message == "unknown type 'Spaceship'"
    assert dom.hint.startswith("declare it under entity_types, event_types or concept_types, or use one of: Thing")


def test_fallback_class_must_exist(tmp_path: Path) -> None:
    text = BASE.replace("fallback_class: Thing", "fallback_class: thing")
    (p,) = check_schema(write(tmp_path, text))
    assert p.path == "fallback_class"
    assert p.line == 3
    assert p.hint == "did you mean 'Thing'?"


def test_parent_cycle(tmp_path: Path) -> None:
    text = BASE.replace("  Thing:\n    description: Anything.", "  Thing:\n    parent: City")
    (p,) = check_schema(write(tmp_path, text))
    assert p.message == "parent chain loops: Thing -> City -> GeographicLocation -> Thing"
    assert p.path == "entity_types.Thing.parent"
    assert p.line == line_of(text, "parent: City")


def test_self_parent_is_a_cycle(tmp_path: Path) -> None:
    text = BASE.replace("  City: {parent: GeographicLocation}", "  City: {parent: City}")
    (p,) = check_schema(write(tmp_path, text))
    assert p.message == "parent chain loops: City -> City"


def test_duplicate_names_across_kinds(tmp_path: Path) -> None:
    text = BASE.replace("  Occupation:\n", "  Person:\n    description: clash\n  Occupation:\n") \
               .replace("  Company: {parent: Organization}",
                        "  Company: {parent: Organization, aliases: [Firm, occupation]}")
    problems = check_schema(write(tmp_path, text))
    assert len(problems) == 2
    clash = one_problem(problems, "concept_types.Person")
    assert clash.message == "'Person' clashes with entity type 'Person'"
    assert clash.line == line_of(text, "description: clash") - 1
    # Classes share one lookup table. The mistake is Company's alias, declared before the concept type:
    # the problem points at the alias's line and names the alias's owner first.
    alias = one_problem(problems, "entity_types.Company.aliases[1]")
    assert alias.message == "alias 'occupation' of entity type 'Company' clashes with concept type 'Occupation'"
    assert alias.line == line_of(text, "aliases: [Firm, occupation]")


def test_event_aliases_may_repeat_class_names(tmp_path: Path) -> None:
    # resolve_event_type and resolve_class use separate tables: no ambiguity
    text = BASE.replace("aliases: [Establishment]", "aliases: [Establishment, company]")
    assert check_schema(write(tmp_path, text)) == []
    text = BASE.replace("concept_types:", "  Opening: {aliases: [establishment]}\nconcept_types:")
    (p,) = check_schema(write(tmp_path, text))
    assert p.path == "event_types.Opening.aliases[0]"
    assert p.message == "alias 'establishment' of event type 'Opening' clashes with event type 'Founding'"


def test_duplicate_yaml_keys(tmp_path: Path) -> None:
    text = BASE.replace("  City: {parent: GeographicLocation}",
                        "  City: {parent: GeographicLocation}\n  City: {parent: Thing}")
    (p,) = check_schema(write(tmp_path, text))
    assert p.path == "entity_types.City"
    assert p.message == "duplicate key 'City'"
    assert p.line == line_of(text, "City: {parent: Thing}")
    assert f"line {line_of(text, 'City: {parent: GeographicLocation}')}" in p.hint


def test_invalid_identifiers(tmp_path: Path) -> None:
    text = BASE.replace("  Company: {parent: Organization}", "  2Company: {parent: Organization}") \
               .replace("birthDate: date", "birth date: date") \
               .replace("name: test", "name: my-schema")
    problems = check_schema(write(tmp_path, text))
    assert (one_problem(problems, "entity_types.2Company").message
            == "entity type name '2Company' is not a valid identifier")
    assert "not a valid identifier" in one_problem(problems, "entity_types.Person.properties.birth date").message
    assert one_problem(problems, "name").line == 1


def test_primitive_names_and_implicit_roles(tmp_path: Path) -> None:
    text = BASE.replace("  Company: {parent: Organization}", "  text: {parent: Thing}") \
               .replace("founder: [Person, Organization]", "time: [Person]")
    problems = check_schema(write(tmp_path, text))
    assert "built-in value type" in one_problem(problems, "entity_types.text").message
    assert "implicit" in one_problem(problems, "event_types.Founding.roles.time").message


def test_inverse_must_point_back(tmp_path: Path) -> None:
    text = BASE + "  birthPlaceOf: {inverse: partOf}\n"
    (p,) = check_schema(write(tmp_path, text))
    assert p.path == "relation_types.bornIn.inverse"
    assert "declares inverse 'partOf'" in p.message


def test_source_key_is_not_accepted(tmp_path: Path) -> None:
    (p,) = check_schema(write(tmp_path, BASE + "source: elsewhere.yaml\n"))
    assert p.path == "source"
    assert "set by the loader" in p.hint


def test_all_problems_reported_and_load_raises_first(tmp_path: Path) -> None:
    text = (BASE.replace("fallback_class: Thing", "fallback_class: Thingy")
            .replace("  Company: {parent: Organization}", "  Company: {parent: Organisation, colour: red}"))
    path = write(tmp_path, text)
    problems = check_schema(path)
    assert [p.path for p in problems] == ["entity_types.Company.colour", "fallback_class"]
    with pytest.raises(SchemaError) as info:
        load_schema(path)
    assert info.value.where == f"{path}:{line_of(text, 'Company:')}: entity_types.Company.colour"
    assert "1 more problem(s)" in info.value.hint
    assert info.value.problems == problems  # type: ignore[attr-defined]


def test_broken_entries_do_not_cause_follow_up_errors(tmp_path: Path) -> None:
    # Organization is structurally broken; references to it must not be reported again
    text = BASE.replace("  Organization: {parent: Thing}", "  Organization: {parent: Thing, colour: red}")
    problems = check_schema(write(tmp_path, text))
    assert [p.path for p in problems] == ["entity_types.Organization.colour"]


def test_shorthands(tmp_path: Path) -> None:
    text = BASE + "  livesIn: {domain: Person, range: City}\n"
    s = load_schema(write(tmp_path, text))
    assert s.relation_types["livesIn"].domain == ["Person"]
    assert s.entity_types["Person"].properties["birthDate"].type == "date"
    assert s.event_types["Founding"].roles["founder"].range == ["Person", "Organization"]
    assert s.concept_types["Occupation"].children["Artist"].children == {}


def test_null_entries_are_empty(tmp_path: Path) -> None:
    text = ("name: x\nfallback_class: Thing\nentity_types:\n  Thing:\n"
            "concept_types:\n  Field:\n    children:\n      Physics:\n")
    s = load_schema(write(tmp_path, text))
    assert s.concept_paths() == [["Field"], ["Field", "Physics"]]


def test_duplicate_child_in_list_shorthand(tmp_path: Path) -> None:
    text = BASE.replace("children: [Physicist, Mathematician]", "children: [Physicist, Physicist]")
    (p,) = check_schema(write(tmp_path, text))
    assert p.path == "concept_types.Occupation.children.Scientist.children"
    assert "listed twice" in p.message


def test_unreadable_section_does_not_cause_follow_up_errors(tmp_path: Path) -> None:
    text = BASE.replace("event_types:\n  Founding:", "event_types: oops\nunused:\n  Founding:") \
        + "  happenedIn: {domain: [Founding], range: [City]}\n"
    problems = check_schema(write(tmp_path, text))
    assert [p.path for p in problems] == ["event_types", "unused"]  # in file order


def test_concepts_by_id(schema: Schema) -> None:
    from kgbuild.model import Concept

    ids = schema.concepts_by_id()
    assert ids[Concept.make_id("Physicist")] == ["Occupation", "Scientist", "Physicist"]
    assert ids[Concept.make_id("Occupation")] == ["Occupation"]
    assert len(ids) == 5
