"""The LLM judge for synonym fusion: asked once per cluster the cascade could not resolve
(a short name compatible with several full names and no deciding neighbour)."""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict, field_validator

from kgbuild.llm.prompts import PromptLibrary, PromptTemplate
from kgbuild.llm.types import ChatRequest, Gateway, LLMCallError
from kgbuild.model import Entity


class JudgeGroups(BaseModel):
    """The judge's reply, {"groups": [[id, ...], ...]}: each group is one real-world entity."""

    model_config = ConfigDict(extra="ignore")

    groups: list[list[str]]

    @field_validator("groups", mode="before")
    @classmethod
    def _ids_only(cls, value: Any) -> Any:
        # Ids are strings; a stray number or null in a group is left out, not worth a re-ask.
        if isinstance(value, list):
            return [[x for x in g if isinstance(x, str)] if isinstance(g, list) else g for g in value]
        return value

    def known(self, ids: set[str]) -> list[list[str]]:
        """The groups restricted to `ids`, each id in the first group that names it; empty ones left out."""
        seen: set[str] = set()
        out: list[list[str]] = []
        for group in self.groups:
            members = [x for x in dict.fromkeys(group) if x in ids and x not in seen]
            seen.update(members)
            if members:
                out.append(members)
        return out


class LLMJudge:
    """An AmbiguityJudge asking the model once per ambiguous cluster (prompt: prompts/<lang>/align_judge.yaml).

    The reply goes through `Gateway.ask`: a fenced or chatty reply is read, and one that names none of
    the cluster's ids is re-asked (`max_reasks` times) with the problem; after that, or when the call
    fails, the cluster stays undecided (None) rather than failing the build.
    """

    def __init__(self, gateway: Gateway, template: PromptTemplate | None = None, *,
                 reask: PromptTemplate | None = None, max_reasks: int = 1) -> None:
        self.gateway = gateway
        self.template = template or PromptLibrary("en").get("align_judge")
        self.reask = (reask or PromptLibrary("en").get("reask")).reask(max_reasks)

    async def same(self, cluster: list[Entity]) -> list[list[str]] | None:
        listing = [{"id": e.id, "name": e.name, "class": e.spg_class, "type": e.semantic_type,
                    "description": e.description[:300]} for e in cluster]
        messages = self.template.render(entities=json.dumps(listing, ensure_ascii=False))
        request = ChatRequest(stage="align", template=self.template.key, json_mode=True, messages=messages)
        ids = {e.id for e in cluster}

        def problem(reply: JudgeGroups) -> str | None:
            return None if reply.known(ids) else "no group names an id of the entities listed"

        try:
            reply = await self.gateway.ask(request, JudgeGroups, reask=self.reask, check=problem)
        except LLMCallError:  # the call failed, or UnusableReply: no usable reply after the re-asks
            return None
        return reply.known(ids)
