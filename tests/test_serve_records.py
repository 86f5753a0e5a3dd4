"""Issue 28: the explorer names a passage that is a row of a mapped records file by its `file:line`, as
`kgbuild inspect support` does, over HTTP (uvicorn on 127.0.0.1, the real httpx client) against a real
build of KAG's medicine department table (embedded ArcadeDB + Milvus Lite, no model).

Expected values read off the file: HospitalDepartment.csv line 3 is `内科-内分泌科`, so 内分泌科's
record is `HospitalDepartment.csv:3`, its chunk `HospitalDepartment#p00003#0`.
"""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import httpx
import pytest
from shared_data import shared_data_dir
from test_serve_api import get

from kgbuild.build import Builder
from kgbuild.config import ENV_OVERRIDES, default_config_text, load_config
from kgbuild.engine import Engine
from kgbuild.serve.app import create_app
from kgbuild.serve.server import BackgroundServer

pytest.importorskip("milvus_lite")

TABLE = shared_data_dir() / "medicine" / "HospitalDepartment.csv"

pytestmark = [pytest.mark.slow,  # a build that syncs Milvus Lite
              pytest.mark.skipif(not TABLE.is_file(), reason="shared medicine data not present")]


@pytest.fixture(autouse=True)
def no_model_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ENV_OVERRIDES:
        monkeypatch.delenv(name, raising=False)


def test_a_records_row_is_shown_by_its_file_and_line(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    shutil.copy(TABLE, data / TABLE.name)
    # One disease record of the shipped mapping's shape (idx,title,text,alias): its text column is a
    # document of its own, whose passages are the record's too.
    (data / "Disease.csv").write_text("idx,title,text,alias\n1,脂溢性皮炎,脂溢性皮炎是一种常见的皮肤病。,脂溢性湿疹\n",
                                      encoding="utf-8")
    config_file = tmp_path / "kgbuild.yaml"
    config_file.write_text(default_config_text("medicine-demo", "medicine"), encoding="utf-8")
    report = asyncio.run(Builder(load_config(config_file, env={})).arun([data]))
    assert not report.store_error, report.store_error
    with Engine.open(load_config(config_file, env={})) as engine, BackgroundServer(create_app(engine)) as server, \
            httpx.Client(base_url=server.url, timeout=60) as client:
        hits = get(client, "/api/search", q="内分泌科", kind="entity")["items"]
        (dept,) = [h for h in hits if h["name"] == "内分泌科"]
        # The triple's support (the explorer's passage view) and the chunk's own page both say where.
        triples = get(client, "/api/triples", id=dept["id"], limit=200)["items"]
        support = [s for t in triples for s in t["support"] if s["chunk_id"] == "HospitalDepartment#p00003#0"]
        assert support and {s["source"] for s in support} == {"HospitalDepartment.csv:3"}
        chunk = get(client, "/api/node", id="HospitalDepartment#p00003#0")
        assert chunk["source"] == "HospitalDepartment.csv:3" and chunk["title"] == "HospitalDepartment.csv"
        # A record's neighbour is its own line, not this one's.
        assert get(client, "/api/node", id="HospitalDepartment#p00004#0")["source"] == "HospitalDepartment.csv:4"
        # The disease's row and the passage of its text column both name Disease.csv line 2; a text's
        # title stays the record's name.
        hits = get(client, "/api/search", q="脂溢性皮炎", kind="entity")["items"]
        (disease,) = [h for h in hits if h["name"] == "脂溢性皮炎"]
        chunks = get(client, "/api/node", id=disease["id"])["chunk_ids"]
        assert "Disease#p00002#0" in chunks and any(c.startswith("Disease/1#") for c in chunks), chunks
        for chunk_id in chunks:
            page = get(client, "/api/node", id=chunk_id)
            assert page["source"] == "Disease.csv:2", page
        text_page = get(client, "/api/node", id=next(c for c in chunks if c.startswith("Disease/1#")))
        assert text_page["title"] == "脂溢性皮炎"
