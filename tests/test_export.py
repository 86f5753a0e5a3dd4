"""`kgbuild export`: Turtle, JSON-LD, GraphML and JSON lines from the graph rows.

A small workspace is written table by table, with names that are hostile in every format
(quotes, backticks, Cypher, markup, '&', line breaks, control characters, emoji); every format
must read back with the same graph, and the RDF must use only declared vocabulary terms.
"""

from __future__ import annotations

import io
import json
import time
from pathlib import Path
from urllib.parse import quote, unquote

import networkx as nx
import pytest
from click.testing import CliRunner, Result
from rdflib import RDF, RDFS, Graph, Literal, Namespace, URIRef
from rdflib.collection import Collection
from rdflib.compare import isomorphic

from kgbuild.cli.export import export
from kgbuild.config import load_config
from kgbuild.errors import KgbuildError
from kgbuild.export import default_base, export_graph, vocabulary_path
from kgbuild.export import graphml as graphml_module
from kgbuild.export.rdf import KAG_TERMS, write_turtle
from kgbuild.store.graph_rows import EdgeRow, GraphRows, NodeRow, read_graph_rows
from kgbuild.workspace import Workspace

KAG = Namespace("https://w3id.org/kgbuild/kag#")
PROV = Namespace("http://www.w3.org/ns/prov#")
OWL = Namespace("http://www.w3.org/2002/07/owl#")
BASE = "urn:kgbuild:test:"

HOSTILE_NAMES = [
    'Robert "Bobby" O\'Neil',
    "back`tick` `}) DETACH DELETE n //",
    "<script>alert('x')</script>",
    "Tom & Jerry &amp; &#x41;",
    "line1\nline2\r\nline3\tend\r",
    "Zoë 北京 😀 \u200b",
    "ctrl\x00\x01\x08\x0b\x0c\x1f\x7fend",
    "sep\u2028para\u2029nel\x85",
    "back\\slash \\n \\u0041",
    "]]> --> <!-- \"'",
]
HOSTILE_PREDICATES = ['born "in"', "}) DETACH DELETE n //", "<b>&amp;</b>", "line\nbreak", "emoji 😀 #1 %41 /x"]
DOC_ID = 'people/Zoë "q" 😀 <&>'
DOC2 = "plain"
C1, C2, C3 = f"{DOC_ID}#p00000#0", f"{DOC_ID}#p00001#0", f"{DOC2}#p00000#0"
HOSTILE_ENTITY_ID = "ent #1 /ü 😀 %20"


def _props(name: str) -> str:
    # An entity's properties column as the build writes it: name -> list of values, JSON with sorted keys.
    return json.dumps({"note": [name]}, ensure_ascii=False, sort_keys=True)


def _ent(id_: str, name: str, chunk_ids: list[str], cls: str = "Person", aliases: list[str] | None = None) -> dict:
    return {"id": id_, "name": name, "spg_class": cls, "semantic_type": "tester", "description": f"about {name}",
            "summary": "", "aliases": aliases or [], "properties": _props(name), "chunk_ids": chunk_ids,
            "doc_ids": sorted({c.split("#")[0] for c in chunk_ids})}


def _rel(id_: str, s: str, p: str, o: str, chunk_ids: list[str], o_kind: str = "entity", props: str = "{}") -> dict:
    return {"id": id_, "subject_id": s, "subject_name": s, "subject_kind": "entity", "subject_class": "Person",
            "predicate": p, "object_id": o, "object_name": o, "object_kind": o_kind, "object_class": None,
            "properties": props, "chunk_ids": chunk_ids, "doc_ids": []}


