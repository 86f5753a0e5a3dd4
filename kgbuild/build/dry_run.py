"""`kgbuild build --dry-run`: what a build would send to the model, and what it would cost, before
any of it is spent.

It reads and chunks the sources exactly as the build does, takes away the chunks the extraction
cache already holds, and plans the extraction calls with the extractor's own planner (packing
included), so the prompts it counts are the very prompts the build would send; chunks the model
reply cache already answers are taken away too. Prompt tokens are counted with the real tokenizer
(tiktoken) over the message texts, which is how the gateway counts a call whose reply reports no
usage (endpoints add a few tokens per message on top).

It writes nothing: no workspace directory, no cache file (the caches are read as they are, the
reply cache through a read-only SQLite connection), no store opened, no model called.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from pydantic import BaseModel, Field

from kgbuild.build.context import BuildContext
from kgbuild.build.extract import ExtractStage, cache_key, structures
from kgbuild.build.records import BuildRequest
from kgbuild.build.stream import Clock, StreamStage
from kgbuild.config import Config, LLMConfig
from kgbuild.corpus import Corpus
from kgbuild.llm.types import ChatRequest
from kgbuild.model import Chunk
from kgbuild.progress import stage_bars
from kgbuild.report import load_report

COMPLETION_BASIS = "the ratio of the prompt's own few-shot example, times the passage tokens sent"


class DryRunEstimate(BaseModel):
    """What `kgbuild build --dry-run` prints (also as JSON)."""

    documents: int = 0  # read from the sources
    documents_unchanged: int = 0  # same text and chunker as in the workspace: their chunks are kept
    chunks: int = 0  # of the whole corpus after this build
    chunks_cached: int = 0  # in the extraction cache: not extracted again
    chunks_structured: int = 0  # handled by a document structure: no extractor call
    chunks_to_extract: int = 0
    extractor: str = ""
    model: str | None = None
    role: str = "extract"  # the llm.roles entry whose endpoint and model the extraction calls use
    endpoint: str | None = None
    completion_tokens_cap: int = 0  # the max_tokens the requests would carry, summed: the most they can cost
    chunks_reply_cached: int = 0  # answered by the model reply cache: no call
    model_calls: int = 0
    packed_calls: int = 0  # calls holding several chunks
    prompt_tokens: int = 0
    tokenizer: str = ""
    completion_tokens_estimate: int = 0
    completion_basis: str = ""
    cost_usd: float | None = None  # None: no llm.prices entry for the model
    price: dict[str, float] | None = None
    skipped: list[str] = Field(default_factory=list)  # sources that could not be read
    notes: list[str] = Field(default_factory=list)


def _extraction_cache_keys(path: Path) -> set[str]:
    """The keys of an extraction cache file, read without opening it for writing (the build's
    `ExtractionCache` appends, which would create the file)."""
    keys: set[str] = set()
    if not path.is_file():
        return keys
    with path.open("r", encoding="utf-8", errors="replace") as fh:
        for line in fh:
            try:
                keys.add(str(json.loads(line)["key"]))
            except (json.JSONDecodeError, KeyError, TypeError):
                continue  # a torn last line: that chunk is redone, as in the build
    return keys


async def estimate_build(config: Config, sources: Sequence[Path], *, use_cache: bool = True) -> DryRunEstimate:
    out = DryRunEstimate()
    if config.chunking.splitter == "llm":
        # The semantic splitter asks the model per long paragraph, which a dry run must not do.
        config = config.model_copy(update={"chunking": config.chunking.model_copy(update={"splitter": "rules"})})
        out.notes.append("chunking.splitter llm: its calls are not estimated; chunks counted as the rules cut them")
    ctx = BuildContext.from_config(config, use_cache=use_cache, workers=1)
    try:
        corpus = await _read_and_chunk(ctx, BuildRequest(sources=list(sources)), out)
        chunks = corpus.all_chunks()
        _, handled = structures(ctx.schema, corpus)
        pending = [c for c in chunks if c.id not in handled]
        stage = ExtractStage()
        backend = stage.backend(ctx)
        out.extractor = backend.label
        cache_file = ctx.workspace.cache_dir / "extract" / f"{stage.fingerprint(ctx)}.jsonl"
        cached = _extraction_cache_keys(cache_file) if use_cache else set()
        todo = [c for c in pending if cache_key(c) not in cached]
        records = sum(t.num_rows for t in corpus.record_chunks.values())  # mapped records: no extractor call
        out.chunks, out.chunks_structured = len(chunks) + records, len(handled) + records
        out.chunks_cached, out.chunks_to_extract = len(pending) - len(todo), len(todo)
        if ctx.extractor_kind() == "llm":
            _estimate_llm(ctx, backend, todo, out, use_cache=use_cache)
        if config.llm.configured() and config.align.enabled and (config.align.llm_judge or config.align.llm_hypernyms):
            out.notes.append("alignment's model calls (align.llm_judge, align.llm_hypernyms) depend on what "
                             "extraction finds: not included")
    finally:
        await ctx.aclose()
    return out


async def _read_and_chunk(ctx: BuildContext, request: BuildRequest, out: DryRunEstimate) -> Corpus:
    """Read and chunk as the build's stream stage does, batch by batch, stopping before extraction."""
    stream = StreamStage()
    front = stream.open(ctx, request)
    size = ctx.config.build.batch_documents
    with stage_bars(ctx.progress, front.bar_names(extract=False)) as bars:
        async for _ in stream.read_and_chunk(front, request, size if size > 0 else None, bars, Clock()):
            pass
    chunk_section = front.chunking.finish(front.corpus)
    out.documents = front.reading.section.documents_read
    for section in (front.reading.section, chunk_section):
        out.skipped += [f"{s.source}: {s.reason}" for s in section.skipped]
    out.documents_unchanged = chunk_section.documents_unchanged
    return front.corpus


