"""The extraction and splitting replies: tolerant pydantic models of the JSON the prompts ask for.

Models differ in small ways (a string where a list is expected, `spgClass` for `type`, a
number as a name, a relation as a three-item list); those are accepted. What cannot be
read gives a short error naming the field, which `Gateway.ask` sends back to the model when
re-asking (the JSON reading and repair are `kgbuild.llm.reply`).
"""

from __future__ import annotations

import json
from typing import Annotated, Any, ClassVar

from pydantic import AliasChoices, BaseModel, BeforeValidator, ConfigDict, Field, model_validator

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
    type: OptText = Field(None, validation_alias=AliasChoices("type", "spgClass", "spg_class", "class", "category",
                                                              "entity_type"))
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
        return dict(zip(keys, value, strict=True))
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
    # sentence numbers as shown, 1-based
    start: int = Field(ge=1, validation_alias=AliasChoices("start", "first", "from"))
    end: int = Field(ge=1, validation_alias=AliasChoices("end", "last", "to"))  # inclusive
    summary: Text = ""


class SplitReply(_Reply):
    _keys = ("chunks",)
    _list_key = "chunks"
    chunks: Annotated[list[LLMSplitChunk], BeforeValidator(_as_list)]
