"""The explorer's web app: a read-only JSON API over an opened Engine, and the single-page app that uses it.

    app = create_app(engine)                     # loopback only, no token
    app = create_app(engine, token="s3cret")     # every request must carry the token

Endpoints (all GET but the query; lists paginated with offset/limit, limit <= 200):
    /api/stats, /api/classes, /api/search, /api/node, /api/neighbourhood, /api/triples, /api/triple,
    /api/merges, /api/report, /api/strategies, POST /api/query
The OpenAPI document is /openapi.json and its browsable form /docs (Swagger UI, vendored).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import FastAPI, HTTPException, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from kgbuild.errors import ConfigError, KgbuildError
from kgbuild.health import GraphHealth
from kgbuild.serve.data import MAX_EDGES, MAX_NODES, Explorer, NotFound
from kgbuild.serve.errors import clip, validation_error
from kgbuild.serve.records import (
    MAX_PAGE,
    ClassCount,
    MergeView,
    Neighbourhood,
    NodeDetail,
    NodeKindName,
    Page,
    QueryRequest,
    QueryResult,
    SearchHit,
    Stats,
    StrategyView,
    TripleView,
)
from kgbuild.serve.security import Guard, RequestLimits

if TYPE_CHECKING:
    from kgbuild.engine import Engine

STATIC = Path(__file__).parent / "static"

Offset = Annotated[int, Query(ge=0, le=10_000_000, description="items to skip")]
Limit = Annotated[int, Query(ge=1, le=MAX_PAGE, description=f"items per page, at most {MAX_PAGE}")]
NodeId = Annotated[str, Query(min_length=1, max_length=1000, description="a node id (entity, concept, event, chunk)")]


def create_app(engine: Engine, *, token: str | None = None, loopback_only: bool = True,
               limits: RequestLimits | None = None, write: bool = False) -> FastAPI:
    """The app over `engine` (opened by the caller, who closes it). `token`: required on every request;
    `loopback_only`: refuse requests whose Host is not a loopback name (bound to 127.0.0.1);
    `limits`: the largest request body and how long its bytes may take to arrive; `write`: accept
    corrections (`serve/curation.py`), which needs a token."""
    from kgbuild.serve.curation import curation_routes

    if write and not token:
        raise ConfigError("--write", "write mode without a token", "pass --token or set KGBUILD_SERVE_TOKEN")
    from kgbuild import __version__

    explorer = Explorer(engine)
    app = FastAPI(title="kgbuild explorer", version=__version__, docs_url=None, redoc_url=None,
                  description="Read-only API over a kgbuild project: search, nodes, neighbourhoods, triples with "
                              "their supporting sentences, fusion merges, the build report, and queries.")
    app.state.explorer = explorer
    app.add_middleware(Guard, token=token, loopback_only=loopback_only, limits=limits or RequestLimits())

    app.add_exception_handler(RequestValidationError, validation_error)

    @app.exception_handler(NotFound)
    async def not_found(_: Request, exc: NotFound) -> JSONResponse:
        return JSONResponse({"detail": clip(str(exc))}, status_code=404)

    @app.exception_handler(KgbuildError)
    async def user_error(_: Request, exc: KgbuildError) -> JSONResponse:
        return JSONResponse({"detail": clip(exc.line())}, status_code=400)

    # ---------------------------------------------------------------- pages

    # HEAD as well as GET: `curl -I`, link checkers and uptime probes ask for the headers only (uvicorn
    # sends no body to a HEAD). /static and /openapi.json are Starlette routes, which answer HEAD already.
    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    @app.api_route("/docs", methods=["GET", "HEAD"], include_in_schema=False)
    def docs() -> FileResponse:
        return FileResponse(STATIC / "docs.html", media_type="text/html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # ---------------------------------------------------------------- API

    @app.get("/api/stats", response_model=Stats, tags=["graph"])
    def stats() -> Stats:
        """Node and edge counts by kind, the graph's fingerprint, whether a model is configured."""
        return explorer.index().stats(explorer.query_model())

    @app.get("/api/classes", response_model=list[ClassCount], tags=["graph"])
    def classes() -> list[ClassCount]:
        """The kinds and classes of searchable nodes, with counts (for the search filter)."""
        return explorer.index().class_counts()

    @app.get("/api/search", response_model=Page[SearchHit], tags=["graph"])
    def search(q: Annotated[str, Query(max_length=200, description="name or alias, any case; empty: browse")] = "",
               kind: Annotated[NodeKindName | None, Query(description="entity, concept or event")] = None,
               cls: Annotated[str | None, Query(alias="class", max_length=200, description="spg class")] = None,
               offset: Offset = 0, limit: Limit = 20) -> dict[str, Any]:
        """Entities, concepts and events whose name or an alias contains `q`: exact names first, then
        prefixes, then word starts, then anywhere; ties by degree."""
        return explorer.index().search(q, kind, cls, offset, limit)

    @app.get("/api/node", response_model=NodeDetail, tags=["graph"])
    def node(id: NodeId) -> NodeDetail:
        """A node: class, description, aliases, properties, supporting chunks and its concept chain
        (belongTo, then isA upward)."""
        return explorer.index().detail(id)

    @app.get("/api/neighbourhood", response_model=Neighbourhood, tags=["graph"])
    def neighbourhood(id: NodeId, hops: Annotated[int, Query(ge=1, le=2)] = 1,
                      max_nodes: Annotated[int, Query(ge=1, le=MAX_NODES)] = 60,
                      max_edges: Annotated[int, Query(ge=1, le=MAX_EDGES)] = 150,
                      mentions: Annotated[bool, Query(description="include chunks that mention the nodes")] = False,
                      ) -> Neighbourhood:
        """Nodes within `hops` over relations and event roles, capped; `truncated` says the caps cut it.
        Edges carry predicate, kind and hypernode qualifiers."""
        return explorer.index().neighbourhood(id, hops, max_nodes, max_edges, mentions)

    @app.get("/api/triples", response_model=Page[TripleView], tags=["graph"])
    def triples(id: NodeId, offset: Offset = 0, limit: Limit = 20) -> dict[str, Any]:
        """The node's relations and event roles, each with up to 5 supporting chunks and the span of
        the sentence stating it."""
        return explorer.index().triples(id, offset, limit)

    @app.get("/api/triple", response_model=TripleView, tags=["graph"])
    def triple(id: Annotated[str, Query(min_length=1, max_length=1000, description="a relation or role id")],
               ) -> TripleView:
        """One triple with up to 50 supporting chunks."""
        return explorer.index().triple(id)

    @app.get("/api/merges", response_model=Page[MergeView], tags=["build"])
    def merges(q: Annotated[str, Query(max_length=200)] = "", offset: Offset = 0,
               limit: Limit = 50) -> dict[str, Any]:
        """What fusion merged: the surviving entity, the ids folded into it, the step and its reason."""
        return explorer.merges(q, offset, limit)

    @app.get("/api/report", tags=["build"])
    def report() -> dict[str, Any]:
        """The latest build report (kgbuild/report.py BuildReport as JSON)."""
        found = explorer.report()
        if found is None:
            raise HTTPException(404, "no build report in this workspace")
        return found

    @app.get("/api/health", response_model=GraphHealth, tags=["build"])
    def health() -> GraphHealth:
        """How much of the text the graph relates (kgbuild/health.py, `kgbuild inspect health`):
        relations per entity, the entities in no relation (the most-mentioned first), documents with
        no relation, class shares, components, and the warnings a build prints."""
        return explorer.health()

    @app.get("/api/strategies", response_model=list[StrategyView], tags=["query"])
    def strategies() -> list[StrategyView]:
        """The registered strategies and whether each can run here."""
        return explorer.strategies()

    @app.post("/api/query", tags=["query"])
    def query(body: QueryRequest) -> QueryResult:
        """Answer a question with a registered strategy (`auto`: the solver with a model, else hybrid).
        Returns the Answer: answer, citations, chunks, triples, facts and the trace step by step, and
        `labels`: the node and edge ids in the trace, in words."""
        return explorer.query(body.question, body.strategy, body.k)

    app.include_router(curation_routes(engine, write=write))
    return app
