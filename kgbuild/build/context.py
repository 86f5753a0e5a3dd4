"""What every build stage shares: the config, the workspace, the schema, and the resources that are
expensive or stateful, each created at most once per build (the model gateway, the prompt library,
sentence-embedding models, domain concept files).

Resources are created when a stage first asks for them, so a build that never calls a model never
opens a gateway. The runner that created the context closes it (`aclose`).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from kgbuild.config import Config
from kgbuild.embed.models import ModelPool
from kgbuild.errors import ConfigError
from kgbuild.ids import content_hash
from kgbuild.progress import ProgressReporter, QuietProgress
from kgbuild.report import LLMSection
from kgbuild.schema import Schema, resolve_schema
from kgbuild.workspace import Workspace

if TYPE_CHECKING:
    from kgbuild.build.vector_prefetch import VectorPrefetch
    from kgbuild.embed.types import Embedder
    from kgbuild.extract.domain_concepts import DomainConcepts
    from kgbuild.llm.gateway import LLMGateway
    from kgbuild.llm.prompts import PromptLibrary


T = TypeVar("T")


def default_workers(config: Config) -> int:
    return config.build.workers or max(1, os.cpu_count() or 1)


@dataclass(frozen=True)
class LoadedConcepts:
    """A domain concept file, loaded once, with a fingerprint of its content for the caches."""

    concepts: DomainConcepts
    fingerprint: str


class BuildContext:
    def __init__(self, config: Config, schema: Schema, *, progress: ProgressReporter | None = None,
                 use_cache: bool = True, workers: int | None = None) -> None:
        self.config = config
        self.schema = schema
        self.workspace = Workspace(config.workspace_path())
        self.progress: ProgressReporter = progress or QuietProgress()
        self.use_cache = use_cache  # False: re-extract every chunk and bypass the model response cache
        self.workers = workers or default_workers(config)
        self._gateway: LLMGateway | None = None
        # The pipeline writes the stores: an LLM extraction then embeds their texts while it waits
        # on the model (kgbuild.build.vector_prefetch). Set by the runner that knows the pipeline.
        self.prefetch_vectors = False
        # The build's one prefetch, opened by the first extraction batch, finished by the write stage.
        self.vector_prefetch: VectorPrefetch | None = None
        self._prompts: PromptLibrary | None = None
        # one load per model, whichever setting asks; on embedding.device
        self.models = ModelPool(backend=config.embedding.backend, device=config.embedding.device)
        self._concepts: dict[Path, LoadedConcepts] = {}
        self._memo: dict[str, Any] = {}
        # The last build's report when its tables could stand for this build's (same fingerprints up
        # to persist): set by the runner, read by the stream stage (kgbuild.build.unchanged).
        self.last_build: dict[str, Any] | None = None

    @classmethod
    def from_config(cls, config: Config, *, progress: ProgressReporter | None = None, use_cache: bool = True,
                    workers: int | None = None) -> BuildContext:
        """Resolves the schema first: a bad schema stops the build before anything changes."""
        return cls(config, resolve_schema(config.schema_location()), progress=progress, use_cache=use_cache,
                   workers=workers)

    # ---------------------------------------------------------------- decisions several stages need

    def extractor_kind(self) -> str:
        """'llm' or 'offline', from `extract.extractor` and whether a model endpoint is configured."""
        choice = self.config.extract.extractor
        if choice == "llm" and not self.config.llm.configured():
            raise ConfigError("extract.extractor", "'llm' needs a model endpoint",
                              "set llm.base_url and llm.model (or KGBUILD_LLM_BASE_URL / KGBUILD_LLM_MODEL)")
        if choice == "auto":
            return "llm" if self.config.llm.configured() else "offline"
        return choice

    # ---------------------------------------------------------------- shared resources

    def gateway(self, setting: str) -> LLMGateway:
        """The one model gateway of the build (one cache, one set of limits, one accounting).
        `setting` is the config key that asked for a model, named in the error when none is set."""
        if self._gateway is None:
            if not self.config.llm.configured():
                raise ConfigError(setting, "needs a model endpoint", "set llm.base_url and llm.model")
            from kgbuild.llm.gateway import LLMGateway

            self._gateway = LLMGateway(self.config.llm, cache_path=self.workspace.cache_dir / "llm.sqlite",
                                       use_cache=self.use_cache)
        return self._gateway

    def prompts(self) -> PromptLibrary:
        if self._prompts is None:
            from kgbuild.llm.prompts import prompt_library

            self._prompts = prompt_library(self.config)
        return self._prompts

    def embedder(self, name: str | None, setting: str) -> Embedder:
        """The `Embedder` for a model setting (chunking.embedding_model, extract.concept_embedder,
        align.embedder, embedding.model); `name` None or 'bundled' is the bundled MiniLM. Loaded on
        first use, once per resolved model for the whole build (`self.models`); `setting` is the
        config key named in the error if the model cannot be loaded."""
        return self.models.embedder(name, setting=setting)

    def memo(self, key: str, make: Callable[[], T]) -> T:
        """`make()` once per build under `key`: for what a stage needs both for its fingerprint and to
        run (e.g. the chunker, whose tokenizer takes a while to load)."""
        if key not in self._memo:
            self._memo[key] = make()
        value: T = self._memo[key]
        return value

    def domain_concepts(self, location: str) -> LoadedConcepts:
        """A domain concept file or directory (relative to the project), loaded once per build."""
        path = (self.config.root / location).resolve()
        if path not in self._concepts:
            from kgbuild.extract.domain_concepts import load_domain_concepts

            concepts = load_domain_concepts(path)
            fingerprint = content_hash("\n".join(
                f"{c.name}|{c.description}|{','.join(c.aliases)}|{','.join(c.parents)}"
                for c in sorted(concepts, key=lambda c: c.name)))
            self._concepts[path] = LoadedConcepts(concepts, fingerprint)
        return self._concepts[path]

    async def aclose(self) -> LLMSection | None:
        """Release what the stages opened; returns the model accounting if a model was asked."""
        prefetch, self.vector_prefetch = self.vector_prefetch, None
        if prefetch is not None:  # the build stopped before its write stage took it
            await asyncio.to_thread(prefetch.cancel)
            prefetch.close()
        gateway, self._gateway = self._gateway, None
        if gateway is None:
            return None
        usage = LLMSection.model_validate(gateway.usage.snapshot())
        usage.servers = {url: profile.describe() for url, profile in gateway.servers().items()}
        await gateway.aclose()
        return usage
