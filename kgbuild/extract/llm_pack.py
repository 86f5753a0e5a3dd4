"""Packing several short chunks into one extraction call, and reading the packed reply back per chunk.

Most of a one-chunk prompt is the instructions, the type guidance and the few-shot example, the same
for every chunk; a HotpotQA passage is a tenth of it. A pack sends them once for up to
`extract.pack_max_chunks` passages, as long as the whole prompt stays within `extract.pack_tokens`
(counted with the real tokenizer). Each passage is headed by a short id ("1", "2", ...) and the
reply maps every id to that passage's extraction, so each chunk's output stays its own.

What holds the per-chunk guarantees:
- a passage whose part of the reply is missing, or is not a usable extraction, is asked again alone
  (the ordinary one-chunk request, with its own re-asks); the other passages of the pack are kept;
- every usable part is stored in the reply cache under the request its chunk would make alone, and
  the packed reply itself is dropped from the cache: a re-run, or a pack that changed because a
  neighbour did, finds each unchanged chunk in the cache and pays nothing for it;
- the packed call's usage is charged to the documents of its passages, in proportion to their tokens.

`PackPlan` is computed before any call, by the build and by `kgbuild build --dry-run` alike, so the
estimate counts the very prompts the build sends.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import RootModel, ValidationError

from kgbuild.extract.llm_output import JointReply
from kgbuild.llm.ask import reply_schema
from kgbuild.llm.reply import parse_reply
from kgbuild.llm.types import ChatMessage, ChatRequest, ChatResult
from kgbuild.model import Chunk

PACK_FRAGMENTS = ("packed", "passage")


class PackedReply(RootModel[dict[str, Any]]):
    """The reply to a packed call: passage id -> that passage's extraction object (read one by one)."""


@dataclass(frozen=True)
class Item:
    """One chunk to extract, with its domain concept candidates and its one-chunk request."""

    chunk: Chunk
    concepts: tuple[str, ...]
    alone: ChatRequest  # the request this chunk makes by itself; its reply-cache key


@dataclass
class Job:
    """One call to make: a single chunk (its own request) or a pack of several."""

    items: list[Item]
    request: ChatRequest  # for a pack, the packed request; for one chunk, `items[0].alone`
    passage_tokens: list[int] = field(default_factory=list)  # per item, for the accounting split
    # Chunks whose one-chunk request is the same as one of `items` (the same boilerplate text in
    # many documents): run after the job, when the reply cache holds their answer.
    followers: list[Item] = field(default_factory=list)

    @property
    def packed(self) -> bool:
        return len(self.items) > 1


@dataclass
class PackPlan:
    """What an extraction run will send: jobs for the chunks the reply cache lacks, and the cached ones."""

    jobs: list[Job]
    cached: list[Item]


def plan_jobs(items: Sequence[Item], *, budget: int, max_chunks: int, overhead: int,
              passage_tokens: Callable[[Item], int], packed_request: Callable[[list[Item], list[int]], ChatRequest],
              is_cached: Callable[[ChatRequest], bool]) -> PackPlan:
    """Greedy packing in corpus order: a pack grows while its prompt (`overhead` plus the passages'
    tokens) stays within `budget` and it holds at most `max_chunks`; a chunk too big to share a call
    goes alone. Chunks whose one-chunk request is already cached need no call; a chunk asking exactly
    what an earlier one asks follows that one's job instead of paying again."""
    cached: list[Item] = []
    todo: list[Item] = []
    followers: dict[Identity, list[Item]] = {}
    for item in items:
        if is_cached(item.alone):
            cached.append(item)
            continue
        key = identity(item.alone)
        if key in followers:
            followers[key].append(item)
        else:
            followers[key] = []
            todo.append(item)
    jobs: list[Job] = []
    current: list[Item] = []
    sizes: list[int] = []

    def close() -> None:
        if len(current) == 1:
            jobs.append(Job([current[0]], current[0].alone))
        elif current:
            jobs.append(Job(list(current), packed_request(list(current), list(sizes)), list(sizes)))
        current.clear()
        sizes.clear()

    for item in todo:
        size = passage_tokens(item) if max_chunks > 1 else 0
        if current and (overhead + sum(sizes) + size > budget or len(current) >= max_chunks):
            close()
        current.append(item)
        sizes.append(size)
    close()
    for job in jobs:
        job.followers = [f for item in job.items for f in followers[identity(item.alone)]]
    return PackPlan(jobs, cached)