def write_workspace(path: Path) -> Workspace:
    ws = Workspace(path)
    ws.ensure()
    ws.write_table("documents", [
        {"id": DOC_ID, "source": "hostile.md", "title": HOSTILE_NAMES[3], "format": "md", "content_hash": "h1",
         "chunker": "rules", "word_count": 12, "metadata": "{}", "paragraphs": "[]", "chunk_ids": [C1, C2]},
        {"id": DOC2, "source": "plain.txt", "title": "Plain", "format": "txt", "content_hash": "h2",
         "chunker": "rules", "word_count": 3, "metadata": "{}", "paragraphs": "[]", "chunk_ids": [C3]},
    ])
    chunk = {"paragraph_start": 0, "paragraph_end": 0, "token_count": 10, "content_hash": "c", "summary": "",
             "oversize_split": False}
    ws.write_table("chunks", [
        {**chunk, "id": C1, "doc_id": DOC_ID, "text": "\n".join(HOSTILE_NAMES), "section": ["Intro", "A <b>&</b>"],
         "order": 0, "prev_id": None, "next_id": C2},
        {**chunk, "id": C2, "doc_id": DOC_ID, "text": "second", "section": [], "order": 1, "prev_id": C1,
         "next_id": None},
        {**chunk, "id": C3, "doc_id": DOC2, "text": "plain text", "section": ["Only"], "order": 0, "prev_id": None,
         "next_id": None},
    ])
    entities = [_ent(f"ent_{i}", name, [C1], aliases=[name[::-1], "alias & co"])
                for i, name in enumerate(HOSTILE_NAMES)]
    entities.append(_ent(HOSTILE_ENTITY_ID, "Odd Id", [C2, C3], cls="Place 😀"))
    entities.append(_ent("ent_date", "1999", [C2], cls="Date"))
    ws.write_table("entities", entities)
    ws.write_table("concepts", [
        {"id": "con_person", "name": "person", "description": "", "parents": [], "chunk_ids": [], "doc_ids": []},
        {"id": "con_agent", "name": "agent & <actor>", "description": "d", "parents": [], "chunk_ids": [C1],
         "doc_ids": [DOC_ID]},
    ])
    relations = [_rel(f"rel_{i}", f"ent_{i}", p, HOSTILE_ENTITY_ID, [C1]) for i, p in enumerate(HOSTILE_PREDICATES)]
    relations.append(_rel("rel_belong", "ent_0", "belongTo", "con_person", [C1], o_kind="concept"))
    relations.append(_rel("rel_isa", "con_person", "isA", "con_agent", [], o_kind="concept"))
    relations.append(_rel("rel_props", "ent_1", "bornIn", HOSTILE_ENTITY_ID, [C1], props='{"since": "1999"}'))
    ws.write_table("relations", relations)
    ws.write_table("events", [
        {"id": "evt_1", "type": "Birth", "trigger": "born <here>",
         "arguments": json.dumps({"person": [{"kind": "entity", "id": "ent_2", "name": HOSTILE_NAMES[2]}]}),
         "time_id": "ent_date", "time_name": "1999", "place_id": HOSTILE_ENTITY_ID, "place_name": "Odd Id",
         "chunk_ids": [C2], "doc_ids": [DOC_ID]},
    ])
    ws.write_table("hypernodes", [
        {"id": "hyp_1", "subject_id": "rel_0", "subject_name": f"({HOSTILE_NAMES[0]}, {HOSTILE_PREDICATES[0]}, Odd Id)",
         "subject_kind": "relation", "predicate": "in \"year\" &", "object_id": "ent_date", "object_name": "1999",
         "object_kind": "entity", "chunk_ids": [C1, C2], "doc_ids": [DOC_ID]},
    ])
    return ws


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> dict:
    root = tmp_path_factory.mktemp("export")
    ws = write_workspace(root / "ws")
    rows = read_graph_rows(ws)
    assert rows.dangling == 0
    files = {fmt: root / f"g.{fmt}" for fmt in ("turtle", "jsonld", "graphml", "jsonl")}
    results = {fmt: export_graph(ws, fmt, path, base=BASE) for fmt, path in files.items()}
    return {"ws": ws, "rows": rows, "files": files, "results": results}


def iri(kind: str, id_: str) -> URIRef:
    return URIRef(f"{BASE}{kind}/{quote(id_, safe='')}")


def rel(predicate: str) -> URIRef:
    return URIRef(f"{BASE}relation/{quote(predicate, safe='')}")


# ---------------------------------------------------------------- RDF


def _rdf(exported: dict) -> tuple[Graph, Graph]:
    turtle = Graph().parse(exported["files"]["turtle"], format="turtle")
    jsonld = Graph().parse(exported["files"]["jsonld"], format="json-ld")
    return turtle, jsonld


