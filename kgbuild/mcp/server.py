"""The MCP server over a project: the tools, resources and prompt on the SDK's `MCPServer`, and the two
transports, stdio and streamable HTTP.

    server = create_server(project, allow_build=False)
    run_stdio(server)                                   # `kgbuild mcp`
    run_http(server, "127.0.0.1", 8322, token=None)     # `kgbuild mcp --http`

Over HTTP the explorer's guard (kgbuild/serve/security.py) sits in front of the MCP endpoint `/mcp`:
loopback Host headers only unless a token is set, the token on every request when it is. The SDK's
own Host check is turned off in its favour, so the two rules cannot disagree.
"""

from __future__ import annotations

from mcp.server.mcpserver import MCPServer
from mcp.server.transport_security import TransportSecuritySettings
from starlette.types import ASGIApp

from kgbuild.mcp.build_tools import build_tools
from kgbuild.mcp.failures import ArgumentErrors
from kgbuild.mcp.project import Project
from kgbuild.mcp.publish import publish
from kgbuild.mcp.read_tools import read_tools
from kgbuild.mcp.resources import add_resources
from kgbuild.serve.security import Guard, is_loopback

MCP_PATH = "/mcp"
INSTRUCTIONS = """\
A knowledge graph built by kgbuild from a document corpus: entities, concepts and events joined by
relations and event roles, each pointing back to the passages (chunks) that state it. Find nodes with
search_entities, read one with get_entity, walk with neighbourhood and triples; get context for your
own answer with retrieve, and the stating sentence of a triple with supporting_passages; or let the
project answer with answer(question, strategy). Lists are paged: pass a page's next_offset as offset.
The prompt grounded_answer says how to answer with citations."""


def create_server(project: Project, *, allow_build: bool = False) -> MCPServer:
    """The server over `project` (opened by the caller, who closes it). Without `allow_build`, the build
    and remove tools do not exist: they are neither listed nor callable."""
    from kgbuild import __version__

    tools = [publish(fn) for fn in read_tools(project)]
    if allow_build:
        tools += [publish(fn, annotations) for fn, annotations in build_tools(project)]
    # WARNING: the SDK logs every call at INFO; on stderr, but the operator wants problems, not traffic.
    server: MCPServer = MCPServer("kgbuild", version=__version__, instructions=INSTRUCTIONS, tools=tools,
                                  log_level="WARNING", middleware=[ArgumentErrors({t.name: t for t in tools})])
    add_resources(server, project)
    return server


def http_app(server: MCPServer, host: str, token: str | None) -> ASGIApp:
    """The streamable-HTTP app behind the explorer's guard (see the module docstring)."""
    app = server.streamable_http_app(streamable_http_path=MCP_PATH, host=host,
                                     transport_security=TransportSecuritySettings(
                                         enable_dns_rebinding_protection=False))
    return Guard(app, token=token, loopback_only=is_loopback(host) and token is None)


def run_stdio(server: MCPServer) -> None:
    """Serve on stdin/stdout until the client closes them. While serving, the SDK points file descriptor
    1 at stderr, so a stray print (ours, a library's, a child process's) cannot corrupt the protocol."""
    server.run("stdio")


def run_http(server: MCPServer, host: str, port: int, token: str | None) -> None:
    from kgbuild.serve.server import serve_forever

    serve_forever(http_app(server, host, token), host, port)
