"""Values that only a hypernode names are literals on it, not entities (kgbuild/graph/literals.py)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from kgbuild.assemble import Graph
from kgbuild.graph.literals import date_classes, is_quantity, literalize
from kgbuild.model import Entity, Event, HyperNode, Ref, Relation

DATES = date_classes()


def _ent(name: str, cls: str) -> Entity:
    return Entity(id=Entity.make_id(name, cls), name=name, spg_class=cls, chunk_ids=["d#0#0"])


def _rel(s: Entity, p: str, o: Entity) -> Relation:
    return Relation(id=Relation.make_id(s.id, p, o.id), subject=s.ref(), predicate=p, object=o.ref(),
                    chunk_ids=["d#0#0"])


def _hyp(r: Relation, p: str, v: Entity) -> HyperNode:
    return HyperNode(id=HyperNode.make_id(r.id, p, v.id), subject=r.ref(), predicate=p, object=v.ref(),
                     chunk_ids=["d#0#0"])


@pytest.mark.parametrize("name", ["3,549亿元", "18.42%", "-5.3%", "1.2万吨", "716", "2023年1-9月", "1946",
                                  "$5 million", "３０％", "四十二万吨", "100 km"])
def test_quantities_in_any_script(name: str) -> None:
    assert is_quantity(name)


@pytest.mark.parametrize("name", ["3M", "7-Eleven", "F-16", "三一重工", "第三届", "University of Cambridge",
                                  "2 Broke Girls", ""])
def test_names_with_digits_are_not_quantities(name: str) -> None:
    assert not is_quantity(name)


def test_only_a_qualified_value_becomes_a_literal() -> None:
    bogart, warner, cambridge = _ent("Humphrey Bogart", "Person"), _ent("Warner Bros.", "Organization"), \
        _ent("University of Cambridge", "Organization")
    y1936, y1941, y1946, share = _ent("1936", "Date"), _ent("1941", "Date"), _ent("1946", "Date"), \
        _ent("51%", "Thing")
    joined = _rel(bogart, "joined", warner)
    studied = _rel(bogart, "studied at", cambridge)
    owns = _rel(warner, "share", share)
    born = _rel(bogart, "born in", y1946)  # a relation names 1946 too: it stays a node
    hyps = [_hyp(joined, "in", y1936), _hyp(studied, "at", cambridge), _hyp(owns, "in", y1941),
            _hyp(joined, "until", y1946)]
    event = Event(id="evt_x", type="Signing", trigger="signed", arguments={"agent": [bogart.ref()]},
                  time=y1941.ref())  # an event's time: 1941 stays a node
    graph = Graph(entities=[bogart, warner, cambridge, y1936, y1941, y1946, share],
                  relations=[joined, studied, owns, born], events=[event], hypernodes=hyps)

    done = literalize(graph, DATES)

    assert done.values == 1
    assert {e.name for e in done.graph.entities} == {"Humphrey Bogart", "Warner Bros.", "University of Cambridge",
                                                       "1941", "1946", "51%"}
    ends = {h.object.name: h.object for h in done.graph.hypernodes}
    assert ends["1936"] == Ref(kind="value", id=y1936.id, name="1936")  # the id it had
    assert ends["University of Cambridge"].kind == "entity"  # a named qualifier stays a node
    assert ends["1941"].kind == "entity" and ends["1946"].kind == "entity"
    assert [h.id for h in done.graph.hypernodes] == [h.id for h in hyps]  # hypernode ids do not change


def test_a_value_a_record_names_stays_a_node() -> None:
    firm, amount = _ent("华远物流有限公司", "Company"), _ent("12.37亿元", "Thing")
    revenue = _rel(firm, "营业收入", firm)
    graph = Graph(entities=[firm, amount], relations=[revenue], hypernodes=[_hyp(revenue, "金额", amount)])
    assert literalize(graph, DATES, kept={amount.id}).values == 0
    assert literalize(graph, DATES).values == 1


# ---------------------------------------------------------------- a real build

_REPORT = """# 青松化工股份有限公司 2023 年第三季度报告

## 一、主要财务数据

