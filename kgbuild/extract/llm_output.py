"""The model's reply: tolerant pydantic models and a careful JSON reader.

Models differ in small ways (a string where a list is expected, `spgClass` for `type`, a
number as a name, a relation as a three-item list); those are accepted. What cannot be
read gives a short error naming the field, which is sent back to the model when re-asking.

`parse_reply` never evaluates text. It repairs only what cannot change meaning: trailing
commas, and a reply cut off mid-JSON (finish_reason "length"), which is closed after its
last complete record; the records lost are the incomplete ones, so that is `repaired=True`.
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any, ClassVar, TypeVar

from pydantic import AliasChoices, BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, model_validator

# ---------------------------------------------------------------- lenient field types


def _scalar_text(value: Any) -> Any:
    """Numbers and booleans as text (a year is often given as 1914); anything else as is."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (int, float)):
        return str(value)
    return value


def _text(value: Any) -> Any:
    return "" if value is None else _scalar_text(value)


def _opt_text(value: Any) -> Any:
    value = _scalar_text(value)
    return None if isinstance(value, str) and not value.strip() else value


def _name_of(value: Any) -> Any:
    """An item given as {"name": ...} where a name is expected."""
    if isinstance(value, dict) and "name" in value:
        return _scalar_text(value["name"])
    return _scalar_text(value)


def _text_list(value: Any) -> Any:
    if value is None:
        return []
    if not isinstance(value, list):
        value = [value]
    return [_name_of(v) for v in value if v is not None and v != ""]


def _as_list(value: Any) -> Any:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def _value_text(value: Any) -> Any:
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False)
    return _scalar_text(value)


