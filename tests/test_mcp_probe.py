"""`kgbuild mcp --allow-build` against a dead model endpoint: the build and remove tools fail with the
CLI's one line (the endpoint probe, kgbuild/llm/probe.py) and leave the project byte-identical, instead
of retrying every chunk's request and writing an empty graph. Over stdio with the SDK's own client."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("milvus_lite")
pytest.importorskip("mcp")

from mcp_session import REPO, SyncClient, allow_build_client, free_port

from kgbuild.build import Builder
from kgbuild.config import load_config

pytestmark = pytest.mark.slow  # an offline build first, then a server over stdio


def tree_bytes(root: Path) -> dict[str, bytes]:
    """Every file under `root` with its bytes (directories as empty entries)."""
    return {str(p.relative_to(root)): (p.read_bytes() if p.is_file() else b"") for p in sorted(root.rglob("*"))}


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A sample document built offline with the default stores; then the config names a model endpoint
    that refuses connections (a port nothing listens on), as a user's would when the server is down."""
    root = tmp_path_factory.mktemp("mcp_probe")
    (root / "corpus").mkdir()
    shutil.copy(REPO / "samples" / "corpus" / "machines" / "eniac.txt", root / "corpus" / "eniac.txt")
    config = root / "kgbuild.yaml"
    config.write_text("workspace: ws\nbuild:\n  workers: 1\n", encoding="utf-8")
    report = asyncio.run(Builder(load_config(config, env={})).arun([root / "corpus"]))
    assert not report.store_error, report.store_error
    (root / "extra").mkdir()
    (root / "extra" / "ada.txt").write_text("Ada Lovelace wrote the first published algorithm.\n", encoding="utf-8")
    config.write_text(f"workspace: ws\nbuild:\n  workers: 1\nllm:\n  base_url: http://127.0.0.1:{free_port()}/v1\n"
                      "  model: m\n  timeout_s: 5\n", encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def mcp(project: Path) -> Iterator[SyncClient]:
    with allow_build_client(project / "kgbuild.yaml") as client:
        yield client


def test_build_and_remove_fail_with_the_probes_line_and_change_nothing(mcp: SyncClient, project: Path) -> None:
    doc_id = mcp.data("retrieve", question="ENIAC", k=1)["chunks"][0]["doc_id"]
    before = tree_bytes(project)
    built = mcp.error("build", paths=["extra/ada.txt"])
    removed = mcp.error("remove", document=doc_id)
    for tool, text in (("build", built), ("remove", removed)):
        assert "\n" not in text
        line = text.removeprefix(f"Error executing tool {tool}: ")  # the SDK's framing of a tool error
        assert line.startswith("llm.base_url: cannot reach the model endpoint http://127.0.0.1:"), line
        assert line.endswith("connection refused (start the server or fix the URL; nothing was read or written)"), line
    assert tree_bytes(project) == before  # no document read, no table, cache or store touched
    # The project still serves what it had.
    assert mcp.data("search_entities", query="ENIAC")["total"] >= 1