青松化工股份有限公司（以下简称“公司”）2023年1-9月实现营业收入 12.37 亿元，同比增长 6.85%。
归属于上市公司股东的净利润 1.42 亿元，同比下降 3.1%。
"""
_FOUNDED = "青松化工股份有限公司成立于2023年。\n"
_SETTINGS = "workspace: ws\ngraph_store:\n  backend: none\nvector_store:\n  backend: none\nbuild:\n  workers: 1\n"


def _build(root: Path, *sources: Path):  # type: ignore[no-untyped-def]
    from kgbuild.build import Builder
    from kgbuild.config import load_config

    return asyncio.run(Builder(load_config(root / "kgbuild.yaml", env={})).arun(list(sources)))


@pytest.fixture()
def report_project(tmp_path: Path) -> Path:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "report.md").write_text(_REPORT, encoding="utf-8")
    (tmp_path / "kgbuild.yaml").write_text(_SETTINGS, encoding="utf-8")
    return tmp_path


def test_a_report_keeps_its_changes_and_period_on_the_facts(report_project: Path) -> None:
    from kgbuild.store.graph_rows import read_graph_rows
    from kgbuild.workspace import Workspace

    report = _build(report_project, report_project / "docs")
    ws = Workspace(report_project / "ws")
    names = {e["name"] for e in ws.rows("entities")}
    assert {"6.85%", "3.1%", "2023年"} & names == set()
    literal = {(h["predicate"], h["object_name"]) for h in ws.rows("hypernodes") if h["object_kind"] == "value"}
    assert {("同比增长", "6.85%"), ("同比下降", "3.1%"), ("时间", "2023年")} <= literal
    assert report.literals is not None and report.literals.values == 3
    assert report.graph.entities == len(names)

    rows = read_graph_rows(ws)
    assert rows.dangling == 0
    node_ids = {n.id for n in rows.nodes}
    assert all(e.dst in node_ids for e in rows.edges)
    hyper = [n.props for n in rows.nodes if n.label == "HyperNode" and n.props["predicate"] == "同比增长"]
    assert hyper and hyper[0]["object_kind"] == "value" and hyper[0]["object_name"] == "6.85%"


def test_the_rdf_export_writes_the_literal(report_project: Path) -> None:
    from rdflib import Graph as RdfGraph
    from rdflib import Literal, Namespace

    from kgbuild.export import export_graph
    from kgbuild.workspace import Workspace

    _build(report_project, report_project / "docs")
    out = report_project / "graph.ttl"
    export_graph(Workspace(report_project / "ws"), "turtle", out)
    kag = Namespace("https://w3id.org/kgbuild/kag#")
    values = {str(o) for o in RdfGraph().parse(out, format="turtle").objects(None, kag.qualifierValue)}
    assert {"6.85%", "3.1%", "2023年"} <= values
    assert all(isinstance(o, Literal) for o in RdfGraph().parse(out, format="turtle").objects(None, kag.qualifier))


def test_inspect_hypernodes_and_health_show_the_value(report_project: Path) -> None:
    from click.testing import CliRunner

    from kgbuild.cli import main

    _build(report_project, report_project / "docs")
    config = str(report_project / "kgbuild.yaml")
    shown = CliRunner().invoke(main, ["-c", config, "inspect", "hypernodes", "--json"], catch_exceptions=False)
    assert shown.exit_code == 0
    assert "6.85%" in {row["object_name"] for row in json.loads(shown.output)}
    health = CliRunner().invoke(main, ["-c", config, "inspect", "health"], catch_exceptions=False)
    assert "values kept as literals on their facts (not entities): 3" in health.output


def test_the_projection_keeps_the_qualifier_text(report_project: Path) -> None:
    from kgbuild.graph.projection import GraphProjection
    from kgbuild.workspace import Workspace

    _build(report_project, report_project / "docs")
    projection = GraphProjection.load(Workspace(report_project / "ws"))
    quals = [q for qs in projection.qualifiers.values() for q in qs]
    changes = [q for q in quals if q.predicate == "同比增长"]
    assert changes and changes[0].value == "6.85%" and changes[0].literal


def test_a_later_document_that_relates_the_date_makes_it_a_node_again(report_project: Path) -> None:
    from kgbuild.workspace import Workspace

    _build(report_project, report_project / "docs")
    ws = Workspace(report_project / "ws")
    assert "2023年" not in {e["name"] for e in ws.rows("entities")}

    (report_project / "docs" / "founded.txt").write_text(_FOUNDED, encoding="utf-8")
    report = _build(report_project, report_project / "docs")
    assert report.extract is not None and report.extract.chunks_cached >= 1  # incremental: the report is cached
    assert "2023年" in {e["name"] for e in ws.rows("entities")}
    period = [h for h in ws.rows("hypernodes") if h["object_name"] == "2023年"]
    assert period and all(h["object_kind"] == "entity" for h in period)
    assert any(r["object_name"] == "2023年" for r in ws.rows("relations"))


def test_a_correction_naming_a_literal_is_no_stale_one(report_project: Path) -> None:
    # the build applies corrections before the literals stage, while the value is still an entity (the review)
    from kgbuild.curate.file import Correction
    from kgbuild.curate.lookup import TableLookup
    from kgbuild.workspace import Workspace

    _build(report_project, report_project / "docs")
    lookup = TableLookup(Workspace(report_project / "ws"))
    correction = Correction(kind="retype", target={"entity": "6.85%", "class": "Thing"})
    assert lookup.unknown(correction) == []


def test_what_a_mapped_record_names_is_found_in_its_columns() -> None:
    import pyarrow as pa

    from kgbuild.build.literals import named_by_records
    from kgbuild.records.graph import RecordCounts, RecordsGraph

    relations = pa.table({"id": ["rel_1"], "subject_id": ["ent_firm"], "object_id": ["ent_2023"]})
    entities = pa.table({"id": ["ent_firm", "ent_share"]})
    records = RecordsGraph(entities, relations, [], [], [], RecordCounts(), [])
    assert named_by_records(records, {"ent_2023", "ent_share", "ent_6pct"}) == {"ent_2023", "ent_share"}
    assert named_by_records(None, {"ent_2023"}) == set()


def test_names_that_open_with_a_numeral_or_a_digit_stay_names() -> None:
    # the review's cases: a Chinese numeral followed by no unit, and digits in the name of a company or a place
    from kgbuild.graph.literals import is_quantity, is_value, named_classes
    from kgbuild.model import Entity
    from kgbuild.schema import resolve_schema

    assert not any(is_quantity(n) for n in ("万科", "百度", "十堰", "五十铃", "千岛湖", "十八大"))
    assert all(is_quantity(n) for n in ("七百零三人", "四十二万吨", "三千余家"))
    schema = resolve_schema("open_domain")
    named = named_classes(schema.entity_types, schema.is_a)
    assert not is_value(Entity(id="a", name="58同城", spg_class="Company"), {"Date"}, named)
    assert not is_value(Entity(id="b", name="7天", spg_class="Company"), {"Date"}, named)
    assert is_value(Entity(id="c", name="18.42%", spg_class="Thing"), {"Date"}, named)
