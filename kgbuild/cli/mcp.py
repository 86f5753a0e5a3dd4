"""`kgbuild mcp`: the project as a Model Context Protocol server for agents (kgbuild/mcp, docs/mcp.md).

Registered on the main group by kgbuild/cli/root.py; the engine comes from kgbuild/cli/common.open_engine,
opened once before serving (a project that cannot open fails in one line, before any protocol) and
again after each build that `--allow-build` permits.
"""

from __future__ import annotations

from contextlib import nullcontext

import click

from kgbuild.cli.common import config_of, fail_cleanly, open_engine
from kgbuild.errors import ConfigError
from kgbuild.serve.security import TOKEN_ENV

__all__ = ["mcp"]


@click.command("mcp")
@click.option("--http", "over_http", is_flag=True,
              help="serve streamable HTTP at http://HOST:PORT/mcp instead of stdio")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="with --http: address to bind; anything but loopback needs --token")
@click.option("--port", type=click.IntRange(1, 65535), default=8322, show_default=True, help="with --http: port")
@click.option("--token", envvar=TOKEN_ENV, default=None,
              help=f"with --http: require `Authorization: Bearer <token>` on every request; env {TOKEN_ENV}")
@click.option("--allow-build", is_flag=True,
              help="add the build(paths) and remove(document) tools, which change the project")
@click.pass_context
@fail_cleanly
def mcp(ctx: click.Context, over_http: bool, host: str, port: int, token: str | None, allow_build: bool) -> None:
    """Serve the built graph to agents over MCP: search, entities, neighbourhoods, triples with their
    passages, retrieval, answers with any strategy, the schema and the build report. Read-only unless
    --allow-build. Over stdio (the default) stdout carries only protocol messages; logs go to stderr."""
    from kgbuild.serve.security import check_bind

    token = (token or "").strip() or None
    if not over_http:
        given = [f"--{name}" for name in ("host", "port")
                 if ctx.get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE]
        if given:
            raise ConfigError(given[0], "applies to --http only", "add --http, or drop it to serve on stdio")
    else:
        check_bind(host, token, what="the MCP server")  # before anything opens: a refused bind starts nothing
    from kgbuild.mcp.project import Project
    from kgbuild.mcp.server import MCP_PATH, create_server, run_http, run_stdio
    from kgbuild.mcp.stdout_guard import stdout_to_stderr, stdout_to_stderr_for_good

    project = Project(config_of(ctx), lambda: open_engine(ctx))
    try:
        with nullcontext() if over_http else stdout_to_stderr():
            project.open()  # the graph is loaded now, not on the first call
        server = create_server(project, allow_build=allow_build)
        if over_http:
            shown = f"[{host}]" if ":" in host else host
            click.echo(f"kgbuild MCP server on http://{shown}:{port}{MCP_PATH}"
                       f"{' (token required)' if token else ''}  (Ctrl-C stops)", err=True)
            run_http(server, host, port, token)
        else:
            try:
                run_stdio(server)
            finally:
                stdout_to_stderr_for_good()
    finally:
        project.close()
