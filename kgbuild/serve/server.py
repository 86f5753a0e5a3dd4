"""Running an ASGI app under uvicorn (the explorer, or the MCP server over HTTP): in the foreground
(`kgbuild serve`, `kgbuild mcp --http`) or on a thread (tests)."""

from __future__ import annotations

import socket
import threading
import time
from types import TracebackType

import uvicorn
from starlette.types import ASGIApp


def _config(app: ASGIApp, host: str, port: int, log_level: str) -> uvicorn.Config:
    # One process, one event loop: the engine is opened once and shared by every request.
    return uvicorn.Config(app, host=host, port=port, log_level=log_level, access_log=False, workers=1,
                          server_header=False, proxy_headers=False)


def serve_forever(app: ASGIApp, host: str, port: int, *, log_level: str = "warning") -> None:
    """Serve until interrupted (Ctrl-C or SIGTERM: uvicorn finishes the requests in flight)."""
    uvicorn.Server(_config(app, host, port, log_level)).run()


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        port: int = sock.getsockname()[1]
        return port


class BackgroundServer:
    """The app served on a thread of this process, stopped through its own handle:

        with BackgroundServer(app) as server:
            httpx.get(server.url + "/api/stats")
    """

    def __init__(self, app: ASGIApp, host: str = "127.0.0.1", port: int | None = None,
                 *, startup_seconds: float = 30.0) -> None:
        self.host = host
        self.port = port or free_port(host)
        self.server = uvicorn.Server(_config(app, self.host, self.port, "warning"))
        self.startup_seconds = startup_seconds
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def start(self) -> BackgroundServer:
        # Signal handlers belong to the main thread; uvicorn installs none when run off it.
        self._thread = threading.Thread(target=self.server.run, name=f"kgbuild-serve-{self.port}", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + self.startup_seconds
        while not self.server.started:
            if not self._thread.is_alive():
                raise RuntimeError(f"the explorer did not start on {self.url}")
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"the explorer did not start on {self.url} within {self.startup_seconds} s")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)
            self._thread = None

    def __enter__(self) -> BackgroundServer:
        return self.start()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()
