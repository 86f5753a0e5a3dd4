"""Semantic chunking: follow the document's structure, respect a token budget, cut at topic shifts.

1. Each paragraph that fits the budget is a unit; a longer one is cut into sentences and split
   recursively at the boundary where the topic shifts most (lowest similarity between the
   sentence windows on either side), until every piece fits. A huge paragraph (over 64
   budgets) streams: it is cut in consecutive blocks of about 32 budgets, each split alone.
2. A sentence longer than the budget on its own is cut at token boundaries (reported).
3. Short neighbouring paragraphs of the same section are merged while the chunk is below
   `min_tokens` and the merge still fits the budget.

Ids are `{articleID}#{paraCode}#{idInPara}`: the paragraph where the chunk starts, and the
piece's position inside it, so ids sort in reading order and neighbours have neighbouring ids.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

from kgbuild.config import ChunkingConfig
from kgbuild.ids import chunk_id, content_hash
from kgbuild.ingest.sentences import SentenceSplitter
from kgbuild.ingest.similarity import BoundaryScorer, LexicalScorer, WindowSimilarity
from kgbuild.model import Chunk, Document
from kgbuild.tokens import TokenCounter

# Weight of size balance against topic similarity when picking a cut: small, so the topic
# decides, but enough to avoid peeling one sentence at a time off a long paragraph.
_BALANCE_WEIGHT = 0.25

# A paragraph is cut topic-wise in blocks of this many budgets (the last block holds up to
# twice as much): the similarity bags and the range search then stay bounded per block, so a
# 50 MB paragraph costs time and memory linear in its size (issue 16). Paragraphs up to
# 2 * _BLOCK_BUDGETS budgets (~130 KB at 512 tokens) are one block and cut exactly as before.
_BLOCK_BUDGETS = 32


# A plan for one over-budget paragraph, e.g. from the LLM splitter: (first sentence, end
# sentence exclusive, summary) over `Chunker.sentences(text)`.
Span = tuple[int, int, str]


@dataclass
class _Unit:
    paragraph: int
    section: list[str]
    text: str
    tokens: int
    id_in_para: int
    whole: bool  # the entire paragraph (only whole paragraphs are merged)
    oversize: bool = False
    summary: str | None = None


@dataclass
class ChunkedDocument:
    chunks: list[Chunk]
    oversize_sentences: int  # sentences longer than the budget that had to be cut


class Chunker:
    def __init__(
        self,
        config: ChunkingConfig,
        counter: TokenCounter | None = None,
        splitter: SentenceSplitter | None = None,
        scorer: BoundaryScorer | None = None,
    ) -> None:
        self.config = config
        self.counter = counter or TokenCounter(config.encoding)
        self.splitter = splitter or SentenceSplitter()
        self.scorer = scorer or LexicalScorer()

    def fingerprint(self, planner: str = "") -> str:
        """Changes whenever the same document could be cut differently; `planner` names an
        external planner of cuts (e.g. the LLM splitter and its model)."""
        c = self.config
        return content_hash(
            f"chunker-1|{c.max_tokens}|{c.min_tokens}|{c.encoding}|{self.scorer.name}|{c.topic_window}|{planner}"
        )

    def long_paragraphs(self, doc: Document) -> list[tuple[int, list[str]]]:
        """(index, sentences) of the paragraphs over the budget: the ones a splitter must cut."""
        out = []
        for index, para in enumerate(doc.paragraphs):
            tokens = self.counter.count_within(para.text, self.config.max_tokens)
            if (tokens is None or tokens > self.config.max_tokens) and para.text.strip():
                out.append((index, [para.text[s:e] for s, e in self.splitter.spans(para.text)]))
        return out

    def chunk(self, doc: Document, plans: dict[int, list[Span]] | None = None) -> ChunkedDocument:
        """Chunks of `doc`; `plans` gives cut points for long paragraphs (else topic-shift cuts)."""
        units: list[_Unit] = []
        oversize = 0
        for index, para in enumerate(doc.paragraphs):
            if not para.text.strip():
                continue
            tokens = self.counter.count_within(para.text, self.config.max_tokens)
            if tokens is not None and tokens <= self.config.max_tokens:
                units.append(_Unit(index, para.section, para.text.strip(), tokens, 0, True))
                continue
            planned = self._follow_plan(para.text, plans.get(index)) if plans else None
            if planned is not None:
                pieces, cut = planned, 0
            else:
                pieces, cut = self._split_paragraph(para.text)
            oversize += cut
            for k, (text, n, was_cut, summary) in enumerate(pieces):
                units.append(_Unit(index, para.section, text, n, k, False, was_cut, summary or None))
        merged = self._merge(units)
        return ChunkedDocument(self._to_chunks(doc, merged), oversize)

    # ------------------------------------------------------------------ splitting

    def _follow_plan(self, text: str, plan: list[Span] | None) -> list[tuple[str, int, bool, str]] | None:
        """The planned pieces, or None when the plan does not fit this text or the budget."""
        if not plan:
            return None
        spans = self.splitter.spans(text)
        if plan[0][0] != 0 or plan[-1][1] != len(spans) or any(a[1] != b[0] for a, b in pairwise(plan)):
            return None
        pieces = []
        for first, end, summary in plan:
            if end <= first:
                return None
            piece = text[spans[first][0] : spans[end - 1][1]].strip()
            n = self.counter.count(piece)
            if n > self.config.max_tokens:
                return None  # a planner's mistake must not break the budget: fall back to the rules
            pieces.append((piece, n, False, summary))
        return pieces

    def _split_paragraph(self, text: str) -> tuple[list[tuple[str, int, bool, str]], int]:
        """Pieces (text, tokens, contains a cut sentence) of an over-budget paragraph."""
        limit = self.config.max_tokens
        block = _BLOCK_BUDGETS * limit
        atoms: list[tuple[int, int]] = []
        sizes: list[int] = []
        cut_atoms: set[int] = set()
        oversize = 0
        pieces: list[tuple[str, int, bool, str]] = []
        pending = 0  # tokens in `atoms`
        # Sentences stream in; whenever two blocks are pending the first is cut and dropped, so
        # only a bounded window of sentences, counts and bags is alive at a time.
        for start, end in self.splitter.iter_spans(text):
            n = self.counter.count(text[start:end])
            if n <= limit:
                new: list[tuple[int, int, int]] = [(start, end, n)]
            else:
                oversize += 1
                new = [(start + s, start + e, -1) for s, e in self.counter.cut_spans(text[start:end], limit)]
            for s, e, size in new:
                if size < 0:
                    cut_atoms.add(len(atoms))
                    size = self.counter.count(text[s:e])
                atoms.append((s, e))
                sizes.append(size)
                pending += size
            if pending >= 2 * block:
                taken, total = 0, 0
                while total < block:
                    total += sizes[taken]
                    taken += 1
                pieces.extend(self._split_block(text, atoms[:taken], sizes[:taken], cut_atoms))
                del atoms[:taken], sizes[:taken]
                cut_atoms = {i - taken for i in cut_atoms if i >= taken}
                pending -= total
        if atoms:
            pieces.extend(self._split_block(text, atoms, sizes, cut_atoms))
        return pieces, oversize

    def _split_block(
        self, text: str, atoms: list[tuple[int, int]], sizes: list[int], cut_atoms: set[int]
    ) -> list[tuple[str, int, bool, str]]:
        similarity = self.scorer.prepare([text[s:e] for s, e in atoms])
        pieces: list[tuple[str, int, bool, str]] = []
        for lo, hi in self._split_range(text, atoms, sizes, similarity, len(atoms)):
            piece = text[atoms[lo][0] : atoms[hi - 1][1]].strip()
            if piece:
                was_cut = any(i in cut_atoms for i in range(lo, hi))
                pieces.append((piece, self.counter.count(piece), was_cut, ""))
        return pieces

    def _split_range(
        self, text: str, atoms: list[tuple[int, int]], sizes: list[int], similarity: WindowSimilarity, count: int
    ) -> list[tuple[int, int]]:
        # Iterative (explicit stack) so a huge paragraph cannot exhaust Python's recursion limit.
        out: list[tuple[int, int]] = []
        window = self.config.topic_window
        stack = [(0, count)]
        while stack:
            lo, hi = stack.pop()
            approx = sum(sizes[lo:hi])
            if hi - lo == 1 or (
                approx <= self.config.max_tokens
                and self.counter.count(text[atoms[lo][0] : atoms[hi - 1][1]]) <= self.config.max_tokens
            ):
                out.append((lo, hi))
                continue
            # Each side must keep at least an eighth of the range (and min_tokens when it can):
            # the depth of the split stays logarithmic, so a huge paragraph costs n log n.
            floor = max(approx // 8, min(self.config.min_tokens, approx // 2))
            best, best_score = lo + 1, float("inf")
            left = 0
            for b in range(lo + 1, hi):
                left += sizes[b - 1]
                if left < floor or approx - left < floor:
                    continue
                balance = abs(approx - 2 * left) / max(approx, 1)
                # Windows stop at the range's ends: text already cut off must not vote.
                sim = similarity(range(max(lo, b - window), b), range(b, min(hi, b + window)))
                score = sim + _BALANCE_WEIGHT * balance
                if score < best_score:
                    best, best_score = b, score
            if best_score == float("inf"):  # a few huge atoms: no cut satisfies the floor
                best = lo + max(1, (hi - lo) // 2)
            stack.append((best, hi))  # pushed first so the left half is emitted first
            stack.append((lo, best))
        return out

    # ------------------------------------------------------------------ merging

    def _merge(self, units: list[_Unit]) -> list[tuple[_Unit, int]]:
        """Greedy merge of short whole paragraphs of one section; returns (first unit, last paragraph)."""
        out: list[tuple[_Unit, int]] = []
        for unit in units:
            if out:
                cur, _ = out[-1]
                if (
                    cur.whole
                    and unit.whole
                    and cur.section == unit.section
                    and cur.tokens < self.config.min_tokens
                    and cur.tokens + unit.tokens < self.config.max_tokens
                ):
                    text = f"{cur.text}\n\n{unit.text}"
                    tokens = self.counter.count(text)
                    if tokens <= self.config.max_tokens:
                        out[-1] = (_Unit(cur.paragraph, cur.section, text, tokens, 0, True), unit.paragraph)
                        continue
            out.append((unit, unit.paragraph))
        return out

    def _to_chunks(self, doc: Document, merged: list[tuple[_Unit, int]]) -> list[Chunk]:
        ids = [chunk_id(doc.id, unit.paragraph, unit.id_in_para) for unit, _ in merged]
        chunks = []
        for order, ((unit, last), cid) in enumerate(zip(merged, ids, strict=True)):
            chunks.append(
                Chunk(
                    id=cid,
                    doc_id=doc.id,
                    text=unit.text,
                    section=list(unit.section),
                    order=order,
                    paragraph_start=unit.paragraph,
                    paragraph_end=last,
                    token_count=unit.tokens,
                    content_hash=content_hash(unit.text),
                    prev_id=ids[order - 1] if order > 0 else None,
                    next_id=ids[order + 1] if order + 1 < len(ids) else None,
                    oversize_split=unit.oversize,
                    summary=unit.summary,
                )
            )
        return chunks
