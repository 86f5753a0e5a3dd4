"""The LLM extractor: KAG-style extraction of one chunk through the model gateway.

joint mode asks once per chunk for entities, events, relations and hypernodes;
multistep mode asks for the entities first, then for the facts between them. Each step is one
`Gateway.ask` with its reply model: an unusable reply is forgotten by the cache and re-asked
with the parse error (up to `max_reasks` times). A chunk that still has no usable reply, or
whose call failed for good, yields an "extractor error" Drop and failed=True, so the build
does not cache it and tries again next time.

In joint mode, short chunks are packed several to a call (`extract.pack_tokens`, see
`kgbuild.extract.llm_pack`): `plan` groups the chunks into jobs, `aextract_job` runs one.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeVar

from pydantic import BaseModel

from kgbuild.errors import ConfigError
from kgbuild.extract.llm_output import EntitiesReply, FactsReply, JointReply, LLMEntity
from kgbuild.extract.llm_pack import (
    PACK_FRAGMENTS,
    Item,
    Job,
    PackPlan,
    doc_shares,
    packed_messages,
    packed_schema,
    part_result,
    plan_jobs,
    read_packed,
)
from kgbuild.extract.llm_records import RecordBuilder
from kgbuild.extract.llm_schema import preferred_names, schema_block
from kgbuild.ids import content_hash
from kgbuild.llm.prompts import PromptLibrary, PromptTemplate
from kgbuild.llm.types import AskTrail, ChatRequest, EndpointRefused, Gateway, LLMCallError, ReplyStore
from kgbuild.model import Chunk, ChunkExtraction, ChunkFailure, FailureReason, RepairNote, RepairReason
from kgbuild.schema import Schema

if TYPE_CHECKING:
    from kgbuild.tokens import TokenCounter

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
# One job's outcome per chunk: (chunk, extraction, failed).
Outcome = tuple[Chunk, ChunkExtraction, bool]


def one_line(text: str, limit: int = 300) -> str:
    """First line of an error, secrets masked, cut to `limit` characters."""
    line = text.strip().splitlines()[0] if text.strip() else ""
    return _SECRET_RE.sub("[redacted]", line)[:limit]


class LLMExtractor:
    name = "llm"

    def __init__(self, gateway: Gateway, schema: Schema, prompts: PromptLibrary, *, mode: str = "joint",
                 constrained: bool = False, max_reasks: int = 2, model_label: str = "", pack_tokens: int = 0,
                 pack_max_chunks: int = 8, counter: TokenCounter | None = None) -> None:
        if mode not in MODES:
            raise ConfigError("extract.mode", f"unknown mode '{mode}'", f"use one of: {', '.join(MODES)}")
        self.gateway = gateway
        self.schema = schema
        self.mode = mode
        self.constrained = constrained
        self.max_reasks = max(0, max_reasks)
        self.model_label = model_label
        self.pack_tokens = pack_tokens
        self.pack_max_chunks = pack_max_chunks
        self._counter = counter
        self._overhead: int | None = None
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

    @property
    def packing(self) -> bool:
        """Whether chunks are packed: joint mode, a budget, and a template with the packing fragments
        (a project's own older template without them keeps one chunk per call)."""
        joint = self.templates.get("extract_joint")
        return (self.mode == "joint" and self.pack_tokens > 0 and self.pack_max_chunks > 1 and joint is not None
                and all(f in joint.fragments for f in PACK_FRAGMENTS))

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
                joint = await self._ask_request(chunk, "extract", self.request_for(chunk, concepts), JointReply,
                                                notes)
                self._build(builder, joint.entities, joint)
            else:
                listed = await self._ask_request(chunk, "extract.entities", self.request_for(chunk, concepts),
                                                 EntitiesReply, notes)
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

    def _values(self, name: str, chunk: Chunk, concepts: Sequence[str]) -> dict[str, str]:
        tpl = self.templates[name]
        return {"text": chunk.text, "section": " > ".join(chunk.section), "type_guidance": self._guidance[name],
                "concept_guidance": self._concepts(tpl, concepts)}

    def request_for(self, chunk: Chunk, concepts: Sequence[str] = ()) -> ChatRequest:
        """The request `chunk` makes by itself: in joint mode its one call (and its reply-cache key,
        also when its reply came in a pack); in multistep mode the first step, the entities."""
        name = "extract_joint" if self.mode == "joint" else "extract_entities"
        tpl = self.templates[name]
        return ChatRequest(stage="extract" if self.mode == "joint" else "extract.entities", template=tpl.key,
                           messages=tpl.render(**self._values(name, chunk, concepts)), json_mode=True,
                           doc_id=chunk.doc_id, passages=1)

    def followup_request(self, chunk: Chunk) -> ChatRequest:
        """Multistep mode's second request as it would go with no entities from the first: for estimates."""
        tpl = self.templates["extract_facts"]
        values = {"text": chunk.text, "section": " > ".join(chunk.section),
                  "type_guidance": self._guidance["extract_facts"], "entities": _entity_lines([])}
        return ChatRequest(stage="extract.facts", template=tpl.key, messages=tpl.render(**values), doc_id=chunk.doc_id,
                           passages=1)

    def completion_ratio(self, counter: TokenCounter) -> float:
        """Reply tokens per passage token in the prompt's own few-shot example(s): the basis of the
        dry run's completion estimate (an extraction's length grows with its passage's)."""
        replies = passages = 0
        for tpl in self.templates.values():
            for ex in tpl.examples:
                replies += counter.count(json.dumps(ex.output, ensure_ascii=False))
                passages += counter.count(str(ex.input.get("text", "")))
        return replies / passages if passages else 1.0

    # ------------------------------------------------ packing

    def _count(self, text: str) -> int:
        if self._counter is None:
            from kgbuild.tokens import TokenCounter  # loads tiktoken only when packing

            self._counter = TokenCounter()
        return self._counter.count(text)

    def _passage(self, item: Item, pid: str) -> str:
        tpl = self.templates["extract_joint"]
        values = self._values("extract_joint", item.chunk, item.concepts)
        return tpl.fragment("passage", id=pid, text=values["text"], section=values["section"],
                            concept_guidance=values["concept_guidance"])

    def _pack_head(self, item: Item) -> tuple[str, tuple[str, object] | None]:
        """The system message of a pack (the chunk's own, plus the packing rule) and its example."""
        tpl = self.templates["extract_joint"]
        system = item.alone.messages[0].content + "\n" + tpl.fragment("packed")
        if not tpl.examples:
            return system, None
        ex = tpl.examples[0]
        user = tpl.fragment("passage", id="1", text=str(ex.input.get("text", "")),
                            section=str(ex.input.get("section", "")), concept_guidance="")
        return system, (user, ex.output)

    def _packed_request(self, items: list[Item], sizes: list[int]) -> ChatRequest:
        system, example = self._pack_head(items[0])
        passages = [self._passage(item, str(i)) for i, item in enumerate(items, 1)]
        tpl = self.templates["extract_joint"]
        return ChatRequest(stage="extract", template=f"{tpl.key}+packed", json_mode=True,
                           messages=packed_messages(system, example, passages),
                           doc_shares=doc_shares(items, sizes), passages=len(items),
                           reply_schema=packed_schema([str(i) for i in range(1, len(items) + 1)]))

    def plan(self, chunks: Sequence[Chunk], concepts: Sequence[Sequence[str]] | None = None,
             is_cached: Callable[[ChatRequest], bool] | None = None) -> PackPlan:
        """The jobs that extract `chunks`: packs of short chunks (when packing is on) and single chunks.
        `is_cached` (default: the gateway's reply cache) says which chunks need no call at all."""
        lists = list(concepts) if concepts is not None else [() for _ in chunks]
        items = [Item(c, tuple(k), self.request_for(c, k)) for c, k in zip(chunks, lists, strict=True)]
        if is_cached is None:
            store = self.gateway if isinstance(self.gateway, ReplyStore) else None
            is_cached = store.peek if store is not None else (lambda _request: False)
        if not self.packing or not items:
            return plan_jobs(items, budget=0, max_chunks=1, overhead=0, passage_tokens=lambda _i: 0,
                             packed_request=self._packed_request, is_cached=is_cached)
        if self._overhead is None:
            system, example = self._pack_head(items[0])
            self._overhead = sum(self._count(m.content) for m in packed_messages(system, example, []))
        return plan_jobs(items, budget=self.pack_tokens, max_chunks=self.pack_max_chunks, overhead=self._overhead,
                         passage_tokens=lambda item: self._count(self._passage(item, "99") + "\n\n"),
                         packed_request=self._packed_request, is_cached=is_cached)

    async def aextract_job(self, job: Job) -> list[Outcome]:
        """Run one job, then its followers. A pack's passages missing or unusable in its reply (or all
        of them, when the call failed) are asked again alone; EndpointRefused goes to the caller."""
        outcomes = await self._run_job(job)
        # Same request as a chunk of this job: its answer is in the reply cache now (or, if that
        # chunk failed, it is asked on its own).
        return outcomes + await self._alone(job.followers)

    async def _run_job(self, job: Job) -> list[Outcome]:
        if not job.packed:
            item = job.items[0]
            extraction, failed = await self.aextract(item.chunk, item.concepts)
            return [(item.chunk, extraction, failed)]
        ids = [str(i) for i in range(1, len(job.items) + 1)]
        try:
            result = await self.gateway.chat(job.request)
        except EndpointRefused:
            raise
        except LLMCallError:  # say the pack was too long for the endpoint: each chunk gets its own chance
            return await self._alone(job.items)
        # Only the per-chunk entries are kept: the packed reply itself would be keyed by its neighbours.
        self.gateway.forget(job.request)
        read = read_packed(result.text, ids, cut_off=result.finish_reason == "length")
        if read.missing:
            self.gateway.usage.add("extract", job.request.accounted_to, unusable=1)
        out: list[Outcome] = []
        store = self.gateway if isinstance(self.gateway, ReplyStore) else None
        total = sum(job.passage_tokens) or 1
        for pid, item, size in zip(ids, job.items, job.passage_tokens, strict=True):
            part = read.parts.get(pid)
            if part is None:
                continue
            reply, value = part
            builder = RecordBuilder(item.chunk, self.schema, self.name)
            self._build(builder, reply.entities, reply)
            out.append((item.chunk, builder.result(), False))
            if store is not None:
                share = size / total
                store.remember(item.alone, part_result(value, result.model, round(result.prompt_tokens * share),
                                                       round(result.completion_tokens * share)))
        leftovers = [item for pid, item in zip(ids, job.items, strict=True) if pid in read.missing]
        return out + await self._alone(leftovers)

    async def _alone(self, items: Sequence[Item]) -> list[Outcome]:
        results = await asyncio.gather(*(self.aextract(item.chunk, item.concepts) for item in items))
        return [(item.chunk, extraction, failed) for item, (extraction, failed) in zip(items, results, strict=True)]

    async def _ask(self, chunk: Chunk, stage: str, tpl: PromptTemplate, values: dict[str, str],
                   model_cls: type[R], notes: list[RepairNote]) -> R:
        """A parsed reply to `tpl`; UnusableReply when none is usable after the re-asks."""
        request = ChatRequest(stage=stage, template=tpl.key, messages=tpl.render(**values), json_mode=True,
                              doc_id=chunk.doc_id, passages=1)
        return await self._ask_request(chunk, stage, request, model_cls, notes)

    async def _ask_request(self, chunk: Chunk, stage: str, request: ChatRequest, model_cls: type[R],
                           notes: list[RepairNote]) -> R:
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
