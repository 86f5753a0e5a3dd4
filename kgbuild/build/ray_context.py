"""`RayBuildContext`: the build context of the driver and of every Ray worker of one build.

The same `BuildContext` the local runner uses, except that the model gateway is a `RayGateway`
(the cluster's one response cache and one set of limits, in the coordinator actor) and that the
driver sums the accounting the workers send back into the one report.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kgbuild.build.context import BuildContext
from kgbuild.config import Config
from kgbuild.errors import ConfigError
from kgbuild.llm.accounting import Accounting
from kgbuild.progress import ProgressReporter
from kgbuild.report import LLMSection
from kgbuild.schema import Schema

if TYPE_CHECKING:
    from kgbuild.llm.gateway import LLMGateway


class RayBuildContext(BuildContext):
    def __init__(self, config: Config, schema: Schema, coordinator: Any, *, progress: ProgressReporter | None = None,
                 use_cache: bool = True, workers: int | None = None) -> None:
        super().__init__(config, schema, progress=progress, use_cache=use_cache, workers=workers)
        self.coordinator = coordinator
        self.remote_usage = Accounting(config.llm.prices)  # the workers' accounting, summed by the driver

    def gateway(self, setting: str) -> LLMGateway:
        if self._gateway is None:
            if not self.config.llm.configured():
                raise ConfigError(setting, "needs a model endpoint", "set llm.base_url and llm.model")
            from kgbuild.build.ray_gateway import RayGateway

            self._gateway = RayGateway(self.config.llm, self.coordinator, use_cache=self.use_cache)
        return self._gateway

    def usage_snapshot(self) -> dict[str, Any] | None:
        """This process's model accounting since the last snapshot (then reset), for the driver."""
        if self._gateway is None:
            return None
        snapshot = self._gateway.usage.snapshot()
        self._gateway.usage.reset()
        return snapshot

    async def aclose(self) -> LLMSection | None:
        own = await super().aclose()
        if own is None and self.remote_usage.total.requests == 0:
            return None
        if own is not None:
            self.remote_usage.merge(own.model_dump())
        return LLMSection.model_validate(self.remote_usage.snapshot())