def test_turtle_and_jsonld_describe_the_same_graph(exported: dict) -> None:
    turtle, jsonld = _rdf(exported)
    assert len(turtle) == len(jsonld) > 100
    assert isomorphic(turtle, jsonld)
    assert exported["results"]["turtle"].statements == len(turtle)  # no duplicate triples in this graph


def test_hostile_names_and_ids_survive_rdf_exactly(exported: dict) -> None:
    for g in _rdf(exported):
        for i, name in enumerate(HOSTILE_NAMES):
            s = iri("entity", f"ent_{i}")
            assert (s, RDF.type, KAG.Entity) in g
            assert (s, RDFS.label, Literal(name)) in g, name
            assert (s, KAG.alias, Literal(name[::-1])) in g
            assert (s, KAG.properties, Literal(_props(name))) in g
        odd = iri("entity", HOSTILE_ENTITY_ID)
        assert (odd, KAG.id, Literal(HOSTILE_ENTITY_ID)) in g
        assert unquote(str(odd).rsplit("/", 1)[1]) == HOSTILE_ENTITY_ID
        assert (odd, KAG.spgClass, Literal("Place 😀")) in g
        # Every id comes back from its IRI.
        for s, _, id_ in g.triples((None, KAG.id, None)):
            if not str(s).startswith(f"{BASE}statement/"):
                assert unquote(str(s).rsplit("/", 1)[1]) == str(id_)


def test_relations_become_predicate_iris_with_their_raw_text_as_label(exported: dict) -> None:
    for g in _rdf(exported):
        target = iri("entity", HOSTILE_ENTITY_ID)
        for i, predicate in enumerate(HOSTILE_PREDICATES):
            assert (iri("entity", f"ent_{i}"), rel(predicate), target) in g, predicate
            assert (rel(predicate), RDFS.label, Literal(predicate)) in g
            assert (rel(predicate), RDF.type, RDF.Property) in g
        assert (iri("entity", "ent_0"), KAG.belongTo, iri("concept", "con_person")) in g
        assert (iri("concept", "con_person"), KAG.isA, iri("concept", "con_agent")) in g
        # A relation with properties is also a reified statement that carries them.
        st = URIRef(f"{BASE}statement/rel_props")
        assert (st, RDF.subject, iri("entity", "ent_1")) in g and (st, RDF.predicate, rel("bornIn")) in g
        assert (st, KAG.properties, Literal('{"since": "1999"}')) in g
        # Every relation read from text is a statement supported by its chunks; schema taxonomy is not.
        for i, predicate in enumerate(HOSTILE_PREDICATES):
            st = URIRef(f"{BASE}statement/rel_{i}")
            assert (st, RDF.predicate, rel(predicate)) in g and (st, RDF.object, iri("entity", HOSTILE_ENTITY_ID)) in g
            assert set(g.objects(st, KAG.supportedBy)) == {iri("chunk", C1)}
        assert not set(g.subjects(RDF.subject, iri("concept", "con_person")))


def test_provenance_chunks_documents_and_structure(exported: dict) -> None:
    ws: Workspace = exported["ws"]
    for g in _rdf(exported):
        for table, kind in (("entities", "entity"), ("events", "event"), ("concepts", "concept"),
                            ("hypernodes", "hypernode")):
            for row in ws.rows(table):
                supported = set(g.objects(iri(kind, row["id"]), KAG.supportedBy))
                assert supported == {iri("chunk", c) for c in row["chunk_ids"]}, row["id"]
        for chunk in ws.rows("chunks"):
            c = iri("chunk", chunk["id"])
            assert (c, KAG.partOf, iri("document", chunk["doc_id"])) in g
            assert (c, KAG.text, Literal(chunk["text"])) in g
            if chunk["section"]:
                head = g.value(c, KAG.section)
                assert [str(x) for x in Collection(g, head)] == chunk["section"]
        assert (iri("chunk", C1), KAG.next, iri("chunk", C2)) in g
        assert (iri("document", DOC_ID), RDFS.label, Literal(HOSTILE_NAMES[3])) in g


