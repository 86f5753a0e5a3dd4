"""The model's replies in Chain of Explorations: plan, select, evaluate, answer.

Tolerant as the solver's replies are (kgbuild/query/llm_ask.py): a model that adds keys, writes a
number as a string, or answers one item where a list is asked for still gives a usable reply; only
a reply that cannot be read at all is re-asked (once, by the gateway) and then takes the step's
"unknown" record.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from kgbuild.query.llm_ask import Numbers, Text, Texts

StepKind = Literal["node", "relation"]

# Words a model uses for the two step kinds; anything else is read from the text ("find X" is a lookup).
_NODE_WORDS = {"node", "entity", "lookup", "node lookup", "find", "search", "hypernode", "start"}
_RELATION_WORDS = {"relation", "relationship", "hop", "edge", "relation hop", "follow", "traverse", "predicate"}


def _kind(value: Any) -> Any:
    text = str(value or "").strip().lower().replace("_", " ")
    if text in _NODE_WORDS:
        return "node"
    if text in _RELATION_WORDS:
        return "relation"
    return text


class PlanStepReply(BaseModel):
    model_config = ConfigDict(extra="ignore")

    kind: Annotated[StepKind, BeforeValidator(_kind)]
    text: Text = Field(min_length=1)


def _steps(value: Any) -> Any:
    """A step written as "node: Grace Hopper" is {"kind": "node", "text": "Grace Hopper"}."""
    items = value if isinstance(value, list) else [value]
    out: list[Any] = []
    for item in items:
        if isinstance(item, str) and ":" in item:
            word, _, rest = item.partition(":")
            out.append({"kind": word, "text": rest.strip()})
        elif isinstance(item, dict) and "kind" not in item:
            out.append({"kind": item.get("type") or item.get("action") or item.get("step"),
                        "text": item.get("text") or item.get("keyword") or item.get("query") or item.get("relation")})
        else:
            out.append(item)
    return out


class PlanReply(BaseModel):
    model_config = ConfigDict(extra="ignore")

    steps: Annotated[list[PlanStepReply], BeforeValidator(_steps)]


class SelectReply(BaseModel):
    """The candidates the model keeps, by their number in the list it was shown; [] is "none"."""

    model_config = ConfigDict(extra="ignore")

    selected: Numbers


def _decision(value: Any) -> Any:
    text = str(value or "").strip().lower().replace("_", "-").replace(" ", "-")
    return {"re-plan": "replan", "continue-exploring": "continue", "next": "continue",
            "stop": "answer", "done": "answer"}.get(text, text)


Decision = Literal["continue", "replan", "answer"]


class EvaluateReply(BaseModel):
    model_config = ConfigDict(extra="ignore")

    decision: Annotated[Decision, BeforeValidator(_decision)]
    reason: Text = ""


class AnswerReply(BaseModel):
    model_config = ConfigDict(extra="ignore")

    found: bool
    answer: Text = ""
    facts: Numbers = Field(default_factory=list)
    chunk_ids: Texts = Field(default_factory=list)


NO_PLAN = PlanReply(steps=[])
NO_SELECTION = SelectReply(selected=[])
KEEP_GOING = EvaluateReply(decision="continue", reason="no usable evaluation; the plan goes on")
NOT_FOUND = AnswerReply(found=False)
