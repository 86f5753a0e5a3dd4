"""The graph half of the mutual index: embedded ArcadeDB in-process and the Neo4j driver over
Bolt against a real ArcadeDB server the tests start. Incremental, idempotent, injection-proof."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from arcade_server import arcadedb_bolt_server
from graph_dump import dump

from kgbuild.build import Builder
from kgbuild.config import Config, load_config
from kgbuild.errors import KgbuildError
from kgbuild.store.arcade import ArcadeGraphStore
from kgbuild.store.graph_rows import read_graph_rows
from kgbuild.store.labels import GENERIC_TYPE, class_label, quoted, relationship_type
from kgbuild.store.neo4j_store import Neo4jGraphStore
from kgbuild.store.sync import sync_stores
from kgbuild.workspace import Workspace

SAMPLES = Path(__file__).resolve().parents[1] / "samples" / "corpus"
HOSTILE = ["O'Brien \"the\" `tick`", "}) DETACH DELETE n //", "名字 🚀", "a\nb\\c", "$param {x}"]


def project(root: Path, extra: str = "", *, vectors: bool = False) -> Config:
    """A project on the samples; the vector store is off unless asked for (its tests are elsewhere)."""
    root.mkdir(parents=True, exist_ok=True)
    stores = "vector_store:\n  batch_size: 16\n" if vectors else "vector_store:\n  backend: none\n"
    (root / "kgbuild.yaml").write_text(f"workspace: ws\nbuild:\n  workers: 1\n{stores}{extra}", encoding="utf-8")
    return load_config(root / "kgbuild.yaml", env={})


def build(config: Config, sources: list[Path], **kwargs) -> dict:
    report = asyncio.run(Builder(config).arun(sources, **kwargs))
    assert not report.store_error, report.store_error
    stores = report.write.stores if report.write else None  # no write section: built with sync=False
    return stores.model_dump() if stores else {}


def embedded_dump(config: Config) -> dict:
    store = ArcadeGraphStore(config.graph_store_path())
    try:
        return dump(store)
    finally:
        store.close()


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("corpus") / "corpus"
    shutil.copytree(SAMPLES, root)
    return root


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, corpus: Path) -> Config:
    config = project(tmp_path_factory.mktemp("built"))
    build(config, [corpus])
    return config


def test_whitelist_keeps_model_output_out_of_statements() -> None:
    assert relationship_type("bornIn") == "BORN_IN"
    assert relationship_type("move to") == "MOVE_TO"
    assert relationship_type("isA") == "IS_A"
    for hostile in [*HOSTILE, "next", "SUPPORTED_BY", "", "x" * 200]:
        assert relationship_type(hostile) in (GENERIC_TYPE,) or relationship_type(hostile).replace("_", "").isalnum()
    assert relationship_type("}) DETACH DELETE n //") == "DETACH_DELETE_N"  # letters only: harmless as a type
    assert relationship_type("名字") == GENERIC_TYPE
    assert relationship_type("next") == GENERIC_TYPE  # would pose as reading order
    assert class_label("natural science") == "NaturalScience"
    assert class_label("Concept") is None and class_label("人物") is None and class_label("`x`") == "X"
    with pytest.raises(ValueError):
        quoted("a`b")


def test_predicate_mode_types_only_identifier_predicates_the_rest_is_related_to(tmp_path: Path) -> None:
    """`relationship_types: predicate` as documented (README, docs/graph_model.md): a predicate that is
    an ASCII identifier gets its own type; anything else falls back to RELATED_TO, never a sanitised type."""
    from kgbuild.store.sync import relationship_typer

    type_of = relationship_typer(project(tmp_path, "graph_store:\n  relationship_types: predicate\n"))
    assert type_of("valid_name") == "VALID_NAME" and type_of("bornIn") == "BORN_IN"
    for unsafe in ["born in", "x`) DETACH", "ünïcode", "}) DETACH DELETE n //", "", "next", "x" * 200, "name\n"]:
        assert type_of(unsafe) == GENERIC_TYPE, unsafe


def test_schema_whitelist_types_declared_relations_and_folds_the_rest() -> None:
    from kgbuild.schema import resolve_schema
    from kgbuild.store.labels import schema_typer

    type_of = schema_typer(resolve_schema("open_domain"))
    assert type_of("bornIn") == type_of("placeOfBirth") == "BORN_IN"  # aliases fold onto the declared name
    assert type_of("belongTo") == "BELONG_TO" and type_of("isA") == "IS_A"
    assert type_of("move to") == GENERIC_TYPE and type_of("}) DETACH DELETE n //") == GENERIC_TYPE


@pytest.mark.slow
def test_the_store_holds_exactly_the_rows_and_a_second_sync_writes_nothing(built: Config) -> None:
    rows = read_graph_rows(Workspace(built.workspace_path()))
    graph = embedded_dump(built)
    assert len(graph["nodes"]) == len(rows.nodes) > 300
    assert len(graph["edges"]) == len(rows.edges) > 700
    assert len({n[0] for n in graph["nodes"]}) == len(graph["nodes"])  # no duplicate ids
    again = sync_stores(built)
    assert (again.nodes_written, again.edges_written, again.nodes_deleted, again.edges_deleted) == (0, 0, 0, 0)
    assert again.unchanged == len(rows.nodes) + len(rows.edges)
    assert embedded_dump(built) == graph


@pytest.mark.slow
def test_every_extracted_node_points_to_its_chunks_and_chunks_to_documents(built: Config) -> None:
    store = ArcadeGraphStore(built.graph_store_path())
    try:
        unsupported = store.query(
            "MATCH (n) WHERE (n:Entity OR n:Event OR n:HyperNode) AND NOT (n)-[:SUPPORTED_BY]->(:Chunk) "
            "RETURN n.id AS id")
        assert unsupported == []
        loose = store.query("MATCH (c:Chunk) WHERE NOT (c)-[:PART_OF]->(:Document) RETURN c.id AS id")
        assert loose == []
        born = store.query(
            "MATCH (p:Person {name: 'Alan Turing'})-[r:BORN_IN]->(x) RETURN r.predicate AS p, x.name AS x")
        assert born and born[0]["p"] == "bornIn"
    finally:
        store.close()


@pytest.mark.slow
def test_a_changed_document_replaces_exactly_its_part(tmp_path: Path, corpus: Path) -> None:
    src = tmp_path / "corpus"
    shutil.copytree(corpus, src)
    config = project(tmp_path / "inc")
    build(config, [src])
    before = embedded_dump(config)
    page = src / "people" / "grace_hopper.md"
    page.write_text(page.read_text(encoding="utf-8") + "\n\nGrace Hopper visited Oslo in 1975.\n", encoding="utf-8")
    stats = build(config, [src])
    after = embedded_dump(config)
    fresh = project(tmp_path / "fresh")
    build(fresh, [src])
    assert after == embedded_dump(fresh)  # incremental == from scratch
    assert 0 < stats["nodes_written"] < len(after["nodes"]) // 4  # only the changed part was written
    changed = {n[0] for n in after["nodes"]} ^ {n[0] for n in before["nodes"]}
    assert any("Oslo" in n[2] for n in after["nodes"] if n[0] in changed)
    untouched = [n for n in before["nodes"] if n[0].startswith("people/alan_turing#")]
    assert untouched and set(untouched) <= set(after["nodes"])


@pytest.mark.slow
def test_a_removed_document_leaves_no_orphan(tmp_path: Path, corpus: Path) -> None:
    config = project(tmp_path / "rm")
    build(config, [corpus])
    stats = build(config, [], remove=["people/grace_hopper"])
    assert stats["nodes_deleted"] > 0
    graph = embedded_dump(config)
    assert not any(n[0].startswith("people/grace_hopper") for n in graph["nodes"])
    assert not any("Grace Hopper" in n[2] for n in graph["nodes"] if "Entity" in n[1])
    rest = tmp_path / "rest"
    shutil.copytree(corpus, rest)
    (rest / "people" / "grace_hopper.md").unlink()
    fresh = project(tmp_path / "fresh")
    build(fresh, [rest])
    assert graph == embedded_dump(fresh)
    # --prune does the same from the source list
    pruned = project(tmp_path / "prune")
    build(pruned, [corpus])
    build(pruned, [rest], prune=True)
    assert embedded_dump(pruned) == graph
    with pytest.raises(KgbuildError, match="not in the workspace"):
        asyncio.run(Builder(config).arun([], remove=["people/grace_hoper"]))


def _poison(config: Config) -> None:
    """Rewrite the built tables as if the model had produced hostile names and predicates."""
    tables = config.workspace_path() / "tables"
    ents = pq.read_table(tables / "entities.parquet").to_pylist()
    for row, name in zip(ents, HOSTILE, strict=False):  # only the first rows are poisoned
        row["name"] = name
        row["spg_class"] = name
    rels = pq.read_table(tables / "relations.parquet").to_pylist()
    for row, name in zip(rels, HOSTILE, strict=False):
        row["predicate"] = name
        row["properties"] = json.dumps({"note": name})
    ws = Workspace(config.workspace_path())
    ws.write_table("entities", ents)
    ws.write_table("relations", rels)


@pytest.mark.slow
def test_hostile_names_are_stored_as_data(tmp_path: Path, corpus: Path) -> None:
    config = project(tmp_path / "hostile")
    build(config, [corpus], sync=False)
    _poison(config)
    sync_stores(config)
    graph = embedded_dump(config)
    rows = read_graph_rows(Workspace(config.workspace_path()))
    assert len(graph["nodes"]) == len(rows.nodes) and len(graph["edges"]) == len(rows.edges)
    names = {json.loads(n[2]).get("name") for n in graph["nodes"]}
    assert set(HOSTILE) <= names
    predicates = {json.loads(e[4]).get("predicate") for e in graph["edges"]}
    assert set(HOSTILE) <= predicates


@pytest.fixture(scope="module")
def bolt(tmp_path_factory: pytest.TempPathFactory):
    with arcadedb_bolt_server(tmp_path_factory.mktemp("arcadedb")) as server:
        yield server


@pytest.mark.server
def test_neo4j_driver_over_bolt_gives_the_same_graph_as_the_embedded_store(tmp_path: Path, built: Config, bolt) -> None:
    extra = (f"graph_store:\n  backend: neo4j\n  uri: {bolt.uri}\n  user: {bolt.user}\n  database: {bolt.database}\n")
    config = project(tmp_path / "neo", extra)
    shutil.copytree(built.workspace_path() / "tables", config.workspace_path() / "tables")
    env_config = load_config(config.file, env={"KGBUILD_NEO4J_PASSWORD": bolt.password})
    first = sync_stores(env_config)
    assert first.nodes_written > 300 and first.graph_store.startswith("neo4j")
    store = Neo4jGraphStore(env_config.graph_store)
    try:
        assert dump(store) == embedded_dump(built)
        again = sync_stores(env_config)
        assert (again.nodes_written, again.edges_written) == (0, 0)
        _poison(env_config)
        sync_stores(env_config)
        names = {r["name"] for r in store.query("MATCH (n:Entity) RETURN n.name AS name")}
        assert set(HOSTILE) <= names
        expected = len(read_graph_rows(Workspace(env_config.workspace_path())).nodes)
        assert store.query("MATCH (n) RETURN count(n) AS n")[0]["n"] == expected
    finally:
        store.close()


@pytest.mark.server
def test_bolt_errors_are_one_line_naming_the_setting(tmp_path: Path, bolt) -> None:
    config = project(tmp_path / "bad",
                     f"graph_store:\n  backend: neo4j\n  uri: {bolt.uri}\n  password: wrong-password\n")
    with pytest.raises(KgbuildError, match=r"graph_store\.password"):
        Neo4jGraphStore(config.graph_store)
    dead = project(tmp_path / "dead", "graph_store:\n  backend: neo4j\n  uri: bolt://127.0.0.1:9\n  password: x\n")
    with pytest.raises(KgbuildError, match=r"graph_store\.uri: cannot reach"):
        Neo4jGraphStore(dead.graph_store)


@pytest.mark.server
def test_build_tells_a_missing_password_from_a_wrong_one_before_any_work(tmp_path: Path, bolt) -> None:
    """Without a password the driver sends no credentials, which the server refuses like a wrong one;
    `kgbuild build` checks the store first and says which it is, in one line, creating nothing."""
    from click.testing import CliRunner

    from kgbuild.cli import main

    store = f"graph_store:\n  backend: neo4j\n  uri: {bolt.uri}\n  user: {bolt.user}\n"
    for name, extra, expected in (("missing", "", "error: graph_store.password: no password configured"),
                                  ("wrong", "  password: not-it\n", "error: graph_store.password: authentication failed")):
        root = tmp_path / name
        root.mkdir()
        (root / "kgbuild.yaml").write_text("workspace: ws\n" + store + extra, encoding="utf-8")
        (root / "a.md").write_text("Ada Lovelace wrote the first program.\n", encoding="utf-8")
        result = CliRunner(env={"KGBUILD_NEO4J_PASSWORD": None}).invoke(
            main, ["-c", str(root / "kgbuild.yaml"), "build", str(root / "a.md")])
        assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1, result.stderr
        assert result.stderr.startswith(expected), result.stderr
        assert ("KGBUILD_NEO4J_PASSWORD" in result.stderr) and not (root / "ws").exists()


@pytest.mark.slow
def test_a_class_change_relabels_the_node_and_keeps_its_relationships(tmp_path: Path, corpus: Path) -> None:
    config = project(tmp_path / "relabel")
    build(config, [corpus])
    tables = config.workspace_path() / "tables"
    ents = pq.read_table(tables / "entities.parquet").to_pylist()
    turing = next(e for e in ents if e["name"] == "Alan Turing")
    turing["spg_class"] = "Organization"
    Workspace(config.workspace_path()).write_table("entities", ents)
    stats = sync_stores(config)
    assert stats.nodes_written == 1 and stats.nodes_deleted == 0 and stats.edges_written > 5
    graph = embedded_dump(config)
    fresh = project(tmp_path / "fresh")
    shutil.copytree(tables, fresh.workspace_path() / "tables")
    sync_stores(fresh)
    assert graph == embedded_dump(fresh)
    assert any(n[0] == turing["id"] and "Organization" in n[1] for n in graph["nodes"])
