"""An MCP client of the official SDK (`mcp.Client`) held open on an event loop of its own thread, so that
synchronous tests of one module share one server (a subprocess over stdio, or one over HTTP) instead of
starting one per test; and how to start `kgbuild mcp` for them."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from mcp import Client, StdioServerParameters
from mcp.types import CallToolResult

from kgbuild.config import ENV_OVERRIDES

REPO = Path(__file__).resolve().parents[1]
T = TypeVar("T")


def stdio_params(config: Path, *extra: str) -> StdioServerParameters:
    """`python -m kgbuild -c CONFIG mcp ...` with this checkout first on the import path; the SDK passes
    only a safe set of variables to the child (no model settings from this environment)."""
    return StdioServerParameters(command=sys.executable, args=["-m", "kgbuild", "-c", str(config), "mcp", *extra],
                                 env={"PYTHONPATH": str(REPO)}, cwd=str(config.parent))


class SyncClient:
    """`mcp.Client(server)` entered on a background loop; `tool(name, **arguments)` calls a tool."""

    def __init__(self, server: Any, *, timeout: float = 300.0) -> None:
        self.timeout = timeout
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="mcp-test-client", daemon=True)
        self._thread.start()
        self._ready: Future[Client] = Future()
        self._stop: asyncio.Event | None = None
        self._main = asyncio.run_coroutine_threadsafe(self._hold(server), self._loop)
        self.client = self._ready.result(timeout=timeout)

    async def _hold(self, server: Any) -> None:
        # The client's context is entered and left by this one task, as anyio's cancel scopes require.
        self._stop = asyncio.Event()
        try:
            async with Client(server, cache=None) as client:
                self._ready.set_result(client)
                await self._stop.wait()
        except BaseException as exc:
            if not self._ready.done():
                self._ready.set_exception(exc)
            raise

    def run(self, make: Callable[[], Awaitable[T]]) -> T:
        async def wrapped() -> T:
            return await make()

        return asyncio.run_coroutine_threadsafe(wrapped(), self._loop).result(timeout=self.timeout)

    def tool(self, name: str, **arguments: Any) -> CallToolResult:
        result = self.run(lambda: self.client.call_tool(name, arguments))
        assert isinstance(result, CallToolResult)
        return result

    def data(self, name: str, **arguments: Any) -> Any:
        """The structured result of a call that must succeed."""
        result = self.tool(name, **arguments)
        assert not result.is_error, result.content
        assert result.structured_content is not None
        return result.structured_content

    def error(self, name: str, **arguments: Any) -> str:
        """The one text of a call that must fail as a tool error."""
        result = self.tool(name, **arguments)
        assert result.is_error, result.structured_content
        text = result.content[0].text  # type: ignore[union-attr]
        assert isinstance(text, str)
        return text

    def close(self) -> None:
        if self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        try:
            self._main.result(timeout=60)
        finally:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=10)
            self._loop.close()


@contextmanager
def allow_build_client(config: Path) -> Iterator[SyncClient]:
    """`kgbuild -c CONFIG mcp --allow-build` over stdio, held for a module's tests, then closed."""
    client = SyncClient(stdio_params(config, "--allow-build"))
    try:
        yield client
    finally:
        client.close()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class HttpServer:
    """`kgbuild mcp --http` as a subprocess on a free loopback port, stopped through its own handle."""

    def __init__(self, config: Path, *extra: str, startup_seconds: float = 180.0) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/mcp"
        self.log = tempfile.TemporaryFile("w+")  # noqa: SIM115 - the server's stderr for its whole life
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        for name in [*ENV_OVERRIDES, "KGBUILD_SERVE_TOKEN"]:  # no model, no token from this environment
            env.pop(name, None)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "kgbuild", "-c", str(config), "mcp", "--http", "--port", str(self.port), *extra],
            cwd=config.parent, env=env, stdout=subprocess.DEVNULL, stderr=self.log, text=True)
        deadline = time.monotonic() + startup_seconds
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"kgbuild mcp --http exited {self.proc.returncode}: {self.stderr()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"kgbuild mcp --http did not listen on {self.port}") from None
                time.sleep(0.2)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=30)

    def stderr(self) -> str:
        self.log.seek(0)
        return self.log.read()
