"""`kgbuild serve`: the web explorer and JSON API over the project's query engine (kgbuild/serve, docs/serve.md).

Registered on the main group by kgbuild/cli/root.py; the engine comes from kgbuild/cli/common.open_engine,
opened once for the life of the server.
"""

from __future__ import annotations

import click

from kgbuild.cli.common import fail_cleanly, open_engine
from kgbuild.serve.security import TOKEN_ENV, check_bind, is_loopback

__all__ = ["serve"]


@click.command("serve")
@click.option("--port", type=click.IntRange(1, 65535), default=8321, show_default=True, help="port to listen on")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="address to bind; anything but loopback needs --token")
@click.option("--token", envvar=TOKEN_ENV, default=None,
              help=f"require this token on every request (Authorization: Bearer, or open /?token=… once); "
                   f"env {TOKEN_ENV}")
@click.pass_context
@fail_cleanly
def serve(ctx: click.Context, port: int, host: str, token: str | None) -> None:
    """Explore the built graph in a browser: search, neighbourhoods, triples with their source sentences,
    merges, the build report, and queries with any strategy. Read-only."""
    token = (token or "").strip() or None
    check_bind(host, token)  # before anything opens: a refused bind starts nothing
    from kgbuild.serve.app import create_app
    from kgbuild.serve.server import serve_forever

    with open_engine(ctx) as engine:
        # Bound to loopback, the Host check stays on with a token too: a rebound DNS name is refused either way.
        app = create_app(engine, token=token, loopback_only=is_loopback(host))
        app.state.explorer.index()  # load the graph now, not on the first request
        shown = f"[{host}]" if ":" in host else host
        suffix = "?token=…" if token else ""
        click.echo(f"kgbuild explorer on http://{shown}:{port}/{suffix}  (API docs: /docs; Ctrl-C stops)", err=True)
        serve_forever(app, host, port)
