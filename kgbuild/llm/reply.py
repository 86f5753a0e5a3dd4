"""A model's reply text -> a pydantic record, with safe repairs and an error a model can act on.

`parse_reply` never evaluates text. It looks for the JSON inside a ``` fence and past prose
around it, and repairs only what cannot change meaning: trailing commas, and a reply cut off
mid-JSON (finish_reason "length"), which is closed after its last complete record; the records
lost are the incomplete ones, so that is reported as `repaired=True`. What cannot be read gives a
short error naming the field (`entities[0].name: missing`), which `ask` sends back to the model.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

R = TypeVar("R", bound=BaseModel)

_FENCE_RE = re.compile(r"```[A-Za-z0-9_-]*[ \t]*\n?(.*?)(?:```|\Z)", re.DOTALL)
_MAX_ERRORS = 3
_NON_SPACE = re.compile(r"\S")  # white space is what str.strip() removes


def _outside_strings(text: str, start: int = 0) -> Iterator[tuple[int, str]]:
    """(index, character) of every character from `start` that is not inside a JSON string literal
    (an opening quote is yielded; the string's content and closing quote are not)."""
    in_string = escaped = False
    for i in range(start, len(text)):
        ch = text[i]
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
            continue
        if ch == '"':
            in_string = True
        yield i, ch


def _scan(text: str, start: int) -> tuple[int | None, list[tuple[int, str]]]:
    """Walk a JSON value from `start`: (end index if it closes, -1 if its brackets do not
    match, None if it runs to the end of the text; safe cut points).

    A cut point (position, closers) is where the text can be cut and closed with `closers`
    keeping only complete records: at a ',' or a closing bracket between records, i.e. in
    the top-level object or one of its lists (in a top-level list: between its items).
    """
    cut_depth = 2 if text[start] == "{" else 1
    stack: list[str] = []
    cuts: list[tuple[int, str]] = []
    for i, ch in _outside_strings(text, start):
        if ch in "{[":
            stack.append("}" if ch == "{" else "]")
        elif ch in "}]":
            if not stack or stack[-1] != ch:
                return -1, cuts  # mismatched: broken, not cut off
            stack.pop()
            if not stack:
                return i + 1, cuts
            if len(stack) <= cut_depth:
                cuts.append((i + 1, "".join(reversed(stack))))
        elif ch == "," and len(stack) <= cut_depth:
            cuts.append((i, "".join(reversed(stack))))
    return None, cuts


def _drop_trailing_commas(text: str) -> str:
    """Commas outside strings that only white space separates from a closing bracket, removed."""
    drop = set()
    for i, ch in _outside_strings(text):
        if ch == ",":
            following = _NON_SPACE.search(text, i + 1)
            if following is not None and following.group() in ("}", "]"):
                drop.add(i)
    return "".join(ch for i, ch in enumerate(text) if i not in drop) if drop else text


def _loads(text: str) -> tuple[Any, str | None]:
    try:
        return json.loads(text), None
    except json.JSONDecodeError as exc:
        first = exc
    try:
        return json.loads(_drop_trailing_commas(text)), None
    except json.JSONDecodeError:
        return None, f"invalid JSON at line {first.lineno} column {first.colno}: {first.msg}"


def _body(text: str) -> str:
    """The text inside the first ``` fence, if any (to the end when the fence never closes)."""
    if "```" in text:
        match = _FENCE_RE.search(text)
        if match and match.group(1).strip():
            return match.group(1)
    return text


def describe_error(exc: ValidationError) -> str:
    """The first few validation errors as `path: problem`, joined: short enough to send back."""
    parts = []
    for err in exc.errors(include_url=False)[:_MAX_ERRORS]:
        loc = ""
        for p in err["loc"]:
            loc += f"[{p}]" if isinstance(p, int) else ("." if loc else "") + str(p)
        kind = err["type"]
        got = err.get("input")
        if kind == "missing":
            msg = "missing"
        elif kind == "string_type":
            msg = f"expected text, got {type(got).__name__}"
        elif kind in ("list_type", "too_short", "too_long"):
            msg = err["msg"].lower()
        elif kind in ("dict_type", "model_type", "model_attributes_type"):
            msg = f"expected an object, got {type(got).__name__}"
        elif kind == "value_error":
            msg = str(err["ctx"]["error"])
        else:
            msg = err["msg"]
        parts.append(f"{loc}: {msg}" if loc else msg)
    more = len(exc.errors()) - _MAX_ERRORS
    return "; ".join(parts) + (f" (and {more} more)" if more > 0 else "")


def parse_reply(text: str, model_cls: type[R]) -> tuple[R | None, str | None, bool]:
    """(reply, None, repaired) or (None, short error, False).

    `repaired` is True when a cut-off reply was closed and its incomplete last records
    dropped; trailing commas are fixed silently (nothing is lost).
    """
    if not text or not text.strip():
        return None, "empty reply", False
    body = _body(text)
    starts = sorted(i for i in (body.find("{"), body.find("[")) if i >= 0)
    if not starts:
        return None, "no JSON object in the reply", False
    # Prose before the JSON may contain a bracket: take the first start that parses whole.
    # Replies are objects, so an object's error is the one to report.
    errors: dict[str, str] = {}
    for start in starts:
        kind = body[start]
        end, cuts = _scan(body, start)
        if end == -1:
            errors.setdefault(kind, "invalid JSON: brackets do not match")
            continue
        if end is not None:
            data, problem = _loads(body[start:end])
            if problem is None:
                reply, problem, _ = _validate(data, model_cls, repaired=False)
                if reply is not None:
                    return reply, None, False
            errors.setdefault(kind, problem or "invalid JSON")
            continue
        # Never closes, so it runs to the end: cut off. Keep the records completed before the cut.
        for pos, closers in reversed(cuts):
            data, problem = _loads(body[start:pos].rstrip().rstrip(",") + closers)
            if problem is None:
                reply, problem, repaired = _validate(data, model_cls, repaired=True)
                if reply is not None:
                    return reply, None, repaired
                errors.setdefault(kind, problem or "invalid JSON")
                break
        errors.setdefault(kind, "the reply was cut off before any complete record")
        break
    return None, errors.get("{") or errors.get("[") or "invalid JSON", False


def _validate(data: Any, model_cls: type[R], *, repaired: bool) -> tuple[R | None, str | None, bool]:
    try:
        return model_cls.model_validate(data), None, repaired
    except ValidationError as exc:
        return None, describe_error(exc), False