def test_hypernodes_are_reified_statements_with_their_qualifier(exported: dict) -> None:
    for g in _rdf(exported):
        h = iri("hypernode", "hyp_1")
        assert (h, RDF.type, KAG.HyperNode) in g and (h, RDF.type, RDF.Statement) in g
        assert (h, RDF.subject, iri("entity", "ent_0")) in g
        assert (h, RDF.predicate, rel(HOSTILE_PREDICATES[0])) in g
        assert (h, RDF.object, iri("entity", HOSTILE_ENTITY_ID)) in g
        assert (h, KAG.qualifier, iri("entity", "ent_date")) in g
        assert (h, KAG.qualifierPredicate, rel('in "year" &')) in g
        assert (rel('in "year" &'), RDFS.label, Literal('in "year" &')) in g


def test_events_have_role_arguments_time_and_place(exported: dict) -> None:
    for g in _rdf(exported):
        e = iri("event", "evt_1")
        (arg,) = g.objects(e, KAG.argument)
        assert (arg, RDF.type, KAG.Argument) in g
        assert (arg, KAG.role, Literal("person")) in g and (arg, RDF.value, iri("entity", "ent_2")) in g
        assert (e, KAG.time, iri("entity", "ent_date")) in g
        assert (e, KAG.place, iri("entity", HOSTILE_ENTITY_ID)) in g
        assert (e, KAG.spgClass, Literal("Birth")) in g and (e, KAG.trigger, Literal("born <here>")) in g


def test_vocabulary_parses_and_declares_every_term_the_exports_use(exported: dict) -> None:
    vocab = Graph().parse(vocabulary_path(), format="turtle")
    declared = {s for s, o in vocab.subject_objects(RDF.type)
                if o in (OWL.Class, OWL.ObjectProperty, OWL.DatatypeProperty) and str(s).startswith(str(KAG))}
    assert {URIRef(KAG + t) for t in KAG_TERMS} == declared
    assert (KAG.supportedBy, RDFS.subPropertyOf, PROV.wasDerivedFrom) in vocab
    for g in _rdf(exported):
        used = {term for triple in g for term in triple if isinstance(term, URIRef) and str(term).startswith(str(KAG))}
        assert used and used <= declared, used - declared
        for s, _, _ in g:  # every node is under the base (or blank, for rdf:List cells)
            assert not isinstance(s, URIRef) or str(s).startswith(BASE)


def test_default_base_percent_encodes_the_project_name() -> None:
    assert default_base("my project/ü") == "urn:kgbuild:my%20project%2F%C3%BC:"


# ---------------------------------------------------------------- GraphML and JSONL


def test_graphml_reads_back_with_networkx(exported: dict) -> None:
    rows: GraphRows = exported["rows"]
    g = nx.read_graphml(exported["files"]["graphml"])
    assert g.number_of_nodes() == len(rows.nodes)
    assert g.number_of_edges() == len(rows.edges)
    # XML 1.0 cannot hold most control characters: they come back as U+FFFD, everything else exactly.
    def xmlsafe(text: str) -> str:
        return "".join("\ufffd" if (ord(ch) < 0x20 and ch not in "\t\n\r") else ch for ch in text)

    for i, name in enumerate(HOSTILE_NAMES):
        data = g.nodes[f"ent_{i}"]
        assert data["name"] == xmlsafe(name), name
        assert data["labels"] == ":Entity:Person"
        # Lists are JSON text, whose \u escapes carry even control characters through XML.
        assert json.loads(data["aliases"]) == [name[::-1], "alias & co"]
    assert g.nodes[HOSTILE_ENTITY_ID]["labels"] == ":Entity"  # "Place 😀" is no label; spg_class keeps it
    assert g.nodes[HOSTILE_ENTITY_ID]["spg_class"] == "Place 😀"
    assert g.nodes[C1]["order"] == 0 and json.loads(g.nodes[C1]["section"]) == ["Intro", "A <b>&</b>"]
    predicates = {d.get("predicate") for _, _, d in g.edges(data=True)}
    assert {xmlsafe(p) for p in HOSTILE_PREDICATES} <= predicates
    types = {d["type"] for _, _, d in g.edges(data=True)}
    assert {"PART_OF", "NEXT", "SUPPORTED_BY", "ARGUMENT", "QUALIFIER", "BELONG_TO", "IS_A"} <= types


