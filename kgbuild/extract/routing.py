"""The offline extractor as the build sees it: each chunk goes to the rules of its language.

Chinese chunks (by their share of Han characters, or every chunk when `extract.prompt_language` is
zh) go to `ChineseExtractor`; the rest to the English spaCy rules. Each is built and loaded only
when a chunk needs it, so a Chinese corpus does not pay for spaCy nor an English one for jieba.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from kgbuild.extract.language import detect_language
from kgbuild.ids import content_hash
from kgbuild.model import Chunk, ChunkExtraction

if TYPE_CHECKING:
    from kgbuild.extract.offline import OfflineExtractor
    from kgbuild.extract.zh.extractor import ChineseExtractor
    from kgbuild.schema import Schema


class LanguageRouter:
    name = "offline"

    def __init__(self, schema: Schema, spacy_models: Sequence[str], batch_size: int = 64,
                 domain_concepts: str | None = None, prompt_language: str = "en", code_entities: bool = True) -> None:
        self.schema = schema
        self.spacy_models = tuple(spacy_models)
        self.batch_size = batch_size
        self.domain_concepts = domain_concepts
        self.prompt_language = prompt_language
        self.code_entities = code_entities
        self._english: OfflineExtractor | None = None
        self._chinese: ChineseExtractor | None = None

    def english(self) -> OfflineExtractor:
        if self._english is None:
            from kgbuild.extract.offline import OfflineExtractor

            self._english = OfflineExtractor(self.schema, self.spacy_models, batch_size=self.batch_size,
                                             code_entities=self.code_entities)
        return self._english

    def chinese(self) -> ChineseExtractor:
        if self._chinese is None:
            from kgbuild.extract.zh.extractor import ChineseExtractor

            self._chinese = ChineseExtractor(self.schema, self.domain_concepts)
        return self._chinese

    def is_chinese(self, chunk: Chunk) -> bool:
        return self.prompt_language == "zh" or detect_language(chunk.text) == "zh"

    def fingerprint(self) -> str:
        # Both halves: which one a chunk goes to depends on its text, which the cache key already holds.
        payload = {"router": 1, "en": self.english().fingerprint(), "zh": self.chinese().fingerprint(),
                   "prompt_language": self.prompt_language}
        return content_hash(json.dumps(payload, sort_keys=True))

    def load(self, chunks: Sequence[Chunk] | None = None) -> None:
        """Load the models the chunks need (all of them when no chunks are given), so a missing one
        is reported once, before any chunk is processed."""
        chinese = [self.is_chinese(c) for c in chunks] if chunks is not None else [True, False]
        if any(chinese):
            self.chinese().load()
        if not all(chinese):
            self.english().load()

    def extract(self, chunks: Sequence[Chunk]) -> list[ChunkExtraction]:
        routed = [self.is_chinese(c) for c in chunks]
        results: dict[int, ChunkExtraction] = {}
        for flag, extractor in ((True, self.chinese), (False, self.english)):
            picked = [i for i, r in enumerate(routed) if r is flag]
            if picked:
                for i, result in zip(picked, extractor().extract([chunks[i] for i in picked]), strict=True):
                    results[i] = result
        return [results[i] for i in range(len(chunks))]
