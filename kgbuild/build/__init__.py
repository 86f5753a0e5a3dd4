"""The build: a list of stages over a shared context, run by a runner.

    BuildContext + [stream (read, chunk, extract, assemble), align, corrections, literals, persist, write]
    (runner.PIPELINES)

`Builder` is the entry point the CLI, tests and benchmarks use; it opens a context and hands the
chosen pipeline to the local runner. All the build's I/O happens inside the stages.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from kgbuild.build.context import BuildContext, default_workers
from kgbuild.build.extract import cache_key
from kgbuild.build.records import BuildRequest
from kgbuild.build.runner import PIPELINES, LocalRunner
from kgbuild.build.stage import Stage, StageResult
from kgbuild.config import Config
from kgbuild.progress import ProgressReporter
from kgbuild.report import BuildReport

__all__ = ["PIPELINES", "BuildContext", "BuildRequest", "Builder", "LocalRunner", "Stage", "StageResult",
           "cache_key", "default_workers"]


class Builder:
    def __init__(self, config: Config, progress: ProgressReporter | None = None, *, use_cache: bool = True,
                 process_started: float | None = None) -> None:
        self.config = config
        self.progress = progress
        self.use_cache = use_cache  # False: re-extract every chunk and bypass the LLM response cache
        self.process_started = process_started  # see LocalRunner: set by the CLI to report the startup cost

    async def arun(self, sources: Sequence[Path], *, workers: int | None = None, prune: bool = False,
                   remove: Sequence[str] = (), sync: bool = True) -> BuildReport:
        """Build `sources` into the workspace and write the result into the stores. Async because
        LLM extraction is; call it with `asyncio.run(builder.arun(...))` from synchronous code.

        `prune`: documents of the workspace that were not read from `sources` are removed (except
        those of a source that failed to read: a bad file never costs what was built from it).
        `remove`: document ids to take out. `sync=False` leaves the stores untouched (tables only).
        """
        request = BuildRequest(sources=list(sources), prune=prune, remove=list(remove))
        pipeline = "default" if sync else "tables"
        if self.config.engine.kind == "ray":  # the same stages over a Ray cluster (Ray imported only then)
            from kgbuild.build.ray_runner import RayRunner

            return await RayRunner(self.config, progress=self.progress, use_cache=self.use_cache).run(request, pipeline)
        ctx = BuildContext.from_config(self.config, progress=self.progress, use_cache=self.use_cache, workers=workers)
        return await LocalRunner(ctx, process_started=self.process_started).run(request, pipeline)