def test_jsonl_lines_round_trip(exported: dict) -> None:
    rows: GraphRows = exported["rows"]
    text = exported["files"]["jsonl"].read_text(encoding="utf-8")
    assert len(text.splitlines()) == len(rows.nodes) + len(rows.edges) == exported["results"]["jsonl"].statements
    records = [json.loads(line) for line in text.splitlines()]
    nodes = [r for r in records if r["kind"] == "node"]
    edges = [r for r in records if r["kind"] == "edge"]
    assert records == nodes + edges  # nodes first
    assert nodes == [{"kind": "node", "id": n.id, "labels": [n.label] + ([n.extra_label] if n.extra_label else []),
                      "properties": n.props} for n in rows.nodes]
    assert edges == [{"kind": "edge", "id": e.id, "type": e.type, "source": e.src, "target": e.dst,
                      "properties": e.props} for e in rows.edges]
    names = {n["properties"].get("name") for n in nodes}
    assert set(HOSTILE_NAMES) <= names  # exactly, control characters included


# ---------------------------------------------------------------- atomic writes and the command


def test_a_failed_export_leaves_the_previous_file_and_no_temp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ws = write_workspace(tmp_path / "ws")
    target = tmp_path / "out" / "g.graphml"
    target.parent.mkdir()
    target.write_text("previous", encoding="utf-8")

    def broken(rows: GraphRows, fh: io.TextIOBase) -> None:
        fh.write("<graphml>half")
        raise RuntimeError("disk on fire")

    monkeypatch.setattr("kgbuild.export.write_graphml", broken)
    with pytest.raises(RuntimeError):
        export_graph(ws, "graphml", target, base=BASE)
    assert target.read_text(encoding="utf-8") == "previous"
    assert [p.name for p in target.parent.iterdir()] == ["g.graphml"]
    monkeypatch.setattr("kgbuild.export.write_graphml", graphml_module.write_graphml)
    export_graph(ws, "graphml", target, base=BASE)
    assert target.read_text(encoding="utf-8").startswith("<?xml")


def _invoke(config: Path, *args: str) -> Result:
    return CliRunner().invoke(export, list(args), obj={"config_loader": lambda: load_config(config)})


def test_command_writes_the_file_and_says_what_it_wrote(tmp_path: Path) -> None:
    write_workspace(tmp_path / "ws")
    config = tmp_path / "kgbuild.yaml"
    config.write_text("project: my kg\nworkspace: ws\n", encoding="utf-8")
    out = tmp_path / "sub" / "graph.ttl"
    result = _invoke(config, "turtle", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert str(out) in result.stdout and "nodes" in result.stdout and "triples" in result.stdout
    assert "<urn:kgbuild:my%20kg:entity/>" in out.read_text(encoding="utf-8")
    result = _invoke(config, "JSONLD", "--out", str(tmp_path / "g.jsonld"), "--base", "https://example.org/kg/")
    assert result.exit_code == 0, result.output
    assert "https://example.org/kg/entity/" in (tmp_path / "g.jsonld").read_text(encoding="utf-8")


@pytest.mark.parametrize("args, expected", [
    (["turtle", "--base", "not an iri"], "--base: not an absolute IRI"),
    (["turtle", "--base", "https://example.org/kg"], "must end with"),
    (["graphml", "--base", "https://example.org/kg/"], "only applies to turtle and jsonld"),
])
def test_command_rejects_bad_options_in_one_line(tmp_path: Path, args: list[str], expected: str) -> None:
    write_workspace(tmp_path / "ws")
    config = tmp_path / "kgbuild.yaml"
    config.write_text("workspace: ws\n", encoding="utf-8")
    result = _invoke(config, *args, "--out", str(tmp_path / "x"))
    assert result.exit_code == 2
    assert expected in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "x").exists()


