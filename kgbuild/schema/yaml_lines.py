"""Reading a schema file: YAML parsed into plain data that keeps each node's line, so every
problem can point at the line it is on; unreadable files become problems, not exceptions."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from kgbuild.schema.checks import Path_
from kgbuild.schema.problems import SchemaProblem, _describe

_INT_RE = re.compile(r"^[-+]?[0-9]+$")
_FLOAT_RE = re.compile(r"^[-+]?(?:[0-9]+\.[0-9]*|\.[0-9]+|[0-9]+)(?:[eE][-+]?[0-9]+)?$")
_MAX_DEPTH = 64


class _Document:
    """A parsed YAML file: plain data plus the node tree for line numbers.

    Data is built from the nodes directly (not with safe_load) so that keys stay strings,
    `on`/`no`/dates stay text, and duplicate keys are seen instead of silently replaced.
    """

    def __init__(self, root: yaml.Node) -> None:
        self.root = root
        self.duplicates: list[tuple[Path_, int, int]] = []  # path, line, first line
        self.data = self._build(root, (), 0)

    def _build(self, node: yaml.Node, path: Path_, depth: int) -> Any:
        if depth > _MAX_DEPTH:
            raise ValueError("nesting too deep (a recursive YAML alias?)")
        if isinstance(node, yaml.MappingNode):
            out: dict[str, Any] = {}
            first_line: dict[str, int] = {}
            for k, v in node.value:
                key = k.value if isinstance(k, yaml.ScalarNode) else str(self._build(k, path, depth + 1))
                if key in out:
                    self.duplicates.append(((*path, key), k.start_mark.line + 1, first_line[key]))
                first_line.setdefault(key, k.start_mark.line + 1)
                out[key] = self._build(v, (*path, key), depth + 1)
            return out
        if isinstance(node, yaml.SequenceNode):
            return [self._build(v, (*path, i), depth + 1) for i, v in enumerate(node.value)]
        return _scalar(node)

    def line(self, path: Path_) -> int | None:
        """Line (1-based) of the deepest YAML node on `path`: a key's own line when found."""
        return self._walk(path)[1]

    def in_flow_mapping(self, path: Path_) -> bool:
        """Whether `path` is a mapping written inline as `{...}`."""
        node, _, complete = self._walk(path)
        return complete and isinstance(node, yaml.MappingNode) and bool(node.flow_style)

    def _walk(self, path: Path_) -> tuple[yaml.Node, int, bool]:
        node: yaml.Node = self.root
        line = node.start_mark.line + 1
        for part in path:
            if isinstance(node, yaml.MappingNode):
                match = None
                for k, v in node.value:  # the last duplicate wins, as in the data
                    if isinstance(k, yaml.ScalarNode) and k.value == str(part):
                        match = (k, v)
                if match is None:
                    return node, line, False
                line, node = match[0].start_mark.line + 1, match[1]
            elif isinstance(node, yaml.SequenceNode):
                if isinstance(part, int) and 0 <= part < len(node.value):
                    node = node.value[part]
                else:  # a list shorthand (`children: [A, B]`) addressed by name
                    found = [n for n in node.value if isinstance(n, yaml.ScalarNode) and n.value == str(part)]
                    if not found:
                        return node, line, False
                    node = found[0]
                line = node.start_mark.line + 1
            else:
                return node, line, False
        return node, line, True


def _scalar(node: yaml.Node) -> Any:
    value = node.value
    if getattr(node, "style", None):  # quoted or block scalars are always text
        return value
    if value in ("", "~", "null", "Null", "NULL"):
        return None
    if value in ("true", "True", "TRUE"):
        return True
    if value in ("false", "False", "FALSE"):
        return False
    if _INT_RE.match(value):
        return int(value)
    if _FLOAT_RE.match(value):
        return float(value)
    return value


def _parse(file: str, path: Path) -> tuple[_Document | None, list[SchemaProblem]]:
    def problem(message: str, hint: str = "", line: int | None = None) -> list[SchemaProblem]:
        return [SchemaProblem(file, line, "", message, hint)]

    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None, problem("schema file not found", "check the `schema` setting")
    except UnicodeDecodeError as exc:
        return None, problem(f"not UTF-8 text ({exc.reason} at byte {exc.start})", "save the file as UTF-8")
    except OSError as exc:
        return None, problem(f"cannot read the file: {exc.strerror}")
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        col = f", column {mark.column + 1}" if mark else ""
        what = ": ".join(x for x in (exc.context, exc.problem) if x)
        start = exc.context_mark.line + 1 if exc.context_mark else line
        hint = (f"fix the indentation or quoting between lines {start} and {line}" if start != line
                else "fix the indentation or quoting near this line")
        return None, problem(f"YAML syntax error{col}: {what}", hint, line)
    except yaml.YAMLError as exc:
        return None, problem(f"YAML error: {exc}")
    if root is None:
        return None, problem("empty schema", "start from schemas/open_domain.yaml or docs/schema.md")
    try:
        doc = _Document(root)
    except ValueError as exc:
        return None, problem(str(exc))
    if not isinstance(doc.data, dict):
        return None, problem(f"the top level must be a mapping of keys, got {_describe(doc.data)}",
                             "start from schemas/open_domain.yaml or docs/schema.md", root.start_mark.line + 1)
    return doc, []