def _multi_props(value: Any) -> Any:
    """{key: value or [values]} -> {key: [values as text]}; empty values are left out."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        return value
    out: dict[str, Any] = {}
    for key, v in value.items():
        items = v if isinstance(v, list) else [v]
        texts = [_value_text(x) for x in items if x is not None and x != ""]
        if texts:
            out[str(key)] = texts
    return out


def _single_props(value: Any) -> Any:
    """{key: value} with lists joined, for relation properties."""
    props = _multi_props(value)
    if not isinstance(props, dict):
        return props
    return {key: "; ".join(str(t) for t in texts) for key, texts in props.items()}


def _arguments(value: Any) -> Any:
    if value is None:
        return {}
    if not isinstance(value, dict):
        return value
    return {str(role): _text_list(v) for role, v in value.items() if v not in (None, "", [])}


Text = Annotated[str, BeforeValidator(_text)]
Name = Annotated[str, BeforeValidator(_name_of)]
OptText = Annotated[str | None, BeforeValidator(_opt_text)]
TextList = Annotated[list[str], BeforeValidator(_text_list)]
MultiProps = Annotated[dict[str, list[str]], BeforeValidator(_multi_props)]
SingleProps = Annotated[dict[str, str], BeforeValidator(_single_props)]
Arguments = Annotated[dict[str, list[str]], BeforeValidator(_arguments)]


class _Item(BaseModel):
    # Unknown keys are ignored: a model adding "confidence" should not cost a re-ask.
    model_config = ConfigDict(extra="ignore", populate_by_name=True)


# ---------------------------------------------------------------- items


class LLMEntity(_Item):
    name: Name
    type: OptText = Field(None, validation_alias=AliasChoices("type", "spgClass", "spg_class", "class", "category", "entity_type"))
    semantic_type: OptText = Field(None, validation_alias=AliasChoices("semantic_type", "semanticType", "semantic"))
    description: Text = ""
    summary: Text = ""
    aliases: TextList = Field(default_factory=list, validation_alias=AliasChoices("aliases", "alias", "synonyms"))
    properties: MultiProps = Field(default_factory=dict, validation_alias=AliasChoices("properties", "attributes"))


class LLMEvent(_Item):
    type: Text = Field(validation_alias=AliasChoices("type", "event_type", "eventType", "spgClass"))
    trigger: Text = ""
    arguments: Arguments = Field(default_factory=dict, validation_alias=AliasChoices("arguments", "args", "roles"))
    time: OptText = Field(None, validation_alias=AliasChoices("time", "date"))
    place: OptText = Field(None, validation_alias=AliasChoices("place", "location"))


def _triple_dict(value: Any, keys: tuple[str, str, str]) -> Any:
    if isinstance(value, (list, tuple)) and len(value) == 3:
        return dict(zip(keys, value))
    return value


class LLMRelation(_Item):
    subject: Name = Field(validation_alias=AliasChoices("subject", "s", "head", "source"))
    predicate: Text = Field(validation_alias=AliasChoices("predicate", "p", "relation", "rel"))
    object: Name = Field(validation_alias=AliasChoices("object", "o", "tail", "target"))
    properties: SingleProps = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _from_list(cls, value: Any) -> Any:
        return _triple_dict(value, ("subject", "predicate", "object"))


def _triple(value: Any) -> Any:
    if isinstance(value, dict):
        keys = [("subject", "s"), ("predicate", "p"), ("object", "o")]
        return [_scalar_text(next((value[k] for k in pair if k in value), None)) for pair in keys]
    if isinstance(value, list):
        return [_scalar_text(v) for v in value]
    return value


class LLMHyperNode(_Item):
    triple: Annotated[list[str], BeforeValidator(_triple)] = Field(
        min_length=3, max_length=3, validation_alias=AliasChoices("triple", "relation", "fact"))
    qualifier: Text = Field(validation_alias=AliasChoices("qualifier", "preposition", "predicate"))
    value: Name = Field(validation_alias=AliasChoices("value", "object"))


# ---------------------------------------------------------------- replies


class _Reply(BaseModel):
    model_config = ConfigDict(extra="ignore")

    # Keys of which a reply must have at least one (an unrelated JSON object is not an
    # empty extraction); a bare list is taken as the value of `_list_key`.
    _keys: ClassVar[tuple[str, ...]] = ()
    _list_key: ClassVar[str | None] = None

    @model_validator(mode="before")
    @classmethod
    def _shape(cls, value: Any) -> Any:
        if isinstance(value, list) and cls._list_key:
            value = {cls._list_key: value}
        if not isinstance(value, dict):
            raise ValueError(f"expected a JSON object with the keys {', '.join(cls._keys)}")
        if cls._keys and not any(k in value for k in cls._keys):
            raise ValueError(f"none of the keys {', '.join(cls._keys)} is present")
        return value


Entities = Annotated[list[LLMEntity], BeforeValidator(_as_list)]
Events = Annotated[list[LLMEvent], BeforeValidator(_as_list)]
Relations = Annotated[list[LLMRelation], BeforeValidator(_as_list)]
HyperNodes = Annotated[list[LLMHyperNode], BeforeValidator(_as_list)]


class JointReply(_Reply):
    _keys = ("entities", "events", "relations", "hypernodes")
    entities: Entities = Field(default_factory=list)
    events: Events = Field(default_factory=list)
    relations: Relations = Field(default_factory=list)
    hypernodes: HyperNodes = Field(default_factory=list)


class EntitiesReply(_Reply):
    _keys = ("entities",)
    _list_key = "entities"
    entities: Entities = Field(default_factory=list)


class FactsReply(_Reply):
    _keys = ("relations", "events", "hypernodes")
    relations: Relations = Field(default_factory=list)
    events: Events = Field(default_factory=list)
    hypernodes: HyperNodes = Field(default_factory=list)
    entities: Entities = Field(default_factory=list)  # extra ones the facts needed (dates, places)


class LLMSplitChunk(_Item):
    start: int = Field(ge=1, validation_alias=AliasChoices("start", "first", "from"))  # sentence numbers as shown, 1-based
    end: int = Field(ge=1, validation_alias=AliasChoices("end", "last", "to"))  # inclusive
    summary: Text = ""


class SplitReply(_Reply):
    _keys = ("chunks",)
    _list_key = "chunks"
    chunks: Annotated[list[LLMSplitChunk], BeforeValidator(_as_list)]


# ---------------------------------------------------------------- reading the text

R = TypeVar("R", bound=BaseModel)

_FENCE_RE = re.compile(r"```[A-Za-z0-9_-]*[ \t]*\n?(.*?)(?:```|\Z)", re.DOTALL)
_MAX_ERRORS = 3


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
        elif ch in "{[":
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
    out: list[str] = []
    in_string = escaped = False
    for i, ch in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
            out.append(ch)
            continue
        if ch == '"':
            in_string = True
        elif ch == ",":
            rest = text[i + 1 :].lstrip()
            if rest[:1] in ("}", "]"):
                continue
        out.append(ch)
    return "".join(out)


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


def _describe_error(exc: ValidationError) -> str:
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
        return None, _describe_error(exc), False