def test_out_a_directory_or_under_a_file_is_one_clear_line(tmp_path: Path) -> None:
    write_workspace(tmp_path / "ws")
    config = tmp_path / "kgbuild.yaml"
    config.write_text("workspace: ws\n", encoding="utf-8")
    (tmp_path / "exports").mkdir()
    (tmp_path / "afile").write_text("x", encoding="utf-8")
    into_dir = _invoke(config, "jsonl", "--out", str(tmp_path / "exports"))
    assert into_dir.exit_code == 2
    assert into_dir.stderr.strip().splitlines() == [
        f"error: {tmp_path / 'exports'}: is a directory (give a file name with --out, e.g. "
        f"{tmp_path / 'exports' / 'graph'})"]
    under_file = _invoke(config, "jsonl", "--out", str(tmp_path / "afile" / "sub" / "g.jsonl"))
    assert under_file.exit_code == 2
    assert under_file.stderr.strip().splitlines() == [
        f"error: {tmp_path / 'afile' / 'sub' / 'g.jsonl'}: cannot write: {tmp_path / 'afile'} is a file, not a "
        "directory (give --out a path whose directories are directories)"]
    assert (tmp_path / "afile").read_text(encoding="utf-8") == "x" and not list((tmp_path / "exports").iterdir())


def test_command_without_a_build_is_one_clear_line(tmp_path: Path) -> None:
    config = tmp_path / "kgbuild.yaml"
    config.write_text("workspace: nowhere\n", encoding="utf-8")
    result = _invoke(config, "jsonl", "--out", str(tmp_path / "g.jsonl"))
    assert result.exit_code == 2
    assert result.stderr.strip() == f"error: {tmp_path / 'nowhere'}: no build found in this workspace " \
                                    "(run `kgbuild build PATH` first)"
    assert not (tmp_path / "g.jsonl").exists()
    with pytest.raises(KgbuildError):
        export_graph(Workspace(tmp_path / "nowhere"), "turtle", tmp_path / "g.ttl", base=BASE)


# ---------------------------------------------------------------- a real build


@pytest.mark.slow
def test_samples_build_exports_in_every_format(tmp_path: Path) -> None:
    from kgbuild.cli import main

    config = tmp_path / "kgbuild.yaml"
    config.write_text("project: samples\nworkspace: ws\nbuild:\n  workers: 1\n", encoding="utf-8")
    samples = Path(__file__).resolve().parents[1] / "samples" / "corpus"
    built = CliRunner().invoke(main, ["-c", str(config), "build", str(samples), "--json"], catch_exceptions=False)
    assert built.exit_code == 0, built.output
    ws = Workspace(tmp_path / "ws")
    rows = read_graph_rows(ws)
    out = {fmt: export_graph(ws, fmt, tmp_path / f"g.{fmt}", base=default_base("samples"))
           for fmt in ("turtle", "jsonld", "graphml", "jsonl")}
    turtle = Graph().parse(out["turtle"].path, format="turtle")
    assert isomorphic(turtle, Graph().parse(out["jsonld"].path, format="json-ld"))
    entities = set(turtle.subjects(RDF.type, KAG.Entity))
    assert len(entities) == len(ws.rows("entities"))
    assert all(set(turtle.objects(e, KAG.supportedBy)) for e in entities)  # everything read from text has a chunk
    g = nx.read_graphml(out["graphml"].path)
    assert (g.number_of_nodes(), g.number_of_edges()) == (len(rows.nodes), len(rows.edges))
    assert len(out["jsonl"].path.read_text(encoding="utf-8").splitlines()) == len(rows.nodes) + len(rows.edges)


# ---------------------------------------------------------------- scale


@pytest.mark.slow
def test_turtle_streams_a_large_graph_in_linear_time() -> None:
    def graph(n: int) -> GraphRows:
        rows = GraphRows()
        for i in range(n):
            rows.nodes.append(NodeRow("Entity", f"e{i}", {"id": f"e{i}", "name": f"name {i}", "aliases": ["a"]}))
        for i in range(n):
            rows.edges.append(EdgeRow("KNOWS", "Entity", f"e{i}", "Entity", f"e{(i * 7) % n}", f"r{i}",
                                      {"id": f"r{i}", "predicate": f"knows {i % 50}", "properties": "{}"}))
        return rows

    timings = {}
    for n in (20_000, 100_000):
        rows = graph(n)
        started = time.process_time()  # CPU time: load from other jobs does not stretch it
        triples = write_turtle(rows, io.StringIO(), BASE)
        timings[n] = time.process_time() - started
        assert triples == 5 * n + 100  # type, id, label, alias, relation per node; 50 predicates declared
    # 5x the rows may take at most ~10x the time (noise on a shared machine), never 25x.
    assert timings[100_000] < 10 * timings[20_000] + 1.0, timings
