"""The LLM extractor: KAG-style extraction of one chunk through the model gateway.

joint mode asks once per chunk for entities, events, relations and hypernodes;
multistep mode asks for the entities first, then for the facts between them. Each step is one
`Gateway.ask` with its reply model: an unusable reply is forgotten by the cache and re-asked
with the parse error (up to `max_reasks` times). A chunk that still has no usable reply, or
whose call failed for good, yields an "extractor error" Drop and failed=True, so the build
does not cache it and tries again next time.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import TypeVar

from pydantic import BaseModel

from kgbuild.errors import ConfigError
from kgbuild.extract.llm_output import EntitiesReply, FactsReply, JointReply, LLMEntity
from kgbuild.extract.llm_records import RecordBuilder
from kgbuild.extract.llm_schema import preferred_names, schema_block
from kgbuild.ids import content_hash
from kgbuild.llm.prompts import PromptLibrary, PromptTemplate
from kgbuild.llm.types import AskTrail, ChatRequest, EndpointRefused, Gateway, LLMCallError
from kgbuild.model import Chunk, ChunkExtraction, ChunkFailure, FailureReason, RepairNote, RepairReason
from kgbuild.schema import Schema

# Bump when the conversion of replies to records changes: it is part of the fingerprint.
# 2: repair notes and chunk failures are their own records, no longer drops (the reply cache
# makes re-extracting entries of version 1 free).
VERSION = "2"
MODES = ("joint", "multistep")
TRUNCATED_REPAIRED = RepairReason.TRUNCATED_REPAIRED
EXTRACTOR_ERROR = FailureReason.EXTRACTOR_ERROR
# Secrets that an error text could echo (an auth error quoting a header): never stored.
# Key-like values only: our own messages say "llm.api_key: <problem>", which must stay readable.
_SECRET_RE = re.compile(
    r"(sk-[A-Za-z0-9_\-]{6,}|Bearer\s+\S+|(api[_-]?key|token)\s*[=:]\s*[\"']?[A-Za-z0-9_\-.]{12,})", re.IGNORECASE
)

R = TypeVar("R", bound=BaseModel)


def one_line(text: str, limit: int = 300) -> str:
    """First line of an error, secrets masked, cut to `limit` characters."""
    line = text.strip().splitlines()[0] if text.strip() else ""
    return _SECRET_RE.sub("[redacted]", line)[:limit]


class LLMExtractor:
    name = "llm"

    def __init__(self, gateway: Gateway, schema: Schema, prompts: PromptLibrary, *, mode: str = "joint",
                 constrained: bool = False, max_reasks: int = 2, model_label: str = "") -> None:
        if mode not in MODES:
            raise ConfigError("extract.mode", f"unknown mode '{mode}'", f"use one of: {', '.join(MODES)}")
        self.gateway = gateway
        self.schema = schema
        self.mode = mode
        self.constrained = constrained
        self.max_reasks = max(0, max_reasks)
        self.model_label = model_label
        names = ("extract_joint",) if mode == "joint" else ("extract_entities", "extract_facts")
        self.templates: dict[str, PromptTemplate] = {n: prompts.get(n) for n in names}
        self.reask = prompts.get("reask")
        self._reask = self.reask.reask(self.max_reasks, stage="extract.reask")  # checks its placeholders
        # The type guidance depends only on the schema: rendered once, checked at setup.
        self._guidance: dict[str, str] = {}
        for name, tpl in self.templates.items():
            fragment = "constrained" if constrained else "free"
            available = {"text", "section", "type_guidance", "concept_guidance", "entities"}
            tpl.require(available, (fragment,))
            if constrained:
                block = schema_block(schema, with_events=name != "extract_entities",
                                     with_relations=name != "extract_entities")
                self._guidance[name] = tpl.fragment(fragment, schema=block)
            else:
                self._guidance[name] = tpl.fragment(fragment, **preferred_names(schema))

    def fingerprint(self) -> str:
        """Hash of what decides the output except the schema (the caller adds its fingerprint)."""
        payload = {
            "extractor": self.name, "version": VERSION, "mode": self.mode, "constrained": self.constrained,
            "model": self.model_label,
            "templates": sorted(f"{t.key}:{t.content_hash()}" for t in [*self.templates.values(), self.reask]),
        }
        return content_hash(json.dumps(payload, sort_keys=True))

    # ------------------------------------------------ extraction

    async def aextract(self, chunk: Chunk, concepts: Sequence[str] = ()) -> tuple[ChunkExtraction, bool]:
        """(extraction, failed). `concepts`: candidate semantic types of the domain for this chunk."""
        builder = RecordBuilder(chunk, self.schema, self.name)
        notes: list[RepairNote] = []
        base = {"text": chunk.text, "section": " > ".join(chunk.section)}
        try:
            if self.mode == "joint":
                tpl = self.templates["extract_joint"]
                values = {**base, "type_guidance": self._guidance["extract_joint"],
                          "concept_guidance": self._concepts(tpl, concepts)}
                joint = await self._ask(chunk, "extract", tpl, values, JointReply, notes)
                self._build(builder, joint.entities, joint)
            else:
                tpl = self.templates["extract_entities"]
                values = {**base, "type_guidance": self._guidance["extract_entities"],
                          "concept_guidance": self._concepts(tpl, concepts)}
                listed = await self._ask(chunk, "extract.entities", tpl, values, EntitiesReply, notes)
                builder.add_entities(listed.entities)
                values = {**base, "type_guidance": self._guidance["extract_facts"],
                          "entities": _entity_lines(listed.entities)}
                facts = await self._ask(chunk, "extract.facts", self.templates["extract_facts"], values, FactsReply,
                                        notes)
                self._build(builder, facts.entities, facts)
        except EndpointRefused:
            raise  # the key or model is wrong: no chunk can succeed, so the caller stops asking
        except LLMCallError as exc:  # a failed call, or UnusableReply: no usable reply after the re-asks
            failure = ChunkFailure(reason=EXTRACTOR_ERROR, detail=one_line(exc.line()), chunk_id=chunk.id)
            # What an earlier step produced is kept; the chunk is retried on the next build anyway.
            return builder.result().model_copy(update={"repairs": notes, "failure": failure}), True
        return builder.result().model_copy(update={"repairs": notes}), False

    @staticmethod
    def _build(builder: RecordBuilder, entities: Sequence[LLMEntity], reply: JointReply | FactsReply) -> None:
        builder.add_entities(entities)
        for relation in reply.relations:  # before hypernodes, whose triples name these relations
            builder.add_relation(relation)
        for event in reply.events:
            builder.add_event(event)
        for hypernode in reply.hypernodes:
            builder.add_hypernode(hypernode)

    @staticmethod
    def _concepts(tpl: PromptTemplate, concepts: Sequence[str]) -> str:
        if not concepts or "concepts" not in tpl.fragments:
            return ""
        return tpl.fragment("concepts", concepts=", ".join(concepts))

    async def _ask(self, chunk: Chunk, stage: str, tpl: PromptTemplate, values: dict[str, str],
                   model_cls: type[R], notes: list[RepairNote]) -> R:
        """A parsed reply to `tpl`; UnusableReply when none is usable after the re-asks."""
        request = ChatRequest(stage=stage, template=tpl.key, messages=tpl.render(**values), json_mode=True,
                              doc_id=chunk.doc_id)
        trail = AskTrail()
        reply = await self.gateway.ask(request, model_cls, reask=self._reask, trail=trail)
        if trail.repaired:
            detail = f"{stage}: finish_reason={trail.finish_reason}; incomplete last records dropped"
            notes.append(RepairNote(reason=TRUNCATED_REPAIRED, chunk_id=chunk.id, detail=detail))
        return reply


def _entity_lines(entities: Sequence[LLMEntity]) -> str:
    """The step-1 entities for the facts prompt: one compact JSON object per line."""
    lines = []
    for e in entities:
        item: dict[str, object] = {"name": e.name, "type": e.type or ""}
        if e.aliases:
            item["aliases"] = e.aliases
        lines.append(json.dumps(item, ensure_ascii=False))
    return "\n".join(lines) or "(none)"
