"""Issue 27: the explorer's write mode over HTTP (uvicorn on 127.0.0.1, the real httpx client) on a samples
build of its own: every correction kind through the API, undo, review decisions, and the refusals
(no token, another origin, read-only server, --write without a token)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner
from test_graph_store import SAMPLES, build, project

from kgbuild.cli.serve import serve
from kgbuild.config import ENV_OVERRIDES, Config
from kgbuild.curate.file import corrections_path, read_corrections
from kgbuild.engine import Engine
from kgbuild.errors import ConfigError
from kgbuild.serve.app import create_app
from kgbuild.serve.server import BackgroundServer

pytestmark = pytest.mark.slow  # builds the samples and re-aligns them after some writes

TOKEN = "curate-test-token"


@pytest.fixture(autouse=True)
def no_model_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ENV_OVERRIDES:
        monkeypatch.delenv(name, raising=False)


def built_samples(root: Path) -> Config:
    """The samples corpus copied under `root` and built there (the curation tests' project)."""
    shutil.copytree(SAMPLES, root / "corpus")
    cfg = project(root / "proj")
    build(cfg, [root / "corpus"])
    return cfg


@contextmanager
def write_server(config: Config, token: str) -> Iterator[BackgroundServer]:
    """The explorer in write mode over the project, behind `token`."""
    with Engine.open(config) as engine, BackgroundServer(create_app(engine, token=token, write=True)) as running:
        yield running


@pytest.fixture(scope="module")
def config(tmp_path_factory: pytest.TempPathFactory) -> Config:
    return built_samples(tmp_path_factory.mktemp("curate_serve"))


@pytest.fixture(scope="module")
def server(config: Config) -> Iterator[BackgroundServer]:
    with write_server(config, TOKEN) as running:
        yield running


@pytest.fixture
def client(server: BackgroundServer) -> Iterator[httpx.Client]:
    headers = {"Authorization": f"Bearer {TOKEN}", "Origin": server.url}
    with httpx.Client(base_url=server.url, timeout=120, headers=headers) as http:
        yield http


def get(client: httpx.Client, path: str, **params: Any) -> Any:
    response = client.get(path, params=params)
    assert response.status_code == 200, response.text
    return response.json()


def post(client: httpx.Client, path: str, body: dict[str, Any]) -> Any:
    response = client.post(path, json=body)
    assert response.status_code == 200, response.text
    return response.json()


def entity(client: httpx.Client, name: str) -> dict[str, Any] | None:
    hits = get(client, "/api/search", q=name, kind="entity")["items"]
    return next((h for h in hits if h["name"] == name), None)


def triples_of(client: httpx.Client, node_id: str) -> list[dict[str, Any]]:
    return get(client, "/api/triples", id=node_id, limit=200)["items"]


def test_writes_need_the_token_and_the_explorers_own_origin(server: BackgroundServer, config: Config) -> None:
    body = {"kind": "rename", "target": {"entity": "Hut 8", "name": "Hut Eight"}}
    with httpx.Client(base_url=server.url, timeout=30) as bare:
        assert bare.post("/api/corrections", json=body, headers={"Origin": server.url}).status_code == 401
        auth = {"Authorization": f"Bearer {TOKEN}"}
        cross = bare.post("/api/corrections", json=body, headers={**auth, "Origin": "http://evil.example"})
        assert cross.status_code == 403 and "cross-origin" in cross.json()["detail"]
        assert bare.post("/api/corrections", json=body, headers=auth).status_code == 403  # no Origin at all
        site = bare.post("/api/corrections", json=body, headers={**auth, "Sec-Fetch-Site": "cross-site"})
        assert site.status_code == 403
    assert not corrections_path(config.root).exists()  # nothing refused was written


def test_every_kind_through_the_api_then_undo(client: httpx.Client, config: Config) -> None:
    listing = get(client, "/api/corrections")
    assert listing["write"] is True and listing["items"] == []
    turing = entity(client, "Alan Turing")
    assert turing is not None
    welchman = [t for t in triples_of(client, turing["id"]) if t["subject"]["name"] == "Gordon Welchman"]
    assert welchman

    out = post(client, "/api/corrections", {"kind": "reject", "target": {"id": welchman[0]["id"]},
                                            "reason": "misread"})
    assert out["result"]["how"] == "tables" and out["result"]["applied"] == {"reject": 1}
    assert not [t for t in triples_of(client, turing["id"]) if t["id"] == welchman[0]["id"]]

    baby, mark = entity(client, "Manchester Baby"), entity(client, "Manchester Mark 1")
    assert baby and mark
    post(client, "/api/corrections", {"kind": "merge", "target": {"a": baby["id"], "b": "Manchester Mark 1"}})
    assert entity(client, "Manchester Mark 1") is None
    assert "Manchester Mark 1" in get(client, "/api/node", id=baby["id"])["aliases"]
    merges = get(client, "/api/merges", q="by hand")["items"]
    assert [m["step"] for m in merges] == ["manual"] and merges[0]["canonical_id"] == baby["id"]

    post(client, "/api/corrections", {"kind": "retype", "target": {"entity": "Vassar", "class": "Organization"}})
    assert entity(client, "Vassar")["class"] == "Organization"
    post(client, "/api/corrections", {"kind": "rename", "target": {"entity": "Hut 8", "name": "Hut Eight"}})
    assert entity(client, "Hut Eight") is not None and entity(client, "Hut 8") is None
    post(client, "/api/corrections", {"kind": "add", "target": {
        "subject": turing["id"], "predicate": "bornIn", "object": "Maida Vale Hospital",
        "object_class": "GeographicLocation", "note": "a biography"}})
    added = [t for t in triples_of(client, turing["id"]) if t["object"]["name"] == "Maida Vale Hospital"]
    assert [t["predicate"] for t in added] == ["bornIn"]

    neumann = entity(client, "John von Neumann")
    out = post(client, "/api/corrections", {"kind": "never_merge", "target": {"a": neumann["id"], "b": "von Neumann"}})
    assert out["result"]["how"] == "rebuild"  # fusion runs again to keep them apart
    assert entity(client, "von Neumann") is not None
    assert entity(client, "Manchester Mark 1") is None and entity(client, "Hut Eight") is not None  # still applied

    listing = get(client, "/api/corrections")
    assert [c["kind"] for c in listing["items"]] == ["reject", "merge", "retype", "rename", "add", "never_merge"]
    assert all(c["author"] == "explorer" and not c["stale"] for c in listing["items"])
    merge_id = listing["items"][1]["id"]
    out = post(client, "/api/corrections/undo", {"id": merge_id})
    assert out["what"].startswith("merge") and out["result"]["how"] == "rebuild"
    assert entity(client, "Manchester Mark 1") is not None
    assert [c.kind for c in read_corrections(corrections_path(config.root)).corrections] == [
        "reject", "retype", "rename", "add", "never_merge"]

    bad = client.post("/api/corrections", json={"kind": "retype", "target": {"entity": "Hut Eight"}})
    assert bad.status_code == 400 and "missing class" in bad.json()["detail"]


def test_review_items_are_approved_or_rejected_into_corrections(client: httpx.Client, config: Config) -> None:
    queue = get(client, "/api/review", limit=200)
    assert queue["total"] == len(queue["items"]) > 0
    item = queue["items"][0]
    out = post(client, "/api/review/decide", {"id": item["id"], "approve": False})
    assert out["what"].startswith("never merge")
    assert item["id"] not in {it["id"] for it in get(client, "/api/review", limit=200)["items"]}
    missing = client.post("/api/review/decide", json={"id": item["id"], "approve": True})
    assert missing.status_code == 404
    last = read_corrections(corrections_path(config.root)).corrections[-1]
    assert last.kind == "never_merge" and {last.target["a"], last.target["b"]} == {item["a_id"], item["b_id"]}


def test_read_only_explorer_refuses_writes_and_write_mode_needs_a_token(config: Config) -> None:
    with Engine.open(config) as engine:
        with pytest.raises(ConfigError, match="write mode without a token"):
            create_app(engine, write=True)
        with BackgroundServer(create_app(engine)) as running, httpx.Client(base_url=running.url) as http:
            assert http.get("/api/corrections").json()["write"] is False
            refused = http.post("/api/corrections", headers={"Origin": running.url},
                                json={"kind": "rename", "target": {"entity": "Hut Eight", "name": "x"}})
            assert refused.status_code == 403 and "read-only" in refused.json()["detail"]
    result = CliRunner().invoke(serve, ["--write"], obj={"config_loader": lambda: config})
    assert result.exit_code == 2 and "write mode needs a token" in result.output
