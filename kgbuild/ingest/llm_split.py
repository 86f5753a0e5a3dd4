"""LLM semantic splitting: the model proposes chunk boundaries (and summaries) for a section.

The chunker calls `split_section` for a section over the budget. Its reply is only used
if the spans are in order, contiguous, cover every sentence and fit the budget (a single
over-long sentence excepted): a reply that does not is re-asked with what is wrong, and
after the last re-ask (or a failed call) the chunker keeps its rule-based boundaries.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from kgbuild.extract.llm_output import SplitReply
from kgbuild.llm.prompts import PromptLibrary
from kgbuild.llm.types import ChatRequest, Gateway, LLMCallError

Span = tuple[int, int, str]  # (first sentence, end sentence exclusive, summary), 0-based


class Counter(Protocol):
    def count(self, text: str) -> int: ...


def check_spans(reply: SplitReply, sentences: Sequence[str], max_tokens: int,
                counter: Counter) -> tuple[list[Span] | None, str]:
    """The reply's chunks as 0-based half-open spans, or (None, what is wrong)."""
    spans: list[Span] = []
    expected = 1
    for i, chunk in enumerate(reply.chunks):
        label = f"chunks[{i}]"
        if chunk.start != expected:
            return None, f"{label}.start is {chunk.start}, expected {expected} (chunks must be contiguous and in order)"
        if chunk.end < chunk.start:
            return None, f"{label}.end {chunk.end} is before its start {chunk.start}"
        if chunk.end > len(sentences):
            return None, f"{label}.end {chunk.end} is past the last sentence ({len(sentences)})"
        if chunk.end > chunk.start:
            tokens = counter.count(" ".join(sentences[chunk.start - 1 : chunk.end]))
            if tokens > max_tokens:
                return None, (f"{label} (sentences {chunk.start}-{chunk.end}) has {tokens} tokens, "
                              f"over the budget of {max_tokens}")
        spans.append((chunk.start - 1, chunk.end, chunk.summary.strip()))
        expected = chunk.end + 1
    if expected != len(sentences) + 1:
        return None, f"sentences {expected}-{len(sentences)} are in no chunk"
    return spans, ""


async def split_section(
    gateway: Gateway,
    prompts: PromptLibrary,
    sentences: list[str],
    max_tokens: int,
    counter: Counter,
    *,
    section: Sequence[str] = (),
    doc_id: str | None = None,
    max_reasks: int = 1,
) -> list[Span] | None:
    """Chunk spans proposed by the model, or None to fall back to the rule-based boundaries."""
    if not sentences:
        return []
    tpl = prompts.get("split")
    reask = prompts.get("reask")
    counts = [counter.count(s) for s in sentences]
    # One line per sentence: a line break inside a sentence would break the numbering.
    lines = "\n".join(f"[{i}] ({n}) {' '.join(s.split())}"
                      for i, (s, n) in enumerate(zip(sentences, counts, strict=True), 1))
    messages = tpl.render(section=" > ".join(section), sentences=lines, count=len(sentences), max_tokens=max_tokens)
    request = ChatRequest(stage="split", template=tpl.key, messages=messages, json_mode=True, doc_id=doc_id)

    def problem(reply: SplitReply) -> str | None:
        return check_spans(reply, sentences, max_tokens, counter)[1] or None

    try:
        reply = await gateway.ask(request, SplitReply, reask=reask.reask(max_reasks, stage="split.reask"),
                                  check=problem)
    except LLMCallError:  # a failed call or no usable reply: splitting is an improvement, never a reason to fail
        return None
    return check_spans(reply, sentences, max_tokens, counter)[0]