def _estimate_llm(ctx: BuildContext, backend: object, todo: list[Chunk], out: DryRunEstimate, *,
                  use_cache: bool) -> None:
    from kgbuild.build.extract_backends import LLMBackend
    from kgbuild.llm.cache import ResponseCache
    from kgbuild.llm.cache import cache_key as reply_key

    assert isinstance(backend, LLMBackend)
    cfg = ctx.config.llm.for_role("extract")
    model = cfg.model_for("extract")
    out.model = model
    out.endpoint = cfg.base_url or "https://api.openai.com/v1"
    extractor = backend.extractor
    path = ctx.workspace.cache_dir / "llm.sqlite"
    replies = ResponseCache(path, readonly=True) if use_cache and cfg.cache else None
    try:
        def is_cached(request: ChatRequest) -> bool:
            return replies is not None and replies.get(reply_key(cfg.model_for(request.stage), request)) is not None

        plan = extractor.plan(todo, backend.candidates(todo), is_cached=is_cached)
    finally:
        if replies is not None:
            replies.close()
    from kgbuild.tokens import TokenCounter

    counter = TokenCounter()
    out.tokenizer = f"tiktoken {counter.encoding_name}"
    followers = [item for job in plan.jobs for item in job.followers]
    requests = [job.request for job in plan.jobs]
    if replies is None:  # no reply cache: a chunk repeating another's request pays for its own call
        requests += [item.alone for item in followers]
        followers = []
    out.chunks_reply_cached = len(plan.cached) + len(followers)
    if extractor.mode == "multistep":  # the second step's prompt, without the entities step one finds
        requests += [extractor.followup_request(item.chunk) for job in plan.jobs for item in job.items]
        out.notes.append("multistep: the facts prompts are counted without the entity list the first step adds")
    out.model_calls = len(requests)
    out.packed_calls = sum(1 for job in plan.jobs if job.packed)
    out.prompt_tokens = sum(counter.count(m.content) for r in requests for m in r.messages)
    out.completion_tokens_cap = sum(_sized(cfg, r) for r in requests)
    sent = [item.chunk for job in plan.jobs for item in job.items]
    measured = _completion_per_chunk(ctx)
    if measured is not None:
        out.completion_tokens_estimate = round(measured * len(sent))
        out.completion_basis = (f"{measured:.0f} per chunk, as measured in this workspace's last build "
                                f"({extractor.mode} extraction)")
    else:
        ratio = extractor.completion_ratio(counter)
        out.completion_tokens_estimate = round(ratio * sum(counter.count(c.text) for c in sent))
        out.completion_basis = f"{ratio:.1f} reply tokens per passage token, {COMPLETION_BASIS}"
    price = cfg.prices.get(model)
    if price is None:
        out.notes.append(f"no llm.prices entry for '{model}': cost not estimated")
        return
    out.price = {"prompt_per_1m": price.prompt_per_1m, "completion_per_1m": price.completion_per_1m}
    out.cost_usd = (out.prompt_tokens * price.prompt_per_1m
                    + out.completion_tokens_estimate * price.completion_per_1m) / 1_000_000


def _sized(cfg: LLMConfig, request: ChatRequest) -> int:
    """The max_tokens the gateway sends with `request` (kgbuild.llm.gateway.LLMGateway.sized)."""
    if request.max_tokens is not None:
        return min(request.max_tokens, cfg.max_output_tokens)
    if request.passages:
        return min(cfg.max_output_tokens, request.passages * cfg.passage_output_tokens)
    return cfg.max_output_tokens


def _completion_per_chunk(ctx: BuildContext) -> float | None:
    """Completion tokens per chunk the model answered in the workspace's last build (chunks answered
    by the reply cache cost none and are left out), or None without such a build."""
    report = load_report(ctx.workspace.latest_report())
    if report is None or report.llm is None or report.extract is None:
        return None
    usage = report.llm.by_stage.get("extract")
    answered = report.extract.chunks_extracted - (usage.cache_hits if usage else 0)
    if usage is None or answered <= 0 or usage.completion_tokens <= 0:
        return None
    return usage.completion_tokens / answered


def render_estimate(est: DryRunEstimate) -> list[str]:
    """The human-readable lines of a dry run."""
    lines = [
        "dry run: nothing was written, no model was called",
        f"documents: {est.documents} read ({est.documents_unchanged} unchanged in the workspace)",
        f"chunks: {est.chunks} in all; {est.chunks_cached} in the extraction cache, {est.chunks_structured} "
        f"by document structure; {est.chunks_to_extract} to extract",
        f"extractor: {est.extractor}",
    ]
    if est.model is None:
        lines.append("model calls: 0 (offline extractor)")
    else:
        lines += [
            f"model calls: {est.model_calls} to {est.model} at {est.endpoint} (role {est.role}; {est.packed_calls} "
            f"packed; {est.chunks_reply_cached} chunk(s) answered by the model reply cache)",
            f"prompt tokens: {est.prompt_tokens:,} ({est.tokenizer}, the prompts the build would send)",
            f"completion tokens: ~{est.completion_tokens_estimate:,} (estimated: {est.completion_basis}; at most "
            f"{est.completion_tokens_cap:,} by max_tokens)",
        ]
        if est.cost_usd is not None and est.price is not None:
            lines.append(f"estimated cost: ${est.cost_usd:.4f} ({est.model}: ${est.price['prompt_per_1m']:g} prompt, "
                         f"${est.price['completion_per_1m']:g} completion per 1M tokens)")
    lines += [f"skipped: {s}" for s in est.skipped]
    lines += [f"note: {n}" for n in est.notes]
    return lines