Identity = tuple[str, str, tuple[tuple[str, str], ...]]


def identity(request: ChatRequest) -> Identity:
    """What makes two requests of one extractor the same call (the rest of the cache key is shared)."""
    return request.stage, request.template, tuple((m.role, m.content) for m in request.messages)


def doc_shares(items: Sequence[Item], sizes: Sequence[int]) -> dict[str, float]:
    """Document -> its passages' tokens in a pack: how the call's usage is split between documents."""
    shares: dict[str, float] = {}
    for item, size in zip(items, sizes, strict=True):
        doc = item.chunk.doc_id
        shares[doc] = shares.get(doc, 0.0) + max(1, size)
    return shares


def packed_schema(ids: Sequence[str]) -> dict[str, Any]:
    """The JSON schema of a packed reply: one extraction object per passage id (sent to servers
    that hold replies to a schema; `read_packed` still reads each part on its own)."""
    one = reply_schema(JointReply)
    defs = dict(one.get("$defs", {}))
    defs["JointReply"] = {k: v for k, v in one.items() if k != "$defs"}
    return {"type": "object", "properties": {i: {"$ref": "#/$defs/JointReply"} for i in ids},
            "required": list(ids), "$defs": defs}


def packed_messages(system: str, example: tuple[str, Any] | None, passages: Sequence[str]) -> list[ChatMessage]:
    """System (instructions + the packing rule), the example as a pack of one, then the passages."""
    messages = [ChatMessage(role="system", content=system)]
    if example is not None:
        user, output = example
        messages += [ChatMessage(role="user", content=user),
                     ChatMessage(role="assistant", content=json.dumps({"1": output}, ensure_ascii=False))]
    messages.append(ChatMessage(role="user", content="\n\n".join(passages)))
    return messages


@dataclass
class PackedParts:
    """A packed reply read per passage: the usable parts, and the ids to ask again alone (with why)."""

    parts: dict[str, tuple[JointReply, dict[str, Any]]]  # id -> (reply, its JSON object)
    missing: dict[str, str]  # id -> problem


def read_packed(text: str, ids: Sequence[str], *, cut_off: bool) -> PackedParts:
    """Split a packed reply by passage id. A reply cut off at the length limit loses its last part
    (it may be incomplete even when it parses), so that passage is asked again alone."""
    reply, problem, repaired = parse_reply(text, PackedReply)
    if reply is None:
        return PackedParts({}, {i: f"packed reply unusable: {problem}" for i in ids})
    found = reply.root
    if cut_off or repaired:
        found = _without_cut_part(text, found, ids)
    parts: dict[str, tuple[JointReply, dict[str, Any]]] = {}
    missing: dict[str, str] = {}
    for i in ids:
        value = found.get(i)
        if value is None:
            missing[i] = f"passage {i} missing from the packed reply"
            continue
        if value == {}:  # the id answered with nothing: an empty extraction, not an error
            value = {"entities": [], "events": [], "relations": [], "hypernodes": []}
        try:
            parts[i] = (JointReply.model_validate(value), value)
        except ValidationError as exc:
            missing[i] = f"passage {i}: {exc.errors(include_url=False)[0]['msg']}"
    return PackedParts(parts, missing)


def _without_cut_part(text: str, found: dict[str, Any], ids: Sequence[str]) -> dict[str, Any]:
    """The parts of a cut-off reply that are surely whole: all but the one written last, unless the
    reply had already begun a later passage (then that one was the cut, and the repair dropped it)."""
    where = {i: m.start() for i in ids if (m := re.search(rf'"{re.escape(i)}"\s*:', text))}
    present = [i for i in found if i in where]
    if not present:
        return found
    last = max(present, key=lambda i: where[i])
    if any(where[i] > where[last] for i in where if i not in found):
        return found
    return {k: v for k, v in found.items() if k != last}


def part_result(value: dict[str, Any], model: str, prompt_tokens: int, completion_tokens: int) -> ChatResult:
    """One passage's part of a packed reply, as the cached reply to its one-chunk request."""
    return ChatResult(text=json.dumps(value, ensure_ascii=False), model=model, prompt_tokens=prompt_tokens,
                      completion_tokens=completion_tokens, finish_reason="stop")
