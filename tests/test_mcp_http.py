"""`kgbuild mcp --http`: the streamable-HTTP transport with the SDK's own client, on a free loopback
port of a server started as a subprocess on the samples build (stopped through its own handle), and
the explorer's rules in front of it: loopback Host headers only without a token, the token on every
request with one, and no non-loopback bind without a token.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

pytest.importorskip("milvus_lite")
pytest.importorskip("mcp")

from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp_session import HttpServer, SyncClient

from kgbuild.cli import main
from kgbuild.config import ENV_OVERRIDES

pytestmark = pytest.mark.server  # `kgbuild mcp --http` as a subprocess

INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                         "clientInfo": {"name": "raw", "version": "0"}}}
ACCEPT = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
TOKEN = "s3cret-token"


@pytest.fixture(autouse=True)
def no_model_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [*ENV_OVERRIDES, "KGBUILD_SERVE_TOKEN"]:
        monkeypatch.delenv(name, raising=False)


def with_token(url: str, token: str) -> Any:
    return streamable_http_client(url, http_client=create_mcp_http_client(headers={"Authorization": f"Bearer {token}"}))


# Class-scoped: one server at a time (Milvus Lite admits one process per database file), each stopped
# when its class is done.
@pytest.fixture(scope="class")
def open_server(samples_project: Path) -> Iterator[HttpServer]:
    server = HttpServer(samples_project / "kgbuild.yaml")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="class")
def token_server(samples_project: Path) -> Iterator[HttpServer]:
    server = HttpServer(samples_project / "kgbuild.yaml", "--token", TOKEN)
    try:
        yield server
    finally:
        server.stop()


class TestLoopbackWithoutToken:
    @pytest.fixture
    def server(self, open_server: HttpServer) -> HttpServer:
        return open_server

    def test_tools_over_http(self, server: HttpServer) -> None:
        client = SyncClient(server.url)
        try:
            names = {t.name for t in client.run(client.client.list_tools).tools}
            assert "retrieve" in names and "build" not in names
            hits = client.data("search_entities", query="Alan Turing", limit=1)["items"]
            assert hits[0]["name"] == "Alan Turing"
            context = client.data("retrieve", question="Where was Alan Turing born?", k=3)
            assert len(context["chunks"]) == 3
            assert "ent_nope" in client.error("get_entity", id="ent_nope")
        finally:
            client.close()

    def test_a_foreign_host_header_is_refused(self, server: HttpServer) -> None:
        refused = httpx.post(server.url, json=INITIALIZE, headers={**ACCEPT, "Host": "evil.example:80"}, timeout=60)
        assert refused.status_code == 421
        allowed = httpx.post(server.url, json=INITIALIZE, headers=ACCEPT, timeout=60)
        assert allowed.status_code == 200 and allowed.headers["x-frame-options"] == "DENY"

    def test_concurrent_clients_get_answers_and_no_errors(self, server: HttpServer) -> None:
        """A short, bounded version of bench/mcp.py's load check (which reports the memory figures)."""

        async def one(n: int) -> int:
            done = 0
            async with Client(server.url, cache=None) as client:
                for _ in range(4):
                    for name, arguments in (("search_entities", {"query": "tur", "limit": 5}),
                                            ("triples", {"subject": "Alan Turing"}),
                                            ("retrieve", {"question": f"Who worked at Bletchley Park? {n}", "k": 3})):
                        result = await client.call_tool(name, arguments)
                        assert not result.is_error, result.content
                        done += 1
            return done

        async def all_of_them() -> list[int]:
            return await asyncio.gather(*(one(n) for n in range(4)))

        assert asyncio.run(all_of_them()) == [12, 12, 12, 12]
        assert server.proc.poll() is None


class TestToken:
    @pytest.fixture
    def server(self, token_server: HttpServer) -> HttpServer:
        return token_server

    def test_every_request_needs_the_token(self, server: HttpServer) -> None:
        for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": f"Basic {TOKEN}"}):
            response = httpx.post(server.url, json=INITIALIZE, headers={**ACCEPT, **headers}, timeout=60)
            assert response.status_code == 401, headers
        client = SyncClient(with_token(server.url, TOKEN))
        try:
            assert client.data("stats")["nodes"]["entity"] > 100
        finally:
            client.close()

    def test_the_sdk_client_without_the_token_cannot_connect(self, server: HttpServer) -> None:
        with pytest.raises(BaseException):  # noqa: B017 - the SDK raises its own group of HTTP errors
            SyncClient(with_token(server.url, "wrong"), timeout=120)


def test_a_non_loopback_bind_without_a_token_is_refused_in_one_line(samples_project: Path) -> None:
    result = CliRunner().invoke(main, ["-c", str(samples_project / "kgbuild.yaml"), "mcp", "--http",
                                       "--host", "0.0.0.0"])
    assert result.exit_code == 2
    assert result.output.strip() == ("error: --host: binding 0.0.0.0 exposes the MCP server beyond this machine "
                                     "without a token (pass --token or set KGBUILD_SERVE_TOKEN, or bind 127.0.0.1)")
    stray = CliRunner().invoke(main, ["-c", str(samples_project / "kgbuild.yaml"), "mcp", "--port", "9"])
    assert stray.exit_code == 2 and "--port: applies to --http only" in stray.output
