"""A tool function -> an MCP `Tool` whose published output schema is the JSON the tool really sends.

The SDK derives a tool's output schema in pydantic's validation mode, but sends the result serialised
by alias: a record whose field is renamed on output (the explorer's `node_class`, sent as `class`)
would be described under one name and sent under the other. The schema is therefore published in
serialisation mode, which names what is on the wire.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mcp.server.mcpserver.tools import Tool
from mcp.types import ToolAnnotations
from pydantic import TypeAdapter

READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)


def publish(fn: Callable[..., Any], annotations: ToolAnnotations = READ_ONLY) -> Tool:
    """The tool named after `fn`, described by its docstring, its input schema from its typed parameters."""
    tool = Tool.from_function(fn, annotations=annotations, structured_output=True)
    model = tool.fn_metadata.output_model
    if model is not None:
        schema = TypeAdapter(model).json_schema(mode="serialization")
        tool.fn_metadata.output_schema = _inline_root(schema)
    return tool


def _inline_root(schema: dict[str, Any]) -> dict[str, Any]:
    """MCP wants an object at the root of an output schema, not a bare `$ref` into `$defs` (which
    pydantic emits for a model that refers to itself)."""
    ref = schema.get("$ref")
    if not isinstance(ref, str) or not ref.startswith("#/$defs/"):
        return schema
    definition: dict[str, Any] = schema["$defs"][ref.removeprefix("#/$defs/")]
    return {**definition, **{k: v for k, v in schema.items() if k != "$ref"}}
