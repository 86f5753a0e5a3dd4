"""The read-only tools: the explorer's queries and the engine's retrieve / answer, as MCP tools.

Each tool is a plain function over the `Project` (kgbuild/mcp/project.py) whose typed parameters give
its input schema and whose return record gives its output schema; its docstring is the description an
agent reads. Lists are paged (`offset`, `limit` at most MAX_PAGE, `next_offset` None on the last page)
and expansions capped, with the explorer's own caps, so no call returns the whole graph. The SDK runs
these synchronous functions on worker threads; the explorer serialises what must not run at once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import Field

from kgbuild.health import GraphHealth
from kgbuild.mcp.failures import tool_errors
from kgbuild.mcp.project import Project
from kgbuild.mcp.records import GraphStats, SchemaView, TripleRow
from kgbuild.mcp.schema_view import schema_view
from kgbuild.mcp.triples import find_triples
from kgbuild.query.types import Answer, RetrievalResult
from kgbuild.schema import resolve_schema
from kgbuild.serve.data import MAX_EDGES, MAX_NODES
from kgbuild.serve.records import (
    MAX_PAGE,
    Neighbourhood,
    NodeDetail,
    Page,
    SearchHit,
    StrategyView,
    TripleView,
)

Offset = Annotated[int, Field(ge=0, le=10_000_000, description="items to skip (a page's next_offset)")]
Limit = Annotated[int, Field(ge=1, le=MAX_PAGE, description=f"items per page, at most {MAX_PAGE}")]
NodeId = Annotated[str, Field(min_length=1, max_length=1000,
                              description="a node id from search_entities, triples or neighbourhood")]
Question = Annotated[str, Field(min_length=1, max_length=2000, description="the question, in natural language")]
TopK = Annotated[int | None, Field(ge=1, le=20, description="passages to read (default: the project's query.top_k)")]
NameFilter = Annotated[str | None, Field(max_length=1000,
                                         description="a node id, or an exact name or alias (any case)")]


def read_tools(project: Project) -> list[Callable[..., Any]]:
    """The read-only tool functions over `project`, in the order an agent meets them."""

    def search_entities(
        query: Annotated[str, Field(max_length=200, description="a name or alias, any case; empty lists the "
                                                                "most connected nodes")] = "",
        node_class: Annotated[str | None, Field(max_length=200, description="only this class, e.g. Person (see "
                                                                           "schema or stats)")] = None,
        kind: Annotated[Literal["entity", "concept", "event"] | None, Field(description="only this kind")] = None,
        limit: Limit = 20, offset: Offset = 0,
    ) -> Page[SearchHit]:
        """Find entities, concepts and events by name or alias: exact names first, then names starting with
        the query, then names containing it; ties by degree. Returns a page of hits with id, name, kind,
        class, the name or alias matched and the degree."""
        with tool_errors(), project.reading() as explorer:
            return Page[SearchHit](**explorer.index().search(query, kind, node_class, offset, limit))

    def get_entity(id: NodeId) -> NodeDetail:
        """One node: its class, description, summary, aliases, properties, degree, supporting chunk ids
        and its concept chain (belongTo, then isA upward). A chunk id gives the passage's text."""
        with tool_errors(), project.reading() as explorer:
            return explorer.index().detail(id)

    def neighbourhood(
        id: NodeId,
        hops: Annotated[int, Field(ge=1, le=2, description="1 or 2")] = 1,
        limit: Annotated[int, Field(ge=1, le=MAX_NODES, description=f"most nodes, at most {MAX_NODES}")] = 30,
        max_edges: Annotated[int, Field(ge=1, le=MAX_EDGES, description=f"most edges, at most {MAX_EDGES}")] = 60,
        mentions: Annotated[bool, Field(description="also the chunks that mention the nodes")] = False,
    ) -> Neighbourhood:
        """The nodes within `hops` of a node over relations and event roles, and the edges among them, each
        edge with its predicate and hypernode qualifiers (dates, places of the fact). `truncated` says the
        caps cut the expansion."""
        with tool_errors(), project.reading() as explorer:
            return explorer.index().neighbourhood(id, hops, limit, max_edges, mentions)

    def triples(
        subject: NameFilter = None, predicate: Annotated[str | None, Field(max_length=200, description=(
            "the predicate, e.g. bornIn (any case)"))] = None,
        object: NameFilter = None,
        limit: Limit = 20, offset: Offset = 0,
    ) -> Page[TripleRow]:
        """Relations and event roles matching a pattern: any of subject, predicate and object given (none:
        every triple, paged). Each triple has its id, the two ends, qualifiers and supporting chunk ids;
        supporting_passages(id) gives the passages and the sentence stating it."""
        with tool_errors(), project.reading() as explorer:
            return Page[TripleRow](**find_triples(explorer.index(), subject, predicate, object, offset, limit))

    def supporting_passages(
        triple_id: Annotated[str, Field(min_length=1, max_length=1000, description="a triple id from triples, "
                                                                                  "neighbourhood or answer")],
    ) -> TripleView:
        """The passages that support a triple (up to 50), each with its document, its text and the character
        span [start, end) of the sentence stating the triple and of the ends named in it."""
        with tool_errors(), project.reading() as explorer:
            return explorer.index().triple(triple_id)

    def retrieve(
        question: Question, k: TopK = None,
        mode: Annotated[Literal["bm25", "dense", "hybrid"], Field(description="how passages are found")] = "hybrid",
    ) -> RetrievalResult:
        """Context only, for your own model to answer from: the top passages (with scores), the triples of
        the entities the question names (with chunk ids) and those linked entities. No model is called."""
        with tool_errors(), project.reading() as explorer:
            return explorer.retrieve(question, k, mode)

    def answer(
        question: Question,
        strategy: Annotated[str, Field(max_length=100, description="a name from strategies(); auto: the solver "
                                                                    "with a model, else hybrid")] = "auto",
        k: TopK = None,
    ) -> Answer:
        """Answer with one of the project's strategies: the answer, its citations (chunk id and quoted text),
        the triples and facts it used, and its trace step by step."""
        with tool_errors(), project.reading() as explorer:
            return explorer.query(question, strategy, k)

    def strategies() -> list[StrategyView]:
        """The registered answer strategies, what each does, and whether it can run here (and why not)."""
        with tool_errors(), project.reading() as explorer:
            return explorer.strategies()

    def schema() -> SchemaView:
        """The project's domain schema: entity, event and concept classes and relations, with descriptions.
        The full YAML is the resource kgbuild://schema."""
        with tool_errors():
            return schema_view(resolve_schema(project.config.schema_location()))

    def stats() -> GraphStats:
        """Node and edge counts by kind, the searchable classes with counts, the graph's fingerprint and
        whether a model is configured (strategies that need one can run)."""
        with tool_errors(), project.reading() as explorer:
            index = explorer.index()
            return GraphStats(**index.stats(explorer.query_model()).model_dump(), classes=index.class_counts())

    def health() -> GraphHealth:
        """How much of the documents the graph relates: relations per entity, the entities in no relation,
        event or qualifier (by class, the most-mentioned first, with ids for get_entity), documents with
        no relation, class shares, components, and the warnings a build prints. Read it before trusting
        a missing fact: an entity in no relation is only linked to its passages."""
        with tool_errors(), project.reading() as explorer:
            return explorer.health()

    return [search_entities, get_entity, neighbourhood, triples, supporting_passages, retrieve, answer,
            strategies, schema, stats, health]
