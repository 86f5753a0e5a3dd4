"""The graph as GraphML (for Gephi, yEd, Cytoscape, networkx), written as a stream.

Layout: one directed <graph>; node XML ids and edge XML ids are the graph ids. Every node has a
`labels` attribute (":Entity:Person", the Neo4j/APOC convention), every edge a `type`
attribute; all properties of docs/graph_model.md follow as attributes, with a <key> declared for
each (attribute name, node|edge) pair before the graph. Integers are `long`, booleans `boolean`,
lists and JSON objects are written as JSON text (`string`).

XML 1.0 cannot carry most control characters at all, not even as character references: those
(U+0000-U+0008, U+000B, U+000C, U+000E-U+001F, U+FFFE, U+FFFF) become U+FFFD. Tab, line feed and
carriage return are kept, as character references, so attribute normalisation cannot eat them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, TextIO

from kgbuild.store.graph_rows import GraphRows

_XML_ESCAPES: dict[int, str] = {ord("&"): "&amp;", ord("<"): "&lt;", ord(">"): "&gt;", ord('"'): "&quot;",
                                ord("'"): "&apos;", 0x9: "&#9;", 0xA: "&#10;", 0xD: "&#13;"}
for _c in [*range(0x20), 0xFFFE, 0xFFFF]:
    _XML_ESCAPES.setdefault(_c, "\ufffd")
del _c


def xml_text(value: str) -> str:
    """Escape for both element text and attribute values (one table, so nothing differs by place)."""
    return value.translate(_XML_ESCAPES)


def _value_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (list, tuple, dict)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def _graphml_type(values_types: set[type]) -> str:
    if values_types <= {bool}:
        return "boolean"
    if values_types <= {int}:
        return "long"
    if values_types <= {int, float}:
        return "double"
    return "string"


def _keys(items: Iterable[dict[str, Any]]) -> dict[str, set[type]]:
    seen: dict[str, set[type]] = {}
    for props in items:
        for name, value in props.items():
            if value is not None:
                seen.setdefault(name, set()).add(type(value))
    return seen


def write_graphml(rows: GraphRows, fh: TextIO) -> None:
    # First pass: the attribute keys (GraphML declares them before the graph). Linear, no copies.
    node_declared: dict[str, set[type]] = {"labels": {str}}
    edge_declared: dict[str, set[type]] = {"type": {str}}
    node_types = node_declared | _keys(n.props for n in rows.nodes)
    edge_types = edge_declared | _keys(e.props for e in rows.edges)
    node_keys = {name: f"n{i}" for i, name in enumerate(node_types)}
    edge_keys = {name: f"e{i}" for i, name in enumerate(edge_types)}
    # A value whose key is declared `string` is written as text even when it is a number elsewhere.
    node_string = {name for name, t in node_types.items() if _graphml_type(t) == "string"}
    edge_string = {name for name, t in edge_types.items() if _graphml_type(t) == "string"}

    fh.write('<?xml version="1.0" encoding="UTF-8"?>\n'
             '<graphml xmlns="http://graphml.graphdrawing.org/xmlns" '
             'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
             'xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns '
             'http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">\n')
    for domain, keys, types in (("node", node_keys, node_types), ("edge", edge_keys, edge_types)):
        for name, key_id in keys.items():
            fh.write(f'  <key id="{key_id}" for="{domain}" attr.name="{xml_text(name)}" '
                     f'attr.type="{_graphml_type(types[name])}"/>\n')
    fh.write('  <graph id="G" edgedefault="directed">\n')

    for node in rows.nodes:
        labels = ":" + node.label + (f":{node.extra_label}" if node.extra_label else "")
        parts = [f'    <node id="{xml_text(node.id)}">', f'<data key="{node_keys["labels"]}">{xml_text(labels)}</data>']
        parts.extend(_data(node.props, node_keys, node_string))
        parts.append("</node>\n")
        fh.write("".join(parts))

    for edge in rows.edges:
        parts = [f'    <edge id="{xml_text(edge.id)}" source="{xml_text(edge.src)}" target="{xml_text(edge.dst)}">',
                 f'<data key="{edge_keys["type"]}">{xml_text(edge.type)}</data>']
        parts.extend(_data(edge.props, edge_keys, edge_string))
        parts.append("</edge>\n")
        fh.write("".join(parts))

    fh.write("  </graph>\n</graphml>\n")


def _data(props: dict[str, Any], keys: dict[str, str], as_string: set[str]) -> Iterable[str]:
    for name, value in props.items():
        if value is None:
            continue
        text = (json.dumps(value, ensure_ascii=False) if isinstance(value, (list, tuple, dict)) else str(value)) \
            if name in as_string else _value_text(value)
        yield f'<data key="{keys[name]}">{xml_text(text)}</data>'
