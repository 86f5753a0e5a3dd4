"""The graph as JSON lines: one file, every node first, then every edge.

    {"kind": "node", "id": ..., "labels": ["Entity", "Person"], "properties": {...}}
    {"kind": "edge", "id": ..., "type": "BORN_IN", "source": ..., "target": ..., "properties": {...}}

One file rather than nodes.jsonl + edges.jsonl: it is replaced atomically as a whole, and a
loader reading it top to bottom has created every node before it meets an edge. Property values
are as in docs/graph_model.md (lists stay lists; `properties` of entities and relations stays JSON
text, as in the store).

Lines are UTF-8, not ASCII-escaped, except U+0085, U+2028 and U+2029, which are escaped because
`str.splitlines()` and some JavaScript readers treat them as line breaks.
"""

from __future__ import annotations

import json
from typing import Any, TextIO

from kgbuild.store.graph_rows import GraphRows

_LINE_BREAK_ESCAPES = {0x85: "\\u0085", 0x2028: "\\u2028", 0x2029: "\\u2029"}


def _line(obj: dict[str, Any]) -> str:
    # These characters can only occur inside JSON strings, where \\uXXXX means the same character.
    return json.dumps(obj, ensure_ascii=False).translate(_LINE_BREAK_ESCAPES) + "\n"


def write_jsonl(rows: GraphRows, fh: TextIO) -> int:
    """Returns the number of lines written."""
    for node in rows.nodes:
        labels = [node.label, node.extra_label] if node.extra_label else [node.label]
        fh.write(_line({"kind": "node", "id": node.id, "labels": labels, "properties": node.props}))
    for edge in rows.edges:
        fh.write(_line({"kind": "edge", "id": edge.id, "type": edge.type, "source": edge.src, "target": edge.dst,
                        "properties": edge.props}))
    return len(rows.nodes) + len(rows.edges)
