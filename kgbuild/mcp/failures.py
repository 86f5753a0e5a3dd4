"""Failures as MCP tool errors: the tool call returns `isError` with the one line the CLI would print.

A user mistake (an unknown id, an untrained or unknown strategy, a store that is not there) reaches the
agent as text it can act on; the SDK turns a bad argument (a limit over the cap, a missing question)
into a tool error itself. Anything else is a bug: the SDK logs its traceback on stderr and tells the
agent only that the tool failed.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.tools import Tool
from mcp.types import CallToolResult, TextContent
from pydantic import ValidationError

from kgbuild.errors import KgbuildError
from kgbuild.serve.data import NotFound


@contextmanager
def tool_errors() -> Iterator[None]:
    try:
        yield
    except NotFound as exc:
        raise ToolError(str(exc.args[0]) if exc.args else str(exc)) from exc
    except KgbuildError as exc:
        raise ToolError(exc.line()) from exc


class ArgumentErrors:
    """Server middleware: a tool call whose arguments fail the tool's input schema gets one line per
    problem ("limit: Input should be less than or equal to 200") instead of pydantic's multi-line dump.

    The SDK validates the arguments before the tool runs and reports a failure as a tool error with the
    ValidationError's text; this validates the same raw arguments against the same model again, only
    when the call failed, and replaces the text with the errors' fields and messages.
    """

    def __init__(self, tools: Mapping[str, Tool]) -> None:
        self.tools = dict(tools)

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        result = await call_next(ctx)
        # The chain hands back the wire form (a dict) or, from other layers, the result model.
        failed = result.is_error if isinstance(result, CallToolResult) else (
            isinstance(result, dict) and result.get("isError") is True)
        if ctx.method != "tools/call" or not failed:
            return result
        params = ctx.params or {}
        tool = self.tools.get(str(params.get("name")))
        arguments = params.get("arguments") or {}
        if tool is None or not isinstance(arguments, Mapping):
            return result
        try:
            tool.fn_metadata.arg_model.model_validate(tool.fn_metadata.pre_parse_json(dict(arguments)))
        except ValidationError as exc:
            content = [TextContent(type="text", text=argument_line(exc))]
            if isinstance(result, CallToolResult):
                return result.model_copy(update={"content": content})
            assert isinstance(result, dict)
            return {**result, "content": [c.model_dump(mode="json", by_alias=True, exclude_none=True) for c in content]}
        return result


def argument_line(exc: ValidationError) -> str:
    problems = []
    for error in exc.errors(include_url=False):
        where = ".".join(str(part) for part in error["loc"]) or "arguments"
        problems.append(f"{where}: {error['msg']}")
    return "; ".join(problems) + " (see the tool's input schema)"
